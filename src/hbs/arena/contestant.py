"""A bot in a worker process, as the runner drives it: started and set up on demand, replaced after a
failure, one game played guess by guess under the per-guess deadline and the game's time bank."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

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
    """Play one game through a worker: per-guess deadline plus the game's time bank.

    When the game fails (error, timeout, invalid), the last lines the bot wrote to stderr during
    it are kept in the record's ``log``.
    """
    budgets = contestant.budgets
    oracle = Oracle(secret)
    record = GameRecord(contestant.ref.name, game_name, secret, Status.EXHAUSTED)
    history: list[list] = []
    bank = budgets.game_timeout
    start = time.perf_counter()
    try:
        contestant.ready()
    except HbsError as exc:
        record.status, record.error = Status.ERROR, str(exc)
        return record
    worker = contestant.worker
    worker.stderr.take()  # what setup or earlier games printed is not this game's
    while oracle.guesses < budgets.max_guesses:
        tick = time.perf_counter()
        try:
            reply = worker.request({"op": "guess", "history": history}, budgets.guess_timeout + bank)
        except WorkerFailure as exc:
            contestant.reset()
            record.status, record.error = exc.status, str(exc)
            break
        spent = time.perf_counter() - tick
        bank -= max(0.0, spent - budgets.guess_timeout)
        if "error" in reply or "unsupported" in reply:
            record.status, record.error = Status.ERROR, bot_error(reply)
            if reply.get("spent"):  # out of memory: the next game gets a fresh worker (and set-up)
                contestant.reset()
            break
        guess, problem = read_reply(reply)
        if take(record, oracle, guess, problem, spent):
            break
        step = record.steps[-1]
        history.append([step.guess, step.black, step.white])
    log = worker.stderr.take()
    if record.status.failure and log:
        record.log = sanitize.clean(log, sanitize.LOG, lines=True)
    record.seconds = time.perf_counter() - start
    return record
