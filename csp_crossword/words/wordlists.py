"""Reading word lists: plain (``word`` or ``word;score``), CSV and JSON, with clues.

Every problem with one line is collected in a :class:`LoadReport` (the CLI warns once per file);
a file with no usable entry, or one that cannot be read, is an :class:`InputError` naming the file
and, where it can, the line and column.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import time
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..core.deadline import Deadline
from ..core.errors import InputError, LoadTimeout
from ..core.files import parse_json, read_text_file
from ..core.glyphs import normalize_entry
from ..core.limits import MAX_CLUE_CHARS, MAX_WORD_GLYPHS, MAX_WORD_LIST_LINES
from .lexicon import Lexicon
from .word_index import DEFAULT_SCORE, MAX_SCORE, _valid_entry, glyph_count

#: How many malformed lines a warning quotes before it only counts them.
WARNING_EXAMPLES = 5
#: Entries read between two looks at the deadline: a few milliseconds of reading.
DEADLINE_EVERY_ENTRIES = 4096


@dataclass
class LoadReport:
    """What a loader skipped, so the CLI can warn once per file."""

    path: str
    malformed: list[tuple[int, str]] = field(default_factory=list)

    def warning(self) -> str | None:
        if not self.malformed:
            return None
        shown = "; ".join(f"line {n}: {why}" for n, why in self.malformed[:WARNING_EXAMPLES])
        more = len(self.malformed) - WARNING_EXAMPLES
        tail = f"; and {more} more" if more > 0 else ""
        return f"{self.path}: skipped {len(self.malformed)} malformed line(s): {shown}{tail}"


def _parse_score(text: str) -> int | None:
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


class _Collector:
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

    def bad(self, lineno: int, why: str, column: int | None = None) -> None:
        if self.strict:
            raise InputError(why, self.report.path, lineno or None, column if lineno else None)
        self.report.malformed.append((lineno, why))

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
            self.bad(lineno, f"{word.strip()!r:.40} holds {bad!r}", at)
            return
        if len(entry) > MAX_WORD_GLYPHS and glyph_count(entry) > MAX_WORD_GLYPHS:
            self.bad(lineno, f"{word.strip()!r:.40} is longer than {MAX_WORD_GLYPHS} glyphs, the longest entry", column)
            return
        clue_text = str(clue).strip() if clue else ""
        if len(clue_text) > MAX_CLUE_CHARS:
            self.bad(lineno, f"the clue of {word.strip()!r:.40} is longer than {MAX_CLUE_CHARS:,} characters", column)
            return
        if score is None:
            score = DEFAULT_SCORE
        elif not isinstance(score, int) or isinstance(score, bool) or abs(score) > MAX_SCORE:
            parsed = None if isinstance(score, bool) else _parse_score(str(score))
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


#: A line of a plain list that needs none of :meth:`_Collector.add`'s care: an ASCII word, then
#: optionally a separator (``;``, tab or space) and a whole-number score.
_SIMPLE_LINE = re.compile(r"^[ \t]*([A-Za-z]+)(?:[ \t]*[;\t][ \t]*(-?[0-9]{1,9})?| +(-?[0-9]{1,9}))?[ \t]*\r?$", re.M)
#: A line that the line-by-line reader skips: blank, or a comment.
_SKIPPED_LINE = re.compile(r"^[ \t]*(?:#.*)?\r?$", re.M)
#: Characters of a plain list read by one pass of the patterns below before the clock is looked
#: at (and a chunk of junk sends the list to the line-by-line reader at once).
SIMPLE_CHUNK_CHARS = 1 << 20
#: Line breaks that str.splitlines() knows in ASCII text and the patterns above do not take
#: (CR alone is one too; CRLF they take).
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e"


def _other_breaks(text: str) -> bool:
    """Whether ``text`` holds a line break the patterns do not take (string searches: a regular
    expression took 1.6 s over 64 MB)."""
    return any(ch in text for ch in _OTHER_BREAKS) or text.count("\r") != text.count("\r\n")


def _load_simple(text: str, col: _Collector) -> bool:
    """Read a plain list in one pass of a regular expression when every line is an ASCII word
    with an optional score (most lists: ten times faster than line by line); False, having read
    nothing, when some line is not, so that the careful reader names it."""
    body = text[:-1] if text.endswith("\n") else text  # so that "^" finds no line after the last break
    if not body or not text.isascii() or _other_breaks(text):
        return False
    rows: list[tuple[str, str, str]] = []
    start = 0
    while start < len(body):  # a chunk of whole lines at a time: junk is refused from its first
        end = body.find("\n", start + SIMPLE_CHUNK_CHARS)
        chunk = body[start : len(body) if end < 0 else end]
        found = _SIMPLE_LINE.findall(chunk)
        if len(found) + len(_SKIPPED_LINE.findall(chunk)) != chunk.count("\n") + 1:
            return False
        rows += found
        # as the line-by-line reader: a list too short to reach a look at the clock is read whole
        if len(rows) >= DEADLINE_EVERY_ENTRIES and col.deadline is not None and time.monotonic() >= col.deadline:
            raise LoadTimeout(col.report.path)
        start = len(body) if end < 0 else end + 1
    words = [row[0] for row in rows]
    if max(map(len, words), default=0) > MAX_WORD_GLYPHS:
        return False
    entries = "\n".join(words).upper().split("\n") if words else []
    scores = [int(row[1] or row[2]) if row[1] or row[2] else DEFAULT_SCORE for row in rows]
    col.add_many(words, entries, scores)
    return True


def _load_plain(text: str, col: _Collector) -> None:
    if _load_simple(text, col):
        return
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        column = len(raw) - len(raw.lstrip()) + 1
        for separator in (";", "\t"):
            if separator in line:
                word, _, score = line.rpartition(separator)
                score_column = raw.rindex(separator) + 2 + len(score) - len(score.lstrip())
                col.add(lineno, word, score.strip() or None, column=column, score_column=score_column)
                break
        else:
            head, _, last = line.rpartition(" ")
            if head and _parse_score(last) is not None:
                col.add(lineno, head, last, column=column)
            else:
                col.add(lineno, line, column=column)


def _load_csv(text: str, col: _Collector) -> None:
    rows = csv.reader(io.StringIO(text))
    try:
        _load_csv_rows(rows, col)
    except csv.Error as error:  # a field over csv's limit (128 KiB), a NUL byte...
        raise InputError(f"not a CSV word list: {error}", col.report.path, rows.line_num or None) from None


def _load_csv_rows(rows: Iterator[list[str]], col: _Collector) -> None:
    for lineno, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip():
            continue
        if lineno == 1 and row[0].strip().lower() in ("word", "answer", "entry"):
            continue
        word, rest = row[0], [r.strip() for r in row[1:]]
        score = next((r for r in rest if _parse_score(r) is not None), None)
        clue = next((r for r in rest if r and _parse_score(r) is None), None)
        if col.strict and score is None and clue is not None:
            # an override file's second field is the score: a clue there is a mistyped score
            col.bad(lineno, f"score {row[1].strip()!r} is not a number", len(row[0]) + 2)
            continue
        col.add(lineno, word, score, clue, column=1)


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


def _load_json(text: str, path: str, col: _Collector) -> None:
    data = parse_json(text, path, "a JSON word list")
    if isinstance(data, (dict, list)) and len(data) > MAX_WORD_LIST_LINES:
        raise InputError(f"{len(data):,} entries: the most a word list may have is {MAX_WORD_LIST_LINES:,}", path)
    place = _JsonPlaces(text)
    if isinstance(data, dict):
        for word, value in data.items():
            line, column = place(word)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                col.add(line, word, value, column=column)
            elif col.strict:
                col.bad(line, f"the score of {word!r} is not a number", column)
            else:
                col.add(line, word, clue=value if isinstance(value, str) else None, column=column)
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


def _check_line_count(text: str, path: str) -> None:
    """InputError (naming the first line past the bound) for a file of more than
    :data:`MAX_WORD_LIST_LINES` lines; counting newlines is fast next to parsing them."""
    breaks = max(text.count("\n"), text.count("\r"))  # LF, CRLF or old Mac CR endings
    lines = breaks + (0 if text.endswith(("\n", "\r")) else 1)
    if lines > MAX_WORD_LIST_LINES:
        raise InputError(
            f"{lines:,} lines: the most a word list may have is {MAX_WORD_LIST_LINES:,}", path, MAX_WORD_LIST_LINES + 1
        )


def load_word_list(
    path: str | os.PathLike[str], *, strict: bool = False, deadline: Deadline = None
) -> tuple[Lexicon, LoadReport]:
    """Load one word list file (format chosen by extension, then by content).

    ``strict`` (override files): a malformed line is an error instead of a warning, and a word
    listed twice takes its last score instead of its highest.

    Raises:
        InputError: the file is missing, unreadable, not UTF-8, or has no usable entry; with
            ``strict``, a malformed line (naming its line and column).
        LoadTimeout: ``deadline`` passed while the file was read.
    """
    name = os.fspath(path)
    text = read_text_file(name)
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_line_count(text, name)
    report = LoadReport(name)
    col = _Collector(report, strict=strict, last_wins=strict, deadline=deadline)
    lower = name.lower()
    if lower.endswith(".json") or text.lstrip().startswith(("{", "[")):
        _load_json(text, name, col)
    elif lower.endswith(".csv"):
        _load_csv(text, col)
    else:
        _load_plain(text, col)
    if not col.scores and not strict:
        detail = f" ({report.warning()})" if report.malformed else ""
        raise InputError(f"no usable entry in the word list{detail}", name)
    lexicon = Lexicon(col.scores, col.display, col.clues, os.path.basename(name), col.counts)
    return lexicon, report


def combine(lexicons: list[Lexicon]) -> Lexicon:
    """Merge lexicons; a later one overrides an earlier one's score, display form and clue."""
    if len(lexicons) == 1:
        return lexicons[0]
    scores: dict[str, int] = {}
    display: dict[str, str] = {}
    clues: dict[str, str] = {}
    counts: dict[str, int] = {}
    for lex in lexicons:
        scores.update(lex.scores)
        display.update(lex.display)
        clues.update(lex.clues)
        for word, n in lex.multiplicity.items():
            counts[word] = counts.get(word, 0) + n
    return Lexicon(scores, display, clues, "+".join(lex.name for lex in lexicons), counts)


def load_word_lists(
    paths: Sequence[str | os.PathLike[str]], *, deadline: Deadline = None
) -> tuple[Lexicon, list[LoadReport]]:
    """Load and combine several word lists, in order (LoadTimeout when ``deadline`` passes)."""
    loaded = [load_word_list(p, deadline=deadline) for p in paths]
    return combine([lex for lex, _ in loaded]), [rep for _, rep in loaded]
