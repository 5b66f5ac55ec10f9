"""The web constructor in a real headless Chromium (selenium + Debian's chromium-driver).

Each test drives the page as a user would and checks what the page shows; a fill read back from
the page is checked with the independent verifier. Screenshots go to ``CSP_CROSSWORD_SHOTS``
(default: the test's temporary folder) to be looked at. Skipped, with the reason, when selenium,
Chromium or ChromeDriver is missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

selenium = pytest.importorskip("selenium")
pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Chromium and ChromeDriver (apt-get install chromium chromium-driver)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "--workers", "2", "-q"], cwd=REPO
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("the server did not answer within 60 s")
    yield base
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads, tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("CSP_CROSSWORD_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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


def page_cells(driver, rows: int, cols: int) -> tuple[tuple[str | None, ...], ...]:
    return tuple(
        tuple(
            None if "block" in cell(driver, r, c).get_attribute("class").split() else glyph(driver, r, c)
            for c in range(cols)
        )
        for r in range(rows)
    )


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
    WebDriverWait(browser, 60).until(
        lambda d: all(page_cells(d, 5, 5)[r][c] for r in range(5) for c in range(5) if (r, c) not in ((0, 0), (4, 4)))
    )
    cells = page_cells(browser, 5, 5)
    assert cells[2][0] == "S"
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
