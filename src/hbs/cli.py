"""The ``hbs`` command: thin typer commands over library calls.

Errors from the library are typed (:mod:`hbs.errors`); here they become one line on stderr and an
exit code: 0 ok, 2 bad input, 1 anything else, 130 interrupted.
"""

from __future__ import annotations

import contextlib
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer
from rich.console import Console
from rich.text import Text

from hbs.arena import runs as runner
from hbs.arena.ray_cluster import backend as backend_of
from hbs.arena.replays import read as replay_read, regrade
from hbs.arena.request import Request, build_game, default_words, parse_options, remote_bot, words_file
from hbs.board import console
from hbs.board import scoreboard as board
from hbs.board import site
from hbs.board import tables
from hbs.board.tables import Column, Grid
from hbs.contract import catalog
from hbs.contract import sanitize, skeleton
from hbs.contract.bot import locate, sources as bot_sources
from hbs.core.games import defaults
from hbs.core.loaders import load_words
from hbs.core.record import GameRecord
from hbs.core.rule import grade as grade_rule
from hbs.errors import HbsError, InputError
from hbs.people.remote_bot import RemoteBot
from hbs.sandbox import confinement
from hbs.sandbox.workers import Budgets, cores

# rich_markup_mode=None: help texts are plain ("[default: 4]", "hbs[ray]" are not markup)
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Run, test and rank Mastermind-family codebreaking bots.")
out = Console(highlight=False)

BotsDirs = Annotated[list[str], typer.Option("--bots-dir", help="Extra folder of bot files (searched first).")]


GameOpt = Annotated[Optional[str], typer.Option("--game", help="mastermind, bulls or phrases [default: mastermind].")]
PegsOpt = Annotated[Optional[int], typer.Option("--pegs", help="Positions of a code game [default: 4].")]
ColorsOpt = Annotated[Optional[int], typer.Option("--colors", help="Mastermind colours [default: 6].")]
AlphabetOpt = Annotated[Optional[str], typer.Option("--alphabet", help="Mastermind symbols [default: 123456789].")]
WordsOpt = Annotated[Optional[str], typer.Option("--words", help="Word list of the phrase game [default: data/words.txt].")]
NWordsOpt = Annotated[int, typer.Option("--n-words", help="Words a phrase.")]
ScoreboardOpt = Annotated[str, typer.Option("--scoreboard", envvar="HBS_SCOREBOARD", help="Folder of recorded runs.")]
BotOptionOpt = Annotated[list[str], typer.Option("--bot-option", help="KEY=VALUE passed to the bot (repeatable).")]
GameRunOpt = Annotated[Optional[str], typer.Option("--game", help="mastermind, bulls or phrases (default mastermind; phrases with --phrases).")]
PhrasesOpt = Annotated[Optional[str], typer.Option("--phrases", help="File of secret phrases; implies --game phrases.")]
SecretsOpt = Annotated[Optional[str], typer.Option("--secrets", help="File of secret codes (default: every code of the game).")]
LimitOpt = Annotated[Optional[int], typer.Option("--limit", help="Play only the first N secrets.")]
MaxGuessesOpt = Annotated[int, typer.Option("--max-guesses", help="Query budget a game.")]
GuessTimeoutOpt = Annotated[float, typer.Option("--guess-timeout", help="Seconds a guess, before the game's bank is drawn on.")]
GameTimeoutOpt = Annotated[float, typer.Option("--game-timeout", help="A game's time bank: seconds beyond the per-guess limits.")]
SetupTimeoutOpt = Annotated[float, typer.Option("--setup-timeout", help="Seconds for the bot's setup.")]
MemoryOpt = Annotated[int, typer.Option("--memory", help="Memory cap of a worker, MB (address space).")]
WorkersOpt = Annotated[Optional[int], typer.Option("--workers", help="Games played in parallel [default: the number of cores].")]
SeedOpt = Annotated[Optional[int], typer.Option("--seed", help="Seed for bots that draw at random.")]
NoReplaysOpt = Annotated[bool, typer.Option("--no-replays", help="Keep no replay of the games.")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="Play only the secrets missing from the replays.")]
SandboxOpt = Annotated[str, typer.Option("--sandbox", help="How bots are confined: auto (bubblewrap, else Landlock), bwrap or landlock.")]
UnconfinedOpt = Annotated[bool, typer.Option("--unconfined", help="Run bots without confinement: only for bots you trust.")]
BackendOpt = Annotated[str, typer.Option("--backend", help="local (this machine's cores) or ray (a Ray cluster: pip install 'hbs[ray]').")]
AddressOpt = Annotated[Optional[str], typer.Option("--address", help="The Ray cluster's HOST:PORT (`ray start --head` prints it) [default: start Ray on this machine].")]


