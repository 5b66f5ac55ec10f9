"""python-constraint model of the crossword CSP.

Variables: slots, over the words (glyph tuples) of their length that match the pre-filled
glyphs. Constraints: a FunctionConstraint per crossing (equal glyphs at the shared cell) and an
AllDifferentConstraint over equal-length slots unless repeats are allowed. Solved with the classic
BacktrackingSolver.

    python models/pyconstraint_model.py GRID WORDLIST [--count] [--allow-duplicates]
"""

from __future__ import annotations

from constraint import AllDifferentConstraint, BacktrackingSolver, FunctionConstraint, Problem

from common import cli, crossings, print_fill, slot_words


def build(grid, lexicon, allow_duplicates=False) -> Problem:
    problem = Problem(BacktrackingSolver())
    for s, words in enumerate(slot_words(grid, lexicon)):
        problem.addVariable(s, words)
    for a, i, d, j in crossings(grid):
        problem.addConstraint(FunctionConstraint(lambda u, v, i=i, j=j: u[i] == v[j]), [a, d])
    if not allow_duplicates:
        by_length: dict[int, list[int]] = {}
        for s, slot in enumerate(grid.slots):
            by_length.setdefault(slot.length, []).append(s)
        for group in by_length.values():
            if len(group) > 1:
                problem.addConstraint(AllDifferentConstraint(), group)
    return problem


def count(grid, lexicon, allow_duplicates=False) -> int:
    if any(not words for words in slot_words(grid, lexicon)):
        return 0
    return sum(1 for _ in build(grid, lexicon, allow_duplicates).getSolutionIter())


def main() -> int:
    args, grid, lexicon = cli(__doc__)
    if args.count:
        print(count(grid, lexicon, args.allow_duplicates))
        return 0
    solution = None
    if all(slot_words(grid, lexicon)):
        solution = build(grid, lexicon, args.allow_duplicates).getSolution()
    if solution is None:
        print("unsatisfiable")
        return 1
    print_fill(grid, [solution[s] for s in range(len(grid.slots))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
