"""Each bot's own compile cache, the one thing besides its results that outlives its games, capped.

A confined bot may write its numba cache into ``~/.cache/hbs/numba/<bot>-<hash of its files>/``
(``$HBS_CACHE`` moves the root): its own, so no bot reads or poisons another's, and a new version of
its files starts a new one.  A folder over :data:`MAX_MB` or :data:`MAX_FILES` is emptied before the
bot's processes start and after its run, with a :class:`CacheReset` warning that the command shows.
"""

from __future__ import annotations

import os
import shutil
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from hbs.errors import InputError

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
    """Bytes and files under ``path`` (links are counted, never followed)."""
    size = files = 0
    for base, dirs, names in os.walk(path):
        for name in names + dirs:
            files += 1
            try:
                size += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                pass
    return size, files


def trim(path: str | Path, bot: str) -> bool:
    """Empty the cache ``path`` of ``bot`` when it is over its cap; True when it was."""
    path = Path(path)
    size, files = usage(path)
    if size <= MAX_MB << 20 and files <= MAX_FILES:
        return False
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True, exist_ok=True)
    warnings.warn(CacheReset(f"bot {bot!r}: its compile cache held {size / 2**20:.0f} MB in {files} files "
                             f"(at most {MAX_MB} MB, {MAX_FILES} files): emptied"), stacklevel=2)
    return True
