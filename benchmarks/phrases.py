"""The passphrase game: total, mean, max, histogram, seconds a phrase, peak memory, guesses by phase,
bits a guess and the information bound.

    python benchmarks/phrases.py                       # the original 1000 phrases (../shared/data/codegolf)
    python benchmarks/phrases.py --words data/words.txt --phrases data/pass.txt
    python benchmarks/phrases.py --words data/words.txt --generate 1000 --seed 5   # a fresh phrase set
    python benchmarks/phrases.py --cold ...            # empty numba's cache first: compile time included
    python benchmarks/phrases.py ... --settings '{"mean_shrink": false}'   # the engine's Settings, for an A/B
    python benchmarks/phrases.py --words /usr/share/dict/ngerman --sample-words 5000 --generate 100   # a scheme
    python benchmarks/phrases.py --words /usr/share/dict/american-english-large --sample-words 100000 --n-words 4 \
        --generate 5 --seed 21                        # four words of 100,000: the slowest guess

Runs the bot in this process through the same runner as `hbs run`; `--limit N` plays the first N.
"""

from __future__ import annotations

import argparse
import inspect
import math
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODEGOLF = ROOT.parent / "shared" / "data" / "codegolf"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default=str(CODEGOLF / "words.txt"))
    parser.add_argument("--phrases", default=None)
    parser.add_argument("--generate", type=int, default=0, help="play N phrases drawn from the word list")
    parser.add_argument("--seed", type=int, default=1, help="seed of --generate")
    parser.add_argument("--n-words", type=int, default=3)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--bot", default="entropy")
    parser.add_argument("--bot-seed", type=int, default=0)
    parser.add_argument("--cold", action="store_true", help="clear numba's cache of hbs first")
    parser.add_argument("--sample-words", type=int, default=0,
                        help="play on N words drawn from --words (3 to 10 characters, each once): a system "
                             "dictionary as a passphrase scheme's list")
    parser.add_argument("--list-seed", type=int, default=11, help="seed of --sample-words")
    parser.add_argument("--settings", default=None,
                        help="the phrase engine's Settings as JSON (hbs.strategies.phrases.settings), "
                             "e.g. '{\"passes\": 5}': the bot's engine is built with them")
    args = parser.parse_args()
    settings = parsed_settings(args.settings) if args.settings else None
    if args.cold:
        for cache in (ROOT / "src" / "hbs").rglob("__pycache__"):
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink()
    start = time.perf_counter()
    from hbs.arena.play import run
    from hbs.arena.summary import summarize
    from hbs.contract.bot import load_bot, make_bot
    from hbs.core.games import PhraseGame
    from hbs.core.loaders import load_phrases, load_words

    if not Path(args.words).exists():
        sys.exit(f"no word list at {args.words} (the original data lives in ../shared/data/codegolf)")
    words = sampled(args.words, args.sample_words, args.list_seed) if args.sample_words else load_words(args.words)
    game = PhraseGame(words, args.n_words)
    if args.generate:
        rng = random.Random(args.seed)
        secrets = [" ".join(rng.choice(game.words) for _ in range(args.n_words)) for _ in range(args.generate)]
        source = f"{args.generate} phrases generated with seed {args.seed}"
    else:
        path = args.phrases or (str(CODEGOLF / "pass.txt") if args.words.startswith(str(CODEGOLF)) else None)
        if not path:
            sys.exit("give --phrases FILE or --generate N")
        secrets = load_phrases(path, game)
        source = path
    secrets = secrets[: args.limit] if args.limit else secrets
    cls = load_bot(args.bot)
    takes_seed = "seed" in inspect.signature(cls.__init__).parameters
    bot = make_bot(cls, {"seed": str(args.bot_seed)} if takes_seed else {})
    if settings is None:
        bot.setup(game)
    else:  # what the entropy bot's setup does for phrases, with the settings
        if not hasattr(bot, "breaker"):
            print(f"--settings: bot {args.bot!r} has no phrase engine to take them", file=sys.stderr)
            sys.exit(2)
        from hbs.strategies.phrases.passphrase import PhraseBreaker

        bot.breaker = PhraseBreaker(game, args.bot_seed, settings=settings)
        bot.breaker.warm()
    setup = time.perf_counter() - start
    phases: Counter = Counter()
    done, played, longest = [0], [0], [0]

    def progress(record) -> None:
        done[0] += 1
        phases.update(s.phase for s in record.steps)
        played[0] += len(record.steps)
        longest[0] = max(longest[0], len(record.steps))
        if done[0] % max(1, min(100, len(secrets) // 10)) == 0:  # ten lines a run at least
            print(f"  {done[0]} games, {time.perf_counter() - start:.1f} s, {played[0]} guesses so far, "
                  f"max {longest[0]}", file=sys.stderr, flush=True)

    tick = time.perf_counter()
    records = run(bot, game.name, secrets, 100, progress)
    games = time.perf_counter() - tick
    s = summarize(bot.name, game.name, records, games)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    drawn = f", {args.sample_words} drawn with seed {args.list_seed}" if args.sample_words else ""
    print(f"phrases:   {source} ({len(secrets)}), words: {args.words}{drawn} ({len(game.words)})"
          + (f", settings {args.settings}" if settings is not None else ""))
    print(f"total:     {s.total_guesses}   mean {s.mean_guesses:.4f}   min {s.min_guesses}   max {s.max_guesses}   "
          f"solved {s.solved}/{s.games}   failures {dict(s.failures) or 'none'}")
    print(f"histogram: {'  '.join(f'{k}:{v}' for k, v in sorted(s.histogram.items()))}")
    print(f"by phase:  {'  '.join(f'{k}:{v / len(secrets):.2f}' for k, v in sorted(phases.items(), key=str))} (guesses a phrase)")
    print(f"seconds:   {games / len(secrets):.4f} a phrase in games (first game {records[0].seconds:.2f} s: numba "
          f"compiles or loads its kernels there); start-up (imports, setup) {setup:.2f} s; "
          f"all {(time.perf_counter() - start) / len(secrets):.4f} a phrase")
    later = records[1:] or records  # the first game compiles numba's kernels
    slowest = max((step.seconds for r in later for step in r.steps), default=0.0)
    print(f"guesses:   the slowest {slowest:.2f} s, the slowest game {max(r.seconds for r in later):.2f} s (the first "
          f"game left out; `hbs run` allows 10 s a guess and a 30 s bank a game)")
    print(f"slowest:   {slowest_guesses(records)}")
    by_phase = told(records)
    if by_phase:
        print(f"told:      {'  '.join(f'{k}:{bits / n:.2f}' for k, (bits, n) in sorted(by_phase.items(), key=str))} "
              "(bits a guess by phase: log2 of the phrases the bot counted before a guess over those after its "
              "answer; the solving guesses left out)")
    print(f"memory:    peak {peak:.0f} MB")
    print(information(game, s.mean_guesses))


def parsed_settings(text: str):
    """The engine's ``Settings`` from a JSON object of its fields; one line and exit 2 where it is not one."""
    import json
    from dataclasses import fields

    from hbs.strategies.phrases.settings import Settings

    try:
        given = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"--settings: not JSON: {exc}", file=sys.stderr)
        sys.exit(2)
    known = {f.name for f in fields(Settings)}
    if not isinstance(given, dict) or set(given) - known:
        unknown = sorted(set(given) - known) if isinstance(given, dict) else "not an object"
        print(f"--settings: {unknown}: the fields are {', '.join(sorted(known))}", file=sys.stderr)
        sys.exit(2)
    defaults = Settings()
    for name, value in given.items():
        wanted = _kind(getattr(defaults, name))
        if not wanted[0](value):
            print(f"--settings: {name}: {json.dumps(value)} is not {wanted[1]}", file=sys.stderr)
            sys.exit(2)
    return Settings(**given)



def _kind(default) -> tuple:
    """What a setting whose default is ``default`` may be given as: a test, and its name."""
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    if default is None:  # (the engine's choice: a number or a flag in its place)
        return (lambda v: v is None or isinstance(v, (int, float))), "a number, true, false or null"
    if isinstance(default, bool):
        return (lambda v: isinstance(v, bool)), "true or false"
    if isinstance(default, float):
        return number, "a number"
    return (lambda v: isinstance(v, int) and not isinstance(v, bool)), "an integer"

def information(game, mean: float) -> str:
    """Bits a guess (the phrases' bits over the guesses before the last) and the information bound:
    no strategy averages fewer than 1 + log2(phrases) / log2(answers) guesses, a guess's answer
    being one of at most (L + 1)(L + 2) / 2 (black, white) pairs for phrases of up to L characters."""
    bits = game.n_words * math.log2(len(game.words))
    longest = game.n_words * max(len(w) for w in game.words) + game.n_words - 1
    bound = 1 + bits / math.log2((longest + 1) * (longest + 2) / 2)
    per = f"{bits / (mean - 1):.2f}" if mean > 1 else "-"
    return f"bits:      {per} a guess ({bits:.1f} bits a phrase); information bound {bound:.2f} guesses a phrase"


def told(records) -> dict:
    """For each phase, the bits its guesses told and how many there were: a guess tells log2 of the
    phrases the bot said it counted (``Guess.remaining``, estimated where the bot estimates) when it
    made the guess over those it counted at the next guess.  The solving guess, and guesses without
    both counts, are left out."""
    out: dict = {}
    for record in records:
        for step, after in zip(record.steps, record.steps[1:]):
            if step.remaining and after.remaining:
                bits, n = out.get(step.phase, (0.0, 0))
                out[step.phase] = (bits + math.log2(step.remaining / after.remaining), n + 1)
    return out


def slowest_guesses(records, k: int = 3) -> str:
    """The ``k`` slowest guesses (the first game left out where there are others: it compiles, as
    the ``guesses:`` line says), each with its phrase's and its own number (from 1), its phase and
    the phrases the bot counted then: what to profile."""
    first = 1 if len(records) > 1 else 0
    steps = [(step.seconds, g + 1, i + 1, step) for g, r in enumerate(records) if g >= first
             for i, step in enumerate(r.steps)]
    parts = []
    for seconds, game, number, step in sorted(steps, key=lambda t: -t[0])[:k]:
        left = f", {step.remaining:,} left" if step.remaining is not None else ""
        parts.append(f"{seconds:.2f} s (phrase {game}, guess {number}, {step.phase}{left})")
    return "; ".join(parts) or "-"


def sampled(path: str, n: int, seed: int) -> tuple[str, ...]:
    """``n`` distinct words of 3 to 10 printable characters, no spaces, drawn from the file at ``path``."""
    seen: dict[str, None] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        word = line.strip().lstrip("\ufeff")
        if 3 <= len(word) <= 10 and word.isprintable() and not any(ch.isspace() for ch in word):
            seen.setdefault(word, None)
    return tuple(sorted(random.Random(seed).sample(list(seen), n)))


if __name__ == "__main__":
    main()
