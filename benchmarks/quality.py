"""Quality benchmark: how good are the fills, next to Qxw and blacksquare.

Patterns: the 15x15 American-style patterns of ``grids/american`` and ``grids/american15`` (block
layouts only: 180-degree symmetric, every cell checked, every entry 3+ letters, white cells
connected). ``--make-patterns`` rebuilds ``grids/american15`` from the published 15x15 puzzles in
../shared/data/realfiles (their blocks only, no letters) and, when those give fewer than ten
patterns, from a seeded symmetric pattern generator.

Runs, each in a fresh process, for every pattern, seed and setting:

* ``ours``: ``cc.fill(grid, None, seed=s, time_limit=T)``, the built-in list and the default
  strategy of the checkout it runs from; setting ``min50`` adds ``min_score=50``;
* ``qxw``: ``qxw -b`` with the built-in list exported at score >= 30 (``default``) or >= 50
  (``min50``), words only (Qxw has no word scores); ``.RANDOM 1`` (its own unseeded randomness);
* ``blacksquare``: the same exported lists with their scores, ``temperature=0`` (deterministic:
  one run per pattern and setting stands for all seeds).

Setting ``full`` (``--settings default,min50,full``) gives the peers the whole built-in list.

Every fill is re-checked by ``csp_crossword.verify.fill.verify_fill`` against the list its solver was
given (a peer's word not in it makes the fill ``WRONG``; so does an entry of ours below 50 in
``min50``) and measured with the built-in list's scores: mean entry score, the weakest entry,
the share of entries that are dictionary words or phrases (WordNet 3.0 lemmas, UKACD18, SCOWL
english-words up to size 70; compared with spaces, underscores, hyphens and apostrophes removed,
accents dropped, upper case) and the offensive entries (better-profanity's word list and
csp_crossword/words/data/blocklist-en.txt; the target is zero). ``seconds`` is the wall time of the
fill call (ours: ``cc.fill``, which loads the built-in list; Qxw: the whole command, which reads
its dictionary; blacksquare: ``fill`` after building its word list, ``load_s``).

Usage::

    python benchmarks/quality.py --csv benchmarks/results/quality.csv            # 16 patterns x 5 seeds x 2 settings, 30 s
    python benchmarks/quality.py --seeds 2 --time-limit 10 --jobs 2 --csv out.csv
    python benchmarks/quality.py --patterns 'am15-0[12]' --solvers ours,qxw --seeds 1
    python benchmarks/quality.py --summary out.csv                   # a Markdown table from a CSV
    python benchmarks/quality.py --make-patterns                     # rebuild grids/american15

Qxw needs ``apt-get install qxw``; blacksquare ``pip install -e ".[bench]"``; a peer that is not
installed is skipped with a note. WordNet (``apt-get install wordnet-base``) and SCOWL
(``apt-get install scowl``) are read from /usr/share; UKACD from ../shared/data/lexicon (override
the folder ../shared/data with CSP_CROSSWORD_SHARED); a missing source is left out and named.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csvrows import append_rows
from peers import Cells, blacksquare_available, lights, qxw_available, run_blacksquare, run_qxw

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
PATTERN_DIRS = [ROOT / "grids" / "american", ROOT / "grids" / "american15"]
AMERICAN15 = ROOT / "grids" / "american15"
WORDNET = Path("/usr/share/wordnet")
SCOWL = Path("/usr/share/dict/scowl")
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
BLOCKLIST = ROOT / "csp_crossword" / "words" / "data" / "blocklist-en.txt"
SOLVERS = ("ours", "qxw", "blacksquare")
SETTINGS = ("default", "min50", "full")
#: Score threshold of the list each peer is given, per setting (None: the whole built-in list).
PEER_THRESHOLD = {"default": 30, "min50": 50, "full": None}
COLUMNS = [
    "pattern",
    "solver",
    "setting",
    "seed",
    "time_limit",
    "words",
    "status",
    "valid",
    "load_s",
    "seconds",
    "fill_rate",
    "entries",
    "mean_score",
    "weakest",
    "weakest_score",
    "dict_share",
    "offensive",
    "offensive_entries",
    "note",
]

# ---------------------------------------------------------------- patterns


def pattern_rows(text: str) -> list[str]:
    """A text grid's rows as a block pattern: ``#`` block, ``.`` open (letters dropped)."""
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    return ["".join("#" if ch == "#" else "." for ch in row) for row in rows]


