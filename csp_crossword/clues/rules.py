"""The rules every clue we offer keeps: it never gives its answer away, and it is never offensive.

A clue gives its answer away when one of its words is the answer, shares the answer's stem
(RATED and "rate", EASES and "easing"), holds the answer inside a longer word (ART in "start")
or is, at four letters or more, inside the answer ("absent" for ABSENTEE), or starts as the
answer does for most of its length ("defensive" for DEFENSE, "vegetation" for VEGETATE, "Asiatic"
for ASIAN: a derivation the stem rule misses), or is the same word with a derivational suffix off
("able" for ABILITY, "codify" and "codification" for CODE) or a pet form's ("Teddy" for TEDS);
for a phrase answer (ICEAGE, "ice age") the same goes for each of its longer words, and for a
contraction (ISN'T) for each of its halves however short ("Is not"). An abbreviation is given
away by its expansion: clue words whose initials spell the answer ("Central Intelligence Agency,
for short" for CIA, "Master of Business Administration" for MBA), and, in a clue that says it
clues an abbreviation ("Abbr.", "org.", "for short"), by part of its expansion ("Social Security
org." for SSA, "Double plays: Abbr." for DPS) or by the one word it shortens ("Percent: Abbr." for
PCT). A word and the answer made of one root with another prefix give it away too ("Immeasurable"
for UNMEASURABLE, "revenge" for AVENGED).
A clue is offensive when one of its words (or that word without an inflection's ending) is a
slur or a word vulgar wherever it stands (``words/data/vulgar-en.txt``: bodily functions and
sexual terms). The list's wider filter for entries (better-profanity's list: GOD, HELL, ORGAN,
STRIPES) is not applied to clues, where such words are ordinary ("Stars and Stripes", "Killer
whale", "___ Gay, W.W. II bomber").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

#: Endings stripped to compare stems, longest first.
STEM_ENDINGS = ("ings", "ing", "iest", "ies", "est", "ied", "ers", "ed", "er", "es", "ly", "s")
#: A stem keeps at least this many letters (so "bed" is not "b").
MIN_STEM = 3
#: An answer hidden in a clue word of at least this length gives the answer away ("start" for
#: ART); shorter words are the answer itself or its stem, checked apart.
MIN_HOST_WORD = 4
#: Words of a phrase answer compared by stem and as parts of longer words; shorter ones, and the
#: function words, give the answer away only as they stand: "In trouble" for INASPOT ("in a spot"),
#: "Of a kind" for OFASORT (but "Into" is no giveaway for INASPOT, nor "often" for OFASORT).
MIN_PHRASE_WORD = 3
PHRASE_FUNCTION_WORDS = frozenset({"the", "and", "for", "with", "from", "into", "onto", "upon"})
#: Words a phrase answer may share with its clue: an article ("a", "an") says nothing.
SHARED_PHRASE_WORDS = frozenset({"a", "an"})
#: A clue word and the answer starting alike over SHARED_PREFIX letters, or over
#: SHARED_SHARE of the shorter one (and at least MIN_HOST_WORD letters), are one word's forms.
SHARED_PREFIX = 6
SHARED_SHARE = 0.75
#: Endings of an inflected or derived vulgar word ("bitches", "pissed", "fucking", "shitty").
OFFENSIVE_ENDINGS = ("S", "ES", "ED", "D", "ING", "ER", "ERS", "Y", "IER", "IEST")
#: Ordinary words that look like an offensive word with one of OFFENSIVE_ENDINGS ("spicy" is no
#: inflection of a slur; "craps" is the dice game).
ORDINARY_LOOKALIKES = frozenset({"SPICE", "SPICES", "SPICED", "SPICY", "SPICER", "SPICIER", "SPICIEST", "CRAPS"})
#: Derivational suffixes, longest first, with what the root had before them ("ability": "able",
#: "codification": "code"): a clue word and the answer whose roots agree are one word's forms.
DERIVATIONS = (("ification", ""), ("ability", "able"), ("ibility", "ible"), ("ication", ""), ("ation", ""),
               ("ition", ""), ("ility", "le"), ("ness", ""), ("ment", ""), ("ify", ""), ("ity", ""),
               ("ize", ""), ("ise", ""), ("ous", ""), ("ful", ""), ("ive", ""), ("al", ""))  # fmt: skip
#: A root keeps at least this many letters ("cod" of "codify" and CODE).
MIN_ROOT = 3
#: The second half of an English contraction, spelt out ("isn't": "is" and "not").
CONTRACTIONS = {"n't": "not", "'ll": "will", "'re": "are", "'ve": "have", "'d": "would", "'s": "is", "'m": "am"}
#: A pet form: a doubled consonant and -y or -ie ("Teddy" of TED, "doggie" of DOG).
PET_FORM = re.compile(r"^([a-z]*?)([b-df-hj-np-tv-z])\2(y|ie)$")
#: British spellings that the American ones of a clue would hide from the rules.
AMERICAN_FORMS = {"isation": "ization", "ising": "izing", "ised": "ized", "ises": "izes", "ise": "ize"}
BRITISH_SPELLING = re.compile("|".join(sorted(AMERICAN_FORMS, key=len, reverse=True)))
#: Small words an expansion's initials skip ("Master of Business Administration": MBA).
INITIALISM_SKIPPED = frozenset({"of", "and", "the", "for", "in", "on", "to", "a", "an"})
#: Answers of this many letters can be an expansion's initials.
INITIALISM_LENGTHS = range(2, 9)
#: Words by which a clue says its answer is an abbreviation (then part of the expansion, or the
#: one word shortened, gives the answer away).
ABBREVIATION_SIGNAL = re.compile(r"\babbrs?\b|\borgs?\b|\bagcy\b|\bgrp\b|\bassn\b|\binits\b|for short|briefly", re.I)
#: Initials of this many words or more that start the answer are a partial expansion (SSA).
PARTIAL_INITIALS = 2
#: Prefixes taken off both words before comparing their roots ("un-measurable", "im-measurable"),
#: longest first; the root left keeps at least MIN_PREFIXED_ROOT letters.
ROOT_PREFIXES = ("over", "under", "out", "mis", "non", "dis", "pre", "re", "un", "in", "im", "en", "em", "be",
                 "de", "ex", "co", "a")  # fmt: skip
MIN_PREFIXED_ROOT = 4
#: A clue's words: runs of letters (an apostrophe inside a word belongs to it: "o'er").
WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")


def strip_ending(word: str) -> str:
    """``word`` in lower case with one inflectional ending off ("butted" -> "butt")."""
    word = word.lower().replace("'", "")
    for ending in STEM_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM:
            return word[: -len(ending)]
    return word


@lru_cache(maxsize=1 << 16)  # words recur: a million imported clues have far fewer distinct words
def stem(word: str) -> str:
    """A crude stem for comparing words: one ending off, then a final E and a doubled final
    consonant (RATED and RATE -> "rat", RUNNING and RUN -> "run", HAPPIER and HAPPY -> "happi")."""
    word = strip_ending(word)
    if word.endswith("y") and len(word) > MIN_STEM:
        word = word[:-1] + "i"
    if word.endswith("e") and len(word) > MIN_STEM:
        word = word[:-1]
    if len(word) > MIN_STEM and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def american(word: str) -> str:
    """``word`` with the British -is- of -ise, -ised, -ising, -isation spelt -iz- (SPECIALISED and
    "specialized" are one word). Both sides of a comparison go through it, so two words it makes
    alike differ in that letter only. (-our is left: FOUR and "for" are not one word.)"""
    return BRITISH_SPELLING.sub(lambda match: AMERICAN_FORMS[match.group(0)], word)


def clue_words(clue: str) -> list[str]:
    return WORD.findall(clue.lower())


def reveals(answer: str, clue: str, answer_words: Iterable[str] = ()) -> bool:
    """Whether ``clue`` gives ``answer`` away (see the module docstring); ``answer_words`` are
    the words of a phrase answer's display form ("ice age")."""
    given = (answer.lower(), clue.lower(), [w.lower() for w in answer_words])
    if _reveals(*given) or _contraction_half(given[1], given[2]) or spells_initials(given[0], given[1]):
        return True
    if ABBREVIATION_SIGNAL.search(clue) and expands_abbreviation(given[0], given[1]):
        return True
    # a British -ise answer and an American -ize clue (or the other way round) are one word
    spelt = (american(given[0]), american(given[1]), [american(w) for w in given[2]])
    return spelt != given and _reveals(*spelt)