def confinement_of(sandbox: str, unconfined: bool) -> str:
    """The mechanism to confine bots with; prints the one-line warning when there is none."""
    mechanism, warning = confinement.choose(sandbox, unconfined)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    return mechanism


def replay_folder(scoreboard_dir: str, replays: str | None, no_replays: bool) -> str | None:
    """Where a run keeps its replays when the user named no file: beside its scoreboard record."""
    if replays and no_replays:
        raise InputError("--replays and --no-replays: give one of them")
    return None if replays or no_replays else str(Path(scoreboard_dir) / "replays")


@contextmanager
def reported() -> Iterator[None]:
    """Turn library errors into one line on stderr and their exit code."""
    try:
        yield
    except HbsError as exc:
        print(f"hbs: error: {sanitize.clean(exc, sanitize.ERROR)}", file=sys.stderr)  # one line, whatever it quotes
        raise typer.Exit(exc.exit_code) from None


def run_options(max_guesses: int, guess_timeout: float, game_timeout: float, setup_timeout: float, memory: int,
                workers: int | None, **how) -> runner.RunOptions:
    """The options `run` and `tournament` share: budgets and workers (default: the cores), and ``how``."""
    budgets = Budgets(max_guesses=max_guesses, guess_timeout=guess_timeout, game_timeout=game_timeout,
                      setup_timeout=setup_timeout, memory_mb=memory)
    return runner.RunOptions(budgets=budgets, workers=workers if workers is not None else cores(), **how)


