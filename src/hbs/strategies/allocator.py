"""Freed memory kept for reuse: the engines' arrays come back from the heap, not as fresh pages.

A phrase guess allocates and frees arrays of megabytes by the hundred (levels, tables, draws,
joins).  glibc's malloc maps large blocks afresh, and hands the top of its heap back to the kernel
once some tens of megabytes lie free there, so the next guess's arrays are new pages, each zeroed
and faulted in at its first touch.  :func:`keep_freed_memory` sets, through glibc's ``mallopt``,
the mmap threshold to its most (32 MiB: smaller blocks come from the heap) and the trim threshold
out of reach (the heap keeps what was freed).  Six Diceware words, six phrases of ``--seed 23``,
one thread, three runs each interleaved: 1.39 million page faults to 0.15 million, 48.1, 47.5 and
51.2 s of guessing to 44.1, 42.7 and 44.8, the slowest guess 2.7-3.5 s to 2.4-2.6 s; the same
guesses, about the same peaks of resident memory (652 and 661 MB) and the same of mapped (966 MB).
"""

from __future__ import annotations

import ctypes

#: glibc's ``mallopt`` parameters (malloc.h) and the values set.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20  # (glibc's largest on 64-bit machines)
TRIM_THRESHOLD = (1 << 31) - 1

_kept = False


def keep_freed_memory() -> bool:
    """Set malloc to keep freed memory for reuse (see the module), once a process; False where the C
    library has no ``mallopt`` (not glibc) or refuses a value."""
    global _kept
    if _kept:
        return True
    try:
        libc = ctypes.CDLL(None)  # (the process's own symbols, the C library's among them: no search, no subprocess)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    _kept = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    return _kept
