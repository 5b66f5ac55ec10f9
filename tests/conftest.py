"""Shared fixtures: the reference data next to the checkout, and small word lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids"
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))


#: Size of the benchmark dictionary words.txt (Anbulagan & Botea), and of its stand-in.
BENCHMARK_WORDS = 45_371


@pytest.fixture(scope="session")
def shared_dict():
    """Path of a dictionary in ../shared/data/dict (the test is skipped when it is absent).
    Only tests that need the published data itself use this; the others use benchmark_words."""

    def find(name: str) -> Path:
        path = SHARED / "dict" / name
        if not path.exists():
            pytest.skip(f"reference data {path} not present")
        return path

    return find


@pytest.fixture(scope="session")
def benchmark_words(tmp_path_factory) -> Path:
    """A plain word list of the Herald benchmark's shape: ../shared's words.txt when present,
    otherwise a stand-in of the same size and form made from the package's own built-in English
    list (its BENCHMARK_WORDS most frequent all-letter words of 2 to 21 letters, lowercase, one
    per line, unscored), so a clean clone runs the same tests on data it can make itself."""
    path = SHARED / "dict" / "words.txt"
    if path.exists():
        return path
    from csp_crossword.builtin import builtin_lexicon

    lexicon = builtin_lexicon("en")
    ranked = sorted(lexicon.scores, key=lambda w: (-lexicon.scores[w], w))
    words = [w.lower() for w in ranked if w.isascii() and w.isalpha()][:BENCHMARK_WORDS]
    stand_in = tmp_path_factory.mktemp("data") / "words-stand-in.txt"
    stand_in.write_text("\n".join(sorted(words)) + "\n")
    return stand_in


@pytest.fixture(scope="session")
def words_lexicon(benchmark_words):
    from csp_crossword.wordlists import load_word_list

    lexicon, _ = load_word_list(benchmark_words)
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
def quarter_lexicon(benchmark_words):
    """Every fourth word of words.txt (11,343 entries): small enough for every backend."""
    from csp_crossword.lexicon import Lexicon

    words = benchmark_words.read_text().split()
    return Lexicon.from_words(words[::4], name="words/4")
