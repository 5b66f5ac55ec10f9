"""Autosave, the Drafts list, the leave warning and the Cell tools (circle, shade, bar, void,
rebus) in a real headless Chromium.

The module's browser keeps one profile, so localStorage carries over from test to test as it
would for one user: the tests run in order. Screenshots go to ``CSP_CROSSWORD_SHOTS``.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, cell, glyph, grid_classes, new_grid, page_cells, type_at

pytestmark = NEEDS_BROWSER

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "realfiles"
#: A 15x15 Herald Tribune pattern (../shared/data/herald/grids/h1503.txt) the built-in list fills fast.
H1503 = [
    "....#.....#....",
    "....#.....#....",
    "....#.....#....",
    ".......#.......",
    "###....#....###",
    ".....#...#.....",
    "......#........",
    "...#.......#...",
    "........#......",
    ".....#...#.....",
    "###....#....###",
    ".......#.......",
    "....#.....#....",
    "....#.....#....",
    "....#.....#....",
]


def classes(driver, r: int, c: int) -> set[str]:
    return set(cell(driver, r, c).get_attribute("class").split())


def alt(driver, key: str) -> None:
    """Alt + key on the grid (the Cell tools' shortcuts)."""
    ActionChains(driver).key_down(Keys.ALT).send_keys(key).key_up(Keys.ALT).perform()


def select(driver, r: int, c: int) -> None:
    cell(driver, r, c).click()
    WebDriverWait(driver, 5).until(lambda d: "selected" in classes(d, r, c))


def wait_autosaved(driver) -> None:
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return !CW.drafts.state.dirty && !CW.drafts.state.failed")
    )


def status(driver) -> str:
    return driver.find_element(By.ID, "status").text


def reload(driver) -> None:
    driver.refresh()
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return !!(window.CW && CW.drafts && CW.drafts.state.id)")
    )


def clue_box(driver, anchor: str):
    driver.find_element(By.CSS_SELECTOR, ".tabs [data-tab='clues']").click()
    return driver.find_element(By.CSS_SELECTOR, f"#clue-list li[data-anchor='{anchor}'] input")


def test_letters_clue_and_cell_styles_come_back_after_a_reload(server, browser, shots):
    new_grid(browser, server, 5, 5)
    browser.find_element(By.ID, "title").send_keys("Draft one")
    type_at(browser, 0, 0, "cat")
    clue_box(browser, "a@0,0").send_keys("Pet")
    # Keyboard: circle, shade, bar and void by Alt keys, a rebus by Insert.
    select(browser, 1, 1)
    alt(browser, "o")
    select(browser, 2, 2)
    alt(browser, "s")
    select(browser, 2, 0)
    alt(browser, "b")  # across: the bar goes on the right edge (and, by symmetry, at (2, 4) left)
    select(browser, 0, 4)
    alt(browser, "v")  # and its 180-degree partner (4, 0)
    select(browser, 3, 1)
    browser.find_element(By.ID, "grid-input").send_keys(Keys.INSERT)
    box = browser.find_element(By.ID, "rebus-input")
    WebDriverWait(browser, 5).until(lambda d: box.is_displayed())
    box.send_keys("he-art", Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: glyph(d, 3, 1) == "HEART")
    assert "circle" in classes(browser, 1, 1) and "shaded" in classes(browser, 2, 2)
    assert "bar-right" in classes(browser, 2, 0) and "bar-left" in classes(browser, 2, 4)
    assert "void" in classes(browser, 0, 4) and "void" in classes(browser, 4, 0)
    assert "block" not in classes(browser, 0, 4)
    # Mouse: the Circle and Shade buttons, undone and redone.
    select(browser, 1, 3)
    browser.find_element(By.ID, "cell-circle").click()
    browser.find_element(By.ID, "cell-shade").click()
    assert {"circle", "shaded"} <= classes(browser, 1, 3)
    browser.find_element(By.ID, "undo").click()
    assert "shaded" not in classes(browser, 1, 3) and "circle" in classes(browser, 1, 3)
    browser.find_element(By.ID, "redo").click()
    assert "shaded" in classes(browser, 1, 3)
    select(browser, 4, 2)
    browser.find_element(By.ID, "cell-rebus").click()
    WebDriverWait(browser, 5).until(lambda d: box.is_displayed())
    box.send_keys("ok2", Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: glyph(d, 4, 2) == "OK2")
    select(browser, 4, 3)
    browser.find_element(By.ID, "grid-input").send_keys(Keys.INSERT)
    WebDriverWait(browser, 5).until(lambda d: box.is_displayed())
    box.send_keys("zz", Keys.ESCAPE)  # cancels
    WebDriverWait(browser, 5).until(lambda d: not box.is_displayed())
    assert glyph(browser, 4, 3) == ""
    # The void cell is not part of any entry: 1A is CAT plus the fourth cell, 4 letters.
    assert browser.execute_script("return CW.state.index.byId.get('1A').length") == 4
    browser.save_screenshot(str(shots / "cell-styles-before-reload.png"))
    wait_autosaved(browser)

    reload(browser)
    assert [glyph(browser, 0, c) for c in range(3)] == ["C", "A", "T"]
    assert glyph(browser, 3, 1) == "HEART" and glyph(browser, 4, 2) == "OK2"
    assert "circle" in classes(browser, 1, 1) and {"circle", "shaded"} <= classes(browser, 1, 3)
    assert "shaded" in classes(browser, 2, 2) and "bar-right" in classes(browser, 2, 0)
    assert "void" in classes(browser, 0, 4) and "void" in classes(browser, 4, 0)
    assert browser.find_element(By.ID, "title").get_attribute("value") == "Draft one"
    assert clue_box(browser, "a@0,0").get_attribute("value") == "Pet"
    browser.save_screenshot(str(shots / "cell-styles-after-reload.png"))


