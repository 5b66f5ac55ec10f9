"""What a puzzle file says beyond its grid, from the command line: ``--clue ENTRY=TEXT``,
``--title``, ``--author``, ``--copyright`` (on ``fill``, ``generate`` and ``render``), and
``--allow-unclued`` (``fill`` and ``generate``: by default a puzzle file's fill uses only entries
a clue source has)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.glyphs import normalize_entry

if TYPE_CHECKING:
    from ..formats import Puzzle
    from .common import Reporter


def add_puzzle_details_args(parser: argparse.ArgumentParser, *, unclued: bool = True) -> None:
    """The options of this module (``--allow-unclued`` when ``unclued``)."""
    parser.add_argument(
        "--clue",
        action="append",
        default=[],
        metavar="ENTRY=TEXT",
        help="the clue of ENTRY in a puzzle file (a theme entry's, say); repeatable; it wins over every clue source",
    )
    parser.add_argument("--title", help="the puzzle's title (a puzzle file, and printed above the grid)")
    parser.add_argument("--author", help="the puzzle's author (a puzzle file, and printed)")
    parser.add_argument("--copyright", help="the puzzle's copyright line (a puzzle file, and printed)")
    if unclued:
        parser.add_argument(
            "--allow-unclued",
            action="store_true",
            help="with --output FILE.puz/.ipuz/.xd: let the fill use entries no clue source has (their clues "
            "stay empty); by default a puzzle file's fill uses only entries with a clue",
        )


def given_clues(args: argparse.Namespace) -> dict[str, str]:
    """``--clue`` items: entry (normalized) -> clue; InputError naming a malformed one."""
    clues: dict[str, str] = {}
    for item in getattr(args, "clue", None) or []:
        entry, sep, text = item.partition("=")
        if not sep or not normalize_entry(entry) or not text.strip():
            raise InputError(f"--clue {item!r}: write ENTRY=TEXT, e.g. --clue 'BACKTRACKSEARCH=Solver's retreat'")
        clues[normalize_entry(entry)] = text.strip()
    return clues


def apply_puzzle_details(args: argparse.Namespace, puzzle: Puzzle, reporter: Reporter) -> None:
    """``--clue``, ``--title``, ``--author`` and ``--copyright`` into ``puzzle``, in place (a clue
    given for an entry the puzzle lacks is named in a warning)."""
    for name in ("title", "author", "copyright"):
        value = getattr(args, name, None)
        if value:
            setattr(puzzle, name, value)
    wanted = given_clues(args)
    placed: set[str] = set()
    for slot, answer, _clue in puzzle.entries():
        entry = normalize_entry(answer or "")
        if entry in wanted:
            puzzle.clues[slot.id] = wanted[entry]
            placed.add(entry)
    for entry in wanted:
        if entry not in placed:
            reporter.warn(f"--clue {entry}: the puzzle has no entry {entry}")
