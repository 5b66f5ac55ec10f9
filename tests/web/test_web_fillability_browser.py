"""What still fits, shown while typing (a real headless Chromium): letters that kill a corner mark
its cells with the reason on hover, fixing it clears the marks, fast typing never shows a 429,
and a result box of an earlier Check goes once the grid is edited. Skipped without Chromium."""

from __future__ import annotations

import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, glyph, select_across, type_at

pytestmark = NEEDS_BROWSER

PATTERN = Path(__file__).resolve().parents[2] / "grids" / "american" / "am15-01.txt"


def load_pattern(driver, base: str) -> list[str]:
    """The page with the 15x15 American pattern am15-01 in it (no letters), and its rows."""
    rows = PATTERN.read_text().split()
    driver.get(base + "/")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    cells = [[None if ch == "#" else "" for ch in row] for row in rows]
    driver.execute_script("CW.construct.loadPuzzle({grid: {cells: arguments[0], rtl: false}, clues: {}});", cells)
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 225)
    wait_outlook(driver)
    return rows


def wait_outlook(driver, seconds: float = 10) -> str:
    """The fillability line once it answers the grid as it is now (no request pending)."""
    WebDriverWait(driver, seconds).until(
        lambda d: (
            d.find_element(By.ID, "fit-summary").text
            and "stale" not in d.find_element(By.ID, "fit-summary").get_attribute("class")
            and d.execute_script(
                "return !!CW.state.fit && CW.state.fit.key === JSON.stringify({grid: {cells: CW.state.cells, rtl: CW.state.rtl}, ...CW.solver.wordSettings()})"
            )
        )
    )
    return driver.find_element(By.ID, "fit-summary").text


def dead_cells(driver) -> set[tuple[int, int]]:
    return {
        (int(node.get_attribute("data-row")), int(node.get_attribute("data-col")))
        for node in driver.find_elements(By.CSS_SELECTOR, "#grid .cell.dead")
    }


def test_a_dead_corner_is_marked_with_its_reason_and_fixing_it_clears_the_marks(server, browser, shots):
    rows = load_pattern(browser, server)
    assert rows[0].startswith("....#")
    assert "every entry still has words" in wait_outlook(browser)
    assert not dead_cells(browser)

    type_at(browser, 0, 0, "xq")  # 1A: XQ?? — no word of the list starts so
    WebDriverWait(browser, 10).until(lambda d: dead_cells(d))
    outlook = wait_outlook(browser)
    browser.save_screenshot(str(shots / "fillability-dead-corner.png"))
    assert {(0, 0), (0, 1), (0, 2), (0, 3)} <= dead_cells(browser)
    assert "no word" in outlook and "1A" in outlook
    hover = cell(browser, 0, 2).get_attribute("title")
    assert "1A: no word fits" in hover and "no word matches XQ??" in hover
    # the selected entry's line says so too
    assert "no word fits" in browser.find_element(By.ID, "current-entry").text

    # Check says unsolvable; the box goes as soon as the grid is edited
    browser.find_element(By.ID, "check").click()
    WebDriverWait(browser, 60).until(
        lambda d: (
            d.find_element(By.ID, "result").is_displayed()
            and "unsolvable" in d.find_element(By.ID, "result").text.lower()
        )
    )
    select_across(browser, 0, 1)
    browser.find_element(By.ID, "grid-input").send_keys(Keys.BACKSPACE)
    WebDriverWait(browser, 5).until(lambda d: not d.find_element(By.ID, "result").is_displayed())

    # fixing the corner: the marks go
    browser.find_element(By.ID, "grid-input").send_keys(Keys.BACKSPACE)  # X too
    WebDriverWait(browser, 10).until(lambda d: glyph(d, 0, 0) == "" and glyph(d, 0, 1) == "")
    WebDriverWait(browser, 10).until(lambda d: not dead_cells(d))
    assert "every entry still has words" in wait_outlook(browser)
    browser.save_screenshot(str(shots / "fillability-fixed.png"))


def test_counts_show_on_hover_and_in_the_entry_line(server, browser, shots):
    load_pattern(browser, server)
    select_across(browser, 0, 0)
    WebDriverWait(browser, 10).until(lambda d: "fit" in d.find_element(By.ID, "current-entry").text)
    assert "words fit" in browser.find_element(By.ID, "current-entry").text
    hover = cell(browser, 0, 0).get_attribute("title")
    assert hover.startswith("1A: ") and "1D: " in hover and "words fit" in hover


def test_fast_typing_never_shows_a_429(server, browser, shots):
    load_pattern(browser, server)
    browser.execute_script("CW.fillability.timings.length = 0;")
    # three rows of letters as fast as the driver types, word after word, with deletions between
    for r, text in ((6, "STREAMS"), (7, "ARIA"), (8, "TENET")):
        type_at(browser, r, 0, text)
        browser.find_element(By.ID, "grid-input").send_keys(Keys.BACKSPACE * 2 + text[-2:].lower())
    # then a key every 170 ms, just past the page's wait: every key sends its requests
    # (fillability, candidates), each aborting the one before
    box = browser.find_element(By.ID, "grid-input")
    select_across(browser, 10, 5)
    for n in range(16):
        box.send_keys(Keys.BACKSPACE if n % 4 == 3 else "etaoinshr"[n % 9])
        time.sleep(0.17)
        text = browser.execute_script("return document.body.innerText")  # one call: .text walks the page
        assert "429" not in text and "Too Many" not in text, text
    wait_outlook(browser, 20)
    status = browser.find_element(By.ID, "status")
    page = browser.find_element(By.TAG_NAME, "body").text
    browser.save_screenshot(str(shots / "fillability-fast-typing.png"))
    assert "429" not in page and "Too Many" not in page, page
    assert status.get_attribute("data-kind") != "error", status.text
    assert browser.execute_script("return CW.fillability.timings.length") >= 1


def test_a_fill_result_box_goes_once_the_grid_is_edited(server, browser, shots):
    load_pattern(browser, server)
    browser.find_element(By.ID, "autofill").click()
    WebDriverWait(browser, 90).until(
        lambda d: (
            d.find_element(By.ID, "result").is_displayed()
            and not d.find_element(By.ID, "autofill").get_attribute("disabled")
        )
    )
    assert browser.find_element(By.ID, "result").text
    select_across(browser, 1, 0)
    browser.find_element(By.ID, "grid-input").send_keys(Keys.DELETE)
    WebDriverWait(browser, 5).until(lambda d: not d.find_element(By.ID, "result").is_displayed())


def test_the_page_opens_with_its_outlook_and_a_grid_of_blocks_asks_nothing(server, browser, shots):
    browser.get(server + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    assert "every entry still has words" in wait_outlook(browser)
    # a 2x2 of blocks: no entry, no request, no error
    browser.execute_script(
        "CW.construct.loadPuzzle({grid: {cells: [[null, null], [null, null]], rtl: false}, clues: {}});"
    )
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "fit-summary").text == "")
    assert browser.find_element(By.ID, "status").get_attribute("data-kind") != "error"
    assert not browser.find_elements(By.CSS_SELECTOR, "#grid .cell.dead")
