"""Build the clues shipped for the built-in English list from WordNet 3.0 and the US Census names.

    python scripts/build_builtin_clues.py            # writes csp_crossword/clues/data/builtin-clues.tsv.gz
    python scripts/build_builtin_clues.py --check    # rebuilds in memory, compares with the shipped file
    python scripts/build_builtin_clues.py --entries SODA,EASES,RATED   # prints those entries' clues

Input: WordNet 3.0 as Debian's ``wordnet-base`` installs it (``/usr/share/wordnet``: ``index.*``,
``data.*``, the ``*.exc`` lists of irregular inflections and ``cntlist.rev``'s sense counts), the
word frequencies of the installed ``wordfreq`` package, the built-in English list (which
entries to clue, their display forms, and their dictionary scores as a measure of how familiar a word is),
clues written for this project (``clues_written/*.tsv``, ``clue_written.py``: every entry of the
list scoring 50 or more and every entry default fills of the American patterns used over 320
seeds, each clued as an editor would print it; ``clue_tables.py``, ``clue_crosswordese.py``,
``clue_short_fill.py``, ``clue_fill_entries.py``), and the
1990 US Census lists of first names and surnames (public domain; ``clue_names.py`` says where they
come from: ``pip install names``, or ``--census DIR``).

Each entry of the list gets up to MAX_CLUES clues, best first, the way a crossword editor picks
them (``clue_ranking.py``): every candidate gets a cost, and the cheapest come first. The cost
adds up how well a solver knows the sense (WordNet's tagged sense counts, ``cntlist.rev``, against
the entry's best-known sense; untagged senses by their synsets' counts, links and common synonyms,
a capitalised sense after a lower-case one: DOC is "Physician", not "Commerce"), the kind of clue
(a familiar synonym, the definition, a cut definition, a broader term, a phrase's blank), and its
wording (a synonym mostly meaning something else, "Get" for SIRE; rare words, by ``wordfreq``;
length; a head that fits anything, "Substance"). The candidates: a synonym in the entry's own
inflection (EASES: "Alleviates", RATED: "Graded"), WordNet's definition cut to a clue of about six
words and put in the same inflection and number ("Evergreen tree" for FIR, "Small carriages for
babies"; ``clue_glosses.py``), an expansion for an abbreviation ("December, for short"), a
fill-in-the-blank from a WordNet phrase ("___ age"), a broader term specific enough to help
("Broadcaster" for SPORTSANNOUNCER; no class of hundreds of instances, "City"), and last a
common first name's clue ("Woman's name"; only for names a solver knows as names; a surname
gets none). The written clues come first (``clues_written/``), then the written tables
(``clue_short_fill.py`` and ``clue_fill_entries.py`` hold the entries that default fills of the
American patterns use and WordNet cannot clue). Every clue keeps the rules of
``csp_crossword.clues.rules``: it never holds the answer, a word of its stem or a derivation of
it ("able" for ABILITY, "Teddy" for TEDS, "Is not" for ISN'T), and no offensive word. Entries the
list keeps out by default (vulgar words, slurs) get none.

The output is a gzip file (fixed header, so the bytes depend only on the inputs) of UTF-8 lines
``ENTRY<TAB>CLUE[<TAB>CLUE...]`` after ``#`` header lines naming the source and its licence.
"""

from __future__ import annotations

import argparse
import gzip
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from build_english_list import wordnet_notice as english_list_notice  # noqa: E402
from clue_crosswordese import CROSSWORDESE_CLUES  # noqa: E402
from clue_fill_entries import FILL_ENTRY_CLUES  # noqa: E402
from clue_morphology import Morphology  # noqa: E402
from clue_names import CensusNames, default_folder, read_census  # noqa: E402
from clue_short_fill import SHORT_FILL_CLUES  # noqa: E402
from clue_tables import ABBREVIATION_CLUES, ALPHABET, FUNCTION_WORD_CLUES, LETTER_NAMES  # noqa: E402
from clue_wordnet import WordNetData, read_wordnet  # noqa: E402
from clue_writer import ClueWriter  # noqa: E402
from clue_written import read_written  # noqa: E402
from csp_crossword.clues.rules import is_offensive, reveals  # noqa: E402
from csp_crossword.core.files import write_atomically  # noqa: E402

WORDNET = Path("/usr/share/wordnet")
DATA = REPO / "csp_crossword" / "clues" / "data"
OUTPUT = DATA / "builtin-clues.tsv.gz"
LICENSE = DATA / "WORDNET-LICENSE.txt"
ARTICLES = ("a ", "an ", "the ")
#: Clues kept per entry, best first.
MAX_CLUES = 3
HEADER = (
    "# csp-crossword clues for the built-in English list: ENTRY<TAB>CLUE[<TAB>CLUE...], best first",
    "# Clues written for csp-crossword (scripts/clues_written), then derived from WordNet 3.0 by",
    "# scripts/build_builtin_clues.py; WordNet 3.0 Copyright 2006 by",
    "# Princeton University. All rights reserved. Licence notice: WORDNET-LICENSE.txt beside this file.",
    "# Names' clues from the 1990 US Census name lists (public domain).",
)


#: The clues written for the entries fills use most (``clues_written/``), tried first.
WRITTEN = read_written()
#: The older written tables, tried before WordNet.
TABLES = (FUNCTION_WORD_CLUES, ABBREVIATION_CLUES, CROSSWORDESE_CLUES, SHORT_FILL_CLUES, FILL_ENTRY_CLUES)


