"""The shipped English crossword list (``data/en-crossword.tsv.gz``), built by
``scripts/build_english_list.py`` from UKACD18, WordNet 3.0, SCOWL and wordfreq.

Its lines are ``ENTRY<TAB>SCORE<TAB>DISPLAY<TAB>FLAGS`` after a ``#`` header holding the sources'
notices; DISPLAY is empty when it is the entry in lower case, FLAGS holds ``v`` for a vulgar
entry, ``b`` for a British-only spelling (COLOUR) and ``a`` for an American-only one (COLOR).
Scores are fill quality on 0-100: 50 and up fine in any puzzle, 30-49 acceptable when a corner
needs it, below 30 avoid (``docs/formats.md``). The derived list is CC BY-SA 4.0 (from wordfreq's
data), with UKACD's BSD-style notice and WordNet's and SCOWL's licences kept in the header.
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Iterator, Mapping

#: The file, beside this module.
LIST_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "en-crossword.tsv.gz")


def list_bytes() -> bytes:
    """The shipped file's compressed bytes (its checksum names the cache built from it)."""
    with open(LIST_PATH, "rb") as handle:
        return handle.read()


def _rows(data: bytes) -> Iterator[list[str]]:
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


#: One line of the list: entry, score, display form, flag (the header's lines start with "#").
_LINE = re.compile(r"^([^#\t\n][^\t\n]*)\t(\d+)\t[^\t\n]*\t([^\t\n]*)$", re.MULTILINE)
#: A line break followed by another: an empty line.
_EMPTY_LINE = re.compile(r"\n(?=\n)")


#: The spelling flags of the list, by the name of the spelling they mark.
SPELLING_FLAGS = {"uk": "b", "us": "a"}


def read_list(data: bytes | None = None) -> tuple[dict[str, int], set[str]]:
    """Entry -> score over the whole list, and the entries flagged vulgar.

    Raises:
        ValueError: a line is not of four tab-separated fields with an integer score.
    """
    text = gzip.decompress(list_bytes() if data is None else data).decode("utf-8")
    # one pass of the regular expression over the whole text (a third of the time of a split per
    # line); when it does not take every line, the line-by-line pass says which one is wrong
    rows = _LINE.findall(text)
    if len(rows) != _content_lines(text):
        _check_rows(text)
    scores = {entry: int(score) for entry, score, _ in rows}
    vulgar = {entry for entry, _, flags in rows if "v" in flags}
    return scores, vulgar


def read_spellings(data: bytes | None = None) -> dict[str, set[str]]:
    """Spelling name (``uk``, ``us``) -> the entries the list spells only that way."""
    text = gzip.decompress(list_bytes() if data is None else data).decode("utf-8")
    found: dict[str, set[str]] = {name: set() for name in SPELLING_FLAGS}
    for entry, _, flags in _LINE.findall(text):
        for name, flag in SPELLING_FLAGS.items():
            if flag in flags:
                found[name].add(entry)
    return found


def _content_lines(text: str) -> int:
    """How many lines of ``text`` are neither empty nor a ``#`` comment (counted with string
    searches: a loop over the lines costs more than reading them)."""
    lines = text.count("\n") + (0 if not text or text.endswith("\n") else 1)
    comments = text.count("\n#") + text.startswith("#")
    empty = len(_EMPTY_LINE.findall(text)) + text.startswith("\n")
    return lines - comments - empty


def _check_rows(text: str) -> None:
    """Raise ValueError naming the first line that is not a list entry."""
    number = 0
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        number += 1
        fields = line.split("\t")
        if len(fields) != 4 or not fields[1].isdigit():
            raise ValueError(f"{LIST_PATH}: entry {number}: expected ENTRY, SCORE, DISPLAY, FLAGS")


def read_notice() -> str:
    """The header: sources, licence and the sources' notices."""
    lines = []
    for line in gzip.decompress(list_bytes()).decode("utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(lines)


class DisplayForms(Mapping[str, str]):
    """Entry -> display form ("ice age" for ICEAGE) of the shipped list, read from the file on
    first use: a fill needs none of them, a clue sheet or a candidate list a few."""

    def __init__(self) -> None:
        self._table: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._table is None:
            self._table = {fields[0]: fields[2] for fields in _rows(list_bytes()) if len(fields) > 2 and fields[2]}
        return self._table

    def __getitem__(self, entry: str) -> str:
        return self._load()[entry]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())
