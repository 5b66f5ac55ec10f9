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

import networkx as nx

from .grid import Grid


def constraint_graph(grid: Grid) -> nx.Graph:
    """A networkx Graph of the grid's slots and crossings.

    Node attributes: ``length``, ``direction``, ``number``, ``cells``. Edge attributes: ``cell``
    (the shared cell) and ``positions`` (slot id -> index of the shared cell in that slot).
    """
    graph = nx.Graph()
    for slot in grid.slots:
        graph.add_node(
            slot.id, length=slot.length, direction=slot.direction, number=slot.number, cells=slot.cells
        )
    for crossing in grid.crossings:
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
