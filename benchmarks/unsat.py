"""Unsolvable grids: how fast each solver proves that no fill exists, and ``check``'s cores.

The instances (``candidates()``; grids not in ``grids/`` are in ``benchmarks/unsat-grids``):

* ``words-h2301``: Herald h2301 with ``words`` (no 23-letter word: refuted before any search);
* ``words-am15-0N`` / ``scowl-am15-0N``: the six American patterns with ``words`` and
  ``scowl-55``;
* ``min65-am15-01``, ``-02``, ``-05`` and ``min70-p15-*``: American patterns of ``grids/american``
  with the built-in list at score 65 (the other three are in the set with ``words`` and
  ``scowl-55``) and those of ``grids/american15`` at 70;
* ``minNN-open5`` ...: small open grids (5x5, 6x6, 7x7 and 8x8 with four corner blocks, a 9x9
  lattice) with the built-in list at a high minimum score;
* ``given-*``: fillable American patterns (built-in list, score 50) with five given letters in
  the top-left or bottom-right corner, chosen by a seeded search (``--make-grids``) so that no fill exists while arc consistency at the root
  leaves every slot some word (``check`` prints no "no candidate for" line).

Only the candidates recorded unsatisfiable in ``benchmarks/unsat-grids/verdicts.json`` are run;
``--classify`` fills that file (``check`` with a long time limit, then CP-SAT, ACE and Qxw in
turn; the first definite answer wins; a fill counts only when verified). A candidate nobody
proved unsatisfiable is left out and listed as such (``--unproved`` runs those not known
fillable too).

Solvers (``--solvers``, comma-separated), each run a separate process with a wall-clock limit:

* ``check-ac``, ``check-auto``, ``check-cpsat``: ``csp-crossword check GRID ... --backend B
  --format json -q``: the proof and the unsatisfiable core (its size and whether it is minimal);
* ``ac`` (Luby restarts, no-goods: the default), ``ac-norestart`` (one run: a geometric cutoff of
  1e12 failures), ``cpsat-w1`` / ``cpsat-w2`` (CP-SAT with 1 / 2 workers), ``auto``: ``csp-crossword
  fill GRID ... --strategy plain --format json -q``, exit 1 = proved unsatisfiable (proof only);
* ``fill:BACKEND[:k=v,...]`` / ``check:BACKEND[:k=v,...]``: any other backend and options;
* ``ace``: pycsp3's ACE on the same problem: a cell variable per open cell over the glyphs, a word
  variable per slot, one table per slot length (word id, glyphs) shared by the slots of that
  length, AllDifferent over the word variables of each length (no repeated entry), given letters
  as singleton domains. The words are exactly the list our solver uses (after ``--min-score``).
  The model is compiled to XCSP3 once per instance (``prep_s``, reported, not counted), then
  ``java -jar ACE.jar`` runs with ``-t`` and ``-seed`` (ACE's defaults otherwise);
* ``qxw``: Qxw's batch filler (``benchmarks/peers.py``) with the same list, ``.RANDOM 0`` (one
  run per instance stands for every seed: Qxw takes no seed); given letters as the deck's
  per-light patterns (``=A??S``); exit 4 = its search ended without a fill.

``seconds`` is the wall time of the whole process (start-up and reading the word list included,
for every solver alike); ``inner_s`` the solver's own figure (``check``/``fill``: the job as it
reports it; ACE: its preprocessing and search). Every ``filled`` answer is verified with
``verify_fill`` against the list; any fill of an instance in the set is reported loudly (and
exits 1), a wrong one is marked ``WRONG``.

Usage::

    python benchmarks/unsat.py                      # every solver, 60 s, 1 seed -> benchmarks/results/unsat.csv
    python benchmarks/unsat.py --instances 'words-h2301,min70-open5' --time-limit 20 --csv /tmp/try.csv
    python benchmarks/unsat.py --solvers check-ac,ac,ace,qxw --seeds 3 --csv out.csv
    python benchmarks/unsat.py --summary benchmarks/results/unsat.csv --ours ac
    python benchmarks/unsat.py --classify --classify-limit 300            # record verdicts.json
    python benchmarks/unsat.py --list                                      # candidates and verdicts
    python benchmarks/unsat.py --make-grids                                # rewrite unsat-grids/*.txt

The word lists come from ../shared/data/dict (override the folder with CSP_CROSSWORD_SHARED);
ACE needs ``pip install pycsp3`` (its jar) and Java, Qxw ``apt-get install qxw``; a solver that
is missing is left out with a note.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import fnmatch
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csvrows import append_rows
from peers import QXW, lights, qxw_available, qxw_cells, qxw_deck, run_qxw

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
GRID_DIR = ROOT / "benchmarks" / "unsat-grids"
VERDICTS = GRID_DIR / "verdicts.json"
MADE = GRID_DIR / "made.json"
RESULTS = ROOT / "benchmarks" / "results" / "unsat.csv"
#: Seconds a process may run past its time limit before it is killed (start-up, list loading,
#: CP-SAT's stop).
GRACE = 30.0
DEFAULT_SOLVERS = "check-ac,check-auto,check-cpsat,ac,ac-norestart,cpsat-w1,cpsat-w2,auto,ace,qxw"
PEERS = ("ace", "qxw")
COLUMNS = [
    "instance",
    "family",
    "solver",
    "seed",
    "time_limit",
    "status",
    "valid",
    "seconds",
    "inner_s",
    "prep_s",
    "nodes",
    "core_present",
    "core_size",
    "core_minimal",
    "core",
    "exit_code",
    "note",
]

# ---------------------------------------------------------------- instances


@dataclass(frozen=True)
class Instance:
    """One benchmark instance: a grid file, a word list and a minimum score.

    ``words`` names a list of ../shared/data/dict (``words``, ``scowl-55``), or None for the
    built-in English list."""

    name: str
    family: str
    grid: str
    words: str | None = None
    min_score: int | None = None

    @property
    def path(self) -> Path:
        return ROOT / self.grid

    @property
    def words_path(self) -> Path | None:
        return None if self.words is None else SHARED / "dict" / f"{self.words}.txt"

    def cli_args(self) -> list[str]:
        """The word-list options of ``csp-crossword fill``/``check`` for this instance."""
        args = [] if self.words_path is None else ["--words", str(self.words_path)]
        return args + ([] if self.min_score is None else ["--min-score", str(self.min_score)])

    @property
    def label(self) -> str:
        words = self.words or "built-in"
        return words + ("" if self.min_score is None else f" >= {self.min_score}")


#: Small open grids (written by --make-grids): name -> rows.
SMALL_GRIDS: dict[str, list[str]] = {
    "open5": ["....."] * 5,
    "open6": ["......"] * 6,
    "corner7": ["#.....#"] + ["......."] * 5 + ["#.....#"],
    "corner8": ["#......#"] + ["........"] * 6 + ["#......#"],
    # rows 1, 3, 5, 7 and columns 0, 2, 4, 6, 8 are 9-letter entries: 20 crossings
    "lattice9": [".#.#.#.#." if r % 2 == 0 else "........." for r in range(9)],
}
#: (grid, min score) of the small-grid candidates: scores where the grid is unsolvable but not
#: refuted at the root (development runs: at 65 open5 fills, at 72 lattice9 fills; at 78-80
#: every one is refuted by arc consistency alone).
SMALL_INSTANCES = [("open5", 70), ("open6", 70), ("corner7", 70), ("corner8", 72), ("lattice9", 75)]


@dataclass(frozen=True)
class GivenSpec:
    """A grid made unsolvable on purpose: ``base`` (a pattern of grids/american) with ``letters``
    given letters in its ``corner`` x ``corner`` top-left (``at`` "tl") or bottom-right ("br")
    cells, drawn with ``random.Random(seed)``, for the built-in list at ``min_score``."""

    name: str
    base: str
    seed: int
    at: str = "tl"
    letters: int = 5
    corner: int = 4
    min_score: int | None = 50

    def cells(self, rows: list[str]) -> list[tuple[int, int]]:
        """The open cells of the corner."""
        n, m = len(rows), len(rows[0])
        rs = range(self.corner) if self.at == "tl" else range(n - self.corner, n)
        cs = range(self.corner) if self.at == "tl" else range(m - self.corner, m)
        return [(r, c) for r in rs for c in cs if rows[r][c] == "."]


#: With the whole built-in list (332,000 entries) almost every draw either leaves a slot without
#: a word or can be filled (development runs: 0 of 60 draws of 6 letters in the 5x5 corner of
#: am15-01 were unsatisfiable yet arc consistent); at score 50 about 1 in 20 draws of 5 letters
#: in the 4x4 corner is. The bases are the two patterns ``ac`` fills quickly at score 50
#: (am15-01: 2.6 s, am15-05: 1.6 s; am15-02, -04 and -06 took over 10 s).
GIVEN_SPECS = [
    GivenSpec("given-am15-01", "am15-01", 1),
    GivenSpec("given-am15-01-br", "am15-01", 2, at="br"),
    GivenSpec("given-am15-05", "am15-05", 5),
    GivenSpec("given-am15-05-br", "am15-05", 6, at="br"),
]
#: Letters drawn with their frequency in English text (per mille), so that fewer draws are
#: refuted at the root by a letter pattern no word has.
LETTERS = "ETAOINSHRDLCUMWFGYPBVKJXQZ"
LETTER_WEIGHTS = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1]
#: Attempts of the seeded search per given grid, and the ``ac`` time limit that decides each.
GIVEN_ATTEMPTS = 400
GIVEN_PROOF_SECONDS = 10.0
#: An attempt refuted in fewer search nodes is too easy to be interesting.
GIVEN_MIN_NODES = 10


#: The American patterns at built-in score 65: am15-03, -04 and -06 are left out, being in the set
#: twice already (unsolvable with ``words`` and ``scowl-55``; at 65 they are refuted in 2-5 s).
MIN65_PATTERNS = ["am15-01", "am15-02", "am15-05"]


def american_patterns() -> list[str]:
    return [f"am15-{n:02d}" for n in range(1, 7)]


def american15_patterns() -> list[str]:
    return sorted(p.stem for p in (ROOT / "grids" / "american15").glob("*.txt"))


def candidates() -> list[Instance]:
    """Every candidate instance, in report order."""
    found = [Instance("words-h2301", "herald", "grids/vanbeek/h2301.txt", "words")]
    for words, prefix in (("words", "words"), ("scowl-55", "scowl")):
        for name in american_patterns():
            found.append(Instance(f"{prefix}-{name}", "american", f"grids/american/{name}.txt", words))
    for name in MIN65_PATTERNS:
        found.append(Instance(f"min65-{name}", "min-score", f"grids/american/{name}.txt", None, 65))
    for name in american15_patterns():
        found.append(Instance(f"min70-{name}", "min-score", f"grids/american15/{name}.txt", None, 70))
    for name, score in SMALL_INSTANCES:
        found.append(Instance(f"min{score}-{name}", "small", f"benchmarks/unsat-grids/{name}.txt", None, score))
    for spec in GIVEN_SPECS:
        found.append(Instance(spec.name, "given", f"benchmarks/unsat-grids/{spec.name}.txt", None, spec.min_score))
    return found


def select(instances: list[Instance], patterns: Sequence[str] | None) -> list[Instance]:
    """The instances whose name matches one of the globs (comma-separated in each pattern)."""
    if not patterns:
        return instances
    globs = [g.strip() for p in patterns for g in p.split(",") if g.strip()]
    return [i for i in instances if any(fnmatch.fnmatch(i.name, g) for g in globs)]


def read_verdicts(path: Path = VERDICTS) -> dict[str, dict]:
    try:
        data: dict[str, dict] = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return data


def unsolvable(instances: list[Instance], verdicts: dict[str, dict]) -> tuple[list[Instance], list[tuple[str, str]]]:
    """(the instances proved unsatisfiable, (name, why) of those left out)."""
    chosen, left = [], []
    for instance in instances:
        verdict = verdicts.get(instance.name, {}).get("verdict")
        if verdict == "unsatisfiable":
            chosen.append(instance)
        else:
            left.append((instance.name, verdict or "not classified"))
    return chosen, left


# ---------------------------------------------------------------- word lists, verification


@cache
def lexicon_of(words: str | None, min_score: int | None) -> Any:
    """The word list our solver uses for an instance: the list, then the ``min_score`` filter."""
    import csp_crossword as cc

    path = None if words is None else SHARED / "dict" / f"{words}.txt"
    lexicon = cc.load_words(path) if path is not None else cc.load_words()
    return lexicon.filtered(min_score) if min_score is not None else lexicon


def instance_lexicon(instance: Instance) -> Any:
    return lexicon_of(instance.words, instance.min_score)


def verify(instance: Instance, cells: Sequence[Sequence[str | None]]) -> list[str]:
    """The problems of a fill of ``instance`` (empty: a valid fill)."""
    import csp_crossword as cc
    from csp_crossword.verify.fill import verify_fill

    grid = cc.read_grid(instance.path)
    fill = tuple(tuple(None if c is None else c for c in row) for row in cells)
    return verify_fill(grid, fill, instance_lexicon(instance))


def grid_rows_of(path: Path) -> list[str]:
    """A grid file's rows (``#`` blocks, ``.`` open, letters kept)."""
    return [line.rstrip() for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------- solvers


@dataclass(frozen=True)
class Solver:
    """How to run one solver: ``kind`` is check, fill, ace or qxw."""

    name: str
    kind: str
    backend: str = ""
    args: tuple[str, ...] = ()


NO_RESTARTS = "restart_policy=geometric,restart_base=1e12"
NAMED_SOLVERS = {
    "check-ac": Solver("check-ac", "check", "ac"),
    "check-auto": Solver("check-auto", "check", "auto"),
    "check-cpsat": Solver("check-cpsat", "check", "cpsat"),
    "ac": Solver("ac", "fill", "ac"),
    "ac-norestart": Solver("ac-norestart", "fill", "ac", ("--backend-option", NO_RESTARTS)),
    "cpsat-w1": Solver("cpsat-w1", "fill", "cpsat", ("--workers", "1")),
    "cpsat-w2": Solver("cpsat-w2", "fill", "cpsat", ("--workers", "2")),
    "auto": Solver("auto", "fill", "auto"),
    "ace": Solver("ace", "ace"),
    "qxw": Solver("qxw", "qxw"),
}


def parse_solver(name: str) -> Solver:
    """A solver by name, or ``fill:BACKEND[:k=v,...]`` / ``check:BACKEND[:k=v,...]``."""
    if name in NAMED_SOLVERS:
        return NAMED_SOLVERS[name]
    kind, _, rest = name.partition(":")
    backend, _, options = rest.partition(":")
    if kind in ("fill", "check") and backend:
        return Solver(name, kind, backend, ("--backend-option", options) if options else ())
    raise ValueError(f"unknown solver {name!r}: choose from {', '.join(NAMED_SOLVERS)}, fill:B[:opts], check:B[:opts]")


def ace_jar() -> Path | None:
    """pycsp3's ACE jar, when pycsp3 is installed."""
    import importlib.util

    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.origin:
        return None
    jars = sorted((Path(spec.origin).parent / "solvers" / "ace").glob("ACE-*.jar"))
    return jars[-1] if jars else None


def missing(solver: Solver) -> str | None:
    """Why a solver cannot run here (None: it can)."""
    if solver.kind == "ace":
        if ace_jar() is None:
            return "pycsp3 (and its ACE jar) is not installed"
        if shutil.which("java") is None:
            return "java is not installed"
    if solver.kind == "qxw" and not qxw_available():
        return f"{QXW} is not installed (apt-get install qxw)"
    return None


@dataclass
class Outcome:
    """What one run gave; ``cells`` is a fill to verify."""

    status: str
    seconds: float | None = None
    inner_s: float | None = None
    prep_s: float | None = None
    nodes: int | None = None
    core: list[str] | None = None
    core_minimal: bool | None = None
    exit_code: int | None = None
    cells: list[list[str | None]] | None = None
    note: str = ""


def run_command(command: Sequence[str], timeout: float) -> tuple[int | None, str, str, float]:
    """Run ``command`` in its own process group: (exit code or None when killed at ``timeout``,
    stdout, stderr, wall seconds). The whole group is killed at the timeout (CP-SAT may run in a
    child process)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err, time.perf_counter() - start
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = process.communicate()
        return None, out, err, time.perf_counter() - start


def tail(text: str, size: int = 200) -> str:
    return " ".join(text.strip().split())[-size:]


def ours_command(instance: Instance, solver: Solver, seed: int, time_limit: float) -> list[str]:
    command = [sys.executable, "-m", "csp_crossword", solver.kind, str(instance.path), *instance.cli_args()]
    command += ["--backend", solver.backend, *solver.args, "--time-limit", f"{time_limit:g}", "--seed", str(seed)]
    command += ["--format", "json", "-q"]
    if solver.kind == "fill":
        command += ["--strategy", "plain"]
    return command


def run_ours(instance: Instance, solver: Solver, seed: int, time_limit: float) -> Outcome:
    """``csp-crossword check`` or ``fill`` in its own process."""
    from csp_crossword.core.grid import parse_grid

    code, out, err, seconds = run_command(ours_command(instance, solver, seed, time_limit), time_limit + GRACE)
    if code is None:
        return Outcome("timeout", seconds, note=f"killed at the time limit + {GRACE:g} s")
    try:
        data = json.loads(out) if out.strip() else {}
    except json.JSONDecodeError:
        data = {}
    if code not in (0, 1, 3) or not data:
        return Outcome("error", seconds, exit_code=code, note=f"exit {code}: {tail(err or out)}")
    outcome = Outcome("error", seconds, exit_code=code)
    if solver.kind == "check":
        outcome.status = {"unsolvable": "unsatisfiable", "solvable": "filled", "unknown": "timeout"}.get(
            data.get("status", ""), "error"
        )
        outcome.inner_s = data.get("seconds")
        outcome.core = data.get("core")
        outcome.core_minimal = data.get("core_minimal")
        if data.get("grid"):
            outcome.cells = [list(row) for row in parse_grid("\n".join(data["grid"])).cells]
        if outcome.status == "unsatisfiable" and data.get("reason"):
            outcome.note = str(data["reason"])[:120]
    else:
        outcome.status = {0: "filled", 1: "unsatisfiable", 3: "timeout"}[code]
        stats = data.get("stats") or {}
        outcome.inner_s = stats.get("seconds")
        outcome.nodes = stats.get("nodes")
        if code == 0:
            outcome.cells = data.get("cells")
    return outcome


# ---------------------------------------------------------------- ACE through pycsp3


def xcsp_data(grid: Any, lexicon: Any, allow_duplicates: bool = False) -> dict:
    """The pycsp3 model's data, pure Python: glyph codes, per cell its domain (None: no
    variable, an int: a given glyph's code, -1: any glyph), per slot length the table rows
    (word id, glyph codes...) and the slots (as cell lists) of that length.

    A given glyph that no word uses gets a code of its own, so the slots through it have no
    support, as in our solver."""
    from csp_crossword.words.word_index import entry_glyphs

    glyphs = sorted(lexicon.alphabet, key=lexicon.alphabet.__getitem__)
    code = {g: i for i, g in enumerate(glyphs)}
    cells: list[list[int | None]] = [[None] * grid.cols for _ in range(grid.rows)]
    lengths: dict[int, list[list[tuple[int, int]]]] = {}
    for slot in grid.slots:
        lengths.setdefault(len(slot.cells), []).append([tuple(c) for c in slot.cells])
        for r, c in slot.cells:
            given = grid.cells[r][c]
            if given:
                if given not in code:
                    code[given] = len(glyphs)
                    glyphs.append(given)
                cells[r][c] = code[given]
            else:
                cells[r][c] = -1
    tables: dict[int, list[tuple[int, ...]]] = {}
    for length in lengths:
        words = sorted(lexicon.by_length.get(length, []))
        tables[length] = [(i, *(code[g] for g in entry_glyphs(w))) for i, w in enumerate(words)]
    return {
        "glyphs": glyphs,
        "alphabet": len(lexicon.alphabet),
        "cells": cells,
        "slots": {n: lengths[n] for n in sorted(lengths)},
        "tables": {n: tables[n] for n in sorted(tables)},
        "all_different": not allow_duplicates,
    }


def write_xcsp(data: dict, out: Path) -> dict:
    """Compile the model of ``xcsp_data`` to an XCSP3 file with pycsp3 (in a process of its own:
    pycsp3 keeps one model per process and reads ``sys.argv`` at import). Returns sizes."""
    sys.argv = [sys.argv[0]]
    import pycsp3

    cells, alphabet = data["cells"], data["alphabet"]

    def cell_domain(r: int, c: int) -> Any:
        value = cells[r][c]
        if value is None:
            return None
        return range(alphabet) if value < 0 else {value}

    x = pycsp3.VarArray(size=[len(cells), len(cells[0])], dom=cell_domain, id="x")
    order = [(n, k) for n, group in data["slots"].items() for k in range(len(group))]
    sizes = [max(1, len(data["tables"][n])) for n, _ in order]
    w = pycsp3.VarArray(size=len(order), dom=lambda i: range(sizes[i]), id="w")
    position = {key: i for i, key in enumerate(order)}
    constraints: list[Any] = []
    for n, group in data["slots"].items():
        table = data["tables"][n]
        if not table:  # no word of this length: ACE rejects an empty table, so w (domain {0}) != 0
            constraints.append([w[position[n, k]] != 0 for k in range(len(group))])
            continue
        constraints.append([(w[position[n, k]], *[x[r][c] for r, c in slot]) in table for k, slot in enumerate(group)])
        if data["all_different"] and len(group) > 1:
            constraints.append(pycsp3.AllDifferent(w[position[n, k]] for k in range(len(group))))
    pycsp3.satisfy(*constraints)
    pycsp3.compile(str(out.with_suffix("")))
    return {"variables": sum(v is not None for row in cells for v in row) + len(order), "slots": len(order)}


def compile_instance(spec: dict) -> dict:
    """``--compile-xcsp``: the XCSP3 file and decoding map of one grid + list + min score."""
    import csp_crossword as cc

    grid = cc.read_grid(spec["grid"])
    lexicon = cc.load_words(spec["words"]) if spec.get("words") else cc.load_words()
    if spec.get("min_score") is not None:
        lexicon = lexicon.filtered(int(spec["min_score"]))
    data = xcsp_data(grid, lexicon)
    out = Path(spec["out"])
    sizes = write_xcsp(data, out)
    decode = {"glyphs": data["glyphs"], "cells": data["cells"]}
    out.with_suffix(".map.json").write_text(json.dumps(decode))
    sizes["tuples"] = sum(len(t) for t in data["tables"].values())
    return sizes


def compile_xcsp(grid: Path, words: Path | None, min_score: int | None, out: Path) -> tuple[float, str]:
    """Compile in a fresh process: (seconds, note or '' when it worked)."""
    spec = {"grid": str(grid), "words": str(words) if words else None, "min_score": min_score, "out": str(out)}
    command = [sys.executable, str(Path(__file__).resolve()), "--compile-xcsp", json.dumps(spec)]
    code, stdout, err, seconds = run_command(command, 1800)
    if code != 0 or not out.exists():
        return seconds, f"pycsp3 compile failed (exit {code}): {tail(err or stdout)}"
    return seconds, ""


ACE_STATUS = {"UNSATISFIABLE": "unsatisfiable", "SATISFIABLE": "filled", "OPTIMUM": "filled", "UNKNOWN": "timeout"}


def run_ace(xml: Path, time_limit: float, seed: int, extra: Sequence[str] = ()) -> Outcome:
    """ACE on a compiled instance: status from its ``s`` line, the fill from its JSON solution."""
    jar = ace_jar()
    solution = xml.with_name(f"{xml.stem}-seed{seed}-solution.json")
    for old in solution.parent.glob(solution.name + "*"):
        old.unlink()
    command = ["java", "-jar", str(jar), str(xml), "-s=1", f"-t={max(1, round(time_limit * 1000))}", f"-seed={seed}"]
    command += ["-npc", f"-js={solution}", *extra]
    code, out, err, seconds = run_command(command, time_limit + GRACE)
    if code is None:
        return Outcome("timeout", seconds, note=f"killed at the time limit + {GRACE:g} s")
    found = re.findall(r"^s (\w+)", out, re.M)
    status = ACE_STATUS.get(found[-1], "error") if found else "error"
    outcome = Outcome(status, seconds, exit_code=code)
    phase = re.search(r"^\s*global\b.*?wck:([\d.]+)", out, re.M | re.S)
    if phase:
        outcome.inner_s = float(phase.group(1))
    if status == "error":
        outcome.note = f"exit {code}: {tail(err or out)}"
    elif status == "filled":
        outcome.cells = ace_cells(xml, solution)
        if outcome.cells is None:
            outcome.note = "ACE reported a solution but wrote no JSON solution"
    return outcome


def ace_cells(xml: Path, solution: Path) -> list[list[str | None]] | None:
    """ACE's saved solution decoded into grid cells (None: a block or an unused cell)."""
    import ast

    # ACE writes the first solution to ``<name>1.json``, in Python literal syntax ('x': [...]),
    # an absent variable as ``*``
    saved = sorted(solution.parent.glob(solution.name + "*"))
    try:
        values = ast.literal_eval(re.sub(r"\*", "None", saved[0].read_text()))
    except (IndexError, OSError, SyntaxError, ValueError):
        return None
    decode = json.loads(xml.with_suffix(".map.json").read_text())
    x = values.get("x")
    glyphs, layout = decode["glyphs"], decode["cells"]
    cells: list[list[str | None]] = []
    for r, row in enumerate(layout):
        line: list[str | None] = []
        for c, kind in enumerate(row):
            value = x[r][c] if x is not None and kind is not None else None
            line.append(glyphs[value] if isinstance(value, int) else None)
        cells.append(line)
    return cells


# ---------------------------------------------------------------- Qxw


def qxw_given_deck(rows: list[str], random_mode: int = 0) -> str:
    """A Qxw deck of a grid with given letters: every light through a given letter carries the
    pattern of its cells (``=?A??``)."""
    deck = qxw_deck(["".join("#" if ch == "#" else "." for ch in row) for row in rows], random_mode).splitlines()
    body = deck[1:] if deck and deck[0].startswith(".RANDOM") else deck
    head = deck[: len(deck) - len(body)]
    out = []
    for line, run in zip(body, lights(rows)):
        pattern = "".join(rows[r][c] if rows[r][c] not in ".#" else "?" for r, c in run)
        out.append(line + (f" ={pattern}" if pattern.strip("?") else ""))
    return "\n".join(head + out) + "\n"


def run_qxw_instance(instance: Instance, words: Path, time_limit: float) -> Outcome:
    rows = grid_rows_of(instance.path)
    if not any(ch not in ".#" for row in rows for ch in row):
        status, seconds, cells, note = run_qxw(rows, words, time_limit, random=0)
        return Outcome(status, seconds, cells=cells, note=note)
    with tempfile.TemporaryDirectory(prefix="qxw-") as work:
        deck = Path(work) / "grid.qxd"
        deck.write_text(qxw_given_deck(rows))
        code, out, err, seconds = run_command([QXW, "-b", "-d", str(words), str(deck)], time_limit)
    if code is None:
        return Outcome("timeout", seconds)
    if code == 4:
        return Outcome("unsatisfiable", seconds, exit_code=code)
    if code != 0:
        return Outcome("error", seconds, exit_code=code, note=f"qxw exit {code}: {tail(err, 80)}")
    return Outcome("filled", seconds, exit_code=code, cells=qxw_cells(rows, out))


def qxw_words(instance: Instance, work: Path) -> Path:
    """The instance's list (after the min score) written for Qxw: one entry a line."""
    key = f"{instance.words or 'builtin'}-{instance.min_score or 0}"
    path = work / f"qxw-{key}.txt"
    if not path.exists():
        entries = instance_lexicon(instance).scores
        path.write_text("".join(f"{w}\n" for w in entries))
    return path


# ---------------------------------------------------------------- the runner


class Runner:
    """Runs (instance, solver, seed) tasks; prepares each instance's ACE model and Qxw list once."""

    def __init__(self, work: Path):
        self.work = work
        self.compiled: dict[str, tuple[Path | None, float, str]] = {}

    def ace_model(self, instance: Instance) -> tuple[Path | None, float, str]:
        if instance.name not in self.compiled:
            xml = self.work / f"{instance.name}.xml"
            seconds, note = compile_xcsp(instance.path, instance.words_path, instance.min_score, xml)
            self.compiled[instance.name] = (None if note else xml, seconds, note)
        return self.compiled[instance.name]

    def prepare(self, instance: Instance, solvers: Iterable[Solver]) -> None:
        """The ACE model and Qxw's list, made before the runs are timed."""
        kinds = {s.kind for s in solvers}
        if "ace" in kinds:
            self.ace_model(instance)
        if "qxw" in kinds:
            qxw_words(instance, self.work)

    def run(self, instance: Instance, solver: Solver, seed: int, time_limit: float) -> Outcome:
        try:
            if solver.kind in ("check", "fill"):
                return run_ours(instance, solver, seed, time_limit)
            if solver.kind == "ace":
                xml, prep, note = self.ace_model(instance)
                if xml is None:
                    return Outcome("error", prep_s=prep, note=note)
                outcome = run_ace(xml, time_limit, seed)
                outcome.prep_s = prep
                return outcome
            if solver.kind == "qxw":
                return run_qxw_instance(instance, qxw_words(instance, self.work), time_limit)
        except Exception as error:  # a runner's bug is one row, not the end of the benchmark
            return Outcome("error", note=f"{type(error).__name__}: {error}"[:200])
        return Outcome("error", note=f"unknown solver kind {solver.kind}")


def _round(value: object) -> object:
    if value is None:
        return ""
    return round(float(value), 3) if isinstance(value, int | float) and not isinstance(value, bool) else value


def make_row(instance: Instance, solver: Solver, seed: int, time_limit: float, outcome: Outcome) -> dict:
    """The CSV row of a run; a fill is verified (``valid`` ok or WRONG)."""
    row = {
        "instance": instance.name,
        "family": instance.family,
        "solver": solver.name,
        "seed": seed,
        "time_limit": time_limit,
        "status": outcome.status,
        "valid": "",
        "seconds": _round(outcome.seconds),
        "inner_s": _round(outcome.inner_s),
        "prep_s": _round(outcome.prep_s),
        "nodes": "" if outcome.nodes is None else outcome.nodes,
        "core_present": bool(outcome.core) if solver.kind == "check" else "",
        "core_size": "" if not outcome.core else len(outcome.core),
        "core_minimal": "" if outcome.core_minimal is None else outcome.core_minimal,
        "core": " ".join(outcome.core or []),
        "exit_code": "" if outcome.exit_code is None else outcome.exit_code,
        "note": outcome.note,
    }
    if outcome.status == "filled":
        problems = verify(instance, outcome.cells) if outcome.cells else ["reported filled without a grid"]
        row["valid"] = "WRONG" if problems else "ok"
        if problems:
            row["note"] = "; ".join(problems)[:200]
    return row


def print_row(row: dict) -> None:
    keys = ["instance", "solver", "seed", "status", "valid", "seconds", "inner_s", "prep_s", "core_size"]
    keys += ["core_minimal", "note"]
    widths = [26, 13, 4, 14, 5, 8, 8, 7, 4, 6, 0]
    print("  ".join(str(row.get(k, "")).ljust(w) for k, w in zip(keys, widths)).rstrip(), flush=True)


def alarm(rows: list[dict]) -> list[str]:
    """The red flags: fills of instances in the set (verified or wrong)."""
    flags = []
    for row in rows:
        if row["status"] != "filled":
            continue
        if row["valid"] == "ok":
            flags.append(f"{row['solver']} FILLED {row['instance']} (verified!), recorded unsatisfiable")
        else:
            flags.append(f"{row['solver']} returned a WRONG fill of {row['instance']}: {row['note']}")
    return flags


def run(args: argparse.Namespace) -> int:
    solvers = []
    for name in [s.strip() for s in args.solvers.split(",") if s.strip()]:
        solver = parse_solver(name)
        why = missing(solver)
        if why:
            print(f"{name}: left out ({why})")
        else:
            solvers.append(solver)
    instances = select(candidates(), args.instances)
    verdicts = read_verdicts()
    if args.unproved:
        chosen = [i for i in instances if verdicts.get(i.name, {}).get("verdict") != "satisfiable"]
        left: list[tuple[str, str]] = []
    else:
        chosen, left = unsolvable(instances, verdicts)
    for name, why in left:
        print(f"{name}: left out ({why})")
    if not chosen or not solvers:
        print("nothing to run")
        return 2
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="unsat-"))
    work.mkdir(parents=True, exist_ok=True)
    runner = Runner(work)
    tasks = []
    for instance in chosen:
        for solver in solvers:
            for seed in range(1 if solver.kind == "qxw" else args.seeds):
                tasks.append((instance, solver, seed))
    print(f"{len(chosen)} instances, {len(solvers)} solvers, {len(tasks)} runs, {args.jobs} at a time, ", end="")
    print(f"{args.time_limit:g} s each; work folder {work}")
    for instance in chosen:  # before any timing: ACE models, Qxw lists
        runner.prepare(instance, solvers)
    rows: list[dict] = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(runner.run, i, s, seed, args.time_limit): (i, s, seed) for i, s, seed in tasks}
        for future in as_completed(futures):
            instance, solver, seed = futures[future]
            row = make_row(instance, solver, seed, args.time_limit, future.result())
            rows.append(row)
            print_row(row)
            append_rows(args.csv, COLUMNS, [row])
            for flag in alarm([row]):
                print(f"!!! {flag}", flush=True)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    print()
    summarise(rows, ours=args.ours)
    flags = alarm(rows)
    for flag in flags:
        print(f"\n!!! {flag}")
    return 1 if flags else 0


