"""Word lists: loading, normalisation, scores and the bitset word index.

A :class:`Lexicon` maps entries (normalised words such as ``ICEAGE``) to a score, a display form
and a clue. Its :class:`WordIndex` for one length holds the words sorted best first and one bitset
(a Python int) per (position, glyph): bit ``i`` is set when word ``i`` has that glyph there. A
pattern is the AND of the bitsets of its filled positions, and a candidate count is a popcount.

>>> lex = Lexicon.from_words(["cat", "cot", "cut", "dog"], scores={"CAT": 90})
>>> index = lex.index(3)
>>> index.words
('CAT', 'COT', 'CUT', 'DOG')
>>> [index.words[i] for i in WordIndex.iter_ids(index.match(["C", "", "T"]))]
['CAT', 'COT', 'CUT']
>>> index.match(["D", "", ""]).bit_count()
1
"""

from __future__ import annotations

import csv
import io
import json
import os
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .files import read_text_file
from .glyphs import normalize_entry, split_glyphs

#: Score of an entry whose list gives none (Crossfire and Ingrid use 50 as "ordinary").
DEFAULT_SCORE = 50

#: How many malformed lines a warning quotes before it only counts them.
WARNING_EXAMPLES = 5
#: Word indexes up to this many words build their bitsets in plain Python: importing numpy
#: (about 50 ms) costs more than the loop for small lists.
SMALL_INDEX = 4096


def glyph_count(entry: str) -> int:
    """Number of cells an entry fills (fast path for ASCII)."""
    return len(entry) if entry.isascii() else len(split_glyphs(entry))


def entry_glyphs(entry: str) -> tuple[str, ...]:
    return tuple(entry) if entry.isascii() else tuple(split_glyphs(entry))


def _valid_entry(entry: str) -> bool:
    """Letters, marks and digits only: what a cell can hold."""
    return bool(entry) and all(unicodedata.category(ch)[0] in "LMN" for ch in entry)


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


