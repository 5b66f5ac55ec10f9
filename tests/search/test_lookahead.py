"""The look-ahead of ``candidates`` (csp_crossword/search/lookahead.py), checked from the outside.

Every expectation here is computed again by brute force over the word list and the grid's
cells, not by the propagation Network: a naive arc consistency written below (sets of words,
re-filtered until nothing changes), the forward-check counts by scanning the words, and, on the
tiny grids, every fill by exhaustive search.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import threading
import time

import pytest
from csp_crossword import api
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import Grid, parse_grid
from csp_crossword.search.lookahead import Verdict, look_ahead
from csp_crossword.search.problem import build_problem
from csp_crossword.words.lexicon import Lexicon

from conftest import GRIDS, STAND_IN

# An open 3x3 whose only fills start BAN or BET at 1A; arc consistency keeps EAT, NAB, NAN and
# TEN there too, but each of them is a dead end once placed.
NINE = {"BET": 90, "ARE": 80, "ERA": 70, "EAT": 85, "TEN": 60, "BAN": 95, "NAB": 50, "TAR": 40, "NAN": 30}
OPEN_3X3 = "...\n...\n..."
# A 4x4 with two blocks and one fill (the first eight words); arc consistency keeps 28 words in
# its slots, of which 20 are dead ends once placed.
FOUR_WORDS = (
    "AT REAL EDGE OS AREA TED ALES AGO SEO RASA DT GOTT SEES GETS SAD ESSE AGAR GST DOR RAE SD TOA SOTO "
    "ELSA ERE RG ROS SEER GOAD TES LAGO SEE LEAR ETAT ERGO GEA EAST GOAT"
)
BLOCKED_4X4 = "..#.\n....\n....\n.#.."
FOUR = {w: 20 + 7 * k % 70 for k, w in enumerate(FOUR_WORDS.split())}
# Four two-letter Greek words: a square with two fills, glyphs outside ASCII.
GREEK = {"ΑΒ": 80, "ΓΔ": 70, "ΑΓ": 60, "ΒΔ": 50, "ΒΓ": 40}


# --- brute force, independent of csp_crossword.search.propagation -------------------------------------


def crossing_pairs(grid: Grid) -> list[tuple[str, int, str, int]]:
    """(slot a, position in a, slot b, position in b) for every cell two slots share."""
    where: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for slot in grid.slots:
        for k, cell in enumerate(slot.cells):
            where.setdefault(cell, []).append((slot.id, k))
    pairs = []
    for users in where.values():
        for (a, i), (b, j) in itertools.permutations(users, 2):
            pairs.append((a, i, b, j))
    return pairs


def pattern_words(grid: Grid, words: list[str]) -> dict[str, set[str]]:
    """Per slot, the words of its length that agree with its given glyphs."""
    return {
        slot.id: {
            w
            for w in words
            if len(w) == slot.length and all(not g or g == w[k] for k, g in enumerate(grid.pattern(slot)))
        }
        for slot in grid.slots
    }


def naive_domains(
    grid: Grid, words: list[str], placed: tuple[str, str] | None = None, start: dict[str, set[str]] | None = None
) -> dict[str, set[str]]:
    """Arc consistency by brute force: each slot keeps the words of its length matching its
    given glyphs (``placed``: one slot holds one word); then, until nothing changes, a word goes
    when a crossing slot has no word with its glyph in the shared cell, and (no repeats) a slot
    down to one word takes that word from every other slot. ``start``: the domains without
    ``placed`` (the same fixpoint is reached from them, sooner)."""
    domains = pattern_words(grid, words) if start is None else {slot_id: set(d) for slot_id, d in start.items()}
    if placed is not None:
        domains[placed[0]] &= {placed[1]}
    pairs = crossing_pairs(grid)
    lengths = {slot.id: slot.length for slot in grid.slots}
    changed = True
    while changed:
        changed = False
        for a, i, b, j in pairs:
            glyphs = {w[j] for w in domains[b]}
            kept = {w for w in domains[a] if w[i] in glyphs}
            if kept != domains[a]:
                domains[a], changed = kept, True
        for a, words_of_a in list(domains.items()):
            if len(words_of_a) == 1:
                for b in domains:
                    if b != a and lengths[b] == lengths[a] and domains[b] & words_of_a:
                        domains[b] = domains[b] - words_of_a
                        changed = True
    return domains


def forward_counts(grid: Grid, domains: dict[str, set[str]], slot_id: str, word: str) -> dict[str, int]:
    """Per crossing of ``slot_id`` (in the slot's cell order), the words of the crossing slot's
    domain with ``word``'s glyph in the shared cell."""
    counts = {}
    for a, i, b, j in sorted(crossing_pairs(grid), key=lambda pair: pair[1]):
        if a == slot_id:
            counts[b] = sum(1 for w in domains[b] if w[j] == word[i])
    return counts


def all_fills(grid: Grid, words: list[str]) -> list[dict[str, str]]:
    """Every fill (slot id -> word, no word twice) by exhaustive search over the cells."""
    slots = list(grid.slots)
    fills: list[dict[str, str]] = []

    def extend(k: int, cells: dict[tuple[int, int], str], chosen: dict[str, str]) -> None:
        if k == len(slots):
            fills.append(dict(chosen))
            return
        slot = slots[k]
        for w in words:
            if len(w) != slot.length or w in chosen.values():
                continue
            pattern = grid.pattern(slot)
            if all((cells.get(cell) or pattern[n] or w[n]) == w[n] for n, cell in enumerate(slot.cells)):
                extend(k + 1, {**cells, **dict(zip(slot.cells, w, strict=True))}, {**chosen, slot.id: w})

    extend(0, {}, {})
    return fills


def best_first(words: dict[str, int]) -> list[str]:
    return sorted(words, key=lambda w: (-words[w], w))


# --- the library function ------------------------------------------------------------------------


def check_against_brute_force(grid: Grid, lexicon: Lexicon, slot_id: str, fills: list[dict[str, str]] | None):
    """Look ahead at every word of the slot and check each verdict and count by brute force."""
    words = list(lexicon.scores)
    problem = build_problem(grid, lexicon)
    outlook = look_ahead(problem, slot_id, limit=None, budget=60.0)
    root = naive_domains(grid, words)
    assert outlook.total == len(root[slot_id])
    assert [row.entry for row in outlook.words] == best_first({w: lexicon.scores[w] for w in root[slot_id]})
    for row in outlook.words:
        counts = forward_counts(grid, root, slot_id, row.entry)
        assert dict(row.crossings) == counts and list(dict(row.crossings)) == list(counts), row.entry
        after = naive_domains(grid, words, (slot_id, row.entry), root)
        emptied = [s for s, domain in after.items() if not domain]
        if row.verdict is Verdict.DEAD_END:
            # a crossing with no matching word, or arc consistency empties some slot
            assert 0 in counts.values() or emptied, row.entry
            if fills is not None:
                assert all(fill[slot_id] != row.entry for fill in fills), f"{row.entry} is in a fill"
        else:
            assert row.verdict is Verdict.VIABLE and not emptied, row.entry
        if fills is not None and any(fill[slot_id] == row.entry for fill in fills):
            assert row.verdict is Verdict.VIABLE
    assert outlook.dead_ends == sum(row.verdict is Verdict.DEAD_END for row in outlook.words)
    assert outlook.viable == sum(row.verdict is Verdict.VIABLE for row in outlook.words)
    assert outlook.unknown == 0 and not outlook.budget_spent
    return outlook


@pytest.mark.parametrize(
    ("text", "words"), [(OPEN_3X3, NINE), (BLOCKED_4X4, FOUR), ("..\n..", GREEK), ("B..\n...\n...", NINE)]
)
def test_every_verdict_and_count_of_a_tiny_grid_matches_brute_force(text, words):
    grid = parse_grid(text)
    lexicon = Lexicon.from_words(list(words), scores=words)
    fills = all_fills(grid, list(words))
    for slot in grid.slots:
        check_against_brute_force(grid, lexicon, slot.id, fills)


def test_the_nine_word_square_marks_the_words_that_start_no_fill():
    grid = parse_grid(OPEN_3X3)
    fills = all_fills(grid, list(NINE))
    assert {fill["1A"] for fill in fills} == {"BAN", "BET"}
    outlook = check_against_brute_force(grid, Lexicon.from_words(list(NINE), scores=NINE), "1A", fills)
    verdicts = {row.entry: row.verdict for row in outlook.words}
    assert verdicts == {
        "BAN": Verdict.VIABLE,
        "EAT": Verdict.DEAD_END,
        "BET": Verdict.VIABLE,
        "TEN": Verdict.DEAD_END,
        "NAB": Verdict.DEAD_END,
        "NAN": Verdict.DEAD_END,
    }
    assert all(row.emptied for row in outlook.words if row.verdict is Verdict.DEAD_END)


@pytest.mark.parametrize(("name", "every"), [("mini-5x5.txt", 12), ("blocks-7x7.txt", 12), ("prefilled-7x7.txt", 6)])
def test_demo_grids_match_brute_force_arc_consistency(name, every):
    grid = parse_grid((GRIDS / "demo" / name).read_text())
    # every 12th word of the stand-in list is too few for prefilled-7x7's 12A: every 6th then
    lexicon = Lexicon.from_words(STAND_IN.read_text().split()[::every] + ["CAT", "DOG"])
    problem = build_problem(grid, lexicon)
    assert not problem.unsatisfiable
    words = list(lexicon.scores)
    root = naive_domains(grid, words)
    for slot in grid.slots[:: max(1, len(grid.slots) // 4)]:  # a few slots of each grid
        outlook = look_ahead(problem, slot.id, limit=12, budget=60.0)
        assert outlook.total == len(root[slot.id])
        for row in outlook.words:
            assert dict(row.crossings) == forward_counts(grid, root, slot.id, row.entry)
            emptied = any(not d for d in naive_domains(grid, words, (slot.id, row.entry), root).values())
            assert (row.verdict is Verdict.DEAD_END) == emptied, (slot.id, row.entry)


def test_the_forward_check_refutes_words_of_domains_not_yet_arc_consistent():
    # At an arc-consistent root every word has a support in every crossing, so the forward
    # check refutes nothing there; from domains that only match the slots' patterns it does.
    grid = parse_grid("B..\n...\n...")
    lexicon = Lexicon.from_words(list(NINE), scores=NINE)
    built = build_problem(grid, lexicon)
    matching = pattern_words(grid, list(NINE))
    bitsets = tuple(sum(1 << built.index_of(slot_id).position[w] for w in matching[slot_id]) for slot_id in matching)
    problem = dataclasses.replace(built, domains=bitsets, root=None)
    refuted_anywhere = 0
    for slot in grid.slots:
        outlook = look_ahead(problem, slot.id, limit=None, propagate=False)
        assert outlook.total == len(matching[slot.id])
        refuted = 0
        for row in outlook.words:
            counts = forward_counts(grid, matching, slot.id, row.entry)
            assert dict(row.crossings) == counts
            if 0 in counts.values():
                refuted += 1
                assert row.verdict is Verdict.DEAD_END and counts[row.emptied] == 0, row.entry
            else:
                assert row.verdict is Verdict.UNKNOWN, row.entry
        assert outlook.dead_ends == refuted and outlook.viable == outlook.examined == 0
        refuted_anywhere += refuted
    assert refuted_anywhere > 0


def test_viable_only_skips_dead_ends_and_keeps_looking():
    lexicon = Lexicon.from_words(list(NINE), scores=NINE)
    problem = build_problem(parse_grid(OPEN_3X3), lexicon)
    outlook = look_ahead(problem, "1A", limit=3, viable_only=True, budget=60.0)
    # BAN and BET are viable; EAT, TEN, NAB and NAN are dead ends, checked and skipped
    assert [(row.entry, row.verdict) for row in outlook.words] == [("BAN", Verdict.VIABLE), ("BET", Verdict.VIABLE)]
    assert outlook.examined == 6 and outlook.dead_ends == 4 and not outlook.budget_spent
    everything = look_ahead(problem, "1A", limit=None, viable_only=True, budget=60.0)
    assert [row.entry for row in everything.words] == ["BAN", "BET"]
    assert everything.dead_ends == 4 and everything.viable == 2 and not everything.budget_spent


def test_no_time_budget_leaves_every_word_unknown():
    lexicon = Lexicon.from_words(list(NINE), scores=NINE)
    problem = build_problem(parse_grid(OPEN_3X3), lexicon)
    stopped = threading.Event()
    stopped.set()
    for keywords in ({"budget": 0.0}, {"stop": stopped}, {"deadline": time.monotonic() - 1}):
        outlook = look_ahead(problem, "1A", limit=None, **keywords)
        assert {row.verdict for row in outlook.words} == {Verdict.UNKNOWN}, keywords
        assert outlook.examined == 0 and outlook.budget_spent and outlook.unknown == outlook.total == 6
        # the counts do not need the budget
        assert dict(outlook.words[0].crossings) == {"1D": 2, "2D": 1, "3D": 2}
        viable_only = look_ahead(problem, "1A", limit=3, viable_only=True, **keywords)
        assert [row.verdict for row in viable_only.words] == [Verdict.UNKNOWN] * 3 and viable_only.budget_spent


def test_a_budget_stops_between_checks(sparse_lexicon):
    problem = build_problem(parse_grid((GRIDS / "demo" / "blocks-7x7.txt").read_text()), sparse_lexicon)
    outlook = look_ahead(problem, "1A", limit=None, budget=0.005)
    verdicts = [row.verdict for row in outlook.words]
    assert outlook.examined < outlook.total and Verdict.UNKNOWN in verdicts and outlook.budget_spent
    # best first: every checked word ranks above every unchecked one
    first_unknown = verdicts.index(Verdict.UNKNOWN)
    assert set(verdicts[first_unknown:]) == {Verdict.UNKNOWN}
    assert outlook.examined == first_unknown


def test_the_budget_is_checks_not_seconds(sparse_lexicon, monkeypatch):
    # A machine so slow that every look at the clock finds 20 ms gone (the whole 0.01 s check
    # time at the first look) still makes the same checks: the budget is counted in checks, the
    # clock only caps the whole at CHECK_CAP_FLOOR seconds here.
    from csp_crossword.search import lookahead

    problem = build_problem(parse_grid((GRIDS / "demo" / "blocks-7x7.txt").read_text()), sparse_lexicon)
    allowed = lookahead.check_budget(problem, 0.01)
    idle = look_ahead(problem, "1A", limit=None, budget=0.01)
    assert 3 < allowed == idle.examined < idle.total and idle.budget_spent  # the budget binds
    real_clock = time.monotonic
    ticks = itertools.count()
    monkeypatch.setattr(lookahead.time, "monotonic", lambda: real_clock() + 0.02 * next(ticks))
    busy = look_ahead(problem, "1A", limit=None, budget=0.01)
    monkeypatch.undo()
    assert [(row.entry, row.verdict, row.emptied) for row in busy.words] == [
        (row.entry, row.verdict, row.emptied) for row in idle.words
    ]
    assert (busy.examined, busy.viable, busy.dead_ends) == (idle.examined, idle.viable, idle.dead_ends)


def test_a_check_budget_grows_with_the_time_and_shrinks_with_the_grid(sparse_lexicon):
    from csp_crossword.search import lookahead

    small = build_problem(parse_grid(OPEN_3X3), Lexicon.from_words(list(NINE), scores=NINE))
    large = build_problem(parse_grid((GRIDS / "demo" / "blocks-7x7.txt").read_text()), sparse_lexicon)
    assert lookahead.check_budget(small, 0.0) == lookahead.check_budget(large, 0.0) == 0
    assert lookahead.check_budget(large, 1e-9) == 1  # any time at all buys a check
    assert lookahead.check_budget(small, 0.1) > lookahead.check_budget(large, 0.1) > 0
    assert lookahead.check_budget(large, 1.0) >= 9 * lookahead.check_budget(large, 0.1)
    for endless in (float("inf"), 1e308):  # no overflow on the way
        assert lookahead.check_budget(large, endless) > large.domains[0].bit_count()
    assert lookahead.check_cap(0.1) >= lookahead.CHECK_CAP_FLOOR and lookahead.check_cap(0.0) == 0.0


def test_api_candidates_report_statuses_and_totals():
    found = api.candidates(OPEN_3X3, "1A", NINE, limit=3)
    assert [w for w, _shown, _score in found.words] == ["BAN", "BET", "EAT"]
    assert found.statuses == ["viable", "viable", "dead_end"]
    assert found.crossings[0] == {"1D": 2, "2D": 1, "3D": 2}
    assert (found.total, found.dead_ends, found.viable, found.examined, found.unknown) == (6, 1, 2, 3, 3)
    plain = api.candidates(OPEN_3X3, "1A", NINE, limit=3, lookahead=False)
    assert plain.statuses == ["unknown"] * 3 and plain.examined == 0 and plain.words == found.words
    viable = api.candidates(OPEN_3X3, "1A", NINE, limit=None, viable_only=True)
    assert [w for w, _shown, _score in viable.words] == ["BAN", "BET"] and viable.dead_ends == 4
    with pytest.raises(InputError, match="look-ahead"):
        api.candidates(OPEN_3X3, "1A", NINE, viable_only=True, lookahead=False)


# --- the command line ----------------------------------------------------------------------------


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def nine(write):
    return write("g.txt", OPEN_3X3 + "\n"), write("w.txt", "".join(f"{w};{s}\n" for w, s in NINE.items()))


def test_cli_text_marks_each_word_and_counts_its_crossings(capsys, nine):
    grid, words = nine
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--limit", "0")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "1A ???: 6 candidates; 6 checked: 2 ok, 4 dead ends, 0 unchecked (?)"
    rows = {line.split()[2]: line.split() for line in lines[1:]}
    assert rows["BAN"][:5] == ["1.", "ok", "BAN", "95", "1D:2"] and rows["BAN"][5:7] == ["2D:1", "3D:2"]
    assert rows["EAT"][1] == "dead" and "without a word" in lines[3]
    assert [line.split()[2] for line in lines[1:]] == ["BAN", "BET", "EAT", "TEN", "NAB", "NAN"]


def test_cli_viable_only_and_no_lookahead(capsys, nine):
    grid, words = nine
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--viable-only")
    assert code == 0 and "dead ends not listed" in out.splitlines()[0]
    assert [line.split()[1:3] for line in out.splitlines()[1:]] == [["ok", "BAN"], ["ok", "BET"]]
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--no-lookahead", "--limit", "2")
    assert code == 0 and out.splitlines()[0] == "1A ???: 6 candidates"
    assert [line.split()[1] for line in out.splitlines()[1:]] == ["?", "?"]
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--check-time", "0", "--limit", "2")
    assert code == 0 and "check time ran out" in out and out.splitlines()[1].split()[1] == "?"
    code, _, err = run(capsys, "candidates", grid, "1A", "--words", words, "--viable-only", "--no-lookahead")
    assert code == 2 and "--viable-only" in err


def test_cli_json_has_status_crossings_and_totals(capsys, nine):
    grid, words = nine
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--limit", "3", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["total"], data["dead_ends"], data["viable"], data["unknown"]) == (6, 1, 2, 3)
    assert data["examined"] == 3 and data["budget_spent"] is False and data["viable_only"] is False
    first, _, third = data["candidates"]
    assert first == {
        "word": "BAN",
        "display": "BAN",
        "score": 95,
        "status": "viable",
        "crossings": {"1D": 2, "2D": 1, "3D": 2},
        "emptied": None,
    }
    assert third["word"] == "EAT" and third["status"] == "dead_end" and third["emptied"]