# ---------------------------------------------------------------- summary


def proof_time(group: list[dict]) -> float | None:
    """The median wall seconds of a group of runs when every run proved unsatisfiability."""
    if not group or any(r["status"] != "unsatisfiable" for r in group):
        return None
    return statistics.median(float(r["seconds"]) for r in group)


def par2(group: list[dict]) -> float:
    """Mean seconds with a run that proved nothing counted as twice its time limit."""
    return statistics.mean(
        float(r["seconds"]) if r["status"] == "unsatisfiable" else 2 * float(r["time_limit"]) for r in group
    )


def no_slower(ours: list[dict], theirs: list[dict]) -> bool | None:
    """Whether ours proved and took no longer than theirs (None: neither proved)."""
    mine, peer = proof_time(ours), proof_time(theirs)
    if mine is None and peer is None:
        return None
    if mine is None:
        return False
    return peer is None or mine <= peer


def ratio(ours: list[dict], theirs: list[dict]) -> str:
    mine, peer = proof_time(ours), proof_time(theirs)
    if not ours or not theirs:
        return "n/a"
    if mine is None and peer is None:
        return "-"
    if mine is None:
        return "ours -"
    if peer is None:
        return f"peer - ({status_text(theirs)})"
    return f"{mine / peer:.2f}" if peer > 0 else "inf"


