"""Ready index caches of word list files: a list file is parsed once, later loads map its index.

The first load of a list file (:func:`~csp_crossword.words.wordlists.load_word_list`) writes
what it read as a ready index file (:meth:`ReadyIndex.to_bytes`, the built-in lists' cache
format) into the cache directory of the built-in lists, named after :func:`cache_key`: a digest
of the file's bytes and of everything else that shapes what the reader makes of them. A later load
of the same bytes maps that file (:meth:`ReadyIndex.load`) and parses nothing: a fill then starts
as fast as from the built-in list.

The index file's ``extra`` keeps the rest of what the reader returned, so a cached list is the
list: the entries in the file's order, display forms, clues, how often each entry was listed, and
the load report (its warning is given on every load). The order, display forms and clues are kept
as strings and turned into tables only when something reads them (a fill reads none of them).

A cache that cannot be read, or is not of this key, is rebuilt; a cache directory that cannot be
written costs only the rebuild next time. At most :data:`MAX_LIST_CACHES` list caches are kept:
a load touches its cache, and writing a new one removes the least recently used beyond that.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any

from ..core.errors import InputError
from ..core.files import write_atomically
from ..core.limits import MAX_CLUE_CHARS, MAX_WORD_GLYPHS
from .cache_folder import cache_dir
from .lexicon import Lexicon
from .load_report import WARNING_EXAMPLES, LoadReport
from .ready_file import READY_LAYOUT
from .ready_index import ReadyIndex
from .word_index import DEFAULT_SCORE, MAX_SCORE

#: Bump when the reader changes what it makes of a file (entries, scores, display forms, clues,
#: the report) or when the cache keeps something else, so that older caches are not used.
LIST_CACHE_FORMAT = 1
#: List files smaller than this (about 12,000 entries) are parsed on every load: that takes
#: milliseconds, less than writing a cache file and keeping it, and small lists (override files,
#: a freeform puzzle's words) would only push the large lists' caches out.
MIN_CACHED_BYTES = 128 * 1024
#: The most list caches kept; writing one more removes the least recently used. A 300,000-entry
#: list's cache is about 15 MB.
MAX_LIST_CACHES = 8
#: The file name of a list's cache: ``list-`` and its key.
CACHE_NAME = re.compile(r"list-[0-9a-f]{32}\.index")
#: In the display forms kept per entry: the entry in lower case (most lists write words so).
LOWER_FORM = "="


def cache_key(data: bytes, kind: str, variant: str = "any") -> str:
    """The name of the cache of a list file's bytes read as ``kind`` (what the file's extension
    makes the reader try first) and kept to ``variant`` (a spelling, with the version of the
    list that says which entries are spelled which way): their digest and every setting that
    shapes the result, so a change to any of them makes another cache."""
    settings = [LIST_CACHE_FORMAT, READY_LAYOUT, kind, variant, MAX_WORD_GLYPHS, MAX_CLUE_CHARS, MAX_SCORE]
    settings.append(DEFAULT_SCORE)
    settings.append(WARNING_EXAMPLES)  # the report keeps as many examples
    digest = hashlib.sha256(data)
    digest.update(json.dumps(settings).encode("ascii"))
    return digest.hexdigest()[:32]


def cache_path(key: str) -> str:
    return os.path.join(cache_dir(), f"list-{key}.index")


def load_cached(key: str, path: str) -> tuple[Lexicon, LoadReport] | None:
    """The list cached under ``key`` and its report (naming ``path``), or None when there is no
    such cache or it cannot be read (it is then rebuilt by the caller)."""
    where = cache_path(key)
    try:
        ready, extra = ReadyIndex.load(where)
        if extra.get("source") != key:
            return None
        found = _lexicon(ready, extra, path)
    except (OSError, ValueError):
        return None
    try:
        os.utime(where)  # the least recently used caches are the first removed
    except OSError:
        pass
    return found


def build_cached(
    key: str,
    path: str,
    scores: dict[str, int],
    display: Mapping[str, str],
    clues: Mapping[str, str],
    counts: Mapping[str, int],
    report: LoadReport,
) -> tuple[Lexicon, LoadReport]:
    """Write the cache of a list that was just read (entry -> score in the file's order, display
    forms, clues, how often each entry was listed) and return the list as a later load will map
    it, so the first load and the later ones give the same lexicon. A cache that cannot be
    written is skipped."""
    forms = [_kept_form(entry, display.get(entry)) for entry in scores]
    extra = {
        "source": key,
        "order": "\n".join(scores),
        "display": "\n".join(forms) if any(forms) else "",
        "clues": json.dumps(dict(clues), ensure_ascii=False) if clues else "",
        "repeated": {entry: n for entry, n in counts.items() if n > 1},
        "report": report.to_json(),
    }
    data = ReadyIndex.of(scores).to_bytes(extra)
    try:
        write_atomically(cache_path(key), data)
        remove_least_recent(keep=f"list-{key}.index")
    except (OSError, InputError):  # an unwritable cache directory: the next load reads the file again
        pass
    ready, stored = ReadyIndex.from_buffer(data)
    return _lexicon(ready, stored, path)


def remove_least_recent(keep: str) -> None:
    """Remove the list caches beyond :data:`MAX_LIST_CACHES`, least recently used first (never
    ``keep``, the one just written)."""
    folder = cache_dir()
    try:
        names = [name for name in os.listdir(folder) if CACHE_NAME.fullmatch(name) and name != keep]
    except OSError:
        return
    used = []
    for name in names:
        try:
            used.append((os.stat(os.path.join(folder, name)).st_mtime, name))
        except OSError:
            continue
    used.sort(reverse=True)
    for _, name in used[MAX_LIST_CACHES - 1 :]:
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _kept_form(entry: str, form: str | None) -> str:
    """How an entry's display form is kept: "" without one, :data:`LOWER_FORM` for the entry
    in lower case, else the form (a form never holds a line break: an entry cannot)."""
    if form is None:
        return ""
    return LOWER_FORM if form == entry.lower() else form


def _lexicon(ready: ReadyIndex, extra: dict[str, Any], path: str) -> tuple[Lexicon, LoadReport]:
    """The lexicon and the report of a cached list (ValueError when its ``extra`` is not a cached list's)."""
    order, forms, clues, repeated = (extra.get(key) for key in ("order", "display", "clues", "repeated"))
    if not (isinstance(order, str) and isinstance(forms, str) and isinstance(clues, str)):
        raise ValueError("damaged list cache")
    if not isinstance(repeated, dict) or not all(isinstance(n, int) and n > 1 for n in repeated.values()):
        raise ValueError("damaged list cache")
    report = LoadReport.from_json(path, extra.get("report"))
    tables = _Tables(order, forms, clues)
    lexicon = Lexicon(
        None,
        _LazyTable(tables.display),
        _LazyTable(tables.clues),
        os.path.basename(path),
        dict(repeated),
        ready=ready,
        order=tables.order,
    )
    return lexicon, report


class _Tables:
    """A cached list's order, display forms and clues, made from their strings when first read."""

    def __init__(self, order: str, forms: str, clues: str):
        self._order_text = order
        self._forms_text = forms
        self._clues_text = clues
        self._order: list[str] | None = None

    def order(self) -> list[str]:
        if self._order is None:
            self._order = self._order_text.split("\n") if self._order_text else []
        return self._order

    def display(self) -> dict[str, str]:
        if not self._forms_text:
            return {}
        order, forms = self.order(), self._forms_text.split("\n")
        if len(forms) != len(order):  # a damaged cache loses the display forms, not the fill
            return {}
        table = {}
        for entry, form in zip(order, forms):
            if form == LOWER_FORM:
                table[entry] = entry.lower()
            elif form:
                table[entry] = form
        return table

    def clues(self) -> dict[str, str]:
        if not self._clues_text:
            return {}
        try:
            table = json.loads(self._clues_text)
        except ValueError:
            return {}
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            return {}
        return table


class _LazyTable(MutableMapping[str, str]):
    """A table made by ``make`` when it is first read (display forms and clues of a cached list:
    a fill reads none, a clue sheet a few)."""

    def __init__(self, make: Callable[[], dict[str, str]]):
        self._make = make
        self._table: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._table is None:
            self._table = self._make()
        return self._table

    def __getitem__(self, entry: str) -> str:
        return self._load()[entry]

    def __setitem__(self, entry: str, value: str) -> None:
        self._load()[entry] = value

    def __delitem__(self, entry: str) -> None:
        del self._load()[entry]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())
