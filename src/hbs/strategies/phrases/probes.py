"""Factorizable probes: guesses whose answer is a sum of per-word features once the spacing is known.

A probe has a *left side* as long as the phrase (letters at chosen positions, spaces at chosen
positions, ``-`` elsewhere; ``-`` never matches) and a *right side* that repeats every letter of a set
``S`` at least as often as any phrase could hold it ("saturated").  Every letter of the guess is in
``S``, so ``black + white`` counts exactly the phrase's characters in ``S`` plus ``min(spaces of the
guess, n - 1)``, and ``black`` counts the left side's matches: both are sums over the words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from hbs.strategies.phrases.alphabet import FIRST, PAD
from hbs.strategies.phrases.spacing import space_hit_count

# Letters are the internal letters of :mod:`hbs.strategies.phrases.alphabet`: letter ``c`` is ``chr(FIRST + c)``,
# ``c`` in ``0..L-1`` for a list of ``L`` characters; in a probe's design the code ``L`` is a space.


def saturation(word_counts: np.ndarray, n_words: int) -> np.ndarray:
    """``int64[L]``: how many copies of each letter saturate any phrase of ``n_words`` words."""
    return n_words * word_counts.max(axis=0).astype(np.int64)


def space_codes(marks: np.ndarray, n_letters: int) -> np.ndarray:
    """Design codes of a left side with spaces at ``marks`` (``bool[width]``) and nothing elsewhere."""
    return np.where(marks, n_letters, -1).astype(np.int64)


def left_side(codes: np.ndarray, n_letters: int) -> str:
    """The left side written from design codes (letter, ``n_letters`` for a space, or -1)."""
    return "".join(chr(FIRST + c) if 0 <= c < n_letters else (" " if c == n_letters else PAD) for c in codes)


def build(left: str, letter_set: np.ndarray, sat: np.ndarray) -> str:
    """The guess string: ``left`` then each letter of ``letter_set`` (``bool[L]``) ``sat`` times."""
    return left + "".join(chr(FIRST + c) * int(sat[c]) for c in np.flatnonzero(letter_set))


def is_factorizable(guess: str, sat: np.ndarray) -> bool:
    """Whether every letter of ``guess`` is saturated and nothing else but spaces and ``-`` appears."""
    for ch in set(guess):
        c = ord(ch) - FIRST
        if 0 <= c < sat.shape[0]:
            if guess.count(ch) < sat[c]:
                return False
        elif ch not in " " + PAD:
            return False
    return True


def letter_set(guess: str, n_letters: int) -> np.ndarray:
    """``bool[L]``: the letters present in ``guess``."""
    out = np.zeros(n_letters, dtype=bool)
    for ch in set(guess):
        c = ord(ch) - FIRST
        if 0 <= c < n_letters:
            out[c] = True
    return out


def word_features(
    guess: str, lengths: Sequence[int], slots_bytes: list[np.ndarray], slots_counts: list[np.ndarray],
    memo: dict | None = None,
) -> tuple[list[np.ndarray] | None, list[np.ndarray] | None]:
    """Per-word features of a factorizable probe under a spacing (``lengths``), one array a slot.

    The count feature (letters of the guess in the word; ``None`` when the guess has no letter) and
    the black feature (matches of the word with the left side at its offset; ``None`` when no word
    can match).  ``slots_bytes[j]`` is ``uint8[W_j, l_j]`` (the words of slot j),
    ``slots_counts[j]`` ``uint8[W_j, L]``.  ``memo``, where a slot's words are those of its length
    (the breaker's length classes), keeps each slot's features across spacings: a count feature
    depends on the guess and the word length only, a black feature (with whether any word matches)
    on the guess's piece over the word; and the guess's letters.
    """
    memo = {} if memo is None else memo
    found = memo.get(("letters", guess))
    if found is None:
        letters = letter_set(guess, slots_counts[0].shape[1])
        found = memo["letters", guess] = (letters, bool(letters.any()))
    letters, any_letter = found
    counts = None
    if any_letter:
        counts = []
        for l, c in zip(lengths, slots_counts):
            key = ("count", guess, int(l))
            found = memo.get(key)
            if found is None:
                found = memo[key] = c[:, letters].sum(axis=1, dtype=np.uint8)
            counts.append(found)
    blacks, any_black, offset = [], False, 0
    for l, b in zip(lengths, slots_bytes):
        l = int(l)
        piece = guess[offset : offset + l]
        offset += l + 1
        key = ("black", piece, l)
        found = memo.get(key)
        if found is None:  # the matches, and whether any word has one
            found = memo[key] = piece_matches(b, np.frombuffer(piece.encode("latin-1"), dtype=np.uint8))
        blacks.append(found[0])
        any_black |= found[1]
    return counts, (blacks if any_black else None)


@njit(cache=True, nogil=True)
def piece_matches(words: np.ndarray, piece: np.ndarray) -> tuple[np.ndarray, bool]:
    """``uint8[W]``: the positions where each word (rows of ``words``) has the byte of ``piece`` (at
    most as long), and whether any word has one."""
    out = np.zeros(words.shape[0], dtype=np.uint8)
    seen = False
    for i in range(words.shape[0]):
        m = 0
        for k in range(piece.shape[0]):
            m += words[i, k] == piece[k]
        out[i] = m
        seen |= m > 0
    return out, seen


def fields(
    features: tuple[list[np.ndarray] | None, list[np.ndarray] | None], guess: str, black: int, white: int,
    lengths: Sequence[int],
) -> list[tuple[list[np.ndarray], int]] | None:
    """The fields ``(per-slot features, target)`` an answer sets on the words under a spacing.

    ``features`` comes from :func:`word_features`.  ``None`` when the answer contradicts the spacing.
    """
    counts, blacks = features
    out = []
    count_target = black + white - min(guess.count(" "), len(lengths) - 1)
    black_target = black - space_hit_count(lengths, guess)  # (one spacing: no arrays)
    for values, target in ((counts, count_target), (blacks, black_target)):
        if values is not None:
            out.append((values, target))
        elif target != 0:
            return None
    return out


@njit(cache=True, nogil=True)
def letter_matrix(rows: np.ndarray, phrases: np.ndarray, word_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A sample's matrices for :func:`design_probe`: ``rows`` (the phrases' bytes, see
    :func:`hbs.core.feedback.encode_joined`) as design codes (letter, the space's code ``L`` or below 0
    for padding), and each phrase's letter counts (the sum of its words' ``word_counts``)."""
    space = word_counts.shape[1]
    chars = np.empty(rows.shape, dtype=np.int64)
    for i in range(rows.shape[0]):
        for p in range(rows.shape[1]):
            chars[i, p] = space if rows[i, p] == 32 else np.int64(rows[i, p]) - FIRST
    counts = np.zeros((phrases.shape[0], space), dtype=np.int64)
    for i in range(phrases.shape[0]):
        for j in range(phrases.shape[1]):
            for c in range(space):
                counts[i, c] += word_counts[phrases[i, j], c]
    return chars, counts


@njit(cache=True)
def bin_sum(black: np.ndarray, total: np.ndarray, width: int, hist: np.ndarray, per_bin: np.ndarray) -> float:
    """Sum of ``per_bin[n]`` over the bins of the pairs (black, total), ``n`` a bin's size (``n log2 n``
    for the entropy, ``n`` times the guesses after it for :mod:`free_probe`); ``hist`` is zeroed
    scratch (left zeroed)."""
    k = black.shape[0]
    for i in range(k):
        hist[black[i] * width + total[i]] += 1
    acc = 0.0
    for i in range(k):
        code = black[i] * width + total[i]
        n = hist[code]
        if n:
            acc += per_bin[n]
            hist[code] = 0
    return acc


@njit(cache=True)
def _joint_entropy(black: np.ndarray, total: np.ndarray, width: int, hist: np.ndarray, nlogn: np.ndarray) -> float:
    """Entropy (bits) of the pairs (black, total) over the sample (arguments as :func:`bin_sum`, ``nlogn[n]`` is ``n log2 n``)."""
    return np.log2(black.shape[0]) - bin_sum(black, total, width, hist, nlogn) / black.shape[0]


@njit(cache=True)
def _add_matches(values: np.ndarray, chars: np.ndarray, pos: int, c: int, step: int) -> None:
    """``values[s] += step`` for each sampled phrase ``s`` that has character ``c`` at ``pos``."""
    for s in range(chars.shape[0]):
        if chars[s, pos] == c:
            values[s] += step


@njit(cache=True, inline="always")
def _raised_delta(which: np.ndarray, lo: int, hi: int, black: np.ndarray, total: np.ndarray, tw: int,
                  hist: np.ndarray, nlogn: np.ndarray) -> float:
    """The change of the sum of ``n log2 n`` over the bins of (black, total) (held in ``hist``)
    when the phrases ``which[lo:hi]`` gain a black; ``hist`` is moved and put back."""
    delta = 0.0
    for j in range(lo, hi):  # move each phrase up one black
        code = black[which[j]] * tw + total[which[j]]
        n = hist[code]
        delta += nlogn[n - 1] - nlogn[n]
        hist[code] = n - 1
        m = hist[code + tw]
        delta += nlogn[m + 1] - nlogn[m]
        hist[code + tw] = m + 1
    for j in range(lo, hi):  # and back
        code = black[which[j]] * tw + total[which[j]]
        hist[code] += 1
        hist[code + tw] -= 1
    return delta


@njit(cache=True)
def _position_scores(base: np.ndarray, total: np.ndarray, by_char: np.ndarray, char_first: np.ndarray, tw: int,
                     space: int, hist: np.ndarray, nlogn: np.ndarray) -> np.ndarray:
    """``float64[space + 2]``: the joint entropy of (black, total) when a position of the probe
    holds nothing (index 0) or code ``c`` (index ``c + 1``): the sampled phrases with ``c`` there
    (``by_char[char_first[c] : char_first[c + 1]]``, see :func:`_by_position`) gain a black.  One
    histogram of ``base``, each phrase moved to its bin and back once (rather than a histogram a
    code); ``hist`` is zeroed scratch and left zeroed, ``nlogn[n]`` is ``n log2 n``."""
    k = base.shape[0]
    acc = bin_sum(base, total, tw, hist, nlogn)
    for i in range(k):
        hist[base[i] * tw + total[i]] += 1
    scores = np.empty(space + 2, dtype=np.float64)
    scores[0] = np.log2(k) - acc / k
    for c in range(space + 1):
        delta = _raised_delta(by_char, char_first[c], char_first[c + 1], base, total, tw, hist, nlogn)
        scores[c + 1] = np.log2(k) - (acc + delta) / k
    for i in range(k):
        hist[base[i] * tw + total[i]] = 0
    return scores


@njit(cache=True)
def _most_letters(counts: np.ndarray) -> int:
    """The most letters of any row of ``counts`` (a loop: ``sum(axis=1)`` compiles numba's
    axis-error messages, seconds of a cold start)."""
    most = 0
    for r in range(counts.shape[0]):
        row = 0
        for c in range(counts.shape[1]):
            row += counts[r, c]
        most = max(most, row)
    return most


@njit(cache=True)
def design_probe(chars: np.ndarray, counts: np.ndarray, usable: np.ndarray, passes: int
                 ) -> tuple[np.ndarray, np.ndarray, float]:
    """The probe most informative about a sample of phrases of one length.

    ``chars`` is ``int64[K, W]`` (letter index ``0..L-1`` per position, ``L`` for a space),
    ``counts`` ``int64[K, L]`` letter counts, ``usable`` ``bool[W]`` the left-side positions that may
    hold a letter (a space may go anywhere).  Coordinate ascent on the joint entropy of (black, letters in S): toggle
    letters of S, then add the letter outside S and its position that most raise it (see
    :func:`_letter_moves`), then for each position try every letter of S (where usable), a space,
    or nothing (a space only adds a constant to the count).  Returns ``int64[W]`` (letter, ``L`` or -1 per position),
    ``bool[L]`` the set S and the entropy (bits) of its answers over the sample.
    """
    k, width = chars.shape
    space = counts.shape[1]  # the code of a space: one after the letters
    left = np.full(width, -1, dtype=np.int64)
    chosen = np.zeros(space, dtype=np.bool_)
    black = np.zeros(k, dtype=np.int64)
    total = np.zeros(k, dtype=np.int64)
    most = _most_letters(counts)
    hist = np.zeros((width + 1) * (most + width + 2), dtype=np.int64)
    tw = most + 1
    nlogn = _nlogn(k)
    order, first = _by_position(chars, space)
    best = 0.0
    for _ in range(passes):
        improved = False
        for c in range(space):
            # toggle letter c in S; removing it also clears the positions that use it
            sign = -1 if chosen[c] else 1
            trial_total = total + sign * counts[:, c]
            trial_black = black.copy()
            if chosen[c]:
                for pos in range(width):
                    if left[pos] == c:
                        _add_matches(trial_black, chars, pos, c, -1)
            score = _joint_entropy(trial_black, trial_total, tw, hist, nlogn)
            if score > best + 1e-12:
                best = score
                total = trial_total
                black = trial_black
                if chosen[c]:
                    for pos in range(width):
                        if left[pos] == c:
                            left[pos] = -1
                chosen[c] = not chosen[c]
                improved = True
        c, pos, score = _letter_moves(chars, counts, usable, chosen, left, black, total, tw, hist, nlogn, order, first)
        if score > best + 1e-12:  # a letter outside S placed at one position (and so added to S)
            best = score
            chosen[c] = True
            total = total + counts[:, c]
            left[pos] = c
            _add_matches(black, chars, pos, c, 1)
            improved = True
        best, black, moved = _position_pass(chars, usable, chosen, left, black, total, best, tw, hist, order,
                                            first, nlogn)
        improved |= moved
        if not improved:
            break
    return left, chosen, best


@njit(cache=True)
def _by_position(chars: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """The sampled phrases by their code at each position: ``order[pos, first[pos, c]:first[pos, c + 1]]``
    are those with code ``c`` (``0..space``) at ``pos``."""
    k, width = chars.shape
    order = np.empty((width, k), dtype=np.int64)
    first = np.zeros((width, space + 2), dtype=np.int64)
    for pos in range(width):
        for i in range(k):
            c = chars[i, pos]
            if 0 <= c <= space:
                first[pos, c + 1] += 1
        for c in range(space + 1):
            first[pos, c + 1] += first[pos, c]
        fill = first[pos].copy()
        for i in range(k):
            c = chars[i, pos]
            if 0 <= c <= space:
                order[pos, fill[c]] = i
                fill[c] += 1
    return order, first


@njit(cache=True)
def _letter_moves(chars: np.ndarray, counts: np.ndarray, usable: np.ndarray, chosen: np.ndarray, left: np.ndarray,
                  black: np.ndarray, total: np.ndarray, tw: int, hist: np.ndarray, nlogn: np.ndarray,
                  order: np.ndarray, first: np.ndarray) -> tuple[int, int, float]:
    """The best move that adds a letter ``c`` outside S to S and places it at one usable empty
    position: ``(c, pos, entropy)`` (``-1, -1, 0`` when none).  Where every sampled phrase holds as
    many of each letter (the end of a long game), no letter of S alone tells them apart and the
    toggles of S never reach the positions that would."""
    k, width = chars.shape
    best, best_c, best_pos = 0.0, -1, -1
    t = np.empty(k, dtype=np.int64)
    for c in range(counts.shape[1]):
        if chosen[c]:
            continue
        for i in range(k):
            t[i] = total[i] + counts[i, c]
        acc = bin_sum(black, t, tw, hist, nlogn)
        for i in range(k):
            hist[black[i] * tw + t[i]] += 1
        for pos in range(width):
            if not usable[pos] or left[pos] >= 0 or first[pos, c] == first[pos, c + 1]:
                continue
            delta = _raised_delta(order[pos], first[pos, c], first[pos, c + 1], black, t, tw, hist, nlogn)
            score = np.log2(k) - (acc + delta) / k
            if score > best + 1e-12:
                best, best_c, best_pos = score, c, pos
        for i in range(k):
            hist[black[i] * tw + t[i]] = 0
    return best_c, best_pos, best


@njit(cache=True)
def _nlogn(k: int) -> np.ndarray:
    """The table ``nlogn[n] = n log2 n`` for a sample of ``k`` phrases."""
    return np.arange(k + 2) * np.log2(np.maximum(np.arange(k + 2), 1))


@njit(cache=True)
def _position_pass(chars: np.ndarray, usable: np.ndarray, chosen: np.ndarray, left: np.ndarray, black: np.ndarray,
                   total: np.ndarray, best: float, tw: int, hist: np.ndarray, order: np.ndarray,
                   first: np.ndarray, nlogn: np.ndarray) -> tuple[float, np.ndarray, bool]:
    """One sweep of the left side's positions (``left`` changed in place): each takes the letter of
    ``chosen`` (where ``usable``), the space or nothing that most raises the joint entropy of
    (black, total).  ``order``, ``first``: the phrases by their code at each position
    (:func:`_by_position`).  Returns the entropy, the blacks and whether a position changed."""
    width = chars.shape[1]
    space = chosen.shape[0]
    improved = False
    for pos in range(width):
        base = black.copy()
        if left[pos] >= 0:
            _add_matches(base, chars, pos, left[pos], -1)
        scores = _position_scores(base, total, order[pos], first[pos], tw, space, hist, nlogn)
        best_c = left[pos]
        for c in range(-1, space + 1):
            if c == left[pos] or (0 <= c < space and not (chosen[c] and usable[pos])):
                continue
            if scores[c + 1] > best + 1e-12:
                best = scores[c + 1]
                best_c = c
        if best_c != left[pos]:
            improved = True
            left[pos] = best_c
            black = base
            if best_c >= 0:
                _add_matches(black, chars, pos, best_c, 1)
    return best, black, improved


@njit(cache=True)
def design_left(chars: np.ndarray, total: np.ndarray, left: np.ndarray, space: int, passes: int) -> np.ndarray:
    """The left side of a guess whose right side saturates every letter (the first guess): from
    ``left`` (codes as :func:`design_probe`'s), coordinate ascent on the joint entropy of (black,
    ``total``) over the sampled phrases ``chars`` (their ``total`` is fixed: every letter counts);
    ``space`` is the code of a space (the number of letters)."""
    k, width = chars.shape
    left = left.copy()
    chosen = np.ones(space, dtype=np.bool_)
    usable = np.ones(width, dtype=np.bool_)
    black = np.zeros(k, dtype=np.int64)
    for pos in range(width):
        if left[pos] >= 0:
            _add_matches(black, chars, pos, left[pos], 1)
    tw = total.max() + 1
    hist = np.zeros((width + 1) * tw, dtype=np.int64)
    nlogn = _nlogn(k)
    order, first = _by_position(chars, space)
    best = _joint_entropy(black, total, tw, hist, nlogn)
    for _ in range(passes):
        best, black, improved = _position_pass(chars, usable, chosen, left, black, total, best, tw, hist, order,
                                               first, nlogn)
        if not improved:
            break
    return left

