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

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csp_crossword.grid import Grid, format_grid, read_grid  # noqa: E402
from csp_crossword.lexicon import Lexicon, entry_glyphs, load_word_list  # noqa: E402


def model(grid: Grid, lexicon: Lexicon):
    """(slots, domains, crossings): domains[s] is a set of glyph tuples; crossings[s] lists
    (t, i, j): glyph i of slot s equals glyph j of slot t."""
    slots = list(grid.slots)
    number = {slot.id: s for s, slot in enumerate(slots)}
    domains = []
    for slot in slots:
        pattern = grid.pattern(slot)
        words = {entry_glyphs(w) for w in lexicon.by_length.get(slot.length, ())}
        domains.append({w for w in words if all(not p or p == g for p, g in zip(pattern, w))})
    crossings = [[] for _ in slots]
    for x in grid.crossings:
        a, d = number[x.across], number[x.down]
        crossings[a].append((d, x.across_pos, x.down_pos))
        crossings[d].append((a, x.down_pos, x.across_pos))
    return slots, domains, crossings


def solutions(grid: Grid, lexicon: Lexicon, allow_duplicates: bool = False):
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("grid")
    parser.add_argument("words")
    parser.add_argument("--count", action="store_true")
    parser.add_argument("--allow-duplicates", action="store_true")
    args = parser.parse_args(argv)
    grid = read_grid(args.grid)
    lexicon, _ = load_word_list(args.words)
    found = solutions(grid, lexicon, args.allow_duplicates)
    if args.count:
        print(sum(1 for _ in found))
        return 0
    first = next(found, None)
    if first is None:
        print("unsatisfiable")
        return 1
    cells = [list(row) for row in grid.cells]
    for slot, word in zip(grid.slots, first):
        for (r, c), glyph in zip(slot.cells, word):
            cells[r][c] = glyph
    sys.stdout.write(format_grid(grid, tuple(map(tuple, cells))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
