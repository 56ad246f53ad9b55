"""numba's CPU target loaded before the bot's setup, SciPy's linear algebra not, and only for a bot
that imports numba."""

import subprocess
import sys
from pathlib import Path

import pytest

from hbs.arena.replays import read

PROBE = """
import sys
{load}
import numba.np.arraymath as arraymath
loaded = "scipy.linalg" in sys.modules
import numpy as np
from numba import njit

@njit
def kernels(x, y):
    return np.dot(x, y), x @ y  # BLAS both (np.correlate, which reads the flag, compiled 6 s longer)

print(arraymath._HAVE_BLAS, loaded, kernels(np.arange(3.0), np.arange(3.0)), "scipy.linalg" in sys.modules)
"""


def probe(load: str) -> list[str]:
    done = subprocess.run([sys.executable, "-I", "-c", PROBE.format(load=load)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_target_defers_blas_and_keeps_numbas_answer():
    pytest.importorskip("scipy")
    # the control: numba's own start imports scipy.linalg to look for BLAS
    plain = probe("from numba.core.registry import cpu_target; cpu_target.target_context.refresh()")
    assert plain == ["True", "True", "(5.0,", "5.0)", "True"]
    # the worker's: the same flag, scipy.linalg only once a kernel needs BLAS, the same results
    assert probe("import numba, hbs.sandbox.worker as w; w._numba_target()") == ["True", "False", "(5.0,", "5.0)", "True"]


def test_the_deferral_undoes_itself_when_the_target_fails_to_load():
    pytest.importorskip("scipy")
    code = ("import sys\nimport hbs.sandbox.worker as w\ntry:\n    with w._blas_deferred():\n"
            "        assert sys.modules[w.CYTHON_BLAS] is None\n        raise RuntimeError\nexcept RuntimeError:\n"
            "    pass\nprint(w.CYTHON_BLAS in sys.modules)\nimport scipy.linalg.cython_blas\nprint('imported')")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "imported"], done.stderr


PROBE_BOT = '''"""Says in each guess's phase what its process has loaded."""
import sys
{imports}
from hbs import Bot, Guess


class Probe(Bot):
    """Says in each guess's phase what its process has loaded."""

    games = frozenset({{"mastermind"}})

    def guess(self, history):
        loaded = [m for m in ("numba", "hbs.strategies", "numba.np.arraymath", "scipy.linalg") if m in sys.modules]
        return Guess("1122" if not history else "3456", phase=",".join(loaded) or "none")
'''


@pytest.mark.parametrize("imports, phase", [("", "none"), ("import numba", "numba,hbs.strategies,numba.np.arraymath")])
def test_only_a_bot_that_imports_numba_gets_its_target_loaded(tmp_path, imports, phase):
    """A confined bot's worker loads numba's target for the bot that imported numba (the control: numba's
    arrays' kernels and the bundled strategies loaded, SciPy's linear algebra not), and nothing of numba's for one that did not
    (1 s of CPU less at each worker's start)."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "probe.py").write_text(PROBE_BOT.format(imports=imports))
    (tmp_path / "codes.txt").write_text("1122\n")
    done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "probe", "--bots-dir", str(bots), "--secrets",
                           str(tmp_path / "codes.txt"), "--replays", str(tmp_path / "r.jsonl"), "--scoreboard",
                           str(tmp_path / "board")], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert [step.phase for game in read(tmp_path / "r.jsonl") for step in game.steps] == [phase]
