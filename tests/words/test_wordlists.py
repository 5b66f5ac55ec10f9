"""The plain word-list reader: the one-pass reader of simple lists reads what the careful
line-by-line reader reads, and leaves every other list to it."""

from __future__ import annotations

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.words import list_readers, wordlists
from csp_crossword.words.wordlists import load_word_list
from hypothesis import given, settings
from hypothesis import strategies as st

# lines a plain list may hold: simple ones and every kind the one-pass reader must refuse
LINE = st.one_of(
    st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True),
    st.from_regex(r"[ \t]{0,2}[A-Za-z]{1,6}[ \t]{0,2}[;\t][ \t]{0,2}-?[0-9]{0,4}[ \t]{0,2}", fullmatch=True),
    st.from_regex(r"[A-Za-z]{1,6} {1,3}-?[0-9]{1,4}", fullmatch=True),
    st.sampled_from(
        ["", "   ", "# a comment", "  #x", "ICE CREAM", "café;60", "ÆON", "A1B", "50", "A;x", "AB;9999999999"]
    ),
    st.sampled_from(["DO-RE-MI", "O'NEIL;40", "\x0bA", "A\x0cB", "X" * 300, "x\u2028y", "Word 5.5", "Aa;1e3"]),
)


def _read(tmp_path, text: str, *, careful: bool, strict: bool = False):
    path = tmp_path / "list.txt"
    path.write_bytes(text.encode("utf-8"))
    original = wordlists._load_simple
    if careful:
        wordlists._load_simple = lambda text, col: False
    try:
        lexicon, report = load_word_list(path, strict=strict)
    except InputError as error:
        return ("error", str(error))
    finally:
        wordlists._load_simple = original
    return (
        list(lexicon.scores.items()),
        dict(lexicon.display),
        dict(lexicon.multiplicity),
        report.malformed,
    )


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(LINE, max_size=12),
    ending=st.sampled_from(["\n", "\r\n"]),
    last=st.booleans(),
    chunk=st.sampled_from([1, 7, 1 << 20]),
)
def test_the_one_pass_reader_reads_what_the_careful_one_reads(tmp_path_factory, lines, ending, last, chunk):
    """Whatever the chunks the one-pass reader cuts the text into."""
    text = ending.join(lines) + (ending if last else "")
    tmp_path = tmp_path_factory.mktemp("list")
    whole = wordlists.SIMPLE_CHUNK_CHARS
    wordlists.SIMPLE_CHUNK_CHARS = chunk
    try:
        assert _read(tmp_path, text, careful=False) == _read(tmp_path, text, careful=True)
        assert _read(tmp_path, text, careful=False, strict=True) == _read(tmp_path, text, careful=True, strict=True)
    finally:
        wordlists.SIMPLE_CHUNK_CHARS = whole


def test_a_simple_list_takes_the_one_pass_reader(tmp_path, monkeypatch):
    """The usual list (words, some with scores, duplicates keeping the highest) never reaches
    the line-by-line reader."""
    monkeypatch.setattr(list_readers.Collector, "add", lambda *args, **kwargs: pytest.fail("read line by line"))
    path = tmp_path / "list.txt"
    path.write_text("# mine\ncat\nDOG;70\n  emu\t20\nCAT;60\nowl 55\n\n")
    lexicon, report = load_word_list(path)
    assert lexicon.scores == {"CAT": 60, "DOG": 70, "EMU": 20, "OWL": 55}
    assert lexicon.multiplicity == {"CAT": 2, "DOG": 1, "EMU": 1, "OWL": 1}
    assert lexicon.display["EMU"] == "emu" and not report.malformed


def test_a_malformed_line_is_still_named(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("CAT\nDOG\nB@D;50\nEMU\n")
    with pytest.raises(InputError, match=r"list.txt:3:2: .B@D. holds"):
        load_word_list(path, strict=True)
    lexicon, report = load_word_list(path)
    assert set(lexicon.scores) == {"CAT", "DOG", "EMU"} and report.malformed[0][0] == 3
