"""Page helpers of the browser tests (tests/web/test_web_*browser*.py): cells, typing, a new grid.

Importing this module skips the importing test module, with the reason, when selenium, Chromium or
ChromeDriver is missing.
"""

from __future__ import annotations

import shutil

import pytest

selenium = pytest.importorskip("selenium")
pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
#: The mark of a browser test module: skipped without Chromium and ChromeDriver.
NEEDS_BROWSER = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Chromium and ChromeDriver (apt-get install chromium chromium-driver)",
)
__all__ = ["CHROMEDRIVER", "CHROMIUM", "NEEDS_BROWSER", "webdriver"]


def cell(driver, r: int, c: int):
    return driver.find_element(By.CSS_SELECTOR, f"#grid .cell[data-row='{r}'][data-col='{c}']")


def glyph(driver, r: int, c: int) -> str:
    return cell(driver, r, c).find_element(By.CSS_SELECTOR, ".glyph").text.strip()


def new_grid(driver, base: str, rows: int, cols: int) -> None:
    driver.get(base + "/")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    for field, value in (("rows", rows), ("cols", cols)):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    driver.find_element(By.ID, "new-grid").click()
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid .cell")) == rows * cols)


def select_across(driver, r: int, c: int) -> None:
    """Select cell (r, c) in its across entry (a click on the selected cell turns the direction)."""
    cell(driver, r, c).click()
    entry = driver.find_element(By.ID, "current-entry")
    if entry.text.split(" ")[0].endswith("D"):
        driver.find_element(By.ID, "grid-input").send_keys(" ")
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "current-entry").text.split(" ")[0].endswith("A"))


def type_at(driver, r: int, c: int, text: str) -> None:
    select_across(driver, r, c)
    driver.find_element(By.ID, "grid-input").send_keys(text)


def put_rebus(driver, r: int, c: int, text: str) -> None:
    """Put ``text`` in cell (r, c) as a rebus by the keyboard (Insert, the letters, Enter) and wait
    until the cell shows it."""
    from selenium.webdriver.common.keys import Keys

    select_across(driver, r, c)
    driver.find_element(By.ID, "grid-input").send_keys(Keys.INSERT)
    box = driver.find_element(By.ID, "rebus-input")
    WebDriverWait(driver, 5).until(lambda d: box.is_displayed())
    box.send_keys(text, Keys.ENTER)
    WebDriverWait(driver, 5).until(lambda d: glyph(d, r, c) == text.upper())


#: Every cell of the construct grid in one call (a call per cell costs a round trip to ChromeDriver,
#: some 5 ms: seconds for a 15x15): row, column, classes and the glyph as shown (``innerText`` is
#: what the user sees, after the stylesheet's text transform, as Selenium's ``.text`` is).
_GRID_CELLS = """return Array.from(document.querySelectorAll('#grid .cell')).map((node) => {
  const glyph = node.querySelector('.glyph');
  return [Number(node.dataset.row), Number(node.dataset.col), node.className, glyph ? glyph.innerText.trim() : ''];
});"""


def grid_classes(driver) -> dict[tuple[int, int], set[str]]:
    """Each construct cell's classes, by (row, column)."""
    return {(r, c): set(names.split()) for r, c, names, _ in driver.execute_script(_GRID_CELLS)}


def page_cells(driver, rows: int, cols: int) -> tuple[tuple[str | None, ...], ...]:
    """The construct grid as shown: ``None`` for a block, else the cell's glyph (``""`` when empty)."""
    shown = {
        (r, c): None if "block" in names.split() else text for r, c, names, text in driver.execute_script(_GRID_CELLS)
    }
    return tuple(tuple(shown[r, c] for c in range(cols)) for r in range(rows))


#: True once the page's fill-ability answer is for the grid as it is now (no edit since it was asked).
FIT_IS_CURRENT = (
    "return !!CW.state.fit && CW.state.fit.key === "
    "JSON.stringify({grid: {cells: CW.state.cells, rtl: CW.state.rtl}, ...CW.solver.wordSettings()})"
)


def fit_summary(driver, seconds: float = 30) -> str:
    """The fill-ability line once it answers the grid as it is now."""
    WebDriverWait(driver, seconds).until(
        lambda d: (
            d.find_element(By.ID, "fit-summary").text
            and "stale" not in d.find_element(By.ID, "fit-summary").get_attribute("class")
            and d.execute_script(FIT_IS_CURRENT)
        )
    )
    return driver.find_element(By.ID, "fit-summary").text


def dead_cells(driver) -> set[tuple[int, int]]:
    """The cells the page marks as part of an entry no word fits."""
    return {
        (int(node.get_attribute("data-row")), int(node.get_attribute("data-col")))
        for node in driver.find_elements(By.CSS_SELECTOR, "#grid .cell.dead")
    }


def printed_pdf(driver, button: str, seconds: float = 60) -> bytes:
    """Click a print button (``print``, ``print-key``, ...), read the PDF its new tab shows, close
    the tab and come back; the PDF's bytes."""
    import base64

    handles = set(driver.window_handles)
    back = driver.current_window_handle
    driver.find_element(By.ID, button).click()
    WebDriverWait(driver, seconds).until(lambda d: set(d.window_handles) - handles)
    driver.switch_to.window((set(driver.window_handles) - handles).pop())
    try:
        WebDriverWait(driver, seconds).until(lambda d: d.current_url.startswith("blob:"))
        driver.set_script_timeout(seconds)
        data = driver.execute_async_script(
            "const done = arguments[0]; fetch(location.href).then((r) => r.arrayBuffer()).then((b) => {"
            " const bytes = new Uint8Array(b); let text = '';"
            " for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));"
            " done(btoa(text)); });"
        )
    finally:
        driver.close()
        driver.switch_to.window(back)
    return base64.b64decode(data)
