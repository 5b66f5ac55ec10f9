"""The constraint graph: slots are nodes, crossings are edges.

>>> from csp_crossword.grid import parse_grid
>>> g = constraint_graph(parse_grid("...\\n.#.\\n..."))
>>> sorted(g.nodes)
['1A', '1D', '2D', '3A']
>>> g.edges["1A", "2D"]["positions"]
{'1A': 2, '2D': 0}
>>> len(components(g))
1
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from .grid import Grid, Slot


def constraint_graph(grid: Grid, slots: Sequence[Slot] | None = None) -> nx.Graph:
    """A networkx Graph of the grid's slots and crossings (of ``slots`` only, when given).

    Node attributes: ``length``, ``direction``, ``number``, ``cells``. Edge attributes: ``cell``
    (the shared cell) and ``positions`` (slot id -> index of the shared cell in that slot).
    """
    graph = nx.Graph()
    kept = None if slots is None else {slot.id for slot in slots}
    for slot in grid.slots if slots is None else slots:
        graph.add_node(slot.id, length=slot.length, direction=slot.direction, number=slot.number, cells=slot.cells)
    for crossing in grid.crossings:
        if kept is not None and not (crossing.across in kept and crossing.down in kept):
            continue
        graph.add_edge(
            crossing.across,
            crossing.down,
            cell=crossing.cell,
            positions={crossing.across: crossing.across_pos, crossing.down: crossing.down_pos},
        )
    return graph


def components(graph: nx.Graph) -> list[list[str]]:
    """Independent regions: lists of slot ids, largest first, ids in grid order within each."""
    order = {node: i for i, node in enumerate(graph.nodes)}
    parts = [sorted(part, key=order.__getitem__) for part in nx.connected_components(graph)]
    parts.sort(key=lambda part: (-len(part), order[part[0]]))
    return parts
