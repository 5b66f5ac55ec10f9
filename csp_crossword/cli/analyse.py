"""``check``, ``slots`` and ``candidates``: what a grid allows before (or instead of) a fill."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .. import api
from ..core.errors import ExitCode, InputError
from ..core.result import MISMATCH_PREFIX
from ..formats.documents import candidates_to_dict, check_to_dict, result_to_text, slots_to_dict, to_json
from .common import Reporter, fill_settings, grid_job, open_grid
from .word_lists import load_words

if TYPE_CHECKING:
    from ..analysis.checking import CheckReport
    from ..core.grid import Grid, GridStats

#: ``check`` status -> exit code.
EXIT_BY_CHECK = {"solvable": ExitCode.OK, "unsolvable": ExitCode.UNSATISFIABLE}


def cmd_check(args: argparse.Namespace, reporter: Reporter) -> int:
    job = grid_job(args, reporter, note_regions=False)  # check lists the regions itself
    grid_file = job.grid_file
    report = api.check(job.grid, job.lexicon, min_length=args.min_length, **job.keywords)
    reporter.stop()  # the live progress line goes before the result
    if args.format == "json":
        sys.stdout.write(to_json(check_to_dict(report)))
    else:
        sys.stdout.write("\n".join(_check_lines(grid_file, report)) + "\n")
    if report.interrupted:
        return ExitCode.INTERRUPTED  # the CLI turns it into SIGTERM's or SIGHUP's code when one came
    return EXIT_BY_CHECK.get(report.status, ExitCode.TIMEOUT)


def _check_lines(grid_file: api.GridFile, report: CheckReport) -> list[str]:
    s = report.structure
    lines = [report.status]
    if s["missing_lengths"]:
        lines.append(f"slot lengths without any word in the list: {', '.join(map(str, s['missing_lengths']))}")
    else:
        lines.append("every slot length has words in the list")
    for row in s["lengths"]:
        listed = f" (of {row['listed']} listed)" if "listed" in row else ""
        lines.append(f"  length {row['length']:>2}: {row['slots']:>3} slots, {row['words']:>7} words{listed}")
    if s["short_slots"]:
        lines.append(f"entries shorter than {s['min_length']}: {', '.join(s['short_slots'])}")
    if len(s["components"]) > 1:
        lines.append(f"{len(s['components'])} separate regions: " + " | ".join(" ".join(p) for p in s["components"]))
    lines.append(f"symmetry: {', '.join(s['symmetry'])}; unchecked cells: {s['unchecked_cells']}")
    if report.witness is not None:
        lines.append("")
        lines.append(result_to_text(grid_file.grid, report.witness, grid_file.block, grid_file.empty).rstrip("\n"))
    if report.status == "unsolvable":
        for slot_id, why in report.empty:
            if slot_id.startswith(MISMATCH_PREFIX):
                lines.append(f"cannot place every word of {slot_id}: {why}")
            else:
                lines.append(f"no candidate for {slot_id}: {why}")
        if report.core and len(report.core) == len(grid_file.grid.slots) and not report.core_minimal:
            lines.append(
                "no set of slots smaller than the whole grid was proved unfillable in time: "
                "the clash may span the whole grid"
            )
            lines += _trouble_lines(report)
            lines.append(
                f"proved in {report.proof_seconds:.1f} s; {report.core_tests} tests in {report.core_seconds:.1f} s"
            )
        elif report.core:
            kind = "minimal: every one is needed" if report.core_minimal else "not proved minimal"
            if len(report.core) == 1:
                lines.append(f"this slot cannot be filled ({kind}):")
            else:
                lines.append(f"these {len(report.core)} slots cannot be filled together ({kind}):")
            for slot_id in report.core:
                lines.append(f"  {slot_id:>5}  {report.patterns[slot_id]}")
            lines += ["where they are (* a cell of these slots):", *_core_map(grid_file.grid, report.core)]
            lines.append(
                f"proved in {report.proof_seconds:.1f} s; the slots found in {report.core_seconds:.1f} s "
                f"({report.core_tests} tests)"
            )
        elif report.reason:
            lines.append(report.reason)
            lines += _trouble_lines(report)
        if report.filter_is_cause:
            lines.append("without --min-score and --ban the grid can be filled: the threshold is the cause")
        elif report.filter_is_cause is False:
            lines.append("the grid cannot be filled even without --min-score and --ban")
    elif report.status == "unknown":
        lines.append(report.reason or "unknown")
        lines += _trouble_lines(report)
    return lines


def _core_map(grid: Grid, core: list[str]) -> list[str]:
    """The grid with the core's cells starred: the corner to rework, at a glance."""
    starred = {cell for slot_id in core for cell in grid.slot(slot_id).cells}
    rows = []
    for r in range(grid.rows):
        marks = ["#" if grid.is_block(r, c) else "*" if (r, c) in starred else "." for c in range(grid.cols)]
        rows.append("  " + " ".join(marks))  # cells are kept as drawn, also right to left
    return rows


