import networkx as nx
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.graph import components, constraint_graph
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.words.lexicon import Lexicon


def test_graph_nodes_and_crossing_positions():
    grid = parse_grid("...\n.#.\n...")
    graph = constraint_graph(grid)
    assert graph.number_of_nodes() == 4 and graph.number_of_edges() == 4
    assert graph.nodes["1A"]["length"] == 3
    edge = graph.edges["3A", "2D"]
    assert edge["cell"] == (2, 2) and edge["positions"] == {"3A": 2, "2D": 2}
    assert nx.is_connected(graph)


def test_components_of_separate_regions():
    grid = parse_grid("..#..\n..#..")
    parts = components(constraint_graph(grid))
    assert len(parts) == 2 and sorted(map(len, parts)) == [4, 4]


def test_arc_consistency_prunes_domains():
    grid = parse_grid("..\n..")
    lex = Lexicon.from_words(["AB", "CD", "AC", "BD", "XY"])
    problem = build_problem(grid, lex)
    assert not problem.unsatisfiable
    for slot_id in ("1A", "3A", "1D", "2D"):
        assert "XY" not in problem.candidates(slot_id)
    # AB/CD across with AC/BD down, or its transpose
    assert set(problem.candidates("1A")) == {"AB", "AC"}


def test_empty_length_is_explained():
    problem = build_problem(parse_grid("....\n#..."), Lexicon.from_words(["AB", "CD"]))
    assert problem.unsatisfiable
    reasons = dict(problem.empty)
    assert "no 4-letter word" in reasons["1A"]


def test_prefilled_pattern_without_match():
    problem = build_problem(parse_grid("Q.\n.."), Lexicon.from_words(["AB", "CD"]))
    assert dict(problem.empty)["1A"] == "no word matches Q?"


def test_required_word_is_added_and_placed():
    grid = parse_grid("...\n...")
    lex = Lexicon.from_words(["CAT", "DOG", "CD", "AO", "TG"])
    problem = build_problem(grid, lex, FillOptions(required=(("4A", "zzz"),)))
    assert problem.candidates("4A") == ["ZZZ"]
    assert problem.unsatisfiable  # ZZZ leaves no 2-letter down word
    assert "ZZZ" in problem.extra_words


def test_banned_and_min_score():
    lex = Lexicon({"AB": 90, "CD": 90, "AC": 90, "BD": 10})
    grid = parse_grid("..\n..")
    assert not build_problem(grid, lex).unsatisfiable
    assert build_problem(grid, lex, FillOptions(min_score=50)).unsatisfiable
    assert build_problem(grid, lex, FillOptions(banned=frozenset({"ab"}))).unsatisfiable
