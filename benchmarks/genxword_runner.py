"""Run genxword's layout engine (``genxword.calculate.Crossword``) on one word list.

Runs under a separate interpreter that has genxword installed (genxword is GPL and imports
pycairo and PyGObject for its PDF/PNG export, which the layout engine does not use; they are
stubbed here so ``pip install --no-deps genxword`` is enough). Reads a JSON job on stdin:
``{"words": [...], "rows": R, "cols": C, "seconds": S, "seed": N}`` and prints
``{"placements": [[word, row, col, vertical], ...], "seconds": s}``. Words are given in the
order genxword's own front end would (longest first).
"""

import json
import random
import sys
import time
import types

for name in ("gi", "gi.repository", "cairo"):
    sys.modules.setdefault(name, types.ModuleType(name))
sys.modules["gi"].require_version = lambda *args: None
sys.modules["gi.repository"].Pango = sys.modules["gi.repository"].PangoCairo = None

from genxword.calculate import Crossword

job = json.load(sys.stdin)
random.seed(job["seed"])
words = sorted(job["words"], key=len, reverse=True)  # as genxword.control.Genxword.wlist does
crossword = Crossword(job["rows"], job["cols"], "-", [[w, ""] for w in words])
start = time.perf_counter()
crossword.compute_crossword(job["seconds"])
seconds = time.perf_counter() - start
placements = [[entry[0], entry[2], entry[3], bool(entry[4])] for entry in crossword.best_wordlist]
json.dump({"placements": placements, "seconds": seconds}, sys.stdout)
