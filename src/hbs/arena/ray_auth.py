"""Reaching a Ray cluster as ``ray start`` set it up: with its token where it asks for one.

Since Ray 2.59 a head started where a token exists (``ray get-auth-token --generate`` writes
``~/.ray/auth_token``) asks every client for it; but a client given an explicit address sends it
only with ``RAY_AUTH_MODE=token``, and a client in token mode cannot run its actors on a cluster
without authentication.  So before connecting hbs asks the head's GCS once, with no token (one RPC,
milliseconds): where it answers *unauthenticated* and a token is at hand (``RAY_AUTH_TOKEN``,
``RAY_AUTH_TOKEN_PATH``, or ``~/.ray/auth_token``), the run connects in token mode; where no token
is at hand, one line says where to get it (Ray itself retried for 20 s, then blamed the address).
``RAY_AUTH_MODE`` set by the user is followed as it is.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hbs.errors import InputError

MODE = "RAY_AUTH_MODE"
PROBE_SECONDS = 5.0


def token_at_hand() -> bool:
    """Whether a token is where Ray looks for one (in its order of precedence)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(path).is_file() if path else (Path.home() / ".ray" / "auth_token").is_file()


def asks_for_token(address: str) -> bool:
    """Whether the GCS at ``address`` turns away a client without a token (False where it cannot be
    asked: the connection reports what is wrong)."""
    try:
        import grpc  # Ray's own dependency
    except ImportError:
        return False
    with grpc.insecure_channel(address) as channel:
        ask = channel.unary_unary("/ray.rpc.NodeInfoGcsService/GetClusterId")
        try:
            ask(b"", timeout=PROBE_SECONDS)  # an empty GetClusterIdRequest
        except grpc.RpcError as exc:
            return exc.code() == grpc.StatusCode.UNAUTHENTICATED
    return False


def authenticate(address: str) -> None:
    """Set this process to send the cluster's token where the cluster at ``address`` asks for one
    and the user did not say (``RAY_AUTH_MODE``); raise :class:`InputError` where no token is at hand."""
    if os.environ.get(MODE) is not None or address == "auto" or not asks_for_token(address):
        return
    if not token_at_hand():
        raise InputError(f"the Ray cluster at {address} asks for its token and none is here: copy the head's "
                         f"~/.ray/auth_token (`ray get-auth-token` on the head prints it) to ~/.ray/auth_token, "
                         f"or set RAY_AUTH_TOKEN")
    os.environ[MODE] = "token"
    if "ray" in sys.modules:  # Ray caches its configuration: have it read the mode again
        from ray._private.authentication.authentication_token_setup import _enable_token_auth

        _enable_token_auth()
