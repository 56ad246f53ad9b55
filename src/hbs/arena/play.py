"""Playing bots against secrets: one game under a query budget, and a run over a set of secrets."""

from __future__ import annotations

import os
import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Callable, Iterable, Sequence

from hbs.contract import sanitize
from hbs.contract.bot import Bot, BotSource, Guess, Turn
from hbs.sandbox.confinement import Plan
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.sandbox.workers import PROTOCOL, UNCONFINED, Worker, WorkerFailure, cores
from hbs.core.oracle import Oracle
from hbs.core.rule import grade
from hbs.core.status import Status

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
    """What a bot returned, as a :class:`Guess` (its phase bounded and cleaned); or why it is not one
    (``invalid`` status)."""
    if isinstance(value, str):
        value = Guess(value)
    if not isinstance(value, Guess):
        return None, f"returned {type(value).__name__}, not str or hbs.Guess"
    remaining, phase = value.remaining, value.phase
    if remaining is not None:
        if isinstance(remaining, bool) or not isinstance(remaining, Integral) or remaining < 0:
            return None, f"returned remaining={sanitize.clean(repr(remaining), sanitize.PHASE)}, not a count (int >= 0) or None"
        remaining = int(remaining)
    if phase is not None:
        if not isinstance(phase, str):
            return None, f"returned phase={sanitize.clean(repr(phase), sanitize.PHASE)}, not a str or None"
        phase = sanitize.clean(phase, sanitize.PHASE)
    problem = guess_problem(value.text)
    if problem:
        return None, problem
    if remaining is value.remaining and phase is value.phase:
        return value, None
    return Guess(value.text, remaining, phase), None


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
            record.error = sanitize.clean(last_lines(exc), sanitize.ERROR, lines=True)
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
        if _take(record, oracle, guess, problem, spent):
            break
        step = record.steps[-1]
        history.append([step.guess, step.black, step.white])
    log = worker.stderr.take()
    if record.status.failure and log:
        record.log = sanitize.clean(log, sanitize.LOG, lines=True)
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
    any game so that a bot that declines the game or fails its setup stops the run at once.  The
    first game is played first; the rest are dealt out to the workers by :func:`deal`.
    """
    workers = max(1, min(workers, len(secrets)))
    threads = max(1, cores() // workers)
    cpus = pinned(workers) if threads == 1 else [None] * workers
    contestants = [Contestant(ref, game_data, budgets, plan, threads, cpu) for cpu in cpus]
    records: list[GameRecord | None] = [None] * len(secrets)
    lock = threading.Lock()
    stop = threading.Event()
    failure: list[BaseException] = []

    def keep(index: int, record: GameRecord) -> None:
        records[index] = record
        if on_record is not None:
            on_record(record)

    def serve(contestant: Contestant, worker: int) -> None:
        try:
            if cpus[worker] is not None:  # this thread only: the bot's worker is on the same core
                os.sched_setaffinity(0, {cpus[worker]})
            while not stop.is_set():
                with lock:
                    index = queue.take(worker)
                if index is None:
                    return
                record = play_isolated(contestant, game_name, secrets[index])
                with lock:
                    if stop.is_set():
                        return
                    keep(index, record)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            failure.append(exc)
            stop.set()

    try:
        for contestant in contestants:  # all set up at once; the first answers for the bot
            contestant.start()
        contestants[0].ready()
        if not secrets:
            return []
        keep(0, play_isolated(contestants[0], game_name, secrets[0]))
        queue = Blocks(deal(secrets, records[0]), workers)
        servers = [threading.Thread(target=serve, args=(c, k), daemon=True) for k, c in enumerate(contestants)]
        for t in servers:
            t.start()
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


def pinned(workers: int) -> list[int | None]:
    """The core of each worker and of the runner's thread that drives it, where each worker has one
    thread: a guess is a round trip between the two, and one on the same core is answered about three
    times sooner than one that wakes another core.  Which core plays a game changes nothing in it."""
    try:
        found = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [None] * workers
    return [found[k % len(found)] for k in range(workers)]


def deal(secrets: Sequence[str], first: GameRecord) -> list[int]:
    """The order the games after the first are dealt out in: by the answer each secret gives to the
    first game's first guess (stably), so that the secrets of one answer play one after another.

    A bot that memoises its decisions by history (most do) walks its decision tree once a worker;
    contiguous blocks of this order share the subtrees below the first answer, so two workers walk
    little of the tree twice.  Where and when a game is played changes nothing in it.
    """
    rest = range(1, len(secrets))
    if not first.steps:
        return list(rest)
    opening = first.steps[0].guess
    return sorted(rest, key=lambda i: grade(opening, secrets[i]))


class Blocks:
    """Which game each worker plays next: worker ``k`` plays the ``k``-th contiguous block of
    ``order``, and one whose block is done takes the last game of the largest block left."""

    def __init__(self, order: Sequence[int], workers: int):
        self.order = list(order)
        bounds = [len(self.order) * k // workers for k in range(workers + 1)]
        self.blocks = [[bounds[k], bounds[k + 1]] for k in range(workers)]  # [next, end) of each

    def take(self, worker: int) -> int | None:
        block = self.blocks[worker]
        if block[0] < block[1]:
            block[0] += 1
            return self.order[block[0] - 1]
        largest = max(self.blocks, key=lambda b: b[1] - b[0])
        if largest[0] >= largest[1]:
            return None
        largest[1] -= 1
        return self.order[largest[1]]


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
