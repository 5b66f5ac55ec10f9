"""How soon the construct page shows what still fits after an edit (POST /api/fillability).

Starts ``csp-crossword serve`` on a free port, puts an empty American-style pattern from grids/
into the grid (a 15x15 and a 21x21 by default) and makes ``--edits`` edits one after another, as
a constructor typing would: letters of list words into across entries, letter by letter, with a
deletion now and then. Each edit's time runs from the request sent to the answer read (what the
page then draws is a class per cell). The grid drifts from fillable to dead corners and back, so
both of the endpoint's paths are timed (the arc-consistent problem, and the rounds that make the
rest of the grid consistent again without the dead slots).

``--browser`` times the page itself in headless Chromium instead: real keystrokes into the grid,
timed two ways: from each fillability request sent to its marks drawn (the page keeps those times
in ``CW.fillability.timings``), and from the keystroke to the marks drawn, which adds the page's
wait after the last key (150 ms) and its own work.

The server runs ``--workers`` solver processes (default 2). ``--busy`` starts another job beside
it for the whole run, as a constructor's machine may have: ``csp-crossword fill`` of a 23x23
(``BUSY_FILL``) with the built-in list, again and again with a new seed, stopped at the end.

    python benchmarks/web_fillability.py
    python benchmarks/web_fillability.py --edits 60 --browser
    python benchmarks/web_fillability.py --browser --busy
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx

PATTERNS = [REPO / "grids" / "american" / "am15-01.txt", REPO / "grids" / "vanbeek" / "h2101.txt"]
#: The page's own name for itself (X-CSP-Client): its newer requests replace its older ones in line.
CLIENT = "b" * 32
#: The other job of ``--busy``: a 23x23 filled with the built-in list (about 2 s a fill, loading
#: the list included, on a quiet core), run again with the next seed as soon as it ends.
BUSY_FILL = ["fill", str(REPO / "grids" / "vanbeek" / "h2301.txt"), "--time-limit", "600", "--format", "json"]


@contextmanager
def busy_fill() -> Iterator[list[int]]:
    """Fills one after another beside the timed work until the block ends; yields a list that
    holds, once the block has ended, how many fills finished (the last one is stopped)."""
    stop = threading.Event()
    lock = threading.Lock()
    running: list[subprocess.Popen[bytes]] = []
    finished = [0]

    def loop() -> None:
        seed = 0
        while True:
            with lock:  # no fill starts once stop is set, so the one stopped below is the last
                if stop.is_set():
                    return
                seed += 1
                process = subprocess.Popen(
                    [sys.executable, "-m", "csp_crossword", *BUSY_FILL, "--seed", str(seed)],
                    cwd=REPO,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                running[:] = [process]
            if process.wait() == 0:
                finished[0] += 1

    thread = threading.Thread(target=loop, name="busy-fill", daemon=True)
    thread.start()
    try:
        yield finished
    finally:
        with lock:
            stop.set()
            for process in running:
                process.terminate()
        for process in running:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        thread.join(timeout=30)


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


#: Installed in the page: the time of each keystroke in the grid and of each fill-ability answer
#: drawn (the page pushes its request's time to ``CW.fillability.timings`` right after drawing).
WATCH_KEYS_AND_MARKS = """
window.benchKeys = []; window.benchDrawn = [];
document.getElementById("grid-input").addEventListener("keydown", () => benchKeys.push(performance.now()), true);
const timings = CW.fillability.timings;
const push = timings.push.bind(timings);
timings.push = (...values) => { benchDrawn.push(performance.now()); return push(...values); };
"""


def time_browser(base: str, path: Path, count: int, seed: int) -> tuple[list[float], list[float], int]:
    """Seconds from each request sent to its marks drawn and from each keystroke to its marks
    drawn, typing into the page in Chromium; and how many edits left a slot with no word."""
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
    from_key: list[float] = []
    try:
        driver.get(base + "/")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .cell"))
        cells = pattern_cells(path)
        driver.execute_script("CW.construct.loadPuzzle({grid: {cells: arguments[0], rtl: false}, clues: {}});", cells)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(current))
        driver.execute_script("CW.fillability.timings.length = 0;")
        driver.execute_script(WATCH_KEYS_AND_MARKS)
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
            # the answer to this key is drawn: from the key to it (one key, one answer drawn)
            key, drawn = driver.execute_script(
                "return [benchKeys[benchKeys.length - 1], benchDrawn[benchDrawn.length - 1]]"
            )
            if drawn is None or drawn < key:  # the marks shown came before the key: nothing to time
                raise RuntimeError(f"no fill-ability answer drawn after the key at row {r}, column {c}")
            from_key.append((drawn - key) / 1000)
        timings = driver.execute_script("return CW.fillability.timings.slice()")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return [t / 1000 for t in timings], from_key, dead


def percentile_90(seconds: list[float]) -> float:
    """The 90th percentile by nearest rank (the 27th of 30)."""
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


def report_line(name: str, size: str, measure: str, seconds: list[float], dead: int) -> str:
    return (
        f"{name:<28} {size:>6} {measure:<24} {statistics.median(seconds) * 1000:>7.0f}ms"
        f" {percentile_90(seconds) * 1000:>7.0f}ms {max(seconds) * 1000:>7.0f}ms {dead:>3}/{len(seconds)}"
    )


def start_server(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "--workers", str(workers), "-q"],
        cwd=REPO,
    )
    return server, f"http://127.0.0.1:{port}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--browser", action="store_true", help="time the page in headless Chromium")
    parser.add_argument("--workers", type=int, default=2, help="the server's solver processes (default 2)")
    parser.add_argument("--busy", action="store_true", help="fill a 23x23 again and again beside the run")
    parser.add_argument("patterns", nargs="*", type=Path, default=PATTERNS)
    args = parser.parse_args()

    server, base = start_server(args.workers)
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
        how = "in the page (Chromium)" if args.browser else "over HTTP"
        beside = ", beside fills of h2301 one after another (--busy)" if args.busy else ""
        print(f"fillability after an edit, {how}, {args.edits} edits per grid, serve --workers {args.workers}{beside}")
        print(f"load average at the start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}\n")
        print(f"{'grid':<28} {'size':>6} {'measure':<24} {'median':>9} {'p90':>9} {'max':>9} {'dead':>6}")
        with busy_fill() if args.busy else nullcontext([0]) as fills:
            started = time.monotonic()
            for path in args.patterns:
                cells = pattern_cells(path)
                name = str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)
                size = f"{len(cells)}x{len(cells[0])}"
                if args.browser:
                    seconds, from_key, dead = time_browser(base, path, args.edits, args.seed)
                    print(report_line(name, size, "request -> marks drawn", seconds, dead))
                    print(report_line(name, size, "keystroke -> marks drawn", from_key, dead))
                else:
                    seconds, dead = time_http(base, path, args.edits, args.seed)
                    print(report_line(name, size, "request -> answer read", seconds, dead))
            took = time.monotonic() - started
        print(f"\nload average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        if args.busy:
            print(f"busy job: {fills[0]} fills of h2301 finished in the {took:.0f} s timed")
        print("dead: edits after which some entry had no word (the slower path)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
