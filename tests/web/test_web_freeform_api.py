"""Freeform mode's quick requests: replacing a word of a board (POST /api/freeform/replace) and
printing the word search (POST /api/print with ``wordsearch``). The boards are checked from their
cells by a run reader written here, and the PDFs are read back with pdftotext."""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.words.builtin import builtin_lexicon
from fastapi.testclient import TestClient

from web_jobs import wait_job

ORIGIN = {"Origin": "http://localhost"}
# CAT down through the A of BAKE: BAKE's pattern is ?A??, CAT's is ?A?.
BOARD = [
    [None, "C", None, None],
    ["B", "A", "K", "E"],
    [None, "T", None, None],
]
THEME = ["PLANET", "ORBIT", "COMET", "GALAXY", "NEBULA", "ROCKET", "METEOR", "STAR", "MOON", "SATURN"]


@pytest.fixture(scope="module")
def client():
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    app = create_app(ServerState(JobPool(1, max_queued=2), WordListStore([])))
    with TestClient(app, base_url="http://localhost", headers=ORIGIN) as test_client:
        yield test_client


def runs(cells):
    """Every run of two or more letters: {(direction, first cell): word}."""
    found = {}
    rows, cols = len(cells), len(cells[0])
    letter = lambda r, c: 0 <= r < rows and 0 <= c < cols and cells[r][c] is not None  # noqa: E731
    for r in range(rows):
        for c in range(cols):
            if not letter(r, c):
                continue
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                if letter(r - dr, c - dc) or not letter(r + dr, c + dc):
                    continue
                word, rr, cc = "", r, c
                while letter(rr, cc):
                    word, rr, cc = word + cells[rr][cc], rr + dr, cc + dc
                found[(direction, (r, c))] = word
    return found


def replaced(cells, answer):
    new = [list(row) for row in cells]
    for (r, c), glyph in zip(answer["cells"], answer["word"], strict=True):
        new[r][c] = glyph
    return new


def matches(word, pattern):
    return len(word) == len(pattern) and all(p in ("?", g) for g, p in zip(word, pattern, strict=True))


def test_replace_takes_an_unplaced_word_of_the_pasted_list_that_fits(client):
    entries = [{"word": w, "clue": f"clue of {w}"} for w in ("CAT", "BAKE", "LANE", "DOME", "RATS", "CAKE")]
    seen = set()
    for seed in range(8):
        body = {"cells": BOARD, "row": 1, "col": 0, "direction": "across", "seed": seed, "entries": entries}
        answer = client.post("/api/freeform/replace", json=body).json()
        assert answer["pattern"] == "?A??" and answer["choices"] == 3  # LANE, RATS, CAKE; not BAKE, not DOME
        assert answer["word"] in {"LANE", "RATS", "CAKE"} and answer["clue"] == f"clue of {answer['word']}"
        board = runs(replaced(BOARD, answer))
        assert board == {("down", (0, 1)): "CAT", ("across", (1, 0)): answer["word"]}  # CAT keeps its A
        seen.add(answer["word"])
    assert len(seen) >= 2  # random by the seed


def test_replace_draws_from_the_built_in_list_by_default(client):
    lexicon = builtin_lexicon("en")
    body = {"cells": BOARD, "row": 0, "col": 1, "direction": "down", "seed": 3}
    answer = client.post("/api/freeform/replace", json=body).json()
    word = answer["word"]
    assert answer["pattern"] == "?A?" and matches(word, "?A?") and word not in ("CAT", "BAKE")
    assert word in lexicon  # the list without offensive words (the default)
    assert runs(replaced(BOARD, answer))[("across", (1, 0))] == "BAKE"
    assert answer["cells"] == [[0, 1], [1, 1], [2, 1]] and answer["clue"] == (lexicon.clue(word) or "")


def test_replace_says_which_pattern_no_word_fits(client):
    entries = [{"word": w} for w in ("CAT", "BAKE", "DOME")]
    body = {"cells": BOARD, "row": 1, "col": 0, "direction": "across", "entries": entries}
    refused = client.post("/api/freeform/replace", json=body)
    assert refused.status_code == 400 and "no word of the list fits ?A??" in refused.json()["detail"]
    body.update(row=1, col=1)  # no across word starts there
    refused = client.post("/api/freeform/replace", json=body)
    assert refused.status_code == 400 and "no across word starts at row 2, column 2" in refused.json()["detail"]
    body.update(row=1, col=0, cells=[["B", "AK"]])
    assert client.post("/api/freeform/replace", json=body).status_code == 400


@pytest.fixture(scope="module")
def laid_out(client):
    entries = [{"word": w, "clue": ""} for w in THEME]
    body = {"kind": "freeform", "entries": entries, "rows": 13, "cols": 13, "time_limit": 2, "seed": 2}
    job = client.post("/api/jobs", json=body).json()
    result = wait_job(client, job["id"])["result"]
    assert len(result["placed"]) >= 6
    return result


def print_search(client, result, solution=False, fmt="pdf", square=None):
    puzzle = {"grid": {"cells": result["cells"]}, "freeform": True, "title": "Space words"}
    square = square if square is not None else [list(row) for row in result["wordsearch"]]
    body = {"puzzle": puzzle, "solution": solution, "format": fmt, "wordsearch": square}
    return client.post("/api/print", json=body)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_word_search_prints_the_square_and_the_words_to_find(client, laid_out, tmp_path):
    pytest.importorskip("weasyprint")
    sheet = print_search(client, laid_out)
    assert sheet.status_code == 200 and sheet.headers["content-type"] == "application/pdf"
    path = tmp_path / "search.pdf"
    path.write_bytes(sheet.content)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Space words" in text and f"Find these {len(laid_out['placed'])} words" in text
    listed = text.split("across or down.")[1]
    for row in laid_out["wordsearch"]:
        assert " ".join(row) in listed or "".join(row) in listed.replace(" ", "")  # the square, row by row
    for word in laid_out["placed"]:
        assert word in listed.split()  # the word list below the square
    for word in set(THEME) - set(laid_out["placed"]):
        assert word not in listed.split()
    key = print_search(client, laid_out, solution=True)
    path.write_bytes(key.content)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert key.status_code == 200 and "answer key" in text


def test_word_search_print_checks_its_square(client, laid_out):
    square = [list(row) for row in laid_out["wordsearch"]]
    html = print_search(client, laid_out, fmt="html", square=square)
    assert html.status_code == 200 and html.text.count('class="l') == len(square) * len(square[0])
    assert print_search(client, laid_out, fmt="svg").status_code == 400
    wrong = [list(row) for row in square]
    r, c = next((r, c) for r, row in enumerate(laid_out["cells"]) for c, v in enumerate(row) if v)
    wrong[r][c] = "Q" if wrong[r][c] != "Q" else "Z"
    refused = print_search(client, laid_out, square=wrong)
    assert refused.status_code == 400 and "differs from the puzzle" in refused.json()["detail"]
    refused = print_search(client, laid_out, square=square[:-1])
    assert refused.status_code == 400 and "like the grid" in refused.json()["detail"]