def _reveals(answer: str, clue: str, answer_words: list[str]) -> bool:
    targets = {answer}
    targets.update(w for w in answer_words if len(w) >= MIN_PHRASE_WORD)
    targets -= PHRASE_FUNCTION_WORDS
    # the phrase's short and function words, as they stand
    as_they_stand = {w.replace("'", "") for w in answer_words} - SHARED_PHRASE_WORDS - targets
    stems = {stem(t) for t in targets}
    root_targets = set().union(*(roots_of(t) for t in targets))
    for word in clue_words(clue):
        plain = word.replace("'", "")
        if plain in targets or stem(plain) in stems or plain in as_they_stand:
            return True
        if len(plain) >= MIN_HOST_WORD and any(t in plain for t in targets):
            return True
        # a clue word inside the answer ("absent" for ABSENTEE, "antlers" for ANTLERED)
        roots = {plain, stem(plain)} | {plain[: -len(e)] for e in STEM_ENDINGS if plain.endswith(e)}
        roots |= {root.rstrip("e") for root in roots}  # "donne" in DONNIAN, "committee" in RECOMMITTING
        if any(len(root) >= MIN_HOST_WORD and root in t for root in roots for t in targets):
            return True
        if any(_same_start(plain, target) for target in targets):
            return True
        if roots_of(plain) & root_targets or _pet_root(plain) in stems | targets:
            return True
        # one root under two prefixes ("revenge" for AVENGED, "Immeasurable" for UNMEASURABLE)
        root = prefixed_root(plain)
        if root and any(root in (prefixed_root(t), stem(t)) for t in targets):
            return True
    # the answer run together from several clue words ("ice age" for ICEAGE)
    return len(answer) >= MIN_HOST_WORD and answer in "".join(clue_words(clue)).replace("'", "")


