"""The argument groups that several ``csp-crossword`` commands share (grid, word list, solver,
clues, ...), the exit codes, and the checks of option values argparse cannot do alone."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..backends import DEFAULT as DEFAULT_BACKEND
from ..backends import names as backend_names
from ..words.builtin import LANGUAGES, SPELLING_CHOICES

#: Parts of the text output of ``freeform``, in order.
FREEFORM_PARTS = ("solution", "blank", "clues", "wordsearch", "report", "failed")
#: The parts shown without ``--show``: all but the list of words not placed (tens of thousands
#: of words when a large list is laid out; the report counts them).
FREEFORM_DEFAULT_PARTS = FREEFORM_PARTS[:-1]


EXIT_CODES_HELP = """exit codes:
  0    success (filled or solvable, or the requested listing or count)
  1    proved unsatisfiable: no fill exists
  2    bad input or usage (the message names the file, line and column)
  3    time limit reached without a full result (the best partial fill is printed)
  70   internal error (a bug; CSP_CROSSWORD_DEBUG=1 shows the traceback)
  73   the result could not be written to --output (a text result goes to stdout)
  129  stopped by SIGHUP, 130 by Ctrl-C, 143 by SIGTERM; the best partial fill is printed
"""


def seed_value(text: str) -> int:
    """``--seed``: a whole number from 0 to MAX_SEED (argparse reports anything else as usage)."""
    from ..backends.base import MAX_SEED

    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_SEED}: {text}")
    return seed


def worker_count(text: str) -> int:
    """``--workers`` and ``--jobs``: a whole number of at most MAX_WORKERS (argparse reports
    anything else as usage; the lower bound is each command's own check). A huge count would
    reach a solver's 32-bit parameter or start that many processes."""
    from ..core.limits import MAX_WORKERS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r:.40}") from None
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_WORKERS:,} workers, not {value:,}")
    return value


def add_grid_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "grid",
        metavar="GRID",
        help="grid file (# block, . open cell, else a glyph; a last line of ;-separated words "
        "makes it a fill-in puzzle), or a .puz, .ipuz, .xd or .json crossword (its pattern and given letters)",
    )
    parser.add_argument("--rtl", action="store_true", help="right-to-left grid (implied by --lang ar)")
    parser.add_argument("--block", metavar="SYMBOL", help="block symbol of the grid (default # or +)")


def add_lexicon_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--words",
        action="append",
        metavar="FILE",
        help="word list (plain, word;score, CSV, JSON); repeat to combine, later files override",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=LANGUAGES[0],
        help="built-in word list used without --words: en (default; scored for fill quality), "
        "en-web (web frequencies), ar, bn",
    )
    parser.add_argument("--min-score", type=int, metavar="N", help="ignore words scored below N")
    add_overrides_arg(parser)
    add_offensive_arg(parser)
    add_spelling_arg(parser)
    parser.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD")
    parser.add_argument(
        "--ban-file",
        action="append",
        default=[],
        metavar="FILE",
        help="never use the words of FILE (one per line, # starts a comment); repeatable",
    )
    parser.add_argument("--allow-duplicates", action="store_true", help="allow the same entry in two slots")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="fill-in puzzle: use every word of --words exactly as often as it is listed",
    )
    parser.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="SLOT=WORD",
        help="put WORD in SLOT (e.g. 1A=CROSSWORD); repeatable",
    )
    parser.add_argument(
        "--theme",
        action="append",
        default=[],
        metavar="ROW,COL,A|D=WORD",
        help="place WORD across (A) or down (D) from the cell at ROW, COL (counted from 1), whatever the "
        "slot numbers; a word the list lacks is kept as given; repeatable",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or statistics")


def overrides_file(text: str) -> str:
    """``--overrides``: a file; or a bare name (no folder, no ending) that is no file here: the
    set of that name the web constructor keeps (``NAME.txt`` in its overrides folder)."""
    if os.path.exists(text) or os.path.basename(text) != text or os.path.splitext(text)[1]:
        return text
    from ..web.overrides import SET_NAME, named_set_path, overrides_folder

    if not SET_NAME.fullmatch(text):
        return text
    path = named_set_path(text)
    if not os.path.isfile(path):
        folder = overrides_folder()
        raise argparse.ArgumentTypeError(f"no file {text!r} here, nor an overrides set {text!r} in {folder}")
    return path


def add_overrides_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overrides",
        action="append",
        default=[],
        type=overrides_file,
        metavar="FILE",
        help="re-score words of the list with FILE (word;score lines, CSV, JSON), adding missing ones; "
        "score 0 or less bans a word; a bare NAME that is no file here is the web constructor's set NAME "
        "(docs/web.md); repeatable, later files win",
    )


