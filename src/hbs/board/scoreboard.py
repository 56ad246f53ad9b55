"""The scoreboard: every run's result on disk, and standings of the bots that played the same secrets.

A run is recorded as ``DIR/runs/<bot>__<game>__<secret set>.json`` (a later run of the same bot on
the same secrets replaces it): bot, bot file hash, game, secret-set hash, budgets, how the bot was
confined, summary, replay file, and the guesses and status of every game in secret order (for
paired comparisons).  Boards mark the runs whose bot was not confined.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING, Callable

from hbs.board import significance
from hbs.contract.sanitize import markdown_cell
from hbs.errors import InputError

if TYPE_CHECKING:
    from hbs.arena.runs import RunOutcome

CONFINED = ("bwrap", "landlock")


def played(confinement: str) -> str:
    """How a board shows a run's confinement: unconfined runs are marked."""
    if confinement in ("none", "in-process"):
        return f"{confinement} (UNCONFINED)"
    return confinement  # bwrap, landlock, or unknown (recorded before confinement was kept)


def record_run(directory: str | Path, outcome: "RunOutcome") -> Path:
    """Write one run's result; returns the file written."""
    folder = Path(directory) / "runs"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write the scoreboard: {exc.strerror}", directory) from None
    summary, records = outcome.summary, outcome.records
    data = {
        "bot": outcome.bot, "bot_hash": outcome.bot_hash, "game": outcome.game, "secrets": outcome.secret_set,
        "budgets": outcome.budgets.as_dict(), "confinement": outcome.confinement, "summary": summary.as_dict(),
        "replays": replay_reference(directory, outcome.replays), "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "guesses": [r.guesses for r in records], "statuses": [r.status for r in records],
        "seconds_per_game": summary.seconds / max(summary.games, 1),
    }
    path = folder / f"{outcome.bot}__{outcome.game}__{outcome.secret_set}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)
    return path


def replay_reference(directory: str | Path, replays: str | None) -> str | None:
    """How a record names its replay file: relative to the scoreboard folder when it lies inside it
    (a kept replay: the folder can move), else as the user gave it."""
    if not replays:
        return None
    try:
        return Path(replays).resolve().relative_to(Path(directory).resolve()).as_posix()
    except ValueError:
        return replays


def replay_path(directory: str | Path, run: dict) -> Path | None:
    """The replay file of a run record: a relative name is looked up in the scoreboard folder, then
    (records of before replays were kept there) from the current folder."""
    if not run.get("replays"):
        return None
    path = Path(run["replays"])
    if path.is_absolute() or not (Path(directory) / path).exists():
        return path
    return Path(directory) / path


def find_run(directory: str | Path, name: str) -> dict:
    """The run record named ``name``: ``BOT__GAME__SET`` as ``hbs board --html`` names runs, or any
    unique beginning of one (a bot's name alone, where it played one secret set)."""
    runs = load_runs(directory)
    keys = {f"{r['bot']}__{r['game']}__{r['secrets']}": r for r in runs}
    if name in keys:
        return keys[name]
    found = [k for k in keys if k.startswith(name if "__" in name else name + "__")]
    if len(found) != 1:
        what = "no recorded run" if not found else f"{len(found)} recorded runs ({', '.join(sorted(found)[:4])})"
        raise InputError(f"{what} named {name!r}: give a replay file, or BOT__GAME__SET as hbs board --json names them",
                         directory)
    return keys[found[0]]


@dataclass
class Standing:
    """One bot's row of a board."""

    bot: str
    game: str
    secrets: str
    games: int
    solved: int
    total_guesses: int
    mean_guesses: float
    ci95: float
    median: float
    max_guesses: int
    failures: dict
    seconds_per_game: float
    vs_leader: tuple[int, int, int]  # games won, lost, tied against the leader (fewer guesses wins)
    confinement: str = "unknown"  # bwrap, landlock, none, in-process (unknown: recorded before it was kept)
    rank: int = 1  # shared with the bot above where their difference is not significant (see significance.py)
    p_vs_leader: float | None = None  # the paired test's p-value against the leader (None: the leader)

    def as_dict(self) -> dict:
        out = dict(vars(self))
        out["vs_leader"] = dict(zip(("won", "lost", "tied"), self.vs_leader))
        return out


RUN_KEYS = ("bot", "game", "secrets", "summary", "guesses", "statuses", "seconds_per_game")


