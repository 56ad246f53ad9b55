"""Loaders accept CRLF and a missing final newline; every bad input names the file and the line."""

from __future__ import annotations

import pytest

from hbs.errors import InputError
from hbs.core.games import PhraseGame, bulls
from hbs.core.loaders import load_codes, load_phrases, load_words


def write(tmp_path, text, name="f.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def test_words_crlf_and_no_final_newline(tmp_path):
    assert load_words(write(tmp_path, "cat\r\ndog\r\nemu")) == ("cat", "dog", "emu")


@pytest.mark.parametrize(
    "text, line, what",
    [
        ("", None, "empty"),
        ("cat\ndo g\n", 2, "space"),
        ("cat\ndo\u00a0g\n", 2, "space"),  # a no-break space is a space too
        ("cat\ndo\tg\n", 2, "control character"),
        ("cat\nd\x07og\n", 2, "control character"),
        ("\ufeffcat\ndog\n\ufeffcat\n", 3, "invisible format character"),  # a mark is dropped at the start only
        ("cat\n\ndog\n", 2, "empty line"),
        ("cat\ndog\ncat\n", 3, "duplicate"),
    ],
)
def test_bad_word_lists(tmp_path, text, line, what):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_words(path)
    assert info.value.line == line and what in info.value.message
    assert str(path) in str(info.value)


def test_words_keep_the_list_s_own_characters_and_drop_a_byte_order_mark(tmp_path):
    words = ["drop-down", "t-shirt", "it's", "4x4", "café", "straße", "äpfel", "łódź", "Cow", "ΑΒΓ"]
    text = "\ufeff" + "\r\n".join(words) + "\r\n"
    assert load_words(write(tmp_path, text)) == tuple(words)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_words(tmp_path / "nope.txt")


def test_phrases(tmp_path):
    game = PhraseGame(("cat", "dog"), 3)
    assert load_phrases(write(tmp_path, "cat dog cat\r\ndog dog dog"), game) == ["cat dog cat", "dog dog dog"]
    for text, line in [("cat dog\n", 1), ("cat dog cat\ncat cow dog\n", 2), ("cat dog  cat\n", 1)]:
        with pytest.raises(InputError) as info:
            load_phrases(write(tmp_path, text), game)
        assert info.value.line == line


def test_codes(tmp_path):
    assert load_codes(write(tmp_path, "0123\n9876"), bulls()) == ["0123", "9876"]
    with pytest.raises(InputError) as info:
        load_codes(write(tmp_path, "0123\n0012\n"), bulls())
    assert info.value.line == 2 and "distinct" in info.value.message


def test_shipped_data_loads(root):
    words = load_words(root / "data" / "words.txt")
    assert len(words) == 10_000
    assert len(load_phrases(root / "data" / "pass.txt", PhraseGame(words, 3))) == 1000


def test_original_data_loads(codegolf):
    words = load_words(codegolf / "words.txt")
    assert len(load_phrases(codegolf / "pass.txt", PhraseGame(words, 3))) == 1000
