"""Clue suggestions ranked, and a clued "Pattern + fill", in Chromium.

The server reads a clue database of three small puzzles (``serve --clue-db``): the Clues tab lists
an entry's clues best first (the database's, most used first, then the built-in ones), each with
its source, the first marked as the suggested one; the list of an entry never shows under
another's heading. The Patterns tab's fill uses only entries a clue source clues (the box "allow
unclued entries" opts out), so "Fill empty clues" then gives every entry its clue.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, new_grid, select_across, type_at
from conftest import running_server

pytestmark = NEEDS_BROWSER

#: SAT / ERA / TEN across, SET / ARE / TAN down, in three files: "Epoch" for ERA twice.
PUZZLES = {"one": "Epoch", "two": "Epoch", "three": "Long time"}
#: Milliseconds the page's clue requests are held back, to see the page while one is on its way.
HOLD_MS = 1500


@pytest.fixture(scope="module")
def clue_server(tmp_path_factory):
    from csp_crossword.api import import_clues

    folder = tmp_path_factory.mktemp("puzzles")
    for name, era in PUZZLES.items():
        (folder / f"{name}.xd").write_text(
            f"Title: Puzzle {name}\n\n\nSAT\nERA\nTEN\n\n\nA1. Took a chair ~ SAT\nA4. {era} ~ ERA\n"
            "A5. Digits on two hands ~ TEN\n\nD1. Ready ~ SET\nD2. Exist ~ ARE\nD3. Bronze ~ TAN\n",
            encoding="utf-8",
        )
    database = tmp_path_factory.mktemp("db") / "clues.sqlite"
    import_clues(folder, database)
    with running_server("--workers", "1", "--clue-db", str(database)) as base:
        yield base


def picks(driver) -> list[dict[str, str]]:
    """The suggestions as listed: rank, clue, source, and whether it is the suggested one."""
    return driver.execute_script(
        """return [...document.querySelectorAll('#clue-suggestions .clue-pick')].map((b) => ({
             rank: b.querySelector('.clue-pick-rank').textContent,
             clue: b.querySelector('.clue-pick-text').textContent,
             source: b.querySelector('.clue-pick-source').textContent,
             kind: b.dataset.kind || '',
             suggested: b.classList.contains('suggested') && !!b.querySelector('.clue-pick-mark'),
           }));"""
    )


def head(driver) -> str:
    return driver.find_element(By.ID, "clue-suggest-head").text


def select_down(driver, r: int, c: int) -> None:
    cell(driver, r, c).click()
    if not driver.find_element(By.ID, "current-entry").text.split(" ")[0].endswith("D"):
        driver.find_element(By.ID, "grid-input").send_keys(" ")
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "current-entry").text.split(" ")[0].endswith("D"))


def test_suggestions_best_first_with_their_source(clue_server, browser, shots):
    new_grid(browser, clue_server, 3, 3)
    for row, word in enumerate(("sat", "era", "ten")):
        type_at(browser, row, 0, word)
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="clues"]').click()

    select_across(browser, 1, 0)  # 4A ERA: "Epoch" in two puzzles, "Long time" in one, then built-in
    WebDriverWait(browser, 20).until(lambda d: picks(d) and head(d).startswith("Clues for 4A ERA"))
    shown = picks(browser)
    browser.save_screenshot(str(shots / "clue-rank-era.png"))
    assert head(browser) == "Clues for 4A ERA:"
    assert [p["rank"] for p in shown] == [f"{n}." for n in range(1, len(shown) + 1)]
    assert shown[0] == {
        "rank": "1.",
        "clue": "Epoch",
        "source": "your database · 2 puzzles",
        "kind": "db",
        "suggested": True,
    }
    assert shown[1]["clue"] == "Long time" and shown[1]["source"] == "your database · 1 puzzle"
    assert len(shown) > 2 and all(p["source"] == "built-in" and p["kind"] == "builtin" for p in shown[2:])
    assert not any(p["suggested"] for p in shown[1:])

    # A reply held back: the list of 4A goes the moment 1D is selected, before 1D's clues come.
    browser.execute_script(
        """const post = CW.api.post, hold = arguments[0];
           window.heldReplies = 0;
           CW.api.post = (path, body, options) => path !== '/api/clues/suggest' ? post(path, body, options)
             : new Promise((done) => setTimeout(done, hold))
                 .then(() => post(path, body, options))
                 .then((reply) => { window.heldReplies++; return reply; });""",
        HOLD_MS,
    )
    select_down(browser, 0, 0)  # 1D SET
    WebDriverWait(browser, 5).until(lambda d: head(d).startswith("Clues for 1D SET: looking"))
    assert picks(browser) == []
    WebDriverWait(browser, 20).until(lambda d: picks(d))
    assert head(browser) == "Clues for 1D SET:" and picks(browser)[0]["clue"] == "Ready"

    # A reply for an entry no longer selected is dropped: 3D's comes while 4A (known) is shown.
    select_down(browser, 0, 2)  # 3D TAN, held back
    WebDriverWait(browser, 5).until(lambda d: head(d).startswith("Clues for 3D TAN: looking"))
    select_across(browser, 1, 0)  # 4A again: its list is kept, no request
    WebDriverWait(browser, 5).until(lambda d: head(d).startswith("Clues for 4A ERA"))
    held = browser.execute_script("return window.heldReplies")
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return window.heldReplies") > held)
    browser.execute_script("return new Promise((done) => setTimeout(done, 300))")  # the page's handler ran
    assert head(browser) == "Clues for 4A ERA:"
    assert [p["clue"] for p in picks(browser)] == [p["clue"] for p in shown]


def entries_of(cells) -> list[str]:
    """The grid's entries (across and down runs of two or more cells)."""
    found = []
    for lines in (cells, [list(column) for column in zip(*cells)]):
        for line in lines:
            run: list[str] = []
            for value in [*line, None]:
                if value is None:
                    if len(run) >= 2:
                        found.append("".join(run))
                    run = []
                else:
                    run.append(value)
    return found


