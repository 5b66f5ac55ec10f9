"""How good a candidate clue is, as a number (lower is better), for ``clue_writer.py``: the clues of
an entry are ranked by it before any is kept, so a short familiar synonym of the sense a solver
knows comes first, and a long gloss of a rare sense last.

Three things add up, each in "bits" of doubt (a cost of 1 is a sense half as likely, or a clue
half as good):

* the sense: how often WordNet's semantic concordance tagged the entry's word in that sense
  (``cntlist.rev``), against its best-known sense's count; senses never tagged fall back on how
  often the synset's other words were tagged, WordNet's order and how richly the synset is linked,
  and a capitalised sense (Tamale the city, DoC the department) of a word that also has a
  lower-case one counts less;
* the kind of clue: a synonym, the definition, a cut definition, a broader term;
* the wording: a synonym that is mostly used in another sense ("Get" for SIRE, "Eat" for USEUP),
  a rare word ("Abies"), a long clue, or a clue whose head is a word that fits anything
  ("Substance", "Collection").
"""

from __future__ import annotations

import math
import re
from functools import cache

from clue_wordnet import Synset, WordNetData

#: A tagged use of a sense outweighs every guess about untagged ones: a count's weight.
TAG_WEIGHT = 2.0
#: Sense weights of senses never tagged: WordNet's first sense, a later one, and a share of the
#: counts the synset's other words got, capped (DOC's "doctor" synset: 80; its "Commerce" one: 2;
#: a synset's words being common says little of this word's use in it: STAG and "denounce").
FIRST_SENSE_PRIOR = 0.5
LATER_SENSE_PRIOR = 0.4
SYNSET_COUNT_SHARE = 0.02
MAX_SYNSET_PRIOR = 0.5
#: An untagged sense's prior by part of speech: a crossword entry is more often a noun (STAG the
#: deer, not the verb "snoop").
POS_PRIOR = {"n": 2.0, "a": 1.3, "v": 1.0, "r": 1.0}
#: Per unit of Zipf frequency above SYNONYM_ZIPF of the synset's most common other word: a sense
#: with a common synonym is a known one (SODA's drink, "pop", before its chemical, "sal soda").
SYNONYM_PRIOR = 0.15
SYNONYM_ZIPF = 3.0
#: Per pointer of a synset (hyponyms, parts, members...), up to MAX_POINTERS: a richly linked
#: sense is a better known one (the wildcat before the text browser for LYNX).
POINTER_PRIOR = 0.03
MAX_POINTERS = 10
#: A capitalised sense's weight is multiplied by this when the entry also has lower-case senses.
CAPITAL_FACTOR = 0.2
#: An inflection's senses (TEDS as the plural of "ted") weigh less than the entry's own lemma's.
INFLECTION_FACTOR = 0.5
#: Cost per bit of a sense's share; the cost is capped (an untagged sense is not infinitely rare).
SENSE_WEIGHT = 2.0
MAX_SENSE_COST = 8.0
#: Cost of each kind of clue (``clue_writer``'s quality ranks): 0 a familiar synonym, an
#: expansion, a letter or a name's blank; 1 the definition; 2 a cut definition; 3 a less familiar
#: synonym or a later clause; 4 the nearest broader term; 5 and on farther broader terms.
QUALITY_COST = {0: 0.0, 1: 1.0, 2: 1.6, 3: 2.2, 4: 2.0, 5: 3.5, 6: 4.5}
#: Per bit of how rarely a synonym means this sense (its tagged count here over its count in all
#: senses, smoothed by SYNONYM_SMOOTHING a sense), capped at MAX_AMBIGUITY bits.
AMBIGUITY_WEIGHT = 0.3
MAX_AMBIGUITY = 6.0
SYNONYM_SMOOTHING = 0.5
#: The share of a synonym's doubt that its other parts of speech add.
CROSS_POS_SHARE = 0.5
#: Per point of the built-in list's score (how familiar a word is) a synonym is below
#: FAMILIAR_SCORE: a phrase of common words can be a rare synonym ("Do by", "Balls up").
FAMILIAR_SCORE = 75
FAMILIAR_WEIGHT = 0.06
#: Words of a clue beyond LONG_CLUE_WORDS cost WORD_COST each, beyond MAX_CLUE_WORDS more.
LONG_CLUE_WORDS = 3
MAX_CLUE_WORDS = 6
WORD_COST = 0.25
EXTRA_WORD_COST = 0.6
#: A clue word rarer than this Zipf frequency (wordfreq: 3 is once per million words) costs
#: RARE_WORD_COST per unit below it.
FAMILIAR_ZIPF = 3.0
RARE_WORD_COST = 0.5
#: Words that fit nearly anything: a clue of one or two words headed by one is too broad.
GENERAL_HEADS = frozenset(
    {"substance", "thing", "object", "something", "someone", "person", "collection", "act", "action",
     "quality", "state", "condition", "group", "material", "matter", "entity", "part", "piece", "kind",
     "type", "sort", "form", "way", "process", "activity", "event", "place", "area", "region", "earth",
     "land", "attribute", "property", "structure", "unit", "measure", "item", "member", "people",
     "abstraction", "artifact", "being", "organism", "relation", "change", "instrumentality", "device",
     "period", "time", "list"}
)  # fmt: skip
GENERAL_COST = 3.0
#: A class with more instances than this is no clue for one of them ("European country": 39 for
#: ITALY, "City": 664 for a city), where a class of things ("Dish" for TAMALE) is.
MAX_HYPONYMS = 30
#: Clues that open like this are weaker forms: "Of the nose" (an adjective's "relating to").
WEAK_OPENINGS = re.compile(r"^(Of|In|Relating to|Pertaining to) ")
WEAK_OPENING_COST = 1.0
WORD = re.compile(r"[A-Za-z]+")
#: How a clue says its answer is short for something: not counted in its length.
ABBREVIATION_TAGS = re.compile(r"(, for short|: Abbr\.)$")
SMALL_WORDS = frozenset({"a", "an", "the", "of", "in", "on", "to", "or", "and", "for", "by", "with", "as", "at"})


