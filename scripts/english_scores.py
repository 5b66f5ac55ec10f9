"""The dictionary score of a source form: how common a word is by SCOWL's size levels and
wordfreq, what kind of entry it is (word, phrase, name, abbreviation), before the editorial
evidence of :mod:`english_editorial` is weighed. The constants are the documented scale of
``docs/formats.md``.
"""

from __future__ import annotations

import re

from english_sources import Familiarity, Scowl, WordNet, tokens_of

#: SCOWL size level -> the score of a plain word first listed at that level (10 = the most common
#: words, 95 = the rarest). A word's wordfreq familiarity can lift it above this, by at most
#: FAMILIARITY_LIFT.
LEVEL_SCORES = {10: 75, 20: 72, 35: 68, 40: 64, 50: 60, 55: 55, 60: 50, 70: 38, 80: 28, 95: 18}
FAMILIARITY_LIFT = 15
#: A word in WordNet but in no SCOWL list up to 95 (mostly technical terms, and words SCOWL spells
#: with an accent, like CAFE): it scores WORDNET_ONLY_WORD, or its familiarity up to
#: WORDNET_ONLY_CEILING (a familiar word is a word, whatever SCOWL lacks).
WORDNET_ONLY_WORD = 30
WORDNET_ONLY_CEILING = 60
#: Ceilings by kind of entry: a word found only in UKACD (often a foreign or dialect word), an
#: abbreviation, a proper name, a phrase.
UKACD_ONLY_CEILING = 35
ABBREVIATION_CEILING = 55
NAME_CEILING = 65
#: An abbreviation in SCOWL scores its level's word score less ABBREVIATION_LEVEL_PENALTY, an
#: acronym written in capitals less ACRONYM_LEVEL_PENALTY (ATM, level 40: 54; CPU, level 50: 50;
#: a shortened word such as conj or Capt reads as an abbreviation in a grid); a name in SCOWL's
#: lists up to level 50 (common first names, countries) gains COMMON_NAME_BONUS, and one that
#: WordNet also defines (ETNA, ESAU, ZOLA: famous people, places, figures of myth) scores at least
#: FAMOUS_NAME_FLOOR.
ABBREVIATION_LEVEL_PENALTY = 15
ACRONYM_LEVEL_PENALTY = 10
#: An abbreviation's familiarity counts for less than a word's by this much.
ABBREVIATION_FAMILIARITY_PENALTY = 4
COMMON_NAME_BONUS = 8
FAMOUS_NAME_FLOOR = 50
PHRASE_CEILING = 70
#: A phrase scores its base when its least familiar word has Zipf 3 (score 38), and gains
#: PHRASE_FAMILIARITY_WEIGHT for each point of that word's score above 38.
WORDNET_PHRASE = 50
UKACD_PHRASE = 42
PHRASE_FAMILIARITY_WEIGHT = 0.5
#: Scores of what a constructor avoids: a Latin taxon (genus, family, binomial), a run of three
#: identical letters, a string of consonants.
TAXON_SCORE = 10
REPEATED_LETTERS_SCORE = 5
NO_VOWEL_CEILING = 25
#: A phrase that ends in a function word or starts with an article is a partial ("A LOT OF").
PARTIAL_PENALTY = 15
FUNCTION_WORDS = frozenset(
    ["a", "an", "the", "of", "to", "and", "or", "in", "on", "at", "by", "for", "from", "with", "as", "is"]
)
ARTICLES = frozenset({"a", "an", "the"})


def familiarity_score(zipf: float) -> float:
    """A Zipf frequency as a score: Zipf 1 -> 10, 3 -> 38, 4 -> 52, 5 -> 66, 6 -> 80."""
    return max(0.0, min(90.0, 10 + 14 * (zipf - 1)))


def score_form(form: str, sources: set[str], scowl: Scowl, wn: WordNet, freq: Familiarity) -> float:
    """The score of one source form (see the module docstring and the constants above)."""
    lower = form.lower()
    tokens = tokens_of(form)
    if len(tokens) > 1:
        return _score_phrase(form, tokens, sources, wn, freq)
    zipf = freq.zipf(tokens)
    letters = re.sub(r"[^a-z]", "", lower)
    if (form.isupper() and len(letters) > 1) or form in scowl.abbreviations or "." in form:
        level = scowl.abbreviations.get(form)
        score = min(ABBREVIATION_CEILING, familiarity_score(zipf) - ABBREVIATION_FAMILIARITY_PENALTY)
        if level is not None:
            penalty = ACRONYM_LEVEL_PENALTY if form.isupper() else ABBREVIATION_LEVEL_PENALTY
            score = max(score, min(ABBREVIATION_CEILING, LEVEL_SCORES.get(level, 18) - penalty))
    elif form[:1].isupper():
        if lower in wn.taxa:
            return TAXON_SCORE
        score = min(NAME_CEILING, familiarity_score(zipf))
        level = scowl.names.get(form)
        if level is not None and level <= 50:
            score = min(NAME_CEILING, score + COMMON_NAME_BONUS)
            if form in wn.forms.get(lower, ()):
                score = max(score, FAMOUS_NAME_FLOOR)
    else:
        level = scowl.words.get(form)
        if level is None and "wordnet" not in sources:
            score = min(UKACD_ONLY_CEILING, familiarity_score(zipf))
        else:
            if level is None:
                score = max(WORDNET_ONLY_WORD, min(familiarity_score(zipf), WORDNET_ONLY_CEILING))
            else:
                base = LEVEL_SCORES.get(level, 18)
                score = max(base, min(familiarity_score(zipf), base + FAMILIARITY_LIFT))
    return score


def _score_phrase(form: str, tokens: list[str], sources: set[str], wn: WordNet, freq: Familiarity) -> float:
    if form.lower() in wn.taxa:
        return TAXON_SCORE
    weakest = min(familiarity_score(freq.zipf([t])) for t in tokens)
    # WordNet's multi-word expressions are set phrases; UKACD's include looser ones
    base = WORDNET_PHRASE if "wordnet" in sources else UKACD_PHRASE
    # a phrase is only as good as its least familiar word: above Zipf 3 that lifts it a little,
    # below it (an unknown word) it sinks it point for point
    score = base + (weakest - 38) * (PHRASE_FAMILIARITY_WEIGHT if weakest >= 38 else 1.0)
    if any(t[:1].isupper() for t in form.split()):  # a place or a person: as famous as its words
        score = min(score, familiarity_score(freq.zipf(tokens)) + 10)
    if tokens[-1] in FUNCTION_WORDS or (tokens[0] in ARTICLES and len(tokens) == 2):
        score -= PARTIAL_PENALTY
    return min(PHRASE_CEILING, score)


def letter_string_ceiling(entry: str, score: float, common: bool) -> float:
    """Entries that read as letter strings: runs of three identical letters, no vowel."""
    if re.search(r"(.)\1\1", entry):
        return min(score, REPEATED_LETTERS_SCORE)
    if len(entry) >= 3 and not re.search("[AEIOUY]", entry) and not common:
        return min(score, NO_VOWEL_CEILING)
    return score


#: Endings that make an inflected or derived form of a vulgar word (CRAP -> CRAPPERS, CRAPPIER).
#: The doubled P is spelled out: doubling every final consonant flagged SHAGGY and WHIZZING too
