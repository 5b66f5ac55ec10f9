"""Crossword clues from WordNet senses (``build_builtin_clues.py``): synonyms and definitions in
the entry's inflection, abbreviations' expansions, people's names with a blank, phrase blanks."""

from __future__ import annotations

import re

from clue_morphology import BASE, COMPARATIVE, GERUND, LEMMA, PAST, PLURAL, SUPERLATIVE, THIRD, Morphology, letters
from clue_wordnet import LOCATION_FILE, PERSON_FILE, Synset, WordNetData, is_taxon
from csp_crossword.clues.rules import reveals

#: A clue's length at most, in characters (a definition is cut to fit, or dropped).
MAX_LENGTH = 60
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
#: How a noun's definition clause starts when it is a fragment, not a description of the thing.
NOUN_FRAGMENTS = ("of ", "in ", "from ", "with ", "similar to ", "found in ", "native to ", "related to ",
                  "distinguished ", "characterized ", "having ", "especially ", "used ", "found ")  # fmt: skip
#: Clauses of a definition tried ("earliest horse; extinct primitive dog-sized ... animal").
MAX_CLAUSES = 2
#: Broader terms: levels of hypernyms climbed, and hypernyms followed from each synset. The
#: nearest one's familiar word ranks NEAREST_TERM_QUALITY among its sense's clues; the others rank
#: HYPERNYM_QUALITY and after (one more a level up), after every other kind of clue.
HYPERNYM_DEPTH = 2
MAX_HYPERNYMS = 2
NEAREST_TERM_QUALITY = 4
HYPERNYM_QUALITY = 5
#: A phrase gives a fill-in-the-blank clue when the list scores it this familiar or more.
MIN_PHRASE = 45
BLANK = "___"
ARTICLES = ("a ", "an ", "the ")
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
        "very",
        "associated",
        "used",
        "made",
        "called",
        "known",
        "including",
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
    }
)
#: A definition of one among many ("any of numerous extinct terrestrial reptiles"): the rest is
#: plural already.
ANY_OF = re.compile(r"^(?:Any|One) of (?:numerous |various |several |many |a number of |a group of )?(?=[a-z])")
#: Adjectives WordNet calls similar to an adjective's commonest sense that lend their words.
MAX_SIMILAR = 4
#: How an adverb of manner is made from its adjective, most specific first (HAPPILY: happy,
#: AMICABLY: amicable, BASICALLY: basic, FREELY: free).
ADVERB_ENDINGS = (("ICALLY", "IC"), ("ILY", "Y"), ("ABLY", "ABLE"), ("IBLY", "IBLE"), ("LY", ""))
#: A letter's definition ("the 22nd letter of the Roman alphabet"): clued by its neighbour.
LETTER = re.compile(r"^the (\d+)(?:st|nd|rd|th) letter of the (\w+) alphabet")
#: Prefixes of a definition that read badly in a clue (WordNet's cross-references).
SKIP_GLOSS = re.compile(r"^(see |a (former )?name for |the \d+(st|nd|rd|th) letter|(an? )?(plural )?form of )")
FORM_OF = {THIRD: "third", PAST: "past", GERUND: "gerund"}


def tidy(text: str) -> str:
    """A definition as a clue: parentheses, "used of", "any" and leading articles off, first
    letter capitalised."""
    text = re.sub(r"\s*\([^()]*\)", "", text).strip()
    text = re.sub(r"`([^`']*)'", r'"\1"', text)  # WordNet quotes `thus'
    text = re.sub(r"^(used of|any) (?!of )", "", text)  # "any competition": "Competition"
    text = re.sub(r"\s+", " ", text).strip(" ,;:.")
    lower = text.lower()
    for article in ARTICLES:
        if lower.startswith(article):
            text = text[len(article) :]
            break
    return text[:1].upper() + text[1:] if text else ""


def shorten(definition: str) -> tuple[str, bool] | None:
    """The first clause of a definition, cut at a natural break to MAX_LENGTH, and whether it was
    cut (None if it cannot be)."""
    text = tidy(definition.split(";")[0])
    if len(text) <= MAX_LENGTH:
        return (text, False) if text else None
    for cut in CUTS:
        position = text.rfind(cut, 0, MAX_LENGTH + 1)
        while position > 0:
            short = tidy(text[:position])
            words = short.lower().split()
            # nor a participle waiting for its agent ("Period marked" of "marked by ...")
            participle = words[-1].endswith("ed") and cut in (" by ", " with ", " from ", " in ", " for ", " as ")
            participle = participle or words[-1].endswith("'s")  # "by the male's" wants its noun
            balanced = short.count("(") == short.count(")")
            if len(words) >= 2 and words[-1] not in DANGLING and not participle and balanced:
                return short, True
            position = text.rfind(cut, 0, position)
    return None


