"""The web API's clue help: POST /api/clues/suggest (one entry's suggestions, best first, each with
its rank and source) and POST /api/clues with ``sources: "chain"`` (the page's "Fill empty
clues"): the word list, then the clue database, then the built-in clues. And the generate job's
fill ("Pattern + fill"): only entries that a clue source clues, unless ``allow_unclued``."""

from __future__ import annotations

import os
import threading
from unittest import mock

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.api import import_clues
from csp_crossword.clues.rules import reveals
from csp_crossword.web.models import MAX_CLUE_SUGGESTIONS
from fastapi.testclient import TestClient

# SAT / ERA / TEN across, SET / ARE / TAN down.
SQUARE = "SAT\nERA\nTEN"


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    folder = tmp_path_factory.mktemp("files")
    (folder / "mine.xd").write_text(
        "Title: Mine\nAuthor: Ann Setter\n\n\nSAT\nERA\nTEN\n\n\n"
        "A1. Posed for a portrait ~ SAT\nA4. Epoch ~ ERA\nA5. Perfect score ~ TEN\n\n"
        "D1. Put down ~ SET\nD2. Exist ~ ARE\nD3. Sunburn result, maybe ~ TAN\n",
        encoding="utf-8",
    )
    path = tmp_path_factory.mktemp("db") / "clues.sqlite"
    import_clues(folder, path)
    return path


@pytest.fixture(scope="module")
def client(tmp_path_factory, database):
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    words = tmp_path_factory.mktemp("lists") / "square.csv"
    words.write_text("word,clue\nSAT,Took a seat\nERA,\nTEN,\nSET,\nARE,\nTAN,\n", encoding="utf-8")
    with mock.patch.dict(os.environ, {"CSP_CROSSWORD_CLUE_DB": str(database)}):
        app = create_app(ServerState(JobPool(1, max_queued=2), WordListStore([str(words)])))
        with TestClient(app, base_url="http://localhost") as test_client:
            test_client.words_id = test_client.get("/api/config").json()["wordlists"][-1]["id"]
            yield test_client


def cells_of(text: str) -> list[list[str | None]]:
    return [[None if ch == "#" else ("" if ch == "." else ch) for ch in row] for row in text.split("\n")]


def suggest(client, **body):
    return client.post("/api/clues/suggest", json=body)


def test_suggestions_list_then_database_then_builtin(client):
    reply = suggest(client, entry="sat", limit=10, words=client.words_id)
    assert reply.status_code == 200
    data = reply.json()
    assert data["entry"] == "SAT"
    rows = data["suggestions"]
    assert rows[0] == {
        "clue": "Took a seat",
        "source": "the word list",
        "uses": 1,
        "rank": 1,
        "suggested": True,
        "kind": "list",
        "label": "your word list",
    }
    assert rows[1]["clue"] == "Posed for a portrait" and "Mine" in rows[1]["source"] and rows[1]["uses"] == 1
    assert rows[1]["kind"] == "db" and rows[1]["label"] == "your database · 1 puzzle"
    assert any("built-in" in row["source"] for row in rows[2:])  # WordNet's, shipped
    assert len({row["clue"].casefold() for row in rows}) == len(rows) <= 10
    assert not [row for row in rows if reveals("SAT", row["clue"])]
    # the built-in list has no clues: the database's come first
    assert suggest(client, entry="ERA", limit=2).json()["suggestions"][0]["clue"] == "Epoch"
    assert len(suggest(client, entry="ERA", limit=2).json()["suggestions"]) == 2


#: The chain's order: a suggestion of a later source never comes before one of an earlier source.
CHAIN_ORDER = ("list", "db", "builtin", "wordnet")


def test_suggestions_come_ranked_with_their_source(client):
    rows = suggest(client, entry="SAT", limit=10, words=client.words_id).json()["suggestions"]
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert [row["suggested"] for row in rows] == [True] + [False] * (len(rows) - 1)
    kinds = [row["kind"] for row in rows]
    assert kinds == sorted(kinds, key=CHAIN_ORDER.index) and kinds[:2] == ["list", "db"] and "builtin" in kinds
    for row in rows:
        if row["kind"] == "builtin":
            assert row["label"] == "built-in" and row["source"].startswith("built-in")
    # no word list of the user's: the database's clue is the suggested one
    rows = suggest(client, entry="ERA", limit=4).json()["suggestions"]
    assert rows[0]["clue"] == "Epoch" and rows[0]["kind"] == "db" and rows[0]["suggested"]
    assert [row["kind"] for row in rows[1:]] == ["builtin"] * (len(rows) - 1)
    # the built-in clues alone, in their own ranked order
    from csp_crossword.clues.chain import builtin_source

    rows = suggest(client, entry="HOUSE", limit=3).json()["suggestions"]
    assert [row["clue"] for row in rows] == [s.clue for s in builtin_source().suggestions("HOUSE", 3)]
    assert [(row["rank"], row["kind"], row["label"]) for row in rows] == [(n, "builtin", "built-in") for n in (1, 2, 3)]
    assert suggest(client, entry="XQZVW").json()["suggestions"] == []


