"""The editorial stage of a built-in English score: would an editor print this entry?

The dictionary score (:mod:`english_scores`) says how common a form is in the dictionaries; this
stage weighs the evidence that an editor would accept it as an answer, in three steps:

1. **A ceiling from what the form is**, when nothing says people write it: a word wordfreq has
   never seen (NOT_WRITTEN_CEILING); a rare inflection or derivation of a common word (SISES,
   HEPPER, OVERSPECIALISES: far rarer than its base, RARE_FORM_GAP) and a word only UKACD lists
   (UNLISTED_LEVEL) score their own familiarity plus RARE_FORM_LIFT; a dictionary word few people
   write scores its familiarity plus LEMMA_LIFT; a short entry (SHORT_ENTRY letters or fewer) that
   no published puzzle used scores its familiarity plus SHORT_ABSENT_LIFT (every short word an
   editor likes has been used); an abbreviation no puzzle used, at most
   UNUSED_ABBREVIATION_CEILING; a phrase by how sure we are that people say it (PHRASE_CEILINGS:
   SemCor tagged it, both dictionaries list it, one does), a species name of a plant or an animal,
   or an inflected phrase (FORCE LANDS) far lower.
2. **A floor from published crosswords**: an answer used in many puzzles, lately, is one editors
   accept (PUBLISHED_BASE + PUBLISHED_WEIGHT x evidence x recency); for a single word the floor
   stays within PUBLISHED_FAMILIARITY_LIFT of its familiarity, so crosswordese a solver learns
   only from crosswords (ESNE, ETUI) stays in the "when a corner needs it" band.
3. **A spelling tag**: a form SCOWL lists only in its British (or only in its American) lists is
   tagged so a fill can keep to one spelling; a phrase takes the tag of its words.

Every constant is named here and documented in ``docs/formats.md``; the benchmark
``benchmarks/fill_quality.py`` measures what the fills spend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from english_scores import ARTICLES, FUNCTION_WORDS, PHRASE_CEILING, familiarity_score
from english_sources import Familiarity, Published, Scowl, WordNet, tokens_of

#: A word wordfreq has never seen (Zipf 0) and no puzzle used: nobody writes it.
NOT_WRITTEN_CEILING = 25
#: An inflected or derived form this many Zipf points (a factor of 10 each) rarer than its base is
#: a rare form (SISES beside SIS, HEPPER beside HEP); a regular one (CATS, ABATES) keeps its score.
RARE_FORM_GAP = 2.0
#: The same for a comparative or superlative (-ER, -EST): one that is rare beside its adjective is
#: an adjective that takes "more" (HEPPER).
COMPARATIVE_GAP = 1.0
#: A rare form scores its own familiarity plus this.
RARE_FORM_LIFT = 10
#: A word neither WordNet nor SCOWL's lists up to this level hold (UKACD's foreign and dialect
#: words: VOE, TACE) scores as a rare form.
UNLISTED_LEVEL = 60
#: A dictionary word scores at most its familiarity plus this (CUISSE, NONMORAL: Zipf 0 -> 25;
#: Zipf 2 -> 49; Zipf 3 -> 63).
LEMMA_LIFT = 25
#: Entries of this many letters or fewer that no published puzzle used score at most their
#: familiarity plus SHORT_ABSENT_LIFT.
SHORT_ENTRY = 5
SHORT_ABSENT_LIFT = 20
#: An abbreviation no published puzzle used ("abbreviations nobody writes").
UNUSED_ABBREVIATION_CEILING = 30
#: Phrase ceilings by the evidence that it is a phrase people say, when fewer than
#: PHRASE_PUBLISHED_MIN puzzles used it: SemCor tagged it PHRASE_TAGGED_MIN times or more
#: ("tagged"), it is an idiom or a title (IDIOM_MIN_WORDS words or more with a function word
#: inside: OUT TO LUNCH, NORTH BY NORTHWEST), WordNet and UKACD both list it ("both"), only one of
#: them does. A compound of two words (LEAD LINE, SWORD CUT) needs more than a dictionary entry.
PHRASE_CEILINGS = {"tagged": 60, "idiom": 55, "both": 38, "wordnet": 35, "ukacd": 35}
PHRASE_TAGGED_MIN = 2
IDIOM_MIN_WORDS = 3
PHRASE_PUBLISHED_MIN = 2
#: A partial phrase (is_partial) scores at most this, however often puzzles used it.
PARTIAL_CEILING = 40
#: The last words that leave a phrase partial: articles and prepositions.
#: (a conjunction or a verb ending a phrase is left to the dictionary score's partial penalty: AS IS
#: is a phrase people say)
PARTIAL_ENDINGS = FUNCTION_WORDS - {"and", "or", "as", "is"}
#: A species name of a plant or an animal that no puzzle used (SWAMP COTTONWOOD, GOLDILOCKS
#: ASTER). A phrase whose last word is inflected scores as its base phrase less
#: INFLECTED_PHRASE_DROP (MAGNETIC FIELDS as MAGNETIC FIELD), or at most INFLECTED_PHRASE_CEILING
#: when no dictionary lists the base phrase (FORCE LANDS, ARENA STAGES).
ORGANISM_PHRASE_CEILING = 25
INFLECTED_PHRASE_DROP = 5
INFLECTED_PHRASE_CEILING = 30
#: The published floor: PUBLISHED_BASE + PUBLISHED_WEIGHT x evidence x recency, where evidence is
#: log(1 + puzzles) / log(1 + PUBLISHED_FULL) at most 1 (50 puzzles or more: full evidence) and
#: recency RECENCY[k] for the first year bound k the answer was last used in or after.
PUBLISHED_BASE = 20
PUBLISHED_WEIGHT = 40
PUBLISHED_FULL = 50
RECENCY = ((2005, 1.0), (1995, 0.75), (0, 0.5))
#: A phrase used in puzzles may score up to this much above its evidence ceiling, per unit of
#: published evidence (a phrase used in 50 recent puzzles is a phrase people say).
PUBLISHED_PHRASE_LIFT = 30
#: A single word's published floor stays within this of its familiarity (crosswordese).
PUBLISHED_FAMILIARITY_LIFT = 22

#: WordNet's rules of detachment (morphy): suffix -> replacement, for nouns, verbs, adjectives;
#: with doubled final consonants (HEPPER, STOPPED) and -ier/-iest handled as WordNet does.
DETACHMENTS = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"), ("ier", "y"), ("iest", "y"),
)  # fmt: skip
#: Derivational endings and prefixes of a rare derivation (NONMORAL, ACTRESSY, BLUENESS).
DERIVATION_SUFFIXES = ("ness", "ly", "ers", "er", "ism", "ist", "ish", "y", "able", "less", "ful", "ment", "ess")
DERIVATION_PREFIXES = ("non", "un", "re", "over", "under", "out", "mis", "pre", "anti", "semi", "sub", "super", "dis")
#: A derivation scores as a rare form when its Zipf is under this.
RARE_DERIVATION_ZIPF = 2.0


@dataclass(frozen=True)
class Evidence:
    """Every source the editorial stage reads."""

    wn: WordNet
    scowl: Scowl
    freq: Familiarity
    published: dict[str, Published]


def bases_of(lower: str, wn: WordNet) -> set[str]:
    """The WordNet lemmas ``lower`` is an inflection of (exceptions first, then the rules)."""
    found = {b for b in wn.exceptions.get(lower, ()) if b != lower}
    for suffix, replacement in DETACHMENTS:
        if lower.endswith(suffix) and len(lower) > len(suffix) + 1:
            stem = lower[: -len(suffix)] + replacement
            if stem in wn.forms:
                found.add(stem)
            # a doubled final consonant (stopped, hepper)
            if not replacement and len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in wn.forms:
                found.add(stem[:-1])
    found.discard(lower)
    return found


def derived_from(lower: str, wn: WordNet, scowl: Scowl) -> str | None:
    """A common word ``lower`` is derived from by a suffix or a prefix, or None."""
    known = wn.forms
    for suffix in DERIVATION_SUFFIXES:
        stem = lower[: -len(suffix)]
        if lower.endswith(suffix) and len(stem) >= 3:
            for base in (stem, stem + "e", stem[:-1] + "y" if stem.endswith("i") else stem):
                if base in known or scowl.words.get(base, 999) <= 50:
                    return base
    for prefix in DERIVATION_PREFIXES:
        rest = lower[len(prefix) :]
        if lower.startswith(prefix) and len(rest) >= 3 and (rest in known or scowl.words.get(rest, 999) <= 50):
            return rest
    return None


def is_partial(tokens: list[str]) -> bool:
    """A partial phrase: two words starting with an article (AN END), or a phrase ending in an
    article or a preposition (ALL TO, A LOT OF)."""
    return (len(tokens) == 2 and tokens[0] in ARTICLES) or tokens[-1] in PARTIAL_ENDINGS


def published_evidence(use: Published | None) -> float:
    """0-1: how strongly published crosswords vouch for an answer (uses, weighed by recency)."""
    if use is None:
        return 0.0
    weight = min(1.0, math.log(1 + use.puzzles) / math.log(1 + PUBLISHED_FULL))
    recency = next(r for year, r in RECENCY if use.last_year >= year)
    return weight * recency


def word_ceiling(lower: str, ev: Evidence) -> float:
    """The ceiling of a single lower-case word (step 1 of the module docstring)."""
    zipf = ev.freq.zipf([lower])
    familiar = familiarity_score(zipf)
    if zipf == 0:
        return NOT_WRITTEN_CEILING
    ceiling = 100.0
    if lower not in ev.wn.forms:
        bases = bases_of(lower, ev.wn)
        if bases:
            base_zipf = max(ev.freq.zipf([b]) for b in bases)
            gap = COMPARATIVE_GAP if lower.endswith(("er", "est")) else RARE_FORM_GAP
            if zipf < base_zipf - gap:
                ceiling = familiar + RARE_FORM_LIFT
        else:
            derived = zipf < RARE_DERIVATION_ZIPF and derived_from(lower, ev.wn, ev.scowl) is not None
            if derived or ev.scowl.words.get(lower, 999) > UNLISTED_LEVEL:
                ceiling = familiar + RARE_FORM_LIFT
    elif zipf < RARE_DERIVATION_ZIPF and derived_from(lower, ev.wn, ev.scowl) is not None:
        ceiling = familiar + RARE_FORM_LIFT  # a dictionary's rare derivation (DENSENESS)
    else:
        ceiling = familiar + LEMMA_LIFT
    return ceiling


def phrase_ceiling(form: str, tokens: list[str], sources: set[str], ev: Evidence) -> float:
    """The ceiling of a phrase (step 1 of the module docstring)."""
    lower = " ".join(tokens)
    if lower in ev.wn.organisms:
        return ORGANISM_PHRASE_CEILING
    last = tokens[-1]
    if lower not in ev.wn.forms and last not in ev.wn.forms and last not in FUNCTION_WORDS:
        listed = [" ".join([*tokens[:-1], base]) for base in sorted(bases_of(last, ev.wn))]
        listed = [phrase for phrase in listed if phrase in ev.wn.forms]
        if listed:
            return phrase_ceiling(listed[0], listed[0].split(), {"wordnet"}, ev) - INFLECTED_PHRASE_DROP
        if bases_of(last, ev.wn):
            return INFLECTED_PHRASE_CEILING
    if ev.wn.tagged.get(lower, 0) >= PHRASE_TAGGED_MIN:
        return PHRASE_CEILINGS["tagged"]
    # an idiom is written as words (OUT TO LUNCH); a hyphenated noun is a compound (GENTLEMAN-AT-ARMS)
    spaced = "-" not in form
    if spaced and len(tokens) >= IDIOM_MIN_WORDS and any(t in FUNCTION_WORDS for t in tokens[1:-1]):
        return PHRASE_CEILINGS["idiom"]
    if "wordnet" in sources and "ukacd" in sources:
        return PHRASE_CEILINGS["both"]
    return PHRASE_CEILINGS["wordnet" if "wordnet" in sources else "ukacd"]


def editorial_score(form: str, entry: str, score: float, sources: set[str], kind: str, ev: Evidence) -> float:
    """``score`` (the dictionary score of ``form``, an entry of ``kind`` word, phrase, name or
    abbreviation) after the editorial evidence (the module docstring)."""
    use = ev.published.get(entry)
    evidence = published_evidence(use)
    tokens = tokens_of(form)
    if kind == "phrase":
        ceiling = phrase_ceiling(form, tokens, sources, ev)
        if use is not None and use.puzzles >= PHRASE_PUBLISHED_MIN:
            ceiling += PUBLISHED_PHRASE_LIFT * evidence
        floor = min(PHRASE_CEILING, PUBLISHED_BASE + PUBLISHED_WEIGHT * evidence) if use else 0.0
        if is_partial(tokens):  # however often puzzles used it (AN END, ALL TO)
            return min(max(min(score, ceiling), floor), PARTIAL_CEILING)
    else:
        familiar = familiarity_score(ev.freq.zipf(tokens))
        ceiling = 100.0
        if kind == "word":
            ceiling = word_ceiling(form.lower(), ev)
        elif kind == "abbreviation" and use is None:
            ceiling = UNUSED_ABBREVIATION_CEILING
        if use is None and len(entry) <= SHORT_ENTRY:
            ceiling = min(ceiling, familiar + SHORT_ABSENT_LIFT)
        floor = min(PUBLISHED_BASE + PUBLISHED_WEIGHT * evidence, familiar + PUBLISHED_FAMILIARITY_LIFT) if use else 0.0
    return max(min(score, ceiling), floor)


def spelling_of(form: str, scowl: Scowl) -> str:
    """``"b"`` for a British-only spelling (COLOUR, GREYED, DETENTION CENTRE), ``"a"`` for an
    American-only one (COLOR), ``""`` for a form every spelling shares or SCOWL does not tag."""
    tags = set()
    for token in tokens_of(form):
        lists = scowl.spellings.get(token, set())
        if "english" in lists or not lists:
            continue
        if "british" in lists and "american" not in lists:
            tags.add("b")
        elif "american" in lists and "british" not in lists:
            tags.add("a")
    return "".join(sorted(tags)) if len(tags) == 1 else ""
