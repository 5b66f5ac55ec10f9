"""Entries the list lacks are kept as given; the job's whole time; warm workers; analyse's cells."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.core.grid import Grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from fastapi.testclient import TestClient

from web_jobs import run_job as run

# A 3x3 with one fill from the list: SAT/ERA/TEN across, SET/ARE/TAN down.
WORDS = ["SAT", "ERA", "TEN", "SET", "ARE", "TAN", "OAT", "ORE", "ONE", "STY"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    words = tmp_path_factory.mktemp("lists") / "small.txt"
    words.write_text("\n".join(f"{w};50" for w in WORDS) + "\n", encoding="utf-8")
    app = create_app(ServerState(JobPool(1), WordListStore([str(words)])))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def cells(text: str) -> list[list[str | None]]:
    return [[None if ch == "#" else ("" if ch == "." else ch) for ch in row] for row in text.split("/")]


def test_the_server_takes_requests_once_its_workers_are_warm(client):
    health = client.get("/api/health").json()
    assert health["warm_workers"] == health["workers"] == 1


def test_candidates_treat_an_entry_outside_the_list_as_given(client):
    # XYZ (1A) is no word of the list: the whole grid used to be "no word matches XYZ", with no
    # candidate for any slot
    grid = cells("XYZ/###/...")
    answer = client.post("/api/candidates", json={"grid": {"cells": grid}, "slot": "2A", "words": "file1"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["given"] == [{"slot": "1A", "answer": "XYZ"}]
    assert data["unsatisfiable"] is None
    assert sorted(row["word"] for row in data["candidates"]) == sorted(WORDS)


def test_a_fill_keeps_an_outside_entry_and_the_rest_is_verified(client):
    body = {"kind": "fill", "grid": {"cells": cells("XYZ/###/...")}, "words": "file1", "time_limit": 10}
    result = run(client, body)["result"]
    assert result["status"] == "filled" and result["given"] == [{"slot": "1A", "answer": "XYZ"}]
    pattern = Grid(tuple(tuple(row) for row in cells("XYZ/###/...")))
    filled = tuple(tuple(row) for row in result["cells"])
    assert verify_fill(pattern, filled, Lexicon.from_words(WORDS), extra_words={"XYZ"}) == []
    assert "".join(filled[2]) in WORDS

    # crossings still bind: SUN (outside) over three downs, and no list word starts with U
    result = run(client, {**body, "grid": {"cells": cells("SUN/.../...")}})["result"]
    assert result["given"] == [{"slot": "1A", "answer": "SUN"}]
    assert result["status"] == "unsatisfiable" and "2D" in (result.get("reason") or "")


def test_a_banned_entry_stays_banned(client):
    body = {"kind": "check", "grid": {"cells": cells("SAT/.../...")}, "words": "file1", "ban": ["SAT"]}
    result = run(client, body)["result"]
    assert result["given"] == [] and result["status"] == "unsolvable"


def test_a_job_reports_its_whole_time(client):
    job = run(client, {"kind": "fill", "grid": {"cells": cells(".../.../...")}, "words": "file1"})
    seconds = job["seconds"]
    # the worker's clock and the pool's differ by the messages between them: a few ms at most
    assert seconds["total"] >= seconds["running"] >= job["result"]["stats"]["seconds"] - 0.005
    assert seconds["waiting"] >= 0 and seconds["total"] == pytest.approx(
        seconds["waiting"] + seconds["running"], abs=0.01
    )


def test_analyse_gives_each_slot_its_cells(client):
    data = client.post("/api/analyse", json={"grid": {"cells": cells("..#/.../#..")}}).json()
    by_id = {slot["id"]: slot for slot in data["slots"]}
    assert by_id["3A"]["cells"] == [[1, 0], [1, 1], [1, 2]]
    assert by_id["2D"]["cells"] == [[0, 1], [1, 1], [2, 1]]
    assert all(len(slot["cells"]) == slot["length"] for slot in data["slots"])
