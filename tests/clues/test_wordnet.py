"""WordNet glosses as clues: read from a WordNet-format database (a tiny one written here, so the
test needs no Debian package), senses in order, a gloss naming its own word skipped."""

from __future__ import annotations

from csp_crossword.clues import add_wordnet_clues, wordnet_glosses
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import Puzzle

HEADER = "  1 This software and database is being provided to you, the LICENSEE, by Princeton\n"


def _database(folder, senses):
    """index.noun and data.noun for ``senses``: lemma -> glosses, most frequent first. Each
    synset's offset is its byte position in data.noun, as in WordNet's own files."""
    data = HEADER.encode()
    index_lines = [HEADER]
    for lemma, glosses in senses.items():
        offsets = []
        for gloss in glosses:
            offsets.append(f"{len(data):08d}")
            data += f"{len(data):08d} 05 n 01 {lemma} 0 000 | {gloss}\n".encode()
        index_lines.append(f"{lemma} n {len(glosses)} 0 {len(glosses)} 0 {' '.join(offsets)}\n")
    (folder / "data.noun").write_bytes(data)
    (folder / "index.noun").write_text("".join(index_lines), encoding="utf-8")


def test_first_sense_whose_gloss_does_not_name_the_word(tmp_path):
    _database(
        tmp_path,
        {
            "dog": ['a dog is a dog; "he walked the dog"', 'a member of the genus Canis; "the hound barked"'],
            "ice_age": ["any period of time during which glaciers covered a large part of the earth's surface"],
            "moon": ["the moon seen from the moon"],
        },
    )
    glosses = wordnet_glosses({"DOG", "ICEAGE", "MOON", "XQZV"}, str(tmp_path))
    assert glosses == {
        "DOG": "a member of the genus Canis",
        "ICEAGE": "any period of time during which glaciers covered a large part of the earth's surface",
    }


def test_clues_added_only_where_empty(tmp_path):
    _database(tmp_path, {"dog": ["a domesticated carnivore"], "no": ["a negative"], "go": ["a board game"]})
    grid = parse_grid("...\n#..")
    solution = (("D", "O", "G"), (None, "N", "O"))  # across DOG, NO; down ON, GO
    puzzle = Puzzle(grid, solution=solution, clues={"1A": "Kept as given"})
    added = add_wordnet_clues(puzzle, str(tmp_path))
    assert puzzle.clues["1A"] == "Kept as given"
    assert puzzle.clues["4A"] == "a negative"
    assert added == sum(1 for clue in puzzle.clues.values() if clue != "Kept as given")


def test_no_database_gives_no_glosses(tmp_path):
    assert wordnet_glosses({"DOG"}, str(tmp_path)) == {}
