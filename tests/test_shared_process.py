"""The suite's own scheduling (tests/conftest.py): the tests of a ``SHARED_PROCESS`` group run in one
process under ``-n``.  Where the grouping fails, xdist says nothing and the suite still passes, only
with the same kernels compiled in both processes at once: this test is what notices."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUPED = "tests/strategies/phrases/test_phrase_pieces.py"
CHEAP = "hypotheses"  # 5 of its tests, milliseconds each: the subprocesses' start is what costs


def workers_of(dist: str) -> set[str]:
    """The pytest-xdist workers that ran ``GROUPED``'s tests, two processes and ``--dist dist``."""
    # (only xdist among the plugins: loading every installed one took 4 of each run's 10 s)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "xdist", "-n", "2", "-v", "-p", "no:cacheprovider",
                           "-o", "addopts=", "--dist", dist, GROUPED, "-k", CHEAP], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stdout[-2000:]
    return {line.split()[0] for line in done.stdout.splitlines() if line.startswith("[gw") and GROUPED in line}


def test_a_groups_tests_run_in_one_process(request):
    # (not `from conftest import`: the name is every folder's conftest, whichever was imported first)
    shared = request.config.pluginmanager.get_plugin(str(ROOT / "tests" / "conftest.py")).SHARED_PROCESS
    assert any(GROUPED.startswith(prefix) for prefix in shared)
    assert len(workers_of("loadgroup")) == 1
    assert len(workers_of("load")) == 2  # the control: scheduled one by one, they spread over both
