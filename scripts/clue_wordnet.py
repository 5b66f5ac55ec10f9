"""WordNet 3.0 read for clue writing (``build_builtin_clues.py``): synsets with their words and
definitions, lemmas with their senses in WordNet's order, the irregular inflections."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

POS_NAMES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
#: A sense key's synset type (lemma%TYPE:...) as a part of speech: 5 is a satellite adjective.
SENSE_KEY_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
#: WordNet's lexicographer files that hold people and places (its lexnames numbering).
PERSON_FILE = 18
LOCATION_FILE = 15
#: Definitions and usage domains that mark a sense as a slur or vulgar: such senses give no clue.
OFFENSIVE_GLOSS = re.compile(
    r"\b(obscene|vulgar|offensive (term|name|word|slang|way)|derogatory|disparaging|slur|"
    r"slang for (the )?(penis|vagina|buttocks))\b|\(offensive\)"
)  # "offensive" alone is a gloss's word too: "something very ugly and offensive" (EYESORE)
OFFENSIVE_USAGE = ("ethnic slur", "obscenity", "disparagement", "vulgarism")
#: The lexicographer files of taxa are not clues a solver reads ("genus of ...").
TAXON_PREFIXES = ("genus ", "family ", "order ", "class ", "phylum ", "subfamily ", "suborder ", "superfamily ")


@dataclass
class Synset:
    pos: str  # n, v, a, r (satellite adjectives are a)
    lexfile: int
    words: list[str]  # as WordNet writes them, underscores as spaces ("Yoko Ono")
    gloss: str  # the definition, examples dropped
    offensive: bool = False
    similar: list[str] = field(default_factory=list)  # offsets of similar adjectives (&)
    hypernyms: list[str] = field(default_factory=list)
    antonyms: list[str] = field(default_factory=list)  # offsets of an adjective's opposites (!)
    instance: bool = False  # an instance of its hypernyms (Italy of "European country"), not a kind
    pointers: int = 0  # links to other synsets and words: a richly linked sense is a known one


@dataclass
class WordNetData:
    synsets: dict[tuple[str, str], Synset] = field(default_factory=dict)  # (pos, offset) ->
    senses: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (lemma, pos) -> offsets
    tagged: dict[tuple[str, str], int] = field(default_factory=dict)  # (lemma, pos) -> tagged senses
    exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # pos -> form -> bases
    inflections: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # pos -> base -> forms
    # how often each sense was tagged in WordNet's semantic concordance (cntlist.rev), which says
    # which sense of a word a reader knows: (lemma, pos, offset) -> count; (lemma, pos) -> total
    sense_counts: dict[tuple[str, str, str], int] = field(default_factory=dict)
    lemma_counts: dict[tuple[str, str], int] = field(default_factory=dict)
    synset_counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (pos, offset) -> all its words'
    hyponyms: dict[tuple[str, str], int] = field(default_factory=dict)  # (pos, offset) -> narrower synsets

    def sense_count(self, lemma: str, pos: str, offset: str) -> int:
        return self.sense_counts.get((lemma.lower(), pos, offset), 0)

    def word_count(self, lemma: str) -> int:
        """How often a word was tagged in any sense and part of speech."""
        return sum(self.lemma_counts.get((lemma.lower(), pos), 0) for pos in POS_NAMES)

    def lemma_senses(self, lemma: str, pos: str) -> list[Synset]:
        return [self.synsets[(pos, offset)] for offset in self.senses.get((lemma, pos), ())]


def _lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.startswith("  "):  # the licence header's lines start with two spaces
                yield line.rstrip("\n").rstrip()


def _definition(gloss: str) -> str:
    """A synset's definition without its quoted examples."""
    parts = [p.strip() for p in gloss.split(";")]
    return "; ".join(p for p in parts if p and not p.startswith('"')).strip()


def read_wordnet(folder: Path) -> WordNetData:
    wn = WordNetData()
    usage_offsets: set[str] = set()
    pending: list[tuple[Synset, set[str]]] = []
    for short, name in POS_NAMES.items():
        for line in _lines(folder / f"data.{name}"):
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            offset, lexfile, count = fields[0], int(fields[1]), int(fields[3], 16)
            words = [re.sub(r"\([a-z]+\)$", "", fields[4 + 2 * k]).replace("_", " ") for k in range(count)]
            pointers = fields[5 + 2 * count :]
            synset = Synset(short, lexfile, words, _definition(gloss), pointers=len(pointers) // 4)
            usages = set()
            for k in range(0, len(pointers) - 3, 4):
                symbol, target, target_pos = pointers[k], pointers[k + 1], pointers[k + 2]
                if symbol == ";u":
                    usages.add(target)
                elif symbol == "&" and short == "a":
                    synset.similar.append(target)
                elif symbol == "!" and short == "a" and target_pos in ("a", "s") and target not in synset.antonyms:
                    synset.antonyms.append(target)
                elif symbol in ("@", "@i") and target_pos == short:
                    synset.hypernyms.append(target)
                    synset.instance = synset.instance or symbol == "@i"
            if short == "n" and words[0].lower() in OFFENSIVE_USAGE:
                usage_offsets.add(offset)
            synset.offensive = bool(OFFENSIVE_GLOSS.search(gloss))
            pending.append((synset, usages))
            wn.synsets[(short, offset)] = synset
    for synset, usages in pending:
        if usages & usage_offsets:
            synset.offensive = True
    for short, name in POS_NAMES.items():
        for line in _lines(folder / f"index.{name}"):
            fields = line.split()
            lemma, count = fields[0].replace("_", " "), int(fields[2])
            wn.senses[(lemma, short)] = fields[-count:]
            wn.tagged[(lemma, short)] = int(fields[-count - 1])
        table: dict[str, list[str]] = {}
        inverse: dict[str, list[str]] = {}
        for line in _lines(folder / f"{name}.exc"):
            form, *bases = line.replace("_", " ").split()
            table.setdefault(form, []).extend(bases)
            for base in bases:
                inverse.setdefault(base, []).append(form)
        wn.exceptions[short], wn.inflections[short] = table, inverse
    for synset in wn.synsets.values():
        for offset in synset.hypernyms:
            key = (synset.pos, offset)
            wn.hyponyms[key] = wn.hyponyms.get(key, 0) + 1
    if (folder / "cntlist.rev").exists():
        _read_counts(wn, folder / "cntlist.rev")
    return wn


def _read_counts(wn: WordNetData, path: Path) -> None:
    """cntlist.rev's lines ``lemma%type:lexfile:id:head:headid SENSE_NUMBER COUNT``: the sense
    number is the synset's place in the lemma's line of the index file."""
    for line in _lines(path):
        fields = line.split()
        if len(fields) != 3:
            continue
        key, number, count = fields[0], int(fields[1]), int(fields[2])
        lemma, _, rest = key.partition("%")
        pos = SENSE_KEY_POS.get(rest[:1])
        lemma = lemma.replace("_", " ")
        offsets = wn.senses.get((lemma, pos or ""), [])
        if pos is None or not 1 <= number <= len(offsets):
            continue
        offset = offsets[number - 1]
        wn.sense_counts[(lemma, pos, offset)] = wn.sense_counts.get((lemma, pos, offset), 0) + count
        wn.lemma_counts[(lemma, pos)] = wn.lemma_counts.get((lemma, pos), 0) + count
        wn.synset_counts[(pos, offset)] = wn.synset_counts.get((pos, offset), 0) + count


def is_taxon(synset: Synset) -> bool:
    return any(w.lower().startswith(TAXON_PREFIXES) for w in synset.words)