def wait_generated(driver, expected: str) -> str:
    """The result line once the generate job is over and the line says ``expected`` (or no fill)."""
    WebDriverWait(driver, 60).until(
        lambda d: (
            not d.find_element(By.ID, "pat-cancel").is_enabled()
            and any(part in d.find_element(By.ID, "result").text for part in (expected, "no complete fill"))
        )
    )
    return driver.find_element(By.ID, "result").text


def test_pattern_and_fill_uses_clued_entries(clue_server, browser, shots):
    from csp_crossword.clues.chain import builtin_source

    new_grid(browser, clue_server, 5, 5)
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="patterns"]').click()
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "tab-patterns").is_displayed())
    unclued = browser.find_element(By.ID, "pat-allow-unclued")
    assert not unclued.is_selected()  # clued entries only, unless asked
    for field, value in (("pat-rows", "7"), ("pat-cols", "7"), ("pat-seed", "1"), ("pat-time", "20")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "pat-fill").click()
    text = wait_generated(browser, "clued entries only")
    assert "filled" in text and "clued entries only" in text, text
    cells = browser.execute_script("return CW.state.cells")
    entries = entries_of(cells)
    assert entries and all(entries)
    clued = builtin_source().entries() | {"SAT", "ERA", "TEN", "SET", "ARE", "TAN"}
    assert [entry for entry in entries if entry not in clued] == []

    # every entry gets its clue from the same sources
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="clues"]').click()
    browser.find_element(By.ID, "clues-fill").click()
    WebDriverWait(browser, 30).until(lambda d: "clues:" in d.find_element(By.ID, "status").text)
    status = browser.find_element(By.ID, "status").text
    assert "every complete entry has its clue" in status, status
    boxes = browser.find_elements(By.CSS_SELECTOR, "#clue-list input.clue-text")
    assert len(boxes) == len(entries) and all(box.get_attribute("value") for box in boxes)
    browser.save_screenshot(str(shots / "clue-rank-pattern-fill.png"))

    # the opt-out: the box ticked, the fill may use entries without a clue
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="patterns"]').click()
    browser.find_element(By.ID, "pat-allow-unclued").click()
    browser.find_element(By.ID, "pat-fill").click()
    text = wait_generated(browser, "unclued entries allowed")
    assert "filled" in text and "unclued entries allowed" in text, text