@app.command()
def run(
    bot: Annotated[str, typer.Option(help="Bot name (see `hbs bots`).")],
    game: GameRunOpt = None,
    phrases: PhrasesOpt = None,
    words: WordsOpt = None,
    secrets: SecretsOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    alphabet: AlphabetOpt = None,
    n_words: NWordsOpt = 3,
    limit: LimitOpt = None,
    max_guesses: MaxGuessesOpt = 100,
    guess_timeout: GuessTimeoutOpt = 10.0,
    game_timeout: GameTimeoutOpt = 30.0,
    setup_timeout: SetupTimeoutOpt = 120.0,
    memory: MemoryOpt = 4096,
    workers: WorkersOpt = None,
    in_process: Annotated[bool, typer.Option("--in-process", help="Debug mode for trusted bots: no worker, no budgets but --max-guesses.")] = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
    seed: SeedOpt = None,
    bot_option: BotOptionOpt = [],
    bots_dir: BotsDirs = [],
    replays: Annotated[Optional[str], typer.Option(help="Append one JSON line a game to this file (in secret order at the end) [default: SCOREBOARD/replays/, never committed].")] = None,
    no_replays: NoReplaysOpt = False,
    resume: ResumeOpt = False,
    scoreboard_dir: ScoreboardOpt = "scoreboard",
    json_out: Annotated[bool, typer.Option("--json", help="Print only a JSON summary on stdout.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every game's trace.")] = False,
) -> None:
    """Play a bot against every secret of a game and summarize the result.

    Each bot runs in confined worker processes that never see a secret (bubblewrap, else Landlock);
    a worker that overruns its time or memory is killed and replaced.  Statuses: solved, exhausted,
    timeout, error, invalid.
    """
    with reported():
        spec = Request(bot=bot, game=game, phrases=phrases, words=words, secrets=secrets, pegs=pegs, colors=colors,
                       alphabet=alphabet, n_words=n_words, limit=limit, seed=seed,
                       bot_options=parse_options(bot_option), bots_dirs=bots_dir)
        if in_process and backend != "local":
            raise InputError("--in-process plays in this process: it does not go with --backend ray")
        mechanism = "none" if in_process else confinement_of(sandbox, unconfined)
        game_of_run = build_game(spec)
        cluster = backend_of(backend, address, [locate(bot, bots_dir)], words_file(spec, game_of_run), workers)
        progress: list[console.RunProgress] = []
        shown = contextlib.ExitStack()
        stdout = sys.stdout  # a Ray cluster sends what Ray prints to stderr while it is connected

        def on_start(done: int, todo: int) -> None:
            bar = console.RunProgress(done + todo, enabled=not verbose and not json_out, done=done)
            progress.append(bar)
            shown.enter_context(bar.shown())

        def on_record(record: GameRecord) -> None:
            if verbose:
                print(console.trace(record, progress[0].done + 1, progress[0].total), file=stdout, flush=True)
            progress[0].advance(record)

        with cluster as on, shown:
            options = run_options(max_guesses, guess_timeout, game_timeout, setup_timeout, memory, workers,
                                  in_process=in_process, confinement=mechanism, replays=replays, resume=resume,
                                  replay_folder=replay_folder(scoreboard_dir, replays, no_replays), cluster=on)
            outcome = runner.execute(spec, options, on_record, on_start)
        if not outcome.interrupted:
            board.record_run(scoreboard_dir, outcome)
    if json_out:
        print(json.dumps(outcome.summary.as_dict()))
    else:
        tables.show(console.summary_table(outcome.summary), out)
    if outcome.interrupted:
        kept = f" in {outcome.replays} (--resume goes on)" if outcome.replays else ""
        print(f"hbs: interrupted after {outcome.played} of {len(outcome.secrets)} games; "
              f"the replays of the finished games are kept{kept}", file=sys.stderr)
        raise typer.Exit(130)


@app.command("tournament")
def tournament_cmd(
    bot: Annotated[list[str], typer.Option("--bot", help="A bot to play (repeatable).")] = [],
    all_bots: Annotated[bool, typer.Option("--all", help="Every bot that declares the game.")] = False,
    game: GameRunOpt = None,
    phrases: PhrasesOpt = None,
    words: WordsOpt = None,
    secrets: SecretsOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    alphabet: AlphabetOpt = None,
    n_words: NWordsOpt = 3,
    limit: LimitOpt = None,
    max_guesses: MaxGuessesOpt = 100,
    guess_timeout: GuessTimeoutOpt = 10.0,
    game_timeout: GameTimeoutOpt = 30.0,
    setup_timeout: SetupTimeoutOpt = 120.0,
    memory: MemoryOpt = 4096,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
    seed: SeedOpt = None,
    bots_dir: BotsDirs = [],
    replays: Annotated[Optional[str], typer.Option(help="Folder of replay files, one a bot (BOT.jsonl) [default: SCOREBOARD/replays/, never committed].")] = None,
    no_replays: NoReplaysOpt = False,
    resume: ResumeOpt = False,
    scoreboard_dir: ScoreboardOpt = "scoreboard",
    json_out: Annotated[bool, typer.Option("--json", help="Print the standings and the skipped bots as JSON.")] = False,
) -> None:
    """Play several bots on the same secrets, with the same budgets and confinement, and rank them.

    Each bot's run is recorded on the scoreboard (and in --replays DIR/BOT.jsonl); the standings are
    `hbs board`'s for that secret set.  A bot that cannot be loaded or declines the game is skipped.
    """
    from hbs.arena import tournament

    with reported():
        if bool(bot) == all_bots:
            raise InputError("give the bots with --bot NAME (repeatable), or --all")
        base = Request(game=game, phrases=phrases, words=words, secrets=secrets, pegs=pegs, colors=colors,
                       alphabet=alphabet, n_words=n_words, limit=limit, seed=seed, bots_dirs=bots_dir)
        mechanism = confinement_of(sandbox, unconfined)
        game_of_run = build_game(base)
        names = list(bot) or tournament.declaring(game_of_run, bots_dir, mechanism)
        known = bot_sources(bots_dir)
        cluster = backend_of(backend, address, [known[n] for n in names if n in known],
                             words_file(base, game_of_run), workers)
        progress: list[console.RunProgress] = []
        shown = contextlib.ExitStack()

        def on_start(name: str, done: int, todo: int) -> None:
            if not progress:
                progress.append(console.RunProgress(len(names) * (done + todo), enabled=not json_out))
                shown.enter_context(progress[0].shown())
            progress[0].advance_by(done, name)

        def on_record(record: GameRecord) -> None:
            progress[0].advance(record)

        with cluster as on, shown:
            options = run_options(max_guesses, guess_timeout, game_timeout, setup_timeout, memory, workers,
                                  confinement=mechanism, resume=resume, cluster=on,
                                  replay_folder=replay_folder(scoreboard_dir, replays, no_replays))
            entries = tournament.play(names, base, options, replays, on_record, on_start)
        standing = tournament.record(entries, names, scoreboard_dir)
    skipped = [e for e in entries if e.skipped]
    if json_out:
        print(json.dumps({"standings": [s.as_dict() for s in standing],
                          "skipped": [{"bot": e.bot, "why": e.skipped} for e in skipped]}))
    else:
        if standing:
            tables.show(console.standings_table(standing), out)
        for e in skipped:
            out.print(Text(f"skipped {e.bot}: {sanitize.clean(e.skipped, sanitize.ERROR)}"), soft_wrap=True)
    if any(e.outcome is not None and e.outcome.interrupted for e in entries):
        print("hbs: tournament interrupted; the replays of the finished games are kept", file=sys.stderr)
        raise typer.Exit(130)