def status_text(group: list[dict]) -> str:
    statuses = sorted({r["status"] for r in group})
    return "/".join(statuses)


def cell_text(group: list[dict]) -> str:
    if not group:
        return ""
    seconds = proof_time(group)
    if seconds is not None:
        return f"{seconds:.2f}"
    proved = sum(r["status"] == "unsatisfiable" for r in group)
    text = status_text([r for r in group if r["status"] != "unsatisfiable"])
    return f"{text} ({proved}/{len(group)})" if proved else text


def core_stats(group: list[dict]) -> tuple[int | None, bool]:
    """(median core size, every run's core minimal) of check runs that all found a core."""
    if not group or any(r["status"] != "unsatisfiable" or r["core_size"] in ("", None) for r in group):
        return None, False
    sizes = [int(r["core_size"]) for r in group]
    return round(statistics.median(sizes)), all(str(r["core_minimal"]) == "True" for r in group)


def summarise(rows: list[dict], ours: str = "ac", out: Any = None) -> None:
    """Markdown: per instance the proof seconds of each solver and the ratios ours/ACE and
    ours/Qxw; per check solver its cores; totals per solver."""
    write = out.write if out is not None else sys.stdout.write
    order = {i.name: n for n, i in enumerate(candidates())}
    names = sorted({r["instance"] for r in rows}, key=lambda n: (order.get(n, len(order)), n))
    known = list(NAMED_SOLVERS)
    solvers = sorted({r["solver"] for r in rows}, key=lambda s: (known.index(s) if s in known else len(known), s))
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["instance"], row["solver"]), []).append(row)
    family = {r["instance"]: r["family"] for r in rows}
    limits = sorted({float(r["time_limit"]) for r in rows})
    write(f"Proof seconds (wall, median over seeds; time limit {', '.join(f'{t:g}' for t in limits)} s):\n\n")
    peers = [p for p in PEERS if p in solvers]
    head = ["instance", *solvers] + [f"{ours} / {p}" for p in peers]
    write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for name in names:
        line = [name] + [cell_text(groups.get((name, s), [])) for s in solvers]
        line += [ratio(groups.get((name, ours), []), groups.get((name, p), [])) for p in peers]
        write("| " + " | ".join(line) + " |\n")
    checks = [s for s in solvers if s.startswith("check")]
    if checks:
        write("\nCores (`check`: total seconds, core size, minimal):\n\n")
        write("| instance | " + " | ".join(checks) + " |\n|---|" + "---|" * len(checks) + "\n")
        for name in names:
            cells = []
            for s in checks:
                group = groups.get((name, s), [])
                size, minimal = core_stats(group)
                if size is None:
                    cells.append(cell_text(group) + (" (no core)" if proof_time(group) is not None else ""))
                else:
                    cells.append(f"{proof_time(group):.2f} s, {size} slots{', minimal' if minimal else ''}")
            write(f"| {name} | " + " | ".join(cells) + " |\n")
    write("\nTotals per solver:\n\n")
    head = ["solver", "proved", "PAR-2 s", "median s"] + [f"no slower than {p}" for p in peers]
    head += ["cores", "median core", "minimal cores", "American under 5 s"]
    write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for solver in solvers:
        mine = [(n, groups[(n, solver)]) for n in names if (n, solver) in groups]
        times = [t for _, g in mine if (t := proof_time(g)) is not None]
        line = [solver, f"{len(times)}/{len(mine)}", f"{statistics.mean(par2(g) for _, g in mine):.2f}"]
        line.append(f"{statistics.median(times):.2f}" if times else "-")
        for peer in peers:
            if solver == peer:
                line.append("")
                continue
            verdicts = [no_slower(g, groups[(n, peer)]) for n, g in mine if (n, peer) in groups]
            decided = [v for v in verdicts if v is not None]
            line.append(f"{sum(decided)}/{len(decided)}" if decided else "-")
        if solver.startswith("check"):
            cores = [core_stats(g) for _, g in mine]
            sizes = [size for size, _ in cores if size is not None]
            american = [
                g for n, g in mine if family.get(n) == "american" and (t := proof_time(g)) is not None and t < 5.0
            ]
            american = [g for g in american if core_stats(g)[0] is not None]
            count = sum(1 for n, _ in mine if family.get(n) == "american")
            line += [f"{len(sizes)}/{len(mine)}", f"{statistics.median(sizes):g}" if sizes else "-"]
            line += [f"{sum(m for s, m in cores if s is not None)}/{len(sizes)}", f"{len(american)}/{count}"]
        else:
            line += ["", "", "", ""]
        write("| " + " | ".join(line) + " |\n")
    flags = alarm(rows)
    if flags:
        write("\nRed flags:\n\n" + "".join(f"- {flag}\n" for flag in flags))


