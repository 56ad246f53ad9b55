"""The bot contract and where bots come from.

A bot is a module in ``bots/`` (the file name is the bot's name) defining exactly one subclass of
:class:`Bot`, or an installed package's entry point in the group ``hbs.bots``.  Files are loaded by
path under private module names, so a bot called ``random`` never shadows the standard library.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import re
import stat
import sys
import traceback
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, NamedTuple, Sequence

from hbs.errors import BotLoadError, InputError
from hbs.sandbox import trees

if TYPE_CHECKING:
    from hbs.core.games import Game
    from hbs.contract.manifest import Manifest

ENTRY_POINT_GROUP = "hbs.bots"
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
NAME_RULE = "a bot's name is letters, digits and _, starting with a letter (at most 64)"


class Turn(NamedTuple):
    """One earlier guess of the game and its answer."""

    guess: str
    black: int
    white: int


@dataclass(frozen=True)
class Guess:
    """A guess with what the bot says about it: how many secrets it still thinks possible
    (``remaining``) and a short label of its strategy's phase; both shown by ``--verbose`` and kept
    in replays.  ``guess`` may return a plain ``str`` instead."""

    text: str
    remaining: int | None = None
    phase: str | None = None



class Bot:
    """Base class of every bot.

    Subclasses implement :meth:`guess` and may implement :meth:`setup`.  Options given with
    ``hbs run --bot-option key=value`` arrive as keyword arguments of ``__init__`` (converted to the
    annotated type).  ``games`` declares the kinds of game the bot plays: a set of names from
    :data:`hbs.core.games.KINDS`, or a predicate taking a :data:`hbs.Game` (``staticmethod(lambda game: ...)``); a
    bot may still decline one game from ``setup`` with ``UnsupportedGame``.
    """

    #: The bot's name (its file name or entry-point name), set when it is loaded.
    name: str = ""
    #: The kinds of game it plays (or a predicate on a game); empty: not declared.
    games: ClassVar[Collection[str] | Callable[[Any], bool]] = frozenset()
    #: True when :meth:`guess` gives the same guess for a history whatever calls came before (it may
    #: memoise): hbs may then play several games at once in one worker, their turns interleaved.
    history_only: ClassVar[bool] = False

    def setup(self, game: "Game") -> None:
        """Called once before the games; precompute here.  Raise ``UnsupportedGame`` to decline."""

    def guess(self, history: Sequence[Turn]) -> "str | Guess":
        """The next guess, given the earlier ``(guess, black, white)`` turns of this game."""
        raise NotImplementedError

    @classmethod
    def plays(cls, game: "Game") -> bool:
        """Whether the bot declares that it plays ``game`` (before any instance exists)."""
        if callable(cls.games):
            return bool(cls.games(game))
        return game.kind in cls.games


@dataclass
class BotEntry:
    """A discovered bot: its class, or the reason it could not be loaded."""

    name: str
    origin: str
    cls: type[Bot] | None = None
    error: str | None = None

    @property
    def summary(self) -> str:
        """The first line of the bot's docstring."""
        if self.cls is None:
            return ""
        doc = inspect.cleandoc(self.cls.__dict__.get("__doc__") or "")  # its own, not a parent's
        return doc.strip().splitlines()[0] if doc.strip() else ""


def project_root() -> Path:
    """The folder holding ``src/``, ``bots/`` and ``data/`` of this checkout."""
    import hbs

    return Path(hbs.__file__).resolve().parents[2]


def bot_dirs(extra: Sequence[str | Path] = ()) -> list[Path]:
    """Folders searched for bot files, first match wins: ``extra``, ``./bots``, the bundled ``bots/``."""
    out: list[Path] = []
    for folder in [*map(Path, extra), Path("bots"), project_root() / "bots"]:
        resolved = folder.resolve()
        if resolved not in out:
            out.append(resolved)
    return out


