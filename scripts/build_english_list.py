"""Build csp-crossword's built-in English word list from permissively licensed sources.

    python scripts/build_english_list.py            # writes csp_crossword/words/data/en-crossword.tsv.gz
    python scripts/build_english_list.py --check    # rebuilds in memory, compares with the shipped file

Inputs (all read, none shipped as they are):

* UKACD18 (``../shared/data/lexicon/ukacd18.txt``; BSD-style licence, notice kept in the output):
  a crossword dictionary of words, phrases and proper names.
* WordNet 3.0 (Debian ``wordnet-base``, ``/usr/share/wordnet``): lemmas with their parts of speech,
  multi-word expressions, sense order, usage labels (ethnic slur, obscenity) and glosses.
* SCOWL (Debian ``scowl``, ``/usr/share/dict/scowl``): size levels 10-95 as a commonness scale, and
  separate lists of proper names, capitalised words and abbreviations.
* wordfreq (the installed package; data CC BY-SA 4.0): how familiar each word is, and each word of
  a phrase.

The output is a gzip file (fixed header, so the bytes depend only on the inputs) of UTF-8 lines
``ENTRY<TAB>SCORE<TAB>DISPLAY<TAB>FLAG`` after a ``#`` header with the sources and licences.
DISPLAY is empty when it is the entry in lower case; FLAG is ``v`` for vulgar entries (offered only
with ``--allow-offensive``). Slurs are left out.

Scores mean crossword fill quality on 0-100 (``docs/formats.md`` has examples): 50 and up, fine in
any puzzle; 30-49, acceptable when a corner needs it; below 30, avoid.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import math
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUTPUT = REPO / "csp_crossword" / "words" / "data" / "en-crossword.tsv.gz"
#: The sha256 of OUTPUT's decompressed text, recorded beside it (tests check the two agree).
CHECKSUM = OUTPUT.with_name("en-crossword.sha256")
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", REPO.parent / "shared")) / "data"
UKACD = SHARED / "lexicon" / "ukacd18.txt"
WORDNET = Path("/usr/share/wordnet")
SCOWL = Path("/usr/share/dict/scowl")
SCOWL_COPYRIGHT = Path("/usr/share/doc/scowl/copyright")

#: Entry lengths kept, in letters.
MIN_LENGTH = 2
MAX_LENGTH = 25

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

#: WordNet usage domains and gloss wording that mark a sense as a slur or as vulgar.
SLUR_GLOSS = re.compile(r"\bethnic slur\b")
VULGAR_GLOSS = re.compile(
    r"\b(obscene|vulgar|offensive (term|name|word|slang)|derogatory term|disparaging term|a slur)\b"
)
TAXON_PREFIXES = ("genus ", "family ", "order ", "class ", "phylum ", "subfamily ", "suborder ", "superfamily ")


def familiarity_score(zipf: float) -> float:
    """A Zipf frequency as a score: Zipf 1 -> 10, 3 -> 38, 4 -> 52, 5 -> 66, 6 -> 80."""
    return max(0.0, min(90.0, 10 + 14 * (zipf - 1)))


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


def read_wordnet(folder: Path) -> WordNet:
    """Lemmas (with case), taxa, and lemmas whose first or every sense is a slur or vulgar."""
    wn = WordNet()
    senses: dict[tuple[str, str], str] = {}  # (pos, offset) -> "slur" | "vulgar" | ""
    usage_slur, usage_vulgar = set(), set()
    other_senses: set[str] = set()  # forms with a sense that is not a taxon (Paris the city)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in _data_lines(folder / f"data.{pos}"):
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            offset, count = fields[0], int(fields[3], 16)
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
                wn.forms.setdefault(word.lower(), set()).add(word)
                if is_taxon or _is_binomial(word, gloss):
                    wn.taxa.add(word.lower())
                else:
                    other_senses.add(word.lower())
    for pos in ("noun", "verb", "adj", "adv"):
        for line in _data_lines(folder / f"index.{pos}"):
            fields = line.split()
            lemma, synset_count = fields[0].replace("_", " "), int(fields[2])
            kinds = [senses.get((pos, offset), "") for offset in fields[-synset_count:]]
            for kind in ("slur", "vulgar"):
                if kinds and (kinds[0] == kind or all(k == kind for k in kinds)):
                    (wn.slurs if kind == "slur" else wn.vulgar).add(lemma)
    wn.taxa -= other_senses
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
    """SCOWL's lists by the smallest size level that holds each form."""

    words: dict[str, int] = field(default_factory=dict)  # lower-case words and contractions
    names: dict[str, int] = field(default_factory=dict)  # capitalised words and proper names
    abbreviations: dict[str, int] = field(default_factory=dict)


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
        r"(english|american|british|variant_1)-(words|contractions|upper|proper-names|abbreviations)\.(\d+)"
    )
    for path in sorted(folder.iterdir()):
        found = pattern.fullmatch(path.name)
        if not found:
            continue
        level = int(found.group(3)) + (5 if found.group(1) == "variant_1" else 0)
        table = kinds[found.group(2)]
        for line in path.read_text(encoding="latin-1").splitlines():
            form = line.strip()
            if not form or form.endswith("'s"):  # possessives would collide with plurals
                continue
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
#: (better-profanity lists SHAG and WHIZ).
VULGAR_ENDINGS = (
    "S", "ES", "ED", "ER", "ERS", "ING", "INGS", "Y", "IER", "IEST",
    "PER", "PERS", "PED", "PING", "PY", "PIER", "PIEST",
)  # fmt: skip
#: Endings that replace the final E of a word of our own list (URINATE -> URINATING,
#: MASTURBATORY). Not used with better-profanity's short words: RAPS, TESTS, CURSOR and SLOPPY
#: would follow from RAPE, TESTE, CURSE and SLOPE.
E_ENDINGS = ("ED", "ER", "ERS", "ING", "INGS", "ION", "IONS", "OR", "ORS", "ORY")
#: The shortest word of our list whose E_ENDINGS forms are flagged.
E_WORD_MIN = 6


