"""Each bot's own compile cache, the one thing besides its results that outlives its games, capped.

A confined bot may write its numba cache into ``~/.cache/hbs/numba/<bot>-<hash of its files>/``
(``$HBS_CACHE`` moves the root): its own, so no bot reads or poisons another's, and a new version of
its files starts a new one.  A folder over :data:`MAX_MB` or :data:`MAX_FILES` is emptied before the
bot's processes start and after its run, with a :class:`CacheReset` warning that the command shows.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from hbs.errors import InputError
from hbs.sandbox import trees

if TYPE_CHECKING:
    from hbs.contract.bot import BotSource

MAX_MB = 128  # the bundled phrase bot's kernels take about a tenth of it
MAX_FILES = 1000


class CacheReset(UserWarning):
    """A bot's compile cache was over its cap and has been emptied."""


def root() -> Path:
    """Where confined bots keep their compile caches: ``$HBS_CACHE``, else ``~/.cache/hbs``."""
    if os.environ.get("HBS_CACHE"):
        return Path(os.environ["HBS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "hbs"


def folder(source: "BotSource") -> Path:
    """The bot's own cache folder, made if need be and emptied if over its cap."""
    path = root() / "numba" / f"{source.name}-{source.fingerprint()[:16]}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the bot's compile cache: {exc.strerror}", path) from None
    trim(path, source.name)
    return path


def usage(path: Path) -> tuple[int, int]:
    """Bytes and entries under ``path`` (links counted, never followed), counted no further than a
    tenth past the cap; a tree nested deeper than a cache could need is over it."""
    size = files = 0
    try:
        for _, info in trees.walk(path, max_depth=trees.MAX_DEPTH):
            files += 1
            size += info.st_size
            if files > MAX_FILES * 11 // 10:
                break
    except trees.TooDeep:
        files = MAX_FILES + 1
    return size, files


def trim(path: str | Path, bot: str) -> bool:
    """Empty the cache ``path`` of ``bot`` when it is over its cap; True when it was."""
    path = Path(path)
    size, files = usage(path)
    if size <= MAX_MB << 20 and files <= MAX_FILES:
        return False
    trees.remove(path)
    path.mkdir(parents=True, exist_ok=True)
    warnings.warn(CacheReset(f"bot {bot!r}: its compile cache held {size / 2**20:.0f} MB in {files} files "
                             f"or more (at most {MAX_MB} MB, {MAX_FILES} files): emptied"), stacklevel=2)
    return True