def pattern_problems(rows: list[str]) -> list[str]:
    """What keeps a pattern out of the benchmark (empty when it follows the rules): not square,
    not 180-degree symmetric, an entry under 3 letters, an unchecked cell, white cells not
    connected."""
    problems = []
    n, m = len(rows), len(rows[0]) if rows else 0
    if not rows or any(len(row) != m for row in rows):
        return ["rows of different lengths"]
    if any(rows[r][c] != rows[n - 1 - r][m - 1 - c] for r in range(n) for c in range(m)):
        problems.append("not 180-degree symmetric")
    runs = lights(rows)
    if any(len(run) < 3 for run in runs):
        problems.append("an entry under 3 letters")
    in_runs: dict[tuple[int, int], int] = {}
    for run in runs:
        for cell in run:
            in_runs[cell] = in_runs.get(cell, 0) + 1
    white = {(r, c) for r in range(n) for c in range(m) if rows[r][c] != "#"}
    if any(in_runs.get(cell, 0) < 2 for cell in white):
        problems.append("an unchecked cell")
    if white:
        seen, todo = set(), [min(white)]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen or (r, c) not in white:
                continue
            seen.add((r, c))
            todo += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        if seen != white:
            problems.append("white cells not connected")
    return problems


def published_patterns(folder: Path, size: int = 15) -> list[tuple[str, list[str], str]]:
    """(name, pattern, source file) of every distinct size x size grid in ``folder`` that reads
    with cc.read_puzzle and follows the rules; blocks only."""
    import csp_crossword as cc

    found: list[tuple[str, list[str], str]] = []
    seen: set[tuple[str, ...]] = set()
    for path in sorted(folder.glob("*")):
        if path.suffix not in (".puz", ".ipuz", ".xd"):
            continue
        try:
            grid = cc.read_puzzle(path).grid
        except Exception:
            continue
        if (grid.rows, grid.cols) != (size, size):
            continue
        rows = ["".join("#" if cell is None else "." for cell in row) for row in grid.cells]
        if pattern_problems(rows) or tuple(rows) in seen:
            continue
        seen.add(tuple(rows))
        stem = path.stem.split("__", 1)[-1]
        name = "p15-" + re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
        found.append((name, rows, path.name))
    return found


def generated_pattern(seed: int, size: int = 15, low: float = 0.14, high: float = 0.18) -> list[str]:
    """A symmetric pattern from a seeded generator: block pairs placed at random, each kept only
    when every entry stays 3+ letters, every cell checked and the white cells connected, until
    the block share is between ``low`` and ``high`` (deterministic for a seed)."""
    rng = random.Random(seed)
    target = rng.randint(round(low * size * size), round(high * size * size))
    while True:
        grid = [["."] * size for _ in range(size)]
        blocks, tries = 0, 0
        while blocks < target and tries < 4000:
            tries += 1
            r, c = rng.randrange(size), rng.randrange(size)
            if grid[r][c] == "#":
                continue
            mirror = (size - 1 - r, size - 1 - c)
            grid[r][c] = grid[mirror[0]][mirror[1]] = "#"
            rows = ["".join(row) for row in grid]
            if pattern_problems(rows):
                grid[r][c] = grid[mirror[0]][mirror[1]] = "."
                continue
            blocks += 1 if (r, c) == mirror else 2
        rows = ["".join(row) for row in grid]
        if blocks >= low * size * size and not pattern_problems(rows) and max(map(len, lights(rows))) <= size:
            return rows


