"""Freeform mode's word tools in a real headless Chromium: replacing a selected word, highlighting
it (on the board and in the printed PDF), the long-clue flag and printing the word search. What the
page shows is read back and checked here: the board's runs by a reader of this file, the PDFs by
pdftotext and pdftoppm (poppler-utils)."""

from __future__ import annotations

import base64
import shutil
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_page import NEEDS_BROWSER

pytestmark = [
    NEEDS_BROWSER,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils"),
]

LONG_CLUE = (
    "A very long clue that goes on and on about the planet, far past what fits in three printed lines of a column"
)
WORDS = [
    ("planet", "A world circling a star"),
    ("orbit", "Its path around the sun"),
    ("comet", "An icy visitor with a tail"),
    ("rocket", "It goes up into space"),
    ("meteor", LONG_CLUE),
    ("saturn", "The ringed planet"),
    ("moon", "It circles the earth"),
    ("star", "The sun is one"),
]
#: A shaded cell in the printed PDF (printing.grid_drawing.SHADE, #c4c4c4), give or take anti-aliasing.
SHADE, TOLERANCE = 196, 6


def generate(browser, server):
    browser.get(server + "/")
    browser.find_element(By.ID, "mode-freeform").click()
    box = browser.find_element(By.ID, "ff-words")
    box.clear()
    box.send_keys("\n".join(f"{w}: {c}" for w, c in WORDS))
    browser.find_element(By.ID, "ff-time-limit").clear()
    browser.find_element(By.ID, "ff-time-limit").send_keys("2")
    browser.find_element(By.ID, "ff-generate").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ff-board .glyph"))
    WebDriverWait(browser, 30).until(lambda d: not d.find_element(By.ID, "ff-generate").get_attribute("disabled"))


def board(browser):
    """The board as the page shows it: rows of glyphs, None for space."""
    board = browser.find_element(By.ID, "ff-board")
    rows, cols = (int(n) for n in board.get_attribute("data-shape").split("x"))
    found = browser.execute_script(
        "return [...document.querySelectorAll('#ff-board .cell')].map(n => n.classList.contains('space') ? null"
        " : n.querySelector('.glyph').textContent)"
    )
    return [found[r * cols : (r + 1) * cols] for r in range(rows)]


def runs(cells):
    """Every run of two or more letters: {(direction, first cell): word}."""
    found = {}
    rows, cols = len(cells), len(cells[0])

    def letter(r, c):
        return 0 <= r < rows and 0 <= c < cols and cells[r][c] is not None

    for r in range(rows):
        for c in range(cols):
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                if letter(r, c) and not letter(r - dr, c - dc) and letter(r + dr, c + dc):
                    word, rr, cc = "", r, c
                    while letter(rr, cc):
                        word, rr, cc = word + cells[rr][cc], rr + dr, cc + dc
                    found[(direction, (r, c))] = word
    return found


def board_cell(browser, r, c):
    return browser.find_element(By.CSS_SELECTOR, f"#ff-board .cell[data-row='{r}'][data-col='{c}']")


def selected_cells(browser):
    nodes = browser.find_elements(By.CSS_SELECTOR, "#ff-board .cell.in-entry, #ff-board .cell.selected")
    return sorted((int(n.get_attribute("data-row")), int(n.get_attribute("data-col"))) for n in nodes)


def first_word(cells):
    (direction, start), word = sorted(runs(cells).items())[0]
    return direction, start, word


def changed_word(before, after):
    """The one word of ``after`` that differs from ``before``, with its start; the rest agree."""
    old, new = runs(before), runs(after)
    assert old.keys() == new.keys()  # the same shape: the same words' places
    diff = [key for key in old if old[key] != new[key]]
    assert len(diff) == 1, diff
    return diff[0], old[diff[0]], new[diff[0]]


def fetch_pdf(browser, button, folder, name):
    """Click a print button, read the PDF its new tab shows, close the tab; the PDF's path."""
    handles = set(browser.window_handles)
    browser.find_element(By.ID, button).click()
    WebDriverWait(browser, 30).until(lambda d: set(d.window_handles) - handles)
    tab = (set(browser.window_handles) - handles).pop()
    browser.switch_to.window(tab)
    WebDriverWait(browser, 30).until(lambda d: d.current_url.startswith("blob:"))
    browser.set_script_timeout(60)
    data = browser.execute_async_script(
        "const done = arguments[0]; fetch(location.href).then(r => r.arrayBuffer()).then(b => {"
        " const bytes = new Uint8Array(b); let text = '';"
        " for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));"
        " done(btoa(text)); });"
    )
    browser.close()
    browser.switch_to.window(next(iter(handles)))
    path = folder / name
    path.write_bytes(base64.b64decode(data))
    assert path.read_bytes()[:5] == b"%PDF-"
    return path


def select_word(browser, direction, r, c):
    board_cell(browser, r, c).click()
    if browser.find_element(By.ID, "ff-selected").text.split()[0][-1] != direction[0].upper():
        board_cell(browser, r, c).click()  # a crossing: the second click turns


