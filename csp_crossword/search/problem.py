"""A fill problem: grid, lexicon and options, with the initial domains after propagation.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.words.lexicon import Lexicon
>>> grid = parse_grid("C.\\n..")
>>> problem = build_problem(grid, Lexicon.from_words(["CA", "CB", "AT", "BE", "AB"]))
>>> problem.candidates("1A")
['CA', 'CB']
>>> problem.unsatisfiable
False
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.deadline import Deadline
from ..core.errors import BuildTimeout
from ..core.glyphs import normalize_entry
from ..core.grid import Grid, Slot
from ..core.result import MISMATCH_PREFIX
from ..words.lexicon import Lexicon
from ..words.ngrams import check_run_length
from ..words.word_index import DEFAULT_SCORE, WordIndex, glyph_count
from .graph import components, constraint_graph, note_domain_sizes
from .propagation import Network
from .state import State

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class RebusRules:
    """The rules of a grid's rebus cells (:mod:`csp_crossword.api.rebus`): each stands in as a
    glyph of its own, which no other cell may take.

    Attributes:
        letters: (stand-in glyph, the rebus letters it stands for).
        slot_words: (slot id, the entries it may hold): a slot through a rebus holds only the
            entries that spell the rebus there, written with its stand-in.
        spelled: The list's entries a slot may spell through a rebus (SWEETHEART): unless
            ``allow_duplicates``, no slot holds them written out, so none appears twice.
    """

    letters: tuple[tuple[str, str], ...]
    slot_words: tuple[tuple[str, frozenset[str]], ...] = ()
    spelled: frozenset[str] = frozenset()

    @property
    def stand_ins(self) -> frozenset[str]:
        return frozenset(stand_in for stand_in, _letters in self.letters)

    def as_read(self, entry: str) -> str:
        """``entry`` with each stand-in written as its rebus letters."""
        for stand_in, letters in self.letters:
            entry = entry.replace(stand_in, letters)
        return entry


@dataclass(frozen=True)
class FillOptions:
    """What the user asks of a fill.

    Attributes:
        allow_duplicates: Allow the same entry in two slots.
        min_score: Drop words scored below this.
        banned: Words never used.
        required: Slot id -> word that slot must hold (added to the word list if missing).
        exact: Fill-in puzzle: every word of the list is used exactly as many times as it is
            listed (``Lexicon.multiplicity``), and nothing else.
        no_shared_substring: N: no two entries of the fill share a run of N or more consecutive
            glyphs (STARTLE and RESTART share STAR with N=4); None: no such rule. At least 2
            (ValueError otherwise).
        allow_shared_roots: Let two entries share a root (GREY and GREYED); by default a fill
            keeps them apart (:mod:`csp_crossword.strategies.roots`).
        rebus: How the grid's rebus cells are read (:class:`RebusRules`); None without any.
    """

    allow_duplicates: bool = False
    min_score: int | None = None
    banned: frozenset[str] = frozenset()
    required: tuple[tuple[str, str], ...] = ()
    exact: bool = False
    no_shared_substring: int | None = None
    allow_shared_roots: bool = False
    rebus: RebusRules | None = None

    def __post_init__(self) -> None:
        if self.no_shared_substring is not None:
            check_run_length(self.no_shared_substring)


@dataclass(frozen=True)
class FillProblem:
    """Everything a backend needs. Build it with :func:`build_problem`.

    Attributes:
        grid: The grid (with any pre-filled glyphs).
        lexicon: The word list after ``min_score``, ``banned`` and ``required`` were applied.
        options: The options.
        network: The constraints compiled from ``graph`` (slots, crossings, word indexes) that
            propagation and the backends work on.
        domains: One bitset per slot (``network.slots`` order) after node and arc consistency;
            all zero-free unless the problem is already proved unsatisfiable.
        empty: Ids of the slots whose domain is empty, and why, when propagation alone proves
            the problem unsatisfiable.
        root: The arc-consistent search state at the root (None when unsatisfiable); backends
            start from a copy (:meth:`root_state`).
        incumbent: A fill already found (word id per slot), or None: an optimising backend
            starts from it and returns nothing worse (:mod:`csp_crossword.strategies.optimize`).
    """

    grid: Grid
    lexicon: Lexicon
    options: FillOptions
    network: Network
    domains: tuple[int, ...]
    empty: tuple[tuple[str, str], ...] = field(default=())
    root: State | None = field(default=None, repr=False, compare=False)
    incumbent: tuple[int, ...] | None = field(default=None, repr=False, compare=False)

    def empty_reason(self, shown: int = 6) -> str:
        """Why the problem is unsatisfiable before any search, one clause per reason with the
        slots it holds for (the first ``shown`` named, the rest counted), ``; ``-separated.

        >>> from csp_crossword.core.grid import parse_grid
        >>> from csp_crossword.words.lexicon import Lexicon
        >>> build_problem(parse_grid("....\\n#..#"), Lexicon.from_words(["cat"])).empty_reason()
        '1A: no 4-letter word in the word list; 4A, 2D, 3D: no 2-letter word in the word list'
        """
        by_reason: dict[str, list[str]] = {}
        for slot_id, why in self.empty:
            by_reason.setdefault(why, []).append(slot_id)
        clauses = []
        for why, slot_ids in by_reason.items():
            named = ", ".join(slot_ids[:shown])
            more = len(slot_ids) - shown
            clauses.append(f"{named} and {more} more: {why}" if more > 0 else f"{named}: {why}")
        return "; ".join(clauses)

    def score_bound(self) -> int:
        """No fill scores more in total: every slot's best word left (word ids are best first)."""
        indexes = self.network.indexes
        return sum(indexes[s].scores[(d & -d).bit_length() - 1] for s, d in enumerate(self.domains) if d)

    def total_score(self, words: Sequence[int]) -> int:
        """The total score of a fill given as a word id per slot."""
        return sum(self.network.indexes[s].scores[w] for s, w in enumerate(words))

    @property
    def slots(self) -> Sequence[Slot]:
        """The slots of the problem (all the grid's, unless built for a subset), in domain order."""
        return self.network.slots

    @property
    def unsatisfiable(self) -> bool:
        return bool(self.empty)

    @property
    def graph(self) -> nx.Graph:
        """The constraint graph of the problem's slots and crossings (:mod:`.graph`): the source
        of every backend's structure."""
        return self.network.graph

    def regions(self) -> list[list[str]]:
        """Independent regions (slots linked by crossings), largest first, ids in slot order
        within each."""
        return components(self.graph)

    def root_state(self) -> State:
        """A fresh copy of the search state at the root (arc consistent, glyph masks set)."""
        if self.root is None:
            return self.network.initial_state(list(self.domains))
        return self.root.copy()

    def index_of(self, slot_id: str) -> WordIndex:
        return self.network.indexes[self.network.slot_number[slot_id]]

    def candidates(self, slot_id: str, limit: int | None = None) -> list[str]:
        """The words still possible in a slot, best score first."""
        s = self.network.slot_number[slot_id]
        index = self.network.indexes[s]
        found = []
        for w in WordIndex.iter_ids(self.domains[s]):
            found.append(index.words[w])
            if limit is not None and len(found) >= limit:
                break
        return found

    @property
    def word_uses(self) -> dict[str, int] | None:
        """For fill-in puzzles: entry -> exact number of uses."""
        return self.network.uses

    @property
    def extra_words(self) -> tuple[str, ...]:
        """Required words, once per slot that requires them: for the verifier, a word the list
        lacks counts as a word of the list that many times (in its required slots only)."""
        return tuple(normalize_entry(w) for _, w in self.options.required)


