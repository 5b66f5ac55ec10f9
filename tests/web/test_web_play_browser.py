"""Play mode and the exported playable page in a real headless Chromium.

A grid filled in construct mode is played with the keyboard alone until the page says it is
solved (the played letters read back and compared with the construct grid); a puzzle file with
clues and styles is checked and revealed; the exported file is played from a file:// URL with the
network switched off, and printed to PDF (one page); Bangla conjuncts, a rebus and a right-to-left
puzzle are typed into exported files. Screenshots go to ``CSP_CROSSWORD_SHOTS`` to be looked at.
"""

from __future__ import annotations

import base64
import time

from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import CellStyle, Puzzle, write_crossword
from csp_crossword.printing.playable import playable_html
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, new_grid, page_cells, type_at

pytestmark = NEEDS_BROWSER

SQUARE = ("HEART", "EMBER", "ABUSE", "RESIN", "TREND")
CLUES = {"1A": "Organ that beats", "6A": "Glowing coal", "7A": "Misuse", "8A": "Tree sap", "9A": "Fashion"}


def square_puzzle() -> Puzzle:
    return Puzzle(
        parse_grid("\n".join("." * 5 for _ in range(5))),
        solution=tuple(tuple(row) for row in SQUARE),
        clues=dict(CLUES),
        title="Word square",
        author="A. Teacher",
        styles={(2, 2): CellStyle(circle=True), (0, 4): CellStyle(shaded=True)},
    )


def play_cell(driver, r: int, c: int):
    return driver.find_element(By.CSS_SELECTOR, f".cwp-grid .cwp-cell[data-row='{r}'][data-col='{c}']")


def play_glyph(driver, r: int, c: int) -> str:
    return play_cell(driver, r, c).find_element(By.CSS_SELECTOR, ".cwp-glyph").text.strip()


def classes(driver, r: int, c: int) -> set[str]:
    return set(play_cell(driver, r, c).get_attribute("class").split())


def keys(driver):
    return driver.find_element(By.CSS_SELECTOR, ".cwp-input")


def clue_id(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, ".cwp-clue-id").text.strip()


def message(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, ".cwp-message").text.strip()


def menu(driver, act: str, scope: str) -> None:
    """Open a Check / Reveal / Clear menu and choose a scope, with clicks as a user would."""
    details = driver.find_element(By.XPATH, f"//details[.//button[@data-act='{act}']]")
    details.find_element(By.TAG_NAME, "summary").click()
    details.find_element(By.CSS_SELECTOR, f"button[data-act='{act}'][data-scope='{scope}']").click()


def wait_cells(driver, count: int) -> None:
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".cwp-grid .cwp-cell")) == count)


def open_play(driver) -> None:
    driver.find_element(By.ID, "mode-play").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "play").is_displayed())


def open_file(driver, base: str, path) -> None:
    driver.get(base + "/")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    driver.find_element(By.ID, "open-file").send_keys(str(path))
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "title").get_attribute("value") == "Word square")


def test_a_typed_grid_is_played_and_solved_with_the_keyboard(server, browser, shots):
    new_grid(browser, server, 3, 3)
    for r, word in enumerate(("CAT", "ARE", "TEN")):
        type_at(browser, r, 0, word)
    built = page_cells(browser, 3, 3)
    assert built == (("C", "A", "T"), ("A", "R", "E"), ("T", "E", "N"))

    open_play(browser)
    wait_cells(browser, 9)
    assert [play_glyph(browser, r, c) for r in range(3) for c in range(3)] == [""] * 9  # an empty grid
    numbers = {
        (r, c): play_cell(browser, r, c).find_element(By.CSS_SELECTOR, ".cwp-num").text
        for r in range(3)
        for c in range(3)
    }
    assert {k: v for k, v in numbers.items() if v} == {(0, 0): "1", (0, 1): "2", (0, 2): "3", (1, 0): "4", (2, 0): "5"}
    assert browser.find_element(By.CSS_SELECTOR, ".cwp-timer").text == "00:00"
    assert clue_id(browser) == "1A"
    keys(browser).send_keys(Keys.TAB)
    assert clue_id(browser) == "4A"
    keys(browser).send_keys(Keys.SHIFT, Keys.TAB)
    assert clue_id(browser) == "1A"
    keys(browser).send_keys(" ")  # turn to 1D
    assert clue_id(browser) == "1D"
    keys(browser).send_keys("cat")  # lower case goes in upper case; the end of 1D goes on to 2D
    assert clue_id(browser) == "2D"

    # pausing hides the grid and stops the clock
    browser.find_element(By.CSS_SELECTOR, ".cwp-bar [data-act='pause']").click()
    assert not browser.find_element(By.CSS_SELECTOR, ".cwp-grid").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, ".cwp-cover").is_displayed()
    browser.save_screenshot(str(shots / "play-paused.png"))
    browser.find_element(By.CSS_SELECTOR, ".cwp-cover [data-act='pause']").click()
    assert browser.find_element(By.CSS_SELECTOR, ".cwp-grid").is_displayed()

    keys(browser).send_keys("aretex" + Keys.BACKSPACE + "en")  # Backspace clears the X and steps back
    WebDriverWait(browser, 5).until(lambda d: message(d).startswith("Solved in 00:0"))
    played = tuple(tuple(play_glyph(browser, r, c) for c in range(3)) for r in range(3))
    assert played == built
    assert browser.find_elements(By.CSS_SELECTOR, ".cwp.cwp-solved")
    browser.save_screenshot(str(shots / "play-solved.png"))
    # the clock stopped at the solve
    shown = browser.find_element(By.CSS_SELECTOR, ".cwp-timer").text
    time.sleep(1.2)
    assert browser.find_element(By.CSS_SELECTOR, ".cwp-timer").text == shown


