"""Playing bots against secrets: one game under a query budget, and a run over a set of secrets."""

from __future__ import annotations

import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Callable, Iterable, Sequence

from .bot import Bot, BotSource, Guess, Turn
from .confinement import Plan
from .errors import HbsError, InputError, UnsupportedGame
from .isolation import PROTOCOL, UNCONFINED, Worker, WorkerFailure, cores
from .oracle import Oracle
from .status import Status

MAX_GUESS_LENGTH = 10_000


@dataclass
class Step:
    """One guess of a game as the runner saw it."""

    guess: str
    black: int
    white: int
    remaining: int | None = None
    phase: str | None = None
    seconds: float = 0.0


@dataclass
class GameRecord:
    """The result of one game: every guess with its answer, and how the game ended."""

    bot: str
    game: str
    secret: str
    status: Status
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    log: str | None = None  # the last lines the bot wrote to stderr, kept when the game failed

    @property
    def guesses(self) -> int:
        return len(self.steps)


def guess_problem(text: object) -> str | None:
    """Why ``text`` is not the text of a guess (``invalid`` status), or ``None`` when it is one."""
    if not isinstance(text, str):
        return f"returned {type(text).__name__}, not str"
    if not text:
        return "returned an empty string"
    if len(text) > MAX_GUESS_LENGTH:
        return f"returned {len(text):,} characters (at most {MAX_GUESS_LENGTH:,})"
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        return f"returned a character that is not printable: {bad!r}"
    return None


def read_guess(value: object) -> tuple[Guess | None, str | None]:
    """What a bot returned, as a :class:`Guess`; or why it is not one (``invalid`` status)."""
    if isinstance(value, str):
        value = Guess(value)
    if not isinstance(value, Guess):
        return None, f"returned {type(value).__name__}, not str or hbs.Guess"
    if value.remaining is not None:
        if isinstance(value.remaining, bool) or not isinstance(value.remaining, Integral) or value.remaining < 0:
            return None, f"returned remaining={value.remaining!r}, not a count (int >= 0) or None"
        value = replace(value, remaining=int(value.remaining))
    if value.phase is not None and not isinstance(value.phase, str):
        return None, f"returned phase={value.phase!r}, not a str or None"
    problem = guess_problem(value.text)
    return (None, problem) if problem else (value, None)


def _take(record: GameRecord, oracle: Oracle, guess: Guess | None, problem: str | None, spent: float) -> bool:
    """Apply one guess to the game: invalid ends it, else the oracle answers and the step is kept.

    Returns True when the game is over (invalid or solved).
    """
    if guess is None:
        record.status, record.error = Status.INVALID, str(problem)
        return True
    answer = oracle.ask(guess.text)
    record.steps.append(Step(guess.text, answer.black, answer.white, guess.remaining, guess.phase, spent))
    if answer.solved:
        record.status = Status.SOLVED
    return answer.solved


def play(bot: Bot, game_name: str, secret: str, max_guesses: int) -> GameRecord:
    """Play one game of ``bot`` against ``secret`` in this process, within ``max_guesses``."""
    oracle = Oracle(secret)
    record = GameRecord(bot.name, game_name, secret, Status.EXHAUSTED)
    history: list[Turn] = []
    start = time.perf_counter()
    while oracle.guesses < max_guesses:
        tick = time.perf_counter()
        try:
            value = bot.guess(tuple(history))
        except Exception as exc:
            record.status = Status.ERROR
            record.error = last_lines(exc)
            break
        guess, problem = read_guess(value)
        if _take(record, oracle, guess, problem, time.perf_counter() - tick):
            break
        step = record.steps[-1]
        history.append(Turn(step.guess, step.black, step.white))
    record.seconds = time.perf_counter() - start
    return record


