"""Blind rating of the shipped clues, among clues of other kinds, as a strict crossword editor would.

Two steps, with a rater in between who sees neither the source nor the version of a clue:

1. ``sheet``: fills every pattern of ``grids/american`` with the default settings (seeds
   FIRST..FIRST+N-1: seeds no clue was written for), samples SAMPLE_SIZE distinct entries (seeded),
   and gives each the clues of these kinds:

   * ``shipped``: the first (best) clue of the shipped file (``csp_crossword.clues.builtin``);
   * ``shipped-before``: the same from the shipped file of another revision (``--before REV``,
     read with ``git show``), to compare two versions under one rater;
   * ``wordnet``: the runtime WordNet source's definition (``--clues wordnet``);
   * ``published``: a clue of the same answer from the real puzzle files of
     ``../shared/data/realfiles`` (other programs' test puzzles), when one has it.

   One clue text given by several kinds is rated once. The sheet (``sheet.csv``: id, answer,
   clue) is shuffled; the key (``key.csv``: id, answer, kinds) stays apart from the rater.
2. ``score``: reads the rater's ``ratings.csv`` (id, rating 1-5, flags, note; flags any of
   ``incorrect``, ``unfair``, ``style`` (not crossword style), ``giveaway``, separated by ``;``)
   and prints, per kind: clues rated, the mean rating, the share rated 2 or lower, and the share
   of each flag.

    python benchmarks/clue_rating.py sheet --before HEAD~5 --out benchmarks/results/clue-rating
    python benchmarks/clue_rating.py score --out benchmarks/results/clue-rating

Targets (the shipped kind): mean at least 3.4, at most 10% rated 2 or lower, at most 2% incorrect,
no giveaway.
"""

from __future__ import annotations

import argparse
import csv
import glob
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from csp_crossword import api
from csp_crossword.clues.builtin import BuiltinClues

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", REPO.parent / "shared")) / "data"
#: Distinct entries rated.
SAMPLE_SIZE = 150
#: The first seed of the fills sampled, and how many: seeds far from the 0-42 clues were checked on.
FIRST_SEED = 100
SEEDS = 3
#: The shipped file, relative to the repository (for ``git show REV:PATH``).
SHIPPED = "csp_crossword/clues/data/builtin-clues.tsv.gz"
FLAGS = ("incorrect", "unfair", "style", "giveaway")


def sampled_entries(first_seed: int, seeds: int, size: int, seed: int) -> list[str]:
    """``size`` distinct entries of the default fills of ``grids/american``, drawn with ``seed``."""
    entries: set[str] = set()
    for path in sorted(glob.glob(str(REPO / "grids" / "american" / "*.txt"))):
        for s in range(first_seed, first_seed + seeds):
            entries.update(e.answer for e in api.fill(path, seed=s).entries if e.answer)
    return random.Random(seed).sample(sorted(entries), min(size, len(entries)))


def before_source(revision: str) -> BuiltinClues:
    """The shipped clues of another revision of this repository."""
    data = subprocess.run(["git", "show", f"{revision}:{SHIPPED}"], cwd=REPO, capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".tsv.gz", delete=False) as handle:
        handle.write(data)
    return BuiltinClues(handle.name)


def published_clues() -> dict[str, str]:
    """Answer -> a clue from the real puzzle files (the first well-formed file that has it)."""
    from csp_crossword.formats import read_crossword

    found: dict[str, str] = {}
    for path in sorted(glob.glob(str(SHARED / "realfiles" / "*"))):
        if path.endswith(".md"):
            continue
        try:
            puzzle = read_crossword(path)
        except Exception:  # broken on purpose, or a variety the readers refuse: not a clue source
            continue
        for _slot, answer, clue in puzzle.entries():
            if answer and clue and answer not in found:
                found[answer] = clue
    return found


def write_sheet(args: argparse.Namespace) -> int:
    from csp_crossword.clues.wordnet import wordnet_glosses

    entries = sampled_entries(args.first_seed, args.seeds, args.sample, args.seed)
    sources = {"shipped": BuiltinClues()}
    if args.before:
        sources["shipped-before"] = before_source(args.before)
    kinds: dict[tuple[str, str], list[str]] = defaultdict(list)
    for kind, source in sources.items():
        for entry, clue in source.best(entries).items():
            kinds[(entry, clue)].append(kind)
    for entry, clue in wordnet_glosses(entries).items():
        kinds[(entry, clue)].append("wordnet")
    published = published_clues()
    for entry in entries:
        if entry in published:
            kinds[(entry, published[entry])].append("published")
    rows = sorted(kinds)
    random.Random(args.seed + 1).shuffle(rows)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (
        open(out / "sheet.csv", "w", newline="", encoding="utf-8") as sheet,
        open(out / "key.csv", "w", newline="", encoding="utf-8") as key,
    ):
        sheet_rows, key_rows = csv.writer(sheet), csv.writer(key)
        sheet_rows.writerow(["id", "answer", "clue"])
        key_rows.writerow(["id", "answer", "kinds"])
        for number, (entry, clue) in enumerate(rows, 1):
            sheet_rows.writerow([number, entry, clue])
            key_rows.writerow([number, entry, "+".join(kinds[(entry, clue)])])
    unclued = [e for e in entries if not any(k[0] == e and "shipped" in kinds[k] for k in kinds)]
    print(f"{len(entries)} entries, {len(rows)} clues to rate; shipped clue for {len(entries) - len(unclued)}")
    print(f"sheet: {out / 'sheet.csv'}   key: {out / 'key.csv'}")
    return 0


def score(args: argparse.Namespace) -> int:
    out = Path(args.out)
    with open(out / "key.csv", encoding="utf-8") as handle:
        key = {row["id"]: row["kinds"].split("+") for row in csv.DictReader(handle)}
    with open(out / "ratings.csv", encoding="utf-8") as handle:
        ratings = list(csv.DictReader(handle))
    per_kind: dict[str, list[dict]] = defaultdict(list)
    for row in ratings:
        for kind in key[row["id"]]:
            per_kind[kind].append(row)
    print("| kind | clues | mean | rated 2 or lower | " + " | ".join(FLAGS) + " |")
    print("|---|---|---|---|" + "---|" * len(FLAGS))
    for kind in sorted(per_kind):
        rows = per_kind[kind]
        values = [int(r["rating"]) for r in rows]
        flagged = {f: sum(f in (r.get("flags") or "").split(";") for r in rows) for f in FLAGS}
        low = sum(v <= 2 for v in values)
        cells = " | ".join(f"{100 * flagged[f] / len(rows):.0f}%" for f in FLAGS)
        print(f"| {kind} | {len(rows)} | {statistics.mean(values):.2f} | {100 * low / len(rows):.0f}% | {cells} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    sheet = commands.add_parser("sheet", help="write the sheet to rate and its key")
    sheet.add_argument("--before", help="also the shipped clues of this git revision")
    sheet.add_argument("--first-seed", type=int, default=FIRST_SEED)
    sheet.add_argument("--seeds", type=int, default=SEEDS)
    sheet.add_argument("--sample", type=int, default=SAMPLE_SIZE)
    sheet.add_argument("--seed", type=int, default=0, help="the sample's and the shuffle's seed")
    sheet.add_argument("--out", required=True, help="folder for sheet.csv and key.csv")
    scoring = commands.add_parser("score", help="score the rater's ratings.csv against the key")
    scoring.add_argument("--out", required=True, help="folder of key.csv and ratings.csv")
    args = parser.parse_args(argv)
    return write_sheet(args) if args.command == "sheet" else score(args)


if __name__ == "__main__":
    sys.exit(main())
