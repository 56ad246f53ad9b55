"""Freed memory kept for reuse (``hbs.strategies.allocator``): page faults counted by the kernel."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

# Ten arrays of 16 MB touched and freed, ten rounds after a first; prints the minor page faults of
# those rounds (the kernel's count, getrusage).
WORKLOAD = """
import resource, sys
import numpy as np
from hbs.strategies.allocator import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
elif sys.argv[1] == "engine":  # the phrase engine keeps it as it is built
    from hbs.core.games import PhraseGame
    from hbs.strategies.phrases.passphrase import PhraseBreaker
    PhraseBreaker(PhraseGame(("cat", "dogs", "eagle", "ferret", "gorilla"), 2))
def rounds(k):
    for _ in range(k):
        arrays = [np.ones(2_000_000) for _ in range(10)]
        del arrays
rounds(1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
rounds(10)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", WORKLOAD, mode], capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_arrays_freed_and_allocated_again_reuse_their_pages():
    """With malloc's defaults (the control) the heap hands freed megabytes back and the next arrays
    fault their pages in anew (about 48,000 faults measured); kept, they come back from the heap
    (none measured), and so where the phrase engine was built first."""
    control, kept, engine = faults("default"), faults("keep"), faults("engine")
    assert control > 10_000
    assert kept < control / 20
    assert engine < control / 20
