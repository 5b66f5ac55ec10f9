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


def page_cells(driver, rows: int, cols: int) -> tuple[tuple[str | None, ...], ...]:
    return tuple(
        tuple(
            None if "block" in cell(driver, r, c).get_attribute("class").split() else glyph(driver, r, c)
            for c in range(cols)
        )
        for r in range(rows)
    )
