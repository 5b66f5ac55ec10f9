"""A constructor's whole session in the construct page (a real headless Chromium, keyboard and
mouse): an empty 15x15 from the pattern library, three theme entries the word list lacks typed
and locked, a corner killed by two letters and marked while typing (the reason on hover) and
fixed, an autofill that keeps the theme entries as given, the puzzle saved as .ipuz and opened
again in a new page with its locks and the fill's letters told apart (Clear fill empties only
those), a refill, a rebus that moves the cursor on, and the printed puzzle.

The steps run in order in one test: each starts from the page the step before left, as a
constructor's work does. Every wait is on the page's state, with room for a busy machine.
Screenshots go to ``CSP_CROSSWORD_SHOTS`` when it is set."""

from __future__ import annotations

from pathlib import Path

from csp_crossword.api import read_puzzle
from csp_crossword.core.grid import Grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import (
    NEEDS_BROWSER,
    cell,
    dead_cells,
    fit_summary,
    glyph,
    grid_classes,
    new_grid,
    page_cells,
    printed_pdf,
    put_rebus,
    select_across,
    type_at,
)

pytestmark = NEEDS_BROWSER

REPO = Path(__file__).resolve().parents[2]
#: The library pattern the session starts from (grids/american/am15-01.txt), as the page lists it.
PATTERN_ID = "american.am15-01"
#: Theme entries of invented phrases (none is in the built-in list): start cell and answer, across.
THEME = {(1, 0): "TENTSALE", (7, 4): "TEARSET", (13, 7): "SEATRENT"}
#: Two letters no 1A starts with (XQ??): the top left corner has no fill until they go.
DEAD_CORNER = "xq"
#: Seconds for a fill, a file or a print on a busy 2-core machine.
SLOW = 120


def theme_cells() -> set[tuple[int, int]]:
    return {(r, c + i) for (r, c), word in THEME.items() for i in range(len(word))}


def classes(driver, r: int, c: int) -> set[str]:
    return set(cell(driver, r, c).get_attribute("class").split())


def autofill(driver) -> str:
    """Press Autofill and wait for its answer in the result box; the box's text."""
    before = driver.find_element(By.ID, "result").get_attribute("textContent")
    driver.find_element(By.ID, "autofill").click()
    WebDriverWait(driver, SLOW).until(
        lambda d: (
            not d.find_element(By.ID, "autofill").get_attribute("disabled")
            and d.find_element(By.ID, "result").is_displayed()
            and d.find_element(By.ID, "result").get_attribute("textContent") != before
        )
    )
    return driver.find_element(By.ID, "result").text


def on_page(driver, cells: set[tuple[int, int]]) -> list[tuple[str | None, tuple[int, int]]]:
    """The glyph the page shows in each of ``cells`` (read in one call), with its cell."""
    shown = page_cells(driver, 15, 15)
    return [(shown[r][c], (r, c)) for r, c in sorted(cells)]


def check_fill(cells) -> None:
    """Every open cell filled, the theme entries in place, every other entry a list word."""
    assert all(v for row in cells for v in row if v is not None)
    for (r, c), word in THEME.items():
        assert "".join(cells[r][c : c + len(word)]) == word
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    filled = tuple(tuple(row) for row in cells)
    assert verify_fill(pattern, filled, builtin_lexicon("en"), extra_words=list(THEME.values())) == []


