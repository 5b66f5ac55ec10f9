"""WordNet's definitions as clues in an entry's inflection (``clue_writer.py``): a verb's
conjugated ("make or become less" -> "Makes or becomes less"), a noun's head put in the plural
or, for a singular entry, the singular ("voracious snakelike ... fishes" -> "... fish"), and
clauses that are predicates or fragments dropped."""

from __future__ import annotations

import re

from clue_glosses import ANY_OF, HEAD_ENDS, shorten, tidy
from clue_morphology import BASE, GERUND, PAST, PLURAL, THIRD, Morphology, letters
from clue_wordnet import Synset, WordNetData

#: How a noun's definition clause starts when it is a fragment, not a description of the thing.
NOUN_FRAGMENTS = ("of ", "in ", "from ", "with ", "similar to ", "found in ", "native to ", "related to ",
                  "distinguished ", "characterized ", "having ", "especially ", "used ", "found ")  # fmt: skip
#: Clauses of a definition tried ("earliest horse; extinct primitive dog-sized ... animal").
MAX_CLAUSES = 2
#: A noun's definition clause that starts with one of these is a predicate, not a description
#: ("is hard and tough", "can retain a cutting edge").
PREDICATE_STARTS = frozenset({"is", "are", "was", "were", "has", "have", "can", "may", "will", "does", "do"})
#: Prefixes of a definition that read badly in a clue (WordNet's cross-references).
SKIP_GLOSS = re.compile(r"^(see |a (former )?name for |the \d+(st|nd|rd|th) letter|(an? )?(plural )?form of )")
FORM_OF = {THIRD: "third", PAST: "past", GERUND: "gerund"}


class DefinitionWriter:
    """Definitions in an entry's inflection; ``ClueWriter`` builds on it."""

    wn: WordNetData
    morph: Morphology

    def _definitions(self, synset: Synset, kind: str) -> list[tuple[str, bool]]:
        """The clauses of the sense's definition (at most MAX_CLAUSES) as clues in the inflection
        ``kind``, each with whether it was cut."""
        if SKIP_GLOSS.search(synset.gloss):
            return []
        found = []
        for clause in synset.gloss.split(";")[:MAX_CLAUSES]:
            if synset.pos == "n" and tidy(clause).lower().startswith(NOUN_FRAGMENTS):
                continue  # ASP: "of southern Europe; similar to but smaller than the adder"
            first = clause.strip().split(" ")[0].lower()
            if synset.pos != "v" and (self._predicate(first) or (found and first.endswith("ed"))):
                continue  # CATALASES: "decomposes hydrogen peroxide ..." is no clue
            many = ANY_OF.match(tidy(clause)) if synset.pos == "n" and kind in (BASE, PLURAL) else None
            if many:  # plural already: "any of numerous extinct ... reptiles" for DINOSAURS
                shortened = shorten(tidy(clause)[many.end() :])
                if shortened and len(shortened[0].split(" ")) > 1:
                    text = shortened[0] if kind == PLURAL else self._singularize(shortened[0])
                    if text:  # FIR: "Evergreen tree", not "Any of various evergreen trees"
                        found.append((text, shortened[1]))
                continue
            shortened = shorten(clause, alternatives=synset.pos == "v")
            if not shortened:
                continue
            text, cut = shortened
            if cut and found:  # a later clause cut short reads as a fragment ("Work done")
                continue
            made: str | None = None
            if kind == BASE:  # EEL: "Voracious snakelike fish", not "... fishes"
                made = self._singularize(text) if synset.pos == "n" else text
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
            if k > 0 and (word.lower() in HEAD_ENDS or self._participle(word)):
                head = k - 1  # "platform projecting from": the head is "platform"
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

    def _participle(self, word: str) -> bool:
        """Whether ``word`` is a present participle and no noun ("projecting", not "building")."""
        bare = word.lower()
        return bare.endswith("ing") and (bare, "n") not in self.wn.senses and (bare[:-3], "v") in self.wn.senses

    def _predicate(self, word: str) -> bool:
        """Whether a clause starting with ``word`` is a predicate: a form of "be" or a verb in
        the third person or the past that is no noun ("decomposes", not "plants")."""
        if word in PREDICATE_STARTS:
            return True
        kinds = {(pos, kind) for _, pos, kind in self.morph.analyses(letters(word))}
        return bool(kinds & {("v", THIRD), ("v", PAST)}) and not any(pos in "na" for pos, _ in kinds)

    def _singularize(self, text: str) -> str | None:
        """A noun definition whose head is plural ("voracious snakelike marine or freshwater
        fishes") with its head in the singular; the text as it is when the head is singular;
        None when the head cannot be put in the singular."""
        words = text.split(" ")
        # the head ends before a preposition or clause, not before "or" ("marine or freshwater fishes")
        ends = HEAD_ENDS - {"or", "and", ","}
        head = next(
            (k - 1 for k, w in enumerate(words) if k > 0 and (w.lower() in ends or self._participle(w))), len(words) - 1
        )
        bare = words[head].strip(",").lower()
        plurals = (lem for lem, pos, kind in self.morph.analyses(letters(bare)) if pos == "n" and kind == PLURAL)
        lemma = next(plurals, None) if bare.isalpha() else None
        # singular already, or a word that is its own plural more often than another's ("glasses";
        # not "fishes", which WordNet also lists as the constellation)
        own = self.wn.lemma_counts.get((bare, "n"), 0 if (bare, "n") in self.wn.senses else -1)
        if lemma is None or " " in lemma or own >= self.wn.lemma_counts.get((lemma, "n"), 0):
            return text
        words[head] = lemma + ("," if words[head].endswith(",") else "")
        if head + 1 < len(words) and words[head + 1] in ("that", "which", "who") and head + 2 < len(words):
            verb = words[head + 2]  # "trees that bear cones": "tree that bears cones"
            made = self.morph.inflect(verb, "v", THIRD) if (verb, "v") in self.wn.senses else None
            words[head + 2] = {"are": "is", "have": "has", "were": "was"}.get(verb, made or verb)
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
