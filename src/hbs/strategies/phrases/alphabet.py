"""A word list's own characters, renamed to the letters the phrase search works on.

The phrase search (probes, packed counts, spacings) works on *internal letters*, one latin-1 byte
each: ``a`` to ``z`` are themselves, and the list's other characters (hyphens, apostrophes, digits,
``é``, ``ß``, ``ł``), in sorted order, are renamed ``{``, ``|``, ``}``, … on to ``chr(254)``.  So its
byte kernels and count tables serve any list, and a list of a-z words plays exactly as before.  The rule compares characters only, so
the answers to a guess are the same under the renaming.  A probe's filler (``-`` inside) is written
as a character the list does not use.
"""

from __future__ import annotations

from hbs.errors import UnsupportedGame

FIRST = ord("a")
ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Internal letters run from ``a`` to ``chr(254)``.
MAX_LETTERS = 255 - FIRST
#: The filler of a probe inside, and the printable characters it is written as outside (the first
#: one the list does not use).
PAD = "-"
PADS = "-#_~.*+=/|^%$@!?<>:;,"


class Alphabet:
    """The renaming of a word list's characters: ``inward`` (real -> internal), ``outward`` back."""

    def __init__(self, words: tuple[str, ...] | list[str]):
        others = sorted(set("".join(words)) - set(ASCII_LETTERS))
        chars = ASCII_LETTERS + "".join(others)
        if len(chars) > MAX_LETTERS:
            raise UnsupportedGame(f"the phrase search plays lists of at most {MAX_LETTERS - 26} characters "
                                  f"besides a-z; this list has {len(others)}")
        self.chars = chars
        self.size = len(chars)
        self.pad = next(p for p in PADS if p not in self.chars)
        internal = "".join(chr(FIRST + i) for i in range(self.size))
        self._in = str.maketrans(self.chars + self.pad, internal + PAD)
        self._out = str.maketrans(internal + PAD, self.chars + self.pad)

    def inward(self, text: str) -> str:
        return text.translate(self._in)

    def outward(self, text: str) -> str:
        return text.translate(self._out)
