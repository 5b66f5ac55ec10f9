"""The web API (csp_crossword/web): every endpoint, bad input, cancellation and a crashed worker.

The app runs in-process (FastAPI's TestClient) with a real pool of worker processes; fills are
checked here with the independent verifier, not trusted from the server.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.core.grid import Grid
from csp_crossword.formats import FILE_FORMATS
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from fastapi.testclient import TestClient

from web_jobs import wait_job

REPO = Path(__file__).resolve().parents[2]
# One 3x3 fill (SAT / ERA / TEN across, SET / ARE / TAN down) and words that lead nowhere in it.
SQUARE = ["SAT", "ERA", "TEN", "SET", "ARE", "TAN", "NET", "RAT", "BET", "SEA"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    words = tmp_path_factory.mktemp("lists") / "square.txt"
    words.write_text("\n".join(f"{w};{60 - i}" for i, w in enumerate(SQUARE)) + "\n", encoding="utf-8")
    app = create_app(ServerState(JobPool(2, max_queued=2), WordListStore([str(words)])))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def cells_of(text: str) -> list[list[str | None]]:
    return [[None if ch == "#" else ("" if ch == "." else ch) for ch in row] for row in text.split("\n")]


def verify_result(cells: list[list[str | None]], result: dict, words: list[str]) -> list[str]:
    grid = Grid(tuple(tuple(row) for row in cells))
    filled = tuple(tuple(row) for row in result["cells"])
    return verify_fill(grid, filled, Lexicon.from_words(words))


def test_health_config_and_page(client):
    health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["workers"] == 2
    config = client.get("/api/config").json()
    assert config["max_grid_side"] == 25
    assert [w["id"] for w in config["wordlists"]] == ["builtin", "file1"]
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()


def test_analyse_numbers_slots_and_counts_what_a_constructor_watches(client):
    grid = cells_of("CAT#\n..E.\n#...")
    answer = client.post("/api/analyse", json={"grid": {"cells": grid}}).json()
    ids = [s["id"] for s in answer["slots"]]
    assert ids[0] == "1A" and "1D" in ids
    assert answer["slots"][0]["pattern"] == "CAT"
    stats = answer["stats"]
    assert stats["blocks"] == 2 and stats["block_share"] == round(2 / 12, 4)
    assert stats["short_entries"] == sum(1 for s in answer["slots"] if s["length"] < 3)


def test_candidates_are_ranked_and_dead_ends_marked(client):
    grid = cells_of("S..\n...\n...")
    answer = client.post("/api/candidates", json={"grid": {"cells": grid}, "slot": "1a", "words": "file1"}).json()
    words = [c["word"] for c in answer["candidates"]]
    assert answer["slot"] == "1A" and answer["pattern"] == "S??"
    assert "SAT" in words and set(words) <= {"SAT", "SET", "SEA"}  # after arc consistency
    scores = [c["score"] for c in answer["candidates"]]
    assert scores == sorted(scores, reverse=True)
    assert (
        client.post("/api/candidates", json={"grid": {"cells": grid}, "slot": "9D", "words": "file1"}).status_code
        == 400
    )


def test_a_dead_corner_elsewhere_does_not_hide_a_slots_words(client):
    grid = cells_of("Q..\n...\n...")  # 1A and 1D (Q??) have no word
    ask = {"grid": {"cells": grid}, "slot": "5A", "words": "file1"}
    answer = client.post("/api/candidates", json=ask).json()
    assert answer["unsatisfiable"] and answer["checked_without"] == ["1A", "1D"]
    words = [c["word"] for c in answer["candidates"]]
    assert words and set(words) <= set(SQUARE)
    dead = client.post("/api/candidates", json={**ask, "slot": "1A"}).json()
    assert dead["candidates"] == [] and dead["checked_without"] == []


def test_a_dead_end_is_a_word_that_empties_a_crossing(client):
    # Arc consistency keeps EAT at 1A of an open 3x3, but once EAT is placed no fill is left
    # (found by a search over small lists); BAN starts a fill.
    words = ["BET", "ARE", "ERA", "EAT", "TEN", "BAN", "NAB", "TAR", "NAN"]
    upload = {"file": ("nine.txt", "\n".join(words).encode(), "text/plain")}
    listed = client.post("/api/wordlists", files=upload).json()
    grid = cells_of("...\n...\n...")
    answer = client.post(
        "/api/candidates", json={"grid": {"cells": grid}, "slot": "1A", "words": listed["id"], "limit": 20}
    ).json()
    marks = {c["word"]: c["dead_end"] for c in answer["candidates"]}
    assert marks["BAN"] is False and marks["EAT"] is True


def test_fill_job_streams_progress_and_returns_a_verified_fill(client):
    grid = cells_of("...\n...\n...")
    job = client.post(
        "/api/jobs", json={"kind": "fill", "grid": {"cells": grid}, "words": "file1", "time_limit": 10}
    ).json()
    assert job["state"] in ("queued", "running")
    events = []
    with client.stream("GET", f"/api/jobs/{job['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                events.append(line.split(":", 1)[1].strip())
            if line.startswith("data:") and events[-1] == "done":
                done = json.loads(line[5:])
                break
    assert events[-1] == "done"
    assert done["state"] == "done" and done["result"]["status"] == "filled"
    assert verify_result(grid, done["result"], SQUARE) == []


def test_a_fill_keeps_typed_letters(client):
    grid = cells_of("S..\n...\n...")
    job = client.post("/api/jobs", json={"kind": "fill", "grid": {"cells": grid}, "words": "file1"}).json()
    result = wait_job(client, job["id"])["result"]
    assert result["cells"][0][0] == "S"
    assert verify_result(grid, result, SQUARE) == []


def test_check_job_names_the_core_of_an_unfillable_grid(client):
    grid = cells_of("Q..\n...\n...")
    job = client.post(
        "/api/jobs", json={"kind": "check", "grid": {"cells": grid}, "words": "file1", "time_limit": 20}
    ).json()
    result = wait_job(client, job["id"])["result"]
    assert result["status"] == "unsolvable"
    assert result["core"] or result["empty"]


def test_count_job_counts_a_small_grid(client):
    job = client.post(
        "/api/jobs", json={"kind": "count", "grid": {"cells": cells_of("..\n..")}, "words": "file1"}
    ).json()
    result = wait_job(client, job["id"])["result"]
    assert result["count"] == 0  # no 2-letter words in the list


def test_freeform_job_lays_out_pasted_words_with_their_clues(client):
    entries = [
        {"word": "PUZZLE", "clue": "A problem to solve"},
        {"word": "SOLVER", "clue": "One who solves"},
        {"word": "GRID", "clue": "Squares in rows"},
        {"word": "CLUE", "clue": "A hint"},
    ]
    job = client.post("/api/jobs", json={"kind": "freeform", "entries": entries, "time_limit": 5, "seed": 1}).json()
    result = wait_job(client, job["id"])["result"]
    assert result["status"] == "filled" and result["placed"]
    clues = {e["clue"] for e in result["entries"]}
    assert "A hint" in clues or "CLUE" in result["failed"]
    assert len(result["wordsearch"]) == result["rows"]


def long_job(time_limit: float = 60) -> dict:
    """A job that runs until its time limit: counting the fills of an open 5x5 with the built-in
    list (far more than the limit of a million)."""
    grid = [[""] * 5 for _ in range(5)]
    return {"kind": "count", "grid": {"cells": grid}, "limit": 1_000_000, "time_limit": time_limit}


def test_cancel_ends_a_running_job_with_its_best_so_far(client):
    job = client.post("/api/jobs", json=long_job()).json()
    time.sleep(1.0)
    asked = time.monotonic()
    client.delete(f"/api/jobs/{job['id']}")
    final = wait_job(client, job["id"], timeout=30)
    assert time.monotonic() - asked < 15
    assert final["state"] == "cancelled"
    assert final["result"]["exact"] is False and final["result"]["stopped"] == "cancelled"


def test_a_crashed_worker_fails_its_job_alone(client):
    job = client.post("/api/jobs", json=long_job()).json()
    end = time.monotonic() + 30
    while client.get(f"/api/jobs/{job['id']}").json()["progress"] is None and time.monotonic() < end:
        time.sleep(0.1)  # until its worker has begun it (a job not begun is handed to the next worker)
    workers = _children()
    assert workers
    for pid in workers:  # kill every worker: the one running the job among them
        os.kill(pid, signal.SIGKILL)
    final = wait_job(client, job["id"], timeout=30)
    assert final["state"] == "failed" and "ended unexpectedly" in final["error"]
    # the server goes on: a new job runs on a fresh worker
    again = client.post(
        "/api/jobs", json={"kind": "fill", "grid": {"cells": cells_of("...\n...\n...")}, "words": "file1"}
    ).json()
    finished = wait_job(client, again["id"])
    assert finished["result"] is not None, finished
    assert finished["result"]["status"] == "filled"


def _children() -> list[int]:
    import multiprocessing

    return [p.pid for p in multiprocessing.active_children() if p.pid is not None]


@pytest.mark.parametrize(
    "body, status, says",
    [
        ({"kind": "fill", "grid": {"cells": [[1]]}}, 422, "valid string"),
        ({"kind": "fill", "grid": {"cells": [[""]]}, "bogus": 1}, 422, "bogus"),
        ({"kind": "fill", "grid": {"cells": [["#", ""]]}}, 400, "not a letter"),
        ({"kind": "fill", "grid": {"cells": [["", ""], [""]]}}, 400, "row 2"),
        ({"kind": "nope"}, 422, "kind"),
        ({"kind": "fill", "grid": {"cells": [["", ""]]}, "words": "nolist"}, 400, "no word list"),
        ({"kind": "fill", "grid": {"cells": [[""] * 30] * 30}}, 422, "at most 25"),
        ({"kind": "fill", "grid": {"cells": [[""]]}, "time_limit": 1e9}, 422, "time_limit"),
        ({"kind": "freeform", "entries": []}, 422, "entries"),
    ],
)
def test_bad_job_requests_get_a_4xx_that_says_why(client, body, status, says):
    answer = client.post("/api/jobs", json=body)
    assert answer.status_code == status
    assert says in answer.json()["detail"]


def test_unknown_job_is_404(client):
    assert client.get("/api/jobs/nothing").status_code == 404
    assert client.delete("/api/jobs/nothing").status_code == 404


def test_oversized_body_is_413(client):
    from csp_crossword.web.app import MAX_BODY_BYTES

    answer = client.post(
        "/api/analyse", content=b"x" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413 and "MB" in answer.json()["detail"]


def test_a_full_queue_is_refused_with_503(client):
    ids, refused = [], None
    for _ in range(6):  # 2 workers + 2 queued, then refusals
        answer = client.post("/api/jobs", json=long_job(30))
        if answer.status_code == 503:
            refused = answer
            break
        ids.append(answer.json()["id"])
    for job_id in ids:
        client.delete(f"/api/jobs/{job_id}")
    assert refused is not None and refused.headers["retry-after"]
    assert len(ids) == 4
    for job_id in ids:
        assert wait_job(client, job_id, timeout=30)["state"] == "cancelled"


def test_word_list_upload_and_use(client):
    text = "SAT;50\nERA;50\nTEN;50\nSET;50\nARE;50\nTAN;50\n"
    answer = client.post("/api/wordlists", files={"file": ("mine.txt", text.encode(), "text/plain")}).json()
    assert answer["entries"] == 6 and answer["id"].startswith("u")
    job = client.post(
        "/api/jobs", json={"kind": "fill", "grid": {"cells": cells_of("...\n...\n...")}, "words": answer["id"]}
    ).json()
    result = wait_job(client, job["id"])["result"]
    assert result["status"] == "filled"
    empty = client.post("/api/wordlists", files={"file": ("junk.txt", b"###\n", "text/plain")})
    assert empty.status_code == 400 and "junk.txt" in empty.json()["detail"]


@pytest.mark.parametrize("fmt", sorted(f.name for f in FILE_FORMATS.values()))
def test_save_and_open_round_trip(client, fmt):
    grid = cells_of("CAT\nORE\nWET")
    puzzle = {"grid": {"cells": grid}, "clues": {"1A": "Pet", "1D": "Farm animal"}, "title": "Tiny"}
    saved = client.post("/api/save", json={"puzzle": puzzle, "format": fmt})
    assert saved.status_code == 200
    assert f"Tiny.{fmt}" in saved.headers["content-disposition"]
    opened = client.post("/api/open", files={"file": (f"back.{fmt}", saved.content, "application/octet-stream")})
    assert opened.status_code == 200, opened.text
    page = opened.json()
    assert page["grid"]["cells"] == grid
    if fmt not in ("txt", "json"):
        assert page["clues"].get("1A") == "Pet"


@pytest.mark.parametrize("fmt", sorted(f.name for f in FILE_FORMATS.values()))
def test_locks_and_the_fills_letters_come_back_where_the_format_keeps_them(client, fmt):
    grid = cells_of("CA#\n...\n#..")
    puzzle = {"grid": {"cells": grid}, "locked_cells": [[0, 0], [0, 1]], "filled_cells": [[0, 1]], "title": "Work"}
    saved = client.post("/api/save", json={"puzzle": puzzle, "format": fmt})
    assert saved.status_code == 200, saved.text
    losses = json.loads(saved.headers["x-save-warnings"])
    page = client.post("/api/open", files={"file": (f"back.{fmt}", saved.content, "application/octet-stream")}).json()
    if fmt in ("ipuz", "json"):
        assert page["locked_cells"] == [[0, 0], [0, 1]] and page["filled_cells"] == [[0, 1]]
        assert not any("locks" in loss for loss in losses)
    else:  # said when saving, not lost in silence
        assert page["locked_cells"] == [] and any("locks" in loss for loss in losses)


def test_a_lock_on_a_block_is_refused_with_its_cell(client):
    puzzle = {"grid": {"cells": cells_of("#A\n..")}, "locked_cells": [[0, 0]]}
    answer = client.post("/api/save", json={"puzzle": puzzle, "format": "ipuz"})
    assert answer.status_code == 400 and "cell (1, 1)" in answer.json()["detail"]


def test_open_names_the_file_of_a_malformed_puzzle(client):
    answer = client.post("/api/open", files={"file": ("broken.puz", b"not a puz file", "application/octet-stream")})
    assert answer.status_code == 400 and "broken.puz" in answer.json()["detail"]
    unknown = client.post("/api/open", files={"file": ("grid.docx", b"x", "application/octet-stream")})
    assert unknown.status_code == 400 and "unknown file type" in unknown.json()["detail"]


def test_print_gives_a_pdf_and_the_key_needs_a_full_grid(client):
    puzzle = {"grid": {"cells": cells_of("CAT\nORE\nWET")}, "title": "Tiny"}
    pdf = client.post("/api/print", json={"puzzle": puzzle})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    key = client.post("/api/print", json={"puzzle": puzzle, "solution": True, "format": "svg"})
    assert key.status_code == 200 and b"<svg" in key.content
    partial = {"grid": {"cells": cells_of("C..\n...\n...")}}
    assert client.post("/api/print", json={"puzzle": partial, "solution": True}).status_code == 400


def test_clues_come_from_the_list(client):
    text = "word,clue\nSAT,Took a seat\nERA,Age\n"
    listed = client.post("/api/wordlists", files={"file": ("clued.csv", text.encode(), "text/csv")}).json()
    answer = client.post(
        "/api/clues", json={"grid": {"cells": cells_of("SAT\n...\n...")}, "words": listed["id"]}
    ).json()
    assert answer["clues"] == {"1A": "Took a seat"}


def test_opening_a_diagramless_or_scrambled_file_says_so(client):
    from csp_crossword.core.grid import parse_grid
    from csp_crossword.formats import LockedSolution, Puzzle
    from csp_crossword.formats.ipuz import dumps as ipuz_dumps
    from csp_crossword.formats.puzfile import dumps as puz_dumps

    diagramless = ipuz_dumps(Puzzle(parse_grid("CAT\nORE\nWET"), diagramless=True)).encode()
    page = client.post("/api/open", files={"file": ("d.ipuz", diagramless, "application/octet-stream")}).json()
    assert any("diagramless" in note for note in page["warnings"])
    blank = parse_grid("...\n...\n...")
    scrambled = puz_dumps(Puzzle(blank, locked=LockedSolution("ABCDEFGHI", 1234)))
    page = client.post("/api/open", files={"file": ("s.puz", scrambled, "application/octet-stream")}).json()
    assert any("scrambled" in note for note in page["warnings"])