def load_runs(directory: str | Path, skip: Callable[[InputError], None] | None = None) -> list[dict]:
    """Every run recorded in ``directory``.  A file that is not a run record raises
    :class:`InputError`, or, where ``skip`` is given, is handed to it and left out."""
    folder = Path(directory) / "runs"
    if not folder.is_dir():
        raise InputError("no runs recorded here yet (hbs run records them)", directory)
    runs = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text())
            missing = [k for k in RUN_KEYS if k not in data] if isinstance(data, dict) else ["an object"]
            if missing:
                raise ValueError(f"no {', '.join(missing)}")
            if len(data["guesses"]) != data["summary"]["games"]:
                raise ValueError(f"{len(data['guesses'])} games' guesses for {data['summary']['games']} games")
        except (ValueError, OSError, TypeError, KeyError) as exc:
            error = InputError(f"not a run record ({exc})", path)
            if skip is None:
                raise error from None
            skip(error)
            continue
        runs.append(data)
    return runs


def standings(runs: list[dict]) -> list[list[Standing]]:
    """Boards, one per (game, secret set), bots ordered by solved (more first), then mean guesses;
    ranks shared where a difference is not significant (:mod:`hbs.board.significance`)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for run in runs:
        groups.setdefault((run["game"], run["secrets"]), []).append(run)
    boards = []
    for (game, secrets), group in sorted(groups.items()):
        group.sort(key=lambda r: (-r["summary"]["solved"], r["summary"]["mean_guesses"], r["bot"]))
        leader = group[0]["guesses"]
        board = []
        for run in group:
            g = run["guesses"]
            sd = statistics.stdev(g) if len(g) > 1 else 0.0
            s = run["summary"]
            won = sum(a < b for a, b in zip(g, leader))
            lost = sum(a > b for a, b in zip(g, leader))
            board.append(Standing(
                run["bot"], game, secrets, s["games"], s["solved"], s["total_guesses"], s["mean_guesses"],
                1.96 * sd / math.sqrt(len(g)) if g else 0.0, float(statistics.median(g)) if g else 0.0,
                s["max_guesses"], s["failures"], run["seconds_per_game"], (won, lost, len(g) - won - lost),
                run.get("confinement", "unknown"),
            ))
        ranked, _ = significance.ranks([run["guesses"] for run in group])
        for k, (s, run) in enumerate(zip(board, group)):
            s.rank = ranked[k]
            s.p_vs_leader = None if k == 0 else significance.paired_p(run["guesses"], leader)
        boards.append(board)
    return boards


def markdown(boards: list[list[Standing]]) -> str:
    """The boards as Markdown tables."""
    out = []
    for board in boards:
        first = board[0]
        out.append(f"### {first.game} ({first.games} secrets, set {first.secrets})\n")
        out.append("| rank | bot | solved | total | mean ± 95% CI | median | max | failures | s/game | vs leader (W/L/T) "
                   "| p vs leader | confinement |")
        out.append("|---:|---|---:|---:|---:|---:|---:|---|---:|---|---:|---|")
        for s in board:
            failures = markdown_cell(", ".join(f"{k} {v}" for k, v in sorted(s.failures.items())) or "none")
            out.append(f"| {s.rank} | {markdown_cell(s.bot)} | {s.solved} | {s.total_guesses} | {s.mean_guesses:.4f} ± {s.ci95:.4f} | "
                       f"{s.median:g} | {s.max_guesses} | {failures} | {s.seconds_per_game:.4f} | "
                       f"{'/'.join(map(str, s.vs_leader))} | {p_text(s.p_vs_leader)} | {played(s.confinement)} |")
        out.append("")
    return "\n".join(out)


def p_text(p: float | None) -> str:
    """A p-value as boards show it: three significant digits, ``<1e-300`` for underflow, ``-`` for the leader."""
    if p is None:
        return "-"
    return f"{p:.3g}" if p > 0 else "<1e-300"


def plot(runs: list[dict], path: str | Path) -> None:
    """Bars of the distribution of guesses a game, one panel a board, one colour a bot."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install matplotlib") from None
    boards = standings(runs)
    by_key = {(r["game"], r["secrets"], r["bot"]): r for r in runs}
    fig, axes = plt.subplots(len(boards), 1, figsize=(8, 3.2 * len(boards)), squeeze=False)
    for ax, board in zip(axes[:, 0], boards):
        bots = [s.bot for s in board]
        width = 0.8 / len(bots)
        for k, s in enumerate(board):
            guesses = by_key[(s.game, s.secrets, s.bot)]["guesses"]
            counts = {n: guesses.count(n) for n in set(guesses)}
            xs = sorted(counts)
            ax.bar([x + (k - (len(bots) - 1) / 2) * width for x in xs], [counts[x] for x in xs], width,
                   label=f"{s.bot} (mean {s.mean_guesses:.3f})")
        ax.set_title(f"{board[0].game} — {board[0].games} secrets")
        ax.set_xlabel("guesses a game")
        ax.set_ylabel("games")
        ax.legend(fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise InputError(f"cannot write the plot: {exc.strerror}", path) from None
    plt.close(fig)