def read_csv(paths: Sequence[str]) -> list[dict]:
    rows: list[dict] = []
    for path in paths:
        with open(path, newline="") as handle:
            rows += list(csv.DictReader(handle))
    return rows


# ---------------------------------------------------------------- classification


def classify(args: argparse.Namespace) -> int:
    """Decide each selected candidate with a long run of each classifier in turn (the first
    definite answer wins; a fill counts only when verified) and record it in verdicts.json. A
    proof already recorded is kept unless ``--reclassify``."""
    instances = select(candidates(), args.instances)
    verdicts = read_verdicts()
    solvers = [parse_solver(s.strip()) for s in args.classify_solvers.split(",") if s.strip()]
    solvers = [s for s in solvers if missing(s) is None]
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="unsat-classify-"))
    work.mkdir(parents=True, exist_ok=True)
    runner = Runner(work)
    for instance in instances:
        old = verdicts.get(instance.name, {})
        if old.get("verdict") in ("unsatisfiable", "satisfiable") and not args.reclassify:
            print(f"{instance.name}: {old['verdict']} (recorded: {old.get('by')})")
            continue
        if not instance.path.exists():
            print(f"{instance.name}: no grid file {instance.grid} (run --make-grids)")
            continue
        tried = list(old.get("tried", []))
        verdict: dict[str, Any] = {"verdict": "unknown"}
        for solver in solvers:
            outcome = runner.run(instance, solver, 0, args.classify_limit)
            row = make_row(instance, solver, 0, args.classify_limit, outcome)
            tried.append(f"{solver.name}: {row['status']} {row['seconds']} s (limit {args.classify_limit:g} s)")
            print_row(row)
            if row["status"] == "unsatisfiable" or (row["status"] == "filled" and row["valid"] == "ok"):
                verdict = {
                    "verdict": "unsatisfiable" if row["status"] == "unsatisfiable" else "satisfiable",
                    "by": solver.name,
                    "seconds": row["seconds"],
                }
                if row["core_size"] != "":
                    verdict["core_size"] = row["core_size"]
                break
        verdict.update(time_limit=args.classify_limit, date=datetime.date.today().isoformat(), tried=tried)
        verdicts[instance.name] = verdict
        VERDICTS.write_text(json.dumps(dict(sorted(verdicts.items())), indent=1) + "\n")
        print(f"{instance.name}: {verdict['verdict']}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def list_candidates() -> None:
    verdicts = read_verdicts()
    chosen = 0
    for instance in candidates():
        v = verdicts.get(instance.name, {})
        how = f"by {v['by']} in {v['seconds']} s" if v.get("by") else "; ".join(v.get("tried", []))
        mark = "in " if v.get("verdict") == "unsatisfiable" else "out"
        chosen += mark == "in "
        print(f"{mark} {instance.name:34} {instance.label:18} {v.get('verdict', 'not classified'):14} {how}")
    print(f"{chosen} instances in the set")


# ---------------------------------------------------------------- made grids


def with_givens(rows: list[str], givens: Iterable[tuple[int, int, str]]) -> list[str]:
    grid = [list(row) for row in rows]
    for r, c, letter in givens:
        grid[r][c] = letter
    return ["".join(row) for row in grid]


def given_attempts(spec: GivenSpec, rows: list[str]) -> Iterable[tuple[int, list[tuple[int, int, str]]]]:
    """The seeded draws of given letters for a spec: (attempt, [(row, col, letter)])."""
    rng = random.Random(spec.seed)
    corner = spec.cells(rows)
    for attempt in range(GIVEN_ATTEMPTS):
        cells = sorted(rng.sample(corner, spec.letters))
        yield attempt, [(r, c, rng.choices(LETTERS, LETTER_WEIGHTS)[0]) for r, c in cells]


def make_given_grid(spec: GivenSpec) -> dict:
    """The first seeded draw whose grid keeps a candidate in every slot at the root but is proved
    unsatisfiable by ``ac`` (seed 0, GIVEN_PROOF_SECONDS) after at least GIVEN_MIN_NODES nodes."""
    from csp_crossword.backends import get_backend
    from csp_crossword.core.grid import parse_grid
    from csp_crossword.core.result import Status
    from csp_crossword.search.problem import FillOptions, build_problem

    base = grid_rows_of(ROOT / "grids" / "american" / f"{spec.base}.txt")
    lexicon = lexicon_of(None, spec.min_score)
    for attempt, givens in given_attempts(spec, base):
        rows = with_givens(base, givens)
        grid = parse_grid("\n".join(rows))
        problem = build_problem(grid, lexicon, FillOptions())
        if problem.unsatisfiable:
            continue
        result = get_backend("ac")(seed=0).solve(problem, time_limit=GIVEN_PROOF_SECONDS)
        if result.status == Status.UNSATISFIABLE and result.stats.nodes >= GIVEN_MIN_NODES:
            return {
                "name": spec.name,
                "base": f"grids/american/{spec.base}.txt",
                "seed": spec.seed,
                "corner": f"{spec.corner}x{spec.corner} {'top-left' if spec.at == 'tl' else 'bottom-right'}",
                "min_score": spec.min_score,
                "attempt": attempt,
                "givens": [f"{letter} at row {r + 1}, col {c + 1}" for r, c, letter in givens],
                "rows": rows,
                "ac_nodes": result.stats.nodes,
                "ac_seconds": round(result.stats.seconds, 3),
            }
    raise RuntimeError(f"{spec.name}: no draw in {GIVEN_ATTEMPTS} attempts")


def make_grids(names: Sequence[str] | None = None) -> None:
    """Write the small grids and the given-letter grids to benchmarks/unsat-grids (and made.json)."""
    GRID_DIR.mkdir(parents=True, exist_ok=True)
    for name, rows in SMALL_GRIDS.items():
        (GRID_DIR / f"{name}.txt").write_text("\n".join(rows) + "\n")
        print(f"{name}: {len(rows)}x{len(rows[0])}, {sum(r.count('#') for r in rows)} blocks")
    made = json.loads(MADE.read_text()) if MADE.exists() else {}
    made = {name: info for name, info in made.items() if name in {spec.name for spec in GIVEN_SPECS}}
    for spec in GIVEN_SPECS:
        if names and not any(fnmatch.fnmatch(spec.name, g) for g in names):
            continue
        info = make_given_grid(spec)
        (GRID_DIR / f"{spec.name}.txt").write_text("\n".join(info.pop("rows")) + "\n")
        made[spec.name] = info
        print(f"{spec.name}: {info['base']} + {', '.join(info['givens'])} (seed {spec.seed}, attempt ", end="")
        print(f"{info['attempt']}; ac: {info['ac_nodes']} nodes, {info['ac_seconds']} s)")
    MADE.write_text(json.dumps(made, indent=1) + "\n")


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", action="append", help="instance name globs, comma-separated (default all)")
    parser.add_argument("--solvers", default=DEFAULT_SOLVERS, help=f"comma-separated (default {DEFAULT_SOLVERS})")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--seeds", type=int, default=1, help="seeds 0..N-1 per instance and solver (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1: timings need an idle machine)")
    parser.add_argument(
        "--csv",
        default=str(RESULTS),
        help=f"append one row per run to this CSV file as runs end (default {RESULTS.relative_to(ROOT)}; '' for none)",
    )
    parser.add_argument("--summary", metavar="CSV", action="append", help="only summarise the rows of these CSV files")
    parser.add_argument("--ours", default="ac", help="the solver of the ratio columns ours/ACE, ours/Qxw (default ac)")
    parser.add_argument("--work", help="keep ACE models and Qxw lists in this folder (default a temporary one)")
    parser.add_argument(
        "--unproved", action="store_true", help="also run the candidates not proved unsatisfiable (not known fillable)"
    )
    parser.add_argument("--list", action="store_true", help="list the candidates and their verdicts")
    parser.add_argument("--classify", action="store_true", help="decide the candidates and record verdicts.json")
    parser.add_argument("--classify-limit", type=float, default=300.0, help="seconds per classifier (default 300)")
    parser.add_argument(
        "--classify-solvers",
        default="check-ac,cpsat-w2,ace,qxw",
        help="classifiers in turn (default check-ac,cpsat-w2,ace,qxw)",
    )
    parser.add_argument("--reclassify", action="store_true", help="decide again instances already decided")
    parser.add_argument("--make-grids", action="store_true", help="write the grids of benchmarks/unsat-grids")
    parser.add_argument("--compile-xcsp", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.compile_xcsp:
        print(json.dumps(compile_instance(json.loads(args.compile_xcsp))))
        return 0
    if args.summary:
        rows = read_csv(args.summary)
        summarise(rows, ours=args.ours)
        return 1 if alarm(rows) else 0
    if args.list:
        list_candidates()
        return 0
    if args.make_grids:
        make_grids(args.instances)
        return 0
    try:
        for name in args.solvers.split(",") + args.classify_solvers.split(","):
            if name.strip():
                parse_solver(name.strip())
    except ValueError as error:
        parser.error(str(error))
    if args.classify:
        return classify(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
