"""Named overrides sets: word-list edits a constructor keeps on the server and the CLI can use.

A set is a file ``NAME.txt`` in the overrides folder (:func:`overrides_folder`: the user's data
folder, or ``serve --overrides-dir DIR``) in the override-file format of
:mod:`csp_crossword.words.overrides`: ``word;score`` lines, a score of 0 banning the word. So
``csp-crossword fill GRID --overrides NAME`` (or the file's path) applies the same edits as the
page. The folder is read on every request (a file edited by hand counts at once) and a change is
written atomically (a temporary file, then ``os.replace``). No path ever comes from a request:
a set name must match :data:`SET_NAME`.

This module imports neither FastAPI nor pydantic (the CLI resolves set names with it): the routes
are in :mod:`.overrides_api`.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputError
from ..core.glyphs import normalize_entry
from ..core.limits import MAX_WORD_GLYPHS
from ..words.lexicon import Lexicon
from ..words.overrides import BANNED_SCORE
from ..words.word_index import _valid_entry, glyph_count

#: What a set name may be: letters, digits, ``-`` and ``_``, starting with a letter or digit.
MAX_SET_NAME_CHARS = 64
SET_NAME_PATTERN = rf"^[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_SET_NAME_CHARS - 1}}}$"
SET_NAME = re.compile(SET_NAME_PATTERN)
#: Sets the folder may hold, entries a set may hold, changes one batch request may make.
MAX_SETS = 100
MAX_SET_ENTRIES = 10_000
MAX_BATCH_CHANGES = 1_000
#: The largest set file read (a hand-edited file may be larger than the page ever writes).
MAX_SET_FILE_BYTES = 2 * 1024 * 1024
#: The scores the page gives; 0 bans (the library's BANNED_SCORE).
MIN_WEB_SCORE = BANNED_SCORE
MAX_WEB_SCORE = 100
SET_SUFFIX = ".txt"
FILE_HEADER = "# csp-crossword overrides: word;score lines, a score of 0 bans the word\n"


def overrides_folder() -> str:
    """Where the named sets live by default: ``$XDG_DATA_HOME/csp-crossword/overrides``
    (``~/.local/share/...`` without it)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "csp-crossword", "overrides")


def checked_name(name: str) -> str:
    """``name`` when it is a valid set name, else InputError (never a path)."""
    if not isinstance(name, str) or not SET_NAME.fullmatch(name):
        shown = name[:80] if isinstance(name, str) else type(name).__name__
        raise InputError(
            f"an overrides set name is 1 to {MAX_SET_NAME_CHARS} letters, digits, - or _ "
            f"(starting with a letter or digit), not {shown!r}",
            "name",
        )
    return name


def named_set_path(name: str, folder: str | None = None) -> str:
    """The file of set ``name`` in ``folder`` (default :func:`overrides_folder`)."""
    return os.path.join(folder or overrides_folder(), checked_name(name) + SET_SUFFIX)


def content_digest(data: bytes) -> str:
    """What tells two versions of a set's file apart (in cache keys)."""
    return hashlib.sha256(data).hexdigest()[:16]


def overrides_prefix(name: str) -> str:
    """The start of the cache keys of set ``name``'s versions (:attr:`.wordlists.ListSource.cache_key`)."""
    return f"overrides:{name}@"