def run(
    bot: Bot,
    game_name: str,
    secrets: Iterable[str],
    max_guesses: int = 100,
    on_record: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Play ``bot`` against every secret in order; ``on_record`` sees each game as it ends."""
    records = []
    for secret in secrets:
        record = play(bot, game_name, secret, max_guesses)
        records.append(record)
        if on_record is not None:
            on_record(record)
    return records


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

    def __init__(self, ref: BotRef, game_data: dict, budgets, plan: Plan = UNCONFINED, threads: int | None = None):
        self.ref, self.game_data, self.budgets, self.plan = ref, game_data, budgets, plan
        self.threads = threads
        self.worker = None
        self._setting_up = False

    def start(self) -> None:
        """Start the worker and send it the setup, without waiting for the answer."""
        if self.worker is not None:
            return
        program = self.ref.source.manifest() if self.ref.source.is_program else None
        self.worker = Worker.start(self.plan, program, self.budgets.memory_mb)
        self._setting_up = True
        request = {"op": "setup", "protocol": PROTOCOL, "game": self.game_data, "options": self.ref.options,
                   "seed": self.ref.seed}
        if program is None:  # what the Python worker needs to load and confine the bot
            request.update(source=self.ref.source.as_dict(), memory_mb=self.budgets.memory_mb,
                           threads=self.threads, confine=self.worker.confinement())
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
            raise UnsupportedGame(reply["unsupported"])
        if not reply.get("ok"):
            said = self._said()
            if reply.get("exit_code") == 2:  # the bot's name, file or options: the user's input
                raise InputError(str(reply.get("error")))
            raise HbsError(f"bot {self.ref.name!r}: setup failed: {reply.get('error')}{said}")

    def _said(self) -> str:
        """The last line the bot wrote to stderr (for a failed setup's message); stops the worker."""
        said = self.worker.stderr.take(1) if self.worker is not None else ""
        self.reset()
        return f" (its stderr: {said})" if said else ""

    def reset(self) -> None:
        if self.worker is not None:
            self.worker.kill()
            self.worker = None
        self._setting_up = False


def read_reply(reply: dict) -> tuple[Guess | None, str | None]:
    """A worker's ``guess`` reply as a :class:`Guess` (checked again: the worker is not trusted)."""
    if "invalid" in reply:
        return None, str(reply["invalid"])
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
            record.status, record.error = Status.ERROR, str(reply.get("error") or reply.get("unsupported"))
            if reply.get("spent"):  # out of memory: the next game gets a fresh worker (and set-up)
                contestant.reset()
            break
        guess, problem = read_reply(reply)
        if _take(record, oracle, guess, problem, spent):
            break
        step = record.steps[-1]
        history.append([step.guess, step.black, step.white])
    log = worker.stderr.take()
    if record.status.failure and log:
        record.log = log
    record.seconds = time.perf_counter() - start
    return record


def run_isolated(
    ref: BotRef,
    game_name: str,
    game_data: dict,
    secrets: Sequence[str],
    budgets,
    workers: int = 1,
    on_record: Callable[[GameRecord], None] | None = None,
    plan: Plan = UNCONFINED,
) -> list[GameRecord]:
    """Play every secret in worker processes, ``workers`` games at a time; records in secret order.

    ``on_record`` sees each game as it ends (in the order they end).  The bot is set up once before
    any game so that a bot that declines the game or fails its setup stops the run at once.
    """
    workers = max(1, min(workers, len(secrets)))
    threads = max(1, cores() // workers)
    contestants = [Contestant(ref, game_data, budgets, plan, threads) for _ in range(workers)]
    try:
        for contestant in contestants:  # all set up at once; the first answers for the bot
            contestant.start()
        contestants[0].ready()
    except BaseException:
        for contestant in contestants:
            contestant.reset()
        raise
    records: list[GameRecord | None] = [None] * len(secrets)
    lock = threading.Lock()
    queue = iter(range(len(secrets)))
    stop = threading.Event()
    failure: list[BaseException] = []

    def serve(contestant: Contestant) -> None:
        try:
            while not stop.is_set():
                with lock:
                    index = next(queue, None)
                if index is None:
                    return
                record = play_isolated(contestant, game_name, secrets[index])
                with lock:
                    if stop.is_set():
                        return
                    records[index] = record
                    if on_record is not None:
                        on_record(record)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            failure.append(exc)
            stop.set()

    servers = [threading.Thread(target=serve, args=(c,), daemon=True) for c in contestants]
    for t in servers:
        t.start()
    try:
        for t in servers:
            while t.is_alive():
                t.join(0.2)
    finally:
        stop.set()
        for c in contestants:
            c.reset()
    if failure:
        raise failure[0]
    return [r for r in records if r is not None]


@dataclass
class Summary:
    """Totals of a run."""

    bot: str
    game: str
    games: int
    solved: int
    total_guesses: int
    mean_guesses: float
    min_guesses: int
    max_guesses: int
    histogram: dict[int, int]
    failures: dict[str, int]
    seconds: float

    def as_dict(self) -> dict:
        out = dict(vars(self))
        out["histogram"] = {str(k): v for k, v in sorted(self.histogram.items())}
        return out


def summarize(bot: str, game: str, records: Sequence[GameRecord], seconds: float) -> Summary:
    """Summarize ``records``: guess counts over all games, the histogram over the solved ones."""
    counts = [r.guesses for r in records]
    solved = [r.guesses for r in records if r.status == Status.SOLVED]
    histogram: dict[int, int] = {}
    for n in solved:
        histogram[n] = histogram.get(n, 0) + 1
    failures: dict[str, int] = {}
    for r in records:
        if r.status != Status.SOLVED:
            failures[r.status] = failures.get(r.status, 0) + 1
    return Summary(
        bot=bot,
        game=game,
        games=len(records),
        solved=len(solved),
        total_guesses=sum(counts),
        mean_guesses=sum(counts) / len(counts) if counts else 0.0,
        min_guesses=min(counts, default=0),
        max_guesses=max(counts, default=0),
        histogram=histogram,
        failures=failures,
        seconds=seconds,
    )


def last_lines(exc: BaseException, keep: int = 6) -> str:
    """The last ``keep`` lines of an exception's traceback (what a replay keeps of an error)."""
    lines = "".join(traceback.format_exception(exc)).rstrip().splitlines()
    return "\n".join(lines[-keep:])
