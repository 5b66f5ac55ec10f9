"""Clue text and notes with any character through every writer and its reader (.xd, .ipuz, .puz,
.json): each comes back as it was written, or the writer's list of losses says that it does not.
No writer changes text silently."""

from __future__ import annotations

import pytest
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import Puzzle, read_crossword, write_crossword
from csp_crossword.formats.xd import dumps as xd_dumps
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

EXTENSIONS = (".xd", ".ipuz", ".puz", ".json")
#: Text that trips line-based formats: the xd answer separator, line and paragraph separators,
#: a tab, a backslash, a clue line or a section header inside the text.
AWKWARD = ["a ~ b", "~", "x ~ ", " ~ CAT", "x:y", "  lead", "trail  ", "para\u2029graph", "line\u2028sep"]
AWKWARD += ["tab\there", "back\\slash", "two\nlines", "A1. not a clue ~ CAT", "## Grid", "\x85\x1c", "A2 ^Refs: A1"]
#: Characters of any category but surrogates, which no file can hold (a reader refuses them).
ANY_CHARACTER = st.characters(blacklist_categories=("Cs",))
TEXTS = st.one_of(st.sampled_from(AWKWARD), st.text(ANY_CHARACTER, max_size=30))


def _puzzle(clue: str, notes: str) -> Puzzle:
    grid = parse_grid("...\n...")
    solution = (("C", "A", "T"), ("A", "R", "E"))
    return Puzzle(grid, solution=solution, clues={"1A": clue, "4A": "Exist"}, notes=notes, title="T")


def _back(puzzle: Puzzle, extension: str, folder) -> tuple[Puzzle, list[str]]:
    path = folder / f"round{extension}"
    losses = write_crossword(path, puzzle)
    return read_crossword(path), losses


@pytest.mark.parametrize("extension", EXTENSIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clue=TEXTS)
@example(clue="Feline ~ pet")
@example(clue="no answer ~ HERE")
def test_a_clue_comes_back_or_its_loss_is_announced(extension, clue, tmp_path):
    back, losses = _back(_puzzle(clue, ""), extension, tmp_path)
    if back.clues.get("1A", "") != clue:
        assert any("clue" in loss and "1A" in loss for loss in losses) or any("NUL" in loss for loss in losses), (
            repr(clue),
            back.clues.get("1A"),
            losses,
        )
    assert back.clues["4A"] == "Exist"
    if extension != ".xd":  # the JSON formats hold any text, .puz all but NUL
        assert back.clues.get("1A", "") == (clue.replace("\0", "") if extension == ".puz" else clue)


@pytest.mark.parametrize("extension", EXTENSIONS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(notes=st.one_of(st.sampled_from(AWKWARD), st.text(ANY_CHARACTER, max_size=40), st.lists(TEXTS).map("\n".join)))
@example(notes="Note ~ one\n\nA2. second paragraph\n## Grid\nD1. x ~ AC")
def test_notes_come_back_or_their_loss_is_announced(extension, notes, tmp_path):
    back, losses = _back(_puzzle("Feline", notes), extension, tmp_path)
    if back.notes != notes:
        assert any("notes" in loss or "NUL" in loss for loss in losses), (repr(notes), repr(back.notes), losses)
    assert back.clues["1A"] == "Feline"  # notes never turn into clues


def test_xd_keeps_a_tilde_in_a_clue_and_notes_that_look_like_clues(tmp_path):
    notes = "Note ~ one\n\nA2. second paragraph\n## Grid"
    puzzle = _puzzle("Feline ~ pet", notes)
    puzzle.clues["1D"] = "a ~ b"
    back, losses = _back(puzzle, ".xd", tmp_path)
    assert back.clues["1A"] == "Feline ~ pet" and back.clues["1D"] == "a ~ b"
    assert not [loss for loss in losses if "clue" in loss]
    assert back.notes.replace(" ##", "##") == notes  # a section header in the notes is indented
    assert any("notes" in loss for loss in losses)


def test_xd_clue_without_an_answer_keeps_its_tilde(tmp_path):
    puzzle = Puzzle(parse_grid("...\n..."), clues={"1A": "a ~ b", "4A": "ends with ~", "1D": "plain"})
    text = xd_dumps(puzzle)
    assert "A1. a ~ b ~\n" in text and "D1. plain\n" in text
    path = tmp_path / "pattern.xd"
    path.write_text(text, encoding="utf-8")
    assert read_crossword(path).clues == puzzle.clues


@pytest.mark.parametrize("extension", EXTENSIONS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=TEXTS, author=TEXTS)
def test_title_and_author_come_back_or_their_loss_is_announced(extension, title, author, tmp_path):
    puzzle = _puzzle("Feline", "")
    puzzle.title, puzzle.author = title, author
    back, losses = _back(puzzle, extension, tmp_path)
    for name, value in (("title", title), ("author", author)):
        if getattr(back, name) != value:
            assert any(name in loss or "NUL" in loss for loss in losses), (name, repr(value), losses)
