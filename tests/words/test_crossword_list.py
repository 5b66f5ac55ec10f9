"""The shipped English crossword list: its scale, its display forms, its licence, and that it is
what scripts/build_english_list.py builds from its inputs."""

import gzip
import hashlib
import importlib.util
import os
import sys
from pathlib import Path

import pytest
from csp_crossword.words import crossword_list
from csp_crossword.words.builtin import builtin_lexicon

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "build_english_list.py"


def shipped_digest() -> str:
    return hashlib.sha256(gzip.decompress(crossword_list.list_bytes())).hexdigest()


def test_shipped_list_matches_its_recorded_checksum():
    recorded = Path(crossword_list.LIST_PATH).with_name("en-crossword.sha256").read_text().split()[0]
    assert shipped_digest() == recorded


def test_scores_follow_the_documented_scale():
    lexicon = builtin_lexicon("en")
    scores = lexicon.scores
    # 50 and up: common words, lively phrases, famous names (docs/formats.md)
    for entry in ("AREA", "OKRA", "ONYX", "EPOXY", "ICEAGE", "HOTDOG", "ATLAST", "PARIS", "ERIC", "OREO", "NBA"):
        assert scores[entry] >= 50, entry
    # 30-49: acceptable when a corner needs it (crosswordese: published often, known from puzzles)
    for entry in ("ERNE", "STET", "ETUI"):
        assert 30 <= scores[entry] < 50, entry
    # below 30: obscure words, Latin taxa, letter strings
    for entry in ("ESNE", "ACER", "SMILACACEAE", "EEE"):
        assert scores.get(entry, 0) < 30, entry
    # web junk of the old list is not in it at all
    for entry in ("OUATTARA", "NPES", "ARL", "STW", "AFFLALO", "REEEEEEALLY", "KVAERNER", "DARKIE"):
        assert entry not in lexicon, entry
    assert all(0 <= score <= 100 for score in scores.values())


def test_classes_editors_reject_score_below_the_acceptable_band():
    scores = builtin_lexicon("en").scores
    # rare inflections and derivations of common words: far rarer than their base
    for entry in ("SISES", "HEPPER", "OVERSPECIALISES", "MILKIEST", "DIERESES"):
        assert scores[entry] < 30, entry
    # species names of plants and animals no puzzle used, and Latin taxa
    for entry in ("SWAMPCOTTONWOOD", "GOLDILOCKSASTER", "COFFEACANEPHORA", "MERCENARIA"):
        assert scores[entry] < 30, entry
    # inflected phrases no dictionary lists, and compounds with only a dictionary's word for them
    for entry in ("FORCELANDS", "ARENASTAGES", "STORECHEESE", "SAMPLINGSTATION"):
        assert scores[entry] < 50, entry
    # regular inflections of common words keep their score; idioms stay fine
    for entry in ("CATS", "ABATES", "SHAMPOOED", "OUTTOLUNCH", "INTHEFRAME"):
        assert scores[entry] >= 50, entry


def test_spellings_are_tagged_and_a_fill_can_keep_to_one():
    spellings = crossword_list.read_spellings()
    assert {"COLOUR", "GREYED", "THEATRE", "DETENTIONCENTRE"} <= spellings["uk"]
    assert {"COLOR", "THEATER"} <= spellings["us"]
    assert "AREA" not in spellings["uk"] | spellings["us"]
    us = builtin_lexicon("en", spelling="us")
    uk = builtin_lexicon("en", spelling="uk")
    assert "COLOUR" not in us and "COLOR" in us
    assert "COLOR" not in uk and "COLOUR" in uk
    with pytest.raises(ValueError, match="spelling"):
        builtin_lexicon("en", spelling="australian")


def test_vulgar_entries_only_when_allowed_and_slurs_never():
    clean = builtin_lexicon("en")
    allowed = builtin_lexicon("en", allow_offensive=True)
    for entry in ("SHIT", "FUCK", "CRAPPIER", "CRAPPERS"):  # and their forms
        assert entry not in clean and entry in allowed, entry
    for entry in ("SHAGGY", "ASSESSED", "FACIALLY"):  # ordinary words that merely contain one
        assert entry in clean, entry
    for entry in ("WOP", "DARKIE"):  # WordNet labels them ethnic slurs
        assert entry not in clean and entry not in allowed, entry


def test_a_teacher_gets_no_vulgar_phrase_or_derived_form():
    clean = builtin_lexicon("en")
    allowed = builtin_lexicon("en", allow_offensive=True)
    # phrases with a vulgar word, forms of a vulgar word ending in E, and our own additions
    for entry in ("ANALSEX", "NUDEDANCING", "MASTURBATED", "MASTURBATORY", "URINATES", "SEXY", "SODOMITE", "SODOMITES"):
        assert entry not in clean and entry in allowed, entry
    for entry in ("ANALYSIS", "ANALGESIC", "GRAPE", "ARSENAL", "ESSEX", "SUSSEX"):
        assert entry in clean, entry


def test_display_forms_for_clues_and_sheets():
    lexicon = builtin_lexicon("en")
    assert lexicon.display_form("ICEAGE") == "ice age"
    assert lexicon.display_form("DONT") == "don't"
    assert lexicon.display_form("AREA") == "AREA"  # no separate form: the entry itself


def test_licence_notices_are_kept():
    notice = crossword_list.read_notice()
    assert "CC BY-SA 4.0" in notice
    assert "J Ross Beresford" in notice  # UKACD's BSD-style notice
    assert "Princeton University" in notice  # WordNet's licence
    assert "Kevin Atkinson" in notice  # SCOWL's


def test_malformed_list_is_refused_with_the_entry_number():
    data = gzip.compress(b"# header\nCAT\t60\t\t\nDOG\tsixty\t\t\n")
    with pytest.raises(ValueError, match="entry 2"):
        crossword_list.read_list(data)


def _inputs_present() -> str | None:
    shared = Path(os.environ.get("CSP_CROSSWORD_SHARED", REPO.parent / "shared")) / "data"
    needed = [
        shared / "lexicon" / "ukacd18.txt",
        shared / "lexicon" / "published-answers.tsv",
        Path("/usr/share/wordnet/data.noun"),
        Path("/usr/share/dict/scowl/english-words.10"),
        Path("/usr/share/doc/scowl/copyright"),
    ]
    missing = [str(path) for path in needed if not path.exists()]
    return ", ".join(missing) if missing else None


@pytest.mark.shared
@pytest.mark.rebuild
def test_script_rebuilds_the_shipped_list_from_its_inputs():
    missing = _inputs_present()
    if missing:
        pytest.skip(f"inputs of scripts/build_english_list.py missing: {missing}")
    from importlib import metadata

    header = crossword_list.read_notice().splitlines()[1]
    if not header.endswith(f"wordfreq {metadata.version('wordfreq')}"):
        pytest.skip(f"the shipped list was built with another wordfreq ({header})")
    spec = importlib.util.spec_from_file_location("build_english_list", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # dataclasses look their module up while the script runs
    try:
        spec.loader.exec_module(script)
        built = script.build(script.UKACD, script.WORDNET, script.SCOWL)
        irregular = script.irregular_table(script.WORDNET, built)
    finally:
        del sys.modules[spec.name]
    assert hashlib.sha256(gzip.decompress(built)).hexdigest() == shipped_digest()
    assert irregular == script.IRREGULAR.read_text(encoding="utf-8")
