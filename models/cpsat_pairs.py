"""CP-SAT word-compatibility model of the crossword CSP.

Variables: a word variable per slot only. Constraints: per crossing, a table of the (word, word)
pairs that agree on the shared glyph; with repeats forbidden, an AllDifferent over the words of
equal-length slots (words are numbered per length, so equal numbers mean equal words). Tables
grow with the product of the two candidate lists: a model for small instances.

    python models/cpsat_pairs.py GRID WORDLIST [--count] [--allow-duplicates]
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from common import cli, count_cpsat_solutions, crossings, slot_words, solve_cpsat_and_print


def build(grid, lexicon, allow_duplicates=False):
    model = cp_model.CpModel()
    candidates = slot_words(grid, lexicon)
    number: dict[tuple[str, ...], int] = {}
    for words in candidates:
        for word in words:
            number.setdefault(word, len(number))
    word_vars = []
    for slot, words in zip(grid.slots, candidates):
        domain = cp_model.Domain.from_values([number[w] for w in words]) if words else cp_model.Domain(0, -1)
        word_vars.append(model.new_int_var_from_domain(domain, f"word{slot.id}"))
    for a, i, d, j in crossings(grid):
        pairs = [(number[u], number[v]) for u in candidates[a] for v in candidates[d] if u[i] == v[j]]
        model.add_allowed_assignments([word_vars[a], word_vars[d]], pairs)
    if not allow_duplicates:
        by_length: dict[int, list] = {}
        for slot, var in zip(grid.slots, word_vars):
            by_length.setdefault(slot.length, []).append(var)
        for group in by_length.values():
            if len(group) > 1:
                model.add_all_different(group)
    words_by_number = {n: w for w, n in number.items()}
    return model, word_vars, words_by_number


def count(grid, lexicon, allow_duplicates=False) -> int:
    model, _, _ = build(grid, lexicon, allow_duplicates)
    return count_cpsat_solutions(model)


def main() -> int:
    args, grid, lexicon = cli(__doc__)
    if args.count:
        print(count(grid, lexicon, args.allow_duplicates))
        return 0
    model, word_vars, words = build(grid, lexicon, args.allow_duplicates)
    return solve_cpsat_and_print(grid, model, word_vars, lambda s, n: words[n])


if __name__ == "__main__":
    raise SystemExit(main())