def test_a_clue_of_several_puzzles_says_how_many(tmp_path):
    """The database's clues, most used first, labelled with the puzzles that used them."""
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    for name, era in (("one", "Epoch"), ("two", "Epoch"), ("three", "Long time")):
        (tmp_path / f"{name}.xd").write_text(
            f"Title: {name}\n\n\nSAT\nERA\nTEN\n\n\nA1. Took a chair ~ SAT\nA4. {era} ~ ERA\nA5. Digits ~ TEN\n\n"
            "D1. Ready ~ SET\nD2. Exist ~ ARE\nD3. Bronze ~ TAN\n",
            encoding="utf-8",
        )
    database = tmp_path / "many.sqlite"
    import_clues(tmp_path, database)
    app = create_app(ServerState(JobPool(1, max_queued=2), WordListStore([], clue_db=str(database))))
    with TestClient(app, base_url="http://localhost") as test_client:
        rows = suggest(test_client, entry="ERA", limit=4).json()["suggestions"]
    assert [(row["clue"], row["label"]) for row in rows[:2]] == [
        ("Epoch", "your database · 2 puzzles"),
        ("Long time", "your database · 1 puzzle"),
    ]
    assert rows[0]["suggested"] and rows[0]["uses"] == 2
    assert all(row["kind"] == "builtin" for row in rows[2:])


def test_an_entry_by_its_slot_id(client):
    grid = {"cells": cells_of(SQUARE)}
    data = suggest(client, grid=grid, entry="3d", limit=3).json()
    assert data["entry"] == "TAN" and data["suggestions"][0]["clue"] == "Sunburn result, maybe"
    assert suggest(client, grid=grid, entry="9A").status_code == 400
    partial = {"cells": cells_of("SA.\nERA\nTEN")}
    assert suggest(client, grid=partial, entry="1A").json() == {"entry": "SA?", "suggestions": []}
    assert suggest(client, entry="XQZVW").json()["suggestions"] == []


def test_bounds(client):
    assert suggest(client, entry="SAT", limit=MAX_CLUE_SUGGESTIONS + 1).status_code == 422
    assert suggest(client, entry="SAT", limit=0).status_code == 422
    assert suggest(client, entry="").status_code == 422
    assert suggest(client, entry="A" * 1000).status_code == 422
    assert suggest(client, entry="SAT", extra=1).status_code == 422


def test_fill_all_uses_the_chain(client):
    grid = {"cells": cells_of(SQUARE)}
    listed = client.post("/api/clues", json={"grid": grid, "words": client.words_id}).json()
    assert listed["clues"] == {"1A": "Took a seat"} and listed["sources"] == {"1A": "list"}
    chained = client.post("/api/clues", json={"grid": grid, "words": client.words_id, "sources": "chain"}).json()
    assert chained["clues"]["1A"] == "Took a seat" and chained["sources"]["1A"] == "list"
    assert chained["clues"]["4A"] == "Epoch" and chained["sources"]["4A"] == "db"
    assert set(chained["clues"]) == {"1A", "4A", "5A", "1D", "2D", "3D"}
    # a grid with an empty cell: only its complete entries
    partial = {"cells": cells_of("SA.\nERA\nTEN")}
    some = client.post("/api/clues", json={"grid": partial, "sources": "chain"}).json()
    assert set(some["clues"]) == {"4A", "5A", "1D", "2D"}
    assert client.post("/api/clues", json={"grid": grid, "sources": "all"}).status_code == 422


def test_a_server_reads_the_clue_database_it_was_given(tmp_path, database):
    """serve --clue-db FILE: the suggestions come from FILE, not from the user's database."""
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    (tmp_path / "other.xd").write_text(
        "Title: Other\n\n\nSAT\nERA\nTEN\n\n\nA1. Took a chair ~ SAT\nA4. Age ~ ERA\nA5. Digits on two hands ~ TEN\n\n"
        "D1. Ready ~ SET\nD2. Exist ~ ARE\nD3. Bronze ~ TAN\n",
        encoding="utf-8",
    )
    other = tmp_path / "other.sqlite"
    import_clues(tmp_path / "other.xd", other)
    with mock.patch.dict(os.environ, {"CSP_CROSSWORD_CLUE_DB": str(database)}):
        app = create_app(ServerState(JobPool(1, max_queued=2), WordListStore([], clue_db=str(other))))
        with TestClient(app, base_url="http://localhost") as test_client:
            found = [s["clue"] for s in suggest(test_client, entry="TEN").json()["suggestions"]]
    assert found[0] == "Digits on two hands" and "Perfect score" not in found


def test_a_generate_job_fills_with_clued_entries_unless_asked(database):
    """The page's Pattern + fill: ``api.generate`` gets the clue chain as ``clued_by`` (the server's
    clue database, then the built-in clues), so every entry of the fill has a clue; with
    ``allow_unclued``, no ``clued_by``."""
    from csp_crossword import api
    from csp_crossword.clues.chain import builtin_source
    from csp_crossword.web.generating import run_generate
    from csp_crossword.web.models import GenerateJobRequest
    from csp_crossword.words.builtin import builtin_lexicon

    given: list = []
    generate = api.generate

    def spy(*args, **kwargs):
        given.append(kwargs["clued_by"])
        return generate(*args, **kwargs)

    lexicon = builtin_lexicon("en")
    clued = builtin_source().entries() | {"SAT", "ERA", "TEN", "SET", "ARE", "TAN"}
    for allow in (False, True):
        request = GenerateJobRequest(
            kind="generate", rows=5, cols=5, style="open", method="csp", seed=1, time_limit=20, allow_unclued=allow
        ).model_dump()
        request["clue_db"] = str(database)  # what the server adds: its clue database
        with mock.patch.object(api, "generate", spy):
            document = run_generate(request, lexicon, threading.Event(), None)
        assert document["status"] == "filled", document.get("reason")
        if not allow:
            assert [entry["answer"] for entry in document["entries"] if entry["answer"] not in clued] == []
    assert [source.name for source in given[0]] == ["db", "builtin"]
    assert given[1] is None
    assert GenerateJobRequest(kind="generate").allow_unclued is False
