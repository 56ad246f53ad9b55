"""Shared fixtures: paths of the shipped data and of the original challenge's data."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "codegolf"


@pytest.fixture(autouse=True)
def _scoreboard(tmp_path_factory, monkeypatch):
    """Runs made by tests record into a scratch scoreboard, never the repository's."""
    monkeypatch.setenv("HBS_SCOREBOARD", str(tmp_path_factory.mktemp("scoreboard")))


@pytest.fixture
def batches_grow(monkeypatch) -> None:
    """A worker's batch of games doubles after every turn, however long the guesses take (it grows
    only while they take under ``BATCH_FAST`` each: on a slow machine a test of batches saw none)."""
    from hbs.arena import contestant

    monkeypatch.setattr(contestant, "BATCH_FAST", float("inf"))


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def codegolf() -> Path:
    if not (SHARED / "words.txt").exists():
        pytest.skip(f"the original challenge data is not at {SHARED}")
    return SHARED

from hypothesis import settings  # noqa: E402

# The first call of a numba kernel compiles it (or loads the cache): no per-example deadline.
settings.register_profile("hbs", deadline=None)
settings.load_profile("hbs")


#: Tests that share one process under ``-n`` (pytest-xdist), by file: the in-process numba kernels
#: compile into the source tree's cache once (two processes on a cold cache each compiled them, on
#: a core each), and the optimal bot's 4x6 strategy is searched once and saved for the tests after it.
SHARED_PROCESS = {"tests/strategies/phrases/": "phrase-kernels", "tests/bots/test_optimal.py": "optimal-search"}


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups into the tests' ids
def pytest_collection_modifyitems(items):
    """Under ``-n``, the Ray tests share one process (two clusters on this machine at once would
    contend for its ports and its two cores), and so do the files of ``SHARED_PROCESS``."""
    for item in items:
        path = item.path.relative_to(ROOT).as_posix() if item.path.is_relative_to(ROOT) else ""
        group = "ray" if item.get_closest_marker("ray") else next(
            (g for prefix, g in SHARED_PROCESS.items() if path.startswith(prefix)), None)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
