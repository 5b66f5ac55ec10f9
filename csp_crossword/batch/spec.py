"""A batch spec (TOML or JSON) read into the list of jobs it asks for.

A spec has an optional ``[defaults]`` table and any number of ``[[fill]]``, ``[[generate]]`` and
``[[freeform]]`` blocks (docs/batch.md has examples). Each block expands into jobs: one per grid
and seed (fill), one per puzzle (generate, freeform). Every job gets

- an id, ``<block name>/<item>`` (``american/am15-01-s3``), which is also its file's name under
  the output folder, so a re-run finds what is done;
- a key, a digest of everything that decides its result (the grid's cells, the options), so a
  job whose spec changed is done again instead of skipped.

Paths in a spec are relative to the spec's own folder. Every mistake is an :class:`InputError`
naming the spec file and the field (``fill[2].seeds``), or the line and column of a syntax error.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..api.word_sources import WordSource
from ..backends.base import MAX_SEED
from ..clues.chain import KINDS as CLUE_KINDS
from ..core.errors import InputError
from ..core.files import parse_json, read_input_bytes, read_text_file
from ..core.limits import layout_size
from ..words.builtin import SPELLING_CHOICES
from .manifest import LOCK, MANIFEST

#: The job kinds, in the order a spec lists them in docs/batch.md.
KINDS = ("fill", "generate", "freeform")
#: The file formats a batch writes (their extensions name them).
FORMATS = ("ipuz", "puz", "json")
#: Seconds per job when neither the block nor ``[defaults]`` says.
DEFAULT_TIME_LIMIT = 60.0
#: Every job kind's fields and their types; ``COMMON`` fields go in any block and in [defaults].
COMMON: dict[str, tuple[type, ...]] = {
    "time_limit": (int, float),
    "format": (str,),
    "words": (str, list),
    "lang": (str,),
    "allow_offensive": (bool,),
    "overrides": (str, list),
    "min_score": (int,),
    "allow_duplicates": (bool,),
    "no_shared_substring": (int,),
    "spelling": (str,),
    "allow_shared_roots": (bool,),
    "clues": (str,),
    "clue_db": (str,),
}
FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "fill": {
        "grids": (str, list),
        "seeds": (int, list),
        "backend": (str,),
        "strategy": (str,),
        "optimize": (bool,),
        "ban": (list,),
        "backend_options": (dict,),
    },
    "generate": {
        "count": (int,),
        "size": (str, int),
        "first_seed": (int,),
        "style": (str,),
        "blocks": (int,),
        "max_words": (int,),
        "symmetry": (str,),
        "entries": (list,),
        "max_run": (int,),
        "symmetric": (bool,),
        "method": (str,),
        "numeric": (bool,),
        "allow_unclued": (bool,),
    },
    "freeform": {
        "count": (int,),
        "size": (str, int),
        "first_seed": (int,),
        "pick": (int,),
        "target": (int,),
        "symmetric": (bool,),
        "allow_islands": (bool,),
    },
}
#: Most jobs one spec may ask for (a typo such as count = 1000000000 is refused, not expanded).
MAX_JOBS = 100_000
#: Allowed values of the settings that take a name.
CHOICES: dict[str, tuple[str, ...]] = {
    "strategy": ("quality", "plain"),
    "style": ("american", "open"),
    "symmetry": ("rotational", "mirror"),
    "method": ("auto", "csp", "progressive"),
    "clues": CLUE_KINDS,
}
#: Settings that must be whole numbers of at least this value.
AT_LEAST: dict[str, int] = {
    "min_score": 0,
    "no_shared_substring": 2,
    "blocks": 0,
    "max_words": 1,
    "max_run": 2,
    "pick": 1,
    "target": 1,
}
#: Block fields that are not settings of the job itself.
BLOCK_ONLY = {"name", "grids", "seeds", "count", "first_seed", "format", "time_limit"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
#: Names a block may not take: the files the batch keeps in its output folder (compared without
#: case, for case-insensitive file systems).
RESERVED_NAMES = {MANIFEST.lower(), LOCK.lower()}


@dataclass(frozen=True)
class BatchJob:
    """One job of a batch: what a worker runs and where its result goes.

    Attributes:
        id: ``<block name>/<item>``; the result file is ``<out>/<id>.<format>``.
        kind: ``fill``, ``generate`` or ``freeform``.
        key: Digest of the inputs and settings: a recorded result counts only for the same key.
        settings: The job's keyword settings for the library call (seed included).
        words: The word list.
        time_limit: Seconds for the whole job.
        format: ``ipuz``, ``puz`` or ``json``.
        grid_path: For ``fill``: the grid file (the worker reads it).
        grid_text: For ``fill``: that file's contents when the spec was read (part of the key).
    """

    id: str
    kind: str
    key: str
    settings: dict[str, Any]
    words: WordSource
    time_limit: float
    format: str
    grid_path: str | None = None
    grid_text: str | None = None

    @property
    def file(self) -> str:
        """The result file's path relative to the output folder."""
        return f"{self.id}.{self.format}"


