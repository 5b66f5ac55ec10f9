"""Reference formulation of the crossword CSP, as plainly as it can be written.

Variables: the slots of the grid. Domain of a slot: the lexicon's words of its length that match
its pre-filled glyphs. Constraints: at every crossing the two words have the same glyph; with
repeats forbidden, no word in two slots. Solved by chronological backtracking with forward
checking over Python sets: slow, but short enough to check by eye, and independent of the
package's propagation and backends (it uses only the grid and lexicon modules).

Run::

    python models/plain_backtracking.py GRID WORDLIST [--count] [--allow-duplicates]

prints the first fill (or the number of fills with --count), or "unsatisfiable".
"""

from __future__ import annotations

import sys

from common import cli, print_fill, slot_words
from common import crossings as crossing_list


def model(grid, lexicon):
    """(slots, domains, crossings): domains[s] is a set of glyph tuples; crossings[s] lists
    (t, i, j): glyph i of slot s equals glyph j of slot t."""
    slots = list(grid.slots)
    domains = [set(words) for words in slot_words(grid, lexicon)]
    crossings = [[] for _ in slots]
    for a, i, d, j in crossing_list(grid):
        crossings[a].append((d, i, j))
        crossings[d].append((a, j, i))
    return slots, domains, crossings


def solutions(grid, lexicon, allow_duplicates: bool = False):
    """Yield each fill as a tuple of words (glyph tuples), one per slot in grid order."""
    slots, domains, crossings = model(grid, lexicon)
    length = [slot.length for slot in slots]
    assignment: list = [None] * len(slots)

    def search(domains):
        open_slots = [s for s in range(len(slots)) if assignment[s] is None]
        if not open_slots:
            yield tuple(assignment)
            return
        s = min(open_slots, key=lambda k: len(domains[k]))
        for word in sorted(domains[s]):
            pruned = [set(d) for d in domains]
            pruned[s] = {word}
            for t, i, j in crossings[s]:
                pruned[t] = {w for w in pruned[t] if w[j] == word[i]}
            if not allow_duplicates:
                for t in range(len(slots)):
                    if t != s and length[t] == length[s]:
                        pruned[t].discard(word)
            if all(pruned[t] for t in range(len(slots)) if assignment[t] is None or t == s):
                assignment[s] = word
                yield from search(pruned)
                assignment[s] = None

    yield from search(domains)


def main() -> int:
    args, grid, lexicon = cli(__doc__)
    found = solutions(grid, lexicon, args.allow_duplicates)
    if args.count:
        print(sum(1 for _ in found))
        return 0
    first = next(found, None)
    if first is None:
        print("unsatisfiable")
        return 1
    print_fill(grid, list(first))
    return 0


if __name__ == "__main__":
    sys.exit(main())