def test_an_unfilled_grid_cannot_be_played(server, browser, shots):
    new_grid(browser, server, 3, 3)
    type_at(browser, 0, 0, "CAT")
    open_play(browser)
    notice = browser.find_element(By.ID, "play-empty")
    assert notice.is_displayed()
    assert "cannot be played" in notice.text and "6 open cells are still empty" in notice.text
    assert not browser.find_element(By.ID, "play-export").is_enabled()
    assert not browser.find_elements(By.CSS_SELECTOR, "#play-root .cwp-cell")
    browser.save_screenshot(str(shots / "play-unfilled.png"))


def test_check_marks_a_wrong_letter_and_reveal_fills_a_word(server, browser, shots, tmp_path):
    path = tmp_path / "square.ipuz"
    write_crossword(path, square_puzzle())
    open_file(browser, server, path)
    open_play(browser)
    wait_cells(browser, 25)
    assert "cwp-circle" in classes(browser, 2, 2)
    assert "cwp-shaded" in classes(browser, 0, 4)
    clue_texts = [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".cwp-list li")]
    assert "1\nOrgan that beats" in clue_texts

    keys(browser).send_keys("HX")  # X is wrong at (0, 1)
    menu(browser, "check", "word")
    assert "cwp-wrong" in classes(browser, 0, 1)
    assert "cwp-ok" in classes(browser, 0, 0)
    assert message(browser) == "1 wrong letter marked."
    browser.save_screenshot(str(shots / "play-checked.png"))

    browser.find_element(By.CSS_SELECTOR, ".cwp-list li[data-slot='7A']").click()  # a clue click jumps there
    assert clue_id(browser) == "7A"
    assert browser.find_element(By.CSS_SELECTOR, ".cwp-clue-text").text == "Misuse"
    assert "cwp-sel" in classes(browser, 2, 0)
    menu(browser, "reveal", "word")
    assert [play_glyph(browser, 2, c) for c in range(5)] == list("ABUSE")
    assert all("cwp-revealed" in classes(browser, 2, c) for c in range(5))
    assert message(browser) == "5 cells revealed."
    keys(browser).send_keys(Keys.ARROW_UP)  # an arrow across the direction turns it first
    assert clue_id(browser) == "1D"
    browser.save_screenshot(str(shots / "play-revealed.png"))

    menu(browser, "clear", "puzzle")
    assert all(play_glyph(browser, r, c) == "" for r in range(5) for c in range(5))
    assert not browser.find_elements(By.CSS_SELECTOR, ".cwp-wrong, .cwp-revealed")


