"""Rebus cells filled with the list's entries that spell them, checked against a brute force that
reads every entry as the letters of its cells."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from csp_crossword import api
from csp_crossword.api.jobs import prepare
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import build_problem


def rebus_grid(rows: list[str], rebus: dict[tuple[int, int], str]):
    """The package's grid of ``rows`` ("." open, "#" block) with ``rebus`` letters in their cells."""
    grid = parse_grid("\n".join(rows))
    cells = [list(row) for row in grid.cells]
    for (r, c), letters in rebus.items():
        cells[r][c] = letters
    return grid.with_cells(cells)


def brute_fills(rows: list[str], rebus: dict[tuple[int, int], str], words: set[str], letters: str) -> set[tuple]:
    """Every fill (as rows of cell texts) by the documented rules, trying every letter in every
    open cell: a slot through a rebus uses a list word spelling the rebus there in full (or, when
    no word does, one with the rebus's first letter there); a word goes in the slots through a
    rebus that spell it as the first of them does (a slot complete through rebus cells first,
    then in slot order), and in no slot without one; no word is used twice."""
    free = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "." and (r, c) not in rebus]
    slots = [slot.cells for slot in parse_grid("\n".join(rows)).slots]
    own: dict[int, tuple[set[str], bool]] = {}  # rebus slot -> (the words it may use, read in full)
    claimed: dict[str, tuple] = {}  # word -> its cells in the first rebus slot that can use it
    # a slot complete through rebus cells is the user's own entry: it claims its word first
    for k, slot in sorted(enumerate(slots), key=lambda pair: not all(cell in rebus for cell in pair[1])):
        if not any(cell in rebus for cell in slot):
            continue
        full = "".join(rebus.get(cell, ".") for cell in slot)
        in_full = any(re.fullmatch(full, word) for word in words)
        if all(cell in rebus for cell in slot) and not in_full:
            own[k] = ({full}, True)  # the user's own entry the list lacks: kept as given
            continue
        pattern = full if in_full else "".join(rebus[cell][0] if cell in rebus else "." for cell in slot)
        allowed = set()
        for word in (w for w in words if re.fullmatch(pattern, w)):
            pieces, at = [], 0
            for cell in slot:
                size = len(rebus[cell]) if cell in rebus and in_full else 1
                pieces.append(rebus[cell] if cell in rebus else word[at])
                at += size
            if claimed.setdefault(word, (len(slot), tuple(pieces))) == (len(slot), tuple(pieces)):
                allowed.add(word)
        own[k] = (allowed, in_full)
    found = set()
    for choice in itertools.product(letters, repeat=len(free)):
        cells = dict(zip(free, choice, strict=True)) | rebus
        used = []
        for k, slot in enumerate(slots):
            if k in own:
                allowed, in_full = own[k]
                word = "".join(cells[cell] if in_full or cell not in rebus else rebus[cell][0] for cell in slot)
                ok = word in allowed
            else:
                word = "".join(cells[cell] for cell in slot)
                ok = word in words and word not in claimed
            if not ok:
                break
            used.append(word)
        else:
            if len(set(used)) == len(used):
                found.add(tuple(tuple(cells.get((r, c)) for c in range(len(rows[0]))) for r in range(len(rows))))
    return found


def package_fills(grid, words: set[str]) -> set[tuple]:
    fills, _short = package_fills_and_short(grid, words)
    return fills


def package_fills_and_short(grid, words: set[str]) -> tuple[set[tuple], set[tuple[str, str]]]:
    """The package's fills, and the (slot, rebus) its fills read as the rebus's first letter."""
    stream = api.enumerate_fills(grid, sorted(words), time_limit=60)
    fills, short = set(), set()
    for result in stream:
        fills.add(tuple(tuple(cell or None for cell in row) for row in result.cells))
        short.update(result.rebus_first_letter)
    assert stream.complete
    return fills, short


def spells(rows: list[str], rebus: dict[tuple[int, int], str], slot_id: str, words: set[str]) -> bool:
    """Whether a list word fits the slot reading its rebus cells in full (its other cells open)."""
    slot = parse_grid("\n".join(rows)).slot(slot_id)
    pattern = "".join(rebus.get(cell, ".") for cell in slot.cells)
    return any(re.fullmatch(pattern, word) for word in words)