@app.command()
def bots(
    bots_dir: BotsDirs = [],
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """List the bots: name, the first line of the docstring, and load errors.

    Each bot is loaded in a confined worker of its own, as in a run: listing runs no bot code here.
    """
    with reported():
        mechanism = confinement_of(sandbox, unconfined)
        rows = catalog.list_bots(bots_dir, mechanism, list(defaults(load_words(default_words())).values()))
    if json_out:
        print(json.dumps([row.as_dict() for row in rows]))
        return
    grid = Grid("", [Column("bot"), Column("games", keep=5), Column("what it does", keep=8, wrap=True)])
    for row in rows:
        grid.add(sanitize.clean(row.name, 64), ", ".join(row.games),
                 row.summary if row.error is None else f"cannot load: {row.error}")
    tables.show(grid, out)


@app.command()
def check(
    bot: Annotated[str, typer.Argument(help="The bot to check (a name that `hbs bots` lists).")],
    bots_dir: BotsDirs = [],
    words: WordsOpt = None,
    bot_option: BotOptionOpt = [],
    guess_timeout: Annotated[float, typer.Option(help="Seconds a guess may take.")] = 10.0,
    setup_timeout: Annotated[float, typer.Option(help="Seconds the setup may take.")] = 120.0,
    memory: Annotated[int, typer.Option(help="Memory cap of a worker, MB (address space).")] = 4096,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """Check a bot before it enters a run: it loads, is documented, types its options, declares its
    games and plays each (a few games, re-graded), is deterministic, and keeps to time and memory.

    Exit 0 when it may enter a run; 2, with the reasons on stderr, when not.
    """
    from hbs.contract import check as checkmod

    with reported():
        mechanism = confinement_of(sandbox, unconfined)
        spec = Request(bot=bot, words=words, bot_options=parse_options(bot_option), bots_dirs=bots_dir)
        budgets = Budgets(guess_timeout=guess_timeout, game_timeout=guess_timeout, setup_timeout=setup_timeout, memory_mb=memory)
        report = checkmod.check(spec, mechanism, budgets, load_words(words or default_words()))
    if json_out:
        print(json.dumps(report.as_dict()))
    else:
        grid = Grid(f"hbs check {bot} ({report.confinement})",
                    [Column("rule"), Column(""), Column("what was seen", keep=8, wrap=True)])
        for f in report.findings:
            grid.add(f.rule, "ok" if f.ok else "FAIL", f.detail)
        tables.show(grid, out)
    if not report.ok:
        for f in report.findings:
            if not f.ok:
                print(f"hbs: check: {bot}: {f.rule}: {sanitize.clean(f.detail, sanitize.ERROR)}", file=sys.stderr)
        raise typer.Exit(2)


def bot_summaries(names: set[str], bots_dir: list[str], mechanism: str) -> dict[str, str]:
    """The first line of each bot's docstring, for the bots still here (listed confined)."""
    found = [source for name, source in bot_sources(bots_dir).items() if name in names]
    return {row.name: row.summary for row in catalog.describe_all(found, mechanism, []) if row.summary}


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="The bot's name: letters, digits and _, starting with a letter.")],
    lang: Annotated[str, typer.Option("--lang", help="python, c or js.")] = "python",
    bots_dir: Annotated[str, typer.Option("--bots-dir", help="Where the bot goes.")] = "bots",
) -> None:
    """Start a bot from a skeleton that passes `hbs check` as written: bots/NAME.py, or for a program
    bots/NAME/ with its bot.toml and source (a first guess that fits every answer, an option, a setup)."""
    with reported():
        written = skeleton.create(name, lang, bots_dir)
    for path in written:
        print(f"wrote {path}")
    missing = skeleton.missing_tool(lang)
    if missing:
        print(f"hbs: note: {missing} is not installed here: the bot needs it to build or run", file=sys.stderr)
    extra = [] if Path(bots_dir).resolve() == Path("bots").resolve() else ["--bots-dir", bots_dir]
    print(f"next: hbs check {' '.join([name, *extra])}   then: hbs run --bot {' '.join([name, *extra])} --game mastermind")


