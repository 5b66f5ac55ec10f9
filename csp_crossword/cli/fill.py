"""``fill``: fill a grid and print or write the result."""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import api
from ..api.word_sources import WordSource
from ..core.errors import InputError
from ..core.result import FillResult, SearchStats, Status
from ..formats import Puzzle, is_crossword_file
from ..formats.documents import result_to_dict, result_to_text, to_json
from ..words.lexicon import Lexicon
from .common import (
    EXIT_BY_STATUS,
    LoadInterrupted,
    LoadTimedOut,
    Reporter,
    grid_job,
    output_format,
    write_output,
    write_puzzle_output,
)
from .puzzle_details import apply_puzzle_details

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..clues.chain import ClueReport
    from ..clues.sources import ClueSource


def cmd_fill(args: argparse.Namespace, reporter: Reporter) -> int:
    if args.portfolio is not None and args.portfolio < 1:
        raise InputError("--portfolio must be 1 or more (the number of searches to race)")
    if args.ray and not args.portfolio:
        raise InputError("--ray runs the members of a --portfolio: give --portfolio N too")
    cores = os.cpu_count() or 1
    if args.portfolio and not args.ray:
        from ..api.portfolio import MEMBERS_PER_CORE

        if args.portfolio > MEMBERS_PER_CORE * cores:  # refused before the list is loaded
            raise InputError(
                f"--portfolio {args.portfolio:,} on {cores} core(s): at most {MEMBERS_PER_CORE * cores} "
                f"({MEMBERS_PER_CORE} per core)"
            )
        if args.portfolio > cores:
            reporter.warn(
                f"--portfolio {args.portfolio} on {cores} core(s): the members share them, each searching "
                f"at {cores}/{args.portfolio} of a core's speed (a single fill is often faster here)"
            )
    sources: Sequence[ClueSource] | None = None
    try:
        job = grid_job(args, reporter)
    except (LoadInterrupted, LoadTimedOut) as stop:  # the answer of a stop just after loading: nothing placed
        grid_file, lexicon = stop.grid_file, Lexicon({})
        late = isinstance(stop, LoadTimedOut)
        spent = SearchStats(seconds=time.monotonic() - reporter.start)
        result = FillResult(Status.TIMEOUT if late else Status.INTERRUPTED, args.backend, stats=spent)
    else:
        grid_file, lexicon = job.grid_file, job.lexicon
        words: Any = lexicon
        race: dict[str, Any] = {}
        if args.portfolio and args.portfolio > 1:
            race = {"portfolio": args.portfolio, "engine": "ray" if args.ray else "local", "address": args.ray}
            if args.ray and grid_file.fill_in is None:  # Ray workers load the list themselves
                words = WordSource(
                    tuple(os.path.abspath(p) for p in args.words or ()),
                    args.lang,
                    args.allow_offensive,
                    tuple(os.path.abspath(p) for p in args.overrides),
                    # the spelling the CLI's own list keeps to: the workers load theirs the same
                    api.resolve_spelling(args.spelling, grid_file.grid, args.lang, own_list=bool(args.words)),
                )
        writes_puzzle = bool(args.output) and is_crossword_file(args.output)
        if writes_puzzle and grid_file.fill_in is None and not args.allow_unclued and not isinstance(words, WordSource):
            # a puzzle file gets every clue: its fill uses only entries a clue source has (the
            # list's own clues count; given and theme entries stay), as generate -o does
            from ..clues.chain import clued_lexicon

            sources = chosen_clue_sources(args, reporter)
            if sources:
                words = clued_lexicon(lexicon, sources)
        result = api.fill(
            job.grid,
            words,
            optimize=args.optimize,
            optimize_total=args.optimize_total,
            strategy=args.strategy,
            allow_shared_roots=args.allow_shared_roots,
            **race,
            **job.keywords,
        )
    reporter.stop()
    if result.cells is None and result.status in (Status.TIMEOUT, Status.INTERRUPTED):
        # stopped before anything was placed: the best partial fill is the grid as given
        result = replace(result, cells=grid_file.grid.cells)
    if args.output and is_crossword_file(args.output):
        puzzle = api.fill_puzzle(grid_file, lexicon, result)
        apply_puzzle_details(args, puzzle, reporter)
        clue_report = apply_clues(args, puzzle, reporter, sources)
        text = result_to_text(grid_file.grid, result, grid_file.block, grid_file.empty)
        write_puzzle_output(args, puzzle, text, reporter)
        report_clues(clue_report, reporter, kept_from="the word list and --clue" if args.clue else "list")
    elif output_format(args) == "json":
        write_output(args, to_json(result_to_dict(grid_file.grid, result)))
    else:
        write_output(args, result_to_text(grid_file.grid, result, grid_file.block, grid_file.empty))
    report_fill(result, reporter)
    return EXIT_BY_STATUS[result.status]


