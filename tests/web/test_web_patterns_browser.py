"""The Patterns tab in a real browser: generate an American 15x15 with a theme entry (mouse and
keyboard), and start from a pattern of the repo's grids/ folder. Needs Chromium and ChromeDriver.

What the page shows is checked with the independent checks: ``pattern_problems`` for the
American rules, ``verify_fill`` for the fill.
"""

from __future__ import annotations

from pathlib import Path

from csp_crossword.core.grid import Grid, read_grid
from csp_crossword.verify.fill import pattern_problems, verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_page import NEEDS_BROWSER, new_grid

pytestmark = NEEDS_BROWSER

REPO = Path(__file__).resolve().parents[2]
THEME = "CROSSWORDPUZZLE"


def open_patterns_tab(driver) -> None:
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="patterns"]').click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "tab-patterns").is_displayed())


def shown_cells(driver) -> list[list[str | None]]:
    """The grid as the page holds it, checked against what it draws (blocks and letters)."""
    cells = driver.execute_script("return CW.state.cells")
    drawn_blocks = len(driver.find_elements(By.CSS_SELECTOR, "#grid .cell.block"))
    assert drawn_blocks == sum(v is None for row in cells for v in row)
    return cells


def across_words(cells) -> list[str]:
    words = []
    for row in cells:
        run: list[str] = []
        for value in [*row, None]:
            if value is None:
                if len(run) >= 2:
                    words.append("".join(run))
                run = []
            else:
                run.append(value or ".")
    return words


def wait_result(driver, seconds: float = 30) -> str:
    WebDriverWait(driver, seconds).until(
        lambda d: (
            d.find_element(By.ID, "result").is_displayed() and not d.find_element(By.ID, "pat-cancel").is_enabled()
        )
    )
    return driver.find_element(By.ID, "result").text


def set_field(driver, field: str, value: str) -> None:
    box = driver.find_element(By.ID, field)
    box.clear()
    box.send_keys(value)


def test_generate_an_american_15x15_with_a_theme_entry(server, browser, shots):
    new_grid(browser, server, 5, 5)
    open_patterns_tab(browser)
    browser.save_screenshot(str(shots / "patterns-form.png"))
    set_field(browser, "pat-rows", "15")
    set_field(browser, "pat-cols", "15")
    set_field(browser, "pat-entries", "crossword puzzle")
    set_field(browser, "pat-seed", "3")
    set_field(browser, "pat-time", "10")

    # Pattern only, by mouse: the blocks and the theme entry, the rest empty.
    browser.find_element(By.ID, "pat-pattern").click()
    assert "the rest is yours to fill" in wait_result(browser)
    cells = shown_cells(browser)
    assert len(cells) == 15 and len(cells[0]) == 15
    assert THEME in across_words(cells)
    assert pattern_problems(cells, symmetry="rotational", max_run=15) == []
    assert sum(bool(v) for row in cells for v in row) == len(THEME)
    browser.save_screenshot(str(shots / "patterns-pattern-only.png"))

    # Undo takes the pattern back: the 5x5 grid returns.
    browser.find_element(By.ID, "undo").click()
    assert len(shown_cells(browser)) == 5

    # Pattern + fill, by keyboard: Enter in the form submits it.
    browser.find_element(By.ID, "pat-seed").send_keys(Keys.ENTER)
    text = wait_result(browser)
    assert "filled" in text and "CROSSWORDPUZZLE" in text
    cells = shown_cells(browser)
    assert THEME in across_words(cells)
    assert pattern_problems(cells, symmetry="rotational", max_run=15) == []
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    filled = tuple(tuple(row) for row in cells)
    assert verify_fill(grid, filled, builtin_lexicon("en"), extra_words=[THEME]) == []
    browser.save_screenshot(str(shots / "patterns-filled.png"))


def test_load_a_pattern_of_the_repo(server, browser, shots):
    new_grid(browser, server, 5, 5)
    open_patterns_tab(browser)
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pat-list .pat-item"))
    assert "patterns from grids" in browser.find_element(By.ID, "pat-list-head").text
    browser.find_element(By.ID, "pat-filter").send_keys("prefilled")
    items = browser.find_elements(By.CSS_SELECTOR, "#pat-list .pat-item")
    assert [i.get_attribute("data-id") for i in items] == ["demo.prefilled-7x7"]
    assert "7 × 7" in items[0].text
    items[0].click()
    WebDriverWait(browser, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 49)
    expected = read_grid(REPO / "grids" / "demo" / "prefilled-7x7.txt")
    assert shown_cells(browser) == [list(row) for row in expected.cells]

    # By keyboard: the list's buttons take Enter.
    filter_box = browser.find_element(By.ID, "pat-filter")
    filter_box.clear()
    filter_box.send_keys("am15-02")
    item = browser.find_element(By.CSS_SELECTOR, "#pat-list .pat-item")
    filter_box.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == item
    item.send_keys(Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 225)
    expected = read_grid(REPO / "grids" / "american" / "am15-02.txt")
    assert shown_cells(browser) == [list(row) for row in expected.cells]
    browser.save_screenshot(str(shots / "patterns-library.png"))


def test_an_open_layout_with_progressive_options(server, browser, shots):
    new_grid(browser, server, 5, 5)
    open_patterns_tab(browser)
    browser.find_element(By.ID, "pat-style-open").click()
    assert not browser.find_element(By.ID, "pat-pattern").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#pat-method option[value='progressive']").click()
    assert not browser.find_element(By.ID, "pat-symmetric").is_enabled()  # the progressive search keeps none
    set_field(browser, "pat-rows", "7")
    set_field(browser, "pat-cols", "7")
    set_field(browser, "pat-open-run", "5")
    set_field(browser, "pat-queue", "16")
    set_field(browser, "pat-seed", "0")
    # any entry of the list: the clued-only default leaves a 7x7 open board fewer words to grow from
    browser.find_element(By.ID, "pat-allow-unclued").click()
    browser.find_element(By.ID, "pat-fill").click()
    text = wait_result(browser)
    assert text.startswith("progressive layout, filled")
    cells = shown_cells(browser)
    assert len(cells) == 7 and all(v is None or v for row in cells for v in row)
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    assert verify_fill(grid, tuple(tuple(row) for row in cells), builtin_lexicon("en")) == []
    browser.save_screenshot(str(shots / "patterns-open.png"))
