"""The entries of a word list file as they are read, and the CSV and JSON readers.

A :class:`Collector` takes one file's entries from any reader: it normalises them, merges the
entries listed more than once and counts what it skips, by reason, in the file's
:class:`~.load_report.LoadReport` (or, reading an override file strictly, raises an
:class:`InputError` naming the line and column). The plain readers are in :mod:`.wordlists`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from typing import NamedTuple

from ..core.deadline import Deadline
from ..core.errors import InputError, LoadTimeout
from ..core.files import parse_json
from ..core.glyphs import normalize_entry
from ..core.limits import MAX_CLUE_CHARS, MAX_WORD_GLYPHS, MAX_WORD_LIST_LINES
from .load_report import CHARACTERS, MALFORMED, TOO_LONG, LoadReport
from .word_index import DEFAULT_SCORE, MAX_SCORE, _valid_entry, glyph_count

#: Entries read between two looks at the deadline: a few milliseconds of reading.
DEADLINE_EVERY_ENTRIES = 4096
#: Characters of a word too long for any grid that its warning quotes.
QUOTED_CHARS = 24


def parse_score(text: str) -> int | None:
    """A score written as text, or None when it is not a number within +-MAX_SCORE."""
    try:
        value = float(text)
    except ValueError:
        return None
    return _whole_score(value)


def _whole_score(value: float) -> int | None:
    """A number as a score: rounded, or None for NaN, infinities and values beyond MAX_SCORE."""
    if value != value or abs(value) > MAX_SCORE:
        return None
    return int(round(value))


class Collector:
    """Accumulates one file's entries: duplicates inside a file keep the highest score (or, with
    ``last_wins``, the last one). A ``strict`` collector raises :class:`InputError` at the first
    malformed line (naming the file, line and column) instead of skipping it."""

    def __init__(self, report: LoadReport, *, strict: bool = False, last_wins: bool = False, deadline: Deadline = None):
        self.report = report
        self.deadline = deadline
        self.added = 0
        self.strict = strict
        self.last_wins = last_wins
        self.scores: dict[str, int] = {}
        self.display: dict[str, str] = {}
        self.clues: dict[str, str] = {}
        self.counts: dict[str, int] = {}

    def bad(
        self, lineno: int, why: str, column: int | None = None, *, reason: str = MALFORMED, quote: str | None = None
    ) -> None:
        """A line that is skipped for ``reason`` (its warning quotes ``quote``, else ``why``), or
        for a strict collector the error ``why``."""
        if self.strict:
            raise InputError(why, self.report.path, lineno or None, column if lineno else None)
        self.report.skip(lineno, reason, quote or why)

    def add(
        self,
        lineno: int,
        word: object,
        score: object = None,
        clue: object = None,
        *,
        column: int | None = None,
        score_column: int | None = None,
    ) -> None:
        """One entry of line ``lineno``; ``column`` and ``score_column`` (1-based) say where the
        word and the score start, for the messages of a strict collector."""
        self.added += 1
        if self.deadline is not None and self.added % DEADLINE_EVERY_ENTRIES == 0 and time.monotonic() >= self.deadline:
            raise LoadTimeout(self.report.path)
        if not isinstance(word, str):
            self.bad(lineno, "the word is not text", column)
            return
        entry = normalize_entry(word.strip())
        if not entry:
            self.bad(lineno, "empty word", column)
            return
        if not _valid_entry(entry):
            bad = next(ch for ch in entry if unicodedata.category(ch)[0] not in "LMN")
            at = None if column is None else column + max(word.strip().find(bad), 0)
            self.bad(lineno, f"{word.strip()!r:.40} holds {bad!r}", at, reason=CHARACTERS)
            return
        if len(entry) > MAX_WORD_GLYPHS and glyph_count(entry) > MAX_WORD_GLYPHS:
            why = f"{word.strip()!r:.40} is longer than {MAX_WORD_GLYPHS} glyphs, the longest entry"
            quote = f"{word.strip()[:QUOTED_CHARS]!r}... ({glyph_count(entry):,} glyphs)"
            self.bad(lineno, why, column, reason=TOO_LONG, quote=quote)
            return
        if clue is not None and not isinstance(clue, str):  # never "{'x': 1}" printed as a clue
            self.bad(lineno, f"the clue of {word.strip()!r:.40} is {json_kind(clue)}, not text", column)
            return
        clue_text = clue.strip() if clue else ""
        if len(clue_text) > MAX_CLUE_CHARS:
            self.bad(lineno, f"the clue of {word.strip()!r:.40} is longer than {MAX_CLUE_CHARS:,} characters", column)
            return
        if score is None:
            score = DEFAULT_SCORE
        elif not isinstance(score, int) or isinstance(score, bool) or abs(score) > MAX_SCORE:
            parsed = None if isinstance(score, bool) else parse_score(str(score))
            if parsed is None:
                self.bad(lineno, f"score {score!r:.40} is not a number within +-{MAX_SCORE:,}", score_column)
                return
            score = parsed
        if entry not in self.scores or score > self.scores[entry] or self.last_wins:
            self.scores[entry] = score
        self.counts[entry] = self.counts.get(entry, 0) + 1
        if word.strip() != entry:
            self.display.setdefault(entry, word.strip())
        if clue_text:
            self.clues.setdefault(entry, clue_text)

    def add_many(self, words: list[str], entries: list[str], scores: list[int]) -> None:
        """Valid entries (``entries``, the normal forms of ``words``) with their scores, as
        :meth:`add` takes them one by one."""
        self.added += len(words)
        table, counts, display = self.scores, self.counts, self.display
        if not table and len(set(entries)) == len(entries):  # the usual list: each entry once
            table.update(zip(entries, scores))
            counts.update(dict.fromkeys(entries, 1))
            display.update({entry: word for word, entry in zip(words, entries) if word != entry})
            return
        for k, (word, entry, score) in enumerate(zip(words, entries, scores, strict=True)):
            late = self.deadline is not None and k % DEADLINE_EVERY_ENTRIES == DEADLINE_EVERY_ENTRIES - 1
            if late and time.monotonic() >= self.deadline:  # type: ignore[operator]
                raise LoadTimeout(self.report.path)
            if self.last_wins or table.get(entry, score - 1) < score:
                table[entry] = score
            counts[entry] = counts.get(entry, 0) + 1
            if word != entry:
                display.setdefault(entry, word)


def json_kind(value: object) -> str:
    """What a JSON value is, as a message names it: ``an object``, ``a number``, ``true``..."""
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = ((dict, "an object"), (list, "a list"), (int | float, "a number"), (str, "text"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null" if value is None else "not text")


def load_csv(text: str, col: Collector) -> None:
    rows = csv.reader(io.StringIO(text))
    try:
        _load_csv_rows(rows, col)
    except csv.Error as error:  # a field over csv's limit (128 KiB), a NUL byte...
        raise InputError(f"not a CSV word list: {error}", col.report.path, rows.line_num or None) from None


#: Names (lower case) of a CSV list's columns in its header row: the word's, the score's and the
#: clue's. A first row that names a word column and holds no number is a header.
WORD_COLUMNS = ("word", "answer", "entry", "words", "answers", "entries")
SCORE_COLUMNS = ("score", "scores", "value", "rating")
CLUE_COLUMNS = ("clue", "clues", "definition", "hint")


class _Columns(NamedTuple):
    """Where a CSV header row puts the word, the score and the clue (None: not named)."""

    word: int
    score: int | None
    clue: int | None


def _header(row: list[str]) -> _Columns | None:
    """The columns a CSV list's first row names, or None when it is not a header row."""
    names = [field.strip().lower() for field in row]
    if not any(name in WORD_COLUMNS for name in names) or any(parse_score(name) is not None for name in names):
        return None

    def first(choices: tuple[str, ...]) -> int | None:
        return next((i for i, name in enumerate(names) if name in choices), None)

    word = first(WORD_COLUMNS)
    assert word is not None  # a header names a word column
    return _Columns(word, first(SCORE_COLUMNS), first(CLUE_COLUMNS))


