"""The unsolvable-grid benchmark's pure parts (benchmarks/unsat.py; not the benchmark itself):
the instance set, the solvers' command lines, the pycsp3/ACE model on tiny grids and the summary."""

from __future__ import annotations

import io
import json
import shutil
import sys

import pytest
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.words.lexicon import Lexicon

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import unsat


def test_instances_are_well_formed_and_their_grids_read():
    found = unsat.candidates()
    names = [i.name for i in found]
    assert len(names) == len(set(names))
    assert {i.family for i in found} == {"herald", "american", "min-score", "small", "given"}
    for instance in found:
        assert instance.words in (None, "words", "scowl-55"), instance.name
        assert instance.path.exists(), f"{instance.grid} missing (python benchmarks/unsat.py --make-grids)"
        grid = read_grid(instance.path)
        assert grid.slots, instance.name
        args = instance.cli_args()
        assert ("--words" in args) == (instance.words is not None)
        assert ("--min-score" in args) == (instance.min_score is not None)
    # the small grids on disk are the ones the script writes
    for name, rows in unsat.SMALL_GRIDS.items():
        assert unsat.grid_rows_of(unsat.GRID_DIR / f"{name}.txt") == rows
    # the made grids are their base pattern plus a few given letters in the top-left corner
    made = json.loads(unsat.MADE.read_text())
    for spec in unsat.GIVEN_SPECS:
        rows = unsat.grid_rows_of(unsat.GRID_DIR / f"{spec.name}.txt")
        base = unsat.grid_rows_of(ROOT / "grids" / "american" / f"{spec.base}.txt")
        changed = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != base[r][c]]
        assert len(changed) == spec.letters and set(changed) <= set(spec.cells(base))
        assert made[spec.name]["base"] == f"grids/american/{spec.base}.txt"


def test_verdicts_name_candidates_and_say_how():
    verdicts = unsat.read_verdicts()
    names = {i.name for i in unsat.candidates()}
    assert set(verdicts) <= names
    for name, verdict in verdicts.items():
        assert verdict["verdict"] in ("unsatisfiable", "satisfiable", "unknown"), name
        assert verdict["verdict"] == "unknown" or verdict["by"], name
        assert verdict["tried"], name
    chosen, left = unsat.unsolvable(unsat.candidates(), verdicts)
    assert {i.name for i in chosen} == {n for n, v in verdicts.items() if v["verdict"] == "unsatisfiable"}
    assert "words-h2301" in {i.name for i in chosen}
    assert len(chosen) + len(left) == len(names)


def test_select_takes_comma_separated_globs():
    found = unsat.select(unsat.candidates(), ["words-h2301,min70-open*", "scowl-am15-03"])
    assert [i.name for i in found] == ["words-h2301", "scowl-am15-03", "min70-open5", "min70-open6"]


def test_solvers_and_their_command_lines():
    assert unsat.parse_solver("ac-norestart").args == ("--backend-option", unsat.NO_RESTARTS)
    generic = unsat.parse_solver("fill:ac:nogoods=false")
    assert (generic.kind, generic.backend, generic.args) == ("fill", "ac", ("--backend-option", "nogoods=false"))
    assert unsat.parse_solver("check:cpsat").args == ()
    with pytest.raises(ValueError):
        unsat.parse_solver("gecode")
    instance = next(i for i in unsat.candidates() if i.name == "min70-open5")
    fill = unsat.ours_command(instance, unsat.NAMED_SOLVERS["cpsat-w2"], 3, 20)
    assert fill[fill.index("--workers") + 1] == "2" and "--strategy" in fill
    assert fill[fill.index("--min-score") + 1] == "70" and fill[fill.index("--seed") + 1] == "3"
    check = unsat.ours_command(instance, unsat.NAMED_SOLVERS["check-auto"], 0, 20)
    assert check[3] == "check" and "--strategy" not in check and check[check.index("--backend") + 1] == "auto"


def test_no_restarts_option_is_accepted_by_ac():
    from csp_crossword.backends import get_backend
    from csp_crossword.backends.options import parse_option_items

    backend = get_backend("ac")(parse_option_items([unsat.NO_RESTARTS]))
    assert backend.options.restart_policy == "geometric" and backend.options.restart_base >= 1e12


def test_qxw_deck_carries_given_letters():
    deck = unsat.qxw_given_deck(["C..", "...", "..#"]).splitlines()
    assert deck[0] == ".RANDOM 0"
    assert deck[1] == "0000 0001 0002 =C??"
    assert deck[2] == "0100 0101 0102"  # no given letter: no pattern
    assert "0000 0100 0200 =C??" in deck


WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED", "TEN", "OAT", "ZOO"]


def test_xcsp_data_is_the_problem_our_solver_sees():
    grid = parse_grid("C..\n...\n...")
    data = unsat.xcsp_data(grid, Lexicon.from_words(WORDS))
    glyphs = data["glyphs"]
    assert data["cells"][0][0] == glyphs.index("C") and data["cells"][1][1] == -1
    assert list(data["slots"]) == [3] and len(data["slots"][3]) == 6
    table = data["tables"][3]
    assert len(table) == len(WORDS) and all(len(row) == 4 for row in table)
    assert ["".join(glyphs[g] for g in row[1:]) for row in table] == sorted(WORDS)
    # a given glyph no word uses gets a code of its own (no support)
    odd = unsat.xcsp_data(parse_grid("Q..\n...\n..."), Lexicon.from_words(WORDS))
    assert odd["glyphs"][odd["cells"][0][0]] == "Q" and odd["cells"][0][0] >= odd["alphabet"]


