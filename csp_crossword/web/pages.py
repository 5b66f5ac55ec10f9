"""The web API's quick requests, run in the server process: grid analysis, candidates (with dead
ends), fill-ability and clues (opening, saving and printing files: :mod:`.puzzle_files`). Plain
functions of validated models; :mod:`.app` runs them on worker threads.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError
from ..core.grid import Grid
from .givens import entries_outside, given_rows

if TYPE_CHECKING:
    from ..api import FillJob
    from ..search.problem import FillProblem
    from ..words.lexicon import Lexicon
    from .models import (
        CandidatesRequest,
        CluesRequest,
        ClueSuggestRequest,
        FillabilityRequest,
        WordSettings,
    )
    from .wordlists import WordLists

#: Prepared problems kept for candidate requests (clicking through the slots of one grid reuses
#: its arc-consistent problem instead of building it again).
PREPARED_CACHE_SIZE = 8
#: A candidate's look-ahead status -> the page's ``dead_end`` mark (None: not checked in time).
DEAD_END_FLAGS = {"viable": False, "dead_end": True, "unknown": None}
#: Word lists kept filtered by a request's settings (with their word indexes): a few, each one
#: a copy of a list's scores.
PREPARED_LISTS = 4
#: Fillability: after the first slots with no word, the rest of the grid is made arc consistent
#: without them, at most this many times more (each round may find more dead slots), within
#: this many seconds in all.
FILLABILITY_ROUNDS = 4
FILLABILITY_SECONDS = 1.0
#: A slot id as a clue-suggestion request may give it instead of the answer ("12A", "3d").
SLOT_ID = re.compile(r"\d{1,4}[AaDd]")


def analyse(grid: Grid) -> dict[str, Any]:
    """Slots with their patterns, and the stats a constructor watches."""
    from ..formats.documents import slots_to_dict

    stats = grid.stats()
    data = slots_to_dict(grid, stats)
    for row, slot in zip(data["slots"], grid.slots, strict=True):
        row["cells"] = [list(cell) for cell in slot.cells]  # [row, col] of each cell, in reading order
    answers = [grid.pattern_text(slot) for slot in grid.slots]
    complete = [a for a in answers if "?" not in a]
    data["stats"].update(
        short_entries=sum(1 for slot in grid.slots if slot.length < 3),
        duplicates=sorted(a for a, n in Counter(complete).items() if n > 1),
        block_share=round(stats.blocks / (grid.rows * grid.cols), 4),
    )
    return data


class PreparedProblems:
    """The last few prepared problems, by grid and settings (thread-safe)."""

    def __init__(self, size: int = PREPARED_CACHE_SIZE):
        self.size = size
        self.kept: OrderedDict[tuple[Any, ...], FillJob] = OrderedDict()
        #: What was worked out from a kept job (its fillability answer), by ``id`` of the job:
        #: forgotten with the job.
        self.derived: dict[int, dict[str, Any]] = {}
        #: (list, settings, given entries) -> the list filtered and extended (see :meth:`words`)
        self.lists: OrderedDict[tuple[Any, ...], tuple[Lexicon, Lexicon]] = OrderedDict()
        self.lock = threading.Lock()

    def words(self, lexicon: Lexicon, settings: WordSettings, given: dict[str, str]) -> Lexicon:
        """The list as the problem uses it: without the words below ``min_score`` or banned, with
        the given entries the list lacks, made once per list, settings and given entries. A new
        list has no word indexes yet: building them for every edit cost 0.2 to 0.9 s a request
        (a ban list, a theme entry typed in); kept here, the next edit reuses them.

        The given entries go in only without ``allow_duplicates``: with it, the problem keeps a
        given entry to its own slot by knowing it is not a word of the list (no other slot may
        take it), and so must add it itself."""
        from ..core.glyphs import normalize_entry
        from ..words.word_index import DEFAULT_SCORE

        banned = frozenset(normalize_entry(word) for word in settings.ban)
        filtering = settings.min_score is not None or bool(banned)
        # The given entries are the complete ones the filtered list lacks (entries_outside).
        missing = frozenset() if settings.allow_duplicates else frozenset(normalize_entry(w) for w in given.values())
        if not filtering and not missing:
            return lexicon
        key = (id(lexicon), settings.min_score, banned, missing)
        with self.lock:
            found = self.lists.get(key)
            if found is not None and found[0] is lexicon:
                self.lists.move_to_end(key)
                return found[1]
        words = lexicon.filtered(settings.min_score, banned) if filtering else lexicon
        if missing:
            words = words.with_entries(dict.fromkeys(sorted(missing), DEFAULT_SCORE))
        with self.lock:
            self.lists[key] = (lexicon, words)
            while len(self.lists) > PREPARED_LISTS:
                self.lists.popitem(last=False)
        return words

    def derive(self, job: FillJob, what: str, compute: Callable[[FillJob], Any]) -> Any:
        """``compute(job)``, worked out once per kept job (the same grid asked again is free)."""
        with self.lock:
            known = self.derived.get(id(job), {})
            if what in known:
                return known[what]
        value = compute(job)
        with self.lock:
            if any(kept is job for kept in self.kept.values()):
                self.derived.setdefault(id(job), {})[what] = value
        return value

    def get(self, grid: Grid, settings: WordSettings, store: WordLists) -> FillJob:
        from ..api import prepare
        from .models import WordSettings

        source = store.source(settings.words, settings.lang, settings.allow_offensive, overrides=settings.overrides)
        source = replace(source, spelling=settings.kept_spelling(grid))
        # An overrides set's content is in the key: after an edit of the set, a problem of its own.
        # The word settings alone, not the slot or the limit of a candidates request: clicking
        # through the slots of one grid reuses its problem.
        settings_key = json.dumps(settings.model_dump(include=set(WordSettings.model_fields)), sort_keys=True)
        key = (grid.cells, grid.rtl, settings_key, store.owner, source.cache_key)
        with self.lock:
            if key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
        lexicon = store.cache.get(source)
        given = entries_outside(grid, lexicon, min_score=settings.min_score, ban=settings.ban)
        fill = settings.fill_settings()
        words = self.words(lexicon, settings, given)
        if words is not lexicon:  # already filtered by the settings: the problem filters no more
            fill.update(min_score=None, ban=[])
        job = prepare(grid, words, require=given, **fill)
        with self.lock:
            self.kept[key] = job
            while len(self.kept) > self.size:
                _, gone = self.kept.popitem(last=False)
                self.derived.pop(id(gone), None)
        return job


def candidates(request: CandidatesRequest, store: WordLists, prepared: PreparedProblems) -> dict[str, Any]:
    """The words that fit a slot, best first, with the library's look-ahead
    (:func:`csp_crossword.api.candidates.job_candidates`): per word ``status`` (viable, dead_end,
    unknown), ``crossings`` (words each crossing keeps) and, for the page, ``dead_end`` (True,
    False, or None when not checked within the time budget)."""
    from ..api.candidates import job_candidates
    from ..formats.documents import candidates_to_dict

    grid = request.grid.to_grid()
    job = prepared.get(grid, request, store)
    try:
        job.grid.slot(request.slot)
    except KeyError:
        raise InputError(f"the grid has no slot {request.slot.strip().upper()!r}", "slot") from None
    found = job_candidates(job, request.slot, limit=request.limit)
    unsatisfiable, ignored = found.unsatisfiable, []
    if unsatisfiable and not found.words:
        # A dead corner elsewhere must not hide this slot's words: they are checked against the
        # rest of the grid, the slots no fill can satisfy left out (as fillability names them).
        outlook = prepared.derive(job, "fillability", fillability_of)
        dead = sorted(row["slot"] for row in outlook["dead"])
        slot_id = job.grid.slot(request.slot).id
        rest = prepared.derive(job, "without-dead", lambda kept: without_slots(kept, dead))
        if slot_id not in dead and rest is not None:
            found, ignored = job_candidates(rest, slot_id, limit=request.limit), dead
    data = candidates_to_dict(found)
    for row in data["candidates"]:
        row["dead_end"] = DEAD_END_FLAGS[row["status"]]
    data["unsatisfiable"] = unsatisfiable
    data["checked_without"] = ignored
    data["given"] = given_rows(required_as_typed(job))
    return data


def required_as_typed(job: FillJob) -> dict[str, str]:
    """Slot id -> entry required of the job (the given ones), rebus cells written as their letters."""
    required = dict(job.problem.options.required)
    if job.rebus is None:
        return required
    return {slot_id: job.rebus.text(entry) for slot_id, entry in required.items()}


def without_slots(job: FillJob, slot_ids: list[str]) -> FillJob | None:
    """``job`` with the slots ``slot_ids`` left out of its problem (None when the rest has a slot
    with no word either, or could not be built in FILLABILITY_SECONDS)."""
    import time

    from ..core.errors import BuildTimeout

    if job.problem.options.exact:  # each word used a given number of times: no part stands alone
        return None
    try:
        sub = problem_without(job.problem, slot_ids, time.monotonic() + FILLABILITY_SECONDS)
    except BuildTimeout:
        return None
    return None if sub.unsatisfiable else replace(job, problem=sub)


def problem_without(problem: FillProblem, slot_ids: Iterable[str], deadline: float) -> FillProblem:
    """``problem`` built again, arc consistent, on its slots but ``slot_ids`` (BuildTimeout past
    ``deadline``). Its lexicon is already filtered and holds the required words: the same object,
    so the word indexes are the whole problem's, and no filter is applied twice."""
    from ..search.problem import build_problem

    left_out = set(slot_ids)
    rest = [slot.id for slot in problem.slots if slot.id not in left_out]
    options = replace(problem.options, min_score=None, banned=frozenset())
    return build_problem(problem.grid, problem.lexicon, options, slot_ids=rest, deadline=deadline)