def make_patterns(minimum: int = 10) -> int:
    """Write grids/american15 (published patterns, then generated ones up to ``minimum``) and
    their entries of grids/manifest.json."""
    published = published_patterns(SHARED / "realfiles")
    made = [(name, rows, source) for name, rows, source in published]
    seed = 0
    while len(made) < minimum:
        seed += 1
        made.append((f"g15-{seed:02d}", generated_pattern(seed), f"generated (seed {seed})"))
    AMERICAN15.mkdir(parents=True, exist_ok=True)
    for old in AMERICAN15.glob("*.txt"):
        old.unlink()
    manifest_path = ROOT / "grids" / "manifest.json"
    manifest = [e for e in json.loads(manifest_path.read_text()) if not e["file"].startswith("grids/american15/")]
    for name, rows, source in made:
        (AMERICAN15 / f"{name}.txt").write_text("\n".join(rows) + "\n")
        entry = {"name": name, "file": f"grids/american15/{name}.txt", "size": "15x15"}
        if source.startswith("generated"):
            entry["source"] = (
                "made for csp-crossword by benchmarks/quality.py --make-patterns: a seeded 180-degree-symmetric "
                "pattern generator (every entry >= 3 letters, all cells checked, connected)"
            )
            entry["licence"] = "CC0-1.0"
            entry["origin"] = source
        else:
            entry["source"] = (
                f"block layout (blocks only, no letters or clues) of the published puzzle in "
                f"../shared/data/realfiles/{source}, read by benchmarks/quality.py --make-patterns; see grids/README.md"
            )
            entry["licence"] = (
                "block layout only; the source file's repository and licence are listed in ../shared/data/realfiles/README.md"
            )
            entry["origin"] = source
        entry["description"] = f"{sum(r.count('#') for r in rows)} blocks, {len(lights(rows))} entries"
        manifest.append(entry)
    manifest_path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    for name, rows, source in made:
        print(f"{name}: {source}, {sum(r.count('#') for r in rows)} blocks, {len(lights(rows))} entries")
    return len(made)


def patterns(globs: list[str] | None = None) -> list[tuple[str, Path]]:
    """(name, path) of the benchmark's patterns, optionally those whose name matches a glob."""
    found = [(p.stem, p) for folder in PATTERN_DIRS for p in sorted(folder.glob("*.txt"))]
    if globs:
        found = [(n, p) for n, p in found if any(fnmatch.fnmatch(n, g) for g in globs)]
    return found


# ---------------------------------------------------------------- metrics

_DROP = re.compile(r"[\s_\-'’]")


def normalise(word: str) -> str:
    """The form entries and dictionary words are compared in: spaces, underscores, hyphens and
    apostrophes removed, accents dropped, upper case."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    return _DROP.sub("", folded).upper()


def wordnet_words(folder: Path = WORDNET) -> set[str]:
    """WordNet 3.0 lemmas (index.noun/verb/adj/adv; ``_`` joins the words of a phrase)."""
    words = set()
    for part in ("noun", "verb", "adj", "adv"):
        path = folder / f"index.{part}"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line and not line.startswith(" "):
                words.add(normalise(line.split(" ", 1)[0]))
    return words


def ukacd_words(path: Path) -> set[str]:
    """UKACD18's entries: the lines from the first that is the single word 'a' (the licence text
    comes before it); ISO-8859-1."""
    words: set[str] = set()
    if not path.exists():
        return words
    started = False
    for line in path.read_text(encoding="latin-1").splitlines():
        line = line.strip()
        if not started:
            started = line == "a"
        if started and line:
            words.add(normalise(line))
    return words


def scowl_words(folder: Path = SCOWL, sizes: Iterable[int] = SCOWL_SIZES) -> set[str]:
    """SCOWL english-words lists up to size 70 (ISO-8859-1)."""
    words = set()
    for size in sizes:
        path = folder / f"english-words.{size}"
        if path.exists():
            words.update(normalise(w) for w in path.read_text(encoding="latin-1").split())
    return words


def dictionary_words() -> tuple[set[str], list[str]]:
    """The union of the dictionary sources and the names of those found."""
    words: set[str] = set()
    found = []
    for name, part in (
        ("WordNet 3.0", wordnet_words()),
        ("UKACD18", ukacd_words(SHARED / "lexicon" / "ukacd18.txt")),
        ("SCOWL english-words <= 70", scowl_words()),
    ):
        if part:
            found.append(f"{name} ({len(part):,})")
            words |= part
    words.discard("")
    return words, found


def offensive_words() -> set[str]:
    """better-profanity's word list and our blocklist, normalised."""
    words = set()
    try:
        import importlib.util

        spec = importlib.util.find_spec("better_profanity")
        if spec and spec.origin:
            path = Path(spec.origin).parent / "profanity_wordlist.txt"
            words.update(normalise(w) for w in path.read_text(encoding="utf-8").splitlines() if w.strip())
    except (ImportError, OSError):
        pass
    if BLOCKLIST.exists():
        for line in BLOCKLIST.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                words.add(normalise(line.strip()))
    words.discard("")
    return words


