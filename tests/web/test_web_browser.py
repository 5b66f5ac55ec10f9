"""The web constructor in a real headless Chromium (selenium + Debian's chromium-driver).

Each test drives the page as a user would and checks what the page shows; a fill read back from
the page is checked with the independent verifier. Screenshots go to ``CSP_CROSSWORD_SHOTS``
(default: the test's temporary folder) to be looked at. Skipped, with the reason, when selenium,
Chromium or ChromeDriver is missing.
"""

from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, glyph, new_grid, page_cells, select_across, type_at

pytestmark = NEEDS_BROWSER


def test_blocks_are_symmetric_and_letters_go_where_typed(server, browser, shots):
    new_grid(browser, server, 5, 5)
    ActionChains(browser).key_down(Keys.SHIFT).click(cell(browser, 0, 0)).key_up(Keys.SHIFT).perform()
    assert "block" in cell(browser, 0, 0).get_attribute("class")
    assert "block" in cell(browser, 4, 4).get_attribute("class")  # its 180-degree partner
    type_at(browser, 1, 0, "cat")
    assert [glyph(browser, 1, c) for c in range(3)] == ["C", "A", "T"]
    browser.save_screenshot(str(shots / "construct-5x5.png"))


def test_a_candidate_click_places_the_word(server, browser, shots):
    new_grid(browser, server, 5, 5)
    select_across(browser, 0, 2)
    try:
        # the list is drawn again as its look-ahead checks come in: an item can go stale mid-look
        WebDriverWait(browser, 20, ignored_exceptions=[StaleElementReferenceException]).until(
            # the list of this grid's 1A, not one still coming for the page's first 15x15
            lambda d: (
                d.find_element(By.ID, "candidates-head").text.startswith("1A")
                and (items := d.find_elements(By.CSS_SELECTOR, "#candidates li[data-word]"))
                and all(len(li.get_attribute("data-word")) == 5 for li in items)
            )
        )
    finally:
        browser.save_screenshot(str(shots / "candidates.png"))
    word = WebDriverWait(browser, 10, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: next(
            li.get_attribute("data-word")
            for li in d.find_elements(By.CSS_SELECTOR, "#candidates li[data-word]")
            if "dead-end" not in li.get_attribute("class") and len(li.get_attribute("data-word")) == 5
        )
    )

    # the click is made in the page (the list is drawn again as soon as the word is placed) and
    # made again if a refresh of the list swallowed it
    selector = f"#candidates li[data-word='{word}']"
    for _ in range(5):
        browser.execute_script("const li = document.querySelector(arguments[0]); if (li) li.click();", selector)
        try:
            WebDriverWait(browser, 2).until(lambda d: glyph(d, 0, 0) == word[0])
            break
        except TimeoutException:
            continue
    browser.save_screenshot(str(shots / "candidates.png"))
    assert "".join(glyph(browser, 0, c) for c in range(5)) == word


def test_autofill_gives_a_verified_fill_that_keeps_typed_letters(server, browser, shots):
    from csp_crossword.core.grid import Grid
    from csp_crossword.verify.fill import verify_fill
    from csp_crossword.words.builtin import builtin_lexicon

    new_grid(browser, server, 5, 5)
    ActionChains(browser).key_down(Keys.SHIFT).click(cell(browser, 0, 0)).key_up(Keys.SHIFT).perform()
    type_at(browser, 2, 0, "s")
    browser.find_element(By.ID, "autofill").click()
    WebDriverWait(browser, 60).until(lambda d: all(v for row in page_cells(d, 5, 5) for v in row if v is not None))
    cells = page_cells(browser, 5, 5)
    assert cells[2][0] == "S" and cells[0][0] is None and cells[4][4] is None
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    assert verify_fill(pattern, cells, builtin_lexicon("en")) == []
    browser.save_screenshot(str(shots / "autofill.png"))


def test_check_shows_the_core_of_an_unfillable_grid(server, browser, shots):
    new_grid(browser, server, 5, 5)
    type_at(browser, 0, 0, "qqqqq")
    browser.find_element(By.ID, "check").click()
    WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell.core"))
    assert "unsolvable" in browser.find_element(By.ID, "result").text.lower()
    browser.save_screenshot(str(shots / "check-core.png"))


def test_save_a_puz_and_open_it_again(server, browser, downloads, shots):
    new_grid(browser, server, 5, 5)
    type_at(browser, 0, 0, "crane")
    for old in downloads.glob("*"):
        old.unlink()
    browser.find_element(By.CSS_SELECTOR, "#save-format option[value='puz']").click()
    browser.find_element(By.ID, "save").click()
    WebDriverWait(browser, 20).until(lambda d: [p for p in downloads.glob("*.puz")])
    saved = next(downloads.glob("*.puz"))
    new_grid(browser, server, 5, 5)
    assert glyph(browser, 0, 0) == ""
    browser.find_element(By.ID, "open-file").send_keys(str(saved))
    WebDriverWait(browser, 20).until(lambda d: glyph(d, 0, 0) == "C")
    assert "".join(glyph(browser, 0, c) for c in range(5)) == "CRANE"
    browser.save_screenshot(str(shots / "reopened-puz.png"))


def test_freeform_from_pasted_words_and_print(server, browser, shots):
    browser.get(server + "/")
    browser.find_element(By.ID, "mode-freeform").click()
    box = browser.find_element(By.ID, "ff-words")
    box.clear()
    box.send_keys(
        "puzzle: A problem to solve\nsolver: One who solves\ngrid: Squares in rows\nclue: A hint\nword: Unit of language"
    )
    browser.find_element(By.ID, "ff-generate").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ff-board .glyph"))
    letters = "".join(g.text for g in browser.find_elements(By.CSS_SELECTOR, "#ff-board .glyph"))
    assert "P" in letters and "Z" in letters
    assert "A hint" in browser.find_element(By.ID, "ff-clues").text
    browser.save_screenshot(str(shots / "freeform.png"))
    handles = set(browser.window_handles)
    browser.find_element(By.ID, "ff-print").click()
    WebDriverWait(browser, 30).until(lambda d: set(d.window_handles) - handles)
    tab = (set(browser.window_handles) - handles).pop()
    browser.switch_to.window(tab)
    WebDriverWait(browser, 30).until(lambda d: d.current_url.startswith("blob:"))
    head = browser.execute_async_script(
        "const done = arguments[0]; fetch(location.href).then(r => r.arrayBuffer())"
        ".then(b => done(String.fromCharCode(...new Uint8Array(b.slice(0, 5)))));"
    )
    assert head == "%PDF-"
    browser.close()
    browser.switch_to.window(next(iter(handles)))
