"""Reference counts numba left in the loops of the phrase engine's kernels.

numba counts references to arrays (an atomic add, a function call) where a kernel takes a view
(``rows[i]``), replaces an array it grows, or inlines a function (``inline="always"``) that
takes arrays and branches: an inline function called in a loop can leave an add and a subtract
for each of its arrays at every call, where LLVM's pruning of them fails.  A late eight-word
join (`meeting._group_join`, its meeting as an inline function of two ways) spent half its time
so.  This plays games on an empty numba cache in a scratch folder (so that every kernel is
compiled here and its LLVM code can be read), then prints, for each kernel whose optimised code
still counts references inside a loop, how many such calls there are and at what depth of loop
nesting (the kernel's deepest loop beside it): those at the deepest loops are the ones to mend.

    python benchmarks/refcounts.py                                  # three words of the contest's list
    python benchmarks/refcounts.py --words eff.txt --n-words 8 --games 1 --guesses 12

(`eff.txt`: `cut -f2 /usr/lib/python3/dist-packages/diceware/wordlists/wordlist_en_eff.txt`.)
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

_LABEL = re.compile(r"^([\w.\-]+):")
_TARGET = re.compile(r"label %([\w.\-]+)")


def functions(ir: str):
    """``(name, lines)`` of each function defined in LLVM IR text."""
    name, lines = None, None
    for line in ir.splitlines():
        if line.startswith("define "):
            name, lines = line.split("@", 1)[1].split("(", 1)[0], []
        elif line.startswith("}") and lines is not None:
            yield name, lines
            lines = None
        elif lines is not None:
            lines.append(line)


def loop_counts(lines: list[str]) -> list[tuple[int, int]]:
    """``(depth, deepest)`` for each ``NRT_incref`` call inside a loop of one function's IR: how
    many natural loops hold its block, and the most that hold any block of the function."""
    blocks, order = defaultdict(list), []
    for line in lines:
        found = _LABEL.match(line)
        if found:
            order.append(found.group(1))
        elif line.strip():
            if not order:
                order.append("")  # (an entry block without a label)
            blocks[order[-1]].append(line)
    successors = {b: [t for line in blocks[b] for t in _TARGET.findall(line)] for b in order}
    predecessors = defaultdict(list)
    for b in order:
        for t in successors[b]:
            predecessors[t].append(b)
    back, seen, on_path = [], set(), set()
    stack = [(order[0], iter(successors[order[0]]))] if order else []
    seen.update(b for b, _ in stack)
    on_path.update(b for b, _ in stack)
    while stack:  # depth first, without recursion: an edge to a block on the path closes a loop
        block, rest = stack[-1]
        nxt = next(rest, None)
        if nxt is None:
            stack.pop()
            on_path.discard(block)
        elif nxt in on_path:
            back.append((block, nxt))
        elif nxt not in seen:
            seen.add(nxt)
            on_path.add(nxt)
            stack.append((nxt, iter(successors.get(nxt, []))))
    loops = defaultdict(set)
    for tail, head in back:
        body, todo = {head, tail}, [tail]
        while todo:
            b = todo.pop()
            if b != head:
                for p in predecessors[b]:
                    if p not in body:
                        body.add(p)
                        todo.append(p)
        loops[head] |= body
    depth = {b: sum(b in body for body in loops.values()) for b in order}
    deepest = max(depth.values(), default=0)
    return [(depth[b], deepest) for b in order if depth[b]
            for line in blocks[b] if "call void @NRT_incref" in line]


def kernel_counts(dispatcher) -> list[tuple[int, int]]:
    """:func:`loop_counts` over every compiled signature of a numba kernel (compiled in this
    process: numba gives no code for one loaded from its cache), its Python wrappers left out."""
    return [found for ir in dispatcher.inspect_llvm().values() for name, lines in functions(ir)
            if "cpython" not in name and not name.startswith("cfunc")
            for found in loop_counts(lines)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parents[1]
    parser.add_argument("--words", default=str(root.parent / "shared" / "data" / "codegolf" / "words.txt"))
    parser.add_argument("--n-words", type=int, default=3)
    parser.add_argument("--games", type=int, default=3, help="games of phrases drawn with --seed")
    parser.add_argument("--guesses", type=int, default=40, help="guesses a game at most")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    if "hbs" in sys.modules or os.environ.get("NUMBA_CACHE_DIR"):
        raise SystemExit("run it as a script of its own (it sets NUMBA_CACHE_DIR before numba loads)")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # (empty: every kernel compiles here)
        from hbs.core.games import PhraseGame
        from hbs.core.loaders import load_words
        from hbs.core.rule import grade
        from hbs.errors import InputError, UnsupportedGame
        from hbs.strategies.phrases.passphrase import PhraseBreaker, _kernels

        try:
            game = PhraseGame(load_words(args.words), args.n_words)
            breaker = PhraseBreaker(game, 0)
        except (InputError, UnsupportedGame, ValueError) as exc:
            print(f"refcounts: {exc}", file=sys.stderr)
            sys.exit(2)
        rng = random.Random(args.seed)
        breaker.warm()
        for _ in range(args.games):
            secret = " ".join(rng.choice(game.words) for _ in range(args.n_words))
            history: list = []
            while len(history) < args.guesses:
                guess = breaker.guess(tuple(history)).text
                if guess == secret:
                    break
                history.append((guess, *grade(guess, secret)))
        rows = []
        for kernel in _kernels():
            found = kernel_counts(kernel) if kernel.signatures else []
            if found:
                by_depth = defaultdict(int)
                for depth, _ in found:
                    by_depth[depth] += 1
                name = f"{kernel.py_func.__module__.removeprefix('hbs.')}.{kernel.__name__}"
                rows.append((max(d for d, _ in found) - max(deep for _, deep in found), len(found), name,
                             dict(sorted(by_depth.items())), max(deep for _, deep in found)))
        print("kernel | reference counts in loops | by loop depth | deepest loop")
        for _, count, name, by_depth, deepest in sorted(rows, reverse=True):
            print(f"{name} | {count} | {by_depth} | {deepest}")


if __name__ == "__main__":
    main()