def answers(rows: list[str], cells: Cells) -> list[str | None]:
    """Each entry's letters (across, then down), or None for an entry with an empty cell."""
    found: list[str | None] = []
    for run in lights(rows):
        letters = [cells[r][c] or "" for r, c in run]
        found.append("".join(letters) if all(letters) else None)
    return found


def fill_rate(rows: list[str], cells: Cells | None) -> float:
    """The share of open cells holding a letter."""
    white = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"]
    if not cells or not white:
        return 0.0
    return sum(1 for r, c in white if cells[r][c]) / len(white)


def fill_metrics(entries: list[str], scores: dict[str, int], dictionary: set[str], offensive: set[str]) -> dict:
    """Mean score (an entry not in ``scores`` counts 0), the weakest entry, the dictionary share
    and the offensive entries of a complete fill."""
    if not entries:
        return {}
    values = [scores.get(e, 0) for e in entries]
    weakest = min(zip(values, entries))
    bad = sorted({e for e in entries if normalise(e) in offensive})
    return {
        "entries": len(entries),
        "mean_score": round(sum(values) / len(values), 2),
        "weakest": weakest[1],
        "weakest_score": weakest[0],
        "dict_share": round(sum(1 for e in entries if normalise(e) in dictionary) / len(entries), 4),
        "offensive": sum(1 for e in entries if normalise(e) in offensive),
        "offensive_entries": " ".join(bad),
    }


# ---------------------------------------------------------------- one run (in its own process)


def run_one(task: dict) -> dict:
    """One run: the solver's status, times and cells (``None`` blocks, ``""`` empty)."""
    rows = pattern_rows(Path(task["path"]).read_text())
    limit = float(task["time_limit"])
    if task["solver"] == "ours":
        import csp_crossword as cc

        settings = {"min_score": 50} if task["setting"] == "min50" else {}
        grid = cc.read_grid(Path(task["path"]))
        start = time.perf_counter()
        result = cc.fill(grid, None, seed=int(task["seed"]), time_limit=limit, **settings)
        seconds = time.perf_counter() - start
        cells = [list(row) for row in result.cells] if result.cells else None
        return {"status": result.status.value, "load_s": "", "seconds": seconds, "cells": cells, "note": ""}
    if task["solver"] == "qxw":
        status, seconds, cells, note = run_qxw(rows, Path(task["words_plain"]), limit, int(task.get("qxw_random", 1)))
        return {"status": status, "load_s": "", "seconds": seconds, "cells": cells, "note": note}
    words = {}
    for line in Path(task["words_scored"]).read_text().splitlines():
        word, _, score = line.rpartition(";")
        words[word] = int(score)
    status, load_s, seconds, cells, note = run_blacksquare(rows, words, limit, float(task.get("temperature", 0.0)))
    return {"status": status, "load_s": load_s, "seconds": seconds, "cells": cells, "note": note}


