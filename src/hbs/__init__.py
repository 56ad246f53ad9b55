"""hbs — a competition runner for Mastermind-family codebreaking bots."""

from .bot import Bot, Turn
from .errors import BotLoadError, HbsError, InputError, UnsupportedGame
from .rule import grade
from .games import CodeGame, PhraseGame, bulls, mastermind

__all__ = [
    "Bot",
    "BotLoadError",
    "CodeGame",
    "HbsError",
    "InputError",
    "PhraseGame",
    "Turn",
    "UnsupportedGame",
    "bulls",
    "grade",
    "mastermind",
]
__version__ = "0.1.0"
