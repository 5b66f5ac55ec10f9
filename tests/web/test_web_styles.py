"""Circles, shading, bars, void cells and rebus cells through the web API: opened from real files
into the page's puzzle shape, saved in every format, read back with the library's reader and
compared with what the library's own conversion (``convert``) keeps; bad style values refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.api import read_puzzle
from csp_crossword.formats import FILE_FORMATS, write_crossword
from fastapi.testclient import TestClient

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "realfiles"
ORIGIN = {"Origin": "http://localhost"}
#: Real files with circles and rebus cells, shading with a colour and bars, void cells.
CIRCLES_AND_REBUS = "puzpy__nyt_rebus_with_notes_and_shape.puz"
SHADING_AND_BARS = "kotwords__two-tone.ipuz"
VOIDS = "crosshare__Its_All_Wrong.puz"
SAVE_FORMATS = ("puz", "ipuz", "xd", "json")

needs_real_files = pytest.mark.skipif(not REAL.is_dir(), reason=f"needs the reference files in {REAL}")


@pytest.fixture(scope="module")
def client():
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    app = create_app(ServerState(JobPool(1, max_queued=2), WordListStore([])))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def open_page(client, path: Path) -> dict:
    answer = client.post(
        "/api/open", files={"file": (path.name, path.read_bytes(), "application/octet-stream")}, headers=ORIGIN
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def save(client, puzzle: dict, fmt: str, tmp_path: Path):
    """Save through the API; the file read back with the library, and the warnings the answer gave."""
    answer = client.post("/api/save", json={"puzzle": puzzle, "format": fmt}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    path = tmp_path / f"saved.{fmt}"
    path.write_bytes(answer.content)
    return read_puzzle(str(path)), json.loads(answer.headers["x-save-warnings"])


def converted(source: Path, fmt: str, tmp_path: Path):
    """What the library's conversion keeps of ``source`` in ``fmt`` (as ``convert`` writes it)."""
    path = tmp_path / f"converted.{fmt}"
    losses = write_crossword(path, read_puzzle(str(source)))
    return read_puzzle(str(path)), losses


def rebus_cells(puzzle) -> dict[tuple[int, int], str]:
    return {(r, c): v for r, row in enumerate(puzzle.solution or ()) for c, v in enumerate(row) if v and len(v) > 1}


@needs_real_files
def test_the_page_shape_has_the_files_circles_shading_bars_voids_and_rebus(client):
    page = open_page(client, REAL / CIRCLES_AND_REBUS)
    circles = {(s["row"], s["col"]) for s in page["styles"] if s["circle"]}
    original = read_puzzle(str(REAL / CIRCLES_AND_REBUS))
    assert circles == {cell for cell, style in original.styles.items() if style.circle} and len(circles) == 5
    multi = {(r, c): v for r, row in enumerate(page["grid"]["cells"]) for c, v in enumerate(row) if v and len(v) > 1}
    assert multi == rebus_cells(original) and len(multi) == 3

    tone = open_page(client, REAL / SHADING_AND_BARS)
    first = next(s for s in tone["styles"] if (s["row"], s["col"]) == (0, 0))
    assert first == {"row": 0, "col": 0, "circle": False, "shaded": True, "color": "#c0c0c0", "bars": ["bottom"]}
    assert tone["warnings"], "the reader says what a variety puzzle loses"

    shaped = open_page(client, REAL / VOIDS)
    voids = {tuple(v) for v in shaped["voids"]}
    assert len(voids) == 87 and all(shaped["grid"]["cells"][r][c] is None for r, c in voids)


@needs_real_files
@pytest.mark.parametrize("name", [CIRCLES_AND_REBUS, SHADING_AND_BARS, VOIDS])
@pytest.mark.parametrize("fmt", SAVE_FORMATS)
def test_save_keeps_what_the_format_carries_as_convert_does(client, tmp_path, name, fmt):
    page = open_page(client, REAL / name)
    page.pop("warnings")
    saved, warnings = save(client, page, fmt, tmp_path)
    expected, losses = converted(REAL / name, fmt, tmp_path)
    assert saved.styles == expected.styles
    assert saved.voids == expected.voids
    assert rebus_cells(saved) == rebus_cells(expected)
    # The style and void losses the page is told of are those convert reports.
    about_cells = ("shad", "circle", "colour", "bars", "void")
    assert [w for w in warnings if any(k in w for k in about_cells)] == [
        w for w in losses if any(k in w for k in about_cells)
    ]


@needs_real_files
def test_shading_and_bars_saved_as_puz_are_reported_lost(client, tmp_path):
    page = open_page(client, REAL / SHADING_AND_BARS)
    page.pop("warnings")
    saved, warnings = save(client, page, "puz", tmp_path)
    assert any("bars" in w for w in warnings) and any("shading" in w for w in warnings)
    assert not any(style.bars for style in saved.styles.values())