def _node_domains(
    grid: Grid, options: FillOptions, network: Network, only_required: frozenset[str] = frozenset()
) -> tuple[list[int], list[tuple[str, str]]]:
    """Domains from lengths, pre-filled glyphs and required words, with reasons for empty ones.
    ``only_required``: words only the slots that require them may hold: the required words the
    list lacks (with ``allow_duplicates`` too: they are the user's entries there, not words of the
    list), and the entries spelled through a rebus."""
    required = {slot_id.upper(): normalize_entry(word) for slot_id, word in options.required}
    domains: list[int] = []
    empty: list[tuple[str, str]] = []
    for s, slot in enumerate(network.slots):
        index = network.indexes[s]
        pattern = grid.pattern(slot)
        if slot.id in required:
            word = required[slot.id]
            domain = 1 << index.position[word] if word in index.position else 0
            if not domain:
                empty.append((slot.id, f"required word {word} does not fit {slot.length} cells"))
            elif index.match(pattern) & domain == 0:
                empty.append((slot.id, f"required word {word} clashes with {grid.pattern_text(slot)}"))
                domain = 0
        elif not len(index):
            domain = 0
            empty.append((slot.id, f"no {slot.length}-letter word in the word list"))
        else:
            matching = domain = index.match(pattern)
            for word in only_required:  # another slot's own entry, not a word of the list
                if word in index.position:
                    domain &= ~(1 << index.position[word])
            if not domain:
                shown = options.rebus.as_read(grid.pattern_text(slot)) if options.rebus else grid.pattern_text(slot)
                why = f"no word matches {shown}"
                if matching:
                    why += " that another slot does not hold (a required entry, or one a rebus spells)"
                empty.append((slot.id, why))
        if options.rebus is not None and domain:
            own = slot.id not in required  # a required entry is the user's, however it reads
            domain = _rebus_domain(index, slot.id if own else None, pattern, options.rebus, domain)
            if not domain:
                reason = f"no word matches {options.rebus.as_read(grid.pattern_text(slot))}"
                empty.append((slot.id, reason))
        domains.append(domain)
    return domains, empty


