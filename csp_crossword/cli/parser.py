"""The ``csp-crossword`` argument parser: every command, option and exit code.

Handlers are named as "module:function" of this package and imported only when their command
runs, so ``--help`` and a fill do not pay for the imports of other commands.
"""

from __future__ import annotations

import argparse

from .. import __version__
from ..layout.defaults import FREEFORM_SECONDS
from ..printing import FORMATS as RENDER_FORMATS
from ..search.lookahead import CHECK_SECONDS as LOOKAHEAD_SECONDS
from ..words.builtin import LANGUAGES
from .arguments import (
    EXIT_CODES_HELP,
    FREEFORM_DEFAULT_PARTS,
    FREEFORM_PARTS,
    add_clue_arg,
    add_command,
    add_grid_args,
    add_lexicon_args,
    add_offensive_arg,
    add_overrides_arg,
    add_ray_arg,
    add_shared_roots_arg,
    add_solver_args,
    add_spelling_arg,
    add_substring_arg,
    existing_file,
    seed_value,
    worker_count,
)
from .puzzle_details import add_puzzle_details_args


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="csp-crossword",
        description="Fill, check, count and enumerate crossword grids by constraint solving.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"csp-crossword {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    fill = add_command(sub, "fill", "fill a grid from a word list", "fill:cmd_fill")
    add_grid_args(fill)
    add_lexicon_args(fill)
    add_substring_arg(fill)
    add_shared_roots_arg(fill)
    add_solver_args(fill)
    add_clue_arg(fill)
    fill.add_argument(
        "--optimize",
        action="store_true",
        help="the best fill by score (cpsat): the highest weakest entry, then the highest total among "
        "the fills that keep it",
    )
    fill.add_argument(
        "--optimize-total",
        action="store_true",
        help="--optimize for the highest total alone, whatever its weakest entry",
    )
    fill.add_argument(
        "--strategy",
        choices=("quality", "plain"),
        default="quality",
        help="quality (default): score floors 50, 40, 30, 20 first, lowered only where the grid needs "
        "it; plain: the backend alone, best-scored words first",
    )
    fill.add_argument(
        "--portfolio",
        type=int,
        metavar="N",
        help="race N differently seeded and set searches (ac and CP-SAT) in separate processes; "
        "the first fill or proof wins, whatever its score (for grids that are hard to fill)",
    )
    add_ray_arg(fill, "--portfolio: run the members on a Ray cluster")
    fill.add_argument(
        "--format", choices=("text", "json"), help="output format (default text, json for a .json --output)"
    )
    fill.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the result to FILE (atomically); .puz, .ipuz and .xd write a puzzle file "
        "with clues from the word list, then --clues",
    )
    add_puzzle_details_args(fill)

    check = add_command(sub, "check", "tell whether a grid can be filled, and if not, why", "analyse:cmd_check")
    add_grid_args(check)
    add_lexicon_args(check)
    add_substring_arg(check)
    add_solver_args(check)
    check.add_argument("--min-length", type=int, default=3, metavar="N", help="flag entries shorter than N (default 3)")
    check.add_argument("--format", choices=("text", "json"), default="text")

    count = add_command(sub, "count", "count every fill of a small puzzle", "count:cmd_count")
    add_grid_args(count)
    add_lexicon_args(count)
    add_substring_arg(count)
    add_solver_args(count)
    count.add_argument("--limit", type=int, metavar="N", help="stop at N fills (the count is then a lower bound)")
    count.add_argument("--format", choices=("text", "json"), default="text")

    enum = add_command(sub, "enumerate", "stream every fill of a small puzzle", "count:cmd_enumerate")
    add_grid_args(enum)
    add_lexicon_args(enum)
    add_substring_arg(enum)
    add_solver_args(enum)
    enum.add_argument("--limit", type=int, metavar="N", help="stop after N fills")
    enum.add_argument("--format", choices=("text", "json"), default="text", help="text grids or JSON lines")

    slots = add_command(sub, "slots", "list the numbered slots and the grid statistics", "analyse:cmd_slots")
    add_grid_args(slots)
    slots.add_argument("--format", choices=("text", "json"), default="text")

    cand = add_command(
        sub,
        "candidates",
        "ranked words for one slot, marked when placing one leads to a dead end",
        "analyse:cmd_candidates",
    )
    add_grid_args(cand)
    cand.add_argument("slot", metavar="SLOT", help="slot id such as 1A or 12D")
    add_lexicon_args(cand)
    add_substring_arg(cand)
    cand.add_argument("--limit", type=int, default=20, metavar="N", help="show N words (default 20; 0 for all)")
    cand.add_argument(
        "--viable-only",
        action="store_true",
        help="skip dead ends: check on down the list until N viable words are found "
        "(words left unchecked when the check time runs out are listed as ?)",
    )
    cand.add_argument(
        "--no-lookahead",
        dest="lookahead",
        action="store_false",
        help="do not place the words to check them (every word is marked ?)",
    )
    cand.add_argument(
        "--check-time",
        type=float,
        metavar="SEC",
        help=f"seconds for placing words and propagating (default {LOOKAHEAD_SECONDS:g})",
    )
    cand.add_argument("--format", choices=("text", "json"), default="text")

    export = add_command(sub, "export", "write the instance for another solver (MiniZinc .dzn)", "files:cmd_export")
    add_grid_args(export)
    add_lexicon_args(export)
    export.add_argument("--format", choices=("dzn",), default="dzn")
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE (atomically)")

    gen = add_command(sub, "generate", "choose the blocks and fill a grid of a given size", "layout:cmd_generate")
    gen.add_argument("--size", required=True, metavar="ROWSxCOLS", help="grid size, e.g. 10x10")
    gen.add_argument("--words", action="append", metavar="FILE", help="word list(s); default the built-in list")
    gen.add_argument(
        "--lang", choices=LANGUAGES, default=LANGUAGES[0], help="built-in list language; ar reads right to left"
    )
    gen.add_argument(
        "--lexicon",
        choices=("words", "products"),
        default="words",
        help="products: a numeric crossword of multiplications",
    )
    gen.add_argument("--min-score", type=int, metavar="N", help="ignore words scored below N")
    add_overrides_arg(gen)
    add_offensive_arg(gen)
    add_spelling_arg(gen)
    add_shared_roots_arg(gen)
    gen.add_argument(
        "--style",
        choices=("american", "open"),
        help="american: symmetric, every cell checked, entries of 3+ letters (default); "
        "open: any blocks, 2-letter entries, unchecked cells (default for --lexicon products)",
    )
    gen.add_argument(
        "--blocks",
        type=int,
        metavar="N",
        help="american: blocks to aim at, in symmetric pairs (default 16%% of the cells; breaking over-long "
        "runs and repairs may add a few)",
    )
    gen.add_argument(
        "--max-words", type=int, metavar="N", help="american: most entries (default 78 on a 15x15, in proportion)"
    )
    gen.add_argument(
        "--symmetry",
        choices=("rotational", "mirror"),
        help="american: 180-degree (default) or left-right mirror symmetry",
    )
    gen.add_argument(
        "--entry",
        action="append",
        default=[],
        metavar="WORD",
        help="american: a theme entry placed across first (repeat the option for more)",
    )
    gen.add_argument("--max-run", type=int, metavar="N", help="longest entry (default 15 american, 6 open)")
    gen.add_argument("--symmetric", action="store_true", help="open: 180-degree symmetric blocks (CSP path)")
    gen.add_argument(
        "--method",
        choices=("auto", "csp", "progressive"),
        help="open: auto (CSP path first, then progressive search; the default), csp or progressive",
    )
    gen.add_argument("--allow-duplicates", action="store_true", help="allow the same entry twice")
    add_substring_arg(gen)
    gen.add_argument("--time-limit", type=float, default=10.0, metavar="SEC", help="total time (default 10)")
    gen.add_argument("--seed", type=seed_value, default=0)
    gen.add_argument(
        "--format", choices=("text", "json"), help="output format (default text, json for a .json --output)"
    )
    gen.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the result to FILE (atomically); .puz, .ipuz and .xd write a puzzle file with clues",
    )
    add_clue_arg(gen)
    add_puzzle_details_args(gen)
    gen.add_argument("-q", "--quiet", action="store_true", help="no statistics")

    free = add_command(sub, "freeform", "lay out a word-and-clue list as a freeform crossword", "layout:cmd_freeform")
    free.add_argument(
        "words", metavar="WORDS", help="JSON word -> clue object, CSV word,clue (header optional), or plain words"
    )
    free.add_argument("--size", metavar="ROWSxCOLS", help="board size (default: the board grows as needed)")
    free.add_argument("--pick", type=int, metavar="N", help="lay out a random subset of N words (chosen by --seed)")
    free.add_argument(
        "--target", type=int, metavar="N", help="stop at the first board of N words (default: as many as fit)"
    )
    free.add_argument("--symmetric", action="store_true", help="180-degree symmetric board (words placed in pairs)")
    free.add_argument("--allow-islands", action="store_true", help="allow words that cross nothing (separate pieces)")
    free.add_argument(
        "--rtl", action="store_true", help="right to left (default: when every word is in a right-to-left script)"
    )
    free.add_argument(
        "--time-limit", type=float, metavar="SEC", help=f"seconds of search (default {FREEFORM_SECONDS:g})"
    )
    free.add_argument("--seed", type=seed_value, default=0, help="random seed: the same seed gives the same board")
    free.add_argument(
        "--show",
        default=",".join(FREEFORM_DEFAULT_PARTS),
        metavar="PARTS",
        help=f"text parts, comma-separated, from {','.join(FREEFORM_PARTS)} "
        f"(default {','.join(FREEFORM_DEFAULT_PARTS)}; failed lists the words not placed)",
    )
    add_clue_arg(free)
    free.add_argument(
        "--format", choices=("text", "json"), help="output format (default text, json for a .json --output)"
    )
    free.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the result to FILE (atomically; .ipuz/.puz/.xd write a puzzle file)",
    )
    free.add_argument("-q", "--quiet", action="store_true", help="no statistics")

    conv = add_command(
        sub, "convert", "convert a crossword file: .puz, .ipuz, .xd, .json, .txt (by extension)", "files:cmd_convert"
    )
    conv.add_argument("input", metavar="IN", help="crossword file (.puz, .ipuz, .xd, .json result, .txt grid)")
    conv.add_argument("output", metavar="OUT", help="file to write (format by extension), atomically")
    conv.add_argument("--rtl", action="store_true", help="the input grid reads right to left")
    add_clue_arg(conv, default="none")
    conv.add_argument(
        "--json",
        action="store_true",
        help="print a JSON summary: what was read, the reader's warnings and what OUT's format left out",
    )
    conv.add_argument("-q", "--quiet", action="store_true", help="no summary")

    rend = add_command(
        sub,
        "render",
        "print a puzzle: numbered grid and clue lists as SVG, HTML, PDF or PNG; or a page that plays it (play)",
        "files:cmd_render",
    )
    rend.add_argument("input", metavar="FILE", help="crossword file (.puz, .ipuz, .xd, .json result, .txt grid)")
    rend.add_argument(
        "--format", choices=RENDER_FORMATS, help="output format (default by --output extension, else svg)"
    )
    rend.add_argument("--solution", action="store_true", help="the answer key: the grid with its letters")
    rend.add_argument("--key", action="store_true", help="add a last page with the answer key's filled grid")
    rend.add_argument(
        "--page",
        choices=("letter", "a4"),
        type=str.lower,
        help="paper size (default by the locale: $PAPERSIZE, else LC_PAPER/LANG's country; letter when unknown)",
    )
    add_puzzle_details_args(rend, unclued=False)
    add_clue_arg(rend, default="none")
    rend.add_argument("--rtl", action="store_true", help="the input grid reads right to left")
    rend.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write to FILE (atomically); needed for pdf and png (png: FILE-1.png, FILE-2.png, ... for several pages)",
    )

    batch = add_command(
        sub,
        "batch",
        "run many fills, generated and freeform puzzles from a spec file on many workers (docs/batch.md)",
        "batch:cmd_batch",
    )
    batch.add_argument("spec", metavar="SPEC", help="the batch spec: a TOML or JSON file of jobs")
    batch.add_argument(
        "--out", required=True, metavar="DIR", help="folder for the result files and manifest.jsonl (resumed if there)"
    )
    batch.add_argument(
        "--jobs", type=worker_count, metavar="N", help="jobs at once (default: every core, or the Ray cluster's)"
    )
    add_ray_arg(batch, "run the jobs on a Ray cluster")
    batch.add_argument(
        "--retry-failed", action="store_true", help="also do again the jobs recorded as failed or timed out"
    )
    add_clue_arg(batch)
    batch.set_defaults(clues=None)  # unset: the spec's own clues (default db) stand
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")

    clues = add_command(
        sub,
        "clues",
        "your clue database: 'clues ENTRY' lists the entry's clues, most used first; "
        "'clues import PATH...' stores the clues of crossword files",
        "clues:cmd_clues",
    )
    clues.usage = (
        "csp-crossword clues ENTRY [--db FILE] [--limit N] [--format text|json]\n"
        "       csp-crossword clues import PATH... [--db FILE] [--format text|json] [-q]"
    )
    clues.add_argument(
        "words",
        nargs="+",
        metavar="ENTRY | import PATH",
        help="an entry (any case; spaces are dropped), or 'import' and the files whose clues to store: "
        ".puz, .ipuz, .xd or .json puzzles, clue lists (answer and clue per line: TSV, CSV, 'answer: clue', "
        "word;score;clue) and folders (searched recursively)",
    )
    clues.add_argument(
        "--db",
        metavar="FILE",
        help="the clue database (default: $CSP_CROSSWORD_CLUE_DB, else "
        "$XDG_DATA_HOME/csp-crossword/clues.sqlite, ~/.local/share/... without it)",
    )
    clues.add_argument("--limit", type=int, metavar="N", help="show N clues (default 10)")
    clues.add_argument("--format", choices=("text", "json"), default="text")
    clues.add_argument("-q", "--quiet", action="store_true", help="import: no progress line")

    backends = add_command(
        sub, "backends", "list the solvers with availability, version and abilities", "backends:cmd_backends"
    )
    backends.add_argument("--format", choices=("text", "json"), default="text")

    serve = add_command(sub, "serve", "start the web constructor (a local web app; docs/web.md)", "serve:cmd_serve")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: only this machine)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides localhost, 127.0.0.1, ::1 and --host (repeatable)",
    )
    serve.add_argument(
        "--words",
        action="append",
        metavar="FILE",
        help="a word list the page offers (repeatable)",
    )
    serve.add_argument(
        "--patterns",
        action="append",
        metavar="DIR",
        help="a folder of grid files the page offers as patterns (repeatable; default: the grids/ folder of a "
        "source checkout)",
    )
    serve.add_argument(
        "--overrides-dir",
        metavar="DIR",
        help="the folder of the page's named overrides sets, NAME.txt files (default: "
        "$XDG_DATA_HOME/csp-crossword/overrides, ~/.local/share/... without it)",
    )
    serve.add_argument(
        "--clue-db",
        type=existing_file,
        metavar="FILE",
        help="the clue database the page's clue suggestions read (default: $CSP_CROSSWORD_CLUE_DB, else "
        "$XDG_DATA_HOME/csp-crossword/clues.sqlite, used when it exists)",
    )
    serve.add_argument(
        "--workers", type=worker_count, metavar="N", help="solver processes (default: the number of CPUs)"
    )
    serve.add_argument("--open", action="store_true", help="open the page in the default web browser")
    serve.add_argument("--quiet", "-q", action="store_true", help="no messages on stderr")
    return parser
