"""The confinement mechanisms a test runs under.

A test of what a mechanism holds (files, processes, memory, the network, signals) runs under each
mechanism this machine has.  A test of which commands go through the confinement at all (check,
tree, tournament, listing, the board, program bots) asks the same question of every mechanism: by
default it runs under the first (bubblewrap where there is one), under every one with
``-m slow``, to keep the default suite within its time.
"""

from __future__ import annotations

import pytest

from hbs.sandbox import confinement

MECHANISMS = confinement.available()
ROUTED = [pytest.param(m, marks=pytest.mark.slow) if k else m for k, m in enumerate(MECHANISMS)]


@pytest.fixture(params=ROUTED)
def routed(request) -> str:
    """A mechanism for a routing test: the first by default, every one with ``-m slow``."""
    return request.param
