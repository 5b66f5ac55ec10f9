"""English inflection for clue writing (``build_builtin_clues.py``): which WordNet lemma an entry
inflects (ALOES: the plural of "aloe"; RATED: the past of "rate"), and the same inflection of
another word (a synonym, or a definition's head word), checked against the built-in list.

WordNet's own rules ("morphy": noun -s, -es, -ies; verb -s, -ed, -ing; adjective -er, -est) and its
lists of irregular forms (``noun.exc``, ``verb.exc``, ``adj.exc``) find the lemma; forms are made
by the inverse rules, and a made form counts only when the built-in list has it or WordNet lists
it as irregular (so "visitted" is never written).
"""

from __future__ import annotations

import re

from clue_wordnet import WordNetData

#: The forms an entry can take: a lemma as it is, and the inflections we clue.
BASE, PLURAL, THIRD, PAST, GERUND, COMPARATIVE, SUPERLATIVE = (
    "base", "plural", "third", "past", "gerund", "comparative", "superlative",
)  # fmt: skip
#: Morphy's suffix rules: form -> (part of speech, ending, replacement).
RULES = {
    PLURAL: [("n", "S", ""), ("n", "SES", "S"), ("n", "XES", "X"), ("n", "ZES", "Z"), ("n", "CHES", "CH"),
             ("n", "SHES", "SH"), ("n", "MEN", "MAN"), ("n", "IES", "Y")],
    THIRD: [("v", "S", ""), ("v", "IES", "Y"), ("v", "ES", "E"), ("v", "ES", "")],
    PAST: [("v", "ED", "E"), ("v", "ED", ""), ("v", "IED", "Y")],
    GERUND: [("v", "ING", "E"), ("v", "ING", ""), ("v", "YING", "IE")],
    COMPARATIVE: [("a", "ER", ""), ("a", "ER", "E"), ("a", "IER", "Y")],
    SUPERLATIVE: [("a", "EST", ""), ("a", "EST", "E"), ("a", "IEST", "Y")],
}  # fmt: skip
VOWELS = "AEIOU"
#: A lemma an entry can be: letters, with spaces, hyphens, apostrophes and full stops.
LEMMA = re.compile(r"[A-Za-z][A-Za-z .'-]*")
#: Irregular forms of the commonest verbs that verb.exc lists with several forms (the past first).
PAST_OF = {"be": "was", "go": "went", "do": "did", "see": "saw", "have": "had", "lie": "lay"}
#: Verbs whose past is the verb itself, which verb.exc leaves out (only forms that differ are
#: listed): ISSUED is "Put out", not "Putted out".
PAST_OF.update(
    (verb, verb)
    for verb in ("put", "set", "cut", "let", "hit", "shut", "cost", "hurt", "quit", "spread", "bet", "split",
                 "burst", "cast", "thrust", "shed", "bid", "rid", "slit", "upset", "broadcast", "forecast")
)  # fmt: skip
THIRD_OF = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def letters(form: str) -> str:
    return re.sub(r"[^A-Za-z]", "", form).upper()


