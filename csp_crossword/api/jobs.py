"""The library API, part 2: a fill job prepared — its options checked, its word list filtered,
its problem built, and every answer of it verified."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..backends import DEFAULT as DEFAULT_BACKEND
from ..backends import Backend, get_backend, names
from ..core.deadline import Deadline
from ..core.errors import InputError
from ..core.glyphs import is_cell_glyph, normalize_entry, split_glyphs
from ..core.grid import Grid, Slot
from ..core.result import FillResult
from ..search.problem import FillOptions, FillProblem, RebusRules, build_problem
from ..verify.fill import verify_fill
from ..words.lexicon import Lexicon
from ..words.ngrams import check_run_length
from .givens import Placement, entries_outside, place_entries
from .inputs import GridLike, Words, as_grid, as_lexicon, resolve_spelling
from .rebus import RebusReading, read_rebus, rebus_cells

if TYPE_CHECKING:
    from ..backends.base import Cells


class WrongFillError(RuntimeError):
    """A backend produced a fill the independent verifier rejects: a bug, never a result."""


def fill_options(
    grid: Grid,
    *,
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
    no_shared_substring: int | None = None,
    allow_shared_roots: bool = False,
    rebus: RebusRules | None = None,
) -> FillOptions:
    """The fill options, checked against the grid (InputError for a slot it does not have)."""
    if min_score is not None and min_score < 0:
        raise InputError("min_score must be 0 or more")
    if no_shared_substring is not None:
        try:
            check_run_length(no_shared_substring)
        except ValueError as error:
            raise InputError(str(error)) from None
    pairs = list(require.items()) if isinstance(require, Mapping) else list(require or [])
    required: list[tuple[str, str]] = []
    for slot_id, word in pairs:
        if not str(slot_id).strip() or not str(word).strip():
            raise InputError(f"required entry {slot_id}={word}: give a slot id and a word, e.g. 1A=CROSSWORD")
        try:
            slot = grid.slot(slot_id)
        except KeyError:
            raise InputError(f"the grid has no slot {slot_id.strip().upper()}", grid.source) from None
        _check_required(grid, slot, word, required)
        required.append((slot.id, word.strip()))
    return FillOptions(
        allow_duplicates=allow_duplicates,
        min_score=min_score,
        banned=frozenset(ban),
        required=tuple(required),
        exact=exact,
        no_shared_substring=no_shared_substring,
        allow_shared_roots=allow_shared_roots,
        rebus=rebus,
    )


def _check_required(grid: Grid, slot: Slot, word: str, earlier: list[tuple[str, str]]) -> None:
    """A required word must be glyphs that can fill cells, as many as the slot has, agreeing with
    the slot's given glyphs and with any earlier requirement for the same slot."""
    glyphs = split_glyphs(normalize_entry(word))
    where = f"required entry {slot.id}={word}"
    bad = [g for g in glyphs if not is_cell_glyph(g)]
    if bad:
        raise InputError(f"{where}: {bad[0]!r} cannot fill a cell (letters and digits only)")
    if len(glyphs) != slot.length:
        raise InputError(f"{where}: {len(glyphs)} letters for a slot of {slot.length}")
    pattern = grid.pattern(slot)
    if any(given and given != g for given, g in zip(pattern, glyphs, strict=True)):
        raise InputError(f"{where}: clashes with the given letters {grid.pattern_text(slot)}")
    for other_id, other in earlier:
        if other_id == slot.id and normalize_entry(other) != normalize_entry(word):
            raise InputError(f"{where}: {slot.id} is already required to be {other}")


def make_backend(
    name: str = DEFAULT_BACKEND,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    job: str = "fill",
    optimize: bool = False,
) -> Backend:
    """The backend registered as ``name``, able to do ``job``, with its options checked."""
    cls = get_backend(name)
    if not cls.available():
        raise InputError(f"backend {name} is not available here (see 'csp-crossword backends')")
    if job not in cls.supports:
        able = [n for n in names() if job in get_backend(n).supports]
        raise InputError(f"backend {name} cannot {job}; use one of: {', '.join(able)}")
    values = dict(options or {})
    if optimize:
        if "optimize" not in cls.supports:
            able = [n for n in names() if "optimize" in get_backend(n).supports]
            raise InputError(f"backend {name} cannot optimise; use one of: {', '.join(able)}")
        values["optimize"] = True
    return cls(values, seed=seed)


@dataclass(frozen=True)
class FillJob:
    """A grid, its word list and the options, compiled into a problem once."""

    grid: Grid
    lexicon: Lexicon
    problem: FillProblem
    #: Slot id -> entry: complete entries of the grid the list lacks, kept as given
    #: (:mod:`.givens`).
    given: Mapping[str, str] = field(default_factory=dict)
    #: How the grid's rebus cells are read (None: it has none); the answers are read back with it.
    rebus: RebusReading | None = None

    def verify(self, cells: Cells) -> list[str]:
        """The independent verifier's complaints about a fill of this problem (empty: valid)."""
        problem = self.problem
        misread = []
        if self.rebus is not None:  # the fill as the user's grid reads it, rebus letters and all
            kept = [slot_id for slot_id, _word in problem.options.required]
            repeats = problem.options.allow_duplicates
            misread = self.rebus.stray(self.grid, cells)
            misread += self.rebus.misread(self.grid, cells, problem.lexicon, kept=kept, repeats=repeats)
        return misread + verify_fill(
            self.grid,
            cells,
            problem.lexicon,
            allow_duplicates=problem.options.allow_duplicates,
            extra_words=problem.extra_words,
            exact_uses=problem.word_uses if problem.options.exact else None,
            no_shared_substring=problem.options.no_shared_substring,
        )

    def checked(self, result: FillResult) -> FillResult:
        """``result``, after the verifier accepted its fill (WrongFillError otherwise)."""
        if result.status.has_fill and result.cells is not None:
            problems = self.verify(result.cells)
            if problems:
                raise WrongFillError(f"backend {result.backend} returned an invalid fill: {problems[0]}")
        if self.given:
            result = replace(result, given=list(self.given.items()))
        return self.rebus.result(result) if self.rebus is not None else result