def read_entries() -> tuple[dict[str, int], dict[str, str]]:
    """The built-in list's entries offered by default (entry -> its dictionary score: how familiar
    it is, which ranks a clue's words, not the fill score's editorial evidence) and display forms."""
    from csp_crossword.words.builtin import derive_scores
    from csp_crossword.words.crossword_list import DisplayForms, read_dictionary_scores

    scores, vulgar = derive_scores("en")
    for entry in vulgar:
        scores.pop(entry, None)
    familiar = read_dictionary_scores()
    return {entry: familiar.get(entry, score) for entry, score in scores.items()}, dict(DisplayForms())


def keep(entry: str, display: str, clue: str, written: bool = False) -> bool:
    """Whether a clue keeps the rules: no answer, no word of its stem, nothing offensive; and,
    unless an editor wrote it (``written``: "The Messiah", "iPhone, e.g."), no leading article
    and a capital first (what a definition cut to a clue needs)."""
    words = display.replace("-", " ").split() if display else ()
    if written:
        return bool(clue) and not reveals(entry, clue, words) and not is_offensive(clue)
    # "A little" does not read as a clue, nor ".45-caliber pistol" (a clue starts with a capital)
    # a quoted clue ("\"Obviously!\"" for DUH) starts with a capital inside its quote
    opening = clue[1:2] if clue[:1] == '"' else clue[:1]
    if not clue or clue.lower().startswith(ARTICLES) or not (opening.isupper() or opening.isdigit() or opening == "_"):
        return False
    return not reveals(entry, clue, words) and not is_offensive(clue)


def build(
    wordnet: WordNetData,
    scores: dict[str, int],
    displays: dict[str, str],
    census: CensusNames,
    only: set[str] | None = None,
    rejected: dict[str, list[str]] | None = None,
) -> dict[str, list[str]]:
    """Entry -> its clues, best first, for the entries that get any."""
    morphology = Morphology(wordnet, scores)
    writer = ClueWriter(wordnet, morphology, scores)
    clues: dict[str, list[str]] = {}
    for entry in sorted(only if only is not None else scores):
        if entry not in scores:
            continue
        display = displays.get(entry, "")
        found: list[str] = []
        written = WRITTEN.get(entry, ())
        candidates = list(written) + [c for table in TABLES for c in table.get(entry, ())]
        candidates += writer.clues(entry, display) + letter_clues(entry)
        if not display or display.isalpha():  # a name is one word ("all-red" is no surname)
            candidates += census.clues(entry)
        for clue in candidates:
            if clue not in found and keep(entry, display, clue, clue in written):
                found.append(clue)
            elif rejected is not None:
                rejected.setdefault(entry, []).append(clue)
            if len(found) == MAX_CLUES:
                break
        # a broad term ("Materials") only for an entry nothing else clues
        for clue in [] if found else writer.last_resort[:1]:
            if keep(entry, display, clue):
                found.append(clue)
        if found:
            clues[entry] = found
    return clues


def letter_clues(entry: str) -> list[str]:
    """ "Letter after U" for VEE, the name of a letter."""
    letter = LETTER_NAMES.get(entry)
    if letter is None:
        return []
    position = ALPHABET.index(letter)
    return [f"Letter after {ALPHABET[position - 1]}" if position else f"Letter before {ALPHABET[1]}"]


def render(clues: dict[str, list[str]]) -> bytes:
    """The gzip file's bytes: the same clues always make the same bytes (mtime 0, no name)."""
    text = "\n".join(HEADER) + "\n" + "".join(f"{e}\t" + "\t".join(c) + "\n" for e, c in sorted(clues.items()))
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as handle:
        handle.write(text.encode("utf-8"))
    return buffer.getvalue()


def wordnet_notice(folder: Path) -> str:
    """WordNet's licence notice, as its data files carry it, ending with a line break (the file
    shipped beside the clues)."""
    return english_list_notice(folder).strip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=WORDNET, help="WordNet's folder (index.*, data.*, *.exc)")
    parser.add_argument("--census", type=Path, help="folder of the Census name lists (default: the names package's)")
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the shipped file")
    parser.add_argument("--entries", help="comma-separated entries: print their clues, write nothing")
    args = parser.parse_args(argv)
    census_folder = args.census or default_folder()
    if census_folder is None:
        parser.error("the Census name lists are needed: pip install names, or give --census DIR")
    wordnet, census = read_wordnet(args.wordnet), read_census(census_folder)
    scores, displays = read_entries()
    if args.entries:
        wanted = {e.strip().upper() for e in args.entries.split(",") if e.strip()}
        rejected: dict[str, list[str]] = {}
        clues = build(wordnet, scores, displays, census, wanted, rejected)
        for entry in sorted(wanted):
            print(entry, " | ".join(clues.get(entry, ["(none)"])), sep="\t")
            if rejected.get(entry):
                print("", "rejected: " + " | ".join(rejected[entry]), sep="\t")
        return 0
    clues = build(wordnet, scores, displays, census)
    data, notice = render(clues), wordnet_notice(args.wordnet)
    if args.check:
        same = OUTPUT.read_bytes() == data and LICENSE.read_text("utf-8") == notice
        print("the shipped clues match a rebuild" if same else "the shipped clues differ from a rebuild")
        return 0 if same else 1
    DATA.mkdir(parents=True, exist_ok=True)
    write_atomically(str(OUTPUT), data)
    write_atomically(str(LICENSE), notice)
    print(f"{OUTPUT.relative_to(REPO)}: {len(clues)} entries, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
