"""The worker process: runs one bot, never a secret.

Started by :mod:`hbs.sandbox.launch`, already confined, in its scratch folder.  Reads one JSON request a line
on stdin and writes one JSON reply a line on a private copy of stdout (the bot's own prints go to stderr).  Requests: ``{"op": "setup", "source": {name, path,
entry_point}, "options": {...}, "game": {...}, "threads": T}``, ``{"op": "describe", "source": ...}``
(for listing bots), ``{"op": "guess", "history": [[guess, black, white], ...]}`` and, for a bot
whose guesses depend on the history alone (``Bot.history_only``), ``{"op": "guesses", "histories":
[history, ...]}``: the turns of several games at once.  Before it loads the bot, the worker caps
numba's threads; after, where the bot has imported numba, it loads numba's CPU target.  Replies:
``{"ok": true}`` (with ``"batch": true`` for such a bot), ``{"summary": ..., "error": ...}``,
``{"guess": ..., "remaining": ..., "phase": ...}``, ``{"invalid": why}``, ``{"error": last lines
of the traceback}`` (with ``"spent": true`` after a MemoryError: the runner replaces the worker),
``{"unsupported": why}``; ``{"guesses": [reply, ...]}``, one of those a history.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from typing import Iterator

from hbs.contract.guesses import last_lines, read_guess
from hbs.contract.bot import Bot, BotSource, Turn, accepts_option, describe, load, make_bot, untyped_options, with_seed
from hbs.errors import HbsError, UnsupportedGame
from hbs.core.games import from_payload


def _numba_target() -> None:
    """Load numba's CPU target (and the bundled strategies) for a bot that has imported numba,
    before its setup: trusted code, loaded confined.  A bot that never imports numba never pays for
    it (its worker starts in 0.3 s of CPU instead of 1.3), nor does listing a bot (``describe``
    imports the bot's module and needs no target)."""
    if "numba" not in sys.modules:
        return
    try:
        with _blas_deferred():
            import hbs.strategies  # noqa: F401
            from numba.core.registry import cpu_target

            # what numba does before it loads its first kernel: the CPU target's registries
            cpu_target.target_context.refresh()
    except Exception:  # noqa: BLE001 - only a head start: the bot that needs it loads it itself
        pass


CYTHON_BLAS = "scipy.linalg.cython_blas"


@contextlib.contextmanager
def _blas_deferred():
    """Load numba's CPU target without SciPy's linear algebra: to learn whether BLAS is there,
    ``numba.np.arraymath`` imports ``scipy.linalg.cython_blas``, which imports all of
    ``scipy.linalg`` (0.2 s of CPU, a third of a worker's start, on two cores paid by each worker
    alongside the others).  Where that probe would pass (:func:`_blas_usable`), the import is held
    off while the target loads and numba's flag set as the probe would have; a kernel that uses
    BLAS imports it when numba compiles it (``numba.np.linalg.ensure_blas``) or, loaded from numba's
    cache, at its first call: the 0.2 s move to the bot's first use of BLAS, if any.  Anywhere
    else numba probes as it always does."""
    if CYTHON_BLAS in sys.modules or not _blas_usable():
        yield
        return
    sys.modules[CYTHON_BLAS] = None  # `import` raises ImportError at once, its parents not imported
    try:
        yield
    finally:
        if CYTHON_BLAS in sys.modules and sys.modules[CYTHON_BLAS] is None:
            del sys.modules[CYTHON_BLAS]
        arraymath = sys.modules.get("numba.np.arraymath")
        if arraymath is not None and hasattr(arraymath, "_HAVE_BLAS"):
            arraymath._HAVE_BLAS = True


def _blas_usable() -> bool:
    """Whether numba's BLAS probe would pass, asked without importing ``scipy.linalg``: SciPy ships
    the ``cython_blas`` extension, and numba's check that it was built for numba's integer width
    (read from ``scipy.__config__``) passes.  False on any doubt (another numba, no SciPy)."""
    try:
        from numba.np import linalg

        linalg._check_lapack_int_width()
        spec = importlib.util.find_spec("scipy")
    except Exception:  # noqa: BLE001 - numba's own probe then decides
        return False
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    return any(os.path.isfile(os.path.join(folder, "linalg", "cython_blas" + suffix))
               for folder in folders for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _threads(request: dict) -> None:
    """Cap the threads of numba's parallel kernels (for the bot's thread) at its share of the cores, and
    keep the worker on the core the runner chose for it (see :func:`hbs.arena.local.pinned`)."""
    if request.get("cpu") is not None:
        try:
            os.sched_setaffinity(0, {int(request["cpu"])})
        except (OSError, ValueError):
            pass
    if not request.get("threads"):
        return
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = str(request["threads"])
        return
    # loaded by a bot loaded before in this worker: the size of its pool is read (and changing the
    # variable now would make numba refuse to run), how many of them a kernel uses is not
    import numba

    numba.set_num_threads(max(1, min(int(request["threads"]), numba.config.NUMBA_NUM_THREADS)))


def _answer(bot: Bot | None, request: dict) -> dict:
    if request["op"] == "describe":
        entry = describe(BotSource(**request["source"]))
        reply = {"summary": entry.summary, "error": entry.error}
        if entry.cls is not None:
            reply["games"] = [g["kind"] for g in request.get("games", []) if entry.cls.plays(from_payload(g))]
            reply["untyped"] = untyped_options(entry.cls)
            reply["seeded"] = accepts_option(entry.cls, "seed")
        return reply
    if request["op"] == "setup":
        _threads(request)
        bot_cls = load(BotSource(**request["source"]))
        _numba_target()
        made = make_bot(bot_cls, with_seed(bot_cls, request.get("options", {}), request.get("seed")))
        made.setup(from_payload(request["game"]))
        return {"ok": True, "bot": made, **({"batch": True} if bot_cls.history_only is True else {})}
    assert bot is not None, "guess before setup"
    if request["op"] == "guesses":
        return {"guesses": [_guarded(_turn, bot, history) for history in request["histories"]]}
    return _turn(bot, request["history"])


def _turn(bot: Bot, history: list) -> dict:
    guess, problem = read_guess(bot.guess(tuple(map(Turn._make, history))))
    if problem:
        return {"invalid": problem}
    return {"guess": guess.text, "remaining": guess.remaining, "phase": guess.phase}


def _guarded(answer, *args) -> dict:
    """``answer(*args)``, or the reply that says how it failed."""
    try:
        return answer(*args)
    except UnsupportedGame as exc:
        return {"unsupported": str(exc)}
    except HbsError as exc:
        return {"error": str(exc), "exit_code": exc.exit_code}
    except Exception as exc:  # the bot's own failure: reported, the worker goes on
        reply = {"error": last_lines(exc)}
        if isinstance(exc, MemoryError):  # at its cap, where what it keeps may fail every later game
            reply["spent"] = True  # the runner plays the next game in a fresh worker
        return reply


def _requests() -> Iterator[dict]:
    """Requests read straight from file descriptor 0, a line each."""
    buffer = b""
    while True:
        while b"\n" not in buffer:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                return
            buffer += chunk
        line, _, buffer = buffer.partition(b"\n")
        yield json.loads(line)


def main() -> None:
    protocol = os.dup(1)
    os.dup2(2, 1)  # whatever the bot prints goes to stderr, never into the protocol
    sys.stdout = sys.stderr
    bot: Bot | None = None
    for request in _requests():
        reply = _guarded(_answer, bot, request)
        bot = reply.pop("bot", bot)
        data = (json.dumps(reply) + "\n").encode()
        while data:
            data = data[os.write(protocol, data):]


if __name__ == "__main__":
    main()
