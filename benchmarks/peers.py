"""Other fillers run side by side with ours: Qxw in batch mode and blacksquare (shared by the benchmarks).

* **Qxw** (Debian package ``qxw``, ``apt-get install qxw``): ``qxw -b -d WORDS DECK``. A deck lists
  one light a line as its cells (``RRCC`` each); a ``.RANDOM n`` line first picks Qxw's own
  randomisation (0 deterministic, 1 slightly, 2 highly randomised; it takes no seed). Qxw prints
  ``W<i> WORD`` and ``# display form`` for light ``i`` of the deck, exits 4 when it proved that no
  fill exists and has no time limit of its own (we kill it). A dictionary line may carry a
  trailing number, which Qxw reads and ignores: it has no notion of word scores, so it is given a
  list already filtered at a score threshold. It never repeats an answer (``.UNIQUE 0`` would
  allow it).
* **blacksquare** (PyPI ``blacksquare``, ``pip install -e ".[bench]"``): ``Crossword(grid=...)``
  and ``WordList({word: score})`` (scores rescaled to 0-1); ``fill(timeout=...)`` returns a filled
  copy or ``None`` (on a timeout or when the search ran out). ``temperature=0`` is deterministic;
  it takes no seed.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

QXW = "/usr/games/qxw"

Rows = list[str]
#: A fill as rows of cells: ``None`` a block, ``""`` an empty cell, else a letter.
Cells = list[list[str | None]]


def lights(rows: Rows) -> list[list[tuple[int, int]]]:
    """The entries (runs of 2+ open cells, ``#`` blocks) of a pattern: across rows first, then down
    columns, each as its cells."""
    found = []
    for across in (True, False):
        lines = rows if across else ["".join(col) for col in zip(*rows)]
        for i, line in enumerate(lines):
            start = 0
            for j in range(len(line) + 1):
                if j == len(line) or line[j] == "#":
                    if j - start > 1:
                        found.append([(i, k) if across else (k, i) for k in range(start, j)])
                    start = j + 1
    return found


def qxw_deck(rows: Rows, random: int | None = None) -> str:
    """A blocked grid (``#`` blocks) as a Qxw deck: one line per light listing its cells."""
    head = [f".RANDOM {random}"] if random is not None else []
    body = [" ".join(f"{r:02d}{c:02d}" for r, c in cells) for cells in lights(rows)]
    return "\n".join(head + body) + "\n"


def qxw_available() -> bool:
    return shutil.which(QXW) is not None


def blacksquare_available() -> bool:
    try:
        import blacksquare  # noqa: F401
    except ImportError:
        return False
    return True


def run_qxw(rows: Rows, words: Path, time_limit: float, random: int = 1) -> tuple[str, float, Cells | None, str]:
    """Qxw on one pattern: (status, wall seconds, cells or None, note). Status ``filled``,
    ``unsatisfiable`` (Qxw's search ended without a fill), ``timeout`` or ``error``."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="qxw-") as work:
        deck = Path(work) / "grid.qxd"
        deck.write_text(qxw_deck(rows, random))
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [QXW, "-b", "-d", str(words), str(deck)], capture_output=True, text=True, timeout=time_limit
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start, None, ""
        seconds = time.perf_counter() - start
    if done.returncode == 4:
        return "unsatisfiable", seconds, None, ""
    if done.returncode != 0:
        return "error", seconds, None, f"qxw exit {done.returncode}: {done.stderr.strip()[:80]}"
    return "filled", seconds, qxw_cells(rows, done.stdout), ""


def qxw_cells(rows: Rows, output: str) -> Cells:
    """Qxw's ``W<i> WORD`` lines written into the pattern's cells."""
    cells: Cells = [[None if ch == "#" else "" for ch in row] for row in rows]
    runs = lights(rows)
    for line in output.splitlines():
        if line.startswith("W") and " " in line:
            index, word = line[1:].split(" ", 1)
            word = word.strip()
            cells_of = runs[int(index)]
            if len(word) == len(cells_of):
                for (r, c), letter in zip(cells_of, word):
                    cells[r][c] = letter.upper()
    return cells


def run_blacksquare(
    rows: Rows, words: dict[str, int], time_limit: float, temperature: float = 0.0
) -> tuple[str, float, float, Cells | None, str]:
    """blacksquare on one pattern: (status, load seconds, fill seconds, cells or None, note).
    ``fill`` returning None before the time limit is reported as ``unsatisfiable`` (its search
    ran out), at the limit as ``timeout``."""
    import blacksquare as bs

    start = time.perf_counter()
    word_list = bs.WordList(dict(words))
    grid = [["#" if ch == "#" else " " for ch in row] for row in rows]
    crossword = bs.Crossword(grid=grid, word_list=word_list)
    loaded = time.perf_counter()
    filled = crossword.fill(timeout=time_limit, temperature=temperature, show_progress=False)
    seconds = time.perf_counter() - loaded
    if filled is None:
        status = "timeout" if seconds >= 0.95 * time_limit else "unsatisfiable"
        return status, loaded - start, seconds, None, ""
    cells: Cells = []
    for r, row in enumerate(rows):
        line: list[str | None] = []
        for c, ch in enumerate(row):
            if ch == "#":
                line.append(None)
            else:
                value = filled[r, c].str
                line.append(value.upper() if value and value.strip() and value.isalpha() else "")
        cells.append(line)
    return "filled", loaded - start, seconds, cells, ""
