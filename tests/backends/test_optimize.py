"""``--optimize`` (cpsat): the best total score, checked against brute force."""

from csp_crossword.backends import get_backend
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from bruteforce import runs, solutions


def test_optimal_fill_has_the_best_total_score():
    rows = ["...", "...", "..."]
    scores = {
        "BAT": 90,
        "ORE": 40,
        "WED": 70,
        "BOW": 80,
        "ARE": 60,
        "TED": 30,
        "CAT": 50,
        "ARK": 20,
        "TEE": 10,
        "CAT2": 0,
    }
    scores.pop("CAT2")
    words = {"BAT", "ORE", "WED", "BOW", "ARE", "TED", "CAT", "ARK", "TEE", "COT", "RAE", "TKE"}
    scores.update({"COT": 55, "RAE": 45, "TKE": 5})
    lexicon = Lexicon.from_words(words, scores=scores)
    best = 0
    slots = runs(rows)
    for fill in solutions(rows, words):
        total = sum(scores["".join(fill[c] for c in slot)] for slot in slots)
        best = max(best, total)
    assert best > 0
    problem = build_problem(parse_grid("\n".join(rows)), lexicon)
    result = get_backend("cpsat")(optimize=True).solve(problem, time_limit=60)
    assert result.status == Status.OPTIMAL
    assert verify_fill(problem.grid, result.cells, lexicon) == []
    assert result.total_score == best == result.objective
    assert result.gap == 0