def apply_set(lexicon: Lexicon, name: str, data: bytes) -> Lexicon:
    """``lexicon`` with the set's file (``data``) applied by the library, as ``--overrides`` does
    (InputError naming the set and the line when the file is malformed)."""
    from ..api import with_overrides

    handle, path = tempfile.mkstemp(suffix=SET_SUFFIX, prefix="csp-crossword-overrides-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            return with_overrides(lexicon, path)
        except InputError as error:
            raise InputError(error.message, f"overrides set {name}", error.line, error.column) from None
    finally:
        os.unlink(path)


class SetNotFound(Exception):
    """No set of that name (404)."""


class SetExists(Exception):
    """A set of that name is there already (409)."""


@dataclass(frozen=True)
class SetContent:
    """A set's file as it is on disk."""

    name: str
    data: bytes


@dataclass
class Change:
    """One edit of a set: ``set`` (add or re-score), ``ban`` (score 0), ``unban`` or ``remove``."""

    action: str
    word: str
    score: int | None = None


class OverridesStore:
    """The sets of one folder (thread-safe within the server process; the folder is made on the
    first write)."""

    def __init__(self, folder: str | None = None):
        self.folder = os.path.abspath(folder or overrides_folder())
        self.lock = threading.Lock()

    # ---- reading

    def names(self) -> list[str]:
        try:
            files = os.listdir(self.folder)
        except FileNotFoundError:
            return []
        except OSError as error:
            raise InputError(f"cannot read the overrides folder: {error.strerror}", self.folder) from None
        found = [f[: -len(SET_SUFFIX)] for f in files if f.endswith(SET_SUFFIX)]
        return sorted(n for n in found if SET_NAME.fullmatch(n))

    def path(self, name: str) -> str:
        return named_set_path(name, self.folder)

    def content(self, name: str) -> SetContent:
        """The set's file (SetNotFound when there is none)."""
        path = self.path(name)
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_SET_FILE_BYTES + 1)
        except (FileNotFoundError, IsADirectoryError):
            raise SetNotFound(f"no overrides set {name!r}") from None
        except OSError as error:
            raise InputError(f"cannot read the overrides set: {error.strerror}", name) from None
        if len(data) > MAX_SET_FILE_BYTES:
            raise InputError(f"the set's file is over {MAX_SET_FILE_BYTES // (1024 * 1024)} MB", name)
        return SetContent(name, data)

    def requested(self, name: str) -> SetContent:
        """The set a word-settings request names, as its file is now (InputError naming the
        ``overrides`` field when there is no such set)."""
        try:
            return self.content(checked_name(name))
        except SetNotFound:
            raise InputError(f"no overrides set {name!r}: create it in the Words tab", "overrides") from None

    def entries(self, name: str) -> dict[str, tuple[str, int]]:
        """entry -> (display form, score), in the file's order (InputError for a malformed file,
        with its line)."""
        from ..words.wordlists import load_word_list

        self.content(name)  # SetNotFound before the loader's "no such file"
        lexicon, _ = load_word_list(self.path(name), strict=True)
        return {entry: (lexicon.display.get(entry, entry), score) for entry, score in lexicon.scores.items()}

    def describe(self, name: str) -> dict[str, Any]:
        """The set as the API answers it."""
        with self.lock:
            table = self.entries(name)
        rows = [
            {"word": entry, "display": display, "score": score, "banned": score <= BANNED_SCORE}
            for entry, (display, score) in table.items()
        ]
        return {"name": name, "entries": rows, "count": len(rows), "banned": sum(r["banned"] for r in rows)}

    def summary(self) -> list[dict[str, Any]]:
        """Every set's name and counts; a file broken by hand is listed with what is wrong."""
        listed: list[dict[str, Any]] = []
        for name in self.names():
            try:
                found = self.describe(name)
            except (InputError, SetNotFound) as error:
                listed.append({"name": name, "count": None, "banned": None, "error": str(error)})
            else:
                listed.append({"name": name, "count": found["count"], "banned": found["banned"]})
        return listed

    # ---- writing

    def create(self, name: str) -> None:
        checked_name(name)
        with self.lock:
            existing = self.names()
            if any(n.lower() == name.lower() for n in existing):  # one file on a case-blind disk
                raise SetExists(f"an overrides set {name!r} is there already")
            if len(existing) >= MAX_SETS:
                raise InputError(f"the folder holds {MAX_SETS} sets, the most it may: delete one first", "name")
            self._write(name, {})

    def delete(self, name: str) -> None:
        with self.lock:
            self.content(name)
            os.unlink(self.path(name))

    def change(self, name: str, changes: list[Change]) -> None:
        """Apply ``changes`` in order and write the set once (nothing is written when one fails)."""
        with self.lock:
            table = self.entries(name)
            for number, item in enumerate(changes, start=1):
                where = "change" if len(changes) == 1 else f"changes[{number}]"
                _apply(table, item, where)
            self._write(name, table)

    def _write(self, name: str, table: dict[str, tuple[str, int]]) -> None:
        lines = [FILE_HEADER] + [f"{display};{score}\n" for display, score in table.values()]
        os.makedirs(self.folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                out.write("".join(lines))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path(name))
        except BaseException:
            if os.path.exists(temp):
                os.unlink(temp)
            raise


def _apply(table: dict[str, tuple[str, int]], item: Change, where: str) -> None:
    entry, display = word_forms(item.word, where)
    if item.action == "set":
        if item.score is None:
            raise InputError("a set change needs a score", f"{where}.score")
        _put(table, entry, display, item.score, where)
    elif item.action == "ban":
        _put(table, entry, display, BANNED_SCORE, where)
    elif item.action == "unban":
        if entry not in table or table[entry][1] > BANNED_SCORE:
            raise InputError(f"{entry} is not banned in this set", f"{where}.word")
        del table[entry]
    elif item.action == "remove":
        if table.pop(entry, None) is None:
            raise InputError(f"{entry} is not in this set", f"{where}.word")
    else:
        raise InputError(f"unknown action {item.action!r}: set, ban, unban or remove", f"{where}.action")


def _put(table: dict[str, tuple[str, int]], entry: str, display: str, score: int, where: str) -> None:
    if not MIN_WEB_SCORE <= score <= MAX_WEB_SCORE:
        raise InputError(f"a score is from {MIN_WEB_SCORE} (banned) to {MAX_WEB_SCORE}", f"{where}.score")
    if entry not in table and len(table) >= MAX_SET_ENTRIES:
        raise InputError(f"a set holds at most {MAX_SET_ENTRIES:,} words", f"{where}.word")
    if entry in table and display == entry:
        display = table[entry][0]  # re-scoring by the plain entry keeps the display form given first
    table[entry] = (display, score)


def word_forms(word: str, where: str = "word") -> tuple[str, str]:
    """(entry, display form) of a typed word, as the list loader makes them: ``ice-age`` is the
    entry ICEAGE shown as ``ice-age``; a word typed without separators is kept as its entry."""
    typed = " ".join(word.split())  # a tab or line break would break the file's lines
    entry = normalize_entry(typed)
    if not entry:
        raise InputError("the word is empty", f"{where}.word")
    if not _valid_entry(entry):
        raise InputError(f"{typed[:40]!r} holds a character no cell can (letters and digits only)", f"{where}.word")
    if glyph_count(entry) > MAX_WORD_GLYPHS:
        raise InputError(f"{typed[:40]!r} is longer than {MAX_WORD_GLYPHS} glyphs", f"{where}.word")
    display = typed if typed.upper() != entry else entry
    return entry, display
