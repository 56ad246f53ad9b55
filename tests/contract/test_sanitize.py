"""A bot's text, bounded and escaped (hbs.contract.sanitize)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from hbs.contract.sanitize import clean, markdown_cell


@given(st.text(max_size=300), st.integers(0, 120), st.booleans())
def test_clean_is_bounded_printable_and_idempotent(text, limit, lines):
    out = clean(text, limit, lines)
    assert len(out) <= limit
    assert all(c.isprintable() or (lines and c in "\n\t") for c in out)
    assert clean(out, limit, lines) == out
    if len(text) <= limit and text.isprintable():
        assert out == text  # ordinary text is left alone


def test_escapes_are_shown_as_python_writes_them():
    assert clean("a\x1b[2J\rb\u202e", 100) == "a\\x1b[2J\\rb\\u202e"
    assert clean("x" * 1000, 60).endswith("… (cut from 1,000 characters)")
    assert markdown_cell("a|b\nc") == "a\\|b\\\\nc"
