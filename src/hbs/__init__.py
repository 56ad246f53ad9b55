"""hbs — a competition runner for Mastermind-family codebreaking bots.

The names below load on first use (PEP 562), so that ``import hbs`` stays cheap for the command's
entry point and for worker processes.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "Bot": "contract.bot",
    "Guess": "contract.bot",
    "Turn": "contract.bot",
    "Game": "core.games",
    "Status": "core.status",
    "BotLoadError": "errors",
    "HbsError": "errors",
    "InputError": "errors",
    "UnsupportedGame": "errors",
    "grade": "core.rule",
    "CodeGame": "core.games",
    "PhraseGame": "core.games",
    "bulls": "core.games",
    "mastermind": "core.games",
}
__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'hbs' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
