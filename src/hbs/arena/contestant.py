"""A bot in a worker process, as the runner drives it: started and set up on demand, replaced after a
failure, one game played guess by guess under the per-guess deadline and the game's time bank."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from hbs.contract import sanitize
from hbs.contract.bot import BotSource, Guess
from hbs.contract.guesses import read_guess
from hbs.core.oracle import Oracle
from hbs.core.record import GameRecord, take
from hbs.core.status import Status
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.sandbox.confinement import Plan
from hbs.sandbox.workers import PROTOCOL, UNCONFINED, Worker, WorkerFailure


@dataclass
class BotRef:
    """How a worker finds and builds the bot: where its code is, its options and seed."""

    source: BotSource
    options: dict[str, str] = field(default_factory=dict)
    seed: int | None = None

    @property
    def name(self) -> str:
        return self.source.name


class Contestant:
    """A bot in a worker process, started (and set up) on demand, replaced after a failure."""

    def __init__(self, ref: BotRef, game_data: dict, budgets, plan: Plan = UNCONFINED, threads: int | None = None,
                 cpu: int | None = None):
        self.ref, self.game_data, self.budgets, self.plan = ref, game_data, budgets, plan
        self.threads, self.cpu = threads, cpu
        self.worker = None
        self._setting_up = False
        self.batch = False  # whether its setup said it plays several games at once

    def start(self) -> None:
        """Start the worker and send it the setup, without waiting for the answer."""
        if self.worker is not None:
            return
        program = self.ref.source.manifest() if self.ref.source.is_program else None
        self.worker = Worker.start(replace(self.plan, memory_mb=self.budgets.memory_mb), program)
        self._setting_up = True
        request = {"op": "setup", "protocol": PROTOCOL, "game": self.game_data, "options": self.ref.options,
                   "seed": self.ref.seed}
        if program is None:  # what the Python worker needs to load the bot
            request.update(source=self.ref.source.as_dict(), threads=self.threads, cpu=self.cpu)
        try:
            self.worker.send(request)
        except WorkerFailure as exc:
            self.reset()
            raise HbsError(f"bot {self.ref.name!r}: setup failed: {exc}") from None

    def ready(self) -> None:
        """Start the worker and set the bot up; raises for a bot that declines or fails setup."""
        self.start()
        if not self._setting_up:
            return
        try:
            reply = self.worker.receive(self.budgets.setup_timeout)
        except WorkerFailure as exc:
            raise HbsError(f"bot {self.ref.name!r}: setup failed: {exc}{self._said()}") from None
        self._setting_up = False
        self.batch = reply.get("batch") is True
        if "unsupported" in reply:
            self.reset()
            raise UnsupportedGame(sanitize.clean(reply["unsupported"], sanitize.ERROR))
        if not reply.get("ok"):
            said = self._said()
            if reply.get("exit_code") == 2:  # the bot's name, file or options: the user's input
                raise InputError(bot_error(reply))
            raise HbsError(f"bot {self.ref.name!r}: setup failed: {bot_error(reply)}{said}")

    def _said(self) -> str:
        """The last line the bot wrote to stderr (for a failed setup's message); stops the worker."""
        said = self.worker.stderr.take(1) if self.worker is not None else ""
        self.reset()
        return f" (its stderr: {sanitize.clean(said, sanitize.SUMMARY)})" if said else ""

    def reset(self) -> None:
        if self.worker is not None:
            self.worker.kill()
            self.worker = None
        self._setting_up = False


def bot_error(reply: dict) -> str:
    """The error (or refusal) a worker replied, bounded and cleaned: it is the bot's text."""
    return sanitize.clean(reply.get("error") or reply.get("unsupported"), sanitize.ERROR, lines=True)


def read_reply(reply: dict) -> tuple[Guess | None, str | None]:
    """A worker's ``guess`` reply as a :class:`Guess` (checked again: the worker is not trusted)."""
    if "invalid" in reply:
        return None, sanitize.clean(reply["invalid"], sanitize.ERROR)
    return read_guess(Guess(reply.get("guess"), reply.get("remaining"), reply.get("phase")))


def play_isolated(contestant: Contestant, game_name: str, secret: str) -> GameRecord:
    """Play one game through a worker: per-guess deadline plus the game's time bank."""
    return play_all(contestant, game_name, [secret])[0]


def play_all(contestant: Contestant, game_name: str, secrets: Sequence[str]) -> list[GameRecord]:
    """Play every secret through ``contestant``'s worker; the records in secret order."""
    records: list[GameRecord | None] = [None] * len(secrets)
    order = iter(range(len(secrets)))
    play_games(contestant, game_name, secrets, lambda: next(order, None), records.__setitem__)
    return records  # type: ignore[return-value]


BATCH_MOST = 64  # games at once in one worker (a bot whose guesses depend on the history alone)
BATCH_FAST = 0.0005  # seconds a guess: below it the next batch is twice as large
BATCH_SLOW = 0.005  # above it, half as large


class Match:
    """One game in play through a worker: its oracle and record, the history sent, its time bank."""

    def __init__(self, index: int, bot: str, game_name: str, secret: str, budgets):
        self.index, self.budgets = index, budgets
        self.oracle = Oracle(secret)
        self.record = GameRecord(bot, game_name, secret, Status.EXHAUSTED)
        self.history: list[list] = []
        self.bank = budgets.game_timeout
        self.begun = False  # whether a guess was asked for

    @property
    def allowance(self) -> float:
        """How long its next guess may take: the per-guess deadline plus what is left of the bank."""
        return self.budgets.guess_timeout + self.bank

    def answer(self, reply: dict, spent: float) -> bool:
        """Apply the worker's reply to a guess that took ``spent`` seconds; True when the game is over."""
        self.record.seconds += spent
        self.bank -= max(0.0, spent - self.budgets.guess_timeout)
        if "error" in reply or "unsupported" in reply:
            self.record.status, self.record.error = Status.ERROR, bot_error(reply)
            return True
        guess, problem = read_reply(reply)
        if take(self.record, self.oracle, guess, problem, spent):
            return True
        step = self.record.steps[-1]
        self.history.append([step.guess, step.black, step.white])
        return self.oracle.guesses >= self.budgets.max_guesses


def play_games(contestant: Contestant, game_name: str, secrets: Sequence[str], take: Callable[[], int | None],
               keep: Callable[[int, GameRecord], None]) -> None:
    """Play the secrets whose indices ``take`` hands out (until it hands out ``None``) through
    ``contestant``'s worker; ``keep(index, record)`` as each game ends.

    Each guess has the per-guess deadline plus its game's time bank.  A bot whose guesses depend on
    the history alone (its setup says ``batch``) plays several games at once: their turns go to the
    worker in one request and each is charged an equal share of its time, the deadline being that of
    the poorest game; the batch doubles while guesses are fast and halves when they are slow.  A batch
    that fails (timeout, a dead worker) is played again one game at a time, so that a failure is the
    game's that caused it.  A game that fails keeps in its ``log`` the last lines the bot wrote to
    stderr while it was in play (with several games at once, what it wrote in theirs too).
    """
    playing: list[Match] = []
    size, batching = 1, True
    while True:
        tick = time.perf_counter()
        try:
            contestant.ready()  # before a game is taken: one that waits here is not played elsewhere
            unready = None
        except HbsError as exc:
            unready = exc
        while len(playing) < (size if unready is None else 1):
            index = take()
            if index is None:
                break
            playing.append(Match(index, contestant.ref.name, game_name, secrets[index], contestant.budgets))
        if not playing:
            return
        if unready is not None:  # the games in play end with the reason
            for match in playing:
                match.record.status, match.record.error = Status.ERROR, str(unready)
                match.record.seconds += time.perf_counter() - tick
                keep(match.index, match.record)
            playing = []
            continue
        worker = contestant.worker
        batch = playing[:size]
        if not any(match.begun for match in playing):  # what setup or earlier games printed is not theirs
            worker.stderr.clear()
        for match in batch:
            match.begun = True
        tick = time.perf_counter()
        try:
            replies = _exchange(worker, batch)
        except WorkerFailure as exc:
            contestant.reset()
            if len(batch) > 1:
                size, batching = 1, False
                continue
            replies = None
            failure = exc
        spent = (time.perf_counter() - tick) / len(batch)
        over = []
        if replies is None:
            batch[0].record.status, batch[0].record.error = failure.status, str(failure)
            batch[0].record.seconds += spent
            over.append(batch[0])
        else:
            for match, reply in zip(batch, replies):
                if match.answer(reply, spent):
                    over.append(match)
            if any(reply.get("spent") for reply in replies):  # out of memory: a fresh worker (and set-up)
                contestant.reset()
        for match in over:
            if match.record.status.failure:
                log = worker.stderr.take()
                if log:
                    match.record.log = sanitize.clean(log, sanitize.LOG, lines=True)
            playing.remove(match)
            keep(match.index, match.record)
        if batching and contestant.batch:
            size = min(BATCH_MOST, 2 * size) if spent < BATCH_FAST else max(1, size // 2) if spent > BATCH_SLOW else size


def _exchange(worker: Worker, batch: list[Match]) -> list[dict]:
    """The worker's replies to the next guess of each game of ``batch``; :class:`WorkerFailure` when
    it overruns the poorest game's allowance, dies or breaks the protocol."""
    allowance = min(match.allowance for match in batch)
    if len(batch) == 1:
        return [worker.request({"op": "guess", "history": batch[0].history}, allowance)]
    replies = worker.request({"op": "guesses", "histories": [m.history for m in batch]}, allowance).get("guesses")
    if not isinstance(replies, list) or len(replies) != len(batch) or not all(isinstance(r, dict) for r in replies):
        raise WorkerFailure(Status.ERROR, "the worker broke the protocol")
    return replies