def test_the_drafts_list_reopens_an_older_draft_and_deletes_one(server, browser, shots):
    new_grid(browser, server, 4, 4)  # the page reopens "Draft one"; New grid starts a new draft
    browser.find_element(By.ID, "title").send_keys("Second")
    type_at(browser, 1, 0, "xy")
    wait_autosaved(browser)
    browser.find_element(By.ID, "drafts").click()
    rows = browser.find_elements(By.CSS_SELECTOR, "#drafts-list li")
    names = [row.find_element(By.CSS_SELECTOR, ".draft-open").text for row in rows]
    assert names[:2] == ["Second", "Draft one"]
    assert "4×4" in rows[0].text and "5×5" in rows[1].text
    browser.save_screenshot(str(shots / "drafts-menu.png"))
    rows[1].find_element(By.CSS_SELECTOR, ".draft-open").click()
    WebDriverWait(browser, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 25)
    assert [glyph(browser, 0, c) for c in range(3)] == ["C", "A", "T"] and "circle" in classes(browser, 1, 1)
    assert browser.find_element(By.ID, "title").get_attribute("value") == "Draft one"

    browser.find_element(By.ID, "drafts").click()
    second = next(row for row in browser.find_elements(By.CSS_SELECTOR, "#drafts-list li") if "Second" in row.text)
    delete = second.find_element(By.CSS_SELECTOR, ".draft-delete")
    delete.click()  # asks first
    assert browser.execute_script("return CW.drafts.list().length") == 2
    delete.click()
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return CW.drafts.list().length") == 1)
    assert [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#drafts-list .draft-open")] == ["Draft one"]
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)  # the focus is in the menu
    assert not browser.find_element(By.ID, "drafts-menu").is_displayed()


def dispatch_beforeunload(driver) -> bool:
    """Whether the page's own beforeunload handler asks before leaving (it cancels the event)."""
    return not driver.execute_script("return window.dispatchEvent(new Event('beforeunload', {cancelable: true}))")