def vulgar_words() -> set[str]:
    """better-profanity's list (MIT) and ours (``data/vulgar-en.txt``), upper case."""
    from importlib import resources

    text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text("utf-8")
    return _entries(text) | vulgar_phrase_words()


def vulgar_phrase_words() -> set[str]:
    """Our list (``data/vulgar-en.txt``): words vulgar wherever they stand, phrases included.
    better-profanity's list is not used for phrases: it holds GOD, ORGAN, SCREW, WEED, HEMP and
    TESTS, which would flag ACT OF GOD, BARREL ORGAN and BLOOD TESTS."""
    return _entries((REPO / "csp_crossword" / "words" / "data" / "vulgar-en.txt").read_text("utf-8"))


def _entries(text: str) -> set[str]:
    lines = (line.strip() for line in text.splitlines() if not line.startswith("#"))
    return {e for e in map(entry_of, lines) if e}


def is_vulgar_form(entry: str, vulgar: set[str], e_words: AbstractSet[str] = frozenset()) -> bool:
    """Whether an entry is a vulgar word or one of its forms: a vulgar word of four or more
    letters followed by one of VULGAR_ENDINGS, or a word of ``e_words`` (E_WORD_MIN letters or
    more) with its final E replaced by one of E_ENDINGS."""
    if entry in vulgar or entry in e_words:
        return True
    for ending in VULGAR_ENDINGS:
        stem = entry[: -len(ending)]
        if entry.endswith(ending) and len(stem) >= 4 and (stem in vulgar or stem in e_words):
            return True
    for ending in E_ENDINGS:
        word = entry[: -len(ending)] + "E"
        if entry.endswith(ending) and len(word) >= E_WORD_MIN and word in e_words:
            return True
    return False


def is_vulgar(form: str, entry: str, vulgar: set[str], phrase_words: set[str]) -> bool:
    """Whether a source form is vulgar: the whole entry is a vulgar word or one of its forms, or
    a word of a phrase is one of ``phrase_words`` or their forms (ANAL SEX, NUDE DANCING)."""
    if is_vulgar_form(entry, vulgar, phrase_words):
        return True
    words = [entry_of(token) for token in tokens_of(form)]
    return len(words) > 1 and any(word is not None and is_vulgar_form(word, set(), phrase_words) for word in words)


