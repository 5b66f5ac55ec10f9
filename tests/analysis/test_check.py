"""``check``: solvability with a witness, or an explanation whose core is verified independently."""

import json

from csp_crossword.analysis.checking import check
from csp_crossword.backends import get_backend
from csp_crossword.cli import main
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from conftest import GRIDS

WORDS = ["CAT", "CDE", "AOE", "TGM", "ACE", "DOG", "EEL", "ARE", "TEN"]


def _unsat_with(grid, lexicon, slot_ids) -> bool:
    """Independent prover: python-constraint on the sub-problem of these slots."""
    problem = build_problem(grid, lexicon, slot_ids=slot_ids)
    return get_backend("pyconstraint")().solve(problem, time_limit=60).status == Status.UNSATISFIABLE


def test_solvable_grid_has_verified_witness():
    grid = parse_grid("..\n..")
    lexicon = Lexicon.from_words(["AB", "CD", "AC", "BD"])
    report = check(grid, lexicon)
    assert report.status == "solvable"
    assert verify_fill(grid, report.witness.cells, lexicon) == []


def test_core_is_unsatisfiable_and_minimal():
    grid = parse_grid("CAT\n...\n...")
    lexicon = Lexicon.from_words(WORDS)
    report = check(grid, lexicon)
    assert report.status == "unsolvable"
    assert report.core and report.core_minimal
    assert len(report.core) < len(grid.slots)
    assert _unsat_with(grid, lexicon, report.core)
    for slot_id in report.core:  # every slot of the core is needed
        assert not _unsat_with(grid, lexicon, [s for s in report.core if s != slot_id])
    assert report.patterns["3D"] == "T??"


def test_missing_length_is_reported_as_structure_and_core(words_lexicon):
    report = check(read_grid(GRIDS / "vanbeek" / "h2301.txt"), words_lexicon)
    assert report.status == "unsolvable"
    assert report.structure["missing_lengths"] == [23]
    assert report.core in (["25A"], ["129A"])
    assert {slot_id for slot_id, _ in report.empty} == {"25A", "129A"}


def test_structure_flags_short_entries_and_regions():
    grid = parse_grid("..#...\n..#...")
    report = check(grid, Lexicon.from_words(["AB", "CD", "AC", "BD", "EFG", "HIJ", "EH", "FI", "GJ"]))
    s = report.structure
    assert s["short_slots"] == ["1A", "6A", "1D", "2D", "3D", "4D", "5D"]
    assert len(s["components"]) == 2
    assert "mirror-tb" in s["symmetry"]


def test_check_cli_exit_codes_and_json(capsys, write):
    grid = write("g.txt", "CAT\n...\n...\n")
    words = write("w.txt", "\n".join(WORDS) + "\n")
    code = main(["check", grid, "--words", words, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "unsolvable"
    assert set(data["core"]) == {"5A", "3D"} and data["grid"] is None
    code = main(["check", grid, "--words", words])
    out = capsys.readouterr().out
    assert code == 1 and "cannot be filled together" in out and "T??" in out
    ok = write("ok.txt", "..\n..\n")
    code = main(["check", ok, "--words", write("v.txt", "AB\nCD\nAC\nBD\n"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["status"] == "solvable" and data["grid"] in (["AB", "CD"], ["AC", "BD"])


def test_check_unknown_exit_3(capsys, words_lexicon, benchmark_words):
    # h2306: hard with the benchmark dictionary and the stand-in list alike; 3 s leave a busy
    # machine time to read the list and start the search before the limit
    code = main(["check", str(GRIDS / "vanbeek" / "h2306.txt"), "--words", str(benchmark_words), "--time-limit", "3"])
    out = capsys.readouterr().out
    assert code == 3 and out.startswith("unknown")


def test_check_counts_words_after_the_threshold_and_names_it_as_the_cause(capsys, write):
    grid = parse_grid("..\n..")
    lexicon = Lexicon.from_words(["AB", "CD", "AC", "BD"], scores={"AB": 60, "CD": 60, "AC": 10, "BD": 10})
    report = check(grid, lexicon, FillOptions(min_score=50))
    assert report.status == "unsolvable" and report.filter_is_cause is True
    assert report.structure["lengths"] == [{"length": 2, "slots": 4, "words": 2, "listed": 4}]
    # Without a usable fill even unfiltered, the threshold is not the cause.
    hopeless = Lexicon.from_words(["AB", "CD", "XY"], scores={"AB": 60, "CD": 60, "XY": 10})
    assert check(grid, hopeless, FillOptions(min_score=50)).filter_is_cause is False
    assert check(grid, lexicon).filter_is_cause is None  # solvable, nothing filtered
    words = write("w.txt", "AB;60\nCD;60\nAC;10\nBD;10\n")
    code = main(["check", write("g.txt", "..\n..\n"), "--words", words, "--min-score", "50", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["filter_is_cause"] is True and data["structure"]["lengths"][0]["listed"] == 4