def test_leaving_asks_only_when_autosave_is_behind_or_storage_is_full(server, browser):
    reload(browser)
    type_at(browser, 2, 0, "q")
    assert browser.execute_script("return CW.drafts.state.dirty")  # the 500 ms have not passed
    assert not dispatch_beforeunload(browser)  # leaving saves at once: nothing to ask
    assert not browser.execute_script("return CW.drafts.state.dirty")
    browser.execute_script(
        "window.__setItem = Storage.prototype.setItem;"
        "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    try:
        type_at(browser, 2, 1, "r")
        WebDriverWait(browser, 5).until(lambda d: "autosave failed" in status(d))
        assert "full" in status(browser)
        assert dispatch_beforeunload(browser)
    finally:
        browser.execute_script("Storage.prototype.setItem = window.__setItem;")
    type_at(browser, 2, 2, "s")
    WebDriverWait(browser, 5).until(lambda d: "autosave works again" in status(d))
    assert not dispatch_beforeunload(browser)
    reload(browser)
    assert [glyph(browser, 2, c) for c in range(3)] == ["Q", "R", "S"]


def test_the_number_of_drafts_is_bounded(server, browser):
    reload(browser)
    limit = browser.execute_script("return CW.drafts.MAX_DRAFTS")
    for i in range(limit + 2):
        browser.execute_script(
            "CW.construct.newGrid(3, 3, false); CW.state.cells[0][0] = 'A';"
            "document.getElementById('title').value = arguments[0]; CW.construct.changed(); CW.drafts.save();",
            f"bulk {i}",
        )
    titles = browser.execute_script("return CW.drafts.list().map((d) => d.title)")
    assert len(titles) == limit
    assert "Draft one" not in titles and titles[0] == f"bulk {limit + 1}"
    orphans = browser.execute_script(
        "const ids = new Set(CW.drafts.list().map((d) => 'csp-crossword.draft.' + d.id));"
        "return Object.keys(localStorage).filter((k) => k.startsWith('csp-crossword.draft.') && !ids.has(k)).length"
    )
    assert orphans == 0


@pytest.mark.skipif(not REAL.is_dir(), reason="needs ../shared/data/realfiles")
def test_opened_files_show_circles_shading_bars_voids_and_rebus(server, browser, shots):
    new_grid(browser, server, 5, 5)
    opener = browser.find_element(By.ID, "open-file")
    opener.send_keys(str(REAL / "puzpy__nyt_rebus_with_notes_and_shape.puz"))
    WebDriverWait(browser, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell.circle")) == 5)
    long_cells = browser.find_elements(By.CSS_SELECTOR, "#grid .cell .glyph.long")
    assert len(long_cells) == 3
    browser.save_screenshot(str(shots / "opened-circles-rebus.png"))
    opener.send_keys(str(REAL / "kotwords__two-tone.ipuz"))
    WebDriverWait(browser, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell.shaded")) == 5)
    bars = {
        (r, c): sorted(k for k in classes(browser, r, c) if k.startswith("bar-")) for r in range(3) for c in range(3)
    }
    assert {k: v for k, v in bars.items() if v} == {
        (0, 0): ["bar-bottom"],
        (0, 1): ["bar-bottom"],
        (1, 2): ["bar-left"],
        (2, 1): ["bar-top"],
    }
    assert cell(browser, 0, 0).value_of_css_property("background-color") == "rgba(192, 192, 192, 1)"
    browser.save_screenshot(str(shots / "opened-shading-bars.png"))
    opener.send_keys(str(REAL / "crosshare__Its_All_Wrong.puz"))
    WebDriverWait(browser, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell.void")) == 87)
    void = cell(browser, 0, 0)
    assert "block" not in classes(browser, 0, 0)
    assert void.value_of_css_property("background-color") == "rgba(0, 0, 0, 0)"
    browser.save_screenshot(str(shots / "opened-voids.png"))


def page_pdf(driver, drop_styles: bool = False) -> bytes:
    """The page's own print request (/api/print with CW.files.puzzle()), as the PDF's bytes."""
    data = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const puzzle = CW.files.puzzle(); if (arguments[0]) puzzle.styles = [];"
        "CW.api.download('/api/print', {puzzle, solution: false, format: 'pdf'}, 'p.pdf')"
        ".then((file) => file.blob.arrayBuffer())"
        ".then((buffer) => { let s = ''; new Uint8Array(buffer).forEach((b) => (s += String.fromCharCode(b))); done(btoa(s)); })"
        ".catch((error) => done('ERROR ' + error.message));",
        drop_styles,
    )
    assert not data.startswith("ERROR"), data
    return base64.b64decode(data)


def test_a_15x15_with_circles_fills_saves_reloads_and_prints(server, browser, downloads, shots, tmp_path):
    from csp_crossword.api import read_puzzle
    from csp_crossword.core.grid import Grid
    from csp_crossword.verify.fill import verify_fill
    from csp_crossword.words.builtin import builtin_lexicon

    new_grid(browser, server, 15, 15)
    for r, row in enumerate(H1503):  # blocks by key: "." with 180-degree symmetry does the other half
        for c, ch in enumerate(row):
            if ch == "#" and (r, c) < (14 - r, 14 - c):
                select(browser, r, c)
                browser.find_element(By.ID, "grid-input").send_keys(".")
    blocks = {(r, c) for r, row in enumerate(H1503) for c, ch in enumerate(row) if ch == "#"}
    assert {at for at, names in grid_classes(browser).items() if "block" in names} == blocks
    circles = [(0, 0), (7, 7), (14, 14)]
    for r, c in circles[:2]:
        select(browser, r, c)
        alt(browser, "o")
    select(browser, *circles[2])
    browser.find_element(By.ID, "cell-circle").click()
    browser.find_element(By.ID, "autofill").click()
    WebDriverWait(browser, 90).until(lambda d: d.execute_script("return CW.state.cells.flat().every((v) => v !== '')"))
    cells = page_cells(browser, 15, 15)
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    assert verify_fill(pattern, cells, builtin_lexicon("en")) == []
    clue_box(browser, "a@0,0").send_keys("First across")
    browser.save_screenshot(str(shots / "filled-15x15-circles.png"))

    for old in downloads.glob("*"):
        old.unlink()
    browser.find_element(By.CSS_SELECTOR, "#save-format option[value='puz']").click()
    browser.find_element(By.ID, "save").click()
    WebDriverWait(browser, 20).until(lambda d: [p for p in downloads.glob("*.puz")])
    saved = read_puzzle(str(next(downloads.glob("*.puz"))))
    assert {cell for cell, style in saved.styles.items() if style.circle} == set(circles)
    assert saved.solution == cells
    assert saved.clues.get("1A") == "First across"

    wait_autosaved(browser)
    reload(browser)
    assert page_cells(browser, 15, 15) == cells
    assert all("circle" in classes(browser, r, c) for r, c in circles)
    pdf = page_pdf(browser)
    assert pdf.startswith(b"%PDF")
    if shutil.which("pdftoppm"):
        plain = page_pdf(browser, drop_styles=True)
        pictures = []
        for name, data in (("circles", pdf), ("plain", plain)):
            (tmp_path / f"{name}.pdf").write_bytes(data)
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    "60",
                    "-f",
                    "1",
                    "-l",
                    "1",
                    str(tmp_path / f"{name}.pdf"),
                    str(shots / f"print-{name}"),
                ],
                check=True,
            )
            pictures.append(next(shots.glob(f"print-{name}*.png")).read_bytes())
        assert pictures[0] != pictures[1], "the printed page with circles looks like the one without"


def test_two_tabs_on_one_draft_keep_both_grids(server, browser):
    new_grid(browser, server, 5, 5)
    type_at(browser, 0, 0, "one")
    wait_autosaved(browser)
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")  # reopens the same draft
    browser.get(server + "/")
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script("return !!(window.CW && CW.drafts && CW.drafts.state.id)")
    )
    WebDriverWait(browser, 10).until(lambda d: glyph(d, 0, 0) == "O")
    second = browser.current_window_handle
    type_at(browser, 2, 0, "two")
    wait_autosaved(browser)
    browser.switch_to.window(first)  # the first tab heard the save: it now keeps its own draft
    WebDriverWait(browser, 10).until(lambda d: "another tab" in status(d))
    type_at(browser, 4, 0, "six")
    wait_autosaved(browser)
    ids = browser.execute_script("return [CW.drafts.state.id, CW.drafts.list().map((d) => d.id)]")
    browser.switch_to.window(second)
    other = browser.execute_script("return CW.drafts.state.id")
    assert ids[0] != other and {ids[0], other} <= set(ids[1])
    docs = browser.execute_script(
        "return arguments[0].map((id) => JSON.parse(localStorage.getItem('csp-crossword.draft.' + id)).cells)",
        [ids[0], other],
    )
    assert "".join(docs[0][4][:3]) == "SIX" and "".join(docs[0][2][:3]) == ""  # the first tab's grid
    assert "".join(docs[1][2][:3]) == "TWO" and "".join(docs[1][4][:3]) == ""  # the second's
    browser.close()
    browser.switch_to.window(first)


def test_freeform_list_and_board_come_back_after_a_reload(server, browser):
    browser.get(server + "/")
    browser.find_element(By.ID, "mode-freeform").click()
    box = browser.find_element(By.ID, "ff-words")
    box.clear()
    box.send_keys("python: a snake\nbanana: a fruit\nelephant: a big animal\nnapkin\n")
    browser.find_element(By.ID, "ff-generate").click()
    WebDriverWait(browser, 60).until(lambda d: d.find_element(By.ID, "ff-result").is_displayed())
    board = browser.find_element(By.ID, "ff-board").text
    reload(browser)
    browser.find_element(By.ID, "mode-freeform").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "ff-result").is_displayed())
    assert "banana: a fruit" in browser.find_element(By.ID, "ff-words").get_attribute("value")
    assert browser.find_element(By.ID, "ff-board").text == board
