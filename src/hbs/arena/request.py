"""From what a user asked for (bot name, game options, secret files) to a ready bot, game and secrets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hbs.sandbox import confinement
from hbs.contract.bot import Bot, BotSource, load_bot, locate, make_bot, project_root, with_seed
from hbs.sandbox.confinement import Plan
from hbs.errors import InputError, UnsupportedGame
from hbs.core.games import DEFAULT_ALPHABET, KINDS, CodeGame, PhraseGame, bulls, mastermind
from hbs.core.loaders import load_codes, load_phrases, load_words

if TYPE_CHECKING:
    from hbs.arena.contestant import BotRef
    from hbs.people.remote_bot import RemoteBot
    from hbs.sandbox.workers import Budgets



@dataclass(kw_only=True)
class Request:
    """What a user asked for, as plain values: the bot, the game, the secrets (``hbs run``, ``tree``,
    ``solve``, ``play``, ``check``).  Checked when made; turned into objects by the functions below."""

    bot: str = ""
    game: str | None = None
    phrases: str | None = None
    words: str | None = None
    secrets: str | None = None
    pegs: int | None = None
    colors: int | None = None
    alphabet: str | None = None
    n_words: int = 3
    limit: int | None = None
    seed: int | None = None
    bot_options: dict[str, str] = field(default_factory=dict)
    bots_dirs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:
            raise InputError(f"--limit must be at least 1, got {self.limit}")


def default_words() -> Path:
    """``data/words.txt`` of the current folder if there is one, else the bundled list."""
    local = Path("data/words.txt")
    return local if local.exists() else project_root() / "data" / "words.txt"


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` to a dict; a pair without ``=`` is an :class:`InputError`."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError(f"--bot-option needs KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def build_game(spec: Request) -> CodeGame | PhraseGame:
    """The game ``spec`` describes (``--phrases`` implies the phrase game)."""
    kind = spec.game or ("phrases" if spec.phrases else "mastermind")
    if kind not in KINDS:
        raise InputError(f"unknown game {kind!r} (games: {', '.join(KINDS)})")
    if spec.phrases and kind != "phrases":
        raise InputError(f"--phrases is for the phrase game, not {kind}")
    if kind == "phrases":
        for flag, value in (("--pegs", spec.pegs), ("--colors", spec.colors), ("--alphabet", spec.alphabet)):
            if value is not None:
                raise InputError(f"{flag} does not apply to the phrase game")
        return PhraseGame(load_words(spec.words or default_words()), spec.n_words)
    if spec.words:
        raise InputError(f"--words is for the phrase game, not {kind}")
    if kind == "bulls":
        if spec.colors is not None or spec.alphabet is not None:
            raise InputError("bulls always uses the ten digits 0-9: --colors and --alphabet do not apply")
        return bulls(spec.pegs or 4)
    return mastermind(spec.pegs or 4, spec.colors or 6, spec.alphabet or DEFAULT_ALPHABET)


def build_secrets(spec: Request, game: CodeGame | PhraseGame) -> list[str]:
    """The secrets to play: a file, or the whole space of a code game; cut to ``limit``."""
    if isinstance(game, PhraseGame):
        if spec.secrets and spec.phrases:
            raise InputError("give the phrases with --phrases or --secrets, not both")
        path = spec.phrases or spec.secrets
        if not path:
            raise InputError("the phrase game needs --phrases FILE")
        secrets = load_phrases(path, game)
    else:
        secrets = load_codes(spec.secrets, game) if spec.secrets else game.codes()
    if spec.limit is not None:
        secrets = secrets[: spec.limit]
    return secrets


def build_bot(spec: Request) -> Bot:
    """The bot ``spec`` names, imported into this process (``--in-process``: trusted Python bots only)."""
    if locate(spec.bot, spec.bots_dirs).is_program:
        raise InputError(f"bot {spec.bot!r} is a program: it plays in workers only, not --in-process")
    cls = load_bot(spec.bot, spec.bots_dirs)
    return make_bot(cls, with_seed(cls, spec.bot_options, spec.seed))


def bot_ref(spec: Request) -> "BotRef":
    """Where the bot ``spec`` names is, with its options: found without importing it.

    A program's options are checked here against its ``bot.toml`` (a Python bot's in its worker).
    """
    from hbs.arena.contestant import BotRef

    source = locate(spec.bot, spec.bots_dirs)
    options = dict(spec.bot_options)
    if source.is_program:
        declared = source.manifest().options
        for key in options:
            if key not in declared:
                raise InputError(f"bot {spec.bot!r} has no option {key!r} (options: {', '.join(declared) or 'none'})")
        options = {**declared, **options}
    return BotRef(source, options, spec.seed)


def prepare_bot(spec: Request, mechanism: str, game: CodeGame | PhraseGame, budgets=None,
                build_here: bool = True) -> tuple["BotRef", Plan]:
    """The bot ``spec`` names and how its workers are confined; a program is built first (confined),
    unless ``build_here`` is false (a cluster's runners build it on their nodes).

    Raises :class:`UnsupportedGame` for a program whose ``bot.toml`` does not list the game.
    """
    from hbs.sandbox.workers import Budgets
    from hbs.sandbox.build import build

    ref = bot_ref(spec)
    plan = bot_plan(spec, ref.source, mechanism, game)
    if ref.source.is_program:
        manifest = ref.source.manifest()
        if game.kind not in manifest.games:
            raise UnsupportedGame(f"bot {spec.bot!r} plays {', '.join(sorted(manifest.games))}, not {game.kind}")
        if build_here:
            budgets = budgets or Budgets()
            build(spec.bot, manifest, plan, budgets.setup_timeout, budgets.memory_mb)
    return ref, plan


def bot_plan(spec: Request, source: BotSource, mechanism: str, game: CodeGame | PhraseGame | None = None) -> Plan:
    """How this bot's workers are confined: its own files, the word list of a phrase game, its cache."""
    return confinement.plan(mechanism, source, words_file(spec, game))


def words_file(spec: Request, game: CodeGame | PhraseGame | None) -> str | Path | None:
    """The word list file a phrase game reads (none for a code game)."""
    return (spec.words or default_words()) if isinstance(game, PhraseGame) else None


def remote_bot(spec: Request, mechanism: str, game: CodeGame | PhraseGame,
               budgets: "Budgets | None" = None) -> "RemoteBot":
    """The bot ``spec`` names, played through a confined worker (set it up with ``setup(game)``)."""
    from hbs.people.remote_bot import RemoteBot

    return RemoteBot(*prepare_bot(spec, mechanism, game), budgets)
