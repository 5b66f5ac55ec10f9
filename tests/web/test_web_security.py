"""The web server against other sites' pages: Host allow-list, origin checks, private uploads, body
limits, error answers that quote no input, security headers and an offline /docs."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from csp_crossword.web.security import CONTENT_SECURITY_POLICY, allowed_names, host_name
from fastapi.testclient import TestClient

ANALYSE = {"grid": {"cells": [["", ""], ["", ""]]}}
WORDS = b"SAT;50\nERA;50\nTEN;50\nSET;50\nARE;50\nTAN;50\n"


@pytest.fixture(scope="module")
def app():
    from csp_crossword.web.app import ServerState, create_app
    from csp_crossword.web.jobs import JobPool
    from csp_crossword.web.wordlists import WordListStore

    application = create_app(ServerState(JobPool(1), WordListStore()), hosts=allowed_names(["crosswords.lan"]))
    with TestClient(application, base_url="http://localhost"):  # starts and stops the pool
        yield application


@pytest.fixture
def client(app):
    return TestClient(app, base_url="http://localhost:8000")


def test_host_names_are_parsed_without_port():
    assert host_name("LOCALHOST:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("::1") == "::1"
    assert "127.0.0.1" in allowed_names() and "0.0.0.0" not in allowed_names(bind_host="0.0.0.0")
    assert "192.168.1.5" in allowed_names(bind_host="192.168.1.5")


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "crosswords.lan"])
def test_allowed_hosts_are_served(app, host):
    answer = TestClient(app, base_url=f"http://{host}").get("/api/health")
    assert answer.status_code == 200


@pytest.mark.parametrize("host", ["evil.example:8000", "rebind.attacker.test", "localhost.evil.example"])
def test_other_host_names_are_refused(app, host):
    """A DNS-rebound name reaches 127.0.0.1 with the attacker's host name: refused, reads too."""
    answer = TestClient(app, base_url=f"http://{host}").get("/api/config")
    assert answer.status_code == 400
    assert "--allow-host" in answer.json()["detail"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost.evil.example:8000"},
        {"Origin": "http://localhost:3000"},  # another local server's page
        {"Origin": "http://127.0.0.1"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_cross_site_state_changes_are_refused(client, headers):
    assert client.post("/api/analyse", json=ANALYSE, headers=headers).status_code == 403
    upload = client.post("/api/wordlists", files={"file": ("w.txt", WORDS, "text/plain")}, headers=headers)
    assert upload.status_code == 403
    opened = client.post("/api/open", files={"file": ("a.txt", b"..\n..", "text/plain")}, headers=headers)
    assert opened.status_code == 403
    assert client.delete("/api/jobs/x", headers=headers).status_code == 403


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://localhost:8000"},
        {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "same-origin"},
        {},  # a script, not a browser page
    ],
)
def test_the_page_and_scripts_may_change_state(client, headers):
    assert client.post("/api/analyse", json=ANALYSE, headers=headers).status_code == 200


def test_uploads_are_private_to_the_page_that_sent_them(client):
    mine, other = {"X-CSP-Client": "a" * 32}, {"X-CSP-Client": "b" * 32}
    answer = client.post("/api/wordlists", files={"file": ("mine.txt", WORDS, "text/plain")}, headers=mine)
    list_id = answer.json()["id"]
    assert list_id in [w["id"] for w in client.get("/api/config", headers=mine).json()["wordlists"]]
    for headers in (other, {}):
        offered = [w["id"] for w in client.get("/api/config", headers=headers).json()["wordlists"]]
        assert list_id not in offered and "builtin" in offered
    grid = {"cells": [["", "", ""]] * 3}
    request = {"grid": grid, "slot": "1A", "words": list_id}
    assert client.post("/api/candidates", json=request, headers=mine).status_code == 200
    refused = client.post("/api/candidates", json=request, headers=other)
    assert refused.status_code == 400 and "no word list" in refused.json()["detail"]
    job = client.post("/api/jobs", json={"kind": "fill", "grid": grid, "words": list_id}, headers=other)
    assert job.status_code == 400


def test_a_chunked_oversized_body_is_413(client):
    from csp_crossword.web.app import MAX_BODY_BYTES

    def chunks():
        piece = b"x" * (1024 * 1024)
        for _ in range(MAX_BODY_BYTES // len(piece) + 2):
            yield piece

    answer = client.post("/api/analyse", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "MB" in answer.json()["detail"]
    form = client.post("/api/wordlists", content=chunks(), headers={"content-type": "multipart/form-data; boundary=x"})
    assert form.status_code == 413


def test_errors_never_quote_a_large_input(client):
    big = "Q" * 3_000_000
    answers = [
        client.post("/api/analyse", json={**ANALYSE, "unknown_field": big}),
        client.post("/api/analyse", json={**ANALYSE, big[:100_000]: 1}),
        client.post("/api/analyse", json={"grid": {"cells": [[big]]}}),
        client.post("/api/jobs", json={"kind": big}),
    ]
    for answer in answers:
        assert 400 <= answer.status_code < 500
        assert len(answer.content) < 5_000, (answer.status_code, answer.content[:200])
        assert answer.json()["detail"]


def test_every_answer_carries_the_security_headers(client):
    for answer in (client.get("/"), client.get("/api/health"), client.get("/nope"), client.get("/static/api.js")):
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
    refused = TestClient(client.app, base_url="http://evil.example").get("/")
    assert refused.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_docs_page_has_no_outside_url(client):
    page = client.get("/docs")
    assert page.status_code == 200 and "/api/jobs" in page.text and "FillJobRequest" in page.text
    assert not re.search(r"(src|href)=\"(https?:)?//", page.text), "the page loads something from outside"
    for asset in re.findall(r"(?:src|href)=\"(/[^\"]+)\"", page.text):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "csp-crossword"


def test_the_page_loads_nothing_from_outside(client):
    page = client.get("/").text
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "<script>" not in page and " style=" not in page and "onclick" not in page


def test_json_bodies_have_a_smaller_limit_than_uploads(client):
    from csp_crossword.web.app import MAX_BODY_BYTES, MAX_JSON_BODY_BYTES

    assert MAX_JSON_BODY_BYTES < MAX_BODY_BYTES
    body = b'{"grid": {"cells": [["' + b"x" * (MAX_JSON_BODY_BYTES + 1) + b'"]]}}'
    assert client.post("/api/analyse", content=body, headers={"content-type": "application/json"}).status_code == 413
    words = b"word;50\n" * ((MAX_JSON_BODY_BYTES + 1) // 8 + 1)  # over the JSON limit, under the upload one
    upload = client.post("/api/wordlists", files={"file": ("big.txt", words, "text/plain")})
    assert upload.status_code == 200, upload.text[:200]


def test_a_huge_grid_row_is_refused_at_once(client):
    import time

    row = [1] * 1_000_000  # not even strings: item by item, this took 28 s and 1.3 GB
    started = time.monotonic()
    for body in (
        {"grid": {"cells": [row]}},
        {"puzzle": {"grid": {"cells": [[""]]}, "solution": [row]}, "format": "txt"},
    ):
        path = "/api/analyse" if "grid" in body else "/api/save"
        answer = client.post(path, json=body)
        assert answer.status_code == 422 and len(answer.content) < 5_000
    assert time.monotonic() - started < 20  # generous for a loaded machine: the fault took 28 s alone
