"""The clues shipped for the built-in list: the file loads and looks up entries, every shipped
clue keeps the crossword rules (checked here by functions of this test, not the library's), known
entries get sensible clues, and the build script makes the same clues again from WordNet."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import re
import sys
from importlib import resources
from pathlib import Path

import pytest
from csp_crossword.clues.builtin import DATA_PATH, LICENSE_PATH, SOURCE_TEXT, BuiltinClues, find_line, read_clues
from csp_crossword.clues.rules import ORDINARY_LOOKALIKES, is_offensive, reveals
from csp_crossword.clues.sources import ClueSource, ClueSuggestion
from csp_crossword.words.builtin import _blocklist
from csp_crossword.words.crossword_list import DisplayForms, read_list

ROOT = Path(__file__).resolve().parents[2]
WORDNET = Path("/usr/share/wordnet")
#: Endings this test strips to compare stems (a cruder rule than the library's).
ENDINGS = ("ing", "est", "ed", "es", "er", "ly", "s")
ARTICLES = ("a ", "an ", "the ")
#: A shipped clue's length at most: a cut definition (60) and ", for short".
MAX_CLUE = 75


@pytest.fixture(scope="module")
def shipped() -> dict[str, tuple[str, ...]]:
    return read_clues()


def _crude_stem(word: str) -> str:
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)].rstrip("e")
    return word.rstrip("e") if len(word) > 3 else word


def _gives_away(answer: str, clue: str, display: str) -> str | None:
    """The clue word that gives the answer away, or None: the answer itself, a word of the same
    crude stem, a word of four letters or more holding the answer or inside it, or (a phrase)
    one of its words of three letters or more."""
    answer = answer.lower()
    targets = {answer} | {w for w in re.split(r"[\s-]+", display.lower()) if len(w) >= 3}
    targets -= {"the", "and", "for", "with", "from", "into", "onto", "upon"}
    # each stem once, not once per pair: the test runs this on every one of some 400,000 clues
    stemmed = [(target, _crude_stem(target)) for target in targets]
    for word in re.findall(r"[a-z]+", clue.lower().replace("'", "")):
        stem = _crude_stem(word)
        for target, target_stem in stemmed:
            if word == target or stem == target_stem or (len(word) >= 4 and target in word):
                return word
            if len(stem) >= 4 and stem in target:  # "absent": ABSENTEE
                return word
    return None


def test_the_file_loads_and_is_a_clue_source():
    source: ClueSource = BuiltinClues()  # mypy checks the protocol
    assert source.name == "builtin"
    assert len(BuiltinClues()) > 100_000
    assert source.suggestions("soda")[0] == ClueSuggestion("Pop", SOURCE_TEXT)
    assert source.suggestions("ice age", limit=1)[0].clue in ("Glacial period", "Glacial epoch")
    assert source.suggestions("XQZVXQ") == [] and source.suggestions("") == []
    assert source.best(["SODA", "XQZVXQ", "vee"]) == {"SODA": "Pop", "vee": "Letter after U"}
    assert "SODA" in BuiltinClues() and "XQZVXQ" not in BuiltinClues()


def test_lookup_by_bisection_finds_every_entry(shipped):
    source = BuiltinClues()
    entries = sorted(shipped)
    for entry in entries[:300] + entries[-300:] + entries[::997]:
        assert source.clues(entry) == shipped[entry]
    for missing in ("A", "AAAAAAAAAAAA", "ZZZZZZZZZZZZ", entries[0] + "Q", entries[-1] + "Q"):
        assert missing in shipped or find_line(source.text, missing) is None


def test_no_clue_gives_its_answer_away(shipped):
    displays = DisplayForms()
    bad = []
    for entry, clues in shipped.items():
        display = displays.get(entry, "")  # a search of the list's lines: once per entry, not per clue
        for clue in clues:
            word = _gives_away(entry, clue, display)
            if word:
                bad.append((entry, clue, word))
    assert not bad, bad[:20]


def test_no_offensive_clue_or_entry(shipped):
    _, vulgar = read_list()
    profanity = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text("utf-8")
    entries_banned = (
        vulgar | _blocklist("en") | {line.strip().upper() for line in profanity.splitlines() if line.strip()}
    )
    assert not entries_banned & shipped.keys()
    # clues: no slur and no word vulgar wherever it stands, inflected or not ("Striped hyena" and
    # "Woody plant" are fine: the entry filter's wider list is not the clue rule)
    text = resources.files("csp_crossword.words").joinpath("data", "vulgar-en.txt").read_text("utf-8")
    clue_banned = _blocklist("en") | {w.strip().upper() for w in text.splitlines() if w.strip() and w[0] != "#"}
    bad = [
        (entry, clue)
        for entry, clues in shipped.items()
        for clue in clues
        for word in re.findall(r"[a-z]+", clue.lower().replace("'", ""))
        if {word.upper(), re.sub(r"(s|es|ed|ing|y)$", "", word).upper()} & clue_banned
        and word.upper() not in ORDINARY_LOOKALIKES  # "spicy" is no form of a slur
    ]
    assert not bad, bad[:20]


def test_clues_read_as_clues(shipped):
    sys.path.insert(0, str(ROOT / "scripts"))
    from clue_written import read_written

    written = read_written()  # an editor's clue may open with an article or "iPhone"
    for entry, clues in shipped.items():
        assert 1 <= len(clues) <= 3 and len(set(clues)) == len(clues), entry
        for clue in clues:
            assert clue == clue.strip() and len(clue) <= MAX_CLUE, (entry, clue)
            if clue in written.get(entry, ()):
                continue
            opening = clue.removeprefix('"')
            assert opening[0].isupper() or opening[0].isdigit() or opening.startswith("___"), (entry, clue)
            assert not clue.lower().startswith(ARTICLES), (entry, clue)
            assert not clue.endswith((";", ",", ":")), (entry, clue)


def test_the_library_rules_agree_on_examples():
    assert reveals("RATED", "Rate again") and reveals("EASES", "Easing pain") and reveals("ART", "Start")
    assert reveals("ICEAGE", "Time of ice", ["ice", "age"]) and not reveals("SODA", "Pop")
    assert not reveals("ERA", "Epoch") and is_offensive("A shitty day") and not is_offensive("Pen for swine")
    # a derivation the stem rule misses: the same start over most of the shorter word
    assert reveals("DEFENSE", "Defensive measure") and reveals("ASIAN", "Asiatic")
    assert reveals("VEGETATE", "Produce vegetation") and not reveals("ORCA", "Killer whale")
    assert reveals("OVERSPECIALISED", "Specialized") and not reveals("FORE", "Four")  # British -ise
    # vulgar words, inflected too; ordinary words the entry filter holds (GOD, HELL) are fine
    assert is_offensive("Pissed off") and is_offensive("Bitches") and not is_offensive("Data analysis")
    assert not is_offensive("Killer whale") and not is_offensive("God, in Italy") and not is_offensive("He'll help")


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("SODA", "Pop"),
        ("EASES", "Comforts"),
        ("ALOES", "Soothing plants"),
        ("PRAMS", "Baby carriages"),
        ("ICEAGE", "Glacial period"),
        ("THE", "Definite article"),
        ("VEE", "Letter after U"),
        ("ONO", "Yoko ___"),
        ("SNEAKED", "Crept"),
    ],
)
def test_known_entries(shipped, entry, expected):
    assert expected in shipped[entry]


def test_inflected_entries_get_inflected_clues(shipped):
    assert all(clue.endswith("ed") for clue in shipped["RATED"][:2])
    assert shipped["DEC"][0].endswith((", for short", "Abbr.")) or "." in shipped["DEC"][0]  # an abbreviation's signal
    assert shipped["PEDESTRIANS"][0] == "Walkers"


def test_the_sense_a_solver_knows_comes_first(shipped):
    # the tagged or best-linked sense, not WordNet's first untagged one
    assert shipped["DOC"][0] == "Physician" and shipped["TAMALE"][0] != "City in northern Ghana"
    assert shipped["SIRE"][0] != "Get" and shipped["STAG"][0] in ("Hart", "Male deer")
    # a short familiar synonym or a definition cut to a clue, not a long gloss
    assert "Evergreen tree" in shipped["FIR"] and shipped["SEE"][0].startswith("Perceive")
    assert all(len(clue.split()) <= 6 for entry in ("LAP", "NASAL", "DYE", "ITALY") for clue in shipped[entry][:1])
    # a name's clue only for a name: UTE and BUB are words to a solver
    for entry in ("UTE", "HORA", "YER", "BUB"):
        assert shipped[entry][0] not in ("Woman's name", "Man's name", "Family name"), entry
    # too broad a term is no clue
    assert "European country" not in shipped["ITALY"] and "Collection" not in shipped.get("CANONLAW", ())


def test_clues_agree_with_their_entry_and_give_nothing_away(shipped):
    assert not any("founds" in clue for clue in shipped["CATALASES"])
    assert not any(clue.startswith("Of or") for clue in shipped["NASAL"])
    assert "Voracious snakelike marine or freshwater fishes" not in shipped["EEL"]
    assert not any(clue.startswith("Is ") for clue in shipped.get("TOOLSTEEL", ()))
    # derived stems, a contraction's halves, a pet form
    assert "Codification" not in shipped["CODE"] and "Is not" not in shipped["ISNT"]
    assert not any("able" in clue.lower().split() for clue in shipped["ABILITY"])
    assert not any("Teddy" in clue for clue in shipped["TEDS"])


def test_short_fill_gets_written_clues(shipped):
    for entry in ("AMA", "ASST", "BRR", "DIR", "ETH", "MIC", "PRE", "STU", "NAACP", "WHA", "EAN", "SST", "NEH"):
        assert entry in shipped, entry


def test_the_licence_notice_ships_with_the_clues():
    notice = Path(LICENSE_PATH).read_text("utf-8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in notice
    assert "THIS SOFTWARE AND DATABASE IS PROVIDED" in notice
    header = gzip.decompress(Path(DATA_PATH).read_bytes()).decode("utf-8").split("\n", 3)[:3]
    assert all(line.startswith("#") for line in header) and "WordNet 3.0" in "".join(header)
    package_data = (ROOT / "pyproject.toml").read_text("utf-8")
    assert "clues/data/*.gz" in package_data and "clues/data/*.txt" in package_data


@pytest.fixture(scope="module")
def script():
    if not (WORDNET / "index.noun").exists():
        pytest.skip("needs WordNet 3.0 in /usr/share/wordnet (Debian: apt-get install wordnet-base)")
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("build_builtin_clues", ROOT / "scripts" / "build_builtin_clues.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SLICE = {"SODA", "EASES", "RATED", "ALOES", "ICEAGE", "THE", "VEE", "DEC", "PEDESTRIANS", "ONO", "XQZVXQ"}
SLICE |= {"RITA", "SNYDER", "SPORTSANNOUNCER", "DAWNHORSE"}


@pytest.fixture(scope="module")
def census(script):
    folder = script.default_folder()
    if folder is None:
        pytest.skip("needs the Census name lists of the names package (pip install names)")
    return script.read_census(folder)


@pytest.mark.rebuild
def test_the_script_remakes_the_shipped_clues_the_same_way_twice(script, shipped, census):
    wordnet = script.read_wordnet(WORDNET)
    scores, displays = script.read_entries()
    first = script.build(wordnet, scores, displays, census, SLICE)
    second = script.build(wordnet, scores, displays, census, set(sorted(SLICE, reverse=True)))
    assert first == second
    assert {entry: tuple(clues) for entry, clues in first.items()} == {e: shipped[e] for e in SLICE if e in shipped}
    one, two = script.render(first), script.render(second)
    assert one == two and hashlib.sha256(one).hexdigest() == hashlib.sha256(script.render(dict(first))).hexdigest()
    assert gzip.decompress(one).decode("utf-8").startswith("# csp-crossword clues")
    assert script.wordnet_notice(WORDNET) == Path(LICENSE_PATH).read_text("utf-8")


def test_names_are_clued_from_the_census_lists_after_every_other_clue(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from clue_names import read_census

    (tmp_path / "dist.female.first").write_text("MARY 2.629 2.629 1\nJEAN 0.200 2.8 2\nRITA 0.100 2.9 3\n")
    (tmp_path / "dist.male.first").write_text("JAMES 3.318 3.318 1\nJEAN 0.150 3.5 2\n")
    (tmp_path / "dist.all.last").write_text("SMITH 1.006 1.006 1\nSNYDER 0.050 1.1 900\nALLRED 0.001 1.2 60000\n")
    names = read_census(tmp_path)
    assert names.clues("RITA") == ["Woman's name"] and names.clues("JAMES") == ["Man's name"]
    assert names.clues("JEAN") == ["Man's or woman's name"]  # neither three times the other
    # a surname gets no clue: "Family name" is none a solver can work with
    assert names.clues("SNYDER") == [] and names.clues("ALLRED") == [] and names.clues("SMITH") == []
    assert names.clues("SODA") == []
    # a first name's plural, when the plural is no surname itself
    assert names.clues("RITAS") == ["Women's names"] and names.clues("JAMESS") == ["Men's names"]


def test_shipped_clues_for_names_and_broader_terms(shipped):
    # a written clue names a bearer; the Census clue comes after it
    assert shipped["RITA"][0] != "Woman's name" and "Woman's name" in shipped["RITA"]
    # a generated puzzle does not fill with names it could only clue "Woman's name"
    entries = BuiltinClues().entries()
    assert shipped["ADDIE"] == ("Woman's name",) and "ADDIE" not in entries
    assert "RITA" in entries and "SODA" in entries and "SPORTSANNOUNCER" in entries
    # a word that is also a name keeps its meaning first
    assert "Woman's name" not in shipped["MAY"][:1]
    # the definition and the nearest broader term give SPORTSANNOUNCER away; a farther one does not
    assert shipped["SPORTSANNOUNCER"][0] == "Broadcaster"


def test_written_clue_files_are_read_and_a_bad_line_is_named(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from clue_written import WrittenClueError, read_written

    written = read_written()
    assert len(written) > 60_000 and all(entry.isalnum() and entry.isupper() for entry in written)
    assert all(clues and all(clue.strip() == clue for clue in clues) for clues in written.values())
    (tmp_path / "a.tsv").write_text("# comment\nSODA\tPop\tFizzy drink\n\nCOLA no tab here\n", encoding="utf-8")
    with pytest.raises(WrittenClueError, match=r"a\.tsv:4"):
        read_written(tmp_path)
    (tmp_path / "a.tsv").write_text("SODA\tPop\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("SODA\tSoft drink\nCOLA\tCoke, e.g.\n", encoding="utf-8")
    assert read_written(tmp_path) == {"SODA": ("Pop",), "COLA": ("Coke, e.g.",)}  # the first file wins