def test_the_exported_page_plays_offline_and_prints_on_one_page(server, browser, shots, tmp_path, downloads):
    path = tmp_path / "square.ipuz"
    write_crossword(path, square_puzzle())
    open_file(browser, server, path)
    open_play(browser)
    wait_cells(browser, 25)
    browser.save_screenshot(str(shots / "play-mode.png"))
    before = set(downloads.glob("*.html"))
    browser.find_element(By.ID, "play-export").click()
    WebDriverWait(browser, 20).until(lambda d: set(downloads.glob("*.html")) - before)
    (exported,) = set(downloads.glob("*.html")) - before
    assert exported.name == "Word square.html"

    browser.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        browser.get(exported.as_uri())
        wait_cells(browser, 25)
        assert browser.find_element(By.CSS_SELECTOR, ".cwp-title").text == "Word square"
        assert "cwp-circle" in classes(browser, 2, 2)
        keys(browser).send_keys("".join(SQUARE).lower())
        WebDriverWait(browser, 5).until(lambda d: message(d).startswith("Solved in"))
        assert ["".join(play_glyph(browser, r, c) for c in range(5)) for r in range(5)] == list(SQUARE)
        browser.save_screenshot(str(shots / "exported-solved.png"))
        requests = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert requests == []

        menu(browser, "clear", "puzzle")
        pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})["data"])
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        browser.execute_cdp_cmd("Network.disable", {})
    (shots / "exported-print.pdf").write_bytes(pdf)
    try:
        import pypdfium2
    except ImportError:
        return
    document = pypdfium2.PdfDocument(pdf)
    try:
        assert len(document) == 1
        document[0].render(scale=1).to_pil().save(shots / "exported-print.png")
    finally:
        document.close()


def test_conjuncts_a_rebus_and_right_to_left_in_exported_files(browser, shots, tmp_path):
    bangla = Puzzle(
        parse_grid("...\n...\n..."),
        solution=(("ক্ষ", "ম", "STAR"), ("ল", "ন", "প"), ("র", "স", "ত")),
        title="বাংলা",
    )
    page = tmp_path / "bangla.html"
    page.write_text(playable_html(bangla), encoding="utf-8")
    browser.get(page.as_uri())
    wait_cells(browser, 9)
    keys(browser).send_keys("ক্ষম")  # ক, virama, ষ: one cell; then ম in the next
    assert play_glyph(browser, 0, 0) == "ক্ষ"
    assert play_glyph(browser, 0, 1) == "ম"
    keys(browser).send_keys(Keys.INSERT)
    box = browser.find_element(By.CSS_SELECTOR, ".cwp-rebus-text")
    assert box.is_displayed()
    box.send_keys("star" + Keys.ENTER)
    assert play_glyph(browser, 0, 2) == "STAR"
    browser.save_screenshot(str(shots / "exported-bangla-rebus.png"))
    keys(browser).send_keys(Keys.SHIFT, Keys.TAB)  # back to 1A from 4A
    menu(browser, "check", "word")
    assert all("cwp-ok" in classes(browser, 0, c) for c in range(3))
    assert not browser.find_elements(By.CSS_SELECTOR, ".cwp-wrong")

    arabic = Puzzle(
        parse_grid("...\n...\n...", rtl=True),
        solution=(("ب", "ا", "ب"), ("ي", "ت", "ك"), ("ن", "ا", "ر")),
        clues={"1A": "مدخل"},
    )
    page = tmp_path / "arabic.html"
    page.write_text(playable_html(arabic), encoding="utf-8")
    browser.get(page.as_uri())
    wait_cells(browser, 9)
    assert play_cell(browser, 0, 2).find_element(By.CSS_SELECTOR, ".cwp-num").text == "1"  # numbering starts top right
    assert "cwp-sel" in classes(browser, 0, 2)
    keys(browser).send_keys("باب")  # across runs leftwards
    assert [play_glyph(browser, 0, c) for c in (2, 1, 0)] == ["ب", "ا", "ب"]
    browser.save_screenshot(str(shots / "exported-arabic.png"))


def test_play_opens_on_the_freeform_puzzle_it_came_from(server, browser, shots):
    browser.get(server + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    browser.find_element(By.ID, "mode-freeform").click()
    box = browser.find_element(By.ID, "ff-words")
    box.clear()
    box.send_keys("puzzle: A problem to solve\nsolver: One who solves\ngrid: Squares in rows\nclue: A hint")
    browser.find_element(By.ID, "ff-generate").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ff-board .glyph"))
    board = sorted(g.text for g in browser.find_elements(By.CSS_SELECTOR, "#ff-board .glyph") if g.text)
    placed = len(browser.find_elements(By.CSS_SELECTOR, "#ff-placed li"))

    open_play(browser)
    assert browser.find_element(By.ID, "play-source").get_attribute("value") == "freeform"
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".cwp-grid .cwp-cell"))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".cwp-list li")) == placed
    assert "A hint" in browser.find_element(By.CSS_SELECTOR, ".cwp-lists").text
    browser.save_screenshot(str(shots / "play-freeform.png"))
    menu(browser, "reveal", "puzzle")
    played = sorted(g.text for g in browser.find_elements(By.CSS_SELECTOR, ".cwp-grid .cwp-glyph") if g.text)
    assert played == board
    assert message(browser).startswith("The puzzle is complete")