def _trouble_lines(report: CheckReport) -> list[str]:
    if not report.trouble:
        return []
    lines = ["trouble spots (where the search failed most; rework these first):"]
    for slot_id, candidates, conflicts in report.trouble:
        lines.append(f"  {slot_id:>5}  {candidates:>7,} candidates, {conflicts:>7,.0f} conflicts")
    return lines


def cmd_slots(args: argparse.Namespace, reporter: Reporter) -> int:
    grid = open_grid(args).grid
    stats = grid.stats()
    if args.format == "json":
        sys.stdout.write(to_json(slots_to_dict(grid, stats)))
        return ExitCode.OK
    lines = [f"{'slot':>6}  {'len':>3}  {'row':>3} {'col':>3}  pattern"]
    for slot in grid.slots:
        r, c = slot.start
        lines.append(f"{slot.id:>6}  {slot.length:>3}  {r + 1:>3} {c + 1:>3}  {grid.pattern_text(slot)}")
    lines += ["", *stats_lines(stats)]
    sys.stdout.write("\n".join(lines) + "\n")
    return ExitCode.OK


def stats_lines(stats: GridStats) -> list[str]:
    hist = ", ".join(f"{k}:{v}" for k, v in stats.length_histogram.items())
    return [
        f"size {stats.rows}x{stats.cols}, {stats.blocks} blocks, {stats.open_cells} open cells "
        f"({stats.prefilled_cells} pre-filled)",
        f"{stats.slots} slots ({stats.across_slots} across, {stats.down_slots} down), "
        f"average length {stats.average_length}; lengths {hist}",
        f"unchecked cells {stats.unchecked_cells}, isolated cells {stats.isolated_cells}, "
        f"{'connected' if stats.connected else f'{stats.components} separate regions'}, "
        f"symmetry: {', '.join(stats.symmetries) or 'none'}",
    ]


def cmd_candidates(args: argparse.Namespace, reporter: Reporter) -> int:
    if args.limit < 0:
        raise InputError("--limit must be 0 or more")
    grid_file = open_grid(args)
    lexicon = load_words(args, reporter, grid_file)
    settings = fill_settings(args, grid_file)
    try:
        grid_file.grid.slot(args.slot)
    except KeyError:
        raise InputError(
            f"the grid has no slot {args.slot.strip().upper()!r} (see 'csp-crossword slots')", args.grid
        ) from None
    if args.viable_only and not args.lookahead:
        raise InputError("--viable-only needs the look-ahead: leave out --no-lookahead")
    if args.check_time is not None and not args.check_time >= 0:
        raise InputError("--check-time must be 0 seconds or more")
    found = api.candidates(
        grid_file.grid,
        args.slot,
        lexicon,
        limit=args.limit,
        lookahead=args.lookahead,
        viable_only=args.viable_only,
        check_seconds=args.check_time,
        **settings,
    )
    slot = found.slot
    if found.unsatisfiable is not None:
        if args.format == "json":
            document = {"slot": slot.id, "status": "unsatisfiable", "reason": found.unsatisfiable, "candidates": []}
            sys.stdout.write(to_json(document))
        reporter.warn(f"no candidates: the grid cannot be filled ({found.unsatisfiable})")
        return ExitCode.UNSATISFIABLE
    if args.format == "json":
        sys.stdout.write(to_json(candidates_to_dict(found)))
    else:
        sys.stdout.write("\n".join(_candidate_lines(found, args.lookahead)) + "\n")
    return ExitCode.OK


#: ``candidates`` text output: the mark of each look-ahead status.
CANDIDATE_MARKS = {"viable": "ok", "dead_end": "dead", "unknown": "?"}


def _counted(n: int, noun: str) -> str:
    """``1 dead end``, ``2 dead ends``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _candidate_lines(found: api.Candidates, lookahead: bool) -> list[str]:
    """A header with the totals, then per word: rank, mark, word, score and the words each
    crossing keeps (a dead end also names the slot it leaves without a word)."""
    head = f"{found.slot.id} {found.pattern}: {_counted(found.total, 'candidate')}"
    if lookahead:
        head += (
            f"; {found.examined:,} checked: {found.viable:,} ok, {_counted(found.dead_ends, 'dead end')}, "
            f"{found.unknown:,} unchecked (?)"
        )
        if found.viable_only:
            head += "; dead ends not listed"
        if found.budget_spent:
            head += "; the check time ran out (--check-time)"
    lines = [head]
    width = max((len(word) for word, _shown, _score in found.words), default=0)
    score_width = max((len(str(score)) for _word, _shown, score in found.words), default=0)
    for i, ((word, _shown, score), status, kept, emptied) in enumerate(
        zip(found.words, found.statuses, found.crossings, found.emptied, strict=True), 1
    ):
        counts = " ".join(f"{slot_id}:{n:,}" for slot_id, n in kept.items())
        if emptied is not None:
            counts += f"  (leaves {emptied} without a word)"
        line = f"{i:>5}. {CANDIDATE_MARKS[status]:<4}  {word:<{width}}  {score:>{score_width}}  {counts}"
        lines.append(line.rstrip())
    return lines
