"""The ``hbs`` command: thin typer commands over library calls.

Errors from the library are typed (:mod:`hbs.errors`); here they become one line on stderr and an
exit code: 0 ok, 2 bad input, 1 anything else, 130 interrupted.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from typing import Annotated, Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from . import arena, bot as botmod, play as playmod, report, runspec, solve as solvemod, tree as treemod
from .errors import HbsError, InputError
from .feedback import grade as grade_rule
from .replays import ReplayWriter

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Run, test and rank Mastermind-family codebreaking bots.")
out = Console(highlight=False)

BotsDirs = Annotated[list[str], typer.Option("--bots-dir", help="Extra folder of bot files (searched first).")]


@contextmanager
def reported() -> Iterator[None]:
    """Turn library errors into one line on stderr and their exit code."""
    try:
        yield
    except HbsError as exc:
        print(f"hbs: error: {exc}", file=sys.stderr)
        raise typer.Exit(exc.exit_code) from None


@app.command()
def run(
    bot: Annotated[str, typer.Option(help="Bot name (see `hbs bots`).")],
    game: Annotated[Optional[str], typer.Option(help="mastermind, bulls or phrases (default mastermind; phrases with --phrases).")] = None,
    phrases: Annotated[Optional[str], typer.Option(help="File of secret phrases; implies --game phrases.")] = None,
    words: Annotated[Optional[str], typer.Option(help="Word list of the phrase game [default: data/words.txt].")] = None,
    secrets: Annotated[Optional[str], typer.Option(help="File of secret codes (default: every code of the game).")] = None,
    pegs: Annotated[Optional[int], typer.Option(help="Positions of a code game [default: 4].")] = None,
    colors: Annotated[Optional[int], typer.Option(help="Mastermind colours [default: 6].")] = None,
    alphabet: Annotated[Optional[str], typer.Option(help="Mastermind symbols, first --colors used [default: 123456789].")] = None,
    n_words: Annotated[int, typer.Option(help="Words a phrase.")] = 3,
    limit: Annotated[Optional[int], typer.Option(help="Play only the first N secrets.")] = None,
    max_guesses: Annotated[int, typer.Option(help="Query budget a game.")] = 100,
    seed: Annotated[Optional[int], typer.Option(help="Seed for bots that draw at random.")] = None,
    bot_option: Annotated[list[str], typer.Option("--bot-option", help="KEY=VALUE passed to the bot (repeatable).")] = [],
    bots_dir: BotsDirs = [],
    replays: Annotated[Optional[str], typer.Option(help="Append one JSON line a game to this file.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print only a JSON summary on stdout.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every game's trace.")] = False,
) -> None:
    """Play a bot against every secret of a game and summarize the result."""
    with reported():
        if max_guesses < 1:
            raise InputError(f"--max-guesses must be at least 1, got {max_guesses}")
        spec = runspec.RunSpec(
            bot, game, phrases, words, secrets, pegs, colors, alphabet, n_words, limit, seed,
            runspec.parse_options(bot_option), bots_dir,
        )
        the_game = runspec.build_game(spec)
        the_secrets = runspec.build_secrets(spec, the_game)
        the_bot = runspec.build_bot(spec)
        the_bot.setup(the_game)
        writer = ReplayWriter(replays) if replays else None
        progress = report.RunProgress(len(the_secrets), enabled=not verbose and not json_out)
        records: list[arena.GameRecord] = []

        def on_record(record: arena.GameRecord) -> None:
            records.append(record)
            if writer:
                writer.write(record)
            if verbose:
                print(report.trace(record, len(records), len(the_secrets)), flush=True)
            progress.advance(record)

        start = time.perf_counter()
        interrupted = False
        try:
            with progress.shown():
                arena.run(the_bot, the_game.name, the_secrets, max_guesses, on_record)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if writer:
                writer.close()
        summary = arena.summarize(the_bot.name, the_game.name, records, time.perf_counter() - start)
        if json_out:
            print(json.dumps(summary.as_dict()))
        else:
            out.print(report.summary_table(summary))
        if interrupted:
            print(f"hbs: interrupted after {len(records)} of {len(the_secrets)} games", file=sys.stderr)
            raise typer.Exit(130)


@app.command()
def bots(
    bots_dir: BotsDirs = [],
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the bots: name, the first line of the docstring, and load errors."""
    with reported():
        entries = botmod.discover(bots_dir)
    if json_out:
        rows = [{"name": e.name, "summary": e.summary, "origin": e.origin, "error": e.error} for e in entries.values()]
        print(json.dumps(rows))
        return
    table = Table("bot", "what it does", show_edge=False)
    for entry in entries.values():
        text = entry.summary if entry.error is None else f"[red]cannot load: {entry.error}[/red]"
        table.add_row(entry.name, text)
    out.print(table)