def test_a_rebus_cell_made_on_the_page_round_trips(client, tmp_path):
    cells = [["C", "HEART", "T"], ["A", None, "O"], ["B", "O", "X"]]
    styles = [
        {"row": 0, "col": 0, "circle": True},
        {"row": 2, "col": 2, "shaded": True, "color": "#FFAA00", "bars": ["left", "top"]},
    ]
    puzzle = {"grid": {"cells": cells}, "styles": styles, "clues": {"1A": "Love at its centre"}}
    for fmt in ("puz", "ipuz", "json"):
        saved, _ = save(client, puzzle, fmt, tmp_path)
        assert saved.solution is not None and saved.solution[0][1] == "HEART", fmt
        assert saved.styles[(0, 0)].circle
        reopened = client.post(
            "/api/open", files={"file": (f"back.{fmt}", (tmp_path / f"saved.{fmt}").read_bytes(), "x")}, headers=ORIGIN
        ).json()
        assert reopened["grid"]["cells"][0][1] == "HEART"
    ipuz, _ = save(client, puzzle, "ipuz", tmp_path)
    assert ipuz.styles[(2, 2)].color == "#ffaa00" and ipuz.styles[(2, 2)].bars == frozenset({"left", "top"})


def test_voids_made_on_the_page_are_kept(client, tmp_path):
    cells = [[None, "A", "B"], ["C", "D", "E"], ["F", "G", None]]
    puzzle = {"grid": {"cells": cells}, "voids": [[0, 0], [2, 2]]}
    for fmt in ("ipuz", "json", "puz"):
        saved, _ = save(client, puzzle, fmt, tmp_path)
        assert saved.voids == frozenset({(0, 0), (2, 2)}), fmt
    printed = client.post("/api/print", json={"puzzle": puzzle, "format": "svg"}, headers=ORIGIN)
    assert printed.status_code == 200 and b"<svg" in printed.content


GRID = [["A", "B"], ["C", "D"]]


@pytest.mark.parametrize(
    ("extra", "status", "says"),
    [
        ({"styles": [{"row": 0, "col": 0, "color": "red"}]}, 422, "color"),
        ({"styles": [{"row": 0, "col": 0, "color": "#12345"}]}, 422, "color"),
        ({"styles": [{"row": 0, "col": 0, "bars": ["middle"]}]}, 422, "bars"),
        ({"styles": [{"row": 0, "col": 0, "bars": ["top"] * 5}]}, 422, "bars"),
        ({"styles": [{"row": -1, "col": 0}]}, 422, "row"),
        ({"styles": [{"row": 0, "col": 0, "size": 3}]}, 422, "size"),
        ({"styles": [{"row": 0, "col": 0}] * 626}, 422, "styles"),
        ({"styles": [{"row": 5, "col": 0, "circle": True}]}, 400, "outside"),
        ({"styles": [{"row": 0, "col": 0, "circle": True}, {"row": 0, "col": 0, "shaded": True}]}, 400, "twice"),
        ({"voids": [[0, 0]]}, 400, "void"),
        ({"voids": [[3, 3]]}, 400, "outside"),
        ({"voids": [[0]]}, 422, "voids"),
        ({"grid": {"cells": [["A", "HE ART"], ["C", "D"]]}}, 400, "not a letter"),
        ({"grid": {"cells": [["A", "X" * 33], ["C", "D"]]}}, 422, "cells"),
    ],
)
def test_bad_style_values_are_refused_naming_the_field(client, extra, status, says):
    puzzle = {"grid": {"cells": GRID}, **extra}
    answer = client.post("/api/save", json={"puzzle": puzzle, "format": "ipuz"}, headers=ORIGIN)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["detail"]


def test_every_save_format_answers_its_warnings_header(client):
    puzzle = {"grid": {"cells": GRID}, "styles": [{"row": 0, "col": 0, "circle": True}]}
    for fmt in sorted(f.name for f in FILE_FORMATS.values()):
        answer = client.post("/api/save", json={"puzzle": puzzle, "format": fmt}, headers=ORIGIN)
        warnings = json.loads(answer.headers["x-save-warnings"])
        assert isinstance(warnings, list)
        assert any("circled" in w for w in warnings) == (fmt == "txt"), (fmt, warnings)


def test_a_title_in_any_script_names_the_saved_file(client):
    from urllib.parse import unquote

    puzzle = {"grid": {"cells": GRID}, "title": "مرحبا"}
    answer = client.post("/api/save", json={"puzzle": puzzle, "format": "ipuz"}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    assert unquote(answer.headers["content-disposition"].split("filename*=UTF-8''")[1]) == "مرحبا.ipuz"
