"""Tables that read at any width: nothing a reader needs is cut.

A :class:`Grid` is a title, columns and rows of plain strings.  On a terminal it is drawn with rich,
as wide as its cells: where the terminal is too narrow, the columns a reader can best do without go
first (each column says how long it stays), and a column marked ``wrap`` (a description) wraps
instead of being cut.  Piped, or written to a file, it is plain text as wide as its cells, with no
box drawing and no colour, for ``grep`` and ``cut``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hbs.contract import sanitize

GAP = 2  # spaces between two columns
EDGES = 2  # the drawn table's left and right edge (a space each in the SIMPLE_HEAD box)
WRAP_MIN = 24  # the narrowest a wrapped column gets


@dataclass(frozen=True)
class Column:
    """``keep``: the higher, the longer it stays in a narrow terminal (0: the first to go)."""

    header: str
    right: bool = False
    keep: int = 9
    wrap: bool = False
    style: str = ""


@dataclass
class Grid:
    title: str
    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)
    header: bool = True

    def add(self, *cells: object) -> None:
        """A row; every cell is cleaned (control characters escaped): it may hold a bot's text."""
        self.rows.append([sanitize.clean(c, sanitize.ERROR) for c in cells])

    def widths(self, shown: list[int], wrapped: bool = True) -> list[int]:
        """The width of each shown column's widest cell (a wrapping column's at most WRAP_MIN, unless
        not ``wrapped``)."""
        out = []
        for k in shown:
            cells = [len(r[k]) for r in self.rows] + ([len(self.columns[k].header)] if self.header else [])
            width = max(cells, default=0)
            out.append(min(width, WRAP_MIN) if wrapped and self.columns[k].wrap else width)
        return out

    def fitting(self, width: int) -> list[int]:
        """The columns shown in ``width`` characters: all, or all but the first to go."""
        shown = list(range(len(self.columns)))
        while len(shown) > 1 and sum(self.widths(shown)) + GAP * (len(shown) - 1) + EDGES > width:
            shown.remove(min(shown, key=lambda k: (self.columns[k].keep, -k)))
        return shown

    def plain(self) -> str:
        """Plain text, every cell whole."""
        shown = list(range(len(self.columns)))
        widths = self.widths(shown, wrapped=False)
        lines = [self.title] if self.title else []
        rows = ([[c.header for c in self.columns]] if self.header else []) + self.rows
        for row in rows:
            cells = [row[k].rjust(w) if self.columns[k].right else row[k].ljust(w) for k, w in zip(shown, widths)]
            lines.append((" " * GAP).join(cells).rstrip())
        return "\n".join(lines)

    def rich(self, width: int) -> Table:
        shown = self.fitting(width)
        table = Table(title=Text(self.title) if self.title else None, title_justify="left", box=box.SIMPLE_HEAD,
                      show_header=self.header, pad_edge=False, padding=(0, GAP // 2), collapse_padding=True)
        for k in shown:
            column = self.columns[k]
            table.add_column(column.header, justify="right" if column.right else "left", style=column.style or None,
                             no_wrap=not column.wrap, overflow="fold",
                             min_width=WRAP_MIN if column.wrap else None)
        for row in self.rows:
            table.add_row(*(Text(row[k]) for k in shown))
        return table


def show(grid: Grid, out: Console) -> None:
    """Print ``grid`` on ``out``: drawn on a terminal (saying which columns did not fit), plain text
    otherwise."""
    if out.is_terminal:
        out.print(grid.rich(out.width))
        left = [c.header for k, c in enumerate(grid.columns) if k not in grid.fitting(out.width)]
        if left:
            out.print(Text(f"({', '.join(left)}: left out at this width; widen the terminal, or pipe, "
                           "--markdown, --json)", style="dim"))
    else:
        out.file.write(grid.plain() + "\n")
        out.file.flush()