@dataclass
class BatchSpec:
    """A spec file read: its jobs in order."""

    path: str
    jobs: list[BatchJob] = field(default_factory=list)


def read_spec(path: str | os.PathLike[str], defaults: Mapping[str, Any] | None = None) -> BatchSpec:
    """Read a TOML (``.toml``) or JSON spec file and expand it into jobs; ``defaults`` replace
    those of its ``[defaults]`` (the command line's ``--clues``), a block's own still win."""
    name = os.fspath(path)
    text = read_text_file(name)
    if name.lower().endswith(".json"):
        data = parse_json(text, name, "a batch spec")
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            line, column = _toml_position(str(error))
            raise InputError(f"not valid TOML: {_toml_message(str(error))}", name, line, column) from None
    return expand_spec(data, name, defaults)


def expand_spec(data: Any, path: str, given: Mapping[str, Any] | None = None) -> BatchSpec:
    """The jobs of a spec already parsed (``path`` names it in errors and anchors relative paths)."""
    if not isinstance(data, dict):
        raise InputError("a batch spec is a table of [defaults] and [[fill]], [[generate]], [[freeform]] blocks", path)
    unknown = sorted(set(data) - {"defaults", *KINDS})
    if unknown:
        raise InputError(f"unknown section {unknown[0]!r}: use defaults, {', '.join(KINDS)}", path)
    base = os.path.dirname(os.path.abspath(path))
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise InputError("defaults: must be a table", path)
    defaults = {**defaults, **(given or {})}
    _check_fields(defaults, COMMON, "defaults", path)
    spec = BatchSpec(path)
    names: set[str] = set()
    for kind in KINDS:
        blocks = data.get(kind, [])
        if isinstance(blocks, dict):
            blocks = [blocks]
        if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
            raise InputError(f"{kind}: must be a list of tables ([[{kind}]] in TOML)", path)
        for number, block in enumerate(blocks, 1):
            where = f"{kind}[{number}]"
            _check_fields(block, {**COMMON, **FIELDS[kind], "name": (str,)}, where, path)
            name = block.get("name", f"{kind}{number}")
            if not _NAME.match(name):
                raise InputError(f"{where}.name: {name!r} may hold letters, digits, '.', '_' and '-' only", path)
            if name.lower() in names:
                raise InputError(f"{where}.name: {name!r} is the name of an earlier block too", path)
            if name.lower() in RESERVED_NAMES:
                raise InputError(f"{where}.name: {name!r} is the name of the batch's own file", path)
            names.add(name.lower())
            merged = {**defaults, **block}
            spec.jobs.extend(_expand_block(kind, name, merged, where, path, base))
            if len(spec.jobs) > MAX_JOBS:
                raise InputError(f"{where}: the spec comes to {len(spec.jobs):,} jobs; at most {MAX_JOBS:,}", path)
    ids = [job.id for job in spec.jobs]
    if len(set(ids)) != len(ids):  # cannot happen with the labels above: one result would replace another
        repeated = next(i for i in ids if ids.count(i) > 1)
        raise InputError(f"two jobs would write the same result {repeated!r}", path)
    if not spec.jobs:
        raise InputError("the spec lists no jobs: add a [[fill]], [[generate]] or [[freeform]] block", path)
    return spec


