"""The pattern tools of the web API: the pattern library (GET /api/patterns) and generate jobs.

The app runs in-process (FastAPI's TestClient) with a real pool of worker processes; every
generated grid is checked here with the independent checks (``pattern_problems`` for the American
rules, ``verify_fill`` for fills), not trusted from the server.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.cli import main
from csp_crossword.core.grid import Grid, read_grid
from csp_crossword.verify.fill import pattern_problems, verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from fastapi.testclient import TestClient

import web_jobs

REPO = Path(__file__).resolve().parents[2]
ORIGIN = {"Origin": "http://localhost"}


@pytest.fixture(scope="module")
def client():
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.patterns import PatternLibrary
    from csp_crossword.web.wordlists import WordListStore

    state = ServerState(JobPool(2), WordListStore([]), patterns=PatternLibrary([REPO / "grids"]))
    with TestClient(create_app(state), base_url="http://localhost") as test_client:
        yield test_client


def run_job(client, body: dict, timeout: float = 60.0) -> dict:
    return web_jobs.run_job(client, body, headers=ORIGIN, timeout=timeout)


def across_words(cells: list[list[str | None]]) -> list[str]:
    """Every across run of two or more cells, read left to right, empty cells as '.'."""
    words = []
    for row in cells:
        run: list[str] = []
        for value in [*row, None]:
            if value is None:
                if len(run) >= 2:
                    words.append("".join(run))
                run = []
            else:
                run.append(value or ".")
    return words


# ---------------------------------------------------------------- the pattern library


def test_listing_names_the_checkouts_patterns_with_size_and_blocks(client):
    answer = client.get("/api/patterns").json()
    listed = {p["id"]: p for p in answer["patterns"]}
    american = [p for p in answer["patterns"] if p["folder"] == "grids/american"]
    assert len(american) == len(list((REPO / "grids" / "american").glob("*.txt")))
    first = listed["american.am15-01"]
    grid = read_grid(REPO / "grids" / "american" / "am15-01.txt")
    assert (first["rows"], first["cols"]) == (15, 15)
    assert first["blocks"] == sum(v is None for row in grid.cells for v in row)
    assert listed["demo.prefilled-7x7"]["prefilled"] == 6
    assert "CAT" in listed["demo.prefilled-7x7"]["description"]  # from grids/manifest.json
    assert answer["folders"] == ["grids"]


def test_a_pattern_loads_by_its_id_as_the_file_says(client):
    answer = client.get("/api/patterns/demo.prefilled-7x7")
    assert answer.status_code == 200
    body = answer.json()
    grid = read_grid(REPO / "grids" / "demo" / "prefilled-7x7.txt")
    assert body["grid"]["cells"] == [list(row) for row in grid.cells]
    assert body["grid"]["rtl"] is False and body["name"] == "prefilled-7x7"


def test_an_unknown_id_is_404_and_a_path_like_one_is_refused(client):
    assert client.get("/api/patterns/american.nothing").status_code == 404
    for path_like in ("a..b", "%2e%2e", ".hidden", "american.am15-01.txt~", "x%00y"):
        assert client.get(f"/api/patterns/{path_like}").status_code == 400, path_like
    # a slash is never part of an id: no route takes it
    for escaped in ("..%2F..%2Fetc%2Fpasswd", "american%2Fam15-01.txt", "../../etc/passwd"):
        answer = client.get(f"/api/patterns/{escaped}")
        assert answer.status_code == 404 and "root:" not in answer.text


def test_a_folder_of_ones_own_lists_its_grids_and_skips_what_is_no_grid(tmp_path):
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.patterns import PatternLibrary
    from csp_crossword.web.wordlists import WordListStore

    (tmp_path / "minis").mkdir()
    (tmp_path / "minis" / "my mini.txt").write_text("#...\n....\n....\n...#\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a grid: a line\n\nanother", encoding="utf-8")
    (tmp_path / "huge.txt").write_text(("." * 30 + "\n") * 30, encoding="utf-8")
    library = PatternLibrary([tmp_path])
    app = create_app(ServerState(JobPool(1), WordListStore([]), patterns=library))
    client = TestClient(app, base_url="http://localhost")  # no lifespan: the pool never starts
    listed = client.get("/api/patterns").json()["patterns"]
    assert [(p["id"], p["folder"], p["rows"], p["blocks"]) for p in listed] == [
        ("minis.my_mini", f"{tmp_path.name}/minis", 4, 2)
    ]
    assert library.skipped == 2
    assert client.get("/api/patterns/minis.my_mini").json()["grid"]["cells"][0] == [None, "", "", ""]


def test_serve_refuses_a_missing_pattern_folder(tmp_path, capsys):
    code = main(["serve", "--patterns", str(tmp_path / "missing"), "--port", "1"])
    assert code != 0 and "no such pattern folder" in capsys.readouterr().err


# ---------------------------------------------------------------- generate jobs


@pytest.mark.parametrize("symmetry", ["rotational", "mirror"])
def test_an_american_pattern_only_places_the_theme_entry_and_keeps_the_rules(client, symmetry):
    body = {
        "kind": "generate",
        "rows": 15,
        "cols": 15,
        "style": "american",
        "fill": False,
        "blocks": 36,
        "max_words": 78,
        "max_run": 15,
        "symmetry": symmetry,
        "entries": ["crossword puzzle"],
        "time_limit": 5,
        "seed": 3,
    }
    job = run_job(client, body)
    assert job["state"] == "done", job["error"]
    result = job["result"]
    assert result["status"] == "pattern" and result["method"] == "pattern"
    cells = result["cells"]
    assert "CROSSWORDPUZZLE" in across_words(cells)
    assert pattern_problems(cells, symmetry=symmetry, max_words=78, max_run=15) == []
    letters = sum(bool(v) for row in cells for v in row)
    assert letters == len("CROSSWORDPUZZLE")  # the rest is left for the constructor
    assert result["blocks"] == sum(v is None for row in cells for v in row)


def test_an_american_pattern_and_fill_is_a_verified_fill_with_the_theme(client):
    body = {
        "kind": "generate",
        "rows": 9,
        "cols": 9,
        "entries": ["PUZZLE"],
        "time_limit": 10,
        "seed": 0,
    }
    job = run_job(client, body)
    assert job["state"] == "done", job["error"]
    result = job["result"]
    assert result["status"] in ("filled", "optimal") and result["method"] == "american"
    cells = result["cells"]
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    filled = tuple(tuple(row) for row in cells)
    assert verify_fill(grid, filled, builtin_lexicon("en"), extra_words=["PUZZLE"]) == []
    assert "PUZZLE" in across_words(cells)
    assert pattern_problems(cells, symmetry="rotational", max_run=9) == []
    assert [[v is None for v in row] for row in result["pattern"]] == [[v is None for v in row] for row in cells]


def test_an_open_layout_by_progressive_search_takes_its_options(client):
    body = {
        "kind": "generate",
        "rows": 7,
        "cols": 7,
        "style": "open",
        "method": "progressive",
        "max_run": 5,
        "progressive": {"start": "fill2", "queue_size": 16, "neighbours": 8, "threshold": 1.5},
        # the search ends at its first fill (some 0.6 s of an idle core, the same fill with 5 s or
        # 20 s); 20 s leaves room for a job on a busy machine's share of a core
        "time_limit": 20,
        "seed": 0,
    }
    job = run_job(client, body)
    assert job["state"] == "done", job["error"]
    result = job["result"]
    assert result["method"] == "progressive" and result["status"] == "filled"
    cells = result["cells"]
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    assert verify_fill(grid, tuple(tuple(row) for row in cells), builtin_lexicon("en")) == []
    assert result["unknown"] == [] and result["scrambled"] == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rows": 26}, "rows"),
        ({"entries": ["ABC"] * 9}, "entries"),
        ({"entries": ["A" * 101]}, "entries"),
        ({"style": "open", "fill": False}, "fill"),
        ({"style": "open", "entries": ["ABC"]}, "entries"),
        ({"method": "progressive"}, "method"),
        ({"style": "open", "progressive": {"queue_size": 0}}, "queue_size"),
        ({"style": "open", "progressive": {"start": "fill3"}}, "start"),
        ({"style": "open", "progressive": {"depth": 3}}, "depth"),
        ({"symmetry": "diagonal"}, "symmetry"),
    ],
)
def test_bad_generate_requests_are_refused_naming_the_field(client, change, field):
    body = {"kind": "generate", "rows": 5, "cols": 5, **change}
    answer = client.post("/api/jobs", json=body, headers=ORIGIN)
    assert answer.status_code == 422 and field in answer.text


def test_theme_entries_that_cannot_fit_fail_the_job_with_the_reason(client):
    job = run_job(client, {"kind": "generate", "rows": 7, "cols": 7, "fill": False, "entries": ["ELEPHANTS"]})
    assert job["state"] == "failed" and "ELEPHANTS" in job["error"] and "7 wide" in job["error"]


def test_a_generate_job_can_be_cancelled(client):
    body = {"kind": "generate", "rows": 25, "cols": 25, "time_limit": 60}
    answer = client.post("/api/jobs", json=body, headers=ORIGIN)
    job_id = answer.json()["id"]
    time.sleep(0.5)
    client.delete(f"/api/jobs/{job_id}", headers=ORIGIN)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] in ("done", "failed", "cancelled"):
            break
        time.sleep(0.05)
    assert job["state"] == "cancelled"


def test_an_installed_package_offers_its_own_copy_of_the_grids(monkeypatch, tmp_path):
    from csp_crossword.web import patterns

    packaged = tmp_path / "grids"
    (packaged / "demo").mkdir(parents=True)
    (packaged / "demo" / "mini.txt").write_text("...\n...\n...\n")
    monkeypatch.setattr(patterns, "CHECKOUT_GRIDS", tmp_path / "no-checkout")
    monkeypatch.setattr(patterns, "PACKAGED_GRIDS", packaged)
    assert patterns.default_pattern_dirs() == [packaged]
    monkeypatch.setattr(patterns, "PACKAGED_GRIDS", tmp_path / "none")
    assert patterns.default_pattern_dirs() == []