def spells_initials(answer: str, clue: str) -> bool:
    """Whether consecutive words of ``clue`` (small ones skipped) start with the letters of
    ``answer`` in order: the abbreviation spelt out ("Very high frequency" for VHF)."""
    letters = answer.lower().replace("'", "")
    if len(letters) not in INITIALISM_LENGTHS or not letters.isalpha():
        return False
    initials = [word[0] for word in clue_words(clue) if word not in INITIALISM_SKIPPED]
    return any("".join(initials[start : start + len(letters)]) == letters for start in range(len(initials)))


def expands_abbreviation(answer: str, clue: str) -> bool:
    """Whether a clue known to clue an abbreviation spells part of it out: consecutive words whose
    initials start the answer (PARTIAL_INITIALS or more; "Double plays" for DPS), or, the clue
    being one word besides its signal, that word holds the answer's letters in order from its
    first ("Percent: Abbr." for PCT)."""
    letters = answer.lower().replace("'", "")
    if not letters.isalpha() or len(letters) not in INITIALISM_LENGTHS:
        return False
    words = clue_words(ABBREVIATION_SIGNAL.sub(" ", clue))
    initials = "".join(word[0] for word in words if word not in INITIALISM_SKIPPED)
    starts = {letters[:k] for k in range(PARTIAL_INITIALS, len(letters) + 1)}
    if any(initials[i : i + len(start)] == start for start in starts for i in range(len(initials))):
        return True
    if len(words) == 1 and len(words[0]) > len(letters) and words[0][0] == letters[0]:
        rest = iter(words[0])
        return all(letter in rest for letter in letters)
    return False