def _load_csv_rows(rows: Iterator[list[str]], col: Collector) -> None:
    columns = None
    first = True
    for lineno, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue  # blank, or a comment (no entry starts with "#")
        if first and (columns := _header(row)) is not None:
            first = False
            continue
        first = False
        field = dict(enumerate(r.strip() for r in row))
        at = columns.word if columns is not None else 0
        rest = [(i, r) for i, r in field.items() if i != at]
        if columns is not None and columns.score is not None:
            # a column named the score holds it: text there is a malformed score, not a clue
            score = field.get(columns.score) or None
            rest = [(i, r) for i, r in rest if i != columns.score]
        else:  # any numeric field is the score
            score = next((r for _, r in rest if parse_score(r) is not None), None)
            rest = [(i, r) for i, r in rest if parse_score(r) is None]
        if columns is not None and columns.clue is not None:
            rest = [(i, r) for i, r in rest if i == columns.clue]
        clue = next((r for _, r in rest if r), None)
        if col.strict and score is None and clue is not None and (columns is None or columns.score is None):
            # an override file's second field is the score: a clue there is a mistyped score
            col.bad(lineno, f"score {row[1].strip()!r} is not a number", len(row[0]) + 2)
            continue
        # where the score's field starts when no field is quoted (a strict reader's message)
        score_at = sum(len(r) + 1 for r in row[: columns.score]) + 1 if columns and columns.score else None
        col.add(lineno, row[at] if at < len(row) else "", score, clue, column=1, score_column=score_at)


class _JsonPlaces:
    """Line and column (1-based) of each string of a JSON text, found in one pass (a search per
    word would make loading quadratic); (0, None) for a string not found."""

    STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

    def __init__(self, text: str):
        self.text = text
        self.offsets: dict[str, int] = {}
        for match in self.STRING.finditer(text):
            try:
                value = json.loads(match.group())
            except ValueError:
                continue
            self.offsets.setdefault(value, match.start() + 1)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, needle: object) -> tuple[int, int | None]:
        at = self.offsets.get(needle) if isinstance(needle, str) else None
        if at is None:
            return 0, None
        line = bisect_right(self.line_starts, at)
        return line, at - self.line_starts[line - 1] + 1


def load_json(text: str, path: str, col: Collector, most: int = MAX_WORD_LIST_LINES) -> None:
    """Read a JSON list (InputError past ``most`` entries: the caller's bound on lines)."""
    data = parse_json(text, path, "a JSON word list")
    if isinstance(data, (dict, list)) and len(data) > most:
        raise InputError(f"{len(data):,} entries: the most a word list may have is {most:,}", path)
    place = _JsonPlaces(text)
    if isinstance(data, dict):
        for word, value in data.items():
            line, column = place(word)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                col.add(line, word, value, column=column)
            elif col.strict:
                col.bad(line, f"the score of {word!r} is not a number", column)
            else:  # text is the word's clue; anything else but null is refused by add()
                col.add(line, word, clue=value, column=column)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, str):
                col.add(place(item)[0], item)
            elif isinstance(item, dict) and ("word" in item or "answer" in item):
                word = item.get("word", item.get("answer"))
                col.add(place(word)[0], word, item.get("score"), item.get("clue"))
            else:
                col.bad(0, f"list item {item!r:.40} is not a word")
    else:
        raise InputError("a JSON word list is an object (word -> clue) or a list", path)