def run_in_process(task: dict) -> dict:
    """``run_one`` in a fresh Python process, killed at the time limit plus a grace period."""
    command = [sys.executable, str(Path(__file__).resolve()), "--run-one", json.dumps(task)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=float(task["time_limit"]) + 120)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": "", "cells": None, "note": "killed at the time limit + 120 s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"status": "error", "seconds": "", "cells": None, "note": done.stderr.strip()[-200:]}
    result: dict = json.loads(lines[-1])
    return result


# ---------------------------------------------------------------- the runner


class Judge:
    """Scores, dictionaries, offensive words and the lists each solver was given, loaded once."""

    def __init__(self, work: Path, settings: list[str]):
        import csp_crossword as cc

        self.builtin = cc.load_words()
        self.scores = self.builtin.scores
        self.dictionary, self.sources = dictionary_words()
        self.offensive = offensive_words()
        self.lists: dict[str, tuple[Path, Path, object, int]] = {}
        for setting in settings:
            threshold = PEER_THRESHOLD[setting]
            chosen = {w: s for w, s in self.scores.items() if threshold is None or s >= threshold}
            scored, plain = work / f"builtin-{setting}.dict", work / f"builtin-{setting}.txt"
            scored.write_text("".join(f"{w};{s}\n" for w, s in chosen.items()))
            plain.write_text("".join(f"{w}\n" for w in chosen))
            self.lists[setting] = (scored, plain, cc.load_words(scored), len(chosen))

    def words_label(self, solver: str, setting: str) -> str:
        if solver == "ours":
            return f"built-in ({len(self.scores)})" + (", min_score 50" if setting == "min50" else "")
        threshold = PEER_THRESHOLD[setting]
        size = self.lists[setting][3]
        return f"built-in >= {threshold} ({size})" if threshold is not None else f"built-in ({size})"

    def row(self, task: dict, outcome: dict) -> dict:
        """The CSV row of a run: verification and metrics of its fill."""
        import csp_crossword as cc
        from csp_crossword.verify.fill import verify_fill

        rows = pattern_rows(Path(task["path"]).read_text())
        cells = outcome.get("cells")
        row = {
            "pattern": task["pattern"],
            "solver": task["solver"],
            "setting": task["setting"],
            "seed": task["seed"],
            "time_limit": task["time_limit"],
            "words": self.words_label(task["solver"], task["setting"]),
            "status": outcome["status"],
            "valid": "",
            "load_s": _round(outcome.get("load_s")),
            "seconds": _round(outcome.get("seconds")),
            "fill_rate": round(fill_rate(rows, cells), 4),
            "note": outcome.get("note", ""),
        }
        found = answers(rows, cells) if cells else []
        if outcome["status"] in ("filled", "optimal") and cells and all(found):
            entries = [a for a in found if a]
            lexicon = self.builtin if task["solver"] == "ours" else self.lists[task["setting"]][2]
            grid = cc.read_grid(Path(task["path"]))
            problems = verify_fill(grid, tuple(tuple(r) for r in cells), lexicon)  # type: ignore[arg-type]
            if task["solver"] == "ours" and task["setting"] == "min50":
                problems += [f"{e} scores under 50" for e in entries if self.scores.get(e, 0) < 50]
            row["valid"] = "WRONG" if problems else "ok"
            if problems:
                row["note"] = "; ".join(problems)[:200]
            row.update(fill_metrics(entries, self.scores, self.dictionary, self.offensive))
        elif outcome["status"] in ("filled", "optimal"):
            row["valid"] = "WRONG"
            row["note"] = "reported filled with empty cells"
        return row


def _round(value: object) -> object:
    return round(float(value), 3) if isinstance(value, int | float) else value


def plan(args: argparse.Namespace, solvers: list[str], settings: list[str]) -> list[dict]:
    tasks = []
    for name, path in patterns(args.patterns):
        for setting in settings:
            for solver in solvers:
                if solver == "ours" and setting == "full":
                    continue  # ours' default already is the whole built-in list
                seeds = 1 if solver == "blacksquare" and args.temperature == 0 else args.seeds
                for seed in range(seeds):
                    tasks.append(
                        {
                            "pattern": name,
                            "path": str(path),
                            "solver": solver,
                            "setting": setting,
                            "seed": seed,
                            "time_limit": args.time_limit,
                            "qxw_random": args.qxw_random,
                            "temperature": args.temperature,
                        }
                    )
    return tasks