def test_replace_a_word_by_mouse_and_by_key(server, browser, shots):
    from csp_crossword.words.builtin import builtin_lexicon

    lexicon = builtin_lexicon("en")
    generate(browser, server)
    assert not browser.find_element(By.ID, "ff-failed-box").is_displayed()  # every word placed
    original = board(browser)
    direction, (r, c), word = first_word(original)
    select_word(browser, direction, r, c)
    assert word in browser.find_element(By.ID, "ff-selected").text.upper()
    # from my list: every word is on the board, so none is left to fit
    Select(browser.find_element(By.ID, "ff-replace-from")).select_by_value("list")
    browser.find_element(By.ID, "ff-replace").click()
    WebDriverWait(browser, 20).until(lambda d: "no word of the list fits" in d.find_element(By.ID, "status").text)
    assert board(browser) == original
    # from the built-in list, by mouse
    Select(browser.find_element(By.ID, "ff-replace-from")).select_by_value("builtin")
    browser.find_element(By.ID, "ff-replace").click()
    WebDriverWait(browser, 20).until(lambda d: board(d) != original)
    key, old, new = changed_word(original, board(browser))
    assert key == (direction, (r, c)) and old == word and new != word
    assert new in lexicon and new not in runs(original).values()
    assert "replaced" in browser.find_element(By.ID, "status").text
    # its clue is an empty box (the built-in list has no clue for it); a clue typed in is kept
    entry_id = browser.find_element(By.ID, "ff-selected").text.split()[0]
    clue_box = browser.find_element(By.CSS_SELECTOR, f"#ff-clues li[data-id='{entry_id}'] input.ff-clue-input")
    assert clue_box.get_attribute("value") == ""
    clue_box.send_keys("A new clue", Keys.ENTER)
    WebDriverWait(browser, 5).until(
        lambda d: "A new clue" in d.find_element(By.CSS_SELECTOR, f"#ff-clues li[data-id='{entry_id}']").text
    )
    # by keyboard: Escape, an arrow selects a word, R replaces it
    before = board(browser)
    browser.find_element(By.ID, "ff-board").send_keys(Keys.ESCAPE, Keys.ARROW_DOWN, "r")
    WebDriverWait(browser, 20).until(lambda d: board(d) != before)
    _, old_2, new_2 = changed_word(before, board(browser))
    assert new_2 in lexicon and new_2 not in runs(before).values()
    # from my list again: the words taken off are back in play
    before = board(browser)
    Select(browser.find_element(By.ID, "ff-replace-from")).select_by_value("list")
    select_word(browser, direction, r, c)
    browser.find_element(By.ID, "ff-board").send_keys("r")
    WebDriverWait(browser, 20).until(lambda d: board(d) != before)
    key, _, back = changed_word(before, board(browser))
    assert key == (direction, (r, c)) and back in (word, old_2)


def test_highlight_and_long_clue_flag_show_and_print(server, browser, shots):
    generate(browser, server)
    assert "METEOR" in runs(board(browser)).values()  # the word of the long clue is on the board
    flagged = browser.find_elements(By.CSS_SELECTOR, "#ff-clues li.ff-long-clue")
    assert len(flagged) == 1 and LONG_CLUE in flagged[0].text
    flag = flagged[0].find_element(By.CSS_SELECTOR, ".ff-long-flag")
    assert flag.is_displayed() and "long clue" in flag.text
    title = flag.get_attribute("title")
    assert f"{len(LONG_CLUE)} characters" in title and "over 80" in title
    # highlight the first word by key (H); the button turns it off again
    _, (r, c), _ = first_word(board(browser))
    board_cell(browser, r, c).click()
    cells = selected_cells(browser)
    browser.find_element(By.ID, "ff-board").send_keys("h")
    shaded = lambda d: sorted(  # noqa: E731
        (int(n.get_attribute("data-row")), int(n.get_attribute("data-col")))
        for n in d.find_elements(By.CSS_SELECTOR, "#ff-board .cell.shaded")
    )
    assert shaded(browser) == cells
    assert browser.find_element(By.ID, "ff-highlight").get_attribute("aria-pressed") == "true"
    browser.find_element(By.ID, "ff-board").send_keys(Keys.ESCAPE)  # nothing selected: the shading shows
    browser.save_screenshot(str(shots / "freeform-highlight-long-clue.png"))
    pdf = fetch_pdf(browser, "ff-print", shots, "freeform-highlight.pdf")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(shots / "freeform-highlight")], check=True
    )
    from PIL import Image

    image = Image.open(next(shots.glob("freeform-highlight*.png"))).convert("RGB")
    pixels = image.tobytes()
    grey = sum(1 for k in range(0, len(pixels), 3) if all(abs(v - SHADE) <= TOLERANCE for v in pixels[k : k + 3]))
    assert grey > 100 * len(cells)  # about 500 a shaded cell at 60 dpi; a page without shading has ~60
    board_cell(browser, r, c).click()
    browser.find_element(By.ID, "ff-highlight").click()
    assert shaded(browser) == []


def test_print_the_word_search_and_its_key(server, browser, shots):
    generate(browser, server)
    placed = [li.text.replace("×", "").strip() for li in browser.find_elements(By.CSS_SELECTOR, "#ff-placed li")]
    pdf = fetch_pdf(browser, "ff-print-search", shots, "word-search.pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert f"Find these {len(placed)} words" in text
    found = text.split("across or down.")[1].split()
    for word in placed:
        assert word.upper() in found
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(shots / "word-search")], check=True
    )
    key = fetch_pdf(browser, "ff-print-search-key", shots, "word-search-key.pdf")
    assert "answer key" in subprocess.run(["pdftotext", str(key), "-"], capture_output=True, text=True).stdout