def test_a_themed_15x15_from_an_empty_pattern_to_the_printed_puzzle(server, browser, downloads, shots, tmp_path):
    lexicon = builtin_lexicon("en")
    assert not any(word in lexicon.by_length.get(len(word), ()) for word in THEME.values())

    # 1. An empty 15x15 from the pattern library, by mouse.
    new_grid(browser, server, 5, 5)
    browser.find_element(By.CSS_SELECTOR, '.tabs [data-tab="patterns"]').click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pat-list .pat-item"))
    browser.find_element(By.ID, "pat-filter").send_keys("am15-01")
    browser.find_element(By.CSS_SELECTOR, f"#pat-list .pat-item[data-id='{PATTERN_ID}']").click()
    WebDriverWait(browser, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 225)
    pattern = [row for row in (REPO / "grids" / "american" / "am15-01.txt").read_text().split()]
    assert page_cells(browser, 15, 15) == tuple(tuple(None if ch == "#" else "" for ch in row) for row in pattern)
    title = browser.find_element(By.ID, "title")
    title.clear()
    title.send_keys("Tent Sale")

    # 2. The theme entries typed and locked; none is a reason for a dead entry.
    for (r, c), word in THEME.items():
        type_at(browser, r, c, word.lower())
        WebDriverWait(browser, 30).until(lambda d, r=r, c=c, word=word: glyph(d, r, c + len(word) - 1) == word[-1])
        select_across(browser, r, c)
        browser.find_element(By.ID, "lock-entry").click()
        WebDriverWait(browser, 30).until(lambda d, r=r, c=c: "locked" in classes(d, r, c))
    shown = grid_classes(browser)
    assert all("locked" in shown[at] for at in theme_cells())
    assert "every entry still has words" in fit_summary(browser)
    assert not dead_cells(browser)
    given = browser.execute_script("return CW.state.fit.given.map((g) => g.answer)")
    assert sorted(given) == sorted(THEME.values())

    # 3. Two letters kill the top left corner: marked as typed, the reason on hover; fixed, unmarked.
    type_at(browser, 0, 0, DEAD_CORNER)
    WebDriverWait(browser, 30).until(lambda d: {(0, 0), (0, 1), (0, 2), (0, 3)} <= dead_cells(d))
    summary = fit_summary(browser)
    browser.save_screenshot(str(shots / "flow-dead-corner.png"))
    assert "no word" in summary and "1A" in summary, summary
    hover = cell(browser, 0, 2).get_attribute("title")
    assert "1A: no word fits" in hover and "no word matches XQ??" in hover, hover
    dead = browser.execute_script("return [...CW.state.fit.dead.keys()]")
    theme_ids = browser.execute_script("return CW.state.fit.given.map((g) => g.slot)")
    assert "1A" in dead and not set(dead) & set(theme_ids), (dead, theme_ids)
    select_across(browser, 0, 1)
    browser.find_element(By.ID, "grid-input").send_keys(Keys.BACKSPACE, Keys.BACKSPACE)
    WebDriverWait(browser, 30).until(lambda d: glyph(d, 0, 0) == "" and glyph(d, 0, 1) == "")
    WebDriverWait(browser, 30).until(lambda d: not dead_cells(d))
    assert "every entry still has words" in fit_summary(browser)

    # 4. Autofill: every entry filled, the theme entries kept and reported as given.
    text = autofill(browser)
    filled = page_cells(browser, 15, 15)
    browser.save_screenshot(str(shots / "flow-filled.png"))
    assert text.startswith("Filled"), text
    check_fill(filled)
    given = browser.find_element(By.CSS_SELECTOR, "#result .given-list").text
    assert all(word in given for word in THEME.values()), given
    fill_cells = {(r, c) for r in range(15) for c in range(15) if filled[r][c] and (r, c) not in theme_cells()}
    shown = grid_classes(browser)
    assert all("from-fill" in shown[at] for at in fill_cells)
    assert not any("from-fill" in shown[at] for at in theme_cells())

    # 5. Saved as .ipuz by the Save button; the file holds the fill.
    for old in downloads.glob("*"):
        old.unlink()
    browser.find_element(By.CSS_SELECTOR, "#save-format option[value='ipuz']").click()
    browser.find_element(By.ID, "save").click()
    WebDriverWait(browser, SLOW).until(lambda d: list(downloads.glob("*.ipuz")))
    saved = tmp_path / "tent-sale.ipuz"
    saved.write_bytes(next(downloads.glob("*.ipuz")).read_bytes())
    puzzle = read_puzzle(str(saved))
    assert [list(row) for row in puzzle.solution] == [list(row) for row in filled]
    assert puzzle.title == "Tent Sale"

    # 6. Opened again in a new page load, on a blank grid (so nothing comes from the draft).
    new_grid(browser, server, 15, 15)
    assert not any(v for row in page_cells(browser, 15, 15) for v in row)
    browser.find_element(By.ID, "open-file").send_keys(str(saved))
    WebDriverWait(browser, SLOW).until(lambda d: page_cells(d, 15, 15) == filled)
    shown = grid_classes(browser)
    assert all("locked" in shown[at] for at in theme_cells())
    assert all("from-fill" in shown[at] for at in fill_cells)
    assert not any("from-fill" in shown[at] for at in theme_cells())
    browser.find_element(By.ID, "clear-fill").click()
    WebDriverWait(browser, 30).until(lambda d: not any(shown for shown, at in on_page(d, fill_cells)))
    cleared = page_cells(browser, 15, 15)
    browser.save_screenshot(str(shots / "flow-reopened-cleared.png"))
    assert {(r, c) for r in range(15) for c in range(15) if cleared[r][c]} == theme_cells()

    # 7. Refill from the reopened file.
    text = autofill(browser)
    assert text.startswith("Filled"), text
    check_fill(page_cells(browser, 15, 15))

    # 8. A rebus by Insert, letters, Enter: the cursor moves on to the entry's next cell.
    put_rebus(browser, 0, 0, "star")
    WebDriverWait(browser, 30).until(lambda d: "selected" in classes(d, 0, 1))
    browser.find_element(By.ID, "grid-input").send_keys("e")
    WebDriverWait(browser, 30).until(lambda d: glyph(d, 0, 1) == "E")
    assert glyph(browser, 0, 0) == "STAR"
    browser.save_screenshot(str(shots / "flow-rebus.png"))

    # 9. The printed puzzle: a PDF page with the title and the empty numbered grid.
    pdf = printed_pdf(browser, "print", SLOW)
    (shots / "flow-puzzle.pdf").write_bytes(pdf)
    assert pdf.startswith(b"%PDF-")
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        assert len(document) >= 1
        text = document[0].get_textpage().get_text_range()
        assert "Tent Sale" in text
        # the solver's grid: clue numbers only, no letter of the theme or the fill (no clue written)
        assert not any(ch.isalpha() for ch in text.split("Tent Sale", 1)[1]), text
        page = document[0].render(scale=1).to_pil().convert("L")
        page.save(shots / "flow-puzzle.png")
        assert page.getextrema()[0] < 128  # the grid is drawn: the page is not blank
    finally:
        document.close()
