"""Crossword clues from WordNet senses (``build_builtin_clues.py``): synonyms and definitions in
the entry's inflection, abbreviations' expansions, people's names with a blank, phrase blanks."""

from __future__ import annotations

import re

from clue_definitions import DefinitionWriter
from clue_glosses import MAX_LENGTH
from clue_morphology import BASE, COMPARATIVE, LEMMA, PLURAL, SUPERLATIVE, Morphology, letters
from clue_ranking import (
    FAMILIAR_SCORE,
    FAMILIAR_WEIGHT,
    GENERAL_HEADS,
    INFLECTION_FACTOR,
    MAX_HYPONYMS,
    QUALITY_COST,
    ambiguity,
    own_word,
    sense_cost,
    sense_weight,
    wording_cost,
    zipf,
)
from clue_wordnet import LOCATION_FILE, PERSON_FILE, Synset, WordNetData, is_taxon
from csp_crossword.clues.rules import reveals

#: Senses of a lemma, and lemmas an entry may inflect, that are tried (WordNet's order: the most
#: frequent first).
MAX_SENSES = 3
MAX_ANALYSES = 3
#: A synonym is offered as a clue when the built-in list scores it this familiar or more; it
#: comes before the definition when it scores GOOD_SYNONYM or more.
MIN_SYNONYM = 40
GOOD_SYNONYM = 55
#: Shorter synonyms are abbreviations or symbols ("ar" for ARE), not clues.
MIN_SYNONYM_LETTERS = 3
#: A lemma is a clipping of a longer word of its synset that starts with it and has this many
#: more letters (a capitalised lemma: Dec, Apr; a lower-case one: lab, exam).
CAPITAL_CLIPPING = 2
LOWER_CLIPPING = 5
#: What a longer word of the synset adds to a lemma when it is a derivation or a compound's second
#: word, not the rest of the lemma's full form (SIN: sinfulness, ALIMENT: alimentation, DYE:
#: dyestuff are not "for short"; LAB: laboratory is).
DERIVATIONS = frozenset(
    {
        "ness",
        "iness",
        "fulness",
        "ation",
        "ment",
        "ity",
        "ship",
        "hood",
        "ism",
        "ist",
        "ance",
        "ence",
        "stuff",
        "work",
        "ware",
    }
)
#: A capitalised lemma this short is a symbol or an abbreviation (Na, Bi, Pb): it has no plural.
MAX_SYMBOL_LETTERS = 2
#: Two synonyms this alike are spellings of one word, not clues for each other.
VARIANT_SIMILARITY = 0.75
#: Broader terms: levels of hypernyms climbed, and hypernyms followed from each synset. The
#: nearest one's familiar word ranks NEAREST_TERM_QUALITY among its sense's clues; the others rank
#: HYPERNYM_QUALITY and after (one more a level up), after every other kind of clue.
HYPERNYM_DEPTH = 2
MAX_HYPERNYMS = 2
NEAREST_TERM_QUALITY = 4
HYPERNYM_QUALITY = 5
#: A phrase gives a fill-in-the-blank clue when the list scores it this familiar or more.
MIN_PHRASE = 45
#: Costs (``clue_ranking``'s scale) of a phrase's blank ("___ age") and of an adverb's "In a
#: friendly way": after a familiar synonym or a short definition of a known sense.
BLANK_COST = 5.5
MANNER_COST = 5.0
#: Extra costs (``clue_ranking``'s scale): a word of an adjective's similar adjectives, a kind of
#: it rather than a synonym ("Graduate" for HIGH); an adjective's antonym, "Not low" (a classic
#: form, after a true synonym).
SIMILAR_COST = 1.5
ANTONYM_COST = 0.5
#: A broader term of one word this common (Zipf frequency) ranks as a farther one: "Fish" for EEL.
BROAD_ZIPF = 4.8
BLANK = "___"
#: Adjectives WordNet calls similar to an adjective's commonest sense that lend their words.
MAX_SIMILAR = 4
#: How an adverb of manner is made from its adjective, most specific first (HAPPILY: happy,
#: AMICABLY: amicable, BASICALLY: basic, FREELY: free).
ADVERB_ENDINGS = (("ICALLY", "IC"), ("ILY", "Y"), ("ABLY", "ABLE"), ("IBLY", "IBLE"), ("LY", ""))
#: A letter's definition ("the 22nd letter of the Roman alphabet"): clued by its neighbour.
LETTER = re.compile(r"^the (\d+)(?:st|nd|rd|th) letter of the (\w+) alphabet")


