"""WordNet's definitions made into clues (``clue_writer.py``): tidied (no parentheses, no leading
article or hedge such as "usually"), cut at a natural break to a clue's length, and an
adjective's "of or relating to X" put as "Of X"."""

from __future__ import annotations

import re

#: A clue's length at most, in characters (a definition is cut to fit, or dropped).
MAX_LENGTH = 60
ARTICLES = ("a ", "an ", "the ")
#: A clue this many words or fewer reads as a clue; a longer definition is cut at a break to fit
#: when it can be ("Perceive by sight or have the power to perceive by sight": "Perceive by sight").
CLUE_WORDS = 6
#: Breaks tried to bring a definition down to CLUE_WORDS, after CUTS; a verb's definition may
#: also lose its second alternative (VERB_CUTS), where a noun's would keep a dangling adjective
#: ("Voracious snakelike marine" of "marine or freshwater fishes").
WORD_CUTS = (" on ", " at ", " into ")
VERB_CUTS = (" or ", " and ")
#: A taxon named after a head noun ("evergreen tree of the genus Abies") says nothing to a solver.
TAXON_TAIL = re.compile(r" (of|in) the (genus|family|order|subfamily|class) [A-Z]\w*")
#: Breaks after which a participle waits for its complement ("marked by", "projecting from").
PARTICIPLE_CUTS = (" by ", " with ", " from ", " in ", " for ", " as ", " over ", " into ", " on ", " at ")
#: Words that open a relative clause, which a cut to CLUE_WORDS must not break.
RELATIVES = frozenset({"that", "which", "who", "whose", "where", "when"})
#: Hedges at a definition's start that say nothing in a clue ("usually soluble substance").
HEDGES = re.compile(r"^(usually|often|typically|especially|chiefly|mainly|generally|sometimes) ", re.IGNORECASE)
#: An adjective's "of or (in or) relating to X", "relating to or characteristic of X": "Of X".
RELATING_TO = re.compile(
    r"^(of or (in or )?)?(relating|pertaining|belonging) to( or (characteristic of|concerned with|"
    r"in|of|being))?\s+(?=\S)",
    re.IGNORECASE,
)
#: Words where a definition may be cut to fit MAX_LENGTH, in order of preference.
CUTS = (", ", "; ", " that ", " which ", " who ", " whose ", " where ", " when ", " especially ",
        " usually ", " often ", " typically ", " having ", " used ", " consisting ", " made ", " found ",
        " living ", " as ", " by ", " with ", " from ", " in ", " for ")  # fmt: skip
#: Words a cut definition must not end with ("Any period of time during").
DANGLING = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "to",
        "from",
        "with",
        "during",
        "and",
        "or",
        "but",
        "into",
        "than",
        "as",
        "its",
        "their",
        "his",
        "her",
        "is",
        "are",
        "be",
        "being",
        "was",
        "were",
        "has",
        "have",
        "having",
        "such",
        "so",
        "too",
        "very",
        "associated",
        "used",
        "made",
        "called",
        "known",
        "including",
        # hedges waiting for their claim ("Emblem usually" of "emblem usually consisting of cloth")
        "usually",
        "often",
        "typically",
        "especially",
        "chiefly",
        "generally",
        "mainly",
        "sometimes",
        # participles waiting for their place ("Enzyme found" of "found in most cells")
        "found",
        "living",
        "growing",
        "occurring",
        "native",
        "grown",
        "located",
        "spoken",
    }
)
#: Words that end a definition's head noun ("small carriage for babies": head "carriage").
HEAD_ENDS = frozenset(
    {
        "of",
        "for",
        "with",
        "that",
        "which",
        "who",
        "whose",
        "in",
        "on",
        "at",
        "from",
        "to",
        "by",
        "used",
        "having",
        "made",
        "consisting",
        "containing",
        "resembling",
        "especially",
        "usually",
        "or",
        "and",
        "as",
        "being",
        ",",
        "(",
        "without",
        "into",
        "between",
        "like",
        # participles after a head noun ("enzyme found in most cells", not "enzyme founds")
        "found",
        "living",
        "growing",
        "occurring",
        "native",
        "known",
        "grown",
        "typically",
        "often",
        "chiefly",
        "mostly",
        "formerly",
    }
)
#: A definition of one among many ("any of numerous extinct terrestrial reptiles"): the rest is
#: plural already.
ANY_OF = re.compile(r"^(?:Any|One) of (?:numerous |various |several |many |a number of |a group of )?(?=[a-z])")


def tidy(text: str) -> str:
    """A definition as a clue: parentheses, "used of", "any" and leading articles off, first
    letter capitalised."""
    text = re.sub(r"\s*\([^()]*\)", "", text).strip()
    text = re.sub(r"`([^`']*)'", r'"\1"', text)  # WordNet quotes `thus'
    text = re.sub(r"^(used of|any) (?!of )", "", text)  # "any competition": "Competition"
    text = re.sub(r"^to (?=[a-z])", "", text)  # a verb's "to bear ...": "Bear ..."
    text = re.sub(r"\s+", " ", text).strip(" ,;:.")
    text = RELATING_TO.sub("of ", text)
    text = TAXON_TAIL.sub("", text)
    lower = text.lower()
    for article in ARTICLES:
        if lower.startswith(article):
            text = text[len(article) :]
            break
    text = HEDGES.sub("", text)
    return text[:1].upper() + text[1:] if text else ""


def shorten(definition: str, alternatives: bool = False) -> tuple[str, bool] | None:
    """The first clause of a definition, cut at a natural break to MAX_LENGTH, and whether it was
    cut (None if it cannot be)."""
    text = tidy(definition.split(";")[0])
    if len(text.split(" ")) > CLUE_WORDS:  # a clue's length when a break allows it
        cuts = CUTS + WORD_CUTS + (VERB_CUTS if alternatives else ())
        short = _cut(text, cuts, len(" ".join(text.split(" ")[:CLUE_WORDS])), whole_clauses=True)
        if short:
            return short
    if len(text) <= MAX_LENGTH:
        return (text, False) if text else None
    return _cut(text, CUTS, MAX_LENGTH)


def _cut(text: str, cuts: tuple[str, ...], limit: int, whole_clauses: bool = False) -> tuple[str, bool] | None:
    """``text`` cut at the first of ``cuts`` found before ``limit`` characters where what is left
    reads as a whole (no dangling word), and True; None when no cut does."""
    for cut in cuts:
        position = text.rfind(cut, 0, limit + 1)
        while position > 0:
            short = tidy(text[:position])
            words = short.lower().split()
            # nor a participle waiting for its agent ("Period marked" of "marked by ...")
            # ("Upper floor projecting" of "projecting from the rear") too
            participle = words[-1].endswith(("ed", "ing")) and cut in PARTICIPLE_CUTS
            participle = participle or words[-1].endswith("'s")  # "by the male's" wants its noun
            balanced = short.count("(") == short.count(")")
            # cut to a clue's length, a relative clause stays whole or goes ("Residue that remains")
            balanced = balanced and not (whole_clauses and RELATIVES & set(words[1:]))
            if len(words) >= 2 and words[-1] not in DANGLING and not participle and balanced:
                return short, True
            position = text.rfind(cut, 0, position)
    return None
