"""The Words tab's Overrides section in headless Chromium: a set made, words added, rescored and
banned for good with the keyboard and with the mouse, candidates and an autofill that follow at
once (the fill read back and verified), the set's file exported; and the tab's fields kept inside
the side panel with a long word-list name, at 1280x900 and in a narrow window (screenshots to
``CSP_CROSSWORD_SHOTS``)."""

from __future__ import annotations

import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_page import NEEDS_BROWSER, cell, new_grid, page_cells, select_across
from conftest import running_server

pytestmark = NEEDS_BROWSER

BEST = ["SAT", "ERA", "TEN", "SET", "ARE", "TAN"]
SECOND = ["ABC", "DEF", "GHI", "ADG", "BEH", "CFI"]
LONG_NAME = "a-really-long-word-list-name-for-the-spring-themed-sunday-puzzle-collection-2026.txt"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server of its own: a list with a long name (two 3x3 fills) and an empty overrides folder."""
    lists = tmp_path_factory.mktemp("lists")
    words = lists / LONG_NAME
    words.write_text("".join(f"{w};60\n" for w in BEST) + "".join(f"{w};30\n" for w in SECOND), encoding="utf-8")
    folder = tmp_path_factory.mktemp("overrides")
    with running_server("--workers", "1", "--words", str(words), "--overrides-dir", str(folder)) as base:
        yield base, folder, words


def open_words_tab(driver, base: str) -> None:
    new_grid(driver, base, 3, 3)
    driver.find_element(By.CSS_SELECTOR, ".tabs [data-tab='words']").click()
    Select(driver.find_element(By.ID, "wordlist")).select_by_value("file1")


def entries_shown(driver) -> dict[str, str]:
    """word -> its score as the set's list shows it (banned: 0)."""
    # read in one script: the list is drawn again after every change
    return driver.execute_script(
        "const rows = document.querySelectorAll('#ov-entries li[data-word]');"
        "return Object.fromEntries([...rows].map((li) => [li.dataset.word, li.querySelector('.ov-score').value]));"
    )


def wait_entry(driver, word: str, score: str) -> None:
    WebDriverWait(driver, 10).until(lambda d: entries_shown(d).get(word) == score)


def candidates_of_1a(driver) -> list[tuple[str, str]]:
    """The Candidates tab's list for 1A once it has come: (word, score), best first."""
    driver.find_element(By.CSS_SELECTOR, ".tabs [data-tab='candidates']").click()
    select_across(driver, 0, 0)

    def listed(d):
        if not d.find_element(By.ID, "candidates-head").text.startswith("1A"):
            return None
        if "loading" in d.find_element(By.ID, "candidates").get_attribute("class"):
            return None
        items = d.find_elements(By.CSS_SELECTOR, "#candidates li[data-word]")
        return [(li.get_attribute("data-word"), li.find_element(By.CSS_SELECTOR, ".cand-score").text) for li in items]

    return WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException]).until(listed)