def fillability(request: FillabilityRequest, store: WordLists, prepared: PreparedProblems) -> dict[str, Any]:
    """What still fits the grid as it is: per slot the words left after arc consistency
    (``counts``), the slots no fill can satisfy with the library's reason (``dead``), the
    problem's own reason (``unsatisfiable``, None when arc consistency leaves every slot a word)
    and the entries kept as given.

    Arc consistency stops at the first slot it empties; the rest of the grid is then made
    consistent again without the dead slots (:func:`~csp_crossword.search.problem.build_problem`
    on the others), so the counts elsewhere stay meaningful and a second dead corner is named
    too. ``exact``: False when a round ran out of time (the counts left are upper bounds)."""
    grid = request.grid.to_grid()
    job = prepared.get(grid, request, store)
    outlook: dict[str, Any] = prepared.derive(job, "fillability", fillability_of)
    return outlook


def fillability_of(job: FillJob) -> dict[str, Any]:
    """:func:`fillability` of a prepared job."""
    import time

    from ..core.errors import BuildTimeout

    problem = job.problem
    counts = {slot.id: domain.bit_count() for slot, domain in zip(problem.slots, problem.domains, strict=True)}
    dead = dict(problem.empty)
    exact = True
    if dead and not problem.options.exact:
        deadline = time.monotonic() + FILLABILITY_SECONDS
        for _ in range(FILLABILITY_ROUNDS):
            if len(dead) == len(problem.slots):
                break
            try:
                sub = problem_without(problem, dead, deadline)
            except BuildTimeout:
                exact = False
                break
            for slot, domain in zip(sub.slots, sub.domains, strict=True):
                counts[slot.id] = domain.bit_count()
            fresh = {slot_id: why for slot_id, why in sub.empty if slot_id not in dead}
            if not fresh:
                break
            dead.update(fresh)
        else:
            exact = False
    for slot_id in dead:
        counts[slot_id] = 0
    as_typed = job.rebus.text if job.rebus is not None else str
    return {
        "counts": counts,
        "dead": [{"slot": slot_id, "reason": as_typed(why)} for slot_id, why in dead.items()],
        "unsatisfiable": as_typed(problem.empty_reason()) if problem.unsatisfiable else None,
        "exact": exact,
        # the entries required of the problem are the given ones (PreparedProblems.get)
        "given": given_rows(required_as_typed(job)),
    }


