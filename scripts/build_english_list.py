"""Build csp-crossword's built-in English word list from permissively licensed sources.

    python scripts/build_english_list.py            # writes csp_crossword/words/data/en-crossword.tsv.gz
    python scripts/build_english_list.py --check    # rebuilds in memory, compares with the shipped file

Inputs (all read, none shipped as they are; readers in ``english_sources.py``):

* UKACD18 (``../shared/data/lexicon/ukacd18.txt``; BSD-style licence, notice kept in the output):
  a crossword dictionary of words, phrases and proper names.
* WordNet 3.0 (Debian ``wordnet-base``, ``/usr/share/wordnet``): lemmas with their parts of speech,
  multi-word expressions, sense order, SemCor tag counts, lexicographer files (plants, animals),
  exception lists (irregular inflections), usage labels (ethnic slur, obscenity) and glosses.
* SCOWL (Debian ``scowl``, ``/usr/share/dict/scowl``): size levels 10-95 as a commonness scale,
  separate lists of proper names, capitalised words and abbreviations, and its American and
  British spelling lists.
* wordfreq (the installed package; data CC BY-SA 4.0): how familiar each word is, and each word of
  a phrase.
* ``../shared/data/lexicon/published-answers.tsv``: how often and how lately an answer appeared in
  published crosswords. A signal only: no list is copied from it.

A score is the dictionary score (``english_scores.py``) weighed by the editorial evidence
(``english_editorial.py``): ceilings for what editors reject, floors for what published puzzles
use. The output is a gzip file (fixed header, so the bytes depend only on the inputs) of UTF-8
lines ``ENTRY<TAB>SCORE<TAB>DISPLAY<TAB>FLAGS<TAB>DICTIONARY`` after a ``#`` header with the
sources and licences. DISPLAY is empty when it is the entry in lower case; FLAGS holds ``v`` for
vulgar entries (offered only with ``--allow-offensive``), ``b`` for a British-only spelling and
``a`` for an American-only one; DICTIONARY is the dictionary score before the editorial evidence
(how familiar the entry is: ``build_builtin_clues.py`` ranks clue words by it). Slurs are left out.

Scores mean crossword fill quality on 0-100 (``docs/formats.md`` has examples): 50 and up, fine in
any puzzle; 30-49, acceptable when a corner needs it; below 30, avoid.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import re
import sys
from collections.abc import Set as AbstractSet
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

from csp_crossword.words.builtin import with_inflections  # noqa: E402
from english_editorial import Evidence, editorial_score, spelling_of  # noqa: E402
from english_scores import letter_string_ceiling, score_form  # noqa: E402
from english_sources import (  # noqa: E402
    Familiarity,
    Scowl,
    WordNet,
    entry_of,
    read_published,
    read_scowl,
    read_ukacd,
    read_wordnet,
    scowl_notice,
    tokens_of,
    wordnet_notice,
)

OUTPUT = REPO / "csp_crossword" / "words" / "data" / "en-crossword.tsv.gz"
#: Irregular form -> lemma of the list's single words (ATE EAT), from WordNet's exception lists:
#: what ``csp_crossword.words.roots`` needs to see that two entries share a root.
IRREGULAR = OUTPUT.with_name("irregular-en.txt")
#: The sha256 of OUTPUT's decompressed text, recorded beside it (tests check the two agree).
CHECKSUM = OUTPUT.with_name("en-crossword.sha256")
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", REPO.parent / "shared")) / "data"
UKACD = SHARED / "lexicon" / "ukacd18.txt"
PUBLISHED = SHARED / "lexicon" / "published-answers.tsv"
WORDNET = Path("/usr/share/wordnet")
SCOWL = Path("/usr/share/dict/scowl")
SCOWL_COPYRIGHT = Path("/usr/share/doc/scowl/copyright")

__all__ = ["build", "main", "wordnet_notice"]

#: A consonant string (no vowel) used in this many published puzzles or more escapes the
#: letter-string ceiling (MVP, RDS): solvers know it as an answer.
LETTER_STRING_PUBLISHED = 5


def kind_of(form: str, scowl: Scowl) -> str:
    """What a source form is, as ``score_form`` tells them apart: phrase, abbreviation, name, word."""
    if len(tokens_of(form)) > 1:
        return "phrase"
    letters = re.sub(r"[^a-z]", "", form.lower())
    if (form.isupper() and len(letters) > 1) or form in scowl.abbreviations or "." in form:
        return "abbreviation"
    return "name" if form[:1].isupper() else "word"


def entry_score(
    form: str, entry: str, sources: set[str], wn: WordNet, scowl: Scowl, ev: Evidence
) -> tuple[float, float]:
    """A source form's dictionary score and its score after the editorial evidence, each with the
    letter-string ceilings. The dictionary score chooses the entry's display form (AIRMAIL, not
    AIR MAIL); the editorial score is the entry's (the best of its forms)."""
    dictionary = score_form(form, sources, scowl, wn, ev.freq)
    final = dictionary
    if form.lower() not in wn.taxa:  # a Latin taxon stays where the dictionary score put it
        final = editorial_score(form, entry, dictionary, sources, kind_of(form, scowl), ev)
    common = scowl.words.get(form, 999) <= 50
    # a string of consonants puzzles use (MVP, RDS, TSK) is an answer editors accept
    use = ev.published.get(entry)
    used = common or (use is not None and use.puzzles >= LETTER_STRING_PUBLISHED)
    return letter_string_ceiling(entry, dictionary, common), letter_string_ceiling(entry, final, used)


