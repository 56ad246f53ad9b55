"""``hbs check BOT``: a submission's gate, in the spirit of Gymnasium's ``check_env``.

Loads the bot confined, as a run would, and checks it against the contract: it loads (one Bot
subclass, or a valid ``bot.toml`` and a build that works), says what it is (a docstring or
description), types its options, declares its games and really plays each of them (a few games of
each, re-graded by the rule), gives the same guesses again with the same seed, and stays within
the time and memory budgets.  It also reports its setup and guess times, its peak memory and what
it printed.  A bot passes when every rule holds.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace

from hbs.contract import catalog
from hbs.arena.contestant import Contestant, play_isolated
from hbs.core.record import GameRecord
from hbs.errors import HbsError, UnsupportedGame
from hbs.core.games import Game, PhraseGame, defaults
from hbs.sandbox.workers import Budgets, cores
from hbs.arena.replays import regrade
from hbs.arena.request import Request, prepare_bot
from hbs.core.status import Status

SAMPLE = {"mastermind": 8, "bulls": 8, "phrases": 3}  # games played a kind (twice: determinism)


@dataclass
class Finding:
    """One rule: whether it holds, and what was seen."""

    rule: str
    ok: bool
    detail: str

    def as_dict(self) -> dict:
        return dict(vars(self))


@dataclass
class CheckReport:
    bot: str
    confinement: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.findings)

    def add(self, rule: str, ok: bool, detail: str) -> None:
        self.findings.append(Finding(rule, ok, detail))

    def as_dict(self) -> dict:
        return {"bot": self.bot, "confinement": self.confinement, "ok": self.ok,
                "findings": [f.as_dict() for f in self.findings]}


def sample_secrets(game: Game, count: int) -> list[str]:
    """``count`` secrets spread over the game (codes at even steps; phrases drawn with seed 0)."""
    if isinstance(game, PhraseGame):
        rng = random.Random(0)
        return [" ".join(rng.choice(game.words) for _ in range(game.n_words)) for _ in range(count)]
    codes = game.codes()
    return codes[:: max(1, len(codes) // count)][:count]


def check(spec: Request, mechanism: str, budgets: Budgets, words: tuple[str, ...]) -> CheckReport:
    """Check the bot ``spec`` names; bad input (an unknown bot) raises :class:`HbsError`."""
    report = CheckReport(spec.bot, mechanism)
    games = defaults(words)
    listing = catalog.describe(spec.bot, spec.bots_dirs, mechanism, list(games.values()))
    report.add("loads", listing.error is None, listing.error or f"from {listing.origin}")
    if listing.error is not None:
        return report
    report.add("docstring", bool(listing.summary), listing.summary or "no docstring (or description) to show")
    report.add("options typed", not listing.untyped,
               "every option has a type" if not listing.untyped else f"untyped: {', '.join(listing.untyped)}")
    report.add("declares games", bool(listing.games),
               ", ".join(listing.games) if listing.games else "declares no game: set games = {...}")
    printed: list[str] = []
    if listing.seeded and spec.seed is None:  # determinism is checked with a fixed seed
        spec = replace(spec, seed=0)
    for kind in listing.games:
        _check_game(report, spec, mechanism, budgets, games[kind], printed)
    report.add("prints", True, "nothing on stderr" if not printed else f"on stderr: {printed[0][:120]!r}")
    return report


def _check_game(report: CheckReport, spec: Request, mechanism: str, budgets: Budgets, game: Game,
                printed: list[str]) -> None:
    secrets = sample_secrets(game, SAMPLE[game.kind])
    try:
        ref, plan = prepare_bot(spec, mechanism, game, budgets)
    except HbsError as exc:
        report.add("builds", False, str(exc))
        return
    runs, peaks, setups = [], [], []
    for _ in range(2):  # the second time in fresh workers, for determinism
        contestant = Contestant(ref, game.to_payload(), budgets, plan, cores())
        start = time.perf_counter()
        try:
            contestant.ready()
        except UnsupportedGame as exc:
            report.add(f"plays {game.name}", False, f"declared, but declines it: {exc}")
            return
        except HbsError as exc:
            report.add(f"plays {game.name}", False, f"setup failed: {exc}")
            return
        setups.append(time.perf_counter() - start)
        workers = [contestant.worker]
        records = []
        for secret in secrets:
            records.append(play_isolated(contestant, game.name, secret))
            if contestant.worker is not None and contestant.worker not in workers:
                workers.append(contestant.worker)  # a fresh one after a failure
        runs.append(records)
        if contestant.worker is not None:
            peaks.append(contestant.worker.peak_mb())
        contestant.reset()
        printed += [w.stderr.first.decode("utf-8", "replace") for w in workers if w.stderr.written]
    _judge(report, game, budgets, runs, setups, peaks)


def _judge(report: CheckReport, game: Game, budgets: Budgets, runs: list[list[GameRecord]],
           setups: list[float], peaks: list[float]) -> None:
    records = runs[0]
    solved = [r for r in records if r.status == Status.SOLVED and not regrade(r)]
    failed = next((r for r in records if r.status != Status.SOLVED or regrade(r)), None)
    detail = f"{len(solved)}/{len(records)} solved, re-graded"
    if solved:
        detail += f", mean {sum(r.guesses for r in solved) / len(solved):.2f} guesses"
    if failed is not None:
        detail += f"; {failed.secret!r}: {failed.status} {(failed.error or '').splitlines()[-1:] or ''}"
    report.add(f"plays {game.name}", failed is None, detail)
    same = [[s.guess for s in r.steps] for r in runs[0]] == [[s.guess for s in r.steps] for r in runs[1]]
    report.add(f"deterministic {game.name}", same,
               "same seed, same guesses" if same else "two fresh runs with the same seed guessed differently")
    times = [s.seconds for r in records for s in r.steps]
    slowest = max(times, default=0.0)
    report.add(f"time {game.name}", max(setups) <= budgets.setup_timeout and slowest <= budgets.guess_timeout,
               f"setup {max(setups):.2f} s, guess mean {sum(times) / max(len(times), 1):.4f} s, max {slowest:.3f} s")
    if peaks:
        report.add(f"memory {game.name}", max(peaks) <= budgets.memory_mb,
                   f"peak {max(peaks):.0f} MB (cap {budgets.memory_mb} MB)")
