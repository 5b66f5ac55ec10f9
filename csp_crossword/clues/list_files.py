"""Plain clue lists: answers with their clues, one pair a line, as a spreadsheet or a text editor
writes them.

Accepted layouts (the separator is found from the file's lines, see :func:`sniff_delimiter`):

* ``ANSWER<TAB>clue`` (TSV), ``ANSWER,clue`` or ``ANSWER;clue`` (CSV, with or without quotes),
  ``ANSWER|clue`` and ``answer: clue``;
* word lists with a clue column: ``word;score;clue`` (a number in the second column of most
  lines is a score, and is not stored), or any table whose header row names its columns.

A header row is one that names an answer column (answer, word, entry...) and a clue column
(clue, definition, hint...); other columns (score, year, source) are ignored. Without a header
the answer is the first field and the clue the rest of the line (an unquoted comma inside a clue
stays in it). Lines starting with ``#`` are comments. Answers are normalised as puzzle answers
are (:func:`~csp_crossword.core.glyphs.normalize_entry`: upper case, spaces and hyphens dropped,
any script's letters kept); a line whose answer holds other characters, or that has no clue, is
skipped and reported with its line number.
"""

from __future__ import annotations

import csv
import os
import unicodedata
from typing import NamedTuple

from ..core.errors import InputError
from ..core.files import decode_text, read_input_bytes
from ..core.glyphs import normalize_entry, split_glyphs
from ..core.limits import MAX_CLUE_CHARS, MAX_WORD_GLYPHS
from ..words.list_readers import CLUE_COLUMNS, SCORE_COLUMNS, WORD_COLUMNS, parse_score

#: Suffixes of clue lists, searched for in folders (a clue list given by name may have any
#: suffix, or none: its lines decide).
LIST_SUFFIXES = (".csv", ".tsv")
#: Separators a list may use, in the order a tie between them is settled (a tab never appears in
#: a clue; a colon often does, "Abbr.: ..." being common, so it comes last).
DELIMITERS = ("\t", "|", ";", ",", ":")
#: The same for a .csv file, whose name says commas (or, from a European spreadsheet, semicolons).
CSV_DELIMITERS = (",", ";", "\t", "|", ":")
#: Separators whose fields a spreadsheet quotes ("Time, period"); with the others a quote is part
#: of the clue ('"Hello"' in a TSV) unless it is doubled as a spreadsheet doubles it.
QUOTED_DELIMITERS = (",", ";")
#: Lines looked at to choose the separator and the layout.
SNIFF_LINES = 200
#: Share of those lines that must read as answer + separator + clue for the file to be a clue list.
MIN_LIST_SHARE = 0.5
#: Share of the lines whose second field is a number for that field to be a score (word;score;clue).
SCORE_LAYOUT_SHARE = 0.8
#: Answer and clue column names of a header row (lower case), beyond the word lists' own.
ANSWER_COLUMNS = (*WORD_COLUMNS, "solution", "solutions")
CLUE_NAMES = (*CLUE_COLUMNS, "definitions", "hints", "question")
#: Bad lines kept with their reasons per file (the rest are counted): a broken export can have
#: thousands, and the first ones say what is wrong.
REPORTED_BAD_ROWS = 20
#: A comment line starts with this (no answer does).
COMMENT = "#"


class ClueList(NamedTuple):
    """A clue list read: its (answer, clue) pairs in file order, the first REPORTED_BAD_ROWS
    skipped lines (an InputError naming the file and line), and how many lines were skipped."""

    pairs: list[tuple[str, str]]
    bad_rows: list[InputError]
    bad_count: int


class _Layout(NamedTuple):
    """Where a line's answer and clue are: field numbers; the clue runs to the line's end when
    ``clue_to_end`` (the last column: an unquoted separator inside the clue stays in it)."""

    answer: int
    clue: int
    clue_to_end: bool


def is_answer(text: str) -> bool:
    """Whether ``text`` normalises to an entry a grid can hold: letters, marks and digits only."""
    entry = normalize_entry(text.strip().strip('"').strip())
    return bool(entry) and all(unicodedata.category(ch)[0] in "LMN" for ch in entry)


def _data_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.strip() and not line.lstrip().startswith(COMMENT)]


def sniff_delimiter(lines: list[str], suffix: str = "") -> str | None:
    """The separator of a clue list: the one that, in most of the first SNIFF_LINES lines, leaves
    an answer before it and text after it (None when none does in MIN_LIST_SHARE of them).
    csv.Sniffer is not used: it guesses from how often each character repeats, and the commas of
    the clues ("Time period, e.g.") mislead it."""
    sample = _data_lines(lines)[:SNIFF_LINES]
    if not sample:
        return None
    order = CSV_DELIMITERS if suffix == ".csv" else DELIMITERS
    counts = {d: sum(1 for line in sample if _splits_as_pair(line, d)) for d in order}
    best = max(order, key=lambda d: counts[d])  # max keeps the first of equals: the order decides
    return best if counts[best] >= MIN_LIST_SHARE * len(sample) else None


def _splits_as_pair(line: str, delimiter: str) -> bool:
    head, found, rest = line.partition(delimiter)
    return bool(found) and bool(rest.strip()) and is_answer(head)


