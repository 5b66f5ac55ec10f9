"""Rebus cells: several letters in one cell, filled with the list's entries that spell them.

A cell holding ``HEART`` reads as those five letters in both its entries: SWEETHEART across
through ``SWEET[HEART]``, HEARTH down through ``[HEART]H``. Word lists hold no rebus entries, so a
fill job stands each rebus in for one glyph of its own (a letter no entry of the list uses) and
adds, for every slot through a rebus, the list's entries that spell the rebus at that place,
written with the stand-in and scored as the entry is. Every backend and the verifier then see an
ordinary grid; the answer is turned back (:meth:`RebusReading.result`) before anyone reads it.

A slot the list has no such entry for (no word of the list spells ``HEART`` there, or none above
the minimum score) reads the rebus as its first letter, as Across Lite's one-letter answer does;
the answer names it (``FillResult.rebus_first_letter``) so the constructor knows which entry needs
their own word.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.glyphs import normalize_entry, split_glyphs
from ..search.problem import RebusRules

if TYPE_CHECKING:
    from ..analysis.checking import CheckReport
    from ..core.grid import Grid, Slot
    from ..core.result import Candidates, FillResult
    from ..words.lexicon import Lexicon

#: Where the stand-ins come from: the Vai syllables (U+A500-U+A60B), letters (category Lo) of a
#: script no crossword list of ours holds; any the list does use are skipped.
STAND_IN_FIRST, STAND_IN_LAST = 0xA500, 0xA60B


@dataclass(frozen=True)
class RebusReading:
    """How a job reads its grid's rebus cells.

    Attributes:
        letters: Stand-in glyph -> the rebus letters it stands for.
        first_letter: (slot id, rebus) of the slots read with the rebus as its first letter,
            because the list has no entry spelling the rebus there.
    """

    letters: dict[str, str]
    first_letter: tuple[tuple[str, str], ...] = ()
    #: (row, col) -> stand-in of every rebus cell.
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    #: The rules the job's problem keeps (FillOptions.rebus).
    rules: RebusRules = field(default_factory=lambda: RebusRules(()))
    #: The grid as the user wrote it, rebus letters in their cells (what a job elsewhere starts from).
    original: Grid | None = None

    def entry(self, slot: Slot, word: str) -> str:
        """A user's entry for ``slot`` (SWEETHEART through a HEART cell) written with the
        stand-ins, as the job's list holds it; ``word`` unchanged when it does not spell the
        rebus letters in their cells."""
        if not any(cell in self.cells for cell in slot.cells):
            return word
        rebuses = [self.letters[self.cells[cell]] if cell in self.cells else "" for cell in slot.cells]
        pieces = cell_pieces(rebuses, split_glyphs(normalize_entry(word)))
        if pieces is None:
            return word
        return "".join(
            self.cells[cell] if piece is None else piece for cell, piece in zip(slot.cells, pieces, strict=True)
        )

    def text(self, text: str) -> str:
        """``text`` with each stand-in written as its rebus letters."""
        for stand_in, letters in self.letters.items():
            text = text.replace(stand_in, letters)
        return text

    def cell(self, value: str | None) -> str | None:
        """A fill's cell as the grid reads it: a stand-in as its rebus letters."""
        return self.letters.get(value, value) if value else value

    def misread(
        self, grid: Grid, cells: Sequence[Sequence[str | None]], lexicon: Lexicon, *, kept: Iterable[str], repeats: bool
    ) -> list[str]:
        """A fill's entries as the user's grid reads them, checked again: every entry through a
        rebus read in full is a word of ``lexicon`` (but the ``kept`` slots' given or required
        ones), and no two entries read the same unless ``repeats``."""
        short = {slot_id for slot_id, _letters in self.first_letter}
        skipped = short | set(kept)
        seen: dict[str, str] = {}
        problems = []
        for slot in grid.slots:
            entry = "".join(cells[r][c] or "" for r, c in slot.cells)
            read = self.text(entry)
            through = any(cell in self.cells for cell in slot.cells)
            if through and slot.id not in skipped and read not in lexicon:
                problems.append(f"{slot.id} reads {read}, which the word list does not hold")
            # an entry reading a rebus as its first letter uses the list's word of those letters
            used = self.first_letters(entry) if slot.id in short else read
            if not repeats and used in seen:
                problems.append(f"{seen[used]} and {slot.id} both use {used}")
            seen.setdefault(used, slot.id)
        return problems

    def through(self, grid: Grid, slot_id: str) -> bool:
        """Whether slot ``slot_id`` of ``grid`` passes through a rebus cell."""
        return any(cell in self.cells for cell in grid.slot(slot_id).cells)

    def used_word(self, slot_id: str, entry: str) -> str:
        """The list word ``entry`` (written with stand-ins) uses in slot ``slot_id``: its letters
        as read, or with each rebus's first letter where the slot reads it so."""
        short = any(slot == slot_id for slot, _letters in self.first_letter)
        return self.first_letters(entry) if short else self.text(entry)

    def keeping_out(self, used: Mapping[str, str]) -> RebusReading:
        """This reading with the words ``used`` (word -> the slot of the user's own entry using
        it: required, given, typed in full) taken from every other slot through a rebus."""
        if not used:
            return self
        slot_words = tuple(
            (slot_id, frozenset(e for e in entries if used.get(self.used_word(slot_id, e), slot_id) == slot_id))
            for slot_id, entries in self.rules.slot_words
        )
        spelled = frozenset(self.used_word(slot_id, entry) for slot_id, entries in slot_words for entry in entries)
        return replace(self, rules=replace(self.rules, slot_words=slot_words, spelled=spelled))

    def first_letters(self, entry: str) -> str:
        """``entry`` with each stand-in written as its rebus's first letter (the word it uses)."""
        for stand_in, letters in self.letters.items():
            entry = entry.replace(stand_in, split_glyphs(letters)[0])
        return entry

    def stray(self, grid: Grid, cells: Iterable[Iterable[str | None]]) -> list[str]:
        """The cells of a fill holding a stand-in that ``grid`` (with its stand-ins) does not
        have there: only a rebus cell may hold its letters."""
        return [
            f"row {r + 1}, column {c + 1} holds the rebus {self.letters[value]}, which is not the grid's"
            for r, row in enumerate(cells)
            for c, value in enumerate(row)
            if value in self.letters and grid.cells[r][c] != value
        ]

    def result(self, result: FillResult) -> FillResult:
        """``result`` as the user's grid reads: rebus cells hold their letters, entries spell them."""
        cells = None if result.cells is None else tuple(tuple(map(self.cell, row)) for row in result.cells)
        entries = [replace(entry, answer=self.text(entry.answer)) for entry in result.entries]
        weak = result.weak_spots
        if weak is not None:
            weak = replace(weak, entries=[self.text(e) for e in weak.entries])
        return replace(
            result,
            cells=cells,
            entries=entries,
            reason=None if result.reason is None else self.text(result.reason),
            weak_spots=weak,
            given=[(slot_id, self.text(entry)) for slot_id, entry in result.given],
            rebus_first_letter=list(self.first_letter),
        )

    def report(self, report: CheckReport) -> CheckReport:
        """A check's report as the user's grid reads: patterns, reasons and the witness."""
        return replace(
            report,
            witness=None if report.witness is None else self.result(report.witness),
            empty=[(slot_id, self.text(why)) for slot_id, why in report.empty],
            patterns={slot_id: self.text(pattern) for slot_id, pattern in report.patterns.items()},
            reason=None if report.reason is None else self.text(report.reason),
        )

    def candidates(self, found: Candidates) -> Candidates:
        """A slot's candidates as the user's grid reads them."""
        return replace(
            found,
            pattern=self.text(found.pattern),
            words=[(self.text(entry), self.text(shown), score) for entry, shown, score in found.words],
            unsatisfiable=None if found.unsatisfiable is None else self.text(found.unsatisfiable),
        )