def _expand_block(kind: str, name: str, block: dict[str, Any], where: str, path: str, base: str) -> list[BatchJob]:
    fmt = block.get("format", "ipuz")
    if fmt not in FORMATS:
        raise InputError(f"{where}.format: {fmt!r}; choose from {', '.join(FORMATS)}", path)
    time_limit = float(block.get("time_limit", DEFAULT_TIME_LIMIT))
    if not time_limit > 0:
        raise InputError(f"{where}.time_limit: must be more than 0 seconds", path)
    words = WordSource(
        files=tuple(_paths(block.get("words", []), f"{where}.words", path, base)),
        lang=block.get("lang", "en"),
        allow_offensive=block.get("allow_offensive", False),
        overrides=tuple(_paths(block.get("overrides", []), f"{where}.overrides", path, base)),
        spelling=block.get("spelling", "auto"),
    )
    if words.spelling not in SPELLING_CHOICES:
        raise InputError(f"{where}.spelling: {words.spelling!r}; choose from {', '.join(SPELLING_CHOICES)}", path)
    settings = {k: v for k, v in block.items() if k not in BLOCK_ONLY and k not in ("words", "overrides")}
    settings.pop("allow_offensive", None)  # part of the word source
    settings.pop("spelling", None)
    if kind == "freeform" and not words.files:
        raise InputError(f"{where}.words: a freeform block needs its word list file", path)
    if "clue_db" in settings:  # the database's path, not its contents: an import redoes no job
        settings["clue_db"] = _paths(settings["clue_db"], f"{where}.clue_db", path, base)[0]
    if "size" in settings:
        settings["size"] = _size(settings["size"], f"{where}.size", path)
    elif kind == "generate":
        raise InputError(f'{where}.size: give the grid size, e.g. size = "15x15"', path)

    _check_settings(settings, words, fmt, where, path)
    if kind == "generate" and settings.get("style", "american") == "american":
        _check_pattern_rules(settings, where, path)
    contents = [_binary_digest(f) for f in (*words.files, *words.overrides)]  # an edited list redoes its jobs

    def job(item: str, extra: dict[str, Any], grid_path: str | None = None, grid_text: str | None = None) -> BatchJob:
        values = {**settings, **extra}
        digest = json.dumps(
            [kind, values, words.key, contents, fmt, time_limit, grid_text], sort_keys=True, default=str
        )
        key = hashlib.sha256(digest.encode("utf-8")).hexdigest()[:16]
        return BatchJob(f"{name}/{item}", kind, key, values, words, time_limit, fmt, grid_path, grid_text)

    if kind == "fill":
        grids = _grid_files(block.get("grids"), f"{where}.grids", path, base)
        seeds = _seeds(block.get("seeds", [0]), f"{where}.seeds", path)
        stems = [os.path.splitext(os.path.basename(g))[0] for g in grids]
        if len(grids) * len(seeds) > MAX_JOBS:
            raise InputError(f"{where}: {len(grids) * len(seeds):,} jobs; at most {MAX_JOBS:,} in a spec", path)
        common = os.path.commonpath([os.path.dirname(g) for g in grids])
        # same-named grids of different folders: the folders that tell them apart, in the id;
        # grids that differ only in their extension: the extension too
        labels = [
            stem if stems.count(stem) == 1 else _flat(os.path.splitext(os.path.relpath(grid, common))[0])
            for grid, stem in zip(grids, stems)
        ]
        labels = [
            label if labels.count(label) == 1 else _flat(os.path.relpath(grid, common))
            for grid, label in zip(grids, labels)
        ]
        jobs: list[BatchJob] = []
        for grid, label in zip(grids, labels):
            text = read_text_file(grid) if not grid.lower().endswith(".puz") else _binary_digest(grid)
            jobs.extend(job(f"{label}-s{seed}", {"seed": seed}, grid, text) for seed in seeds)
        return jobs
    count = block.get("count", 1 if kind == "freeform" else None)
    if count is None:
        raise InputError(f"{where}.count: missing: how many puzzles to make", path)
    if count < 1 or count > MAX_JOBS:
        raise InputError(f"{where}.count: {count}; a whole number from 1 to {MAX_JOBS:,}", path)
    first = block.get("first_seed", 0)
    if not 0 <= first <= MAX_SEED - count + 1:
        raise InputError(f"{where}.first_seed: {first}; seeds run from 0 to {MAX_SEED}", path)
    if kind == "generate":
        rows, cols = settings["size"]
        return [job(f"{rows}x{cols}-s{seed}", {"seed": seed}) for seed in range(first, first + count)]
    stem = _flat(os.path.splitext(os.path.basename(words.files[-1]))[0])
    return [job(f"{stem}-s{seed}", {"seed": seed}) for seed in range(first, first + count)]


def _check_settings(settings: dict[str, Any], words: WordSource, fmt: str, where: str, path: str) -> None:
    """Refuse, before any job runs, a setting every job of the block would fail on."""
    from ..backends import get_backend
    from ..words.builtin import LANGUAGES

    for key, choices in CHOICES.items():
        if key in settings and settings[key] not in choices:
            raise InputError(f"{where}.{key}: {settings[key]!r}; choose from {', '.join(choices)}", path)
    for key, least in AT_LEAST.items():
        if key in settings and settings[key] < least:
            raise InputError(f"{where}.{key}: {settings[key]}; must be {least} or more", path)
    if words.lang not in LANGUAGES:
        raise InputError(f"{where}.lang: {words.lang!r}; choose from {', '.join(LANGUAGES)}", path)
    if fmt == "puz" and words.lang in ("ar", "bn"):
        raise InputError(f"{where}.format: .puz holds Latin letters only; use ipuz or json for lang {words.lang}", path)
    if "ban" in settings and not all(isinstance(w, str) for w in settings["ban"]):
        raise InputError(f"{where}.ban: a list of words", path)
    if "entries" in settings and not all(isinstance(w, str) for w in settings["entries"]):
        raise InputError(f"{where}.entries: a list of words", path)
    if "backend" in settings or "backend_options" in settings:
        try:
            backend = get_backend(settings.get("backend", "ac"))
            backend.make_options(settings.get("backend_options"))
        except InputError as error:
            raise InputError(f"{where}: {error.message}", path) from None