class ClueWriter:
    def __init__(self, wordnet: WordNetData, morphology: Morphology, scores: dict[str, int]) -> None:
        self.wn, self.morph, self.scores = wordnet, morphology, scores
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
        """Clues for ``entry``, best first (unchecked: the caller applies the rules)."""
        ranked: list[tuple[tuple, str]] = []
        analyses = self.morph.analyses(entry)
        # the lemma most often tagged first, its own senses before an inflection's; between
        # equals, a single word before a phrase (lacrosse, not La Crosse)
        analyses.sort(
            key=lambda a: (-(self.wn.tagged.get((a[0], a[1]), 0) + 1) * (3 if a[2] == BASE else 1), a[0].count(" "))
        )
        for rank, (lemma, pos, kind) in enumerate(analyses[:MAX_ANALYSES]):
            # WordNet orders a lemma's senses by how often they were tagged in its corpus; the
            # senses never tagged come in no telling order, so they share one rank
            tagged = self.wn.tagged.get((lemma, pos), 0)
            senses = [s for s in self.wn.lemma_senses(lemma, pos) if not s.offensive and not is_taxon(s)]
            if kind == PLURAL:  # no plural of a place or an abbreviation (IDS is not "Idahos")
                senses = [s for s in senses if not _no_plural(lemma, s)]
            for sense_rank, synset in enumerate(senses[:MAX_SENSES]):
                for quality, familiar, clue in self._sense_clues(entry, lemma, pos, kind, synset):
                    order = (rank, min(sense_rank, tagged), quality, -familiar, len(clue))
                    if quality >= HYPERNYM_QUALITY:  # a broader term only after every other clue
                        order = (MAX_ANALYSES + quality, *order)
                    ranked.append((order, clue))
        if not display or " " not in display:
            for score, phrase in self.phrases.get(entry, [])[:2]:
                blank = self._blank(entry, phrase)
                if blank:
                    ranked.append(((MAX_ANALYSES, 0, 9, score, 0), blank))
        # last: an adverb of manner by its adjective's synonyms (AMICABLY: WordNet's "in an
        # amicable manner" gives it away; "In a friendly way" does not)
        for rank, clue in enumerate(self._manner_clues(entry)):
            ranked.append(((MAX_ANALYSES + HYPERNYM_QUALITY + HYPERNYM_DEPTH, rank), clue))
        ranked.sort(key=lambda item: item[0])
        return [clue for _, clue in ranked]

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

    def _sense_clues(self, entry: str, lemma: str, pos: str, kind: str, synset: Synset) -> list[tuple[int, int, str]]:
        """(quality rank, familiarity, clue) for one sense: lower ranks are better clues, and
        the more familiar of two synonyms."""
        found: list[tuple[int, int, str]] = []
        own = next((w for w in synset.words if letters(w) == letters(lemma)), lemma)
        others = [w for w in synset.words if letters(w) != letters(lemma)]
        if synset.pos == "a" and len(others) < 2:
            for offset in synset.similar[:3]:
                others += self.wn.synsets[("a", offset)].words[:2]
        short = kind == BASE and _is_abbreviation(own, others)
        suffix = ", for short" if short else ""
        if short and max(len(o) for o in others) <= MAX_LENGTH:
            expansion = max(others, key=len)
            found.append((0, 100, f"{expansion[:1].upper()}{expansion[1:]}{suffix}"))
        if synset.pos == "n" and synset.lexfile == PERSON_FILE and own[:1].isupper() and kind == BASE:
            names = sorted((w for w in others if w.endswith(" " + own) and w.count(" ") == 1), key=len)
            if names:
                found.append((0, 100, names[0][:1].upper() + names[0][1 : -len(own)] + BLANK))
        for other in others:
            if other.count(" ") > 2 or len(letters(other)) < MIN_SYNONYM_LETTERS or not LEMMA.fullmatch(other):
                continue
            familiar = self.scores.get(letters(other), 0)
            if familiar < MIN_SYNONYM or (other[:1].isupper() and not own[:1].isupper()):
                continue
            if _variant(own, other):  # palaeontologist beside paleontologist
                continue
            form = self._inflect(other, synset.pos, kind)
            if form:
                found.append((0 if familiar >= GOOD_SYNONYM else 3, familiar, form[:1].upper() + form[1:] + suffix))
        letter = LETTER.match(synset.gloss)
        if letter and kind == BASE:
            found.append((0, 100, self._letter_clue(letter.group(2), int(letter.group(1)))))
        for clause, definition in enumerate(self._definitions(synset, kind)):
            text, cut = definition
            # a later clause ("earliest horse; extinct ... Eocene animal") serves when the
            # first gives the answer away
            found.append((3 if clause else 2 if cut else 1, 0, text + suffix))
        if (synset.pos == "n" and kind in (BASE, PLURAL)) or synset.pos == "v":  # ERG: "Work unit"; MAIM: "Injure"
            found += self._hypernym_clues(entry, synset, kind)
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
                words = []  # one word a broader term: its most familiar (PURGATIVE, not also PHYSIC)
                for rank, word in enumerate(broader.words):
                    familiar = self.scores.get(letters(word), 0)
                    wanted = GOOD_SYNONYM if depth == 0 and rank == 0 else MIN_SYNONYM
                    if familiar < wanted or not LEMMA.fullmatch(word) or word.count(" ") > 2:
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

    def _definitions(self, synset: Synset, kind: str) -> list[tuple[str, bool]]:
        """The clauses of the sense's definition (at most MAX_CLAUSES) as clues in the inflection
        ``kind``, each with whether it was cut."""
        if SKIP_GLOSS.search(synset.gloss):
            return []
        found = []
        for clause in synset.gloss.split(";")[:MAX_CLAUSES]:
            if synset.pos == "n" and clause.strip().lower().startswith(NOUN_FRAGMENTS):
                continue  # ASP: "of southern Europe; similar to but smaller than the adder"
            many = ANY_OF.match(tidy(clause)) if kind == PLURAL and synset.pos == "n" else None
            if many:  # plural already: "any of numerous extinct ... reptiles" for DINOSAURS
                shortened = shorten(tidy(clause)[many.end() :])
                if shortened and len(shortened[0].split(" ")) > 1:
                    found.append(shortened)
                continue
            shortened = shorten(clause)
            if not shortened:
                continue
            text, cut = shortened
            if cut and found:  # a later clause cut short reads as a fragment ("Work done")
                continue
            made: str | None = None
            if kind == BASE:
                made = text
            elif synset.pos == "v" and kind in FORM_OF:
                made = self._conjugate(text, kind)
            elif synset.pos == "n" and kind == PLURAL:
                made = self._pluralize(text)
            if made:
                found.append((made, cut))
        return found

    def _conjugate(self, text: str, kind: str) -> str | None:
        """A verb definition in another form: each coordinated verb's first word ("make or
        become less" -> "Makes or becomes less")."""
        words = text.split(" ")
        out, expect_verb = [], True
        for word in words:
            if expect_verb:
                bare = word.lower().strip(",")
                if (bare, "v") not in self.wn.senses:
                    if not out:
                        return None
                    out.append(word)
                    expect_verb = False
                    continue
                form = self.morph.inflect(bare, "v", kind)
                if form is None:
                    return None
                out.append(form + ("," if word.endswith(",") else ""))
                expect_verb = False
                continue
            out.append(word)
            if word in ("or", "and") or word.endswith(","):
                expect_verb = True
        clue = " ".join(out)
        return clue[:1].upper() + clue[1:]

    def _pluralize(self, text: str) -> str | None:
        """A noun definition in the plural: its head noun (and the one it is coordinated with)."""
        words = text.split(" ")
        head = len(words) - 1
        for k, word in enumerate(words):
            if k > 0 and word.lower() in HEAD_ENDS:
                head = k - 1
                break
            if word.endswith(","):
                head = k
                break
        end = head + 1
        bare = words[head].strip(",").lower()
        if (bare, "n") not in self.wn.senses or bare in ("any", "one", "kind", "type", "sort", "member", "piece"):
            return None
        plural = self.morph.inflect(bare, "n", PLURAL)
        if plural is None:
            return None
        words[head] = plural + ("," if words[head].endswith(",") else "")
        if end < len(words) - 1 and words[end] in ("or", "and"):
            after = words[end + 1]
            if (after.lower(), "n") in self.wn.senses and (end + 2 == len(words) or words[end + 2] in HEAD_ENDS):
                words[end + 1] = self.morph.inflect(after.lower(), "n", PLURAL) or after
        for k in range(end, len(words) - 1):
            if words[k] in ("who", "that", "which"):  # "persons who travel", not "travels"
                verb = k + 1
                while verb < len(words) - 1 and words[verb].endswith("ly"):  # "that usually have"
                    verb += 1
                words[verb] = self._plural_verb(words[verb])
                # and a verb coordinated with it: "acts that debase or corrupt"
                if verb + 2 < len(words) and words[verb + 1] in ("or", "and"):
                    words[verb + 2] = self._plural_verb(words[verb + 2])
                break
        clue = " ".join(words)
        return clue[:1].upper() + clue[1:]

    def _plural_verb(self, word: str) -> str:
        """A verb in the third person singular put in the plural ("travels" -> "travel")."""
        special = {"is": "are", "has": "have", "was": "were", "does": "do"}
        if word in special:
            return special[word]
        for lemma, pos, kind in self.morph.analyses(letters(word)):
            if pos == "v" and kind == THIRD and " " not in lemma:
                return lemma
        return word

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
