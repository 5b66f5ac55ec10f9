"""``clues import`` of plain clue lists: TSV, CSV, "answer: clue" lines and word lists with a clue
column, with a header row or without; bad lines skipped and named with their file and line; a
file that cannot be read skipped while the others are imported."""

from __future__ import annotations

import json

import pytest
from csp_crossword.cli import main
from csp_crossword.clues.database import ClueDatabase
from csp_crossword.clues.importer import crossword_files, import_files
from csp_crossword.clues.list_files import parse_clue_list, sniff_delimiter
from csp_crossword.core.errors import ExitCode, InputError

#: The pairs every list below holds, whatever its layout.
PAIRS = [("ERA", "Time period, e.g."), ("ALOE", "Soothing plant"), ("ICEAGE", "Glacial time")]

LISTS = {
    "tsv": ("clues.tsv", "ERA\tTime period, e.g.\nALOE\tSoothing plant\nice age\tGlacial time\n"),
    "tsv-header": ("clues.tsv", "Answer\tClue\nERA\tTime period, e.g.\nALOE\tSoothing plant\nice age\tGlacial time\n"),
    "csv": ("clues.csv", 'ERA,"Time period, e.g."\nALOE,Soothing plant\nICE AGE,Glacial time\n'),
    "csv-unquoted-comma": ("clues.csv", "ERA,Time period, e.g.\nALOE,Soothing plant\nICE AGE,Glacial time\n"),
    "csv-space-quoted": ("clues.csv", 'ERA, "Time period, e.g."\nALOE, Soothing plant\nICE AGE, "Glacial time"\n'),
    "csv-header": ("clues.csv", 'word,clue\nERA,"Time period, e.g."\nALOE,Soothing plant\nICE AGE,Glacial time\n'),
    "csv-semicolon": ("clues.csv", "ERA;Time period, e.g.\nALOE;Soothing plant\nICE AGE;Glacial time\n"),
    "colon": ("clues.txt", "era: Time period, e.g.\naloe: Soothing plant\nice age: Glacial time\n"),
    "pipe": ("clues.txt", "ERA|Time period, e.g.\nALOE|Soothing plant\nICE-AGE|Glacial time\n"),
    "word-score-clue": ("words.txt", "ERA;50;Time period, e.g.\nALOE;45;Soothing plant\nICE AGE;30;Glacial time\n"),
    "word-score-clue-header": (
        "words.txt",
        "word;score;clue\nERA;50;Time period, e.g.\nALOE;45;Soothing plant\nICE AGE;30;Glacial time\n",
    ),
    "csv-columns": (
        "words.csv",
        'score,word,source,clue\n50,ERA,me,"Time period, e.g."\n45,ALOE,me,Soothing plant\n30,ICE AGE,me,Glacial time\n',
    ),
    "xd-clues-tsv": (
        "xd-clues.tsv",
        "pubid\tyear\tanswer\tclue\nnyt\t2001\tERA\tTime period, e.g.\nnyt\t2002\tALOE\tSoothing plant\n"
        "lat\t2003\tICEAGE\tGlacial time\n",
    ),
    "comments-and-bom": (
        "clues.tsv",
        "\ufeff# my clues\n\nERA\tTime period, e.g.\nALOE\tSoothing plant\nICEAGE\tGlacial time\n",
    ),
}


@pytest.mark.parametrize("layout", sorted(LISTS))
def test_each_layout_gives_the_same_clues(layout, tmp_path):
    name, text = LISTS[layout]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([path], database)
    assert (report.files_read, report.clues_added, report.skipped, report.bad_line_count) == (1, 3, [], 0)
    for entry, clue in PAIRS:
        assert [(s.clue, s.source) for s in database.suggestions(entry)] == [(clue, name)]


def test_quotes_belong_to_the_clue_unless_a_spreadsheet_wrote_them():
    tsv = parse_clue_list('ONE\t"Hello"\nTWO\t"""Hi"" there"\n', "q.tsv", ".tsv")
    assert tsv.pairs == [("ONE", '"Hello"'), ("TWO", '"Hi" there')]
    csv = parse_clue_list('DROID,"Star Wars" robot\nEPOCH,"Time, long"\n', "q.csv", ".csv")
    assert csv.pairs == [("DROID", '"Star Wars" robot'), ("EPOCH", "Time, long")]


def test_the_separator_is_the_one_that_leaves_an_answer_before_it():
    assert sniff_delimiter(["ERA: Time, e.g.", "ALOE: Plant"]) == ":"
    assert sniff_delimiter(["ERA,Note: time", "ALOE,Abbr.: plant"]) == ","
    assert sniff_delimiter(["ERA;50;Time, e.g.", "ALOE;40;Plant"]) == ";"
    assert sniff_delimiter(["#.#", "..."]) is None


