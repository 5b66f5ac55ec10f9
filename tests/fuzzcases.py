"""Fuzz cases for every reader: seed inputs, random mutations of them, and one runner that feeds a
case through its reader and the command line and says how it ended.

Shared by ``tests/cli/test_fuzz.py`` (property tests, and the replay of saved regressions) and
``benchmarks/fuzz.py`` (the long campaign). A case is a kind (which reader, see :data:`KINDS`) and
the bytes of one file. Saved regressions are named ``<kind>-<hash><extension>`` so that the replay
knows which reader and commands to run them through.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode, InputError

ROOT = Path(__file__).resolve().parent.parent
#: Where failing cases are saved, one file each, and replayed from.
REGRESSIONS = ROOT / "tests" / "data" / "fuzz-regressions"
#: Real files from other programs, used as seeds when ../shared/data is present.
REALFILES = ROOT.parent / "shared" / "data" / "realfiles"

#: Kind -> file extension. ``grid`` is grid text, ``words-*`` word lists, the rest crossword files.
KINDS = {
    "grid": ".txt",
    "json": ".json",
    "ipuz": ".ipuz",
    "xd": ".xd",
    "puz": ".puz",
    "words-txt": ".txt",
    "words-tsv": ".tsv",
    "words-csv": ".csv",
    "words-json": ".json",
}
PUZZLE_KINDS = ("json", "ipuz", "xd", "puz")
#: Every exit code the command documents (``errors.ExitCode``) but the internal error.
DOCUMENTED = frozenset(int(code) for code in ExitCode) - {int(ExitCode.INTERNAL_ERROR)}

#: The grid and words that word-list cases and grid cases are run against.
SMALL_GRID = "...\n.#.\n...\n"
SMALL_WORDS = "ABC;80\nADE;70\nCFG;60\nEHG;50\nAB\nCAT\nDOG\nTOE\nICEAGE\n"


def seeds() -> dict[str, list[bytes]]:
    """Valid inputs of every kind: written by our own writers, from ``grids/demo`` and, when
    present, the real files in ../shared/data/realfiles."""
    from csp_crossword.core.grid import parse_grid
    from csp_crossword.formats import FILE_FORMATS, Puzzle

    solved = Puzzle(
        parse_grid("..#\n...\n#..\n"),
        solution=(("A", "B", None), ("C", "DE", "F"), (None, "G", "H")),
        clues={"1A": "First", "3A": "Middle", "1D": "Down", "2D": "Rebus"},
        title="Seed",
        author="Fuzz",
        notes="Notes",
    )
    pattern = Puzzle(parse_grid("...#\n.A..\n..É.\n#...\n"), clues={"1A": "Across one"})
    out: dict[str, list[bytes]] = {kind: [] for kind in KINDS}
    for puzzle in (solved, pattern):
        for kind in PUZZLE_KINDS:
            data = FILE_FORMATS[KINDS[kind]].dumps(puzzle)
            out[kind].append(data if isinstance(data, bytes) else data.encode())
    for path in sorted((ROOT / "grids" / "demo").glob("*.txt")):
        out["grid"].append(path.read_bytes())
    out["grid"].append(b"AB\nCD\n\nAB; CD; AC; BD\n")  # a fill-in puzzle
    if REALFILES.is_dir():
        for path in sorted(REALFILES.iterdir()):
            kind = path.suffix.lstrip(".")
            if kind in PUZZLE_KINDS and path.stat().st_size < 200_000:
                out[kind].append(path.read_bytes())
    out["words-txt"] += [SMALL_WORDS.encode(), b"# comment\nice age 60\nrock'n'roll;30\n\xef\xbb\xbfABC\n"]
    out["words-tsv"] += [b"ABC\t80\nADE\t70\nCAT\n"]
    out["words-csv"] += [b'word,score,clue\nABC,80,First\nADE,70,"Quoted, clue"\nCAT,,A pet\n']
    out["words-json"] += [
        json.dumps({"ABC": 80, "ADE": "a clue", "CAT": 1.5}).encode(),
        json.dumps([{"word": "ABC", "score": 80, "clue": "First"}, "ADE", {"answer": "CAT"}]).encode(),
    ]
    return out


#: Text that tends to break parsers: numbers JSON and int() choke on, separators, control
#: characters, multi-code-point glyphs, and long runs.
TOKENS = [
    b"Infinity", b"-Infinity", b"NaN", b"1e999", b"-1", b"0", b"1.5", b"9" * 4400, b"null", b"true",
    b"[]", b"{}", b'"', b"\\", b"\x00", b"\r", b"\t", b"\n", b"\n\n", b"#", b".", b";", b",", b":",
    b"A1. clue ~ AB", b"D999999999999. x", b"Rebus: 1=", b"\xef\xbb\xbf", b"\xc3\xa9", b"\xff\xfe",
    "ক্ষ".encode(), b"\xcc\x81", b" ", b"  ", b"A" * 300, b"." * 300, b"..\n" * 300,
]  # fmt: skip
#: JSON values a field may be replaced with.
JSON_VALUES: list[object] = [
    None, True, False, 0, -1, 2**63, 10**400, float("inf"), float("nan"), -0.0, 1e308, "", "x" * 20_000,
    "#", "1", "1.5", [], {}, [[]], [None], {"cell": {"cell": 1}}, [1, "clue"], {"number": "x"}, 256, 100_000,
]  # fmt: skip


#: Numbers written in place of a number (text formats) or a JSON number; HUGE stands for an
#: integer of 4,400 digits, more than Python's int() converts (json.dumps cannot write it).
HUGE = "__huge__"
NUMBERS: list[object] = [0, -1, 1.5, 2**63, 10**400, float("inf"), float("-inf"), float("nan"), HUGE, 65_026, True]
NUMBER_TEXT = [b"0", b"-1", b"1.5", b"9" * 4400, b"99999999999", b"Infinity", b"NaN", b"1e999", b"65026", b"\xd9\xa3"]
DIGITS = re.compile(rb"\d+")


def _json_paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:50]):
            paths += _json_paths(item, (*prefix, index))
    return paths


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    """Replace, delete or duplicate one value of a JSON document (bytes mutation if it is not one)."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return mutate_bytes(data, rng)
    paths = _json_paths(doc)
    path = rng.choice(paths)
    if not path:
        doc = rng.choice(JSON_VALUES + [[doc], {"cells": doc}])
    else:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]  # type: ignore[index]
        key = path[-1]
        choice = rng.random()
        if choice < 0.2 and isinstance(parent, dict):
            del parent[key]
        elif choice < 0.3 and isinstance(parent, list):
            parent.append(parent[key])  # type: ignore[index]
        else:
            old = parent[key]  # type: ignore[index]
            number = isinstance(old, (int, float)) and rng.random() < 0.7
            parent[key] = rng.choice(NUMBERS if number else JSON_VALUES)  # type: ignore[index]
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    return text.replace(json.dumps(HUGE), "9" * 4400).encode()


