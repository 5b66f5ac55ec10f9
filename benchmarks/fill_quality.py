"""Fill quality benchmark: what the default fill spends, on the kinds of grid constructors use.

Kinds (default settings, the built-in list, each fill in this process, seeds 0..N-1):

* ``american``: the patterns of ``grids/american``;
* ``published``: the published 15x15 patterns of ``grids/american15`` (blocks only);
* ``themed``: the ``grids/american`` patterns with three long theme entries typed in: the longest
  across slots no two of them in neighbouring rows, each given a seeded choice among the answers
  of its length that THEME_PUZZLES or more published puzzles used and the list holds (the same
  pool whatever the list's scores, so two versions of the list meet the same themes); a draw the
  grid cannot be filled around (unsatisfiable) is drawn again, up to THEME_DRAWS times, so the
  kind measures fills, not impossible themes;
* ``themeless``: American-style patterns with few, long entries, as a Friday or Saturday (15x15,
  at most THEMELESS_WORDS[15] entries) or a Sunday themeless (21x21, THEMELESS_WORDS[21]), drawn
  by ``american_pattern`` with the seed, then filled as the others;
* ``generated``: ``generate(15, 15, style="american")`` and ``generate(21, 21, ...)``.

For each kind: fills made, entries, the share of entries scored below 30 and below 40 by the list
the fill used, the share absent from ``../shared/data/lexicon/published-answers.tsv`` (answers of
published newspaper puzzles), median seconds, and the shared-root pairs and British spellings
left. ``--sample FILE`` writes 100 random entries per kind (seeded) as CSV, for a blind review.

    python benchmarks/fill_quality.py --seeds 3 --time-limit 30 --csv out.csv --sample sample.csv

Run it from any checkout: it imports the ``csp_crossword`` on ``sys.path`` (PYTHONPATH=another
checkout measures that one).
"""

from __future__ import annotations

import argparse
import csv
import glob
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import csp_crossword as cc
from csp_crossword.api import american_pattern, as_grid

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", REPO.parent / "shared")) / "data"
#: Entries of the sample per kind.
SAMPLE_SIZE = 100
#: How many published puzzles an answer must have appeared in to be drawn as a theme entry.
THEME_PUZZLES = 5
#: Draws of theme entries per pattern and seed before the themed kind gives up on a grid.
THEME_DRAWS = 10
#: The most entries of a themeless pattern, by size (newspaper themelesses: 72 or fewer on 15x15).
THEMELESS_WORDS = {15: 68, 21: 140}


def published_answers() -> dict[str, int]:
    """Answer -> how many published puzzles used it."""
    path = SHARED / "lexicon" / "published-answers.tsv"
    answers = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            answer, puzzles = line.split("\t")[:2]
            answers[answer] = int(puzzles)
    return answers


def themed_grid(path: str, seed: int, themes: list[str]) -> str:
    """The pattern at ``path`` with three long across entries typed in (see the docstring)."""
    grid = cc.read_grid(path)
    across = sorted((s for s in grid.slots if s.direction == "across"), key=lambda s: (-s.length, s.cells[0]))
    chosen: list = []
    for slot in across:  # no stack of theme entries: their down crossings could not be filled
        if all(abs(slot.cells[0][0] - other.cells[0][0]) >= 2 for other in chosen):
            chosen.append(slot)
        if len(chosen) == 3:
            break
    rng = random.Random(seed)
    rows = [list(line) for line in Path(path).read_text().split()]
    used: set[str] = set()
    for slot in chosen:
        pool = [e for e in themes if len(e) == slot.length and e not in used]
        word = rng.choice(pool)
        used.add(word)
        for (r, c), letter in zip(slot.cells, word, strict=True):
            rows[r][c] = letter
    return "\n".join("".join(row) for row in rows)


def runs(kind: str, seeds: int, time_limit: float, themes: list[str]):
    """(label, seed, grid or None, generate size) of a kind."""
    if kind in ("american", "published", "themed"):
        folder = "american" if kind != "published" else "american15"
        for path in sorted(glob.glob(str(REPO / "grids" / folder / "*.txt"))):
            for seed in range(seeds):
                if kind == "themed":
                    draws = (themed_grid(path, seed * THEME_DRAWS + k, themes) for k in range(THEME_DRAWS))
                    yield Path(path).stem, seed, draws, None
                else:
                    yield Path(path).stem, seed, path, None
    elif kind == "themeless":
        for size, most in THEMELESS_WORDS.items():
            for seed in range(seeds):
                drawn = american_pattern(size, size, max_words=most, seed=seed, time_limit=time_limit).grid
                if drawn is not None:
                    yield f"themeless {size}x{size}", seed, drawn, None
    else:
        for size in (15, 21):
            for seed in range(seeds):
                yield f"{size}x{size}", seed, None, size


