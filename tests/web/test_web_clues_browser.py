"""The Clues tab in Chromium: suggestions for the selected entry (a click puts one in its box) and
"Fill empty clues" (the word list's clues, the clue database's, the built-in ones)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, new_grid, page_cells, select_across, type_at

pytestmark = NEEDS_BROWSER


def autofill(driver) -> None:
    driver.find_element(By.ID, "autofill").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "result").text.startswith("Filled"))


def clue_box(driver, slot_id: str):
    for li in driver.find_elements(By.CSS_SELECTOR, "#clue-list li[data-anchor]"):
        if li.find_element(By.CSS_SELECTOR, ".clue-num").text == slot_id:
            return li.find_element(By.CSS_SELECTOR, "input.clue-text")
    raise AssertionError(f"no clue box for {slot_id}")


def suggestions(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#clue-suggestions .clue-pick")


def test_suggestions_and_fill_empty_clues(server, browser, shots):
    new_grid(browser, server, 5, 5)
    type_at(browser, 2, 0, "house")
    autofill(browser)
    cells = page_cells(browser, 5, 5)
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="clues"]').click()

    # the selected entry (7A, HOUSE) gets suggestions: clue text and source
    select_across(browser, 2, 0)
    WebDriverWait(browser, 20).until(lambda d: suggestions(d))
    head = browser.find_element(By.ID, "clue-suggest-head").text
    assert head == "Clues for 7A HOUSE:", head
    first = suggestions(browser)[0]
    text = first.find_element(By.CSS_SELECTOR, ".clue-pick-text").text
    assert text and "house" not in text.lower()
    assert "built-in" in first.find_element(By.CSS_SELECTOR, ".clue-pick-source").text
    first.click()
    assert clue_box(browser, "7A").get_attribute("value") == text

    # another entry, and Enter on a suggestion (the keyboard's click)
    select_across(browser, 0, 0)
    answer = "".join(cells[0])
    WebDriverWait(browser, 20).until(
        lambda d: (
            d.find_element(By.ID, "clue-suggest-head").text.startswith(f"Clues for 1A {answer}")
            or d.find_element(By.ID, "clue-suggest-head").text.startswith("No clue found")
        )
    )
    picks = suggestions(browser)
    if picks:
        picks[-1].send_keys(Keys.ENTER)
        chosen = picks[-1].find_element(By.CSS_SELECTOR, ".clue-pick-text").text
        assert clue_box(browser, "1A").get_attribute("value") == chosen

    # Fill empty clues: most boxes get a clue, the ones written are kept
    clue_box(browser, "2D").send_keys("My own clue")
    browser.find_element(By.ID, "clues-fill").click()
    WebDriverWait(browser, 30).until(lambda d: "clues:" in d.find_element(By.ID, "status").text)
    status = browser.find_element(By.ID, "status").text
    boxes = browser.find_elements(By.CSS_SELECTOR, "#clue-list input.clue-text")
    filled = [box.get_attribute("value") for box in boxes if box.get_attribute("value")]
    browser.save_screenshot(str(shots / "clues-suggest-fill.png"))
    assert len(filled) >= 8, (status, filled)
    assert clue_box(browser, "2D").get_attribute("value") == "My own clue"
    assert clue_box(browser, "7A").get_attribute("value") == text
    assert "from the built-in clues" in status, status