def print_row(row: dict) -> None:
    keys = ["pattern", "solver", "setting", "seed", "status", "valid", "seconds", "mean_score", "weakest"]
    keys += ["weakest_score", "dict_share", "offensive"]
    widths = [24, 12, 8, 4, 14, 6, 8, 8, 16, 4, 7, 3]
    print("  ".join(str(row.get(k, "")).ljust(w) for k, w in zip(keys, widths)), flush=True)


def run(args: argparse.Namespace) -> int:
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    if "qxw" in solvers and not qxw_available():
        print("qxw is not installed (apt-get install qxw): left out")
        solvers.remove("qxw")
    if "blacksquare" in solvers and not blacksquare_available():
        print('blacksquare is not installed (pip install -e ".[bench]"): left out')
        solvers.remove("blacksquare")
    work = Path(tempfile.mkdtemp(prefix="quality-"))
    judge = Judge(work, settings)
    print(f"dictionary sources: {', '.join(judge.sources) or 'none found'}; {len(judge.dictionary):,} forms")
    print(f"offensive words: {len(judge.offensive):,}; built-in list: {len(judge.scores):,} entries")
    for setting in settings:
        print(f"peers' list for {setting}: {judge.words_label('qxw', setting)}")
    tasks = plan(args, solvers, settings)
    for task in tasks:
        scored, plain, _, _ = judge.lists[task["setting"]]
        task["words_scored"], task["words_plain"] = str(scored), str(plain)
    print(f"{len(tasks)} runs, {args.jobs} at a time, {args.time_limit:g} s each")
    rows: list[dict] = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(run_in_process, task): task for task in tasks}
        for future in as_completed(futures):
            row = judge.row(futures[future], future.result())
            rows.append(row)
            print_row(row)
            append_rows(args.csv, COLUMNS, [row])
    print()
    summarise(rows)
    return 1 if any(r["valid"] == "WRONG" and r["solver"] == "ours" for r in rows) else 0


# ---------------------------------------------------------------- summary


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "-"


def group_stats(group: list[dict]) -> dict:
    """Runs, filled runs, median seconds, mean score, weakest entry, dictionary share, offensive
    and wrong fills of one (pattern or all, setting, solver) group."""
    good = [r for r in group if r["valid"] == "ok"]
    seconds = [float(r["seconds"]) for r in group if r.get("seconds") not in (None, "")]
    weakest = min(good, key=lambda r: (int(r["weakest_score"]), r["weakest"]), default=None)
    return {
        "runs": len(group),
        "filled": len(good),
        "median_s": _median(seconds),
        "mean_score": f"{statistics.mean(float(r['mean_score']) for r in good):.1f}" if good else "-",
        "weakest": f"{weakest['weakest']} ({weakest['weakest_score']})" if weakest else "-",
        "dict_share": f"{100 * statistics.mean(float(r['dict_share']) for r in good):.0f}%" if good else "-",
        "offensive": sum(int(r["offensive"] or 0) for r in good),
        "wrong": sum(1 for r in group if r["valid"] == "WRONG"),
    }


