"""Every whole-number option of every command, given a huge value (past 2**63, past 2**64, far
negative), ends in a result or a clear usage error: never an internal error (exit 70) or a
traceback. A worker count past MAX_WORKERS is a usage error before any work."""

from __future__ import annotations

import argparse

import pytest
from csp_crossword.cli import main
from csp_crossword.cli.parser import build_parser
from csp_crossword.core.errors import ExitCode
from csp_crossword.core.limits import MAX_WORKERS

HUGE = (str(2**63), str(2**64 + 1), "-" + "9" * 30)
#: Commands whose whole-number options are not tried: a server does not end by itself (its
#: --port and --workers are checked below, as usage errors before it starts).
NOT_RUN = {"serve"}


def _whole_number_options() -> list[tuple[str, str]]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    found = []
    for name, command in commands.items():
        for action in command._actions:
            if action.option_strings and (action.type is int or getattr(action.type, "__name__", "") == "worker_count"):
                found.append((name, action.option_strings[0]))
    return found


def _base(command: str, folder) -> list[str]:
    grid = folder / "grid.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    words = folder / "words.txt"
    words.write_text("\n".join(["COW", "ARE", "TED", "CAT", "ORE", "WED", "ACT", "TEA"]) + "\n", encoding="utf-8")
    spec = folder / "spec.toml"
    spec.write_text('[[job]]\nkind = "fill"\ngrid = "grid.txt"\n', encoding="utf-8")
    common = ["--words", str(words), "--time-limit", "2"]
    bases = {
        "fill": ["fill", str(grid), *common, "--backend", "cpsat"],  # --workers reaches CP-SAT
        "check": ["check", str(grid), *common],
        "count": ["count", str(grid), *common],
        "enumerate": ["enumerate", str(grid), *common],
        "candidates": ["candidates", str(grid), "1A", "--words", str(words)],
        "export": ["export", str(grid), "--words", str(words)],
        "generate": ["generate", "--size", "5x5", "--time-limit", "2"],
        "freeform": ["freeform", str(words), "--time-limit", "1"],
        "batch": ["batch", str(spec), "--out", str(folder / "out")],
        "clues": ["clues", "CAT", "--db", str(folder / "none.sqlite")],
    }
    return bases[command]


@pytest.mark.parametrize("command, option", [c for c in _whole_number_options() if c[0] not in NOT_RUN])
def test_a_huge_whole_number_is_a_result_or_a_usage_error(command, option, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for value in HUGE:
        code = main([*_base(command, tmp_path), option, value, "-q" if command != "clues" else "--format=text"])
        _, err = capsys.readouterr()
        assert code != ExitCode.INTERNAL_ERROR and code in {int(c) for c in ExitCode}, (command, option, value, err)
        assert "Traceback" not in err and "internal error" not in err, err


@pytest.mark.parametrize(
    "argv",
    [["serve", "--workers"], ["batch", "spec.toml", "--out", "out", "--jobs"], ["fill", "grid.txt", "--workers"]],
)
def test_a_worker_count_past_the_bound_is_a_usage_error(argv, capsys):
    for value in (str(MAX_WORKERS + 1), str(2**64)):
        assert main([*argv, value]) == ExitCode.BAD_INPUT
        assert f"at most {MAX_WORKERS:,} workers" in capsys.readouterr().err
