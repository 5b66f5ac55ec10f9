"""The readers of the built-in English list's sources (``build_english_list.py`` combines them).

Each reader keeps only what scoring needs: WordNet's lemmas, their kinds and how often SemCor
tagged them; SCOWL's size levels and which spelling (American, British) lists a form; UKACD's
entries and notice; how often an answer appeared in published crosswords; wordfreq's familiarity.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Entry lengths kept, in letters.
MIN_LENGTH = 2
MAX_LENGTH = 25

#: WordNet's lexicographer files of living things (``noun.animal``, ``noun.plant``): their
#: multi-word lemmas are mostly species names a solver does not know (SWAMP COTTONWOOD).
ORGANISM_LEXFILES = frozenset({5, 20})
TAXON_PREFIXES = ("genus ", "family ", "order ", "class ", "phylum ", "subfamily ", "suborder ", "superfamily ")
#: WordNet usage domains and gloss wording that mark a sense as a slur or as vulgar.
SLUR_GLOSS = re.compile(r"\bethnic slur\b")
VULGAR_GLOSS = re.compile(
    r"\b(obscene|vulgar|offensive (term|name|word|slang)|derogatory term|disparaging term|a slur)\b"
)


def entry_of(form: str) -> str | None:
    """The grid entry of a source form (``"ice age"`` -> ``ICEAGE``), None when it holds anything
    but letters, spaces, hyphens, apostrophes and full stops, or has the wrong length."""
    stripped = "".join(c for c in unicodedata.normalize("NFD", form) if not unicodedata.combining(c))
    letters = re.sub(r"[\s\-'.,!?]", "", stripped)
    if not re.fullmatch(r"[A-Za-z]+", letters) or not MIN_LENGTH <= len(letters) <= MAX_LENGTH:
        return None
    return letters.upper()


def tokens_of(form: str) -> list[str]:
    return [t for t in re.split(r"[\s\-]+", form.lower().strip(" ,.!?")) if t]


@dataclass
class WordNet:
    """What the list needs of WordNet, keyed by form in lower case with spaces."""

    forms: dict[str, set[str]] = field(default_factory=dict)  # lower form -> cased forms
    taxa: set[str] = field(default_factory=set)  # lower forms naming a genus, family, species...
    slurs: set[str] = field(default_factory=set)
    vulgar: set[str] = field(default_factory=set)
    #: lower lemma -> how many of its senses SemCor tagged (a sign that people write it)
    tagged: dict[str, int] = field(default_factory=dict)
    #: lower forms whose every sense is a plant or an animal (ORGANISM_LEXFILES)
    organisms: set[str] = field(default_factory=set)
    #: inflected form -> its lemmas, from WordNet's exception lists (ATE -> EAT, HEPPER -> HEP)
    exceptions: dict[str, set[str]] = field(default_factory=dict)


def read_wordnet(folder: Path) -> WordNet:
    """Lemmas (with case), taxa, organisms, tag counts, exceptions, and lemmas whose first or
    every sense is a slur or vulgar."""
    wn = WordNet()
    senses: dict[tuple[str, str], str] = {}  # (pos, offset) -> "slur" | "vulgar" | ""
    usage_slur, usage_vulgar = set(), set()
    other_senses: set[str] = set()  # forms with a sense that is not a taxon (Paris the city)
    not_organism: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in _data_lines(folder / f"data.{pos}"):
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            offset, lexfile, count = fields[0], int(fields[1]), int(fields[3], 16)
            words = [re.sub(r"\(.*\)$", "", fields[4 + 2 * k]).replace("_", " ") for k in range(count)]
            if pos == "noun" and words[0] in ("ethnic slur",):
                usage_slur.add(offset)
            if pos == "noun" and words[0] in ("obscenity", "disparagement"):
                usage_vulgar.add(offset)
            pointers = fields[4 + 2 * count + 1 :]
            usages = {pointers[k + 1] for k in range(0, len(pointers) - 3, 4) if pointers[k] == ";u"}
            kind = ""
            if SLUR_GLOSS.search(gloss) or usages & usage_slur:
                kind = "slur"
            elif VULGAR_GLOSS.search(gloss) or usages & usage_vulgar:
                kind = "vulgar"
            senses[(pos, offset)] = kind
            is_taxon = any(w.lower().startswith(TAXON_PREFIXES) for w in words)
            for word in words:
                lower = word.lower()
                wn.forms.setdefault(lower, set()).add(word)
                if is_taxon or _is_binomial(word, gloss):
                    wn.taxa.add(lower)
                else:
                    other_senses.add(lower)
                if pos == "noun" and lexfile in ORGANISM_LEXFILES:
                    wn.organisms.add(lower)
                else:
                    not_organism.add(lower)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in _data_lines(folder / f"index.{pos}"):
            fields = line.split()
            lemma, synset_count = fields[0].replace("_", " "), int(fields[2])
            wn.tagged[lemma] = wn.tagged.get(lemma, 0) + int(fields[-synset_count - 1])
            kinds = [senses.get((pos, offset), "") for offset in fields[-synset_count:]]
            for kind in ("slur", "vulgar"):
                if kinds and (kinds[0] == kind or all(k == kind for k in kinds)):
                    (wn.slurs if kind == "slur" else wn.vulgar).add(lemma)
        for line in _data_lines(folder / f"{pos}.exc"):
            form, *lemmas = (part.replace("_", " ") for part in line.split())
            wn.exceptions.setdefault(form, set()).update(lemmas)
    wn.taxa -= other_senses
    wn.organisms -= not_organism
    return wn


def _is_binomial(word: str, gloss: str) -> bool:
    """A Latin species name such as "Acer rubrum": two words, the first capitalised."""
    parts = word.split()
    return len(parts) == 2 and parts[0][:1].isupper() and parts[1].islower() and "genus" in gloss


def _data_lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.startswith("  "):  # the licence header lines start with two spaces
                yield line.rstrip("\n")


@dataclass
class Scowl:
    """SCOWL's lists by the smallest size level that holds each form, and its spellings."""

    words: dict[str, int] = field(default_factory=dict)  # lower-case words and contractions
    names: dict[str, int] = field(default_factory=dict)  # capitalised words and proper names
    abbreviations: dict[str, int] = field(default_factory=dict)
    #: forms by the spelling lists that hold them: "english" (every spelling), "american",
    #: "british" (SCOWL's british and british_z lists: -ise and Oxford -ize)
    spellings: dict[str, set[str]] = field(default_factory=dict)


