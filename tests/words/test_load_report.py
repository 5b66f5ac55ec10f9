"""The one warning a list file gets: what was skipped, counted by reason, with the first lines of
each, and the repeats merged; the same from a cached list as from a fresh read."""

from __future__ import annotations

from csp_crossword.core.limits import MAX_WORD_GLYPHS
from csp_crossword.words import list_cache
from csp_crossword.words.load_report import WARNING_EXAMPLES, LoadReport
from csp_crossword.words.wordlists import load_word_list

LONG = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 10  # 260 letters: longer than any grid side
TEXT = "\n".join(
    [
        "rock'n'roll;60",  # apostrophes are separators: ROCKNROLL
        LONG,
        "R&B;50",
        "AT&T",
        "C#",
        "dog;lots",
        "cat;70",
        "CAT;40",
        "Cat",
        LONG + "Z",
        "emu;20",
    ]
)


def test_skipped_lines_are_counted_by_reason(write):
    lexicon, report = load_word_list(write("my.dict", TEXT))
    assert set(lexicon.scores) == {"ROCKNROLL", "CAT", "EMU"} and lexicon.scores["CAT"] == 70
    assert report.counts == {"long": 2, "characters": 3, "malformed": 1} and report.skipped == 6
    assert report.repeats == 2
    warning = report.warning()
    assert "\n" not in warning
    assert warning.startswith(f"{write('my.dict', TEXT)}: skipped 6 entries: 2 longer than {MAX_WORD_GLYPHS} glyphs")
    assert "3 with characters other than letters, marks and digits (line 3: 'R&B' holds '&'; line 4:" in warning
    assert "line 5" not in warning and "; ...)" in warning  # the third is counted, not quoted
    assert "1 malformed (line 6: score 'lots' is not a number" in warning
    assert warning.endswith("; merged 2 repeated entries (the highest score kept)")
    assert LONG[:20] in warning and LONG not in warning and "(260 glyphs)" in warning  # quoted, not copied


def test_a_list_without_problems_gets_no_warning(write):
    assert load_word_list(write("ok.dict", "cat;70\ndog;60\n"))[1].warning() is None


def test_repeats_alone_are_said(write):
    _, report = load_word_list(write("w.txt", "cat;70\nCAT;80\nice age\nIce-Age\n"))
    assert report.warning().endswith("w.txt: merged 2 repeated entries (the highest score kept)")


def test_examples_are_kept_per_reason_and_counts_are_whole(write):
    bad = "".join(f"x{n}&;1\n" for n in range(1000)) + "cat\n" + "".join(f"y;z{n}\n" for n in range(1000))
    _, report = load_word_list(write("w.txt", bad))
    assert report.counts == {"characters": 1000, "malformed": 1000}
    assert len(report.examples) == 2 * WARNING_EXAMPLES
    assert [line for line, _ in report.malformed] == [1, 2, 1002, 1003]


def test_the_cached_report_is_the_report(tmp_path, write, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(list_cache, "MIN_CACHED_BYTES", 0)
    path = write("my.dict", TEXT)
    first = load_word_list(path)[1]
    second = load_word_list(path)[1]
    assert second == first and second.warning() == first.warning()
    assert LoadReport.from_json(path, first.to_json()) == first


def test_entries_spelled_the_other_way_are_counted(write):
    lexicon, report = load_word_list(write("w.txt", "colour;60\ncolor;60\ntheatre\narea\n"), spelling="us")
    assert set(lexicon.scores) == {"COLOR", "AREA"} and report.counts == {"spelling": 2}
    assert report.warning().endswith(
        "w.txt: skipped 2 entries: 2 spelled only the British way, left out by --spelling us (colour; theatre)"
    )
    lexicon, report = load_word_list(write("w.txt", "colour;60\ncolor;60\n"), spelling="uk")
    assert set(lexicon.scores) == {"COLOUR"} and "spelled only the American way" in report.warning()