def summarise(rows: list[dict]) -> None:
    """Markdown: one row per pattern and setting (ours / Qxw / blacksquare side by side), then
    totals per setting and solver."""
    solvers = [s for s in SOLVERS if any(r["solver"] == s for r in rows)]
    settings = [s for s in SETTINGS if any(r["setting"] == s for r in rows)]
    names = sorted({r["pattern"] for r in rows}, key=lambda n: (not n.startswith("am15"), n))
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["pattern"], row["setting"], row["solver"]), []).append(row)
    labels = ("filled", "median s", "mean score", "weakest", "dict share", "offensive")
    keys = ("filled", "median_s", "mean_score", "weakest", "dict_share", "offensive")
    print(f"Per pattern and setting, {' / '.join(solvers)}:\n")
    print("| pattern | setting | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for name in names:
        for setting in settings:
            stats = [group_stats(groups.get((name, setting, s), [])) for s in solvers]
            if not any(s["runs"] for s in stats):
                continue
            cells = []
            for key in keys:
                parts = []
                for s in stats:
                    if not s["runs"]:
                        parts.append("n/a")
                    elif key == "filled":
                        parts.append(f"{s['filled']}/{s['runs']}")
                    else:
                        parts.append(str(s[key]))
                cells.append(" / ".join(parts))
            print(f"| {name} | {setting} | " + " | ".join(cells) + " |")
    print("\nTotals per setting and solver:\n")
    head = ("setting", "solver", "words", "patterns filled every run", "runs filled", "median s", "mean score")
    head += ("weakest", "dict share", "offensive", "wrong")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for setting in settings:
        for solver in solvers:
            group = [r for r in rows if r["setting"] == setting and r["solver"] == solver]
            if not group:
                continue
            s = group_stats(group)
            per = [groups[(n, setting, solver)] for n in names if (n, setting, solver) in groups]
            every = sum(1 for g in per if all(r["valid"] == "ok" for r in g))
            words = sorted({r["words"] for r in group})[0]
            line = (setting, solver, words, f"{every}/{len(per)}", f"{s['filled']}/{s['runs']}", s["median_s"])
            line += (s["mean_score"], s["weakest"], s["dict_share"], str(s["offensive"]), str(s["wrong"]))
            print("| " + " | ".join(line) + " |")
    if "ours" in solvers:
        for peer in solvers[1:]:
            for setting in settings:
                ahead = behind = 0
                for name in names:
                    ours = group_stats(groups.get((name, setting, "ours"), []))
                    theirs = group_stats(groups.get((name, setting, peer), []))
                    if ours["mean_score"] != "-" and theirs["mean_score"] != "-":
                        if float(ours["mean_score"]) >= float(theirs["mean_score"]):
                            ahead += 1
                        else:
                            behind += 1
                if ahead or behind:
                    print(
                        f"\n{setting}: ours' mean score >= {peer}'s on {ahead} of {ahead + behind} patterns both filled"
                    )


def read_csv(paths: list[str]) -> list[dict]:
    rows = []
    for path in paths:
        with open(path, newline="") as handle:
            rows += list(csv.DictReader(handle))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--patterns", action="append", help="pattern name glob(s) (default: all)")
    parser.add_argument("--solvers", default="ours,qxw,blacksquare", help="comma-separated (default all three)")
    parser.add_argument("--settings", default="default,min50", help="comma-separated from default,min50,full")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per pattern and setting (default 5)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per run (default 30)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time, each in its own process (default 1)")
    parser.add_argument("--qxw-random", type=int, default=1, choices=[0, 1, 2], help="Qxw's .RANDOM (default 1)")
    parser.add_argument(
        "--temperature", type=float, default=0.0, help="blacksquare's temperature (default 0: one run per pattern)"
    )
    parser.add_argument("--csv", help="append one row per run to this CSV file as runs end")
    parser.add_argument("--summary", metavar="CSV", action="append", help="only summarise the rows of these CSV files")
    parser.add_argument(
        "--make-patterns", action="store_true", help="rebuild grids/american15 and its manifest entries"
    )
    parser.add_argument("--run-one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run_one:
        print(json.dumps(run_one(json.loads(args.run_one))))
        return 0
    if args.summary:
        try:
            rows = read_csv(args.summary)
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            print(
                f"quality.py: cannot read {getattr(error, 'filename', None) or args.summary}: {error}", file=sys.stderr
            )
            return 2
        summarise(rows)
        return 0
    if args.make_patterns:
        count = make_patterns()
        print(f"{count} patterns in {AMERICAN15.relative_to(ROOT)}")
        return 0
    unknown = set(args.settings.split(",")) - set(SETTINGS) | set(args.solvers.split(",")) - set(SOLVERS)
    if unknown:
        parser.error(f"unknown setting or solver: {', '.join(sorted(unknown))}")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