class Morphology:
    def __init__(self, wordnet: WordNetData, scores: dict[str, int]) -> None:
        self.wn = wordnet
        self.scores = scores
        # entry letters -> WordNet lemmas (lower case, spaces) by part of speech
        self.lemmas: dict[tuple[str, str], list[str]] = {}
        for lemma, pos in sorted(wordnet.senses):
            if not LEMMA.fullmatch(lemma):  # "dec 24" is not DEC
                continue
            self.lemmas.setdefault((letters(lemma), pos), []).append(lemma)
        # entry letters -> (part of speech, irregular form, its base)
        self.irregular: dict[str, list[tuple[str, str, str]]] = {}
        for pos, table in sorted(wordnet.exceptions.items()):
            for form, bases in sorted(table.items()):
                if " " not in form:
                    self.irregular.setdefault(letters(form), []).extend((pos, form, base) for base in bases)

    def analyses(self, entry: str) -> list[tuple[str, str, str]]:
        """(lemma, part of speech, form) for every way ``entry`` is a WordNet lemma or one of its
        inflections, the lemma's own senses first."""
        found = [(lemma, pos, BASE) for pos in "nvar" for lemma in self.lemmas.get((entry, pos), ())]
        for pos, form, base in self.irregular.get(entry, ()):
            kind = self._irregular_kind(form, base, pos)
            if kind and (base, pos) in self.wn.senses and (base, pos, kind) not in found:
                found.append((base, pos, kind))
        for kind, rules in RULES.items():
            for pos, ending, replacement in rules:
                if not entry.endswith(ending) or len(entry) - len(ending) < 2:
                    continue
                stem = entry[: -len(ending)] + replacement
                candidates = [stem]
                # a doubled final consonant (RUNNING, STOPPED, BIGGER)
                doubles = kind in (PAST, GERUND, COMPARATIVE, SUPERLATIVE) and not replacement and len(stem) > 2
                if doubles and stem[-1] == stem[-2] and stem[-1] not in VOWELS:
                    candidates.append(stem[:-1])
                for candidate in candidates:
                    for lemma in self.lemmas.get((candidate, pos), ()):
                        if (lemma, pos, kind) not in found and self._makes(lemma, pos, kind, entry):
                            found.append((lemma, pos, kind))
        return found

    def _makes(self, lemma: str, pos: str, kind: str, entry: str) -> bool:
        """Whether ``lemma`` in the inflection ``kind`` spells ``entry`` regularly."""
        words = lemma.split(" ")
        index = 0 if pos == "v" else len(words) - 1
        head = words[index]
        known = self.wn.inflections.get(pos, {}).get(head, ())
        # a lemma with an irregular form of that kind makes a regular one only where the list
        # has it too (SNEAKED beside "snuck"; never "childs")
        if any(self._irregular_kind(f, head, pos) == kind for f in known) and entry not in self.scores:
            return False
        return any(
            letters(" ".join([*words[:index], f, *words[index + 1 :]])) == entry for f in _regular_forms(head, kind)
        )

    @staticmethod
    def _irregular_kind(form: str, base: str, pos: str) -> str | None:
        if pos == "n":
            return PLURAL
        if pos == "a":
            return SUPERLATIVE if form.endswith("st") else COMPARATIVE
        if pos == "v":
            if base == "be":  # am, are, is, was, were: the clue tables have them
                return None
            if form.endswith("ing"):
                return GERUND
            if form.endswith("s") and not base.endswith("s"):
                return THIRD
            return PAST
        return None

    def inflect(self, phrase: str, pos: str, kind: str, check: bool = True) -> str | None:
        """``phrase`` (a word or a WordNet phrase of ``pos``) in the inflection ``kind``: the
        head word inflected (a noun phrase's last word, or the word before "of"; a verb phrase's
        first word). None when no form of it is known."""
        if kind == BASE:
            return phrase
        words = phrase.split(" ")
        if pos == "n":
            index = words.index("of") - 1 if "of" in words[1:] else len(words) - 1
        elif pos == "v":
            index = 0
        else:
            if len(words) > 1:
                return None
            index = 0
        head = words[index]
        form = self._inflect_word(head, pos, kind, check)
        if form is None:
            return None
        return " ".join(words[:index] + [form] + words[index + 1 :])

    def _inflect_word(self, word: str, pos: str, kind: str, check: bool) -> str | None:
        lower = word.lower()
        if pos == "v" and kind == PAST and lower in PAST_OF:
            return _same_case(word, PAST_OF[lower])
        if pos == "v" and kind == THIRD and lower in THIRD_OF:
            return _same_case(word, THIRD_OF[lower])
        if pos == "n" and kind == PLURAL and lower in SAME_PLURAL:
            return word
        irregular = [f for f in self.wn.inflections.get(pos, {}).get(lower, ()) if " " not in f]
        irregular = [f for f in irregular if self._irregular_kind(f, lower, pos) == kind]
        if kind == PAST and len(irregular) > 1:  # the simple past, not the participle (went, gone)
            irregular.sort(key=lambda f: (f.endswith("n"), f))
        if irregular:
            return _same_case(word, irregular[0])
        for candidate in _regular_forms(lower, kind):
            if not check or letters(candidate) in self.scores:
                return _same_case(word, candidate)
        return None


#: Nouns whose plural is the same word (WordNet's lists of irregular forms leave them out):
#: EWES is "Female sheep", not nothing.
SAME_PLURAL = frozenset(
    {"sheep", "deer", "fish", "moose", "swine", "bison", "salmon", "trout", "series", "species", "aircraft",
     "offspring", "cattle", "elk", "cod", "squid", "shrimp"}
)  # fmt: skip


#: Nouns in -man whose plural is -mans (not one man: Germans, humans, shamans).
MAN_PLURAL_S = frozenset(
    {"human", "german", "norman", "roman", "shaman", "talisman", "caiman", "cayman", "ottoman", "dolman",
     "desman", "ataman", "brahman", "hetman", "tasman", "walkman", "pullman"}
)  # fmt: skip


def _same_case(model: str, word: str) -> str:
    return word.capitalize() if model[:1].isupper() else word


def _regular_forms(word: str, kind: str) -> list[str]:
    """Regular forms of ``word`` in the inflection ``kind``, likeliest first."""
    if not word.isalpha():
        return []
    last, consonant_y = word[-1], len(word) > 1 and word[-1] == "y" and word[-2] not in "aeiou"
    doubled = word + last if len(word) > 2 and last not in "aeiouwxy" and word[-2] in "aeiou" else None
    if kind == PLURAL and word.endswith("man") and word not in MAN_PLURAL_S:  # salesman: salesmen
        return [word[:-3] + "men", word + "s"]
    if kind in (PLURAL, THIRD):
        if consonant_y:
            return [word[:-1] + "ies"]
        if word.endswith("ch"):  # churches, but stomachs and monarchs (a hard ch)
            return [word + "es", word + "s"]
        if word.endswith(("s", "x", "z", "sh")):
            return [word + "es"]
        if word.endswith("o") and kind == THIRD:
            return [word + "es"]
        return [word + "s", word + "es"]
    if kind in (PAST, GERUND, COMPARATIVE, SUPERLATIVE):
        ending = {PAST: "ed", GERUND: "ing", COMPARATIVE: "er", SUPERLATIVE: "est"}[kind]
        if kind == GERUND:
            if word.endswith("ie"):
                return [word[:-2] + "ying"]
            if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
                return [word[:-1] + "ing"]
            return [word + "ing"] + ([doubled + "ing"] if doubled else [])
        if consonant_y:
            return [word[:-1] + "i" + ending]
        if word.endswith("e"):
            return [word + ending[1:]]
        return [word + ending] + ([doubled + ending] if doubled else [])
    return []
