"""The level search's meeting (`meeting.meet`) on real sides: plays a generated game up to a guess,
then joins the left, middle and right sums of the secret's spacing whole and prints, for each
join, its sizes, meetings, nominal steps (left x middle sums), predicted steps and seconds.
With `--four-way N`, it meets the four lists instead (`levels.LevelSearch._met_four`, where no
blind draw fits late in a long game) on N split values, and prints the fitting tuples found, the
count they estimate and the seconds.  With `--levels`, it times the levels of the spacing's sides
and middle instead (`level_sums.combine`, each level from the one below and one more slot's rows)
and prints, for each level built, the sums below, the slot's rows, the steps (their product), the
sums it holds and the seconds, its sums found by their box where it is small (as played) and by
hash (`dense_cells=0`), the same level either way.

    python benchmarks/meeting.py --words eff.txt --n-words 6 --seed 22 --game 8 --guesses 9 12
    python benchmarks/meeting.py --words eff.txt --n-words 6 --seed 22 --game 1 --guesses 12 13
    python benchmarks/meeting.py --words eff.txt --n-words 8 --seed 21 --game 1 --guesses 16 17 --four-way 64
    python benchmarks/meeting.py --words eff.txt --n-words 8 --seed 21 --game 1 --guesses 17 --levels
    python benchmarks/meeting.py --words /usr/share/dict/american-english-large --sample-words 100000 \
        --n-words 5 --seed 21 --game 2 --guesses 7 --levels

(`eff.txt`: `cut -f2 /usr/lib/python3/dist-packages/diceware/wordlists/wordlist_en_eff.txt`.)
The phrases are those of `benchmarks/phrases.py --generate` with the same seed; each join is timed
twice and the second time printed (the first compiles or loads the kernels).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def main() -> None:
    from hbs.core.games import PhraseGame
    from hbs.core.loaders import load_words
    from hbs.core.rule import grade
    from hbs.errors import UnsupportedGame
    import numpy as np

    from hbs.strategies.phrases import four_way, levels, meeting
    from hbs.strategies.phrases.passphrase import PhraseBreaker

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", required=True)
    parser.add_argument("--n-words", type=int, required=True)
    parser.add_argument("--seed", type=int, default=21, help="seed of the generated phrases")
    parser.add_argument("--game", type=int, default=1, help="which phrase (1: the first)")
    parser.add_argument("--guesses", type=int, nargs="+", required=True, help="join after this many answers")
    parser.add_argument("--sample-words", type=int, default=0,
                        help="draw this many words of the list (as benchmarks/phrases.py does)")
    parser.add_argument("--list-seed", type=int, default=11, help="seed of --sample-words")
    mode = parser.add_mutually_exclusive_group()  # (both given: one line, exit 2)
    mode.add_argument("--four-way", type=int, default=0, metavar="N",
                      help="meet the four lists on N split values instead of joining")
    mode.add_argument("--levels", action="store_true", help="time the levels' builds instead of joining")
    args = parser.parse_args()
    wrong = ("--game counts from 1" if args.game < 1 else "--four-way takes a number of values, 1 or more"
             if args.four_way < 0 else None if Path(args.words).exists() else f"no word list at {args.words}")
    if wrong:
        print(f"meeting.py: {wrong}", file=sys.stderr)
        sys.exit(2)
    from phrases import sampled  # (benchmarks/phrases.py: this script's folder is on sys.path)

    words = sampled(args.words, args.sample_words, args.list_seed) if args.sample_words else load_words(args.words)
    game = PhraseGame(words, args.n_words)
    rng = random.Random(args.seed)
    secret = [" ".join(rng.choice(game.words) for _ in range(args.n_words)) for _ in range(args.game)][-1]
    spacing = tuple(len(w) for w in secret.split())
    try:
        breaker, history = PhraseBreaker(game, 0), []
    except UnsupportedGame as refused:
        print(f"meeting.py: {refused}", file=sys.stderr)
        sys.exit(2)
    while len(history) < max(args.guesses):
        guess = breaker.guess(tuple(history)).text
        history.append((guess, *grade(guess, secret)))
        if guess == secret:
            break
        if len(history) not in args.guesses:
            continue
        key = tuple((breaker.alphabet.inward(str(g)), int(b), int(w)) for g, b, w in history)
        state = breaker.state(key)
        answers = tuple(o for o in state.observations if breaker.counts.factorizable(o[0]))
        fields = breaker.counts.fields_of(spacing, answers)
        if args.levels:
            _time_levels(levels, fields, len(history))
            continue
        search = levels.LevelSearch(fields.slots, fields.target, budget=1)  # (the levels; no join)
        sides = search._left.keys[-1], search._mid.keys[-1], search._right.keys[-1]
        if args.four_way:
            four_way.MAX_VALUES, four_way.ENOUGH_FOUND = args.four_way, np.inf
            for _ in range(2):
                start = time.perf_counter()
                met = search._met_four(fields.target, np.random.default_rng(0))
                seconds = time.perf_counter() - start
            print(f"after {len(history)} answers: left {len(sides[0]):,} sums, the middle's level two "
                  f"{len(search._mid.keys[min(2, len(search._mid.slots))]):,}, right {len(sides[2]):,}; "
                  + (f"{len(search._weights):,} fitting tuples found on {args.four_way} values, count "
                     f"{search.count:.4g}" if met else "no four lists (see LevelSearch._met_four)")
                  + f"; {seconds:.3f} s", flush=True)
            continue
        if search._deferred:
            print(f"after {len(history)} answers: a slot deferred, no join")
            continue
        table = search._right.table(-1)
        predicted = meeting.predicted_steps(*sides, fields.target)
        for _ in range(2):
            start = time.perf_counter()
            found = meeting.meet(*sides, table, fields.target)
            seconds = time.perf_counter() - start
        print(f"after {len(history)} answers: left {len(sides[0]):,} middle {len(sides[1]):,} right "
              f"{len(sides[2]):,} sums; {len(found[0]):,} meetings; steps {len(sides[0]) * len(sides[1]):.3g} "
              f"nominal, {predicted:.3g} predicted; {seconds:.3f} s", flush=True)


def _time_levels(levels, fields, answers: int) -> None:
    """Build the spacing's levels twice (the first compiles or loads the kernels), timing each
    ``combine`` of the second, by box as played, then by hash, and print one line a level."""
    combine, built = levels.combine, []

    def timed(prev_keys, prev_counts, d_keys, *rest, **options):
        start = time.perf_counter()
        level = combine(prev_keys, prev_counts, d_keys, *rest, **options)
        boxed = time.perf_counter() - start
        start = time.perf_counter()
        combine(prev_keys, prev_counts, d_keys, *rest, **options, dense_cells=0.0)
        hashed = time.perf_counter() - start
        built.append((len(prev_keys), len(d_keys), None if level is None else len(level[0]), boxed, hashed))
        return level

    levels.combine = timed
    try:
        for _ in range(2):
            built.clear()
            levels.LevelSearch(fields.slots, fields.target, budget=1)  # (the levels; no join)
    finally:
        levels.combine = combine
    print(f"after {answers} answers: {len(built)} levels built, {sum(b[3] for b in built):.3f} s "
          f"({sum(b[4] for b in built):.3f} s by hash)")
    for below, rows, sums, seconds, hashed in built:
        steps = below * rows
        print(f"  {below:,} sums x {rows:,} rows = {steps:.3g} steps: "
              + ("over its cap, not built" if sums is None else f"{sums:,} sums")
              + f", {seconds:.3f} s, {seconds / max(steps, 1) * 1e9:.0f} ns a step ({hashed:.3f} s by hash)",
              flush=True)


if __name__ == "__main__":
    main()
