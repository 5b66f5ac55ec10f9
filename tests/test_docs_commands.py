"""Every ``csp-crossword`` command the README and docs/ show runs as shown, so a doc cannot drift
from the code: the options exist, the files exist, and the command ends with a documented exit
code (0, 1 for a proof that no fill exists, 3 at the time limit), never a usage error (2) or an
internal one (70).

The commands run in the test's process, through ``csp_crossword.cli.main`` as the installed
program calls it (``tests/cli`` runs the program itself, for its entry point, exit codes and
signals): a fresh interpreter for each of some sixty commands would add its start-up and the
loading of the lists to each. The commands of one document run in order in a scratch folder
that sees the checkout's ``grids/``, ``examples/`` and ``benchmarks/`` (a later command reads
what an earlier one wrote, as a reader following the page would); ``../shared/data`` is the
reference data. A search gets at most ``LIMIT`` seconds. ``serve`` and ``batch`` (a server, and
runs of hundreds of jobs or a Ray cluster) are parsed, and a batch's spec is read, but not run.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from csp_crossword.cli import main
from csp_crossword.cli.parser import build_parser

from conftest import ROOT, SHARED

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Seconds a search may take (a doc's longer ``--time-limit`` is cut to it).
LIMIT = "3"
#: Commands that take ``--time-limit``.
TIMED = {"fill", "check", "count", "enumerate", "generate", "freeform"}
#: Commands parsed but not run.
PARSED_ONLY = {"serve", "batch"}
#: Folders of the checkout a document's commands read.
LINKED = ("grids", "examples", "benchmarks")
COMMAND = re.compile(r"^(?:\$ )?(csp-crossword|python -m csp_crossword)\b(.*)$")


def _commands(path: Path) -> list[tuple[int, list[str]]]:
    """(line, argv after the program name) of each command line in the document's code blocks."""
    found = []
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = COMMAND.match(line.strip()) if fenced else None
        if match:
            text = re.split(r"\s+#\s", match.group(2))[0]  # a trailing comment
            found.append((number, shlex.split(text)))
    return found


CASES = [(path, commands) for path in DOCUMENTS if (commands := _commands(path))]


def test_the_docs_show_commands():
    assert sum(len(commands) for _, commands in CASES) >= 40


@pytest.mark.parametrize(("path", "commands"), CASES, ids=[path.name for path, _ in CASES])
def test_every_command_of_a_document_runs_as_shown(path, commands, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    parser = build_parser()
    for number, argv in commands:
        argv = [arg.replace("../shared/data", str(SHARED)) for arg in argv]
        where = f"{path.name}:{number}: csp-crossword {shlex.join(argv)}"
        if any(SHARED.as_posix() in arg for arg in argv) and not SHARED.is_dir():
            continue  # the reference data is not here
        try:
            args = parser.parse_args(argv)
        except SystemExit as stop:
            assert stop.code == 0, where  # --help exits 0; a usage error is drift
            continue
        command = getattr(args, "command", None)
        if command in PARSED_ONLY:
            if command == "batch":
                from csp_crossword.batch import read_spec

                read_spec(tmp_path / args.spec)  # the spec exists and is valid
            continue
        if command in TIMED:  # the doc's own limit, up to LIMIT: the suite stays short
            if "--time-limit" in argv:
                at = argv.index("--time-limit") + 1
                argv[at] = str(min(float(argv[at]), float(LIMIT)))
            else:
                argv = [*argv, "--time-limit", LIMIT]
        code = main(argv)
        err = capfd.readouterr().err
        assert code in (0, 1, 3), f"{where}\nexit {code}: {err[-2000:]}"
        assert "Traceback" not in err and "internal error" not in err, where