def _rebus_domain(index: WordIndex, slot_id: str | None, pattern: list[str], rules: RebusRules, domain: int) -> int:
    """``domain`` kept to the rebus rules: a slot through a rebus (``slot_id``; None for one
    holding a required entry) to its own spellings of it, and no word putting a stand-in where
    the pattern does not hold it."""
    own = dict(rules.slot_words).get(slot_id) if slot_id is not None else None
    if own is not None:
        allowed = 0
        for word in own:
            position = index.position.get(word)
            if position is not None:
                allowed |= 1 << position
        domain &= allowed
    for glyph in rules.stand_ins:
        gid = index.alphabet.get(glyph)
        if gid is None:
            continue
        for pos, given in enumerate(pattern):
            if given != glyph:
                domain &= ~index.bits[pos][gid]
    return domain


def _count_mismatches(network: Network, uses: dict[str, int]) -> list[tuple[str, str]]:
    """Fill-in puzzles: per length, the slots must match the listed words one for one."""
    words_per_length: dict[int, int] = {}
    for word, n in uses.items():
        words_per_length[glyph_count(word)] = words_per_length.get(glyph_count(word), 0) + n
    slots_per_length: dict[int, list[str]] = {}
    for slot in network.slots:
        slots_per_length.setdefault(slot.length, []).append(slot.id)
    problems = []
    for length in sorted(set(words_per_length) | set(slots_per_length)):
        have, need = words_per_length.get(length, 0), len(slots_per_length.get(length, ()))
        if have != need:
            # not one slot's fault: the whole length is named (MISMATCH_PREFIX marks it)
            where = f"{MISMATCH_PREFIX}{length}"
            problems.append((where, f"{need} slot(s) but {have} listed word(s), and each word is placed once"))
    return problems


def build_problem(
    grid: Grid,
    lexicon: Lexicon,
    options: FillOptions | None = None,
    *,
    slot_ids: Sequence[str] | None = None,
    deadline: Deadline = None,
) -> FillProblem:
    """Apply the options to the lexicon, then node and arc consistency to every slot.

    ``slot_ids`` keeps only the constraints of those slots (the other cells are free): a relaxed
    problem, used to find which slots cannot be filled together.

    Raises:
        KeyError: a required slot id is not in the grid.
        BuildTimeout: ``deadline`` passed during the Python search's arc consistency.
    """
    options = options or FillOptions()
    for slot_id, _ in options.required:
        grid.slot(slot_id)
    if options.min_score is not None or options.banned:
        lexicon = lexicon.filtered(options.min_score, options.banned)
    missing: dict[str, int] = {}
    for _, word in options.required:
        entry = normalize_entry(word)
        if entry not in lexicon:
            missing[entry] = DEFAULT_SCORE
    if missing:
        lexicon = lexicon.with_entries(missing)
    slots = None if slot_ids is None else tuple(grid.slot(i) for i in slot_ids)
    lengths = sorted({slot.length for slot in (slots if slots is not None else grid.slots)})
    for length in lengths:  # the word indexes one length at a time, under the deadline
        if deadline is not None and time.monotonic() >= deadline:
            raise BuildTimeout(len(slots if slots is not None else grid.slots))
        lexicon.index(length)
    uses = lexicon.word_uses() if options.exact else None
    graph = constraint_graph(grid, slots, no_repeat=not options.allow_duplicates)
    network = Network(graph, lexicon, uses, options.no_shared_substring)
    kept_out = frozenset(missing)
    if options.rebus is not None and not options.allow_duplicates:
        kept_out |= options.rebus.spelled
    domains, empty = _node_domains(grid, options, network, kept_out)
    if options.exact and slot_ids is None:
        empty += _count_mismatches(network, uses or {})
    state = None
    if not empty:
        state = network.initial_state(domains)
        failure = network.propagate(state, range(len(domains)), deadline)
        domains = state.domains
        if failure is not None:
            slot = network.slots[failure.slot]
            why = "no word is left once every crossing is made consistent"
            if failure.shared_run and failure.cause is not None:
                why = (
                    f"every word left shares a run of {options.no_shared_substring} letters with "
                    f"{network.slots[failure.cause].id}'s entry"
                )
            elif failure.cause is not None and failure.cause != failure.slot:
                why += f" (last pruned by its crossing with {network.slots[failure.cause].id})"
            elif failure.cause == failure.slot:
                why += " (its only words are used elsewhere)"
            empty.append((slot.id, why))
    root = state.copy() if state is not None and not empty else None
    note_domain_sizes(graph, network.slots, domains)
    return FillProblem(grid, lexicon, options, network, tuple(domains), tuple(empty), root)