def judge_scores(path: str) -> dict[str, int]:
    """Entry -> score of a built-in list file in our format (ENTRY, SCORE, DISPLAY, FLAGS)."""
    import gzip

    table = {}
    for line in gzip.decompress(Path(path).read_bytes()).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            entry, score = line.split("\t")[:2]
            table[entry] = int(score)
    return table


def measure(kind: str, seeds: int, time_limit: float, published: dict[str, int], rows: list[dict], sample: dict, judge):
    lexicon = cc.load_words()
    scores = judge or lexicon.scores
    # the theme pool: published answers the list holds (the same entries in every version of it)
    themes = sorted(a for a, n in published.items() if n >= THEME_PUZZLES and a in lexicon.scores)
    for label, seed, grid, size in runs(kind, seeds, time_limit, themes):
        started = time.monotonic()
        given: set[str] = set()
        if size is None and isinstance(grid, Iterator):  # themed: the first draw that can be filled
            for draw in grid:
                result = cc.fill(draw, None, seed=seed, time_limit=time_limit)
                if result.status.value != "unsatisfiable":
                    typed = as_grid(draw)
                    given = {slot.id for slot in typed.slots if all(typed.pattern(slot))}
                    break
        elif size is None:
            result = cc.fill(grid, None, seed=seed, time_limit=time_limit)
        else:
            result = cc.generate(size, size, None, style="american", seed=seed, time_limit=time_limit).result
        seconds = time.monotonic() - started
        entries = [e for e in result.entries if e.answer] if result.status.has_fill else []
        # theme entries typed in are the constructor's, not the fill's
        answers = [e.answer for e in entries if e.id not in given]
        low30 = sum(1 for a in answers if scores.get(a, 0) < 30)
        low40 = sum(1 for a in answers if scores.get(a, 0) < 40)
        absent = sum(1 for a in answers if a not in published)
        pairs = len(getattr(result, "shared_roots", []) or [])
        rows.append(
            {
                "kind": kind,
                "grid": label,
                "seed": seed,
                "status": result.status.value,
                "entries": len(answers),
                "below30": low30,
                "below40": low40,
                "unpublished": absent,
                "min": min((scores.get(a, 0) for a in answers), default=""),
                "mean": round(statistics.mean(scores.get(a, 0) for a in answers), 2) if answers else "",
                "shared_roots": pairs,
                "seconds": round(seconds, 2),
            }
        )
        sample.setdefault(kind, []).extend(answers)
        print(rows[-1], file=sys.stderr, flush=True)


def summary(rows: list[dict]) -> str:
    lines = [
        "| kind | fills | entries | below 30 | below 40 | not in published | median s |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in dict.fromkeys(r["kind"] for r in rows):
        mine = [r for r in rows if r["kind"] == kind]
        filled = [r for r in mine if r["entries"]]
        n = sum(r["entries"] for r in filled) or 1
        share = {k: 100 * sum(r[k] for r in filled) / n for k in ("below30", "below40", "unpublished")}
        lines.append(
            f"| {kind} | {len(filled)}/{len(mine)} | {n} | {share['below30']:.1f}% | {share['below40']:.1f}% | "
            f"{share['unpublished']:.1f}% | {statistics.median(r['seconds'] for r in mine):.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="american,published,themeless,themed,generated")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--csv", help="write one row per fill")
    parser.add_argument("--sample", help="write SAMPLE_SIZE random entries per kind, for a blind review")
    parser.add_argument(
        "--judge-list", help="score entries by this list file (our .tsv.gz format) instead of the list the fill used"
    )
    args = parser.parse_args(argv)
    published = published_answers()
    judge = judge_scores(args.judge_list) if args.judge_list else None
    rows: list[dict] = []
    sample: dict[str, list[str]] = {}
    for kind in args.kinds.split(","):
        measure(kind, args.seeds, args.time_limit, published, rows, sample, judge)
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    if args.sample:
        rng = random.Random(0)
        with open(args.sample, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["kind", "entry"])
            for kind, answers in sample.items():
                for answer in rng.sample(answers, min(SAMPLE_SIZE, len(answers))):
                    writer.writerow([kind, answer])
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