def split_line(line: str, delimiter: str) -> list[str]:
    """The fields of one line: CSV quoting is read for commas and semicolons (and for the others
    when a quote is doubled, as a spreadsheet writes it); a line that is not valid CSV ('"Star
    Wars" droid', an unclosed quote) is split as written, its quotes kept."""
    if '"' in line and (delimiter in QUOTED_DELIMITERS or '""' in line):
        # a space after the separator is allowed before a quote (ERA, "Time, period"); a line
        # without quotes is split as written, so a clue's ", " keeps its space
        try:
            return next(csv.reader([line], delimiter=delimiter, strict=True, skipinitialspace=True), [])
        except csv.Error:
            pass  # not CSV-quoted: the quotes belong to the clue
    return line.split(delimiter)


def _header(fields: list[str]) -> _Layout | str | None:
    """The layout a header row names; None when ``fields`` is no header; a problem (str) when it
    is a word list's header, with no clue column."""
    names = [field.strip().strip('"').strip().lower() for field in fields]
    answer = next((i for i, name in enumerate(names) if name in ANSWER_COLUMNS), None)
    clue = next((i for i, name in enumerate(names) if name in CLUE_NAMES), None)
    if answer is not None and clue is not None:
        return _Layout(answer, clue, clue == len(names) - 1)
    others = [name for i, name in enumerate(names) if i != answer and name]
    if answer is not None and others and all(name in SCORE_COLUMNS for name in others):
        # "word;score": a word list's header ("ENTRY<TAB>Way in" is a pair, and read as one)
        return "a word list without clues: the header names no clue column (clue, definition or hint)"
    return None


def _headerless(rows: list[list[str]]) -> _Layout:
    """word;score;clue when most rows have a number second and a third field, else answer;clue."""
    scored = sum(1 for row in rows if len(row) >= 3 and parse_score(row[1].strip()) is not None)
    if rows and scored >= SCORE_LAYOUT_SHARE * len(rows):
        return _Layout(0, 2, True)
    return _Layout(0, 1, True)


def parse_clue_list(text: str, path: str, suffix: str = "") -> ClueList:
    """The pairs of a clue list's text. InputError (naming ``path``) when it is not one: no
    separator found, or a header without an answer or a clue column."""
    lines = text.removeprefix("\ufeff").splitlines()
    if not _data_lines(lines):
        raise InputError("an empty clue list (no line but blanks and # comments)", path)
    delimiter = sniff_delimiter(lines, suffix)
    if delimiter is None:
        raise InputError(
            "not a clue list: its lines are not an answer and a clue separated by a tab, '|', ';', ',' or ':'",
            path,
        )
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip() and not line.lstrip().startswith(COMMENT)]
    rows = [(n, split_line(line, delimiter)) for n, line in numbered]
    layout = _header(rows[0][1]) if rows else None
    if isinstance(layout, str):
        raise InputError(layout, path, rows[0][0])
    if layout is None:
        layout = _headerless([fields for _, fields in rows[:SNIFF_LINES]])
    else:
        rows = rows[1:]
    pairs: list[tuple[str, str]] = []
    bad: list[InputError] = []
    count = 0
    for number, fields in rows:
        answer = fields[layout.answer] if layout.answer < len(fields) else ""
        if layout.clue_to_end:
            clue = delimiter.join(fields[layout.clue :])
        else:
            clue = fields[layout.clue] if layout.clue < len(fields) else ""
        clue = clue.strip().rstrip(delimiter).strip()  # a spreadsheet's empty trailing cells
        problem = row_problem(answer, clue)
        if problem:
            count += 1
            if len(bad) < REPORTED_BAD_ROWS:
                bad.append(InputError(problem, path, number))
        else:
            pairs.append((answer.strip(), clue))
    return ClueList(pairs, bad, count)


def row_problem(answer: str, clue: str) -> str:
    """Why a line's answer and clue cannot be stored ("" when they can)."""
    shown = answer.strip()
    entry = normalize_entry(shown)
    if not entry:
        return "no answer"
    bad = next((ch for ch in entry if unicodedata.category(ch)[0] not in "LMN"), None)
    if bad is not None:
        return f"the answer {shown!r:.40} holds {bad!r}, which no grid square can"
    if len(entry) > MAX_WORD_GLYPHS and len(split_glyphs(entry)) > MAX_WORD_GLYPHS:
        return f"the answer {shown[:24]!r}... is longer than {MAX_WORD_GLYPHS} letters, the longest entry"
    if not clue:
        return f"no clue for {shown!r:.40}"
    if len(clue) > MAX_CLUE_CHARS:
        return f"the clue of {shown!r:.40} is longer than {MAX_CLUE_CHARS:,} characters"
    return ""


def read_clue_list(path: str) -> ClueList:
    """Read a clue list file (UTF-8, a byte-order mark allowed). InputError naming the file (and
    the line, for text that is not UTF-8) when it cannot be read or is no clue list."""
    text = decode_text(read_input_bytes(path), path)
    return parse_clue_list(text, path, os.path.splitext(path)[1].lower())