def clues(request: CluesRequest, store: WordLists) -> dict[str, Any]:
    """The clue of every complete entry that has one: the list's (``sources`` list), or the
    first of the list's, the clue database's and the built-in ones (``chain``), with the name of
    the source of each."""
    from ..clues.chain import ListClues, choose_clues, clue_sources

    grid = request.grid.to_grid()
    lexicon = store.lexicon(request.words, request.lang, request.allow_offensive, overrides=request.overrides)
    answers = {slot.id: grid.pattern_text(slot).replace(" ", "") for slot in grid.slots}
    complete = {slot_id: answer for slot_id, answer in answers.items() if "?" not in answer}
    sources = [ListClues(lexicon)] + (clue_sources("db", database=store.clue_db) if request.sources == "chain" else [])
    chosen = choose_clues(complete, sources)
    return {
        "clues": {slot_id: clue for slot_id, (clue, _) in chosen.items()},
        "sources": {slot_id: source for slot_id, (_, source) in chosen.items()},
    }


def clue_suggestions(request: ClueSuggestRequest, store: WordLists) -> dict[str, Any]:
    """Clues for one entry, best first: the word list's, the clue database's, the built-in ones
    (each clue once), as ``{clue, source, uses}``; none for an entry with empty cells."""
    from ..clues.chain import ListClues, clue_sources, suggest
    from ..core.glyphs import normalize_entry

    entry = request.entry.strip()
    if request.grid is not None and SLOT_ID.fullmatch(entry):
        grid = request.grid.to_grid()
        try:
            entry = grid.pattern_text(grid.slot(entry)).replace(" ", "")
        except KeyError:
            raise InputError(f"the grid has no slot {entry.upper()!r}", "entry") from None
    answer = normalize_entry(entry)
    if not answer or "?" in answer:
        return {"entry": answer, "suggestions": []}
    lexicon = store.lexicon(request.words, request.lang, request.allow_offensive, overrides=request.overrides)
    found = suggest(answer, [ListClues(lexicon), *clue_sources("db", database=store.clue_db)], request.limit)
    return {"entry": answer, "suggestions": [{"clue": s.clue, "source": s.source, "uses": s.uses} for s in found]}
