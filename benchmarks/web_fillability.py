"""How soon the construct page shows what still fits after an edit (POST /api/fillability).

Starts ``csp-crossword serve`` on a free port, puts an empty American-style pattern from grids/
into the grid (a 15x15 and a 21x21 by default) and makes ``--edits`` edits one after another, as
a constructor typing would: letters of list words into across entries, letter by letter, with a
deletion now and then. Each edit's time runs from the request sent to the answer read (what the
page then draws is a class per cell). The grid drifts from fillable to dead corners and back, so
both of the endpoint's paths are timed (the arc-consistent problem, and the rounds that make the
rest of the grid consistent again without the dead slots).

``--browser`` times the page itself in headless Chromium instead: real keystrokes into the grid,
the time from each fillability request sent to its marks drawn (the page keeps those times in
``CW.fillability.timings``); the debounce (150 ms after the last key) comes on top.

    python benchmarks/web_fillability.py
    python benchmarks/web_fillability.py --edits 60 --browser
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx

PATTERNS = [REPO / "grids" / "american" / "am15-01.txt", REPO / "grids" / "vanbeek" / "h2101.txt"]
#: The page's own name for itself (X-CSP-Client): its newer requests replace its older ones in line.
CLIENT = "b" * 32


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pattern_cells(path: Path) -> list[list[str | None]]:
    return [[None if ch == "#" else "" for ch in row] for row in path.read_text().split()]


def across_runs(cells: list[list[str | None]]) -> list[list[tuple[int, int]]]:
    runs: list[list[tuple[int, int]]] = []
    for r, row in enumerate(cells):
        run: list[tuple[int, int]] = []
        for c, value in enumerate([*row, None]):
            if value is None:
                if len(run) >= 3:
                    runs.append(run)
                run = []
            else:
                run.append((r, c))
    return runs


def edits(cells: list[list[str | None]], count: int, seed: int) -> list[list[list[str | None]]]:
    """``count`` grids, each one edit after the one before: list words typed into across entries
    letter by letter (crossings not minded, as a constructor trying a word; one letter in seven
    or so a Q, X, J or Z instead), every fifth edit a deletion of the last letter typed."""
    from csp_crossword.words.builtin import builtin_lexicon

    by_length = builtin_lexicon().by_length
    rng = random.Random(seed)
    runs = across_runs(cells)
    grid = [row[:] for row in cells]
    out: list[list[list[str | None]]] = []
    typed: list[tuple[int, int]] = []
    queue: list[tuple[int, int, str]] = []
    while len(out) < count:
        if typed and len(out) % 5 == 4:
            r, c = typed.pop()
            grid[r][c] = ""
        else:
            if not queue:
                run = rng.choice(runs)
                word = rng.choice(by_length.get(len(run)) or ["?" * len(run)])
                queue = [(r, c, ch) for (r, c), ch in zip(run, word, strict=False)]
            r, c, ch = queue.pop(0)
            if rng.random() < 0.15:  # a slip of the finger: often a dead corner until deleted
                ch = rng.choice("QXJZ")
            grid[r][c] = ch
            typed.append((r, c))
        out.append([row[:] for row in grid])
    return out


def time_http(base: str, path: Path, count: int, seed: int) -> tuple[list[float], int]:
    """Seconds per edit, and how many edits left a slot with no word."""
    seconds: list[float] = []
    dead = 0
    with httpx.Client(base_url=base, timeout=30, headers={"X-CSP-Client": CLIENT}) as client:
        client.post("/api/fillability", json={"grid": {"cells": pattern_cells(path)}})  # the list loaded
        for grid in edits(pattern_cells(path), count, seed):
            start = time.perf_counter()
            answer = client.post("/api/fillability", json={"grid": {"cells": grid}})
            seconds.append(time.perf_counter() - start)
            answer.raise_for_status()
            dead += bool(answer.json()["dead"])
    return seconds, dead


def time_browser(base: str, path: Path, count: int, seed: int) -> tuple[list[float], int]:
    """Seconds from each request sent to its marks drawn, typing into the page in Chromium."""
    import shutil
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    profile = tempfile.mkdtemp(prefix="csp-crossword-bench-")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")), options=options
    )
    current = "return !!CW.state.fit && CW.state.fit.key === JSON.stringify({grid: {cells: CW.state.cells, rtl: CW.state.rtl}, ...CW.solver.wordSettings()})"
    dead = 0
    try:
        driver.get(base + "/")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
        cells = pattern_cells(path)
        driver.execute_script("CW.construct.loadPuzzle({grid: {cells: arguments[0], rtl: false}, clues: {}});", cells)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(current))
        driver.execute_script("CW.fillability.timings.length = 0;")
        previous = cells
        for grid in edits(cells, count, seed):
            (r, c), value = next(
                ((r, c), v) for r, row in enumerate(grid) for c, v in enumerate(row) if v != previous[r][c]
            )
            previous = grid
            driver.execute_script("CW.construct.select(arguments[0], arguments[1], 'across');", r, c)
            box = driver.find_element(By.ID, "grid-input")
            box.send_keys(value.lower() if value else "\ue017")  # a letter, or Delete
            WebDriverWait(driver, 20).until(lambda d: d.execute_script(current))
            dead += bool(driver.execute_script("return CW.state.fit.dead.size"))
        timings = driver.execute_script("return CW.fillability.timings.slice()")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return [t / 1000 for t in timings], dead


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--browser", action="store_true", help="time the page in headless Chromium")
    parser.add_argument("patterns", nargs="*", type=Path, default=PATTERNS)
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "--workers", "1", "-q"], cwd=REPO
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            print("the server did not answer within 120 s", file=sys.stderr)
            return 1
        how = "page: request sent -> marks drawn" if args.browser else "HTTP: request sent -> answer read"
        print(f"fillability after an edit ({how}), {args.edits} edits per grid\n")
        print(f"{'grid':<28} {'size':>6} {'median':>9} {'p90':>9} {'max':>9} {'dead':>6}")
        for path in args.patterns:
            cells = pattern_cells(path)
            timer = time_browser if args.browser else time_http
            seconds, dead = timer(base, path, args.edits, args.seed)
            seconds.sort()
            p90 = seconds[min(len(seconds) - 1, int(round(0.9 * (len(seconds) - 1))))]
            name = str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)
            print(
                f"{name:<28} {len(cells)}x{len(cells[0]):<3} {statistics.median(seconds) * 1000:>7.0f}ms"
                f" {p90 * 1000:>7.0f}ms {seconds[-1] * 1000:>7.0f}ms {dead:>3}/{len(seconds)}"
            )
        print("\ndead: edits after which some entry had no word (the slower path)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
