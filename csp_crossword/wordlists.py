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
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import InputError
from .files import read_text_file
from .glyphs import normalize_entry
from .lexicon import DEFAULT_SCORE, Lexicon, _valid_entry

#: How many malformed lines a warning quotes before it only counts them.
WARNING_EXAMPLES = 5


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
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(round(value))


class _Collector:
    """Accumulates one file's entries: duplicates inside a file keep the highest score (or, with
    ``last_wins``, the last one). A ``strict`` collector raises :class:`InputError` at the first
    malformed line (naming the file, line and column) instead of skipping it."""

    def __init__(self, report: LoadReport, *, strict: bool = False, last_wins: bool = False):
        self.report = report
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
            self.bad(lineno, f"{word.strip()!r} holds {bad!r}", at)
            return
        if score is None:
            score = DEFAULT_SCORE
        elif not isinstance(score, int):
            parsed = _parse_score(str(score)) if not isinstance(score, bool) else None
            if parsed is None:
                self.bad(lineno, f"score {score!r} is not a number", score_column)
                return
            score = parsed
        if entry not in self.scores or score > self.scores[entry] or self.last_wins:
            self.scores[entry] = score
        self.counts[entry] = self.counts.get(entry, 0) + 1
        if word.strip() != entry:
            self.display.setdefault(entry, word.strip())
        if clue:
            self.clues.setdefault(entry, str(clue).strip())


def _load_plain(text: str, col: _Collector) -> None:
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


def _json_line(text: str, needle: str) -> int:
    return _json_place(text, needle)[0]


def _json_place(text: str, needle: str) -> tuple[int, int | None]:
    """Line and column (1-based) of a JSON string's text in the file; (0, None) when not found."""
    at = text.find(json.dumps(needle)[1:-1])
    if at < 0:
        return 0, None
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _load_json(text: str, path: str, col: _Collector) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno, error.colno) from None
    if isinstance(data, dict):
        for word, value in data.items():
            line, column = _json_place(text, word)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                col.add(line, word, int(round(value)), column=column)
            elif col.strict:
                col.bad(line, f"the score of {word!r} is not a number", column)
            else:
                col.add(line, word, clue=value if isinstance(value, str) else None, column=column)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, str):
                col.add(_json_line(text, item), item)
            elif isinstance(item, dict) and ("word" in item or "answer" in item):
                word = item.get("word", item.get("answer"))
                line = _json_line(text, word) if isinstance(word, str) else 0
                col.add(line, word, item.get("score"), item.get("clue"))
            else:
                col.bad(0, f"list item {item!r:.40} is not a word")
    else:
        raise InputError("a JSON word list is an object (word -> clue) or a list", path)


def load_word_list(path: str | os.PathLike[str], *, strict: bool = False) -> tuple[Lexicon, LoadReport]:
    """Load one word list file (format chosen by extension, then by content).

    ``strict`` (override files): a malformed line is an error instead of a warning, and a word
    listed twice takes its last score instead of its highest.

    Raises:
        InputError: the file is missing, unreadable, not UTF-8, or has no usable entry; with
            ``strict``, a malformed line (naming its line and column).
    """
    name = os.fspath(path)
    text = read_text_file(name)
    if text.startswith("\ufeff"):
        text = text[1:]
    report = LoadReport(name)
    col = _Collector(report, strict=strict, last_wins=strict)
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


def load_word_lists(paths: Sequence[str | os.PathLike[str]]) -> tuple[Lexicon, list[LoadReport]]:
    """Load and combine several word lists, in order."""
    loaded = [load_word_list(p) for p in paths]
    return combine([lex for lex, _ in loaded]), [rep for _, rep in loaded]
