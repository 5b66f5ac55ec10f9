"""Reading word lists: plain (``word``, ``word;score``, ``word<TAB>score``, ``word score``), CSV
(with a header row or without) and JSON, with clues.

Every line skipped is counted by reason in a :class:`LoadReport` (the CLI warns once per file);
a file with no usable entry, or one that cannot be read, is an :class:`InputError` naming the file
and, where it can, the line and column. A large list file is read once: later loads of the same
bytes map its cached ready index (:mod:`.list_cache`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence

from ..core.deadline import Deadline
from ..core.errors import InputError, LoadTimeout
from ..core.files import decode_text, read_input_bytes
from ..core.limits import MAX_WORD_GLYPHS, MAX_WORD_LIST_LINES
from . import list_cache
from .builtin import SPELLINGS, other_spellings, source_stamp
from .lexicon import Lexicon
from .list_readers import DEADLINE_EVERY_ENTRIES, Collector, load_csv, load_json, parse_score
from .load_report import SPELLING
from .load_report import LoadReport as LoadReport
from .word_index import DEFAULT_SCORE

#: A line of a plain list that needs none of :meth:`Collector.add`'s care: an ASCII word, then
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


def _load_simple(text: str, col: Collector) -> bool:
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


def _load_plain(text: str, col: Collector) -> None:
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
            if head and parse_score(last) is not None:
                col.add(lineno, head, last, column=column)
            else:
                col.add(lineno, line, column=column)


def _check_line_count(text: str, path: str) -> None:
    """InputError (naming the first line past the bound) for a file of more than
    :data:`MAX_WORD_LIST_LINES` lines; counting newlines is fast next to parsing them."""
    breaks = max(text.count("\n"), text.count("\r"))  # LF, CRLF or old Mac CR endings
    lines = breaks + (0 if text.endswith(("\n", "\r")) else 1)
    if lines > MAX_WORD_LIST_LINES:
        raise InputError(
            f"{lines:,} lines: the most a word list may have is {MAX_WORD_LIST_LINES:,}", path, MAX_WORD_LIST_LINES + 1
        )


def _looks_like_csv(text: str) -> bool:
    """Whether a list without the ``.csv`` extension is CSV: its first line that is neither
    blank nor a ``#`` comment holds a comma and neither a ``;`` nor a tab (a comma is in no entry
    of a plain list, so such a list would be all skipped lines)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return "," in stripped and ";" not in stripped and "\t" not in stripped
    return False


def _extension_kind(name: str) -> str:
    """What a file's extension makes the reader try: ``json``, ``csv`` or ``text`` (content
    decides the rest)."""
    lower = name.lower()
    return "json" if lower.endswith(".json") else "csv" if lower.endswith(".csv") else "text"


def load_word_list(
    path: str | os.PathLike[str], *, strict: bool = False, deadline: Deadline = None, spelling: str = "any"
) -> tuple[Lexicon, LoadReport]:
    """Load one word list file (format chosen by extension, then by content).

    ``strict`` (override files): a malformed line is an error instead of a warning, and a word
    listed twice takes its last score instead of its highest.

    ``spelling`` ``us`` or ``uk``: leave out the entries the built-in English list spells only the
    other way (COLOUR for ``us``), counted in the report; ``any`` keeps them.

    A list file of :data:`~.list_cache.MIN_CACHED_BYTES` or more (read leniently) is read once
    and cached as a ready index; a later load of the same bytes maps the cache (same lexicon, same
    report) and parses nothing.

    Raises:
        InputError: the file is missing, unreadable, not UTF-8, or has no usable entry; with
            ``strict``, a malformed line (naming its line and column).
        LoadTimeout: ``deadline`` passed while the file was read.
    """
    if spelling not in SPELLINGS:
        raise ValueError(f"unknown spelling {spelling!r}; choose from {', '.join(SPELLINGS)}")
    name = os.fspath(path)
    data = read_input_bytes(name)
    key = None
    if not strict and len(data) >= list_cache.MIN_CACHED_BYTES:
        # the spelling tags come from the built-in list: a new one makes new caches
        variant = "any" if spelling == "any" else f"{spelling}-{source_stamp('en')}"
        key = list_cache.cache_key(data, _extension_kind(name), variant)
        cached = list_cache.load_cached(key, name)
        if cached is not None:
            if deadline is not None and time.monotonic() >= deadline:  # as a parse would say
                raise LoadTimeout(name)
            return cached
    text = decode_text(data, name)
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_line_count(text, name)
    report = LoadReport(name, last_wins=strict)
    col = Collector(report, strict=strict, last_wins=strict, deadline=deadline)
    kind = _extension_kind(name)
    if kind == "json" or text.lstrip().startswith(("{", "[")):
        load_json(text, name, col, MAX_WORD_LIST_LINES)
    elif kind == "csv" or _looks_like_csv(text):
        load_csv(text, col)
    else:
        _load_plain(text, col)
    _leave_out_other_spellings(col, spelling)
    if not col.scores and not strict:
        detail = f" ({report.warning()})" if report.skipped else ""
        raise InputError(f"no usable entry in the word list{detail}", name)
    report.repeats = sum(col.counts.values()) - len(col.counts)
    if key is not None:
        return list_cache.build_cached(key, name, col.scores, col.display, col.clues, col.counts, report)
    lexicon = Lexicon(col.scores, col.display, col.clues, os.path.basename(name), col.counts)
    return lexicon, report


def _leave_out_other_spellings(col: Collector, spelling: str) -> None:
    """Remove the entries the built-in English list spells only the other way than ``spelling``
    (none for ``any``), each counted in the report under the entry as the list wrote it."""
    if spelling == "any":
        return
    other = other_spellings(spelling)
    col.report.spelling = spelling
    for entry in [entry for entry in col.scores if entry in other]:  # the file's order
        col.report.skip(0, SPELLING, col.display.get(entry, entry))
        del col.scores[entry]
        for table in (col.display, col.clues, col.counts):
            table.pop(entry, None)


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
        for word, n in lex.word_uses().items():  # a cached list counts only its repeats
            counts[word] = counts.get(word, 0) + n
    return Lexicon(scores, display, clues, "+".join(lex.name for lex in lexicons), counts)


def load_word_lists(
    paths: Sequence[str | os.PathLike[str]], *, deadline: Deadline = None, spelling: str = "any"
) -> tuple[Lexicon, list[LoadReport]]:
    """Load and combine several word lists, in order (LoadTimeout when ``deadline`` passes),
    each kept to ``spelling`` (see :func:`load_word_list`)."""
    loaded = [load_word_list(p, deadline=deadline, spelling=spelling) for p in paths]
    return combine([lex for lex, _ in loaded]), [rep for _, rep in loaded]
