"""The shipped English crossword list (``data/en-crossword.tsv.gz``), built by
``scripts/build_english_list.py`` from UKACD18, WordNet 3.0, SCOWL and wordfreq.

Its lines are ``ENTRY<TAB>SCORE<TAB>DISPLAY<TAB>FLAGS<TAB>DICTIONARY`` after a ``#`` header holding
the sources' notices; DISPLAY is empty when it is the entry in lower case, FLAGS holds ``v`` for a
vulgar entry, ``b`` for a British-only spelling (COLOUR) and ``a`` for an American-only one
(COLOR); DICTIONARY (optional) is the score before the editorial evidence, how familiar the entry
is.
Scores are fill quality on 0-100: 50 and up fine in any puzzle, 30-49 acceptable when a corner
needs it, below 30 avoid (``docs/formats.md``). The derived list is CC BY-SA 4.0 (from wordfreq's
data), with UKACD's BSD-style notice and WordNet's and SCOWL's licences kept in the header.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
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


#: One line of the list: entry, score, display form, flags and the optional dictionary score (the
#: header's lines start with "#").
_LINE = re.compile(r"^([^#\t\n][^\t\n]*)\t(\d+)\t[^\t\n]*\t([^\t\n]*)(?:\t(\d+))?$", re.MULTILINE)
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
    scores = {entry: int(score) for entry, score, _, _ in rows}
    vulgar = {entry for entry, _, flags, _ in rows if "v" in flags}
    return scores, vulgar


def read_dictionary_scores(data: bytes | None = None) -> dict[str, int]:
    """Entry -> its dictionary score (how familiar it is, before the editorial evidence); an
    entry without one keeps its score."""
    text = gzip.decompress(list_bytes() if data is None else data).decode("utf-8")
    return {entry: int(dictionary or score) for entry, score, _, dictionary in _LINE.findall(text)}


def read_spellings(data: bytes | None = None) -> dict[str, set[str]]:
    """Spelling name (``uk``, ``us``) -> the entries the list spells only that way."""
    text = gzip.decompress(list_bytes() if data is None else data).decode("utf-8")
    found: dict[str, set[str]] = {name: set() for name in SPELLING_FLAGS}
    for entry, _, flags, _ in _LINE.findall(text):
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
        if len(fields) not in (4, 5) or not fields[1].isdigit() or not (len(fields) == 4 or fields[4].isdigit()):
            raise ValueError(f"{LIST_PATH}: entry {number}: expected ENTRY, SCORE, DISPLAY, FLAGS, DICTIONARY")


def read_notice() -> str:
    """The header: sources, licence and the sources' notices."""
    lines = []
    for line in gzip.decompress(list_bytes()).decode("utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(lines)


#: A line of the list with a display form: the entry and the form.
_DISPLAY_LINE = re.compile(r"^([^#\t\n][^\t\n]*)\t\d+\t([^\t\n]+)\t", re.MULTILINE)


def display_text(data: bytes) -> str:
    """``ENTRY<TAB>DISPLAY`` lines of the entries with a display form, in the list's (sorted) order."""
    text = gzip.decompress(data).decode("utf-8")
    return "".join(f"{entry}\t{display}\n" for entry, display in _DISPLAY_LINE.findall(text))


class DisplayForms(Mapping[str, str]):
    """Entry -> display form ("ice age" for ICEAGE) of the shipped list. A fill asks for a few
    (its entries' words, to keep entries that share a root apart), so a lookup is a binary search
    in the display lines, which are made once per machine into the cache folder
    (``display-en-CRC.txt``, named by the list's checksum): reading the list's 100,000 display
    forms into a table costs half a second, the cached lines a millisecond."""

    def __init__(self) -> None:
        self._text: str | None = None
        self._table: dict[str, str] | None = None

    def _lines(self) -> str:
        if self._text is None:
            from ..core.files import write_atomically
            from .cache_folder import cache_dir

            data = list_bytes()
            path = os.path.join(cache_dir(), f"display-en-{zlib.crc32(data):08x}.txt")
            try:
                with open(path, encoding="utf-8") as handle:
                    self._text = handle.read()
            except (OSError, UnicodeDecodeError):
                self._text = display_text(data)
                try:
                    write_atomically(path, self._text.encode("utf-8"))
                except OSError:  # an unwritable cache costs the parse next time
                    pass
        return self._text

    def __getitem__(self, entry: str) -> str:
        if self._table is not None:
            return self._table[entry]
        text = self._lines()
        low, high = 0, len(text)
        while low < high:  # the lines are sorted by entry: bisect on line starts
            middle = (low + high) // 2
            start = text.rfind("\n", 0, middle) + 1
            tab = text.index("\t", start)
            key = text[start:tab]
            if key == entry:
                return text[tab + 1 : text.index("\n", tab)]
            if key < entry:
                low = text.index("\n", tab) + 1
            else:
                high = start
        raise KeyError(entry)

    def _load(self) -> dict[str, str]:
        if self._table is None:
            lines = self._lines().splitlines()
            self._table = dict(line.split("\t", 1) for line in lines)
        return self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())
