"""Named overrides sets (csp_crossword/web/overrides.py): made, edited and exported through the
API, applied to candidates and fills at once after each edit, and the exported file read by the
CLI's ``fill --overrides`` (by its path and by the set's bare name).

Fills are checked with the independent verifier against the list as the library's own
``load_words(overrides=...)`` makes it, not trusted from the server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.api import load_words
from csp_crossword.core.grid import Grid
from csp_crossword.verify.fill import verify_fill
from fastapi.testclient import TestClient

from web_jobs import run_job

REPO = Path(__file__).resolve().parents[2]
ORIGIN = {"Origin": "http://localhost"}
# Two 3x3 fills: the better SAT / ERA / TEN (down SET / ARE / TAN), and a weaker one of made-up
# words ABC / DEF / GHI (down ADG / BEH / CFI). A 3x3 has no other.
BEST = ["SAT", "ERA", "TEN", "SET", "ARE", "TAN"]
SECOND = ["ABC", "DEF", "GHI", "ADG", "BEH", "CFI"]
OPEN_3X3 = [["", "", ""], ["", "", ""], ["", "", ""]]
# One slot and no crossing: every 3-letter word of the list is a candidate.
ROW = [["", "", ""]]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    lists = tmp_path_factory.mktemp("lists")
    words = lists / "squares.txt"
    words.write_text("".join(f"{w};60\n" for w in BEST) + "".join(f"{w};30\n" for w in SECOND), encoding="utf-8")
    folder = tmp_path_factory.mktemp("overrides")
    app = create_app(ServerState(JobPool(1), WordListStore([str(words)], overrides_dir=str(folder))))
    with TestClient(app, base_url="http://localhost", headers=ORIGIN) as client:
        yield client, folder, words


def fill(client, **settings) -> dict:
    body = {"kind": "fill", "grid": {"cells": OPEN_3X3}, "words": "file1", "time_limit": 20, **settings}
    return run_job(client, body)


def candidates(client, slot: str = "1A", **settings) -> dict[str, int]:
    body = {"grid": {"cells": ROW}, "slot": slot, "words": "file1", **settings}
    answer = client.post("/api/candidates", json=body)
    assert answer.status_code == 200, answer.text
    return {c["word"]: c["score"] for c in answer.json()["candidates"]}


def change(client, name: str, action: str, word: str, score: int | None = None):
    body = {"action": action, "word": word} | ({} if score is None else {"score": score})
    return client.post(f"/api/overrides/{name}/entries", json=body)


def fill_words(cells: list[list[str]]) -> set[str]:
    rows = ["".join(row) for row in cells]
    return set(rows) | {"".join(col) for col in zip(*rows)}


def verified(job: dict, words: Path, overrides: Path) -> list[list[str]]:
    """The fill's cells, once the verifier finds every entry in the list with the set applied."""
    assert job["state"] == "done" and job["result"]["status"] in ("filled", "optimal"), job
    cells = job["result"]["cells"]
    lexicon = load_words([str(words)], overrides=[str(overrides)])
    grid = Grid(tuple(tuple(row) for row in OPEN_3X3))
    assert verify_fill(grid, tuple(tuple(row) for row in cells), lexicon) == []
    return cells