class WordIndex:
    """All words of one length, best first, with one bitset per (position, glyph).

    Attributes:
        length: Glyphs per word.
        words: Entries, sorted by descending score then alphabetically.
        scores: Score of each word.
        bits: ``bits[pos][glyph_id]`` is the bitset of words with that glyph at that position
            (0 when none).
        full: The bitset of all words.
        alphabet: Glyph -> id, shared by every index of one lexicon.
    """

    def __init__(self, length: int, words: list[str], scores: list[int], alphabet: dict[str, int]):
        self.length = length
        self.alphabet = alphabet
        self.words = tuple(words)
        self.scores = tuple(scores)
        self.position = {word: i for i, word in enumerate(words)}
        self.full = (1 << len(words)) - 1
        self._codes: dict[int, tuple[int, ...]] = {}
        self._matrix: Any = None
        self._score_array: Any = None
        self.bits = self._build_bits()

    def code(self, word_id: int) -> tuple[int, ...]:
        """A word as a tuple of glyph ids."""
        found = self._codes.get(word_id)
        if found is None:
            found = tuple(self.alphabet[g] for g in entry_glyphs(self.words[word_id]))
            self._codes[word_id] = found
        return found

    @property
    def matrix(self) -> Any:
        """All words as a numpy (words x length) array of glyph ids (built on first use)."""
        if self._matrix is None:
            self._matrix = self._code_matrix()
        return self._matrix

    @property
    def score_array(self) -> Any:
        """The scores as a numpy array (built on first use)."""
        if self._score_array is None:
            import numpy as np

            self._score_array = np.array(self.scores, dtype=np.int64)
        return self._score_array

    def _code_matrix(self) -> Any:
        import numpy as np

        n = len(self.words)
        if all(w.isascii() for w in self.words):
            table = np.zeros(128, dtype=np.int32)
            for glyph, gid in self.alphabet.items():
                if len(glyph) == 1 and ord(glyph) < 128:
                    table[ord(glyph)] = gid
            raw = np.frombuffer("".join(self.words).encode("ascii"), dtype=np.uint8)
            return table[raw].reshape(n, self.length)
        rows = [[self.alphabet[g] for g in entry_glyphs(w)] for w in self.words]
        return np.array(rows, dtype=np.int32).reshape(n, self.length)

    def _build_bits(self) -> list[list[int]]:
        bits = [[0] * len(self.alphabet) for _ in range(self.length)]
        if not self.words:
            return bits
        if len(self.words) <= SMALL_INDEX:
            for w in range(len(self.words)):
                bit = 1 << w
                for pos, gid in enumerate(self.code(w)):
                    bits[pos][gid] |= bit
            return bits
        import numpy as np  # numpy builds large bitsets ~50x faster than bit-by-bit Python ints

        codes = self.matrix
        for pos in range(self.length):
            column = codes[:, pos]
            for glyph in np.unique(column):
                packed = np.packbits(column == glyph, bitorder="little")
                bits[pos][int(glyph)] = int.from_bytes(packed.tobytes(), "little")
        return bits

    def __len__(self) -> int:
        return len(self.words)

    def match(self, pattern: Iterable[str | None]) -> int:
        """Bitset of the words matching a pattern (``""`` or ``None`` for any glyph)."""
        result = self.full
        for pos, glyph in enumerate(pattern):
            if glyph:
                gid = self.alphabet.get(glyph)
                result &= self.bits[pos][gid] if gid is not None else 0
        return result

    @staticmethod
    def iter_ids(bitset: int) -> Iterator[int]:
        """Word ids in a bitset, lowest (best) first."""
        while bitset:
            low = bitset & -bitset
            yield low.bit_length() - 1
            bitset ^= low

    @staticmethod
    def id_array(bitset: int) -> Any:
        """Word ids in a bitset as an ascending numpy array (fast for large bitsets)."""
        import numpy as np

        raw = np.frombuffer(bitset.to_bytes((bitset.bit_length() + 7) // 8, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


@dataclass(frozen=True)
class ReadyIndex:
    """What a :class:`Lexicon` computes on first use, kept ready (the built-in lists' cache).

    Attributes:
        by_length: Entries grouped by length in glyphs, each group best first (descending score,
            then alphabetical).
        scores_by_length: The scores of those entries, in the same order.
        alphabet: Glyph -> id over every entry (sorted glyphs).
    """

    by_length: dict[int, list[str]]
    scores_by_length: dict[int, list[int]]
    alphabet: dict[str, int]

    @classmethod
    def of(cls, scores: dict[str, int]) -> ReadyIndex:
        lexicon = Lexicon(scores)
        by_length = {n: sorted(group, key=lambda w: (-scores[w], w)) for n, group in sorted(lexicon.by_length.items())}
        return cls(by_length, {n: [scores[w] for w in ws] for n, ws in by_length.items()}, lexicon.alphabet)


class Lexicon:
    """A normalised word list: entry -> score, display form and clue, with lazy indexes.

    Build one with :meth:`from_words`, :func:`load_word_lists` or
    :func:`csp_crossword.builtin.builtin_lexicon`.
    """

    def __init__(
        self,
        scores: dict[str, int],
        display: dict[str, str] | None = None,
        clues: dict[str, str] | None = None,
        name: str = "lexicon",
        multiplicity: dict[str, int] | None = None,
        *,
        ready: ReadyIndex | None = None,
    ):
        """``ready``: what the lexicon would compute on first use, when the caller has it (the
        cached built-in lists)."""
        self.scores = scores
        self.multiplicity = multiplicity or {}
        self.display = display or {}
        self.clues = clues or {}
        self.name = name
        self._by_length: dict[int, list[str]] | None = ready.by_length if ready else None
        self._ready = ready
        self._indexes: dict[int, WordIndex] = {}
        self._alphabet: dict[str, int] | None = ready.alphabet if ready else None

    @classmethod
    def from_words(cls, words: Iterable[str], scores: Mapping[str, int] | None = None, name: str = "words") -> Lexicon:
        """A lexicon from an iterable of words (normalised here), default score 50."""
        table: dict[str, int] = {}
        display: dict[str, str] = {}
        counts: dict[str, int] = {}
        for word in words:
            entry = normalize_entry(word)
            if not _valid_entry(entry):
                raise ValueError(f"not a usable entry: {word!r}")
            table[entry] = DEFAULT_SCORE
            counts[entry] = counts.get(entry, 0) + 1
            if word != entry:
                display[entry] = word
        for word, score in (scores or {}).items():
            table[normalize_entry(word)] = score
        return cls(table, display, name=name, multiplicity=counts)

    def __len__(self) -> int:
        return len(self.scores)

    def __contains__(self, entry: str) -> bool:
        return entry in self.scores

    @property
    def by_length(self) -> dict[int, list[str]]:
        if self._by_length is None:
            groups: dict[int, list[str]] = {}
            for entry in self.scores:
                groups.setdefault(glyph_count(entry), []).append(entry)
            self._by_length = groups
        return self._by_length

    @property
    def alphabet(self) -> dict[str, int]:
        """Glyph -> small integer id, over every entry (sorted, so ids are stable)."""
        if self._alphabet is None:
            ascii_entries = [e for e in self.scores if e.isascii()]
            glyphs: set[str] = set("".join(ascii_entries))
            if len(ascii_entries) < len(self.scores):
                for entry in self.scores:
                    if not entry.isascii():
                        glyphs.update(split_glyphs(entry))
            self._alphabet = {g: i for i, g in enumerate(sorted(glyphs))}
        return self._alphabet

    def index(self, length: int) -> WordIndex:
        """The word index of one length (built on first use)."""
        found = self._indexes.get(length)
        if found is None:
            if self._ready is not None:
                words = self._ready.by_length.get(length, [])
                scores = self._ready.scores_by_length.get(length, [])
            else:
                words = sorted(self.by_length.get(length, []), key=lambda w: (-self.scores[w], w))
                scores = [self.scores[w] for w in words]
            found = WordIndex(length, words, scores, self.alphabet)
            self._indexes[length] = found
        return found

    def lengths(self) -> dict[int, int]:
        return {n: len(ws) for n, ws in sorted(self.by_length.items())}

    def filtered(self, min_score: int | None = None, banned: Iterable[str] = ()) -> Lexicon:
        """A new lexicon without entries below ``min_score`` or in ``banned``."""
        banned_set = {normalize_entry(w) for w in banned}
        keep = {w: s for w, s in self.scores.items() if (min_score is None or s >= min_score) and w not in banned_set}
        multiplicity = {w: n for w, n in self.multiplicity.items() if w in keep}
        return Lexicon(keep, self.display, self.clues, self.name, multiplicity)

    def with_entries(self, entries: dict[str, int]) -> Lexicon:
        """A new lexicon with extra entries (entry -> score) added or rescored."""
        scores = dict(self.scores)
        scores.update(entries)
        return Lexicon(scores, self.display, self.clues, self.name, self.multiplicity)

    def word_uses(self) -> dict[str, int]:
        """Entry -> how many times the list names it (1 when not counted)."""
        return {w: self.multiplicity.get(w, 1) for w in self.scores}

    def display_form(self, entry: str) -> str:
        return self.display.get(entry, entry)

    def clue(self, entry: str) -> str | None:
        return self.clues.get(entry)


# --------------------------------------------------------------------------- loaders


def _parse_score(text: str) -> int | None:
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(round(value))


class _Collector:
    """Accumulates one file's entries: duplicates inside a file keep the highest score."""

    def __init__(self, report: LoadReport):
        self.report = report
        self.scores: dict[str, int] = {}
        self.display: dict[str, str] = {}
        self.clues: dict[str, str] = {}
        self.counts: dict[str, int] = {}

    def add(self, lineno: int, word: object, score: object = None, clue: object = None) -> None:
        if not isinstance(word, str):
            self.report.malformed.append((lineno, "the word is not text"))
            return
        entry = normalize_entry(word.strip())
        if not entry:
            self.report.malformed.append((lineno, "empty word"))
            return
        if not _valid_entry(entry):
            bad = next(ch for ch in entry if unicodedata.category(ch)[0] not in "LMN")
            self.report.malformed.append((lineno, f"{word.strip()!r} holds {bad!r}"))
            return
        if score is None:
            score = DEFAULT_SCORE
        elif not isinstance(score, int):
            parsed = _parse_score(str(score)) if not isinstance(score, bool) else None
            if parsed is None:
                self.report.malformed.append((lineno, f"score {score!r} is not a number"))
                return
            score = parsed
        if entry not in self.scores or score > self.scores[entry]:
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
        if ";" in line:
            word, _, score = line.rpartition(";")
            col.add(lineno, word, score.strip() or None)
        elif "\t" in line:
            word, _, score = line.rpartition("\t")
            col.add(lineno, word, score.strip() or None)
        else:
            head, _, last = line.rpartition(" ")
            if head and _parse_score(last) is not None:
                col.add(lineno, head, last)
            else:
                col.add(lineno, line)


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
        col.add(lineno, word, score, clue)


def _json_line(text: str, needle: str) -> int:
    at = text.find(json.dumps(needle)[1:-1])
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def _load_json(text: str, path: str, col: _Collector) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno, error.colno) from None
    if isinstance(data, dict):
        for word, value in data.items():
            line = _json_line(text, word)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                col.add(line, word, int(round(value)))
            else:
                col.add(line, word, clue=value if isinstance(value, str) else None)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, str):
                col.add(_json_line(text, item), item)
            elif isinstance(item, dict) and ("word" in item or "answer" in item):
                word = item.get("word", item.get("answer"))
                line = _json_line(text, word) if isinstance(word, str) else 0
                col.add(line, word, item.get("score"), item.get("clue"))
            else:
                col.report.malformed.append((0, f"list item {item!r:.40} is not a word"))
    else:
        raise InputError("a JSON word list is an object (word -> clue) or a list", path)


def load_word_list(path: str | os.PathLike[str]) -> tuple[Lexicon, LoadReport]:
    """Load one word list file (format chosen by extension, then by content).

    Raises:
        InputError: the file is missing, unreadable, not UTF-8, or has no usable entry.
    """
    name = os.fspath(path)
    text = read_text_file(name)
    if text.startswith("\ufeff"):
        text = text[1:]
    report = LoadReport(name)
    col = _Collector(report)
    lower = name.lower()
    if lower.endswith(".json") or text.lstrip().startswith(("{", "[")):
        _load_json(text, name, col)
    elif lower.endswith(".csv"):
        _load_csv(text, col)
    else:
        _load_plain(text, col)
    if not col.scores:
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
