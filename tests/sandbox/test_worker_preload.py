"""The worker's head start: numba's CPU target loaded before the bot, SciPy's linear algebra not."""

import subprocess
import sys

import pytest

PROBE = """
import sys
{load}
import numba.np.arraymath as arraymath
loaded = "scipy.linalg" in sys.modules
import numpy as np
from numba import njit

@njit
def kernels(x, y):
    return np.dot(x, y), np.correlate(x, y)[0]

print(arraymath._HAVE_BLAS, loaded, kernels(np.arange(3.0), np.arange(3.0)), "scipy.linalg" in sys.modules)
"""


def probe(load: str) -> list[str]:
    done = subprocess.run([sys.executable, "-I", "-c", PROBE.format(load=load)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_preload_defers_blas_and_keeps_numbas_answer():
    pytest.importorskip("scipy")
    # the control: numba's own start imports scipy.linalg to look for BLAS
    plain = probe("from numba.core.registry import cpu_target; cpu_target.target_context.refresh()")
    assert plain == ["True", "True", "(5.0,", "5.0)", "True"]
    # the worker's: the same flag, scipy.linalg only once a kernel needs BLAS, the same results
    assert probe("import hbs.sandbox.worker as w; w._preload()") == ["True", "False", "(5.0,", "5.0)", "True"]


def test_the_deferral_undoes_itself_when_the_target_fails_to_load():
    pytest.importorskip("scipy")
    code = ("import sys\nimport hbs.sandbox.worker as w\ntry:\n    with w._blas_deferred():\n"
            "        assert sys.modules[w.CYTHON_BLAS] is None\n        raise RuntimeError\nexcept RuntimeError:\n"
            "    pass\nprint(w.CYTHON_BLAS in sys.modules)\nimport scipy.linalg.cython_blas\nprint('imported')")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "imported"], done.stderr
