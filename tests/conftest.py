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


def pytest_collection_modifyitems(items):
    """Under ``-n`` (pytest-xdist), the Ray tests share one worker: two clusters on this machine at
    once would contend for its ports and its two cores."""
    for item in items:
        if item.get_closest_marker("ray"):
            item.add_marker(pytest.mark.xdist_group("ray"))