def test_a_set_is_made_edited_and_kept_as_an_overrides_file(setup):
    client, folder, _ = setup
    assert client.post("/api/overrides", json={"name": "house-rules"}).status_code == 201
    assert client.post("/api/overrides", json={"name": "House-Rules"}).status_code == 409  # one file on any disk
    assert change(client, "house-rules", "set", "ice-age", 70).status_code == 200
    assert change(client, "house-rules", "ban", "tan").status_code == 200
    answer = change(client, "house-rules", "set", "onyx", 55).json()
    assert answer["count"] == 3 and answer["banned"] == 1
    rows = {row["word"]: row for row in answer["entries"]}
    assert rows["ICEAGE"]["display"] == "ice-age" and rows["ICEAGE"]["score"] == 70
    assert rows["TAN"]["banned"] and rows["TAN"]["score"] == 0
    assert rows["ONYX"]["display"] == "ONYX"
    # rescoring by the plain entry keeps the display form given first
    rows = {r["word"]: r for r in change(client, "house-rules", "set", "ICEAGE", 40).json()["entries"]}
    assert rows["ICEAGE"] == {"word": "ICEAGE", "display": "ice-age", "score": 40, "banned": False}
    on_disk = (folder / "house-rules.txt").read_text(encoding="utf-8")
    assert [line for line in on_disk.splitlines() if not line.startswith("#")] == ["ice-age;40", "TAN;0", "ONYX;55"]
    # the library reads the file as an override file: the display form survives
    merged = load_words([str(setup[2])], overrides=[str(folder / "house-rules.txt")])
    assert merged.display_form("ICEAGE") == "ice-age" and "TAN" not in merged.scores
    # unban and remove; the answer is the set as it is now
    assert change(client, "house-rules", "unban", "onyx").status_code == 400  # not banned
    assert change(client, "house-rules", "unban", "tan").json()["banned"] == 0
    assert change(client, "house-rules", "remove", "tan").status_code == 400  # gone already
    batch = [{"action": "remove", "word": "onyx"}, {"action": "set", "word": "eel", "score": 20}]
    answer = client.post("/api/overrides/house-rules/batch", json={"changes": batch}).json()
    assert [(r["word"], r["score"]) for r in answer["entries"]] == [("ICEAGE", 40), ("EEL", 20)]
    # a batch with a bad change writes nothing
    bad = [{"action": "set", "word": "newt", "score": 10}, {"action": "remove", "word": "absent"}]
    refused = client.post("/api/overrides/house-rules/batch", json={"changes": bad})
    assert refused.status_code == 400 and "changes[2]" in refused.json()["detail"]
    assert client.get("/api/overrides/house-rules").json()["count"] == 2
    listed = client.get("/api/overrides").json()["sets"]
    assert {"name": "house-rules", "count": 2, "banned": 0} in listed
    assert not [f for f in os.listdir(folder) if f.endswith(".tmp")]  # written through a temp file, replaced
    assert client.delete("/api/overrides/house-rules").status_code == 200
    assert client.get("/api/overrides/house-rules").status_code == 404
    assert not (folder / "house-rules.txt").exists()


def test_an_added_word_is_a_candidate_and_a_rescore_reorders_them(setup):
    client, _, _ = setup
    assert client.post("/api/overrides", json={"name": "extra"}).status_code == 201
    before = candidates(client, overrides="extra")
    assert "FOX" not in before and before["SAT"] == 60
    change(client, "extra", "set", "fox", 90)
    assert candidates(client, overrides="extra")["FOX"] == 90  # the edit counts at once
    assert "FOX" not in candidates(client)  # the list alone does not have it
    change(client, "extra", "set", "abc", 99)
    after = client.post(
        "/api/candidates", json={"grid": {"cells": ROW}, "slot": "1A", "words": "file1", "overrides": "extra"}
    ).json()["candidates"]
    assert after[0]["word"] == "ABC" and after[0]["score"] == 99
    change(client, "extra", "ban", "abc")
    assert "ABC" not in candidates(client, overrides="extra")


def test_a_banned_word_is_kept_out_of_fills_and_an_unban_brings_it_back(setup):
    client, folder, words = setup
    assert client.post("/api/overrides", json={"name": "no-sat"}).status_code == 201
    path = folder / "no-sat.txt"
    first = verified(fill(client, overrides="no-sat"), words, path)
    assert fill_words(first) == set(BEST)
    change(client, "no-sat", "ban", "sat")
    second = verified(fill(client, overrides="no-sat"), words, path)
    assert fill_words(second) == set(SECOND)
    # the worker's cached list of the set's former content is not used again
    change(client, "no-sat", "unban", "sat")
    assert fill_words(verified(fill(client, overrides="no-sat"), words, path)) == set(BEST)
    change(client, "no-sat", "ban", "ghi")
    change(client, "no-sat", "ban", "era")
    job = fill(client, overrides="no-sat")
    assert job["result"]["status"] == "unsatisfiable"


def test_bad_names_and_paths_are_refused(setup):
    client, folder, _ = setup
    for name in ("", "../evil", "a/b", ".hidden", "-rf", "a b", "x" * 65, "name.txt", "é"):
        answer = client.post("/api/overrides", json={"name": name})
        assert answer.status_code == 422, (name, answer.text)
    for path in ("/api/overrides/..", "/api/overrides/..%2F..%2Fetc%2Fpasswd", "/api/overrides/%2Etmp"):
        for method in ("GET", "DELETE"):
            answer = client.request(method, path)
            assert 400 <= answer.status_code < 500, (method, path, answer.status_code)
    assert client.get("/api/overrides/..%2Fsecret/export").status_code in (400, 404)
    assert client.get("/api/overrides/absent").status_code == 404
    # a request naming a bad or unknown set
    body = {"grid": {"cells": OPEN_3X3}, "slot": "1A", "words": "file1"}
    assert client.post("/api/candidates", json=body | {"overrides": "../x"}).status_code == 422
    unknown = client.post("/api/candidates", json=body | {"overrides": "absent"})
    assert unknown.status_code == 400 and "overrides" in unknown.json()["detail"]
    job = {"kind": "fill", "grid": {"cells": OPEN_3X3}, "words": "file1", "overrides": "absent"}
    assert client.post("/api/jobs", json=job).status_code == 400
    # bad changes
    assert client.post("/api/overrides", json={"name": "strict"}).status_code == 201
    assert change(client, "strict", "set", "word", 101).status_code == 422
    assert change(client, "strict", "set", "word").status_code == 400  # no score
    assert change(client, "strict", "set", "semi;colon", 50).status_code == 400
    assert change(client, "strict", "set", "   ", 50).status_code == 400
    assert change(client, "strict", "burn", "word").status_code == 422
    too_many = [{"action": "ban", "word": "w"}] * 1001
    assert client.post("/api/overrides/strict/batch", json={"changes": too_many}).status_code == 422
    assert change(client, "absent", "ban", "word").status_code == 404
    assert sorted(os.listdir(folder.parent / folder.name)) == sorted(
        f for f in os.listdir(folder) if f.endswith(".txt")
    )
    assert not (folder.parent / "evil.txt").exists()


