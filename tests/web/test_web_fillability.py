"""POST /api/fillability: the words each slot keeps after arc consistency, the slots no fill can
satisfy (with the library's reason), entries the list lacks kept as given; and the quick line a
page's newest request replaces its older one in (typing fast never meets a 429)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

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


def ask(client, text: str, **settings):
    answer = client.post("/api/fillability", json={"grid": {"cells": cells(text)}, "words": "file1", **settings})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_every_slot_has_its_count_after_arc_consistency(client):
    data = ask(client, ".../.../...")
    # 1A and 1D keep SAT, SET, STY... only what their crossings allow: the library's numbers
    assert data["counts"] == {"1A": 3, "4A": 2, "5A": 2, "1D": 3, "2D": 2, "3D": 2}
    assert data["dead"] == [] and data["unsatisfiable"] is None and data["exact"] is True


def test_a_pattern_no_word_matches_is_dead_with_its_reason(client):
    data = ask(client, "Q../.../...")
    dead = {row["slot"]: row["reason"] for row in data["dead"]}
    assert dead == {"1A": "no word matches Q??", "1D": "no word matches Q??"}
    assert data["counts"]["1A"] == data["counts"]["1D"] == 0
    assert data["unsatisfiable"] == "1A, 1D: no word matches Q??"
    # the rest of the grid is made consistent without the dead slots: its counts still mean something
    assert data["counts"]["4A"] > 0 and data["counts"]["2D"] > 0


def test_a_corner_arc_consistency_empties_is_named_and_so_are_the_slots_it_takes_along(client):
    # every slot matches some word, but no crossing agrees: arc consistency empties them
    data = ask(client, ".../.../..Y")
    dead = {row["slot"]: row["reason"] for row in data["dead"]}
    assert set(dead) == {"1D", "2D", "3D"}
    assert all("no word is left once every crossing is made consistent" in why for why in dead.values())
    assert data["unsatisfiable"].startswith("3D: no word is left")
    assert data["counts"]["5A"] == 1  # ..Y: STY alone
    assert all(data["counts"][slot_id] == 0 for slot_id in dead)


def test_an_entry_the_list_lacks_is_kept_as_given(client):
    data = ask(client, "XYZ/###/...")
    assert data["given"] == [{"slot": "1A", "answer": "XYZ"}]
    assert data["dead"] == [] and data["unsatisfiable"] is None
    assert data["counts"] == {"1A": 1, "2A": len(WORDS)}
    # the same with a ban (the list is filtered once and kept) and with duplicates allowed (the
    # problem adds the entry itself, for its own slot only)
    banned = ask(client, "XYZ/###/...", ban=["STY"])
    assert banned["given"] == data["given"] and banned["counts"] == {"1A": 1, "2A": len(WORDS) - 1}
    twice = ask(client, "XYZ/###/...", allow_duplicates=True)
    assert twice["given"] == data["given"] and twice["counts"] == {"1A": 1, "2A": len(WORDS)}


def test_a_banned_word_typed_in_is_kept_as_given(client):
    data = ask(client, "STY/###/...", ban=["STY"])
    assert data["given"] == [{"slot": "1A", "answer": "STY"}]
    assert data["counts"]["1A"] == 1 and not data["dead"]


def test_the_word_settings_count(client):
    assert ask(client, "S../###/...")["counts"]["1A"] == 3  # SAT SET STY
    assert ask(client, "S../###/...", ban=["STY", "SAT"])["counts"]["1A"] == 1


def test_the_same_grid_again_is_answered_from_the_prepared_problem(client):
    first = ask(client, "T../.../...")
    again = ask(client, "T../.../...")
    assert first == again


def test_bad_input_is_a_4xx_that_says_what(client):
    answer = client.post("/api/fillability", json={"grid": {"cells": cells("...")}, "words": "nope"})
    assert 400 <= answer.status_code < 500 and "detail" in answer.json()
    answer = client.post("/api/fillability", json={"grid": {"cells": cells("...")}, "slot": "1A"})
    assert answer.status_code == 422


def test_many_requests_in_a_row_never_meet_a_429(client):
    headers = {"X-CSP-Client": "a" * 32}
    for n in range(30):
        text = "S../.../..." if n % 2 else "T../.../..."
        answer = client.post(
            "/api/fillability", json={"grid": {"cells": cells(text)}, "words": "file1"}, headers=headers
        )
        assert answer.status_code == 200, answer.text


def test_a_newer_request_of_the_same_page_takes_the_older_ones_place_in_line():
    from csp_crossword.web.app import Busy, QuickGate, Superseded

    async def scenario() -> list[str]:
        gate = QuickGate(1, 1)
        release = asyncio.Event()
        outcomes: list[str] = []

        async def job(name: str, key: str | None, hold: bool = False) -> None:
            def work() -> str:
                return name

            try:
                if hold:  # keeps the one running place until released
                    await gate.slots.acquire()
                    await release.wait()
                    gate.slots.release()
                    outcomes.append(name)
                    return
                outcomes.append(await gate.run(work, key=key))
            except Superseded:
                outcomes.append(f"{name}: superseded")
            except Busy:
                outcomes.append(f"{name}: busy")

        tasks = [asyncio.ensure_future(job("running", None, hold=True))]
        await asyncio.sleep(0)
        for n in range(5):  # the same page types five times while the place is taken
            tasks.append(asyncio.ensure_future(job(f"edit{n}", "page:fillability")))
            await asyncio.sleep(0)
        tasks.append(asyncio.ensure_future(job("other page", "other:fillability")))
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(*tasks)
        assert gate.in_line == 0 and not gate.queued and not gate.slots.locked()
        return outcomes

    outcomes = asyncio.run(scenario())
    # the line holds one place: the page's newest takes it over each time, and the other page
    # (no place left) is told the server is busy
    assert sorted(outcomes) == sorted(
        [
            "running",
            "edit0: superseded",
            "edit1: superseded",
            "edit2: superseded",
            "edit3: superseded",
            "edit4",
            "other page: busy",
        ]
    )
