"""Entries that share a root: GREY and GREYED, EAT and ATE, ACTOR and ACTRESS, AGE and ICE AGE.

An editor does not print two of them in one grid. An entry's roots are the stems of its words: the
words of its display form (``"ice age"`` -> ICE, AGE; an entry with no display form is one word),
each mapped to its lemma when it is an irregular form (ATE -> EAT, from WordNet's exception lists,
``data/irregular-en.txt``), stemmed by the Snowball English stemmer (PyStemmer, its C build: a few
microseconds a word), with a feminine -RESS taken to its -OR form (ACTRESS -> ACTOR). Function
words and stems shorter than MIN_STEM letters are not compared (TO, OF, A). Only English entries of
the letters A-Z have roots; other scripts are never compared.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import cache

#: Words a phrase may share with another entry (IN THE AIR and ON THE GO).
IGNORED_WORDS = frozenset(
    "a an the of to and or in on at by for from with as is it be no not up out off".upper().split()
)
#: Stems shorter than this are not compared (a 2-letter stem says little about a root).
MIN_STEM = 3
#: A word of this many letters or more ending in -RESS whose -OR form is an entry is its feminine
#: (ACTRESS -> ACTOR; DRESS and PRESS are too short).
FEMININE_MIN = 6

_WORDS = re.compile(r"[A-Za-z]+")
_LETTERS = re.compile(r"[A-Z]+")


@cache
def irregular_forms() -> dict[str, str]:
    """Irregular form -> lemma (ATE -> EAT, GEESE -> GOOSE), shipped beside this module."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "irregular-en.txt")
    table: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or not line.strip():
                    continue
                form, lemma = line.split()
                table[form] = lemma
    except OSError:  # an install without the table still compares regular forms
        pass
    return table


@cache
def _stem_words() -> Callable[[list[str]], list[str]]:
    import Stemmer  # type: ignore[import-not-found]  # PyStemmer ships no type hints

    return Stemmer.Stemmer("english").stemWords  # type: ignore[no-any-return]


@cache
def _irregular_by_root() -> dict[str, frozenset[str]]:
    """Root -> the irregular forms whose lemma has it."""
    table = irregular_forms()
    lemmas = sorted(set(table.values()))
    stem_of = dict(zip(lemmas, _stem_words()([lemma.lower() for lemma in lemmas]), strict=True))
    forms: dict[str, set[str]] = {}
    for form, lemma in table.items():
        forms.setdefault(stem_of[lemma], set()).add(form)
    return {stem: frozenset(group) for stem, group in forms.items()}


def irregular_forms_of(root: str) -> frozenset[str]:
    """The irregular forms whose lemma has ``root`` (MEN for man, ATE for eat)."""
    return _irregular_by_root().get(root, frozenset())


def roots_of(entry: str, display: str | None = None, known: Callable[[str], bool] | None = None) -> frozenset[str]:
    """The roots of ``entry`` (written ``display``, e.g. "ice age"): see the module docstring.
    ``known`` answers whether a word is an entry of the list (for ACTRESS -> ACTOR)."""
    if not _LETTERS.fullmatch(entry):
        return frozenset()
    words = [w.upper() for w in _WORDS.findall(display)] if display and display.upper() != entry else [entry]
    if "".join(words) != entry:  # a display form that is not the entry's letters: compare the entry
        words = [entry]
    irregular = irregular_forms()
    lemmas = []
    for word in words:
        if word in IGNORED_WORDS:
            continue
        lemma = irregular.get(word, word)
        lemmas.append(lemma.lower())
        if len(lemma) >= FEMININE_MIN and lemma.endswith("RESS") and known is not None:
            masculine = lemma[:-4] + "OR"
            if known(masculine):
                lemmas.append(masculine.lower())
    return frozenset(stem for stem in _stem_words()(lemmas) if len(stem) >= MIN_STEM)


def shared_root_pairs(roots: Sequence[frozenset[str]]) -> list[tuple[int, int, str]]:
    """The pairs ``(i, j, root)`` (i < j) of positions whose roots meet, each pair once."""
    seen: dict[str, int] = {}
    pairs: dict[tuple[int, int], str] = {}
    for j, stems in enumerate(roots):
        for stem in sorted(stems):
            i = seen.get(stem)
            if i is not None and i != j and (i, j) not in pairs:
                pairs[(i, j)] = stem
            seen.setdefault(stem, j)
    return [(i, j, stem) for (i, j), stem in sorted(pairs.items())]
