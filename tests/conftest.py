"""Shared fixtures: the reference data next to the checkout, and small word lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids"
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_dict():
    """Path of a dictionary in ../shared/data/dict (the test is skipped when it is absent)."""

    def find(name: str) -> Path:
        path = SHARED / "dict" / name
        if not path.exists():
            pytest.skip(f"reference data {path} not present")
        return path

    return find


@pytest.fixture(scope="session")
def words_lexicon(shared_dict):
    from csp_crossword.lexicon import load_word_list

    lexicon, _ = load_word_list(shared_dict("words.txt"))
    return lexicon


@pytest.fixture
def write(tmp_path):
    """Write a file under tmp_path and return its path."""

    def _write(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)

    return _write


@pytest.fixture(scope="session")
def quarter_lexicon(shared_dict):
    """Every fourth word of words.txt (11,343 entries): small enough for every backend."""
    from csp_crossword.lexicon import Lexicon

    words = shared_dict("words.txt").read_text().split()
    return Lexicon.from_words(words[::4], name="words/4")