def _users_words(grid: Grid, rebus: RebusReading, requested: Sequence[tuple[Any, Any]]) -> dict[str, str]:
    """The list words the user's own entries use (required, and typed in full), as read, with
    the slot of each: no other slot through a rebus spells them. InputError when two of them, one through a rebus,
    use the same word (two plain ones are the fill's no-repeat rule's, as on any grid)."""
    entries: dict[str, str] = {}
    for slot_id, word in requested:
        if isinstance(slot_id, str) and isinstance(word, str) and slot_id.strip().upper() in grid.pattern_texts:
            entries[slot_id.strip().upper()] = normalize_entry(word)
    for slot in grid.slots:
        pattern = grid.pattern_text(slot)
        if "?" not in pattern:
            entries.setdefault(slot.id, pattern)
    owner: dict[str, str] = {}
    for slot_id, entry in entries.items():
        word = rebus.used_word(slot_id, entry)
        first = owner.setdefault(word, slot_id)
        if first != slot_id and any(rebus.through(grid, other) for other in (first, slot_id)):
            raise InputError(f"{first} and {slot_id} both hold {word}: an entry is used once (or allow duplicates)")
    return owner


def _written_with_stand_ins(grid: Grid, rebus: RebusReading, slot_id: object, word: object) -> object:
    """``word`` required of ``slot_id`` written with the rebus stand-ins (unchanged when the
    slot is not the grid's or the word not text: :func:`fill_options` says what is wrong)."""
    if not isinstance(slot_id, str) or not isinstance(word, str):
        return word
    try:
        return rebus.entry(grid.slot(slot_id), word)
    except KeyError:
        return word


#: Fill strategies, the default first (see :func:`fill`).
STRATEGIES = ("quality", "plain")


def prepare(
    grid: GridLike,
    words: Words = None,
    *,
    lang: str = "en",
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
    no_shared_substring: int | None = None,
    deadline: Deadline = None,
    spelling: str = "auto",
    allow_shared_roots: bool = False,
    keep_given: bool = True,
    theme: Iterable[Placement] = (),
) -> FillJob:
    """Grid + word list + options -> the arc-consistent problem every job starts from.

    ``no_shared_substring`` N: no two entries share a run of N or more consecutive glyphs.
    ``spelling`` (``auto``, ``us``, ``uk``, ``any``): the spelling the built-in list keeps to when
    ``words`` is None (:func:`~csp_crossword.api.inputs.resolve_spelling`: ``auto`` is ``us`` for
    an American-style English grid). ``allow_shared_roots``: let two entries share a root (a fill
    keeps them apart by default, :mod:`csp_crossword.strategies.roots`).
    ``theme``: entries placed by position before anything else (:class:`.givens.Placement`,
    :func:`.givens.place_entries`: InputError when one does not fit).
    ``keep_given`` (default): complete entries of the grid the list lacks (a theme entry typed in)
    are kept as given, required in their slots (:mod:`.givens`), never a reason for
    "unsatisfiable"; the job's ``given`` names them. Not for a fill-in puzzle (``exact``).
    ``deadline``: :class:`~csp_crossword.core.errors.BuildTimeout` when it passes while the
    problem is made arc consistent."""
    grid = place_entries(as_grid(grid, rtl=lang == "ar"), theme)
    spelling = resolve_spelling(spelling, grid, lang, own_list=words is not None)
    lexicon = as_lexicon(words, lang=lang, spelling=spelling, deadline=deadline)
    rebus = None
    if rebus_cells(grid):
        if exact:  # a fill-in puzzle's words are placed one glyph a cell, as often as listed
            raise InputError("a fill-in puzzle's grid cannot hold a rebus cell (several letters in one cell)")
        if no_shared_substring is not None:
            raise InputError("--no-shared-substring is not available on a grid with a rebus cell")
        grid, lexicon, rebus = read_rebus(grid, lexicon, min_score=min_score, ban=ban, repeats=allow_duplicates)
    given = {} if exact or not keep_given else entries_outside(grid, lexicon, min_score=min_score, ban=ban)
    requested = list(require.items()) if isinstance(require, Mapping) else list(require or [])
    if rebus is not None:  # the user's entries through a rebus, written as the job's list holds them
        requested = [(slot_id, _written_with_stand_ins(grid, rebus, slot_id, word)) for slot_id, word in requested]
    asked = {str(slot_id).strip().upper() for slot_id, _word in requested}
    requested += [(slot_id, entry) for slot_id, entry in given.items() if slot_id not in asked]
    if rebus is not None and not allow_duplicates:
        rebus = rebus.keeping_out(_users_words(grid, rebus, requested))
    try:
        options = fill_options(
            grid,
            min_score=min_score,
            ban=ban,
            require=requested,
            allow_duplicates=allow_duplicates,
            exact=exact,
            no_shared_substring=no_shared_substring,
            allow_shared_roots=allow_shared_roots,
            rebus=rebus.rules if rebus is not None else None,
        )
    except InputError as error:  # a required entry's clash names the rebus, not its stand-in
        if rebus is None:
            raise
        raise replace(error, message=rebus.text(error.message)) from None
    return FillJob(grid, lexicon, build_problem(grid, lexicon, options, deadline=deadline), given, rebus)