@lru_cache(maxsize=1 << 16)
def prefixed_root(word: str) -> str:
    """``word``'s stem with one of ROOT_PREFIXES off ("immeasurable": "measurabl"), or "" when it
    has none that leaves MIN_PREFIXED_ROOT letters."""
    stemmed = stem(word)
    for prefix in ROOT_PREFIXES:
        if stemmed.startswith(prefix) and len(stemmed) - len(prefix) >= MIN_PREFIXED_ROOT:
            return stemmed[len(prefix) :]
    return ""


@lru_cache(maxsize=1 << 16)  # a clue word recurs across a million imported clues
def roots_of(word: str) -> frozenset[str]:
    """``word``'s stem and its stems with a derivational suffix off ("ability": "abl";
    "codification": "cod"), of MIN_ROOT letters or more."""
    found = {stem(word)}
    for suffix, root in DERIVATIONS:
        if word.endswith(suffix) and len(word) - len(suffix) + len(root) >= MIN_ROOT:
            found.add(stem(word[: -len(suffix)] + root))
            break
    return frozenset(root for root in found if len(root) >= MIN_ROOT)


@lru_cache(maxsize=1 << 16)
def _pet_root(word: str) -> str:
    """The name a pet form is made from ("teddy": "ted"); "" when ``word`` is none."""
    match = PET_FORM.match(word)
    return match.group(1) + match.group(2) if match and len(match.group(1)) >= 1 else ""


def _contraction_half(clue: str, answer_words: list[str]) -> bool:
    """Whether a contraction answer ("isn't") has both its halves in ``clue`` ("Is not")."""
    if not any("'" in word for word in answer_words):
        return False
    words = set(clue_words(clue))
    for word in answer_words:
        for ending, full in CONTRACTIONS.items():
            if word.endswith(ending) and len(word) > len(ending):
                first = word[: -len(ending)]
                first = {"ca": "can", "wo": "will", "sha": "shall"}.get(first, first)
                if first in words or (full in words and first in {w.rstrip("'") for w in words}):
                    return True
    return False


def _same_start(word: str, target: str) -> bool:
    """Whether two words share a start long enough to be forms of one word (DEFENSE, "defensive")."""
    shared = next((k for k, (a, b) in enumerate(zip(word, target)) if a != b), min(len(word), len(target)))
    shortest = min(len(word), len(target))
    return shared >= SHARED_PREFIX or (shared >= MIN_HOST_WORD and shared >= SHARED_SHARE * shortest)


@lru_cache(maxsize=1)
def offensive_words() -> frozenset[str]:
    """Upper-case words never shown in a clue: our slurs and our words vulgar wherever they stand."""
    from ..words.builtin import _blocklist

    return frozenset(_blocklist("en") | _vulgar_phrase_words())


def _vulgar_phrase_words() -> set[str]:
    """The list's words vulgar wherever they stand (``words/data/vulgar-en.txt``)."""
    from importlib import resources

    text = resources.files("csp_crossword.words").joinpath("data", "vulgar-en.txt").read_text("utf-8")
    return {line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def is_offensive(clue: str) -> bool:
    """Whether a word of ``clue`` is a slur or a vulgar word (:func:`offensive_words`), as it
    stands or inflected ("pissed", "bitches", "shitty"; not "analysis" for ANAL)."""
    forms = offensive_forms()
    return any(word.replace("'", "").upper() in forms for word in clue_words(clue))


@lru_cache(maxsize=1)
def offensive_forms() -> frozenset[str]:
    """Every offensive word with each of OFFENSIVE_ENDINGS, its last consonant doubled or not
    ("shitty", "crappy"): one set lookup a clue word, as importing a million clues needs."""
    forms = set(offensive_words())
    for word in offensive_words():
        for ending in OFFENSIVE_ENDINGS:
            forms.update((word + ending, word + word[-1] + ending))
    return frozenset(forms - ORDINARY_LOOKALIKES)
