"""Shared fixtures: paths of the shipped data and of the original challenge's data, the benchmark scripts."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

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
def benchmark_script(root):
    """``benchmark_script(name)``: ``benchmarks/<name>.py`` loaded as a module."""
    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"{name}_benchmark", root / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load


@pytest.fixture
def codegolf() -> Path:
    if not (SHARED / "words.txt").exists():
        pytest.skip(f"the original challenge data is not at {SHARED}")
    return SHARED

from hypothesis import settings  # noqa: E402

# The first call of a numba kernel compiles it (or loads the cache): no per-example deadline.
settings.register_profile("hbs", deadline=None)
settings.load_profile("hbs")


#: Tests that share one process under ``-n`` (pytest-xdist), by path: two Ray clusters on this
#: machine at once would contend for its ports and its two cores; the in-process numba kernels
#: compile into the source tree's cache once (two processes on a cold cache each compiled them, on a
#: core each); the phrase bot's level-search kernels compile into its cache (five and six words
#: through ``hbs run``), and the optimal bot's, and its 4x6 strategy is searched and saved, once
#: for the tests after them (test_shared_process.py runs phrase tests in pytests of its own); the
#: web board's tests share the runs and the site their module's fixture makes (18 s a process).
SHARED_PROCESS = {"tests/integration/test_ray": "ray", "tests/strategies/phrases/": "phrase-kernels",
                  "tests/test_shared_process.py": "phrase-kernels", "tests/cli/test_phrase_schemes.py": "phrase-bot",
                  "tests/bots/test_optimal.py": "optimal-search", "tests/integration/test_site.py": "site"}


@pytest.hookimpl(optionalhook=True)  # (a hook of xdist's: pytest without it runs the suite too)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the groups of ``SHARED_PROCESS``, read from the tests' paths.  Not
    ``xdist_group`` marks: xdist passes those to its scheduler by renaming the tests, which pytest 9.2
    no longer lets it do (pytest-xdist issue 1386: every test scheduled alone, without a word)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedProcesses(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((g for prefix, g in SHARED_PROCESS.items() if nodeid.startswith(prefix)), nodeid)

    return SharedProcesses(config, log)