#: SCOWL's spelling lists, by the name of the spelling they are read as.
SPELLING_LISTS = {"english": "english", "american": "american", "british": "british", "british_z": "british"}


def read_scowl(folder: Path) -> Scowl:
    scowl = Scowl()
    kinds = {
        "words": scowl.words,
        "contractions": scowl.words,
        "upper": scowl.names,
        "proper-names": scowl.names,
        "abbreviations": scowl.abbreviations,
    }
    pattern = re.compile(
        r"(english|american|british|british_z|variant_1)-(words|contractions|upper|proper-names|abbreviations)\.(\d+)"
    )
    for path in sorted(folder.iterdir()):
        found = pattern.fullmatch(path.name)
        if not found:
            continue
        level = int(found.group(3)) + (5 if found.group(1) == "variant_1" else 0)
        table = kinds[found.group(2)]
        spelling = SPELLING_LISTS.get(found.group(1))
        for line in path.read_text(encoding="latin-1").splitlines():
            form = line.strip()
            if not form or form.endswith("'s"):  # possessives would collide with plurals
                continue
            if spelling is not None and found.group(2) == "words":  # names say nothing of spelling
                scowl.spellings.setdefault(form.lower(), set()).add(spelling)
            if spelling == "british" and found.group(1) == "british_z":
                continue  # the Oxford spellings are read for their tag only: levels as before
            if table.get(form, 999) > level:
                table[form] = level
    return scowl


def wordnet_notice(folder: Path) -> str:
    """WordNet's licence, as its data files carry it (numbered header lines)."""
    lines = []
    with open(folder / "data.noun", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.startswith("  "):
                break
            lines.append(re.sub(r"^\s*\d+ ?", "", line.rstrip()))
    return "\n".join(lines)


def scowl_notice(path: Path) -> str:
    """SCOWL's copyright and permission notice (from the Debian package's copyright file)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    start = text.index("The collective work")
    end = text.index("warranty.", start) + len("warranty.")
    return text[start:end]


def read_ukacd(path: Path) -> tuple[str, list[str]]:
    """UKACD's licence notice and its entries."""
    lines = path.read_text(encoding="latin-1").splitlines()
    rule = next(k for k, line in enumerate(lines) if line.startswith("-----"))
    return "\n".join(lines[:rule]), [line.strip() for line in lines[rule + 1 :] if line.strip()]


@dataclass(frozen=True)
class Published:
    """How often an answer appeared in published crosswords, and the last year it did."""

    puzzles: int
    last_year: int


def read_published(path: Path) -> dict[str, Published]:
    """``published-answers.tsv``: ``ANSWER<TAB>PUZZLES<TAB>FIRST_YEAR<TAB>LAST_YEAR`` lines after a
    ``#`` header. A signal for scores only: nothing of it is copied into the list."""
    table: dict[str, Published] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        answer, puzzles, _first, last = line.split("\t")
        table[answer] = Published(int(puzzles), int(last))
    return table


class Familiarity:
    """wordfreq's Zipf frequency of a word, and of a phrase as wordfreq combines its words
    (``1/f = sum(1/f_i)``), from its large English list."""

    def __init__(self) -> None:
        import wordfreq

        self.table: dict[str, float] = wordfreq.get_frequency_dict("en", wordlist="large")

    def zipf(self, tokens: Iterable[str]) -> float:
        inverse = 0.0
        for token in tokens:
            freq = self.table.get(token) or self.table.get(token.replace("'", ""))
            if not freq:
                return 0.0
            inverse += 1 / freq
        return math.log10(1 / inverse) + 9 if inverse else 0.0