@app.command("board")
def board_cmd(
    scoreboard_dir: ScoreboardOpt = "scoreboard",
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON list of rows.")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print Markdown tables.")] = False,
    plot: Annotated[Optional[str], typer.Option("--plot", help="Draw the guesses-a-game distributions to FILE.png.")] = None,
    html_dir: Annotated[Optional[str], typer.Option("--html", help="Write the board as a static web site into DIR (open DIR/index.html).")] = None,
    without_secrets: Annotated[bool, typer.Option("--without-secrets", help="With --html: name games by number, not by secret (to publish while the secrets stay in use).")] = False,
    bots_dir: BotsDirs = [],
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """Compare the bots that played the same secrets: solved, guesses (mean ± 95% CI), paired wins.

    --html DIR writes a static site: sortable standings, distributions, head to head, and every
    game of the runs whose replay file is kept.  A run record that cannot be read is named on
    stderr and left out of the site.
    """
    with reported():
        if without_secrets and not html_dir:
            raise InputError("--without-secrets goes with --html DIR")
        if html_dir:
            runs = board.load_runs(scoreboard_dir, skip=lambda error: print(f"hbs: skipped: {error}", file=sys.stderr))
            about = bot_summaries({r["bot"] for r in runs}, bots_dir, confinement_of(sandbox, unconfined))
            index = site.write(html_dir, runs, about, scoreboard_dir, with_secrets=not without_secrets,
                               warn=lambda line: print(f"hbs: note: {line}", file=sys.stderr))
            print(f"hbs: wrote {index}", file=sys.stderr)
            return
        runs = board.load_runs(scoreboard_dir)
        boards = board.standings(runs)
        if plot:
            board.plot(runs, plot)
    if json_out:
        print(json.dumps([s.as_dict() for b in boards for s in b]))
    elif markdown:
        print(board.markdown(boards))
    else:
        for b in boards:
            tables.show(console.standings_table(b), out)