def cell_pieces(rebuses: Sequence[str], glyphs: Sequence[str]) -> list[str | None] | None:
    """A word's glyphs one per cell: a cell whose rebus letters (``rebuses[k]``, "" for a cell
    without) the word spells there takes them all, given as None; any other cell one glyph. None
    when the glyphs do not come out even with the cells."""
    pieces: list[str | None] = []
    at = 0
    for rebus in rebuses:
        letters = split_glyphs(rebus)
        if letters and list(glyphs[at : at + len(letters)]) == letters:
            pieces.append(None)
            at += len(letters)
        elif at < len(glyphs):
            pieces.append(glyphs[at])
            at += 1
        else:
            return None
    return pieces if at == len(glyphs) else None


def rebus_cells(grid: Grid) -> dict[tuple[int, int], str]:
    """(row, col) -> letters of every cell holding more than one glyph."""
    return {
        (r, c): value
        for r, row in enumerate(grid.cells)
        for c, value in enumerate(row)
        if value and len(split_glyphs(value)) > 1
    }


def read_rebus(
    grid: Grid,
    lexicon: Lexicon,
    *,
    min_score: int | None = None,
    ban: Iterable[str] = (),
    repeats: bool = False,
) -> tuple[Grid, Lexicon, RebusReading | None]:
    """The grid with a stand-in in each rebus cell, the list with the entries that spell them, and
    how to read the answer back; ``grid`` and ``lexicon`` unchanged (and None) without a rebus.
    ``repeats``: a word may be used twice (else each goes in one slot through a rebus at most)."""
    found = rebus_cells(grid)
    if not found:
        return grid, lexicon, None
    typed = {value for row in grid.cells for value in row if value}
    stand_ins = _stand_ins(sorted(set(found.values())), set(lexicon.alphabet) | typed)
    cells = [list(row) for row in grid.cells]
    for (r, c), letters in found.items():
        cells[r][c] = stand_ins[letters]
    banned = {normalize_entry(word) for word in ban}
    added: dict[str, int] = {}
    slot_words: list[tuple[str, frozenset[str]]] = []
    spelled_words: set[str] = set()
    claimed: dict[str, str] = {}  # list word -> how the first slot through a rebus spells it
    first_letter: list[tuple[str, str]] = []
    # the entries the user typed in full claim their words first: theirs is the decision
    for slot in sorted(grid.slots, key=lambda slot: not all(grid.cells[r][c] for r, c in slot.cells)):
        through = [found[cell] for cell in slot.cells if cell in found]
        if not through:
            continue
        spelled = _spellings(grid, slot, found, stand_ins, lexicon, min_score, banned, full=True)
        if not spelled and all(grid.cells[r][c] for r, c in slot.cells):
            continue  # the user's own complete entry: kept as given (.givens)
        if not spelled:  # H for HEART: HAT as [HEART]AT, in this slot only
            spelled = _spellings(grid, slot, found, stand_ins, lexicon, min_score, banned, full=False)
            first_letter += [(slot.id, letters) for letters in through]
        # a list word spelt two ways in two slots (SWEET[HEART] and SWEETHE[ART]) goes in the first
        # only: written the same way, the fill's no-repeat rule already keeps it to one of them
        if not repeats:
            spelled = {entry: pair for entry, pair in spelled.items() if claimed.setdefault(pair[1], entry) == entry}
        spelled_words.update(word for _score, word in spelled.values())
        added.update({entry: score for entry, (score, _word) in spelled.items()})
        slot_words.append((slot.id, frozenset(spelled)))
    by_stand_in = {stand_in: rebus for rebus, stand_in in stand_ins.items()}
    rules = RebusRules(tuple(by_stand_in.items()), tuple(slot_words), frozenset(spelled_words))
    placed = {cell: stand_ins[rebus] for cell, rebus in found.items()}
    reading = RebusReading(by_stand_in, tuple(first_letter), placed, rules, grid)
    return grid.with_cells(cells), lexicon.with_entries(added) if added else lexicon, reading