def add_substring_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-shared-substring",
        type=int,
        metavar="N",
        help="no two entries may share a run of N or more letters (N >= 2; e.g. 4 keeps STARTLE and RESTART apart)",
    )


def add_offensive_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-offensive",
        action="store_true",
        help="let the built-in list offer vulgar words (left out by default; slurs never)",
    )


def add_spelling_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--spelling",
        choices=SPELLING_CHOICES,
        default="auto",
        help="keep the fill to US or UK spellings (us leaves out COLOUR and GREYED, uk leaves out COLOR); "
        "auto (default): us for an American-style English grid, any otherwise",
    )


def add_shared_roots_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-shared-roots",
        action="store_true",
        help="let two entries share a root (GREY and GREYED, EAT and ATE, ICE AGE and AGE); "
        "by default a fill avoids it",
    )


def add_solver_args(parser: argparse.ArgumentParser, default_backend: str = DEFAULT_BACKEND) -> None:
    parser.add_argument(
        "--backend", default=default_backend, choices=backend_names(), help="solver (default %(default)s)"
    )
    parser.add_argument(
        "--backend-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a backend option, e.g. restart_base=64 (repeatable, or comma-separated); "
        "'csp-crossword backends' lists each backend's options",
    )
    parser.add_argument("--seed", type=seed_value, default=0, help="random seed: the same seed gives the same result")
    parser.add_argument("--time-limit", type=float, metavar="SEC", help="stop after SEC seconds")
    parser.add_argument(
        "--workers", type=worker_count, metavar="N", help="cpsat: parallel workers (default: all cores)"
    )
    parser.add_argument(
        "--formulation", choices=("letters", "pairs"), help="cpsat: model formulation (default letters)"
    )


#: ``--clues`` choices: csp_crossword.clues.chain.KINDS (repeated here so that building the
#: parser imports no clue source; a test keeps the two equal).
CLUE_KINDS = ("db", "builtin", "wordnet", "none")


def existing_file(text: str) -> str:
    """``--clue-db``: a file that exists (checked before any work, not after a long fill)."""
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"no such file: {text!r} (make one with 'csp-crossword clues import')")
    return text


def add_clue_arg(parser: argparse.ArgumentParser, default: str = "db") -> None:
    """``--clues`` and ``--clue-db``: where the empty clues of a puzzle written come from."""
    parser.add_argument(
        "--clues",
        choices=CLUE_KINDS,
        default=default,
        help="clues for the entries the word list gives none: db (your clue database, then the "
        "built-in clues), builtin (the built-in clues only), wordnet (WordNet glosses; needs Debian's "
        f"wordnet-base) or none (default {default})",
    )
    parser.add_argument(
        "--clue-db",
        type=existing_file,
        metavar="FILE",
        help="the clue database of --clues db (default: $CSP_CROSSWORD_CLUE_DB, else "
        "$XDG_DATA_HOME/csp-crossword/clues.sqlite, used when it exists)",
    )


def add_ray_arg(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help=f"{what}: auto (the cluster started with 'ray start --head'), HOST:PORT, or local "
        "(a private one); needs pip install 'csp-crossword[distributed]'",
    )


def add_command(sub: Any, name: str, help_text: str, handler: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler)  # "module:function" in this package, imported when run
    assert isinstance(parser, argparse.ArgumentParser)
    return parser