class ClueWriter(DefinitionWriter):
    def __init__(self, wordnet: WordNetData, morphology: Morphology, scores: dict[str, int]) -> None:
        self.wn, self.morph, self.scores = wordnet, morphology, scores
        # the last entry's too broad terms, for when it has no other clue (:meth:`clues`)
        self.last_resort: list[str] = []
        # a word -> the familiar phrases that hold it ("age" -> "ice age"), for blanks
        self.phrases: dict[str, list[tuple[int, str]]] = {}
        seen = set()
        for synset in wordnet.synsets.values():
            if synset.offensive or is_taxon(synset):
                continue
            for word in synset.words:
                tokens = word.split(" ")
                score = scores.get(letters(word), 0)
                if not 2 <= len(tokens) <= 3 or score < MIN_PHRASE or word in seen or not LEMMA.fullmatch(word):
                    continue
                seen.add(word)
                for token in set(tokens):
                    if token.isalpha() and tokens.count(token) == 1:
                        self.phrases.setdefault(letters(token), []).append((-score, word))
        for found in self.phrases.values():
            found.sort()
        # (alphabet, position) -> the letter's names, for "Letter after U"
        self.letters: dict[tuple[str, int], list[str]] = {}
        for synset in wordnet.synsets.values():
            match = LETTER.match(synset.gloss)
            if match:
                self.letters[(match.group(2), int(match.group(1)))] = synset.words

    def clues(self, entry: str, display: str) -> list[str]:
        """Clues for ``entry``, best first by :mod:`clue_ranking`'s cost (unchecked: the caller
        applies the rules)."""
        ranked: list[tuple[float, int, int, str]] = []
        self.last_resort = []
        analyses = self.morph.analyses(entry)
        # the lemma most often tagged first, its own senses before an inflection's; between
        # equals, a single word before a phrase (lacrosse, not La Crosse)
        analyses.sort(
            key=lambda a: (-(self.wn.tagged.get((a[0], a[1]), 0) + 1) * (3 if a[2] == BASE else 1), a[0].count(" "))
        )
        weighed: list[tuple[float, int, str, str, str, str]] = []  # weight, order, lemma, pos, kind, offset
        for lemma, pos, kind in analyses[:MAX_ANALYSES]:
            offsets = self.wn.senses.get((lemma, pos), [])
            lower_case = any(own_word(lemma, self.wn.synsets[(pos, o)])[:1].islower() for o in offsets)
            for index, offset in enumerate(offsets):
                synset = self.wn.synsets[(pos, offset)]
                if synset.offensive or is_taxon(synset) or (kind == PLURAL and _no_plural(lemma, synset)):
                    continue  # no plural of a place or an abbreviation (IDS is not "Idahos")
                weight = sense_weight(self.wn, lemma, pos, offsets, index, lower_case)
                weight *= 1.0 if kind == BASE else INFLECTION_FACTOR
                weighed.append((weight, len(weighed), lemma, pos, kind, offset))
        # a sense's doubt is against the best-known sense's (RUN's 41 verb senses do not make its
        # commonest one doubtful)
        total = max((w[0] for w in weighed), default=0.0)
        # each analysis's best-known senses, however WordNet orders them (the dish before the city)
        tried: dict[tuple[str, str, str], int] = {}
        for weight, _, lemma, pos, kind, offset in sorted(weighed, key=lambda w: (-w[0], w[1])):
            if tried.get((lemma, pos, kind), 0) >= MAX_SENSES:
                continue
            tried[(lemma, pos, kind)] = tried.get((lemma, pos, kind), 0) + 1
            synset = self.wn.synsets[(pos, offset)]
            doubt = sense_cost(weight, total)
            for quality, familiar, clue, extra in self._sense_clues(entry, lemma, pos, kind, synset, offset):
                cost = doubt + QUALITY_COST[min(quality, max(QUALITY_COST))] + extra + wording_cost(clue)
                ranked.append((round(cost, 6), -familiar, len(clue), clue))
        if not display or " " not in display:
            for place, (score, phrase) in enumerate(self.phrases.get(entry, [])[:2]):
                blank = self._blank(entry, phrase)
                if blank:
                    ranked.append((BLANK_COST + place, score, len(blank), blank))
        # last: an adverb of manner by its adjective's synonyms (AMICABLY: WordNet's "in an
        # amicable manner" gives it away; "In a friendly way" does not)
        for place, clue in enumerate(self._manner_clues(entry)):
            ranked.append((MANNER_COST + place, 0, len(clue), clue))
        ranked.sort()
        return [item[-1] for item in ranked]

    def _manner_clues(self, entry: str) -> list[str]:
        """ "In a friendly way" for an adverb in -LY: the familiar single-word synonyms of the
        adjective it is made from (its first senses), most familiar first."""
        if not entry.endswith("LY"):
            return []
        found: list[tuple[int, str]] = []
        for ending, replacement in ADVERB_ENDINGS:
            if not entry.endswith(ending):
                continue
            adjective = (entry[: -len(ending)] + replacement).lower()
            senses = self.wn.lemma_senses(adjective, "a")[:1]  # the commonest sense only
            # its own words, and those of the adjectives WordNet calls similar (steep: abrupt)
            for synset in senses + [self.wn.synsets[("a", o)] for s in senses for o in s.similar[:MAX_SIMILAR]]:
                if synset.offensive:
                    continue
                for word in synset.words:
                    familiar = self.scores.get(letters(word), 0)
                    if word.isalpha() and word.islower() and word != adjective and familiar >= GOOD_SYNONYM:
                        article = "an" if word[0] in "aeiou" else "a"
                        found.append((-familiar, f"In {article} {word} way"))
            if found:
                break
        return [clue for _, clue in sorted(set(found))]

    def _sense_clues(
        self, entry: str, lemma: str, pos: str, kind: str, synset: Synset, offset: str
    ) -> list[tuple[int, int, str, float]]:
        """(quality rank, familiarity, clue, extra cost) for one sense: lower ranks are better
        clues, and the more familiar of two synonyms; a synonym mostly meaning something else
        costs more."""
        found: list[tuple[int, int, str, float]] = []
        own = next((w for w in synset.words if letters(w) == letters(lemma)), lemma)
        others = [w for w in synset.words if letters(w) != letters(lemma)]
        own_words = len(others)  # the synset's own; the rest are its similar adjectives'
        if synset.pos == "a" and len(others) < 2:
            for similar in synset.similar[:3]:
                others += self.wn.synsets[("a", similar)].words[:2]
        short = kind == BASE and _is_abbreviation(own, others)
        suffix = ", for short" if short else ""
        if short and max(len(o) for o in others) <= MAX_LENGTH:
            expansion = max(others, key=len)
            found.append((0, 100, f"{expansion[:1].upper()}{expansion[1:]}{suffix}", 0.0))
        if synset.pos == "n" and synset.lexfile == PERSON_FILE and own[:1].isupper() and kind == BASE:
            names = sorted((w for w in others if w.endswith(" " + own) and w.count(" ") == 1), key=len)
            if names:
                found.append((0, 100, names[0][:1].upper() + names[0][1 : -len(own)] + BLANK, 0.0))
        for place, other in enumerate(others):
            if other.count(" ") > 2 or len(letters(other)) < MIN_SYNONYM_LETTERS or not LEMMA.fullmatch(other):
                continue
            if _british(other, synset.words):
                continue
            familiar = self.scores.get(letters(other), 0)
            if familiar < MIN_SYNONYM or (other[:1].isupper() and not own[:1].isupper()):
                continue
            if _variant(own, other):  # palaeontologist beside paleontologist
                continue
            form = self._inflect(other, synset.pos, kind)
            if form:
                quality, doubt = 0 if familiar >= GOOD_SYNONYM else 3, ambiguity(self.wn, other, synset.pos, offset)
                doubt += FAMILIAR_WEIGHT * max(0, FAMILIAR_SCORE - familiar)  # "Do by" after "Handle"
                doubt += SIMILAR_COST if place >= own_words else 0.0  # a kind of HIGH, not HIGH
                found.append((quality, familiar, form[:1].upper() + form[1:] + suffix, doubt))
        for antonym in synset.antonyms if kind == BASE else ():  # HIGH: "Not low"
            opposite = self.wn.synsets[(synset.pos, antonym)].words[0]
            if opposite.isalpha() and self.scores.get(letters(opposite), 0) >= GOOD_SYNONYM:
                found.append((0, self.scores[letters(opposite)], f"Not {opposite}", ANTONYM_COST))
        letter = LETTER.match(synset.gloss)
        if letter and kind == BASE:
            found.append((0, 100, self._letter_clue(letter.group(2), int(letter.group(1))), 0.0))
        for clause, definition in enumerate(self._definitions(synset, kind)):
            text, cut = definition
            # a later clause ("earliest horse; extinct ... Eocene animal") serves when the
            # first gives the answer away
            found.append((3 if clause else 2 if cut else 1, 0, text + suffix, 0.0))
        if (synset.pos == "n" and kind in (BASE, PLURAL)) or synset.pos == "v":  # ERG: "Work unit"; MAIM: "Injure"
            found += [(q, f, clue, 0.0) for q, f, clue in self._hypernym_clues(entry, synset, kind)]
        return found

    def _hypernym_clues(self, entry: str, synset: Synset, kind: str) -> list[tuple[int, int, str]]:
        """The sense's broader terms as clues, nearest first: the first hypernym's first word
        when familiar (ERG: "Work unit"), then every familiar word of the hypernyms up to
        HYPERNYM_DEPTH levels up (SPORTSANNOUNCER: "Announcer" gives it away, "Broadcaster"
        does not)."""
        found: list[tuple[int, int, str]] = []
        level, seen = synset.hypernyms[:MAX_HYPERNYMS], set()
        for depth in range(HYPERNYM_DEPTH):
            above: list[str] = []
            for place, offset in enumerate(level):
                if offset in seen:
                    continue
                seen.add(offset)
                broader = self.wn.synsets[(synset.pos, offset)]
                if synset.instance and self.wn.hyponyms.get((synset.pos, offset), 0) > MAX_HYPONYMS:
                    above += broader.hypernyms[:MAX_HYPERNYMS]
                    continue  # too broad a term to clue by ("European country" for ITALY)
                words = []  # one word a broader term: its most familiar (PURGATIVE, not also PHYSIC)
                for rank, word in enumerate(broader.words):
                    familiar = self.scores.get(letters(word), 0)
                    wanted = GOOD_SYNONYM if depth == 0 and rank == 0 else MIN_SYNONYM
                    if familiar < wanted or not LEMMA.fullmatch(word) or word.count(" ") > 2:
                        continue
                    if _british(word, broader.words):
                        continue  # "Colour" beside "color"
                    if any(w.lower() in GENERAL_HEADS for w in broader.words):
                        # "Collection" fits anything: the nearest such term only when nothing
                        # else clues the entry ("Materials" for CHEMICALS)
                        form = self._inflect(word, synset.pos, kind) if depth == 0 else None
                        if form and not reveals(entry, form):
                            self.last_resort.append(form[:1].upper() + form[1:])
                        continue
                    form = self._inflect(word, synset.pos, kind)
                    if form:
                        words.append((-familiar, rank, form))
                # the most familiar word that does not give the entry away (the builder checks
                # every rule again)
                # the nearest term's familiar word stays among the sense's clues (HORSE: "Equine"
                # before a rarer sense's definition); the others come after every other clue
                # (a noun's: a verb's broader terms are too general to come early: EASES is not "Goes")
                nearest = synset.pos == "n" and depth == 0 and place == 0 and words and -words[0][0] >= GOOD_SYNONYM
                for familiar, _, form in sorted(words):
                    if not reveals(entry, form):
                        quality = NEAREST_TERM_QUALITY if nearest else HYPERNYM_QUALITY + depth
                        # a very common single word is too broad a term to come first ("Fish")
                        quality += " " not in form and zipf(form) >= BROAD_ZIPF
                        found.append((quality, -familiar, form[:1].upper() + form[1:]))
                        break
                above += broader.hypernyms[:MAX_HYPERNYMS]
            level = above
        return found

    def _letter_clue(self, alphabet: str, position: int) -> str:
        """ "Letter after U", "Greek letter after upsilon" (the first letter: "before")."""
        neighbour, relation = self.letters.get((alphabet, position - 1)), "after"
        if not neighbour:
            neighbour, relation = self.letters.get((alphabet, position + 1)), "before"
        if not neighbour:
            return f"{alphabet} letter"
        if alphabet == "Roman":
            name = next((w for w in neighbour if len(w) == 1 and w.isupper()), neighbour[0])
            return f"Letter {relation} {name}"
        name = max(neighbour, key=lambda w: (w.islower(), len(w)))
        return f"{alphabet} letter {relation} {name}"

    def _inflect(self, word: str, pos: str, kind: str) -> str | None:
        if kind in (COMPARATIVE, SUPERLATIVE):
            if " " in word:
                return None
            made = self.morph.inflect(word, pos, kind)
            return made or ("More " if kind == COMPARATIVE else "Most ") + word
        return self.morph.inflect(word, pos, kind)

    def _blank(self, entry: str, phrase: str) -> str | None:
        tokens = phrase.split(" ")
        out = [BLANK if letters(t) == entry else t for t in tokens]
        if out.count(BLANK) != 1:
            return None
        clue = " ".join(out)
        return clue[:1].upper() + clue[1:] if not clue.startswith(BLANK) else clue