def test_a_rebus_cell_is_filled_with_entries_that_spell_it():
    grid = rebus_grid(["....", "....", "....", "...."], {(0, 0): "HEART"})
    result = api.fill(grid, None, time_limit=60)
    assert result.status == Status.FILLED
    assert result.cells[0][0] == "HEART"
    across, down = (next(e for e in result.entries if e.id == slot_id) for slot_id in ("1A", "1D"))
    for entry in (across, down):
        assert entry.answer.startswith("HEART") and len(entry.answer) == 8
        assert entry.answer in api.load_words()  # the list's own entry, spelt through the rebus
    assert not result.rebus_first_letter


#: Grids and their rebus cells: one rebus, one in a slot whose crossing is plain, two of one rebus
#: in a slot, two rebuses at the same place of their slots, and short slots an entry spelled
#: through a rebus could also fill written out.
REBUS_GRIDS = [
    (["...", "...", "..."], {(0, 0): "AB"}),
    (["...", "...", ".##"], {(0, 0): "AB"}),
    (["....", "#..#"], {(0, 1): "BA"}),
    (["...", "..."], {(0, 0): "AB", (0, 2): "AB"}),
    (["...", "...", "..."], {(1, 1): "AB"}),
    (["...", "...", "..."], {(0, 0): "AB", (1, 0): "BA"}),
    (["....", "....", "....", "#..."], {(0, 0): "AB"}),
    (["...", "..."], {(0, 0): "AB", (0, 2): "BA"}),
    (["...", "..."], {(0, 1): "BB", (1, 1): "BA", (1, 2): "AB"}),
]


@pytest.mark.parametrize("seed", range(18))
def test_every_fill_through_a_rebus_is_found_and_each_spells_list_words(seed):
    rng = random.Random(seed)
    rows, rebus = REBUS_GRIDS[seed % len(REBUS_GRIDS)]
    words = {"".join(rng.choice("AB") for _ in range(n)) for n in (2, 3, 4) for _ in range(9)}
    words |= {"".join(rng.choice(["A", "B", "AB"]) for _ in range(n)) for n in (2, 3) for _ in range(6)}
    fills, short = package_fills_and_short(rebus_grid(rows, rebus), words)
    # read as the first letter only where no list word spells the rebus
    assert not any(spells(rows, rebus, slot_id, words) for slot_id, _letters in short)
    expected = brute_fills(rows, rebus, words, "AB")
    assert fills == expected
    counted = api.count(rebus_grid(rows, rebus), sorted(words), time_limit=60)
    assert counted.exact and counted.count == len(expected)


def test_a_stand_in_never_lands_in_a_cell_without_the_rebus():
    # a relaxed problem (only some slots' constraints, as the core search and the page's
    # fill-ability build) has no crossing to rule out ABAA, written [AB]AA, in row 2: the rebus
    # letters may still only stand in their own cell
    grid = rebus_grid(["...", "...", "..."], {(0, 0): "AB"})
    job = prepare(grid, ["ABAA", "ABAB", "AAA", "BAB", "ABA", "BBB"])
    stand_in = next(iter(job.rebus.letters))
    relaxed = build_problem(job.grid, job.lexicon, job.problem.options, slot_ids=["4A"])
    assert relaxed.candidates("4A") and all(stand_in not in word for word in relaxed.candidates("4A"))
    assert all(stand_in in word for word in job.problem.candidates("1A"))


def test_an_entry_the_list_cannot_spell_reads_the_rebus_as_its_first_letter_and_says_so():
    rows = ["..", "..", ".."]
    rebus = {(0, 0): "XY"}
    words = {"XYA", "XAB", "AB", "BA", "ABA"}  # 1A spells XY (XYA); no word spells XY?? down
    result = api.fill(rebus_grid(rows, rebus), sorted(words), time_limit=30)
    assert result.status == Status.FILLED
    assert result.cells[0][0] == "XY"
    entries = {e.id: e.answer for e in result.entries}
    assert entries["1A"] == "XYA"  # read in full where the list has it
    assert result.rebus_first_letter == [("1D", "XY")]
    assert entries["1D"] == "XYAB"  # the cell reads XY; XAB, read with its first letter, made it fit


def test_check_and_candidates_show_the_rebus_letters_not_a_stand_in():
    grid = rebus_grid(["...", "...", "..."], {(0, 0): "QZ"})
    words = ["QZAB", "QZBA", "ABA", "BAB", "AAB"]
    slot = api.candidates(grid, "1A", words)
    assert slot.pattern == "QZ??"
    assert {entry for entry, _shown, _score in slot.words} <= {"QZAB", "QZBA"}
    report = api.check(grid, words, time_limit=30)
    assert report.status in {"solvable", "unsolvable"}
    if report.witness is not None:
        assert report.witness.cells[0][0] == "QZ"
    text = " ".join(report.patterns.values()) + " ".join(why for _slot, why in report.empty)
    assert all(ord(ch) < 0xA500 or ord(ch) > 0xA60B for ch in text)