def apply_clues(
    args: argparse.Namespace, puzzle: Puzzle, reporter: Reporter, sources: Sequence[ClueSource] | None = None
) -> ClueReport:
    """Fill the puzzle's empty clues from the sources ``--clues`` names (the clues it has, the
    word list's among them, are kept), or from ``sources`` when given (chosen already by
    :func:`chosen_clue_sources`). :func:`report_clues` says what came from where once the
    puzzle is written."""
    from ..clues.chain import fill_clues

    return fill_clues(puzzle, sources if sources is not None else chosen_clue_sources(args, reporter))


def chosen_clue_sources(args: argparse.Namespace, reporter: Reporter) -> list[ClueSource]:
    """The chain of clue sources ``--clues`` and ``--clue-db`` name (warning of options that do
    nothing, and of WordNet missing)."""
    from ..clues.chain import clue_sources
    from ..clues.wordnet import wordnet_directory

    kind = getattr(args, "clues", "none")
    database = getattr(args, "clue_db", None)
    if database and kind != "db":
        reporter.warn(f"--clue-db is read by --clues db only (not --clues {kind})")
    if kind == "wordnet" and wordnet_directory() is None:
        reporter.warn("WordNet not found (install Debian's wordnet-base, or set WNSEARCHDIR)")
    return clue_sources(kind, database=database if kind == "db" else None)


def report_clues(report: ClueReport | None, reporter: Reporter, kept_from: str = "list") -> None:
    """Where the written puzzle's clues came from ("clues: 70 from the built-in source, 4 from
    your database"), and, as a warning, the answered entries left without one."""
    if report is None:
        return
    from ..clues.chain import SOURCE_NAMES

    for name, why in report.failed.items():
        reporter.warn(f"{SOURCE_NAMES.get(name, name)} gave no clues: {why}")
    summary = report.describe(kept_from)
    if summary:
        reporter.info(summary)
    if report.empty:
        reporter.warn(report.describe_empty())


#: How the summary line names the solvers that may have found or proved a fill (the backend's
#: own name otherwise).
PROVER_WORDS = {"branch-and-bound": "the branch and bound", "cpsat": "CP-SAT", "auto:cpsat": "CP-SAT (auto)"}


def report_fill(result: FillResult, reporter: Reporter) -> None:
    s = result.stats
    effort = f"{s.seconds:.2f} s, {s.nodes} nodes, {s.backtracks} backtracks, {s.restarts} restarts"
    if result.status.has_fill:
        extra = ""
        if result.bound is not None:
            extra = f", total {result.total_score} (bound {result.bound:g}, gap {result.gap:.2%})"
        weakest = ", ".join(f"{e.id} {e.answer} ({e.score})" for e in result.weakest())
        if result.floor is not None:
            proved = "proved the highest" if result.floor_proved else "not proved the highest"
            extra += f", weakest entry {result.floor} or more ({proved})"
        member = f" (portfolio member {result.member})" if result.member else ""
        who = PROVER_WORDS.get(result.backend, result.backend)
        how = f"proved optimal by {who}" if result.status == Status.OPTIMAL else f"{result.status.value} by {who}"
        reporter.info(
            f"{how}{member} in {effort}; "
            f"{len(result.entries)} entries, mean score {result.mean_score}{extra}; weakest: {weakest}"
        )
        if result.reason:  # what an optimisation could not prove, or traded for the total
            reporter.info(f"note: {result.reason}")
        if result.weak_spots is not None:
            spots = result.weak_spots
            reporter.info(f"weak spots: {', '.join(spots.entries)} scored under {spots.floor}; {spots.describe()}")
        if result.shared_roots:  # pairs the grid could not do without (csp_crossword.strategies.roots)
            answers = {e.id: e.answer for e in result.entries}
            pairs = "; ".join(f"{a} {answers.get(a, '')}, {b} {answers.get(b, '')}" for a, b in result.shared_roots)
            reporter.info(f"shared roots: {pairs}")
    elif result.status == Status.UNSATISFIABLE:
        member = f" (proved by portfolio member {result.member})" if result.member else ""
        where = f"; {result.weak_spots.describe()}" if result.weak_spots is not None else ""
        reporter.warn(f"unsatisfiable{member}: {result.reason}{where}")
    else:
        done = len(result.entries)
        reporter.warn(f"{result.status.value} after {effort}; best partial fill has {done} entries")
    if result.given:  # the user's own entries the list lacks (csp_crossword.api.givens)
        kept = ", ".join(f"{slot_id} {entry}" for slot_id, entry in result.given)
        reporter.info(f"given: {kept} (not in the word list: kept as written)")
    for slot_id, letters in result.rebus_first_letter:  # csp_crossword.api.rebus
        why = f"no entry of the word list spells the rebus {letters} there"
        reporter.warn(f"{slot_id}: {why}; read as its first letter")


__all__ = ["apply_clues", "cmd_fill", "report_clues", "report_fill"]
