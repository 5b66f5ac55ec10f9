"""The constructor's work survives a file: a grid autofilled, an entry locked, saved as .ipuz and
opened again keeps its locks and which letters the fill placed (Clear fill still clears only
those); a rebus put in a cell moves the cursor on. In Chromium, through the page's own controls."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, glyph, new_grid, page_cells, put_rebus, select_across, type_at

pytestmark = NEEDS_BROWSER

SAVE_IPUZ = """
const done = arguments[arguments.length - 1];
fetch("/api/save", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({puzzle: CW.files.puzzle(), format: "ipuz"})})
  .then((answer) => answer.text()).then(done, (error) => done("failed: " + error));
"""


def test_locks_and_fill_letters_survive_save_and_open(server, browser, shots, tmp_path):
    new_grid(browser, server, 5, 5)
    type_at(browser, 4, 0, "tests")
    browser.find_element(By.ID, "autofill").click()
    WebDriverWait(browser, 60).until(lambda d: all(v for row in page_cells(d, 5, 5) for v in row))
    filled = page_cells(browser, 5, 5)
    select_across(browser, 0, 0)
    browser.find_element(By.ID, "lock-entry").click()
    saved = browser.execute_async_script(SAVE_IPUZ)
    assert saved.lstrip().startswith("{"), saved[:200]
    path = tmp_path / "work.ipuz"
    path.write_text(saved, encoding="utf-8")
    new_grid(browser, server, 5, 5)  # a blank page, then the file
    browser.find_element(By.ID, "open-file").send_keys(str(path))
    WebDriverWait(browser, 20).until(lambda d: page_cells(d, 5, 5) == filled)
    assert "locked" in cell(browser, 0, 0).get_attribute("class")
    assert "from-fill" in cell(browser, 2, 2).get_attribute("class")  # the fill's letter, still grey
    assert "from-fill" not in cell(browser, 4, 0).get_attribute("class")  # typed
    browser.find_element(By.ID, "clear-fill").click()
    WebDriverWait(browser, 10).until(lambda d: glyph(d, 2, 2) == "")
    browser.save_screenshot(str(shots / "reopened-clear-fill.png"))
    after = page_cells(browser, 5, 5)
    assert after[0] == filled[0] and after[4] == filled[4]  # locked and typed entries stay
    assert all(v == "" for r in (1, 2, 3) for v in after[r])


def test_a_rebus_moves_the_cursor_on(server, browser):
    new_grid(browser, server, 5, 5)
    put_rebus(browser, 1, 1, "star")
    browser.find_element(By.ID, "grid-input").send_keys("e")  # the next key goes to the next cell
    WebDriverWait(browser, 5).until(lambda d: glyph(d, 1, 2) == "E")
    assert glyph(browser, 1, 1) == "STAR"


def test_each_mode_keeps_its_own_title(server, browser):
    new_grid(browser, server, 5, 5)
    title = browser.find_element(By.ID, "title")
    title.clear()
    title.send_keys("Grid title")
    browser.find_element(By.ID, "mode-freeform").click()
    assert title.get_attribute("value") == ""  # the freeform puzzle is another puzzle
    title.send_keys("Word list title")
    browser.find_element(By.ID, "mode-construct").click()
    assert title.get_attribute("value") == "Grid title"
    assert browser.execute_script("return CW.files.puzzle().title") == "Grid title"
    browser.find_element(By.ID, "mode-freeform").click()
    assert title.get_attribute("value") == "Word list title"
    browser.find_element(By.ID, "mode-construct").click()


def test_the_drafts_menu_stays_inside_a_narrow_window(server, browser, shots):
    size = browser.get_window_size()
    try:
        browser.set_window_size(520, 800)
        new_grid(browser, server, 5, 5)
        type_at(browser, 0, 0, "a")  # a draft to list
        browser.find_element(By.ID, "drafts").click()
        menu = browser.find_element(By.ID, "drafts-menu")
        WebDriverWait(browser, 5).until(lambda d: menu.is_displayed())
        browser.save_screenshot(str(shots / "drafts-narrow.png"))
        left, right, width = browser.execute_script(
            "const b = arguments[0].getBoundingClientRect();"
            "return [b.left, b.right, document.documentElement.clientWidth];",
            menu,
        )
        assert left >= 0 and right <= width, (left, right, width)
        browser.find_element(By.ID, "drafts").click()
    finally:
        browser.set_window_size(size["width"], size["height"])