@app.command()
def show(
    run: Annotated[str, typer.Argument(help="A replay file (JSON lines), or a recorded run: BOT__GAME__SET as `hbs board --json` names it, or the bot's name where it played one secret set.")],
    game: Annotated[Optional[int], typer.Option("--game", help="The K-th game (from 1) [default: 1].")] = None,
    secret: Annotated[Optional[str], typer.Option(help="The game of this secret.")] = None,
    scoreboard_dir: ScoreboardOpt = "scoreboard",
) -> None:
    """Print one game of a run as a trace: from its replay file, or from a run the scoreboard recorded."""
    with reported():
        if game is not None and secret is not None:
            raise InputError("give --game K or --secret S, not both")
        file = Path(run)
        if not (file.exists() or "/" in run or run.endswith(".jsonl")):  # a run's name, not a file's
            record_of = board.find_run(scoreboard_dir, run)
            file = board.replay_path(scoreboard_dir, record_of)
            if file is None:
                raise InputError(f"the run {run!r} kept no replay (it was played with --no-replays)", scoreboard_dir)
        records = list(replay_read(file))
        if secret is not None:
            found = [k for k, r in enumerate(records) if r.secret == secret]
            if not found:
                raise InputError(f"no game with secret {secret!r}", file)
            index = found[0]
        else:
            index = (1 if game is None else game) - 1
            if not 0 <= index < len(records):
                raise InputError(f"--game must be 1..{len(records)}, got {game}", file)
        record = records[index]
        problems = regrade(record)
    print(f"{record.bot} on {record.game}")
    print(console.trace(record, index + 1, len(records)))
    for problem in problems:
        print(f"  re-grading disagrees: {problem}")


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
    setup_timeout: SetupTimeoutOpt = 120.0,
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """Print a deterministic bot's whole decision tree over every code of a code game."""
    from hbs.people import tree as treemod

    with reported(), contextlib.ExitStack() as stack:
        spec = Request(bot=bot, game=game, pegs=pegs, colors=colors, alphabet=alphabet,
                       bot_options=parse_options(bot_option), bots_dirs=bots_dir)
        the_game = build_game(spec)
        if the_game.kind == "phrases":
            raise InputError("hbs tree needs a code game (mastermind or bulls)")
        treemod.check_size(the_game)
        mechanism = confinement_of(sandbox, unconfined)

        def fresh() -> RemoteBot:
            made = stack.enter_context(contextlib.closing(remote_bot(spec, mechanism, the_game,
                                                                     Budgets(setup_timeout=setup_timeout))))
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
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """Break a code someone holds: the bot guesses, you type each answer (`1 2`; `1A2B` for bulls).

    Type `undo` to take the last answer back, `quit` to stop; for phrases type `solved` when the
    guess is the phrase.
    """
    from hbs.people import solve as solvemod

    with reported():
        spec = Request(bot=bot, game=game, words=words, pegs=pegs, colors=colors, alphabet=alphabet,
                       n_words=n_words, bot_options=parse_options(bot_option), bots_dirs=bots_dir)
        the_game = build_game(spec)
        the_bot = remote_bot(spec, confinement_of(sandbox, unconfined), the_game)
    with contextlib.closing(the_bot):
        with reported():
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
    sandbox: SandboxOpt = "auto",
    unconfined: UnconfinedOpt = False,
) -> None:
    """Guess a random secret yourself; `hint` counts the secrets that still fit.

    At the end every bot that plays the game is run on the same secret, each confined as in a run.
    """
    from hbs.people import play as playmod

    with reported():
        spec = Request(game=game, words=words, pegs=pegs, colors=colors, alphabet=alphabet, n_words=n_words)
        the_game = build_game(spec)
        mechanism = confinement_of(sandbox, unconfined)
    session = playmod.PlaySession(the_game, playmod.random_secret(the_game, seed))
    bots = lambda: playmod.bots_on(spec, mechanism, the_game, session.secret)  # noqa: E731
    raise typer.Exit(playmod.run(session, _read, _say, _say, bots))


def main() -> None:  # pragma: no cover - for `python -m hbs`
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