def sense_weight(wn: WordNetData, lemma: str, pos: str, offsets: list[str], index: int, lower_case: bool) -> float:
    """How well known the ``index``-th sense of ``lemma`` is (a tag count, or a prior for an
    untagged sense); ``lower_case``: whether the lemma has any lower-case sense."""
    offset = offsets[index]
    synset = wn.synsets[(pos, offset)]
    own = wn.sense_count(lemma, pos, offset)
    prior = FIRST_SENSE_PRIOR if index == 0 else LATER_SENSE_PRIOR
    prior += POINTER_PRIOR * min(synset.pointers, MAX_POINTERS)
    prior += min(MAX_SYNSET_PRIOR, SYNSET_COUNT_SHARE * (wn.synset_counts.get((pos, offset), 0) - own))
    others = [w for w in synset.words if w.lower() != lemma and w.islower()]
    prior += SYNONYM_PRIOR * max([0.0] + [zipf(w) - SYNONYM_ZIPF for w in others])
    weight = TAG_WEIGHT * own + prior * POS_PRIOR[pos]
    word = own_word(lemma, synset)
    if word[:1].isupper() and lower_case:
        weight *= CAPITAL_FACTOR
    return weight


def own_word(lemma: str, synset: Synset) -> str:
    """The synset's spelling of ``lemma`` ("DoC" for doc)."""
    bare = re.sub(r"[^a-z]", "", lemma.lower())
    return next((w for w in synset.words if re.sub(r"[^a-z]", "", w.lower()) == bare), lemma)


def sense_cost(weight: float, total: float) -> float:
    """Bits of doubt of a sense of ``weight`` against ``total`` (the best-known sense's)."""
    return min(MAX_SENSE_COST, SENSE_WEIGHT * -math.log2(weight / total)) if total > 0 else 0.0


def ambiguity(wn: WordNetData, word: str, pos: str, offset: str) -> float:
    """The cost of a synonym that mostly means something else: bits of its tagged share in this
    sense against all its senses in every part of speech ("consonant" the adjective is mostly
    a noun)."""
    lemma = word.lower()
    here = wn.sense_count(lemma, pos, offset) + SYNONYM_SMOOTHING
    senses = sum(len(wn.senses.get((lemma, p), ())) for p in "nvar") or 1
    same = here / (wn.lemma_counts.get((lemma, pos), 0) + SYNONYM_SMOOTHING * len(wn.senses.get((lemma, pos), [1])))
    every = here / (wn.word_count(lemma) + SYNONYM_SMOOTHING * senses)
    # the same part of speech counts most ("Get" for SIRE); another half ("Father" is mostly a
    # noun, and still a fine clue for the verb)
    bits = -math.log2(min(1.0, same)) + CROSS_POS_SHARE * -math.log2(min(1.0, every) / min(1.0, same))
    return AMBIGUITY_WEIGHT * min(MAX_AMBIGUITY, max(0.0, bits))


def wording_cost(clue: str) -> float:
    """Cost of a clue's wording: its length, its rare words, a head that fits anything."""
    words = WORD.findall(ABBREVIATION_TAGS.sub("", clue))  # "..., for short" adds no reading
    cost = WORD_COST * max(0, len(words) - LONG_CLUE_WORDS)
    cost += EXTRA_WORD_COST * max(0, len(words) - MAX_CLUE_WORDS)
    content = [w for w in words if w.lower() not in SMALL_WORDS]
    if content and "___" not in clue:
        rarest = min(zipf(w.lower()) for w in content)
        cost += RARE_WORD_COST * max(0.0, FAMILIAR_ZIPF - rarest)
    if 1 <= len(words) <= 2 and words[-1].lower().rstrip("s") in GENERAL_HEADS:
        cost += GENERAL_COST
    if WEAK_OPENINGS.match(clue):
        cost += WEAK_OPENING_COST
    return cost


@cache
def zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")
