"""CP-SAT letter-table model of the crossword CSP.

Variables: a glyph variable per open cell (0..G-1) and a word variable per slot (an index into
that slot's candidate list). Constraints: one table per slot over (word, glyph of each cell);
with repeats forbidden, at most one slot of a length takes each word (Boolean literals tied to
the word variables). This is the formulation the ``cpsat`` backend builds on arc-consistent
domains; here it is plain, over the node-consistent ones.

    python models/cpsat_letters.py GRID WORDLIST [--count] [--allow-duplicates]
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from common import cli, print_fill, slot_words


def build(grid, lexicon, allow_duplicates=False):
    model = cp_model.CpModel()
    glyphs = sorted(lexicon.alphabet, key=lexicon.alphabet.__getitem__)
    gid = {g: i for i, g in enumerate(glyphs)}
    cells = {}
    for slot in grid.slots:
        for cell in slot.cells:
            if cell not in cells:
                cells[cell] = model.new_int_var(0, max(len(glyphs) - 1, 0), f"cell{cell}")
    candidates = slot_words(grid, lexicon)
    word_vars = []
    for slot, words in zip(grid.slots, candidates):
        var = model.new_int_var(0, max(len(words) - 1, 0), f"word{slot.id}")
        word_vars.append(var)
        rows = [[k] + [gid[g] for g in word] for k, word in enumerate(words)]
        model.add_allowed_assignments([var] + [cells[c] for c in slot.cells], rows)
    if not allow_duplicates:
        uses: dict[tuple[str, ...], list] = {}
        for var, words in zip(word_vars, candidates):
            for k, word in enumerate(words):
                lit = model.new_bool_var("")
                model.add(var == k).only_enforce_if(lit)
                model.add(var != k).only_enforce_if(~lit)
                uses.setdefault(word, []).append(lit)
        for lits in uses.values():
            if len(lits) > 1:
                model.add_at_most_one(lits)
    return model, word_vars, candidates


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.count = 0

    def on_solution_callback(self):
        self.count += 1


def count(grid, lexicon, allow_duplicates=False) -> int:
    model, word_vars, _ = build(grid, lexicon, allow_duplicates)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    model.add_decision_strategy(word_vars, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    counter = _Counter()
    # Only the word variables tell fills apart; every other variable is fixed by them.
    solver.solve(model, counter)
    return counter.count


def main() -> int:
    args, grid, lexicon = cli(__doc__)
    if args.count:
        print(count(grid, lexicon, args.allow_duplicates))
        return 0
    model, word_vars, candidates = build(grid, lexicon, args.allow_duplicates)
    solver = cp_model.CpSolver()
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print("unsatisfiable" if status == cp_model.INFEASIBLE else "unknown")
        return 1
    print_fill(grid, [words[solver.value(v)] for v, words in zip(word_vars, candidates)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