def _check_pattern_rules(settings: dict[str, Any], where: str, path: str) -> None:
    """Refuse an American-style block whose pattern rules no grid can meet (the library's own
    check, run once here instead of failing every job)."""
    from ..layout.american_patterns import LayoutRuleError, PatternRules

    rows, cols = settings["size"]
    try:
        PatternRules.for_size(
            rows,
            cols,
            blocks=settings.get("blocks"),
            max_words=settings.get("max_words"),
            max_run=settings.get("max_run"),
            symmetry=settings.get("symmetry", "rotational"),
        )
    except LayoutRuleError as error:
        raise InputError(f"{where}: {error}", path) from None


def _check_fields(block: Mapping[str, Any], allowed: Mapping[str, tuple[type, ...]], where: str, path: str) -> None:
    for key, value in block.items():
        if key not in allowed:
            raise InputError(f"{where}: unknown field {key!r}; this block takes {', '.join(sorted(allowed))}", path)
        types = allowed[key]
        # bool is an int to Python, but true is not a count
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise InputError(f"{where}.{key}: {value!r} is not a {_type_words(types)}", path)


def _type_words(types: tuple[type, ...]) -> str:
    words = {int: "whole number", float: "number", str: "text", list: "list", bool: "true/false", dict: "table"}
    return " or ".join(words[t] for t in types)


def _paths(value: str | list[Any], where: str, path: str, base: str) -> list[str]:
    values = [value] if isinstance(value, str) else value
    if not all(isinstance(v, str) and v for v in values):
        raise InputError(f"{where}: a file name or a list of file names", path)
    found = []
    for item in values:
        full = os.path.join(base, os.path.expanduser(item))
        if not os.path.isfile(full):
            raise InputError(f"{where}: no such file {item!r}", path)
        found.append(full)
    return found


def _grid_files(value: Any, where: str, path: str, base: str) -> list[str]:
    if value is None:
        raise InputError(f"{where}: a fill block needs its grids (files or patterns such as 'grids/*.txt')", path)
    patterns = [value] if isinstance(value, str) else value
    if not patterns or not all(isinstance(p, str) and p for p in patterns):
        raise InputError(f"{where}: a file name or pattern, or a list of them", path)
    files: list[str] = []
    for pattern in patterns:
        full = os.path.join(base, os.path.expanduser(pattern))
        matched = sorted(glob.glob(full, recursive=True)) if glob.has_magic(full) else [full]
        matched = [m for m in matched if os.path.isfile(m)]
        if not matched:
            raise InputError(f"{where}: {pattern!r} names no grid file", path)
        files.extend(m for m in matched if m not in files)
    return files


def _seeds(value: Any, where: str, path: str) -> list[int]:
    if isinstance(value, int):
        if value > MAX_JOBS:
            raise InputError(f"{where}: {value}; at most {MAX_JOBS:,} seeds", path)
        if value < 1:
            raise InputError(f"{where}: a count of 1 or more (seeds 0 to N-1), or a list of seeds", path)
        return list(range(value))
    if not value or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SEED for s in value):
        raise InputError(f"{where}: a list of whole numbers from 0 to {MAX_SEED}, or a count", path)
    if len(set(value)) != len(value):
        raise InputError(f"{where}: a seed is listed twice", path)
    return list(value)


def _size(value: Any, where: str, path: str) -> tuple[int, int]:
    try:
        return layout_size(value, where)
    except InputError as error:
        raise InputError(error.message, path) from None


def _flat(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "grid"


def _binary_digest(path: str) -> str:
    return "sha256:" + hashlib.sha256(read_input_bytes(path)).hexdigest()


def _toml_position(message: str) -> tuple[int | None, int | None]:
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    return (int(found.group(1)), int(found.group(2))) if found else (None, None)


def _toml_message(message: str) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or message


__all__ = ["BatchJob", "BatchSpec", "COMMON", "FIELDS", "FORMATS", "KINDS", "WordSource", "expand_spec", "read_spec"]
