"""``fill`` names its weak spots (text and JSON), and ``--optimize`` / ``--optimize-total``."""

from __future__ import annotations

import json

from csp_crossword.cli import main

# A 3x3 ring beside a 4x4 ring: the small ring's corner (1A and 1D share their first cell) fills
# only with COD (10), since CAT, TAN and DEN start with three different letters.
GRID = "...#....\n.#.#.##.\n...#.##.\n####....\n"
WORDS = "CAT;80\nTAN;80\nDEN;80\nCOD;10\nBEAR;90\nBUSY;90\nREST;90\nYURT;90\n"
CORE_SENTENCE = "slots 1A, 1D cannot all be filled with entries scored 30 or more (minimal: every one is needed)"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_summary_names_the_weak_spot_next_to_the_weakest_entries(capsys, write):
    code, out, err = run(capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS))
    rows = out.splitlines()
    assert code == 0 and "COD" in (rows[0][:3], "".join(row[0] for row in rows[:3]))  # across or down
    weakest = next(line for line in err.splitlines() if "weakest:" in line)
    spots = err.splitlines()[err.splitlines().index(weakest) + 1]
    assert spots.startswith("weak spots: 1") and "scored under 30" in spots and CORE_SENTENCE in spots


def test_the_json_result_carries_the_weak_spots(capsys, write):
    code, out, _ = run(capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "filled"
    spots = data["weak_spots"]
    weak = [e["id"] for e in data["entries"] if e["score"] < 30]
    assert spots == {
        "floor": 30,
        "entries": weak,
        "verdict": "unfillable",
        "core": ["1A", "1D"],
        "minimal": True,
        "nodes": spots["nodes"],
        "reason": CORE_SENTENCE,
    }
    strong = WORDS.replace("COD;10", "COD;60")
    code, out, _ = run(capsys, "fill", write("g.txt", GRID), "--words", write("s.txt", strong), "--format", "json")
    assert code == 0 and json.loads(out)["weak_spots"] is None


def test_an_unsatisfiable_minimum_score_names_the_slots(capsys, write):
    argv = ["fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "--min-score", "30"]
    code, _, err = run(capsys, *argv)
    assert code == 1 and "unsatisfiable" in err and CORE_SENTENCE in err
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["weak_spots"]["core"] == ["1A", "1D"] and data["weak_spots"]["entries"] == []


def test_optimize_keeps_the_weakest_entry_and_optimize_total_says_what_it_traded(capsys, write):
    ring = write("ring.txt", "...\n.#.\n...\n")
    # PIT+POD scores most (109) but holds POD (10); CAT+COD keeps every entry at 50 or more
    words = write("r.txt", "CAT;50\nCOD;50\nTAN;60\nDEN;60\nPIT;99\nPOD;10\nTEN;20\nDIN;20\n")
    common = ["fill", ring, "--words", words, "--backend", "cpsat", "--format", "json"]
    code, out, _ = run(capsys, *common, "--optimize")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal"
    assert data["score"]["floor"] == 50 and data["score"]["floor_proved"] is True
    assert min(e["score"] for e in data["entries"]) == 50 and data["score"]["total"] == 220
    code, out, err = run(capsys, *common[:-2], "--optimize-total")
    assert code == 0 and "optimal by" in err and "the total alone was maximised" in err
    assert "weakest: 1" in err and "POD (10)" in err
