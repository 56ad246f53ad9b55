"""The guesses worth trying at a node of the exact search: one of each class of guesses that the
symmetries the history keeps make alike.

Colours that no code of the set holds are all alike (a guess needs only one of them, or for Bulls and
Cows the first few in order); colours no earlier guess used are interchangeable (the k-th new colour
of a guess is the k-th smallest); while the history still has position and colour symmetries (the
first guesses), only the least code of each orbit under them is tried.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.strategies.stable_order import stable_order


@njit(cache=True)
def _symmetries(codes, perms, hist, hlen, ncolors):
    """The position permutations (rows of ``perms``) that, with some colour permutation, fix every
    guess of the history; and for each, the colour map forced on the colours the history used."""
    maps = np.full((perms.shape[0], ncolors), -1, dtype=np.int64)
    valid = np.zeros(perms.shape[0], dtype=np.bool_)
    pegs = codes.shape[1]
    for s in range(perms.shape[0]):
        ok = True
        inverse = np.full(ncolors, -1, dtype=np.int64)
        for t in range(hlen):
            h = codes[hist[t]]
            for i in range(pegs):
                a = h[perms[s, i]]
                b = h[i]
                if maps[s, a] == -1 and inverse[b] == -1:
                    maps[s, a] = b
                    inverse[b] = a
                elif maps[s, a] != b or inverse[b] != a:
                    ok = False
                    break
            if not ok:
                break
        valid[s] = ok
    return valid, maps


@njit(cache=True)
def _orbit_least(code, perms, valid, maps, free, image) -> bool:
    """Whether ``code`` is the least of its orbit under the history's symmetries."""
    pegs = code.shape[0]
    ncolors = free.shape[0]
    rename = np.full(ncolors, -1, dtype=np.int64)
    for s in range(perms.shape[0]):
        if not valid[s]:
            continue
        rename[:] = -1
        nxt = 0
        for i in range(pegs):
            c = code[perms[s, i]]
            if maps[s, c] >= 0:
                image[i] = maps[s, c]
            else:
                if rename[c] < 0:
                    while not free[nxt]:
                        nxt += 1
                    rename[c] = nxt
                    nxt += 1
                image[i] = rename[c]
        for i in range(pegs):
            if image[i] != code[i]:
                if image[i] < code[i]:
                    return False
                break
    return True


@njit(cache=True)
def _colours(codes, hist, hlen, subset, ncolors) -> tuple[np.ndarray, np.ndarray]:
    """Which colours the history used, and which some code of ``subset`` holds."""
    pegs = codes.shape[1]
    used = np.zeros(ncolors, dtype=np.bool_)
    for t in range(hlen):
        for i in range(pegs):
            used[codes[hist[t], i]] = True
    present = np.zeros(ncolors, dtype=np.bool_)
    for j in subset:
        for i in range(pegs):
            present[codes[j, i]] = True
    return used, present


@njit(cache=True)
def _alike(codes, used, present, distinct) -> np.ndarray:
    """The codes kept when only colours are symmetric: every absent colour is the least absent one
    (Bulls and Cows: the absent colours of a code are the least ones, in order), and colours no
    guess used appear in order (the k-th new colour of a code is the k-th smallest)."""
    n_codes, pegs = codes.shape
    ncolors = used.shape[0]
    dead = np.empty(ncolors, dtype=np.int64)
    fresh = np.empty(ncolors, dtype=np.int64)
    n_dead, n_fresh = 0, 0
    for c in range(ncolors):
        if not present[c]:
            dead[n_dead] = c
            n_dead += 1
        elif not used[c]:
            fresh[n_fresh] = c
            n_fresh += 1
    keep = np.zeros(n_codes, dtype=np.bool_)
    seen = np.full(ncolors, -1, dtype=np.int64)  # the last code that held each colour
    for g in range(n_codes):
        k_dead, k_fresh, ok = 0, 0, True
        for i in range(pegs):
            c = codes[g, i]
            if not present[c]:
                if distinct:
                    if c != dead[k_dead]:
                        ok = False
                        break
                    k_dead += 1
                elif c != dead[0]:
                    ok = False
                    break
            elif not used[c] and seen[c] != g:
                if c != fresh[k_fresh]:
                    ok = False
                    break
                k_fresh += 1
            seen[c] = g
        keep[g] = ok
    return np.nonzero(keep)[0]


@njit(cache=True)
def candidate_guesses(codes, perms, hist, hlen, subset, ncolors, distinct, symmetric, lists) -> np.ndarray:
    """The guesses worth trying on ``subset``: one of each class of guesses that the symmetries
    make equivalent (see the module's docstring); every code when not ``symmetric``.  ``lists``
    keeps the lists: by history (negative keys; empty: colour symmetries only) and by colour masks."""
    pegs = codes.shape[1]
    if not symmetric:
        return np.arange(codes.shape[0])
    used, present = _colours(codes, hist, hlen, subset, ncolors)
    n_codes = codes.shape[0]
    guesses = np.empty(hlen, dtype=hist.dtype)  # sorted: the symmetries depend on the set of guesses only
    for t, k in enumerate(stable_order(hist[:hlen])):
        guesses[t] = hist[k]
    packed, fits = -1, hlen * np.log2(n_codes) < 62
    for t in range(hlen):
        packed = packed * n_codes - guesses[t]  # negative: apart from the colour masks below
    if fits and packed in lists:
        found = lists[packed]
        if found.shape[0]:
            return found
    else:
        valid, maps = _symmetries(codes, perms, hist, hlen, ncolors)
        if valid.sum() > 1:  # position symmetries remain: the least code of each orbit
            keep = np.zeros(n_codes, dtype=np.bool_)
            free = ~used
            image = np.empty(pegs, dtype=np.int64)
            for g in range(n_codes):
                keep[g] = _orbit_least(codes[g], perms, valid, maps, free, image)
            found = np.nonzero(keep)[0]
            if fits:
                lists[packed] = found
            return found
        if fits:
            lists[packed] = np.empty(0, dtype=np.int64)  # colours only, below
    mask = 0
    for c in range(ncolors):
        mask = mask * 4 + used[c] * 2 + present[c]
    if mask not in lists:
        lists[mask] = _alike(codes, used, present, distinct)
    return lists[mask]