def mutate_puz(data: bytes, rng: random.Random) -> bytes:
    """Change one field of a .puz file through puzpy, which writes valid checksums for it."""
    import puz

    try:
        p = puz.Puzzle()
        p.load(data)
    except Exception:
        return mutate_bytes(data, rng)
    field = rng.choice(["width", "height", "solution", "fill", "clues", "title", "notes", "extension", "version"])
    if field in ("width", "height"):
        setattr(p, field, rng.choice([0, 1, 2, 255, getattr(p, field) + rng.choice([-1, 1])]))
    elif field in ("solution", "fill"):
        text = list(getattr(p, field))
        for _ in range(rng.randint(1, 3)):
            if text:
                text[rng.randrange(len(text))] = rng.choice(".-#A\x00é")
        setattr(p, field, "".join(text[: rng.choice([len(text), len(text) - 1, len(text) + 1])]))
    elif field == "clues":
        p.clues = p.clues[: rng.randint(0, len(p.clues))] + ["x" * rng.choice([0, 1, 11_000])] * rng.randint(0, 3)
    elif field in ("title", "notes"):
        setattr(p, field, rng.choice(["", "é", "x" * 70_000, "\x00"]))
    elif field == "extension":
        code = rng.choice([b"GRBS", b"RTBL", b"GEXT", b"LTIM"])
        p.extensions[code] = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        if code not in p._extensions_order:
            p._extensions_order.append(code)
    else:
        p.version = rng.choice(["1.2", "1.3", "2.0", "9.9"])
        p.fileversion = p.version.encode() + b"\0"
    try:
        result: bytes = p.tobytes()
    except Exception:
        return mutate_bytes(data, rng)
    return result


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One random byte-level change: flip, insert a token, delete, duplicate, truncate."""
    buf = bytearray(data)
    at = rng.randrange(len(buf) + 1)
    op = rng.randrange(8)
    numbers = list(DIGITS.finditer(data))
    if op == 7 and numbers:  # a number (clue number, score, size) made absurd
        match = rng.choice(numbers)
        buf[match.start() : match.end()] = rng.choice(NUMBER_TEXT)
    elif op == 0 and buf:
        buf[min(at, len(buf) - 1)] ^= 1 << rng.randrange(8)
    elif op == 1:
        buf[at:at] = rng.choice(TOKENS)
    elif op == 2:
        del buf[at : at + rng.randint(1, 16)]
    elif op == 3:
        end = min(len(buf), at + rng.randint(1, 64))
        buf[at:at] = buf[at:end] * rng.choice([2, 10, 300])
    elif op == 4:
        del buf[at:]
    elif op == 5 and buf:
        buf[min(at, len(buf) - 1)] = rng.randrange(256)
    else:
        lines = bytes(buf).split(b"\n")
        line = rng.randrange(len(lines))
        lines[line:line] = [lines[line]] * rng.choice([2, 300])
        buf = bytearray(b"\n".join(lines))
    return bytes(buf)


def mutate(kind: str, data: bytes, rng: random.Random) -> bytes:
    """1 to 3 mutations of ``data`` fitting its kind (half the .puz cases only through puzpy,
    so that their checksums stay valid)."""
    puz_only = kind == "puz" and rng.random() < 0.5
    for _ in range(rng.randint(1, 3)):
        if kind in ("json", "ipuz", "words-json") and rng.random() < 0.7:
            data = mutate_json(data, rng)
        elif kind == "puz" and (puz_only or rng.random() < 0.5):
            data = mutate_puz(data, rng)
        else:
            data = mutate_bytes(data, rng)
    return data


@dataclass
class Outcome:
    """How a case ended. ``failure`` is None when every step ended as documented; otherwise it
    names the kind of failure (``exit 70``, ``reader KeyError``, ``traceback``, ``no message``,
    ``hang``) and ``detail`` says more."""

    codes: tuple[int, ...]
    failure: str | None = None
    detail: str = ""


def _reader(kind: str) -> Callable[[str], object]:
    if kind.startswith("words-"):
        from csp_crossword.words.wordlists import load_word_list

        return load_word_list
    if kind == "grid":
        from csp_crossword.formats.fillin import read_grid_file

        return read_grid_file
    from csp_crossword.formats import read_crossword

    return read_crossword


def commands(kind: str, path: str, folder: str) -> list[list[str]]:
    """The command lines a case of ``kind`` at ``path`` runs through (``folder`` for outputs)."""
    grid, words = os.path.join(folder, "grid.txt"), os.path.join(folder, "words.txt")
    Path(grid).write_text(SMALL_GRID)
    Path(words).write_text(SMALL_WORDS)
    fill = ["--time-limit", "1", "-q", "--seed", "1"]
    if kind.startswith("words-"):
        return [
            ["fill", grid, "--words", path, *fill],
            ["candidates", grid, "1A", "--words", path],
            ["fill", grid, "--words", words, "--overrides", path, "--ban-file", path, *fill],  # read strictly
        ]
    variant = zlib.crc32(Path(path).read_bytes())  # which output format, and whether right to left
    out = os.path.join(folder, "out" + (".json", ".puz", ".ipuz", ".xd", ".txt")[variant % 5])
    runs = [["slots", path], ["fill", path, "--words", words, *fill], ["convert", path, out, "-q"]]
    if variant // 5 % 2:  # right to left as well, half the time (.puz and .xd have no such grids)
        runs.append(["convert", path, out, "-q", "--rtl"])
    if kind != "grid":
        runs.append(["render", path, "--format", "svg"])
    return runs


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``csp-crossword argv`` in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def run_case(kind: str, path: str, folder: str) -> Outcome:
    """Feed one file through its reader and through the command line; see :class:`Outcome`."""
    try:
        _reader(kind)(path)
    except InputError:
        pass
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        detail = f"{error!s:.200} (at {os.path.basename(where.filename)}:{where.lineno})"
        return Outcome((), f"reader {type(error).__name__}", detail)
    codes = []
    for argv in commands(kind, path, folder):
        code, _, err = run_cli(argv)
        codes.append(code)
        command = " ".join(argv[:1])
        if code == ExitCode.INTERNAL_ERROR:
            return Outcome(tuple(codes), "exit 70", f"{command}: {err.strip():.300}")
        if code not in DOCUMENTED:
            return Outcome(tuple(codes), f"exit {code}", f"{command}: {err.strip():.300}")
        if "Traceback" in err:
            return Outcome(tuple(codes), "traceback", f"{command}: {err.strip():.300}")
        if code != ExitCode.OK and not err.strip():
            return Outcome(tuple(codes), "no message", f"{command} exited {code} without a message")
    return Outcome(tuple(codes))


def regression_name(kind: str, data: bytes) -> str:
    """The file name a failing case is saved under."""
    import hashlib

    return f"{kind}-{hashlib.sha256(data).hexdigest()[:12]}{KINDS[kind]}"


def regression_kind(name: str) -> str:
    """The kind of a saved regression file, from its name."""
    return next(kind for kind in sorted(KINDS, key=len, reverse=True) if name.startswith(kind + "-"))