def blocklist() -> set[str]:
    text = (REPO / "csp_crossword" / "words" / "data" / "blocklist-en.txt").read_text("utf-8")
    return {line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def build(ukacd: Path, wordnet: Path, scowl_folder: Path) -> bytes:
    """The list file's bytes (gzip, deterministic)."""
    notice, ukacd_forms = read_ukacd(ukacd)
    wn = read_wordnet(wordnet)
    scowl = read_scowl(scowl_folder)
    freq = Familiarity()
    sources: dict[str, set[str]] = {}
    for form in ukacd_forms:
        sources.setdefault(form, set()).add("ukacd")
    for cased in wn.forms.values():
        for form in cased:
            sources.setdefault(form, set()).add("wordnet")
    for table in (scowl.words, scowl.names, scowl.abbreviations):
        for form, level in table.items():
            if level <= 70 or form in sources:
                sources.setdefault(form, set()).add("scowl")
    slurs = blocklist() | {e for e in map(entry_of, wn.slurs) if e}
    vulgar = vulgar_words() | {e for e in map(entry_of, wn.vulgar) if e}
    phrase_words = vulgar_phrase_words()
    best: dict[str, tuple[float, str]] = {}
    for form in sorted(sources):
        entry = entry_of(form)
        if entry is None or entry in slurs:
            continue
        score = score_form(form, sources[form], scowl, wn, freq)
        common = scowl.words.get(form, 999) <= 50
        score = letter_string_ceiling(entry, score, common)
        # best score wins; on a tie the lower-case form, then the first in sorted order
        key = (score, form.islower())
        if entry not in best or key > (best[entry][0], best[entry][1].islower()):
            best[entry] = (score, form)
    lines = []
    for entry in sorted(best):
        score, form = best[entry]
        display = "" if form.lower() == entry.lower() else form
        flag = "v" if is_vulgar(form, entry, vulgar, phrase_words) else ""
        lines.append(f"{entry}\t{max(1, min(100, round(score)))}\t{display}\t{flag}")
    from importlib import metadata

    header = [
        "# csp-crossword built-in English list: ENTRY, SCORE (0-100 fill quality), DISPLAY, FLAG (v = vulgar)",
        "# Built by scripts/build_english_list.py from UKACD18, WordNet 3.0, SCOWL and wordfreq "
        f"{metadata.version('wordfreq')}",
        "# Licence of this derived list: CC BY-SA 4.0 (it is derived from wordfreq's data), with the",
        "# notices of its sources below: UKACD's (BSD-style), WordNet's (Princeton WordNet licence),",
        "# SCOWL's (permissive, Kevin Atkinson and contributors).",
        *_comment("UKACD18", notice),
        *_comment("WordNet 3.0", wordnet_notice(wordnet)),
        *_comment("SCOWL", scowl_notice(SCOWL_COPYRIGHT)),
    ]
    text = "\n".join(header + lines) + "\n"
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        handle.write(text.encode("utf-8"))
    return buffer.getvalue()


def _comment(title: str, notice: str) -> list[str]:
    return ["#", f"# --- {title} ---", *("# " + line if line.strip() else "#" for line in notice.splitlines())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ukacd", type=Path, default=UKACD)
    parser.add_argument("--wordnet", type=Path, default=WORDNET)
    parser.add_argument("--scowl", type=Path, default=SCOWL)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing")
    args = parser.parse_args(argv)
    data = build(args.ukacd, args.wordnet, args.scowl)
    digest = hashlib.sha256(gzip.decompress(data)).hexdigest()
    if args.check:
        shipped = hashlib.sha256(gzip.decompress(args.output.read_bytes())).hexdigest()
        print(f"built {digest}\nshipped {shipped}")
        return 0 if digest == shipped else 1
    tmp = args.output.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, args.output)
    if args.output == OUTPUT:
        CHECKSUM.write_text(f"{digest}  en-crossword.tsv.gz (decompressed)\n")
    print(f"wrote {args.output} ({len(data):,} bytes, content sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