def test_roots_are_found_through_a_rebus():
    # the only fill: 1A R[ES]T reads REST, 4A RESTS; the two share a root, named as in plain text
    grid = rebus_grid(["...##", "....."], {(0, 1): "ES"})
    result = api.fill(grid, ["REST", "RESTS", "RR", "ESE", "TS"], time_limit=30)
    assert result.status == Status.FILLED
    assert {e.id: e.answer for e in result.entries}["1A"] == "REST"
    assert result.shared_roots == [("1A", "4A")]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"no_shared_substring": 3}, "--no-shared-substring is not available on a grid with a rebus cell"),
        ({"require": {"1A": "AAB"}}, "clashes with the given letters QZ??"),
    ],
)
def test_what_a_rebus_grid_cannot_do_is_said_in_its_letters(settings, message):
    grid = rebus_grid(["...", "...", "..."], {(0, 0): "QZ"})
    with pytest.raises(InputError, match=re.escape(message)):
        api.fill(grid, ["QZAB", "ABA", "AAB"], time_limit=10, **settings)


def test_the_minizinc_export_names_a_rebus_by_its_letters():
    data = api.export_minizinc(rebus_grid(["...", "...", "..."], {(0, 0): "QZ"}), ["QZAB", "ABA", "AAB"])
    assert "QZ" in data and not any(0xA500 <= ord(ch) <= 0xA60B for ch in data)


def test_a_theme_entry_placed_through_a_rebus_spells_it():
    from csp_crossword.api.givens import Placement

    grid = rebus_grid(["...", "...", "..."], {(0, 0): "QZ"})
    words = ["QZAB", "QZBA", "ABA", "BAB", "AAB", "BBA", "ABB", "QZAA", "BAA"]
    result = api.fill(grid, words, theme=[Placement(0, 0, "A", "QZAB")], time_limit=30)
    assert result.status == Status.FILLED
    assert result.cells[0] == ("QZ", "A", "B")
    assert {e.id: e.answer for e in result.entries}["1A"] == "QZAB"
    # a theme entry that does not spell the rebus where it stands is refused with the reason
    with pytest.raises(InputError, match="4 letters for a slot of 3"):
        api.fill(grid, words, theme=[Placement(0, 0, "A", "ABAB")], time_limit=30)


def test_the_users_own_entries_keep_their_words_from_the_slots_through_a_rebus():
    # 3A is typed in full through the rebus TAR and reads STAR; 1A, through ST, could spell STAR
    # too: the typed entry keeps it, 1A takes another word (never STAR twice, never a crash)
    grid = rebus_grid(["...", "..#"], {(0, 0): "ST", (1, 1): "TAR"})
    cells = [list(row) for row in grid.cells]
    cells[1][0] = "S"
    typed = grid.with_cells(cells)
    result = api.fill(typed, ["STAR", "STS", "ATAR", "STEM", "ETAR"], time_limit=30)
    assert result.status == Status.FILLED
    assert {e.id: e.answer for e in result.entries} == {"1A": "STEM", "3A": "STAR", "1D": "STS", "2D": "ETAR"}
    assert not result.given  # STAR is a word of the list, read through the rebus
    # a required plain entry keeps its word the same way
    plain = rebus_grid(["...#...."], {(0, 0): "ST"})
    required = api.fill(plain, ["STAR", "STEM"], require={"2A": "STAR"}, time_limit=30)
    assert {e.id: e.answer for e in required.entries} == {"1A": "STEM", "2A": "STAR"}


def test_two_of_the_users_entries_using_one_word_through_a_rebus_are_refused():
    grid = rebus_grid(["...#...."], {(0, 0): "ST"})
    with pytest.raises(InputError, match="1A and 2A both hold STAR"):
        api.fill(grid, ["STAR", "STEM"], require={"1A": "STAR", "2A": "STAR"}, time_limit=30)


def test_a_stand_in_is_never_a_glyph_the_grid_already_holds():
    first_stand_in = chr(0xA500)  # typed in the grid: the rebus must stand in as another glyph
    grid = rebus_grid(["..", ".."], {(0, 0): "ST"})
    cells = [list(row) for row in grid.cells]
    cells[1][1] = first_stand_in
    words = ["STA", "STB", "A" + first_stand_in, "B" + first_stand_in, "STAB"]
    result = api.fill(grid.with_cells(cells), words, time_limit=30)
    assert result.status == Status.FILLED
    assert result.cells[1][1] == first_stand_in and result.cells[0][0] == "ST"