#: Endings that make an inflected or derived form of a vulgar word (CRAP -> CRAPPERS, CRAPPIER).
#: The doubled P is spelled out: doubling every final consonant flagged SHAGGY and WHIZZING too
#: (better-profanity lists SHAG and WHIZ).
VULGAR_ENDINGS = (
    "S", "ES", "ED", "ER", "ERS", "ING", "INGS", "Y", "IER", "IEST",
    "PER", "PERS", "PED", "PING", "PY", "PIER", "PIEST",
)  # fmt: skip
#: Stems a plural -ES follows (DAGOES, ASSES); after any other stem -ES is -S after an E (SPICES).
ES_STEM_ENDINGS = ("O", "S", "X", "Z", "CH", "SH")
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
        if ending == "ES" and not stem.endswith(ES_STEM_ENDINGS):
            continue  # SPICES is SPICE's plural, not SPIC's
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


def build(ukacd: Path, wordnet: Path, scowl_folder: Path, published: Path = PUBLISHED) -> bytes:
    """The list file's bytes (gzip, deterministic)."""
    notice, ukacd_forms = read_ukacd(ukacd)
    wn = read_wordnet(wordnet)
    scowl = read_scowl(scowl_folder)
    ev = Evidence(wn, scowl, Familiarity(), read_published(published))
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
    # our blocklist's plurals too (YIDS); not WordNet's slur senses', whose plurals are mostly
    # other words (TACOS, TOMS)
    slurs = with_inflections(blocklist()) | {e for e in map(entry_of, wn.slurs) if e}
    vulgar = vulgar_words() | {e for e in map(entry_of, wn.vulgar) if e}
    phrase_words = vulgar_phrase_words()
    best: dict[str, tuple[float, str]] = {}
    final: dict[str, float] = {}
    spellings: dict[str, set[str]] = {}
    for form in sorted(sources):
        entry = entry_of(form)
        if entry is None or entry in slurs:
            continue
        score, edited = entry_score(form, entry, sources[form], wn, scowl, ev)
        final[entry] = max(final.get(entry, 0.0), edited)
        spellings.setdefault(entry, set()).add(spelling_of(form, scowl))
        # best score wins; on a tie the lower-case form, then the first in sorted order
        key = (score, form.islower())
        if entry not in best or key > (best[entry][0], best[entry][1].islower()):
            best[entry] = (score, form)
    lines = []
    for entry in sorted(best):
        dictionary, form = best[entry]
        score = final[entry]
        display = "" if form.lower() == entry.lower() else form
        flags = "v" if is_vulgar(form, entry, vulgar, phrase_words) else ""
        # a spelling tag only when every form of the entry has it (an entry is one string)
        tags = spellings[entry]
        if len(tags) == 1:
            flags += next(iter(tags))
        lines.append(f"{entry}\t{_whole(score)}\t{display}\t{flags}\t{_whole(dictionary)}")
    from importlib import metadata

    header = [
        "# csp-crossword built-in English list: ENTRY, SCORE (0-100 fill quality), DISPLAY, FLAGS "
        "(v = vulgar, b = British spelling, a = American spelling), "
        "DICTIONARY (the score before the editorial evidence)",
        "# Built by scripts/build_english_list.py from UKACD18, WordNet 3.0, SCOWL and wordfreq "
        f"{metadata.version('wordfreq')}",
        "# Scores weigh how often and how lately answers appeared in published crosswords (a signal only).",
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


def _whole(score: float) -> int:
    return max(1, min(100, round(score)))


def irregular_table(wordnet: Path, list_data: bytes) -> str:
    """The text of IRREGULAR: ``FORM LEMMA`` lines for the exceptions of WordNet whose form and
    lemma are both single-word entries of the list and stem apart (ATE and EAT, not BIGGER and
    BIG, which the stemmer already joins)."""
    import Stemmer  # PyStemmer: the stemmer csp_crossword.words.roots uses

    stem = Stemmer.Stemmer("english").stemWord
    wn = read_wordnet(wordnet)
    text = gzip.decompress(list_data).decode("utf-8")
    entries = {line.split("\t", 1)[0] for line in text.splitlines() if line and not line.startswith("#")}
    pairs = set()
    for form, lemmas in wn.exceptions.items():
        for lemma in lemmas:
            a, b = entry_of(form), entry_of(lemma)
            plain = re.fullmatch(r"[a-z]+", form) and re.fullmatch(r"[a-z]+", lemma)
            if plain and a and b and a != b and a in entries and b in entries and stem(form) != stem(lemma):
                pairs.add((a, b))
    lines = [
        "# Irregular forms of csp-crossword's built-in English list: FORM LEMMA (ATE EAT), derived from",
        "# WordNet 3.0's exception lists by scripts/build_english_list.py. WordNet's licence:",
        *("# " + line if line.strip() else "#" for line in wordnet_notice(wordnet).splitlines()),
    ]
    # one lemma per form: the first in order (a form with two lemmas, such as LAY, keeps LAY's own)
    chosen: dict[str, str] = {}
    for form, lemma in sorted(pairs):
        chosen.setdefault(form, lemma)
    return "\n".join(lines + [f"{form} {lemma}" for form, lemma in sorted(chosen.items())]) + "\n"


def _comment(title: str, notice: str) -> list[str]:
    return ["#", f"# --- {title} ---", *("# " + line if line.strip() else "#" for line in notice.splitlines())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ukacd", type=Path, default=UKACD)
    parser.add_argument("--wordnet", type=Path, default=WORDNET)
    parser.add_argument("--scowl", type=Path, default=SCOWL)
    parser.add_argument("--published", type=Path, default=PUBLISHED)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing")
    args = parser.parse_args(argv)
    data = build(args.ukacd, args.wordnet, args.scowl, args.published)
    digest = hashlib.sha256(gzip.decompress(data)).hexdigest()
    irregular = irregular_table(args.wordnet, data)
    if args.check:
        shipped = hashlib.sha256(gzip.decompress(args.output.read_bytes())).hexdigest()
        same_table = IRREGULAR.read_text(encoding="utf-8") == irregular
        print(f"built {digest}\nshipped {shipped}\nirregular forms {'the same' if same_table else 'differ'}")
        return 0 if digest == shipped and same_table else 1
    tmp = args.output.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, args.output)
    if args.output == OUTPUT:
        CHECKSUM.write_text(f"{digest}  en-crossword.tsv.gz (decompressed)\n")
        IRREGULAR.with_suffix(".tmp").write_text(irregular, encoding="utf-8")
        os.replace(IRREGULAR.with_suffix(".tmp"), IRREGULAR)
    print(f"wrote {args.output} ({len(data):,} bytes, content sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
