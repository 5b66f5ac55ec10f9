"""The library API, part 5: crosswords without a given pattern (generate, freeform)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal
from ..core.errors import InputError
from ..verify.fill import pattern_problems, verify_fill
from ..words.lexicon import Lexicon
from ..words.ngrams import check_run_length
from ..words.word_index import DEFAULT_SCORE
from .inputs import Words, as_lexicon, checked_spelling, job_deadline
from .jobs import WrongFillError

if TYPE_CHECKING:
    from ..backends.base import ProgressCallback
    from ..clues.sources import ClueSource
    from ..layout.american import AmericanPattern
    from ..layout.freeform import FreeformResult
    from ..layout.generate import Generated
    from ..layout.progressive import ProgressiveOptions

#: Seconds :func:`american_pattern` draws for when no time limit is given (a 15x15 draws in well
#: under a second; 25x25 with theme entries in about one).
PATTERN_SECONDS = 5.0


def generate(
    rows: int,
    cols: int,
    words: Words = None,
    *,
    lang: str = "en",
    numeric: bool = False,
    min_score: int | None = None,
    max_run: int | None = None,
    symmetric: bool = False,
    method: str = "auto",
    allow_duplicates: bool = False,
    time_limit: float = 10.0,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    no_shared_substring: int | None = None,
    style: str = "open",
    blocks: int | None = None,
    max_words: int | None = None,
    symmetry: str = "rotational",
    entries: Iterable[str] = (),
    progressive: ProgressiveOptions | Mapping[str, Any] | None = None,
    clued_by: Sequence[ClueSource] | None = None,
    spelling: str = "auto",
    allow_shared_roots: bool = False,
) -> Generated:
    """Choose the blocks of a ``rows`` x ``cols`` grid and fill it (``numeric``: a products
    crossword of digits). The fill is verified; the time limit holds for the whole job.
    ``no_shared_substring`` N: no two entries share a run of N glyphs.

    ``style="american"``: a newspaper pattern (180-degree symmetric or ``symmetry="mirror"``,
    every cell checked, entries of 3+ letters, no 3x3 of blocks), about ``blocks`` blocks (default
    16% of the cells), at most ``max_words`` entries (default 78 per 225 cells), no entry longer
    than ``max_run`` (default 15), theme ``entries`` placed first, filled with the quality-first
    fill. ``style="open"`` (the default here): any blocks, by ``method``, ``symmetric`` blocks
    optional (see :mod:`csp_crossword.layout.generate`). ``progressive``: the progressive search's
    options (:class:`~csp_crossword.layout.progressive.ProgressiveOptions` or a dict of its
    fields: ``start``, ``queue_size``, ``neighbours``, ``threshold``, ``scrambled_weight``), for
    ``method`` ``progressive`` or ``auto`` of the open style. ``clued_by``: clue sources (as
    :func:`~csp_crossword.clues.chain.clue_sources` gives them); the fill then uses only entries
    that the word list or one of them clues, so the puzzle made has every clue. ``spelling``: the
    built-in list's (``auto``: ``us`` for English, see :func:`~csp_crossword.api.load_words`).
    ``allow_shared_roots``: let two entries share a root (kept apart by default). The built-in
    list's first use on a machine builds its ready index within the time limit: when the limit
    passes first, the result is a timeout whose ``reason`` says so (the index is finished in the
    background for the next call)."""
    from ..core.limits import layout_size
    from ..layout.american_patterns import LayoutRuleError
    from ..layout.generate import generate as run_generate

    rows, cols = layout_size((rows, cols))
    options = progressive_options(progressive)
    if options is not None and (style != "open" or method == "csp"):
        raise InputError("progressive options apply to the open style's progressive and auto methods only")
    deadline = job_deadline(time_limit, deadline, stop)
    if no_shared_substring is not None:
        try:
            check_run_length(no_shared_substring)
        except ValueError as error:
            raise InputError(str(error)) from None
    if numeric:
        from ..words.numeric import products_lexicon

        lexicon = products_lexicon()
    else:
        kept = checked_spelling(spelling)
        kept = ("us" if lang == "en" else "any") if kept == "auto" else kept
        if words is None:  # the built-in list: its first use builds the ready index within the limit
            late = _index_not_ready(rows, cols, lang, kept, deadline, style, method)
            if late is not None:
                return late
        lexicon = as_lexicon(words, lang=lang, spelling=kept)
    if min_score is not None:
        lexicon = lexicon.filtered(min_score=min_score)
    if clued_by is not None:
        from ..clues.chain import clued_lexicon

        lexicon = clued_lexicon(lexicon, clued_by)
    try:
        made = run_generate(
            rows,
            cols,
            lexicon,
            max_run=max_run,
            symmetric=symmetric,
            time_limit=time_limit,
            deadline=deadline,
            seed=seed,
            method=method,
            rtl=lang == "ar",
            allow_duplicates=allow_duplicates,
            stop=stop,
            progress=progress,
            no_shared_substring=no_shared_substring,
            style=style,
            blocks=blocks,
            max_words=max_words,
            symmetry=symmetry,
            entries=list(entries),
            progressive=options,
            allow_shared_roots=allow_shared_roots,
        )
    except LayoutRuleError as error:  # the american style's rules or theme entries cannot be met
        raise InputError(str(error)) from None
    result = made.result
    if result.status.has_fill and result.cells is not None:
        problems = verify_fill(
            made.grid,
            result.cells,
            lexicon,
            allow_duplicates=allow_duplicates,
            extra_words=made.theme,
            no_shared_substring=no_shared_substring,
        )
        rules = made.rules
        if rules is not None:  # an American-style pattern keeps the newspaper rules too
            problems += pattern_problems(
                made.grid.cells, symmetry=rules.symmetry, max_words=rules.max_words, max_run=rules.max_run
            )
        if problems:
            raise WrongFillError(f"generate produced an invalid fill: {problems[0]}")
    return made


def _index_not_ready(
    rows: int, cols: int, lang: str, spelling: str, deadline: Deadline, style: str, method: str
) -> Generated | None:
    """A timed-out generation, its reason said, when the built-in list's ready index (built on
    its first use on this machine) is not ready by ``deadline``; None once it is ready."""
    from ..core.grid import Grid
    from ..core.result import FillResult, Status
    from ..layout.generate import Generated
    from ..words.builtin import prepare_builtin
    from ..words.index_build import IndexTimeout

    try:
        prepare_builtin(lang, spelling, deadline)
    except ValueError:
        return None  # no such list: loading it says so
    except IndexTimeout as late:
        empty = Grid(((None,) * cols,) * rows, rtl=lang == "ar")
        made_by = "american" if style == "american" else "progressive" if method == "progressive" else "csp"
        return Generated(empty, FillResult(Status.TIMEOUT, "ac", reason=str(late)), made_by)
    return None


def progressive_options(given: ProgressiveOptions | Mapping[str, Any] | None) -> ProgressiveOptions | None:
    """The progressive search's options from a ProgressiveOptions or a dict of its fields (None
    stays None); InputError naming the option that is unknown or out of bounds.

    >>> progressive_options({"queue_size": 8, "start": "fill2"}).queue_size
    8
    """
    from ..layout.progressive import ProgressiveOptions

    if given is None:
        return None
    if isinstance(given, Mapping):
        unknown = sorted(set(given) - set(ProgressiveOptions.names()))
        if unknown:
            raise InputError(
                f"unknown progressive option {unknown[0]!r} (the options: {', '.join(ProgressiveOptions.names())})"
            )
        given = ProgressiveOptions(**given)
    try:
        return given.check()
    except ValueError as error:
        raise InputError(str(error)) from None


def american_pattern(
    rows: int,
    cols: int,
    words: Words = None,
    *,
    lang: str = "en",
    blocks: int | None = None,
    max_words: int | None = None,
    max_run: int | None = None,
    symmetry: str = "rotational",
    entries: Iterable[str] = (),
    allow_duplicates: bool = False,
    rtl: bool | None = None,
    time_limit: float = PATTERN_SECONDS,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
) -> AmericanPattern:
    """An American-style pattern without its fill: the blocks of ``generate(style="american")``
    (same rules and defaults, the same pattern its fill starts from for the same ``seed``), the
    theme ``entries`` in their cells and every other open cell empty, for filling by hand.

    ``words`` (optional; None here means no list, not the built-in one): when given, a theme
    entry with a glyph no word has is an InputError, and with ``max_run`` None no entry is longer
    than the longest word, as in :func:`generate`. A theme entry too long or short for the rules,
    or given twice without ``allow_duplicates``, is an InputError either way. ``rtl`` None: right
    to left for ``lang`` ar.
    The result's ``grid`` is None when no pattern was drawn within the time limit; a drawn one is
    verified (every rule of ``pattern_problems``, every theme entry in an across slot)."""
    from ..core.limits import layout_size
    from ..layout.american import american_pattern as draw_american
    from ..layout.american import check_theme
    from ..layout.american_patterns import MIN_ENTRY, LayoutRuleError, PatternRules

    rows, cols = layout_size((rows, cols))
    deadline = job_deadline(time_limit, deadline, stop)
    listed = list(entries)
    try:
        rules = PatternRules.for_size(
            rows, cols, blocks=blocks, max_words=max_words, max_run=max_run, symmetry=symmetry
        )
        lexicon = None if words is None else as_lexicon(words, lang=lang)
        if lexicon is not None:
            longest = max((n for n in lexicon.by_length if n >= MIN_ENTRY), default=0)
            if max_run is None and longest:
                rules = replace(rules, max_run=min(rules.max_run, longest))
        check_theme(rules, listed, lexicon, allow_duplicates)
        made = draw_american(
            rules, entries=listed, seed=seed, rtl=lang == "ar" if rtl is None else rtl, deadline=deadline, stop=stop
        )
    except LayoutRuleError as error:
        raise InputError(str(error)) from None
    if made.grid is not None:
        problems = pattern_problems(
            made.grid.cells, symmetry=rules.symmetry, max_words=rules.max_words, max_run=rules.max_run
        )
        across = Counter(
            "".join(made.grid.cells[r][c] or "" for r, c in slot.cells)
            for slot in made.grid.slots
            if slot.direction == "across"
        )
        missing = Counter(made.theme) - across
        problems += [f"theme entry {entry} is not in an across slot" for entry in missing]
        if problems:
            raise WrongFillError(f"american_pattern produced a wrong pattern: {problems[0]}")
    return made


def is_rtl(words: Iterable[str]) -> bool:
    """Whether every word starts in a right-to-left script (Arabic, Hebrew, ...).

    >>> is_rtl(["سلام", "كتاب"]), is_rtl(["سلام", "CAT"])
    (True, False)
    """
    import unicodedata

    listed = list(words)
    return bool(listed) and all(unicodedata.bidirectional(w[0]) in ("R", "AL") for w in listed)


def freeform_words(words: Lexicon | Iterable[str], *, pick: int | None = None, seed: int = 0) -> list[str]:
    """The words a freeform board lays out: each as often as its list gives it, or a random
    ``pick`` of them (chosen by ``seed``). A word longer than a freeform board takes is an
    InputError, whether picked or not (``layout.freeform.MAX_FREEFORM_WORD_GLYPHS``)."""
    from ..layout.freeform import check_word_lengths

    lexicon = words if isinstance(words, Lexicon) else Lexicon.from_words(list(words))
    check_word_lengths(lexicon.scores)
    chosen = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    if pick is not None:
        if pick < 1:
            raise InputError("pick must be 1 or more")
        if pick < len(chosen):
            chosen = random.Random(seed).sample(chosen, pick)
    if not chosen:
        raise InputError("the word list has no words")
    return chosen


def freeform(
    words: Lexicon | Iterable[str],
    *,
    rows: int | None = None,
    cols: int | None = None,
    pick: int | None = None,
    target: int | None = None,
    symmetric: bool = False,
    allow_islands: bool = False,
    rtl: bool | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    max_side: int | None = None,
) -> FreeformResult:
    """Lay ``words`` out as a freeform crossword (no given pattern); the board is verified.

    ``max_side``: without ``rows`` and ``cols``, the board grows to at most this many cells a side
    (default ``layout.freeform.MAX_BOARD_SIDE``); a front end that edits boards of a bounded size
    (the web page: 25) gives its bound.

    ``target`` N: boards stop growing at N words and the search stops at the first board that has
    them (for a list larger than the board holds: a board of about N words, the densest found).

    ``rtl`` None: right to left when every word is in a right-to-left script. ``progress`` is
    called now and then with a :class:`SearchStats` of phase ``layout`` whose ``nodes`` are the
    boards built so far.
    """
    from ..core.limits import layout_size
    from ..core.result import SearchStats
    from ..layout.freeform import DEFAULT_SECONDS, MAX_BOARD_SIDE, Freeform

    if target is not None and target < 1:
        raise InputError("target must be 1 or more")
    if max_side is not None and not (isinstance(max_side, int) and 2 <= max_side <= MAX_BOARD_SIDE):
        raise InputError(f"max_side must be a whole number from 2 to {MAX_BOARD_SIDE}, not {max_side!r}")
    if rows is not None or cols is not None:
        rows, cols = layout_size((rows, cols))
        if symmetric and rows % 2 == 0 and cols % 2 == 0:
            # a symmetric board is centred on a middle row or column: both even leave none
            raise InputError(f"a symmetric {rows}x{cols} board needs an odd number of rows or of columns")
    deadline = job_deadline(DEFAULT_SECONDS if time_limit is None else time_limit, deadline, stop)
    chosen = freeform_words(words, pick=pick, seed=seed)
    rtl = is_rtl(chosen) if rtl is None else rtl
    engine = Freeform(
        chosen,
        rows=rows,
        cols=cols,
        allow_islands=allow_islands,
        symmetric=symmetric,
        rtl=rtl,
        deadline=deadline,
        stop=stop,
        max_side=MAX_BOARD_SIDE if max_side is None else max_side,
    )
    started = time.monotonic()

    def report(boards: int, _placed: int) -> None:
        # the engine counts boards; every job's progress is a SearchStats
        if progress is not None:
            progress(SearchStats(nodes=boards, seconds=time.monotonic() - started, phase="layout"))

    result = engine.run(
        None,
        seed,
        deadline=deadline,
        stop=stop,
        progress=None if progress is None else report,
        target=target,
        # the search's budget in steps comes from the limit asked, not the time left after loading
        budget_seconds=DEFAULT_SECONDS if time_limit is None else time_limit,
    )
    listed = Lexicon(dict.fromkeys(chosen, DEFAULT_SCORE))  # already entries: no need to normalise again
    problems = verify_fill(result.grid, result.cells, listed, exact_uses=Counter(result.placed))
    if not allow_islands and result.placed and not result.grid.stats().connected:
        problems.append("the board is not one connected piece")
    if problems:
        raise WrongFillError(f"freeform produced an invalid board: {problems[0]}")
    return result
