"""What every reference model needs from the grid and lexicon modules (and nothing else)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csp_crossword.core.grid import Grid, format_grid, read_grid
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.word_index import entry_glyphs
from csp_crossword.words.wordlists import load_word_list


def slot_words(grid: Grid, lexicon: Lexicon) -> list[list[tuple[str, ...]]]:
    """Per slot (grid order): the words of its length that match its pre-filled glyphs."""
    result = []
    for slot in grid.slots:
        pattern = grid.pattern(slot)
        words = sorted(entry_glyphs(w) for w in lexicon.by_length.get(slot.length, ()))
        result.append([w for w in words if all(not p or p == g for p, g in zip(pattern, w))])
    return result


def crossings(grid: Grid) -> list[tuple[int, int, int, int]]:
    """(a, i, d, j): glyph i of slot a equals glyph j of slot d (slot numbers in grid order)."""
    number = {slot.id: s for s, slot in enumerate(grid.slots)}
    return [(number[x.across], x.across_pos, number[x.down], x.down_pos) for x in grid.crossings]


def cli(description: str):
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("grid")
    parser.add_argument("words")
    parser.add_argument("--count", action="store_true", help="count the fills instead of printing one")
    parser.add_argument("--allow-duplicates", action="store_true")
    args = parser.parse_args()
    grid = read_grid(args.grid)
    lexicon, _ = load_word_list(args.words)
    return args, grid, lexicon


def print_fill(grid: Grid, words: list[tuple[str, ...]]) -> None:
    cells = [list(row) for row in grid.cells]
    for slot, word in zip(grid.slots, words):
        for (r, c), glyph in zip(slot.cells, word):
            cells[r][c] = glyph
    sys.stdout.write(format_grid(grid, tuple(map(tuple, cells))))


def count_cpsat_solutions(model, word_vars=None) -> int:
    """Enumerate every solution of a CP-SAT model and count them."""
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    counter = Counter()
    solver.solve(model, counter)
    return counter.count


def solve_cpsat_and_print(grid: Grid, model, word_vars, word_of) -> int:
    """Solve a CP-SAT model and print the fill; ``word_of(slot_number, value)`` maps back."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print("unsatisfiable" if status == cp_model.INFEASIBLE else "unknown")
        return 1
    print_fill(grid, [word_of(s, solver.value(v)) for s, v in enumerate(word_vars)])
    return 0
