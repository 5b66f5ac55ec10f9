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

from common import cli, count_cpsat_solutions, slot_words, solve_cpsat_and_print


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


def count(grid, lexicon, allow_duplicates=False) -> int:
    # Only the word variables tell fills apart; every other variable is fixed by them.
    model, _, _ = build(grid, lexicon, allow_duplicates)
    return count_cpsat_solutions(model)


def main() -> int:
    args, grid, lexicon = cli(__doc__)
    if args.count:
        print(count(grid, lexicon, args.allow_duplicates))
        return 0
    model, word_vars, candidates = build(grid, lexicon, args.allow_duplicates)
    return solve_cpsat_and_print(grid, model, word_vars, lambda s, k: candidates[s][k])


if __name__ == "__main__":
    raise SystemExit(main())