@dataclass(frozen=True)
class BotSource:
    """Where a bot's code is, found without running any of it: a file, or an entry point."""

    name: str
    path: str | None = None  # bots/NAME.py
    entry_point: str | None = None  # "module:Class" of the group hbs.bots

    @property
    def origin(self) -> str:
        return self.path or f"entry point {self.entry_point}"

    @property
    def is_program(self) -> bool:
        """A folder with a ``bot.toml``: a program speaking the line protocol (docs/protocol.md)."""
        return self.path is not None and Path(self.path).is_dir()

    def manifest(self) -> "Manifest":
        from hbs.contract.manifest import read

        return read(self.path)

    def files(self) -> list[Path]:
        """The bot's own files: its module and its data folder ``bots/NAME/``, or its program's folder."""
        if self.path is None:
            return []
        path = Path(self.path)
        if path.is_dir():
            return [path]
        folder = path.with_suffix("")
        return [path, folder] if folder.is_dir() else [path]

    def as_dict(self) -> dict:
        return {"name": self.name, "path": self.path, "entry_point": self.entry_point}

    def check(self) -> None:
        """Refuse a bot whose name is not an identifier, or whose file, folder or anything in them is a
        link that leads out of them (:class:`InputError`, one line)."""
        if not NAME.fullmatch(self.name):
            raise InputError(f"{self.name!r}: {NAME_RULE}", self.path)
        if self.path is None:
            return
        path = Path(self.path)
        check_links(self.name, path if path.is_dir() or path.is_symlink() else path.with_suffix(""))
        if path.is_symlink():
            raise InputError(f"bot {self.name!r}: its file is a link (to {os.readlink(path)}): "
                             "a bot's files must be its own", path)

    def fingerprint(self) -> str:
        """A hash of the bot's own files (of its entry point's name for an installed bot)."""
        digest = hashlib.sha256(str(self.entry_point or "").encode())
        for path in self.files():
            for file in sorted(p for p, _ in trees.walk(path)) if path.is_dir() else [path]:
                try:  # regular files only, never through a link
                    data = trees.read_regular(file)
                except OSError:
                    continue
                digest.update(str(file.relative_to(path.parent)).encode() + b"\0" + data)
        return digest.hexdigest()


def check_links(name: str, folder: Path) -> None:
    """Refuse (:class:`InputError`) a bot folder that is a link, or holds a link whose target lies
    outside it; a folder that does not exist passes."""
    if folder.is_symlink():
        raise InputError(f"bot {name!r}: its folder is a link (to {os.readlink(folder)}): "
                         "a bot's files must be its own", folder)
    if not folder.is_dir():
        return
    real = folder.resolve()
    try:
        entries = list(trees.walk(folder, max_depth=trees.MAX_DEPTH))
    except trees.TooDeep:
        raise InputError(f"bot {name!r}: its folder is nested over {trees.MAX_DEPTH} levels deep", folder) from None
    for path, info in entries:
        if not stat.S_ISLNK(info.st_mode):
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):  # a FIFO would block its reader
                raise InputError(f"bot {name!r}: {path.relative_to(folder)} is not a file or a folder", path)
            continue
        try:
            inside = path.resolve(strict=False).is_relative_to(real)
        except (RuntimeError, OSError):  # a loop of links
            inside = False
        if not inside:
            raise InputError(f"bot {name!r}: {path.relative_to(folder)} is a link out of its folder "
                             f"(to {os.readlink(path)})", path)


def sources(extra: Sequence[str | Path] = ()) -> dict[str, BotSource]:
    """Every bot by name (folders first, then entry points), without importing any."""
    for folder in extra:
        if not Path(folder).is_dir():
            raise InputError("no such bots folder", folder)
    found: dict[str, BotSource] = {}
    for folder in bot_dirs(extra):
        if not folder.is_dir():
            continue
        try:
            entries = sorted(folder.iterdir())
        except OSError as exc:
            raise InputError(f"cannot read the bots folder: {exc.strerror}", folder) from None
        for path in entries:
            if path.name.startswith(("_", ".")) or path.stem in found:
                continue
            if path.suffix == ".py" and (path.is_file() or path.is_symlink()):
                found[path.stem] = BotSource(path.stem, path=str(path))
            elif path.is_dir() and (path / "bot.toml").is_file():
                found[path.name] = BotSource(path.name, path=str(path))
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name not in found:
            found[ep.name] = BotSource(ep.name, entry_point=ep.value)
    return found


def locate(name: str, extra: Sequence[str | Path] = ()) -> BotSource:
    """The source of bot ``name``; raises :class:`BotLoadError` when there is none."""
    if not NAME.fullmatch(name):
        raise InputError(f"--bot {name!r}: {NAME_RULE}")
    found = sources(extra)
    if name not in found:
        known = ", ".join(sorted(found)) or "none"
        raise BotLoadError(f"unknown bot {name!r} (known: {known})")
    return found[name]


def describe(source: BotSource) -> BotEntry:
    """Import this one bot: its class, or why it cannot be loaded.  Only ever in a worker (or trusted)."""
    if source.is_program:
        return BotEntry(source.name, source.origin, error="a program (bot.toml): it runs only in a worker")
    if source.path is not None:
        return _load_file(source.name, Path(source.path))
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == source.name and ep.value == source.entry_point:
            return _load_entry_point(ep)
    return BotEntry(source.name, source.origin, error=f"entry point {source.entry_point} is not installed")