def _ace_missing() -> str | None:
    if unsat.ace_jar() is None:
        return "pycsp3 (with its ACE jar) is not installed"
    if shutil.which("java") is None:
        return "java is not installed"
    return None


@pytest.mark.skipif(_ace_missing() is not None, reason=str(_ace_missing()))
@pytest.mark.parametrize(
    ("grid", "words", "expected"),
    [
        # rows CAT ORE WED and columns COW ARE TED, or the other way round
        ("...\n...\n...", WORDS, "filled"),
        # the only word square of CAT ARE TEN repeats every entry, which is not allowed
        ("...\n...\n...", ["CAT", "ARE", "TEN"], "unsatisfiable"),
        # a given letter that neither fill has
        ("..D\n...\n...", WORDS, "unsatisfiable"),
        # no 2-letter word
        ("..#\n...\n#..", WORDS, "unsatisfiable"),
    ],
)
def test_ace_model_of_tiny_grids(tmp_path, grid, words, expected):
    grid_file, words_file = tmp_path / "grid.txt", tmp_path / "words.txt"
    grid_file.write_text(grid + "\n")
    words_file.write_text("\n".join(words) + "\n")
    xml = tmp_path / "model.xml"
    _, note = unsat.compile_xcsp(grid_file, words_file, None, xml)
    assert note == "" and xml.exists()
    outcome = unsat.run_ace(xml, 20, 0)
    assert outcome.status == expected, outcome.note
    if expected == "filled":
        cells = outcome.cells
        assert {"".join(row) for row in cells} in ({"CAT", "ORE", "WED"}, {"COW", "ARE", "TED"})
        from csp_crossword.verify.fill import verify_fill

        assert verify_fill(read_grid(grid_file), cells, Lexicon.from_words(words)) == []


CSV = """instance,family,solver,seed,time_limit,status,valid,seconds,inner_s,prep_s,nodes,core_present,core_size,core_minimal,core,exit_code,note
words-am15-03,american,check-ac,0,60,unsatisfiable,,4.0,3.5,,,True,3,True,1A 1D 5A,1,
words-am15-03,american,ac,0,60,unsatisfiable,,2.0,1.5,,40,,,,,1,
words-am15-03,american,ac,1,60,unsatisfiable,,4.0,3.5,,90,,,,,1,
words-am15-03,american,ace,0,60,unsatisfiable,,6.0,5.0,2.0,,,,,,0,
words-am15-03,american,qxw,0,60,unsatisfiable,,1.0,,,,,,,,4,
min70-open5,small,check-ac,0,60,timeout,,61.0,60.0,,,False,,,,3,
min70-open5,small,ac,0,60,timeout,,61.0,,,,,,,,3,
min70-open5,small,ac,1,60,unsatisfiable,,30.0,,,,,,,,1,
min70-open5,small,ace,0,60,unsatisfiable,,10.0,9.0,1.0,,,,,,0,
min70-open5,small,qxw,0,60,timeout,,60.0,,,,,,,,,
"""


def _cells(line: str) -> list[str]:
    """A Markdown table row's cells (empty for any other line)."""
    if not line.startswith("| "):
        return []
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_summary_of_a_made_up_csv(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text(CSV)
    rows = unsat.read_csv([str(path)])
    out = io.StringIO()
    unsat.summarise(rows, ours="ac", out=out)
    text = out.getvalue()
    proofs, _, rest = text.partition("Cores")
    lines = {row[0]: row for row in map(_cells, proofs.splitlines()) if row}
    # ac: median of 2.0 and 4.0 = 3.0; ace 6.0, qxw 1.0; ratios ac/ace, ac/qxw
    assert lines["words-am15-03"][1:] == ["4.00", "3.00", "6.00", "1.00", "0.50", "3.00"]
    # one seed of two proved is not a proof; ACE proved, Qxw did not
    assert lines["min70-open5"][1:] == ["timeout", "timeout (1/2)", "10.00", "timeout", "ours -", "-"]
    cores = {row[0]: row for row in map(_cells, rest.split("Totals")[0].splitlines()) if row}
    assert cores["words-am15-03"][1] == "4.00 s, 3 slots, minimal"
    totals = {row[0]: row for row in map(_cells, rest.split("Totals")[1].splitlines()) if row}
    assert totals["ac"][1:6] == ["1/2", f"{(3.0 + (120 + 30) / 2) / 2:.2f}", "3.00", "1/2", "0/1"]
    assert totals["check-ac"][1] == "1/2" and totals["check-ac"][6:10] == ["1/2", "3", "1/1", "1/1"]
    assert "Red flags" not in text


def test_a_fill_of_an_instance_in_the_set_is_a_red_flag():
    rows = [{"status": "filled", "valid": "ok", "solver": "qxw", "instance": "min70-open5", "note": ""}]
    rows.append({"status": "filled", "valid": "WRONG", "solver": "ace", "instance": "x", "note": "AAA not a word"})
    flags = unsat.alarm(rows)
    assert "FILLED min70-open5 (verified!)" in flags[0] and "WRONG" in flags[1]