def test_limits_on_sets_and_entries(setup, monkeypatch):
    from csp_crossword.web import overrides

    client, _, _ = setup
    monkeypatch.setattr(overrides, "MAX_SET_ENTRIES", 2)
    assert client.post("/api/overrides", json={"name": "small"}).status_code == 201
    assert change(client, "small", "set", "one", 10).status_code == 200
    assert change(client, "small", "ban", "two").status_code == 200
    full = change(client, "small", "set", "three", 10)
    assert full.status_code == 400 and "at most 2" in full.json()["detail"]
    assert change(client, "small", "set", "one", 20).status_code == 200  # a rescore adds nothing
    count = len(client.get("/api/overrides").json()["sets"])
    monkeypatch.setattr(overrides, "MAX_SETS", count)
    assert client.post("/api/overrides", json={"name": "one-too-many"}).status_code == 400


def test_a_file_broken_by_hand_is_reported_with_its_line(setup):
    client, folder, _ = setup
    (folder / "by-hand.txt").write_text("ONYX;60\nEPOXY;lots\n", encoding="utf-8")
    answer = client.get("/api/overrides/by-hand")
    assert answer.status_code == 400 and "2" in answer.json()["detail"] and "lots" in answer.json()["detail"]
    listed = {s["name"]: s for s in client.get("/api/overrides").json()["sets"]}
    assert listed["by-hand"]["count"] is None and "lots" in listed["by-hand"]["error"]
    body = {"grid": {"cells": OPEN_3X3}, "slot": "1A", "words": "file1", "overrides": "by-hand"}
    assert client.post("/api/candidates", json=body).status_code == 400
    (folder / "by-hand.txt").unlink()


def test_the_exported_file_is_what_the_cli_reads(setup, tmp_path):
    client, folder, words = setup
    assert client.post("/api/overrides", json={"name": "for-cli"}).status_code == 201
    for word in ("sat", "ten"):
        change(client, "for-cli", "ban", word)
    change(client, "for-cli", "set", "ice age", 70)
    exported = client.get("/api/overrides/for-cli/export")
    assert exported.status_code == 200
    assert 'filename="for-cli.txt"' in exported.headers["content-disposition"]
    assert exported.content == (folder / "for-cli.txt").read_bytes()
    assert client.post("/api/overrides/for-cli/export").content == exported.content  # the page's way
    saved = tmp_path / "for-cli.txt"
    saved.write_bytes(exported.content)
    grid = tmp_path / "open.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    # by the file's path, and by the set's bare name (looked up in the overrides folder)
    env = os.environ | {"XDG_DATA_HOME": str(tmp_path / "data")}
    named = tmp_path / "data" / "csp-crossword" / "overrides"
    named.mkdir(parents=True)
    (named / "for-cli.txt").write_bytes(exported.content)
    for overrides, cwd in ((str(saved), tmp_path), ("for-cli", REPO)):
        run = subprocess.run(
            [sys.executable, "-m", "csp_crossword", "fill", str(grid), "--words", str(words)]
            + ["--overrides", overrides, "--format", "json", "-q"],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        result = json.loads(run.stdout)
        assert fill_words(result["cells"]) == set(SECOND)
        lexicon = load_words([str(words)], overrides=[str(saved)])
        assert verify_fill(Grid(tuple(tuple(r) for r in OPEN_3X3)), tuple(map(tuple, result["cells"])), lexicon) == []
    missing = subprocess.run(
        [sys.executable, "-m", "csp_crossword", "fill", str(grid), "--overrides", "no-such-set", "-q"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert missing.returncode == 2 and "no-such-set" in missing.stderr and str(named) in missing.stderr
