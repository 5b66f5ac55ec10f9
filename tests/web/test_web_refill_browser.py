"""Fill, ban, fill again; clear fill; typed letters kept: in Chromium, by mouse and by keyboard."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, glyph, new_grid, page_cells, put_rebus, select_across, type_at

pytestmark = NEEDS_BROWSER


def autofill(driver) -> str:
    """Press Autofill and wait for its answer; the result box's text."""
    before = driver.find_element(By.ID, "result").get_attribute("textContent")
    driver.find_element(By.ID, "autofill").click()
    WebDriverWait(driver, 60).until(
        lambda d: (
            not d.find_element(By.ID, "autofill").get_attribute("disabled")
            and d.find_element(By.ID, "result").is_displayed()
            and d.find_element(By.ID, "result").get_attribute("textContent") != before
        )
    )
    return driver.find_element(By.ID, "result").text


def verified(cells) -> list[str]:
    from csp_crossword.core.grid import Grid
    from csp_crossword.verify.fill import verify_fill
    from csp_crossword.words.builtin import builtin_lexicon

    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    return verify_fill(pattern, cells, builtin_lexicon())


def test_fill_ban_and_fill_again(server, browser, shots):
    new_grid(browser, server, 5, 5)
    type_at(browser, 2, 0, "house")
    text = autofill(browser)
    assert text.startswith("Filled"), text
    first = page_cells(browser, 5, 5)
    assert verified(first) == [] and "".join(first[2]) == "HOUSE"
    assert "from-fill" in cell(browser, 0, 0).get_attribute("class")  # drawn grey: the fill's letter
    assert "from-fill" not in cell(browser, 2, 0).get_attribute("class")  # typed: stays black
    banned = "".join(first[0])
    select_across(browser, 0, 0)
    browser.find_element(By.ID, "ban-entry").click()
    text = autofill(browser)  # used to fail: the old fill's letters were sent as given
    browser.save_screenshot(str(shots / "refill-after-ban.png"))
    assert text.startswith("Filled"), text
    second = page_cells(browser, 5, 5)
    assert verified(second) == [] and "".join(second[2]) == "HOUSE"
    entries = ["".join(row) for row in second] + ["".join(second[r][c] for r in range(5)) for c in range(5)]
    assert banned not in entries


def test_clear_fill_keeps_typed_and_locked_letters_by_keyboard(server, browser, shots):
    new_grid(browser, server, 5, 5)
    type_at(browser, 4, 0, "tests")
    autofill(browser)
    filled = page_cells(browser, 5, 5)
    assert verified(filled) == []
    # lock 1A, with the keyboard only: select it, Tab to the Lock button is long; use its shortcut path
    select_across(browser, 0, 0)
    browser.find_element(By.ID, "lock-entry").click()
    browser.find_element(By.ID, "clear-fill").click()
    WebDriverWait(browser, 10).until(lambda d: glyph(d, 2, 2) == "")
    browser.save_screenshot(str(shots / "clear-fill.png"))
    after = page_cells(browser, 5, 5)
    assert "".join(after[4]) == "TESTS"  # typed
    assert after[0] == filled[0]  # locked
    assert all(v == "" for r in (1, 2, 3) for v in after[r])
    # undo brings the fill back in one step
    box = browser.find_element(By.ID, "grid-input")
    box.send_keys(Keys.CONTROL, "z")
    WebDriverWait(browser, 10).until(lambda d: page_cells(d, 5, 5) == filled)


#: The candidates listed, read in one go (the list is redrawn as answers come).
LISTED_WORDS = "return [...document.querySelectorAll('#candidates li[data-word]')].map((li) => li.dataset.word)"


def test_a_grid_with_a_rebus_cell_gets_candidates_and_fills(server, browser, shots):
    """A rebus cell's entries are filled with list entries that spell it; the page keeps its letters."""
    new_grid(browser, server, 5, 5)
    put_rebus(browser, 2, 2, "star")
    select_across(browser, 2, 0)
    WebDriverWait(browser, 30).until(
        lambda d: (
            d.find_element(By.ID, "candidates-head").text.startswith("7A")
            and "STAR" in d.find_element(By.ID, "candidates-head").text
            and "looking up" not in d.find_element(By.ID, "candidates-head").text
        )
    )
    head = browser.find_element(By.ID, "candidates-head").text
    words = browser.execute_script(LISTED_WORDS)
    assert words and "no candidates" not in head, head
    # the candidates of the entry through the rebus spell it: ??STAR??
    assert all(len(w) == 8 and w[2:6] == "STAR" for w in words), words[:5]
    text = autofill(browser)
    browser.save_screenshot(str(shots / "rebus-fill.png"))
    assert text.startswith("Filled"), text
    filled = page_cells(browser, 5, 5)
    assert filled[2][2] == "STAR"
    from csp_crossword.words.builtin import builtin_lexicon

    lexicon = builtin_lexicon()
    entries = ["".join(row) for row in filled] + ["".join(row[c] for row in filled) for c in range(5)]
    short = "reads STAR as its first letter" in text
    # every entry, the two through the rebus read with all its letters, is a list word (unless
    # the result box names one the list could not spell)
    assert short or all(entry in lexicon for entry in entries), entries
    # the alternatives of a complete entry through the rebus keep the rebus: they spell it too
    select_across(browser, 2, 1)
    WebDriverWait(browser, 30).until(
        lambda d: (
            "alternatives" in d.find_element(By.ID, "candidates-head").text
            and "looking up" not in d.find_element(By.ID, "candidates-head").text
        )
    )
    others = browser.execute_script(LISTED_WORDS)
    assert all(w[2:6] == "STAR" for w in others), others[:5]


def test_escape_leaves_the_grid_and_enter_walks_the_clues(server, browser):
    new_grid(browser, server, 5, 5)
    box = browser.find_element(By.ID, "grid-input")
    select_across(browser, 0, 0)
    box.send_keys(Keys.TAB)  # Tab inside the grid: the next entry, focus stays
    assert browser.switch_to.active_element.get_attribute("id") == "grid-input"
    box.send_keys(Keys.ESCAPE)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-tab"), focused.get_attribute("outerHTML")[:80]
    # from the side panel, the keyboard opens the Clues tab and walks its boxes
    browser.find_element(By.CSS_SELECTOR, ".tabs [data-tab='clues']").send_keys(Keys.ENTER)
    first = browser.find_element(By.CSS_SELECTOR, "#clue-list li[data-anchor] input")
    first.click()
    first.send_keys("First clue", Keys.ENTER)
    after = browser.switch_to.active_element
    assert "clue-text" in after.get_attribute("class") and after != first
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "current-entry").text.startswith("6A"))
