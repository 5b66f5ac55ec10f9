"""``generate --style american``: an American-style pattern, theme entries first, then the
quality-first fill, with the blocks moved to where the fill gets stuck.

1. *Theme entries* (optional) go across first, longest first, in rows at least two apart, each
   with a block at both ends; an entry's symmetric partner slot takes the next entry of the same
   length when there is one (theme answers come in symmetric pairs), else any word.
2. *The pattern* is drawn around them (:mod:`.american_patterns`).
3. *The fill* is the quality-first fill (:func:`csp_crossword.strategies.quality.quality_first`, the ``ac``
   backend) within a budget of search nodes per pattern, :data:`FILL_NODES` growing by
   :data:`FILL_GROWTH`.
4. *Repair.* When arc consistency empties a slot, or the fill fails within its budget, the slots
   that caused it (the emptied slots; else the slots the search blamed most, its wipe-out counts,
   the same signal ``check`` seeds its unsatisfiable core with) are split by a block pair, and a
   pair far from them is taken out to keep the block count: the blocks move to the corner that will
   not fill. After :data:`REPAIRS` repairs the pattern is drawn anew.
5. *Polish.* A fill with entries under :data:`~csp_crossword.strategies.quality.ACCEPTABLE_SCORE`
   (or a shared-root pair it could not keep apart) is not final: the same repair moves blocks into
   their slots, and when a pattern's repairs are spent, up to :data:`POLISH_PATTERNS` more patterns
   are drawn. The best fill (fewest shared-root pairs, weakest entry, then the mean) is kept; the
   first fill without weak entries ends the job. Counted in patterns, not seconds, so the same seed
   makes the same grid at any load (the deadline permitting).

The whole job keeps one deadline; the best partial fill is returned when it passes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from ..backends.ac import ACBackend
from ..backends.base import MAX_SEED, ProgressCallback
from ..core.deadline import Deadline, StopSignal, expired
from ..core.glyphs import normalize_entry, split_glyphs
from ..core.grid import Grid, Slot
from ..core.result import FillResult, SearchStats, Status
from ..search.problem import FillOptions, build_problem
from ..strategies.quality import ACCEPTABLE_SCORE, quality_first
from ..strategies.roots import without_shared_roots
from ..words.lexicon import Lexicon
from .american_patterns import MIN_ENTRY, Cell, LayoutRuleError, Pattern, PatternRules, draw_pattern

#: Search nodes of the fill of the first pattern (the quality-first fill's stages and the search
#: below them; its improvements have their own budgets); each later pattern gets FILL_GROWTH
#: times more. Nodes, not seconds: the same seed gives the same grid at any machine load.
#: Measured (docs/benchmarks.md): 30,000 made a 15x15 with a 15-letter theme entry miss the
#: default 10 s (each failing pattern took too long), 10,000 made plain 15x15s draw more patterns
#: (seed 1: 9.6 s); 20,000 filled both sets of four seeds within 6 s.
FILL_NODES = 20_000
FILL_GROWTH = 1.5
#: Repairs of one pattern (blocks moved to its trouble spots) before a new one is drawn.
REPAIRS = 3
#: Trouble slots tried per repair, most blamed first.
TROUBLE_SLOTS = 4
#: Extra block pairs a repair may leave when no pair can be taken out elsewhere.
EXTRA_PAIRS = 2
#: Patterns drawn after the first one that filled, while the best fill still has entries under
#: ACCEPTABLE_SCORE (each with its REPAIRS). A themeless 15x15 (at most 68 entries) drawn with
#: seed 2 filled first with 18 entries under 30; docs/benchmarks.md has what this buys.
POLISH_PATTERNS = 4
#: Theme rows are at least this far apart (rows in between hold the crossings).
THEME_ROW_GAP = 2
#: Random placements of the theme entries tried before they are said not to fit.
THEME_TRIES = 50


@dataclass
class AmericanJob:
    """Outcome of an American-style generation: the grid and its fill, patterns drawn, repairs."""

    grid: Grid
    result: FillResult
    patterns_tried: int
    repairs: int
    theme: list[str]


def theme_cells(rules: PatternRules, entries: Sequence[str], rng: random.Random) -> tuple[dict[Cell, str], set[Cell]]:
    """Cells (with their glyphs) and end blocks of the theme entries, at random places that leave
    no run of 1-2 open cells; LayoutRuleError when THEME_TRIES placements all fail."""
    failure = LayoutRuleError("no theme entries")
    for _ in range(THEME_TRIES):
        try:
            letters, blocks = _place_theme(rules, entries, rng)
        except LayoutRuleError as error:
            failure = error
            continue
        if Pattern(rules, letters, blocks).feasible:
            return letters, blocks
        failure = LayoutRuleError("the theme entries leave cells that no entry of 3+ letters can cross")
    raise failure


def _place_theme(rules: PatternRules, entries: Sequence[str], rng: random.Random) -> tuple[dict[Cell, str], set[Cell]]:
    words = sorted((split_glyphs(normalize_entry(e)) for e in entries), key=len, reverse=True)
    letters: dict[Cell, str] = {}
    blocks: set[Cell] = set()
    used_rows: list[int] = []
    pattern = Pattern(rules)
    while words:
        glyphs = words.pop(0)
        partner = next((w for w in words if len(w) == len(glyphs)), None)
        places = _theme_places(rules, pattern, len(glyphs), used_rows, letters)
        if not places:
            raise LayoutRuleError(
                f"no room for theme entry {''.join(glyphs)} in a {rules.rows}x{rules.cols} grid with {rules.symmetry} "
                f"symmetry (theme rows at least {THEME_ROW_GAP} apart; an entry's mirror image may not overlap it)"
            )
        r, c = rng.choice(places)
        cells = [(r, c + k) for k in range(len(glyphs))]
        mirrored = [pattern.partner(i, j) for i, j in cells]
        mirrored.sort(key=lambda cell: cell[1])
        for cell, glyph in zip(cells, glyphs, strict=True):
            letters[cell] = glyph
        if partner is not None and mirrored != cells:
            words.remove(partner)
            for cell, glyph in zip(mirrored, partner, strict=True):
                letters[cell] = glyph
        for cell in (r, c - 1), (r, c + len(glyphs)):
            if 0 <= cell[1] < rules.cols:
                blocks.add(cell)
        used_rows += [r, mirrored[0][0]]
    return letters, blocks


def check_theme(rules: PatternRules, entries: Sequence[str], lexicon: Lexicon | None, allow_duplicates: bool) -> None:
    """LayoutRuleError for a theme entry no pattern can hold: too short or too long, given twice
    (unless repeats are allowed), or with a glyph no word of the list has (nothing could cross it;
    not checked without a ``lexicon``)."""
    seen: set[str] = set()
    for entry in entries:
        word = normalize_entry(entry)
        glyphs = split_glyphs(word)
        where = f"theme entry {entry.strip() or repr(entry)}"
        if len(glyphs) < MIN_ENTRY:
            raise LayoutRuleError(f"{where} has {len(glyphs)} letters; entries have at least {MIN_ENTRY}")
        if len(glyphs) > rules.cols:
            raise LayoutRuleError(f"{where} has {len(glyphs)} letters; the grid is {rules.cols} wide")
        if len(glyphs) > rules.max_run:
            raise LayoutRuleError(
                f"{where} has {len(glyphs)} letters, more than the longest entry allowed ({rules.max_run})"
            )
        if word in seen and not allow_duplicates:
            raise LayoutRuleError(f"{where} is given twice (allow repeated entries to use it twice)")
        seen.add(word)
        missing = [g for g in glyphs if lexicon is not None and g not in lexicon.alphabet]
        if missing:
            raise LayoutRuleError(f"{where}: no word of the list has {missing[0]!r}, so no entry could cross it")


def _theme_places(
    rules: PatternRules, pattern: Pattern, length: int, used_rows: list[int], letters: dict[Cell, str]
) -> list[Cell]:
    """Where an entry of ``length`` may start: rows clear of other themes, ends that leave runs of
    0 or 3+ cells, and a mirror image that does not overlap the entry unless it is the entry."""
    places = []
    for r in range(1, rules.rows - 1):
        if any(abs(r - u) < THEME_ROW_GAP for u in used_rows):
            continue
        for c in range(rules.cols - length + 1):
            # beyond the end blocks, a piece of 1-2 cells becomes blocks too (Pattern settles it)
            cells = {(r, c + k) for k in range(length)}
            mirrored = {pattern.partner(i, j) for i, j in cells}
            if mirrored & cells and mirrored != cells:
                continue
            if any(cell in letters for cell in cells | mirrored):
                continue
            places.append((r, c))
    return places


def reading_order(letters: dict[Cell, str], rtl: bool) -> dict[Cell, str]:
    """The theme cells as a grid read ``rtl`` shows them: theme entries are placed left to right,
    so in a right-to-left grid each one (a run of theme cells in a row; end blocks part them) is
    turned round, else its across slot would read it backwards."""
    if not rtl:
        return letters
    turned: dict[Cell, str] = {}
    for r, c in sorted(letters):
        if (r, c - 1) in letters:
            continue  # inside a run: done with its first cell
        run = [(r, c)]
        while (r, run[-1][1] + 1) in letters:
            run.append((r, run[-1][1] + 1))
        for cell, source in zip(run, reversed(run), strict=True):
            turned[cell] = letters[source]
    return turned


def _grid(pattern: Pattern, letters: dict[Cell, str], rtl: bool) -> Grid:
    return Grid(
        tuple(
            tuple(letters.get((r, c), "") if is_open else None for c, is_open in enumerate(row))
            for r, row in enumerate(pattern.open)
        ),
        rtl=rtl,
    )


def _theme_required(grid: Grid, letters: dict[Cell, str]) -> tuple[tuple[str, str], ...]:
    """Slot id -> theme word, for the across slots all of whose cells are theme cells."""
    return tuple(
        (slot.id, "".join(letters[cell] for cell in slot.cells))
        for slot in grid.slots
        if slot.direction == "across" and all(cell in letters for cell in slot.cells)
    )


def _repair(pattern: Pattern, slots: list[Slot], rng: random.Random, base_blocks: int) -> bool:
    """Split one of ``slots`` (in order) with a block pair, then take out a pair far from them to
    keep the block count; False when no slot can be split."""
    rules = pattern.rules
    trouble = {cell for slot in slots for cell in slot.cells}
    for slot in slots:
        middle = (slot.length - 1) / 2
        for k in sorted(range(slot.length), key=lambda k: (abs(k - middle), rng.random())):
            r, c = slot.cells[k]
            if not pattern.try_block(r, c):
                continue
            if pattern.word_count() > rules.max_words:
                pattern.clear_block(r, c)
                continue
            _take_out_far_pair(pattern, trouble, rng)
            if pattern.block_count() <= base_blocks + 2 * EXTRA_PAIRS:
                return True
            pattern.clear_block(r, c)
    return False


def _take_out_far_pair(pattern: Pattern, trouble: set[Cell], rng: random.Random) -> bool:
    """Remove the block pair farthest from ``trouble`` whose removal keeps every rule."""
    rules = pattern.rules

    def distance(cell: Cell) -> int:
        return min((abs(cell[0] - r) + abs(cell[1] - c) for r, c in trouble), default=0)

    blocks = [
        (r, c)
        for r, row in enumerate(pattern.open)
        for c, is_open in enumerate(row)
        if not is_open and (r, c) <= pattern.partner(r, c) and (r, c) not in pattern.fixed
    ]
    rng.shuffle(blocks)
    for r, c in sorted(blocks, key=distance, reverse=True):
        pattern.clear_block(r, c)
        if pattern.longest_run() <= rules.max_run and pattern.word_count() <= rules.max_words and pattern.valid():
            return True
        pattern.set_block(r, c)
    return False


@dataclass
class AmericanPattern:
    """A pattern without its fill: the grid (theme entries' letters in their cells, every other
    open cell empty; None when none was drawn in time), the draws made (each of up to
    PATTERN_TRIES attempts, the theme at a new place each time), the theme entries."""

    grid: Grid | None
    patterns_tried: int
    theme: list[str]


def american_pattern(
    rules: PatternRules,
    *,
    entries: Sequence[str] = (),
    seed: int = 0,
    rtl: bool = False,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> AmericanPattern:
    """The pattern :func:`generate_american` starts from with the same ``seed`` (steps 1 and 2 of
    the module docstring), for a constructor who fills it by hand. LayoutRuleError when the theme
    entries do not fit the grid; the entries are taken as given (:func:`check_theme` checks them
    against a word list)."""
    rng = random.Random(seed)
    tried = 0
    theme = [normalize_entry(e) for e in entries]
    while not expired(deadline, stop):
        letters, end_blocks = theme_cells(rules, entries, rng) if entries else ({}, set())
        letters = reading_order(letters, rtl)
        pattern = draw_pattern(rules, rng, keep_open=letters, blocks=end_blocks, deadline=deadline, stop=stop)
        tried += 1
        if pattern is not None:
            return AmericanPattern(_grid(pattern, letters, rtl), tried, theme)
        if not entries:
            break  # draw_pattern made its PATTERN_TRIES attempts already: the rules leave no room
    return AmericanPattern(None, tried, theme)


def generate_american(
    rules: PatternRules,
    lexicon: Lexicon,
    options: FillOptions,
    *,
    deadline: Deadline,
    seed: int = 0,
    entries: Sequence[str] = (),
    rtl: bool = False,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> AmericanJob:
    """Draw, fill and repair American-style patterns until one fills or the deadline passes
    (see the module docstring). LayoutRuleError when the theme entries do not fit the grid."""
    start = time.monotonic()
    rng = random.Random(seed)
    budget = float(FILL_NODES)
    tried = repairs = first_filled = 0
    best: tuple[Grid, FillResult] | None = None  # the partial fill with the most letters
    filled: tuple[Grid, FillResult] | None = None  # the best full fill
    check_theme(rules, entries, lexicon, options.allow_duplicates)
    theme = [normalize_entry(e) for e in entries]
    while not expired(deadline, stop):
        letters, end_blocks = theme_cells(rules, entries, rng) if entries else ({}, set())
        letters = reading_order(letters, rtl)
        pattern = draw_pattern(rules, rng, keep_open=letters, blocks=end_blocks, deadline=deadline, stop=stop)
        if pattern is None:
            if not expired(deadline, stop) and entries:
                continue  # another place for the theme
            break
        tried += 1
        base_blocks = pattern.block_count()
        for attempt in range(REPAIRS + 1):
            grid = _grid(pattern, letters, rtl)
            problem = build_problem(grid, lexicon, replace(options, required=_theme_required(grid, letters)))
            if problem.unsatisfiable:
                trouble = [slot_id for slot_id, _why in problem.empty]
                result = FillResult(Status.UNSATISFIABLE, "ac", reason=problem.empty[0][1])
            else:
                solver = ACBackend(seed=(seed + tried) % (MAX_SEED + 1))
                fill = partial(
                    quality_first,
                    solver=solver,
                    deadline=deadline,
                    stop=stop,
                    progress=progress,
                    node_limit=int(budget),
                )
                result = fill(problem)
                if result.status == Status.FILLED and not options.allow_shared_roots:
                    result = without_shared_roots(
                        problem,
                        result,
                        fill,
                        solver=solver,
                        deadline=deadline,
                        stop=stop,
                    )
                if result.status == Status.INTERRUPTED:
                    result.stats.seconds = time.monotonic() - start
                    return AmericanJob(grid, result, tried, repairs, theme)
                if result.status == Status.FILLED:
                    if filled is None or _quality(result) > _quality(filled[1]):
                        filled = grid, result
                    weak = _weak_entries(result)
                    if not weak:
                        return _finished(filled, start, tried, repairs, theme)
                    trouble = weak  # a fill, but with entries to avoid: move blocks there
                else:
                    trouble = sorted(result.blame, key=lambda slot_id: -result.blame[slot_id])
            if not result.status.has_fill and (best is None or _filled_cells(result) >= _filled_cells(best[1])):
                best = grid, result
            if attempt == REPAIRS or expired(deadline, stop):
                break
            slots = [grid.slot(slot_id) for slot_id in trouble[:TROUBLE_SLOTS]]
            if not _repair(pattern, slots, rng, base_blocks):
                break
            repairs += 1
        budget *= FILL_GROWTH
        if filled is None:
            first_filled = tried
        elif tried - first_filled >= POLISH_PATTERNS:
            return _finished(filled, start, tried, repairs, theme)
    if filled is not None:
        return _finished(filled, start, tried, repairs, theme)
    if best is None:
        empty = Grid(((None,) * rules.cols,) * rules.rows, rtl=rtl)
        return AmericanJob(
            empty,
            FillResult(Status.TIMEOUT, "ac", stats=SearchStats(seconds=time.monotonic() - start)),
            tried,
            repairs,
            theme,
        )
    grid, result = best
    # the layout is the product: a pattern whose fill got nowhere is still the best layout drawn
    result = replace(
        result,
        status=Status.TIMEOUT if result.status != Status.INTERRUPTED else result.status,
        cells=result.cells if result.cells is not None else grid.cells,
    )
    result.stats.seconds = time.monotonic() - start
    return AmericanJob(grid, result, tried, repairs, theme)


def _weak_entries(result: FillResult) -> list[str]:
    """Slot ids of the entries scored under ACCEPTABLE_SCORE, weakest first."""
    weak = [e for e in result.entries if e.score is not None and e.score < ACCEPTABLE_SCORE]
    # the weaker entry of a shared-root pair the fill could not keep apart: move blocks there too
    paired = [b for _a, b in result.shared_roots]
    return [e.id for e in sorted(weak, key=lambda e: e.score or 0)] + paired


def _quality(result: FillResult) -> tuple[int, int, float]:
    """Fewest shared-root pairs, the weakest entry's score, then the mean: how fills of different
    patterns compare."""
    scores = [e.score or 0 for e in result.entries]
    return -len(result.shared_roots), min(scores, default=0), sum(scores) / max(1, len(scores))


def _finished(filled: tuple[Grid, FillResult], start: float, tried: int, repairs: int, theme: list[str]) -> AmericanJob:
    grid, result = filled
    result.stats.seconds = time.monotonic() - start
    return AmericanJob(grid, result, tried, repairs, theme)


def _filled_cells(result: FillResult) -> int:
    return sum(1 for row in result.cells or () for v in row if v)