def test_add_rescore_and_ban_with_keyboard_and_mouse(site, browser, downloads, shots):
    from csp_crossword.api import load_words
    from csp_crossword.core.grid import Grid
    from csp_crossword.verify.fill import verify_fill

    base, folder, words = site
    open_words_tab(browser, base)
    # keyboard: make a set, add a word with a score, all typed and confirmed with Enter
    name_box = browser.find_element(By.ID, "ov-new-name")
    name_box.send_keys("my-set", Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "ov-editor").is_displayed())
    assert Select(browser.find_element(By.ID, "ov-set")).first_selected_option.get_attribute("value") == "my-set"
    word = browser.find_element(By.ID, "ov-word")
    assert browser.switch_to.active_element == word  # ready for the first word
    word.send_keys("abc", Keys.TAB)
    browser.switch_to.active_element.send_keys(Keys.CONTROL, "a", Keys.NULL, "99", Keys.ENTER)
    wait_entry(browser, "ABC", "99")
    # keyboard: a word with a space keeps its display form; then rescore it in its row
    word.send_keys("ice age", Keys.ENTER)  # the score box keeps the last score given
    wait_entry(browser, "ICEAGE", "99")
    row = browser.find_element(By.CSS_SELECTOR, "#ov-entries li[data-word='ICEAGE']")
    assert row.find_element(By.CSS_SELECTOR, ".ov-word").text == "ice age"
    score = row.find_element(By.CSS_SELECTOR, ".ov-score")
    score.send_keys(Keys.CONTROL, "a", Keys.NULL, "65", Keys.ENTER)
    wait_entry(browser, "ICEAGE", "65")
    # mouse: ban for good with the button beside the word box, then in a row
    word.send_keys("sat")
    browser.find_element(By.ID, "ov-ban").click()
    wait_entry(browser, "SAT", "0")
    word.send_keys("def", Keys.ENTER)
    wait_entry(browser, "DEF", "99")
    browser.find_element(By.CSS_SELECTOR, "#ov-entries li[data-word='DEF'] .ov-toggle").click()
    wait_entry(browser, "DEF", "0")
    browser.find_element(By.CSS_SELECTOR, "#ov-entries li[data-word='DEF'] .ov-remove").click()
    WebDriverWait(browser, 10).until(lambda d: "DEF" not in entries_shown(d))
    assert "banned" in browser.find_element(By.CSS_SELECTOR, "#ov-entries li[data-word='SAT']").get_attribute("class")
    browser.save_screenshot(str(shots / "overrides-editor.png"))

    on_disk = (folder / "my-set.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in on_disk if not line.startswith("#")] == ["ABC;99", "ice age;65", "SAT;0"]

    # candidates follow the set at once: ABC first with its new score, SAT gone
    shown = candidates_of_1a(browser)
    assert shown[0] == ("ABC", "99") and "SAT" not in [w for w, _ in shown]
    browser.save_screenshot(str(shots / "overrides-candidates.png"))

    # an autofill keeps SAT out: the page's fill, read back and verified against the list + set
    browser.find_element(By.ID, "autofill").click()
    WebDriverWait(browser, 60).until(lambda d: all(v for row in page_cells(d, 3, 3) for v in row))
    cells = page_cells(browser, 3, 3)
    rows = ["".join(r) for r in cells]
    assert set(rows) | {"".join(c) for c in zip(*rows)} == set(SECOND)
    lexicon = load_words([str(words)], overrides=[str(folder / "my-set.txt")])
    pattern = Grid(tuple(tuple("" for _ in range(3)) for _ in range(3)))
    assert verify_fill(pattern, cells, lexicon) == []

    # export downloads the file as it is on disk
    for old in downloads.glob("my-set*"):
        old.unlink()
    browser.find_element(By.CSS_SELECTOR, ".tabs [data-tab='words']").click()
    browser.find_element(By.ID, "ov-export").click()
    WebDriverWait(browser, 20).until(lambda d: (downloads / "my-set.txt").exists())
    time.sleep(0.2)  # the download is renamed into place when complete
    assert (downloads / "my-set.txt").read_bytes() == (folder / "my-set.txt").read_bytes()

    # the choice outlives a reload; "none" turns the set off
    browser.refresh()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
    WebDriverWait(browser, 10).until(
        lambda d: Select(d.find_element(By.ID, "ov-set")).first_selected_option.get_attribute("value") == "my-set"
    )
    browser.find_element(By.CSS_SELECTOR, ".tabs [data-tab='words']").click()
    Select(browser.find_element(By.ID, "ov-set")).select_by_value("")
    WebDriverWait(browser, 10).until(lambda d: not d.find_element(By.ID, "ov-editor").is_displayed())
    assert cell(browser, 0, 0) is not None


def test_a_bad_set_name_is_refused_in_the_page(site, browser):
    base, folder, _ = site
    open_words_tab(browser, base)
    browser.find_element(By.ID, "ov-new-name").send_keys("../evil", Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "status").get_attribute("data-kind") == "error")
    assert "letters, digits" in browser.find_element(By.ID, "status").text
    assert not list(folder.parent.glob("evil*")) and not list(folder.glob("*evil*"))


@pytest.mark.parametrize("size", [(1280, 900), (760, 900)])
def test_the_words_tab_stays_inside_the_side_panel_with_a_long_list_name(site, browser, shots, size):
    base, _, _ = site
    browser.set_window_size(*size)
    try:
        open_words_tab(browser, base)
        Select(browser.find_element(By.ID, "ov-set")).select_by_index(0)
        panel = browser.find_element(By.ID, "tab-words")
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", panel)
        right = panel.rect["x"] + panel.rect["width"]
        for field in ("wordlist", "lang", "min-score", "time-limit", "ov-set", "ov-new-name"):
            box = browser.find_element(By.ID, field).rect
            assert panel.rect["x"] <= box["x"] and box["x"] + box["width"] <= right + 0.5, field
        browser.save_screenshot(str(shots / f"words-tab-{size[0]}.png"))
    finally:
        browser.set_window_size(1280, 900)