def test_answers_in_other_scripts_keep_their_glyphs(tmp_path):
    path = tmp_path / "bn.tsv"
    path.write_text("বাংলা\tA language\nökonomie\tWirtschaft\n", encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    assert import_files([path], database).clues_added == 2
    assert [s.clue for s in database.suggestions("বাংলা")] == ["A language"]
    assert [s.clue for s in database.suggestions("ÖKONOMIE")] == ["Wirtschaft"]


def test_bad_lines_are_skipped_and_named_with_their_line(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text(
        "answer,clue\nERA,Time period\nAT&T,Phone company\n,Orphan clue\nNOCLUE,\nALOE,Plant\n", encoding="utf-8"
    )
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([path], database)
    assert report.clues_added == 2 and report.bad_line_count == 3
    assert [(line.path, line.line) for line in report.bad_lines] == [(str(path), 3), (str(path), 4), (str(path), 5)]
    assert str(report.bad_lines[0]) == f"{path}:3: the answer 'AT&T' holds '&', which no grid square can"
    assert str(report.bad_lines[1]).endswith(":4: no answer")
    assert str(report.bad_lines[2]).endswith(":5: no clue for 'NOCLUE'")
    assert "3 bad lines skipped" in report.summary()


def test_a_file_that_cannot_be_read_is_skipped_and_the_others_import(tmp_path):
    (tmp_path / "latin1.tsv").write_bytes("ERA\tTime\nCAFE\tCaf\xe9\n".encode("latin-1"))
    (tmp_path / "words.csv").write_text("word,score\nERA,50\n", encoding="utf-8")
    (tmp_path / "grid.txt").write_text("#..\n...\n", encoding="utf-8")
    (tmp_path / "good.tsv").write_text("ERA\tTime period\n", encoding="utf-8")
    (tmp_path / "empty.csv").write_text("# nothing yet\n\n", encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([tmp_path, tmp_path / "grid.txt"], database)
    assert report.files_read == 1 and report.clues_added == 1
    skipped = dict(report.skipped)
    assert skipped[str(tmp_path / "latin1.tsv")] == f"{tmp_path / 'latin1.tsv'}:2:9: not valid UTF-8 text"
    assert "a word list without clues" in skipped[str(tmp_path / "words.csv")]
    assert "not a clue list" in skipped[str(tmp_path / "grid.txt")]
    assert "an empty clue list" in skipped[str(tmp_path / "empty.csv")]


def test_folders_are_searched_for_lists_but_not_for_other_text(tmp_path):
    for name in ("a.tsv", "b.CSV", "notes.txt", "c.xd"):
        (tmp_path / name).write_text("ERA\tTime\n", encoding="utf-8")
    assert sorted(p.rsplit("/", 1)[1] for p in crossword_files([tmp_path])) == ["a.tsv", "b.CSV", "c.xd"]


def test_a_list_imported_again_adds_nothing(tmp_path):
    path = tmp_path / "clues.tsv"
    path.write_text("ERA\tTime period\nERA\ttime  period\nALOE\tPlant\n", encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    first = import_files([path], database)
    assert (first.clues_added, first.duplicates) == (2, 1)
    again = import_files([path], database)
    assert again.clues_added == 0 and again.already_imported == [str(path)]


def test_a_strict_reader_error_is_typed():
    with pytest.raises(InputError) as caught:
        parse_clue_list("entry\tscore\nERA\t50\n", "w.tsv", ".tsv")
    assert (caught.value.path, caught.value.line) == ("w.tsv", 1)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_imports_lists_and_prints_the_summary(capsys, tmp_path):
    (tmp_path / "mine.tsv").write_text(
        "answer\tclue\nERA\tTime period\nSTAR\t*Celebrity\nALOE\tSee 17-Across\nBAD!\tOops\n", encoding="utf-8"
    )
    (tmp_path / "friends.csv").write_text('ERA,"Epoch, e.g."\nALOE,Soothing plant\n', encoding="utf-8")
    db = tmp_path / "clues.sqlite"
    code, out, err = run(capsys, "clues", "import", tmp_path / "mine.tsv", tmp_path / "friends.csv", "--db", db)
    assert code == ExitCode.OK
    assert out.splitlines()[0] == (
        "2 files read, 5 clues added, 0 duplicates, 0 files skipped, 0 already imported, "
        "1 bad line skipped, 2 theme or cross-reference clues kept but never suggested"
    )
    assert f"warning: skipped line {tmp_path / 'mine.tsv'}:5: the answer 'BAD!' holds '!'" in err

    code, out, _ = run(capsys, "clues", "ALOE", "--db", db)
    assert out.splitlines() == [" 1. Soothing plant", "    1 use: friends.csv"]
    code, out, err = run(capsys, "clues", "STAR", "--db", db)
    assert out == "" and "no clues for STAR" in err

    (tmp_path / "more.tsv").write_text("IRE\tAnger\nNOCLUE\t\n", encoding="utf-8")
    code, out, _ = run(capsys, "clues", "import", tmp_path / "more.tsv", "--db", db, "--format", "json")
    data = json.loads(out)
    assert data["clues_added"] == 1 and data["bad_line_count"] == 1 and data["theme_clues"] == 0
    assert data["bad_lines"] == [{"file": str(tmp_path / "more.tsv"), "line": 2, "reason": "no clue for 'NOCLUE'"}]


def test_cli_exits_2_when_no_list_could_be_read(capsys, tmp_path):
    (tmp_path / "grid.txt").write_text("#..\n...\n", encoding="utf-8")
    code, _, err = run(capsys, "clues", "import", tmp_path / "grid.txt", "--db", tmp_path / "clues.sqlite")
    assert code == ExitCode.BAD_INPUT and "grid.txt: not a clue list" in err