def load(source: BotSource) -> type[Bot]:
    """The class of the bot at ``source``; raises :class:`BotLoadError` when it is broken."""
    entry = describe(source)
    if entry.cls is None:
        raise BotLoadError(f"bot {source.name!r} cannot be loaded: {entry.error}")
    return entry.cls


def discover(extra: Sequence[str | Path] = ()) -> dict[str, BotEntry]:
    """Every bot by name, imported into this process: for trusted code and tests only."""
    return {name: describe(source) for name, source in sources(extra).items()}


def load_bot(name: str, extra: Sequence[str | Path] = ()) -> type[Bot]:
    """The class of bot ``name``, imported into this process (``--in-process``, trusted bots)."""
    return load(locate(name, extra))


def make_bot(cls: type[Bot], options: dict[str, str] | None = None) -> Bot:
    """Instantiate ``cls`` with string ``options`` converted to its ``__init__`` annotations."""
    options = dict(options or {})
    params = {
        n: p
        for n, p in inspect.signature(cls.__init__).parameters.items()
        if n != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        if key not in params:
            accepted = ", ".join(params) or "none"
            raise InputError(f"bot {cls.name!r} has no option {key!r} (options: {accepted})")
        kwargs[key] = _convert(cls, key, value, params[key])
    try:
        bot = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InputError(f"bot {cls.name!r}: {exc}") from None
    bot.name = cls.name
    return bot


def untyped_options(cls: type[Bot]) -> list[str]:
    """Options of ``cls.__init__`` with neither a type annotation nor a default to take one from."""
    params = inspect.signature(cls.__init__).parameters.values()
    return [p.name for p in params if p.name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and p.annotation is inspect.Parameter.empty and p.default is inspect.Parameter.empty]


def accepts_option(cls: type[Bot], key: str) -> bool:
    """Whether ``cls.__init__`` takes the keyword ``key``."""
    return key in inspect.signature(cls.__init__).parameters


def with_seed(cls: type[Bot], options: dict[str, str], seed: int | None) -> dict[str, str]:
    """``options`` plus ``seed`` (from ``hbs run --seed``) for a bot that takes one."""
    options = dict(options)
    if seed is not None and "seed" not in options:
        if not accepts_option(cls, "seed"):
            raise InputError(f"bot {cls.name!r} takes no seed")
        options["seed"] = str(seed)
    return options


def _convert(cls: type[Bot], key: str, value: str, param: inspect.Parameter) -> Any:
    kind = param.annotation
    if isinstance(kind, str):
        kind = {"int": int, "float": float, "bool": bool, "str": str}.get(kind, str)
    if kind is inspect.Parameter.empty:
        kind = type(param.default) if param.default is not inspect.Parameter.empty else str
    try:
        if kind is bool:
            if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
                raise ValueError(value)
            return value.lower() in ("1", "true", "yes")
        return kind(value) if kind in (int, float, str) else value
    except ValueError:
        raise InputError(f"bot {cls.name!r}: option {key}={value!r} is not a valid {kind.__name__}") from None


def _load_file(name: str, path: Path) -> BotEntry:
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    module_name = f"_hbs_bot_{name}_{digest}"
    entry = BotEntry(name, str(path))
    if module_name in sys.modules:
        module = sys.modules[module_name]
    else:
        try:
            spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
        except BaseException as exc:  # a broken bot must never take the runner down
            sys.modules.pop(module_name, None)
            if isinstance(exc, KeyboardInterrupt):
                raise
            entry.error = _describe(exc, path)
            return entry
    classes = [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj) and issubclass(obj, Bot) and obj.__module__ == module_name
    ]
    if len(classes) != 1:
        entry.error = f"{path}: defines {len(classes)} subclasses of hbs.Bot, needs exactly one"
        return entry
    entry.cls = classes[0]
    entry.cls.name = name
    return entry


def _load_entry_point(ep: Any) -> BotEntry:
    entry = BotEntry(ep.name, f"entry point {ep.value}")
    try:
        obj = ep.load()
    except Exception as exc:
        entry.error = f"entry point {ep.value}: {type(exc).__name__}: {exc}"
        return entry
    if not (inspect.isclass(obj) and issubclass(obj, Bot)):
        entry.error = f"entry point {ep.value} is not a subclass of hbs.Bot"
        return entry
    entry.cls = obj
    obj.name = ep.name
    return entry


def _describe(exc: BaseException, path: Path) -> str:
    """One line: ``file:line: ExceptionType: message`` at the deepest frame inside the bot file."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}: SyntaxError: {exc.msg}"
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename) == path:
            line = frame.lineno
    where = f"{path}:{line}" if line else str(path)
    return f"{where}: {type(exc).__name__}: {exc}"
