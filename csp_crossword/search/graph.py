"""The constraint graph: the crossword CSP's structure, from which every backend reads it.

A node per slot, with attributes ``slot`` (the :class:`~csp_crossword.core.grid.Slot`: its
direction, number and cells), ``length`` and ``pattern`` (the slot's glyphs as the grid gives
them, ``?`` for an open cell); :func:`~csp_crossword.search.problem.build_problem` adds
``domain_size``, the words left after arc consistency. An edge per crossing, with ``cell`` (the
shared cell), ``positions`` (slot id -> index of that cell in the slot) and ``cell_id`` (the
crossing's number, 0, 1, ... in the grid's order, which names its glyph mask in the search
state). Graph attributes: ``grid``; ``no_repeat`` (no entry may appear twice); ``same_length``
(length -> the ids of the slots of that length: under ``no_repeat`` each group must hold
distinct words, the only constraint between slots that do not cross); ``crossings`` (the number
of edges).

Nodes are in the grid's slot order and each slot's crossings in the grid's crossing order, so the
propagation network, the CP-SAT and python-constraint models, the regions of ``count`` and the
report of ``check`` all see one order.

>>> from csp_crossword.core.grid import parse_grid
>>> g = constraint_graph(parse_grid("...\\n.#.\\n..."))
>>> list(g.nodes)
['1A', '3A', '1D', '2D']
>>> g.edges["1A", "2D"]["positions"]
{'1A': 2, '2D': 0}
>>> crossings_of(g, "2D")
[('1A', 0, 2, 1), ('3A', 2, 2, 3)]
>>> g.graph["same_length"]
{3: ('1A', '3A', '1D', '2D')}
>>> len(components(g))
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from ..core.grid import Grid, Slot


def constraint_graph(grid: Grid, slots: Sequence[Slot] | None = None, *, no_repeat: bool = True) -> nx.Graph:
    """The graph of the grid's slots and crossings (of ``slots`` only, when given: the other
    cells are then free, and a crossing with a slot left out is no constraint)."""
    chosen = tuple(grid.slots if slots is None else slots)
    graph = nx.Graph(grid=grid, no_repeat=no_repeat)
    # add_*_from: one call each (networkx clears its caches per call); a few hundred slots and
    # crossings take about a millisecond.
    patterns = grid.pattern_texts
    graph.add_nodes_from(
        (slot.id, {"slot": slot, "length": slot.length, "pattern": patterns[slot.id]}) for slot in chosen
    )
    kept = [c for c in grid.crossings if c.across in graph and c.down in graph] if slots is not None else grid.crossings
    graph.add_edges_from(
        (
            crossing.across,
            crossing.down,
            {
                "cell": crossing.cell,
                "positions": {crossing.across: crossing.across_pos, crossing.down: crossing.down_pos},
                "cell_id": number,
            },
        )
        for number, crossing in enumerate(kept)
    )
    same_length: dict[int, list[str]] = {}
    for slot in chosen:
        same_length.setdefault(slot.length, []).append(slot.id)
    graph.graph["same_length"] = {length: tuple(ids) for length, ids in same_length.items()}
    graph.graph["crossings"] = len(kept)
    return graph


def note_domain_sizes(graph: nx.Graph, slots: Sequence[Slot], domains: Sequence[int]) -> None:
    """Set each slot node's ``domain_size``: the words its domain (a bitset) holds."""
    for slot, domain in zip(slots, domains):
        graph.nodes[slot.id]["domain_size"] = domain.bit_count()


def slots_of(graph: nx.Graph) -> tuple[Slot, ...]:
    """The graph's slots, in its node order."""
    return tuple(data["slot"] for _, data in graph.nodes(data=True))


def crossings_of(graph: nx.Graph, slot_id: str) -> list[tuple[str, int, int, int]]:
    """The crossings of one slot, in the grid's crossing order: (other slot id, position in this
    slot, position in the other, crossing number)."""
    return [
        (other, edge["positions"][slot_id], edge["positions"][other], edge["cell_id"])
        for other, edge in graph.adj[slot_id].items()
    ]


def components(graph: nx.Graph, order: Mapping[str, int] | None = None) -> list[list[str]]:
    """Independent regions: lists of slot ids, largest first, ids in ``order`` (slot id -> rank;
    default the graph's node order) within each. A subgraph view of few nodes lists them in no
    fixed order: pass the whole graph's ranks for it."""
    rank = {node: i for i, node in enumerate(graph.nodes)} if order is None else order
    parts = [sorted(part, key=rank.__getitem__) for part in nx.connected_components(graph)]
    parts.sort(key=lambda part: (-len(part), rank[part[0]]))
    return parts