@app.command()
def grade(
    guess: Annotated[str, typer.Argument(help="The guess.")],
    secret: Annotated[str, typer.Argument(help="The secret.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print {\"black\": B, \"white\": W}.")] = False,
) -> None:
    """Grade GUESS against SECRET with the rule: print black and white."""
    black, white = grade_rule(guess, secret)
    if json_out:
        print(json.dumps({"black": black, "white": white, "solved": guess == secret}))
    else:
        print(f"black {black} white {white}")


GameOpt = Annotated[Optional[str], typer.Option("--game", help="mastermind, bulls or phrases [default: mastermind].")]
PegsOpt = Annotated[Optional[int], typer.Option("--pegs", help="Positions of a code game [default: 4].")]
ColorsOpt = Annotated[Optional[int], typer.Option("--colors", help="Mastermind colours [default: 6].")]
AlphabetOpt = Annotated[Optional[str], typer.Option("--alphabet", help="Mastermind symbols [default: 123456789].")]
WordsOpt = Annotated[Optional[str], typer.Option("--words", help="Word list of the phrase game [default: data/words.txt].")]
NWordsOpt = Annotated[int, typer.Option("--n-words", help="Words a phrase.")]
BotOptionOpt = Annotated[list[str], typer.Option("--bot-option", help="KEY=VALUE passed to the bot (repeatable).")]


@app.command()
def tree(
    bot: Annotated[str, typer.Option(help="A deterministic bot.")],
    game: GameOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    alphabet: AlphabetOpt = None,
    max_guesses: Annotated[int, typer.Option(help="Query budget a game.")] = 100,
    bot_option: BotOptionOpt = [],
    bots_dir: BotsDirs = [],
    json_out: Annotated[bool, typer.Option("--json", help="Print only a JSON summary (leaves, worst, total...).")] = False,
    out_file: Annotated[Optional[str], typer.Option("--out", help="Write the nested tree as JSON to this file.")] = None,
) -> None:
    """Print a deterministic bot's whole decision tree over every code of a code game."""
    with reported():
        spec = runspec.RunSpec(bot, game, pegs=pegs, colors=colors, alphabet=alphabet,
                               bot_options=runspec.parse_options(bot_option), bots_dirs=bots_dir)
        the_game = runspec.build_game(spec)
        if the_game.kind == "phrases":
            raise InputError("hbs tree needs a code game (mastermind or bulls)")

        def fresh() -> botmod.Bot:
            made = runspec.build_bot(spec)
            made.setup(the_game)
            return made

        root = treemod.build(fresh, the_game.name, the_game.codes(), max_guesses)
        summary = treemod.summarize(root)
        if out_file:
            try:
                with open(out_file, "w", encoding="utf-8") as fh:
                    json.dump(treemod.to_json(root), fh)
            except OSError as exc:
                raise InputError(f"cannot write the tree: {exc.strerror}", out_file) from None
    if json_out:
        print(json.dumps(summary.as_dict()))
        return
    for line in treemod.render(root):
        print(line)
    print(f"worst case {summary.worst}, total {summary.total}, average {summary.average:.4f} "
          f"over {summary.leaves} codes")


def _read(prompt: str) -> str:
    return input(prompt)


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _say(text: str) -> None:
    print(text, flush=True)


@app.command()
def solve(
    bot: Annotated[str, typer.Option(help="The bot that guesses.")] = "knuth",
    game: GameOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    alphabet: AlphabetOpt = None,
    words: WordsOpt = None,
    n_words: NWordsOpt = 3,
    bot_option: BotOptionOpt = [],
    bots_dir: BotsDirs = [],
    plain: Annotated[bool, typer.Option("--plain", help="Print each guess alone on a line; read `black white` lines.")] = False,
) -> None:
    """Break a code someone holds: the bot guesses, you type each answer (`1 2`; `1A2B` for bulls).

    Type `undo` to take the last answer back, `quit` to stop; for phrases type `solved` when the
    guess is the phrase.
    """
    with reported():
        spec = runspec.RunSpec(bot, game, None, words, None, pegs, colors, alphabet, n_words,
                               bot_options=runspec.parse_options(bot_option), bots_dirs=bots_dir)
        the_game = runspec.build_game(spec)
        the_bot = runspec.build_bot(spec)
        the_bot.setup(the_game)
    session = solvemod.SolveSession(the_bot, the_game)
    code = solvemod.run(session, plain, _read, _say, _warn if plain else _say)
    raise typer.Exit(code)


@app.command("play")
def play_cmd(
    game: GameOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    alphabet: AlphabetOpt = None,
    words: WordsOpt = None,
    n_words: NWordsOpt = 3,
    seed: Annotated[Optional[int], typer.Option(help="Seed of the secret (default: a fresh one).")] = None,
) -> None:
    """Guess a random secret yourself; `hint` counts the secrets that still fit."""
    with reported():
        spec = runspec.RunSpec("", game, None, words, None, pegs, colors, alphabet, n_words)
        the_game = runspec.build_game(spec)
    session = playmod.PlaySession(the_game, playmod.random_secret(the_game, seed))
    raise typer.Exit(playmod.run(session, _read, _say, _say))


def main() -> None:  # pragma: no cover - for `python -m hbs`
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