def _variant(own: str, other: str) -> bool:
    """Whether two words are spellings of one word (leukaemia, leukemia; colour, color)."""
    from difflib import SequenceMatcher

    a, b = letters(own), letters(other)
    return a[:1] == b[:1] and SequenceMatcher(None, a, b).ratio() >= VARIANT_SIMILARITY


def _british(word: str, words: list[str]) -> bool:
    """Whether ``word`` is a British spelling of another of ``words`` ("colour" beside "color")."""
    return "our" in word and word.replace("our", "or") in words


def _no_plural(lemma: str, synset: Synset) -> bool:
    """Whether a sense has no plural: an abbreviation or symbol (IDS is not "Idahos", NAS not
    "Sodiums": Na), a place."""
    own = next((w for w in synset.words if letters(w) == letters(lemma)), lemma)
    symbol = own[:1].isupper() and len(own) <= MAX_SYMBOL_LETTERS
    return own.isupper() or symbol or (own[:1].isupper() and synset.lexfile == LOCATION_FILE)


def _is_abbreviation(own: str, others: list[str]) -> bool:
    """Whether a lemma is an abbreviation of a word of its synset: capitals (RNA, ATM) or the
    start of a longer word (Dec: December)."""
    if not others:
        return False
    if own.isupper() and len(own) >= 2:
        return any(len(o) > len(own) + 2 for o in others)
    # Dec for December; a lower-case word only when much shorter (lab: laboratory), as a
    # word a little shorter is a word of its own (war: warfare, ten: tenner)
    extra = CAPITAL_CLIPPING if own[:1].isupper() else LOWER_CLIPPING
    return any(
        o.lower().startswith(own.lower()) and len(o) >= len(own) + extra and o[len(own) :].lower() not in DERIVATIONS
        for o in others
        if o.isalpha()
    )