def _stand_ins(rebuses: list[str], used: set[str]) -> dict[str, str]:
    """Rebus letters -> a glyph neither the list nor the grid uses."""
    free = [chr(code) for code in range(STAND_IN_FIRST, STAND_IN_LAST + 1) if chr(code) not in used]
    if len(rebuses) > len(free):
        raise InputError(f"a grid holds at most {len(free)} different rebus cells, not {len(rebuses)}")
    return dict(zip(rebuses, free, strict=False))


def _spellings(
    grid: Grid,
    slot: Slot,
    found: dict[tuple[int, int], str],
    stand_ins: dict[str, str],
    lexicon: Lexicon,
    min_score: int | None,
    banned: set[str],
    *,
    full: bool,
) -> dict[str, tuple[int, str]]:
    """Entry with stand-ins -> (score, the list's entry), for the list's entries that fit
    ``slot`` reading each of its rebus cells as all its letters (``full``) or as its first one."""
    pieces: list[list[str]] = []  # per cell: the glyphs it spells ("" for an open cell)
    for (r, c), value in zip(slot.cells, grid.pattern(slot), strict=True):
        letters = found.get((r, c))
        if letters is None:
            pieces.append([value])
        else:
            glyphs = split_glyphs(letters)
            pieces.append(glyphs if full else glyphs[:1])
    pattern = [glyph for piece in pieces for glyph in piece]
    if not lexicon.lengths().get(len(pattern)):
        return {}
    index = lexicon.index(len(pattern))
    spelled: dict[str, tuple[int, str]] = {}
    for word_id in index.iter_ids(index.match(pattern)):
        word, score = index.words[word_id], index.scores[word_id]
        if (min_score is not None and score < min_score) or word in banned:
            continue
        glyphs = split_glyphs(word)
        out, at = [], 0
        for (r, c), piece in zip(slot.cells, pieces, strict=True):
            letters = found.get((r, c))
            out.append(stand_ins[letters] if letters is not None else glyphs[at])
            at += len(piece)
        spelled["".join(out)] = (score, word)
    return spelled
