"""The word lists the web page can use: the built-in lists, the server's ``--words`` files and
lists uploaded through the page.

An upload belongs to the page that sent it: pages name themselves by a random ``X-CSP-Client``
header, and another page neither sees the list offered nor can use it (:meth:`WordListStore.for_client`).
An uploaded list is kept as its bytes (a worker process loads it from them) and, once asked for,
as a loaded :class:`~csp_crossword.words.lexicon.Lexicon`. At most :data:`MAX_UPLOADED_LISTS` are kept;
the oldest goes first. No path ever comes from a request: an upload is read from a temporary file
the server names itself.
"""

from __future__ import annotations

import os
import tempfile
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import InputError
from ..words.lexicon import Lexicon
from .overrides import OverridesStore, apply_set, content_digest, overrides_prefix

#: Uploaded lists kept at once (each can be tens of MB loaded).
MAX_UPLOADED_LISTS = 8
#: The largest word-list upload, in bytes.
MAX_UPLOAD_BYTES = 32 * 1024 * 1024
#: File name endings of the word-list formats (docs/formats.md): JSON and CSV by ending, the
#: rest read as plain ``word`` or ``word;score`` lines.
LIST_SUFFIXES = (".txt", ".dict", ".csv", ".json", ".tsv", ".lst")
#: Loaded lexicons a worker process keeps (built-in and uploaded).
WORKER_CACHE_SIZE = 4


@dataclass(frozen=True)
class ListSource:
    """Where a word list comes from, in a form a worker process can load it from.

    Attributes:
        key: What identifies it in caches (``builtin:en``, ``upload:<id>``, ``file:<n>``).
        lang, allow_offensive: For a built-in list.
        name: The name shown in the page and in messages.
        suffix: An upload's file ending (chooses its format).
        data: An upload's bytes.
        path: A ``--words`` file given on the server's command line.
        owner: The client that uploaded it (empty: everyone's).
        overrides, overrides_name: A named overrides set applied on top (:mod:`.overrides`): the
            set file's bytes as they were when the request came, and its name.
        spelling: ``us``, ``uk`` or ``any``: the entries the built-in English list spells only
            the other way are left out (:func:`csp_crossword.api.load_words`).
    """

    key: str
    lang: str = "en"
    allow_offensive: bool = False
    name: str = ""
    suffix: str = ".txt"
    data: bytes | None = field(default=None, repr=False)
    path: str | None = None
    owner: str = ""
    overrides: bytes | None = field(default=None, repr=False)
    overrides_name: str = ""
    spelling: str = "any"

    @property
    def cache_key(self) -> str:
        """What the loaded list is cached by: its spelling, and with a set its content's digest
        too, so an edited set is never answered from a lexicon of its former content."""
        key = self.key if self.spelling == "any" else f"{self.key}~{self.spelling}"
        if self.overrides is None:
            return key
        return f"{key}+{overrides_prefix(self.overrides_name)}{content_digest(self.overrides)}"


def builtin_source(lang: str, allow_offensive: bool) -> ListSource:
    return ListSource(f"builtin:{lang}:{int(allow_offensive)}", lang=lang, allow_offensive=allow_offensive)


def load_source(source: ListSource, warnings: list[str] | None = None) -> Lexicon:
    """Load a list (InputError with the list's name when it is unusable)."""
    from ..api import load_words

    def warn(text: str) -> None:
        if warnings is not None:
            warnings.append(text)

    spelling = source.spelling
    if source.path is not None:
        return load_words([source.path], on_warning=warn, spelling=spelling)
    if source.data is None:
        return load_words(lang=source.lang, allow_offensive=source.allow_offensive, spelling=spelling)
    handle, path = tempfile.mkstemp(suffix=source.suffix, prefix="csp-crossword-list-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(source.data)
        try:
            return load_words([path], on_warning=lambda text: warn(text.replace(path, source.name)), spelling=spelling)
        except InputError as error:
            raise InputError(error.message, source.name, error.line, error.column) from None
    finally:
        os.unlink(path)


class LexiconCache:
    """Loaded lists by source key, the least recently used dropped beyond ``size``."""

    def __init__(self, size: int = WORKER_CACHE_SIZE):
        self.size = size
        self.loaded: OrderedDict[str, Lexicon] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, source: ListSource) -> Lexicon:
        key = source.cache_key
        with self.lock:
            if key in self.loaded:
                self.loaded.move_to_end(key)
                return self.loaded[key]
        if source.overrides is None:
            lexicon = load_source(source)
        else:  # the list under the set stays cached: an edit of the set re-applies the set only
            base = self.get(replace(source, overrides=None, overrides_name=""))
            lexicon = apply_set(base, source.overrides_name, source.overrides)
        with self.lock:
            if source.overrides is not None:  # a former version of the set is of no more use
                stale = f"{source.key}+{overrides_prefix(source.overrides_name)}"
                for old in [k for k in self.loaded if k.startswith(stale)]:
                    del self.loaded[old]
            self.loaded[key] = lexicon
            while len(self.loaded) > self.size:
                self.loaded.popitem(last=False)
        return lexicon


class WordListStore:
    """The lists a server offers: built-in, ``--words`` files, uploads (thread-safe), and the
    named overrides sets a request may apply on top of any (``overrides_dir``, default the user's
    data folder: :func:`.overrides.overrides_folder`). ``clue_db``: the clue database the page's
    clue suggestions read (default the user's, :func:`~csp_crossword.clues.database.default_database_path`)."""

    def __init__(self, files: list[str] | None = None, overrides_dir: str | None = None, clue_db: str | None = None):
        self.clue_db = clue_db
        self.lock = threading.Lock()
        self.overrides = OverridesStore(overrides_dir)
        self.files = {
            f"file{n + 1}": ListSource(f"file:{n + 1}", name=os.path.basename(p), path=p)
            for n, p in enumerate(files or [])
        }
        self.uploads: OrderedDict[str, ListSource] = OrderedDict()
        self.cache = LexiconCache(WORKER_CACHE_SIZE + MAX_UPLOADED_LISTS)

    owner = ""  # the store itself sees the lists everyone may use

    def for_client(self, client: str) -> ClientLists:
        """The store as one page sees it: its own uploads and everyone's lists."""
        return ClientLists(self, client)

    def offered(self, owner: str = "") -> list[dict[str, Any]]:
        """The lists to choose from in the page of ``owner``."""
        with self.lock:
            listed = [("builtin", "built-in list")]
            listed += [(list_id, source.name) for list_id, source in self.files.items()]
            listed += [(list_id, source.name) for list_id, source in self.uploads.items() if source.owner == owner]
        return [{"id": list_id, "name": name} for list_id, name in listed]

    def add_upload(self, name: str, data: bytes, owner: str = "") -> tuple[str, Lexicon, list[str]]:
        """Load and keep an uploaded list; its id, the lexicon and the loader's warnings."""
        if len(data) > MAX_UPLOAD_BYTES:
            raise InputError(f"a word list may be at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB", name)
        suffix = os.path.splitext(name)[1].lower()
        if suffix not in LIST_SUFFIXES:
            suffix = ".txt"
        list_id = "u" + uuid.uuid4().hex[:12]
        source = ListSource(
            f"upload:{list_id}", name=os.path.basename(name) or "upload", suffix=suffix, data=data, owner=owner
        )
        warnings: list[str] = []
        lexicon = load_source(source, warnings)
        if not len(lexicon):
            raise InputError("the word list has no usable entry", source.name)
        with self.lock:
            self.uploads[list_id] = source
            while len(self.uploads) > MAX_UPLOADED_LISTS:
                self.uploads.popitem(last=False)
        with self.cache.lock:
            self.cache.loaded[source.key] = lexicon
        return list_id, lexicon, warnings

    def source(
        self, words: str, lang: str, allow_offensive: bool, owner: str = "", overrides: str | None = None
    ) -> ListSource:
        """The source a request names, with the overrides set it names on top (InputError for an
        unknown id or set, or another page's upload)."""
        if overrides is not None:
            base = self.source(words, lang, allow_offensive, owner)
            return replace(base, overrides=self.overrides.requested(overrides).data, overrides_name=overrides)
        if words == "builtin":
            return builtin_source(lang, allow_offensive)
        with self.lock:
            found = self.files.get(words) or self.uploads.get(words)
        if found is not None and found.data is not None and found.owner != owner:
            found = None
        if found is None:
            raise InputError(
                f"no word list {words!r}: upload it again (the server keeps the last {MAX_UPLOADED_LISTS})", "words"
            )
        return found

    def lexicon(
        self, words: str, lang: str, allow_offensive: bool, owner: str = "", overrides: str | None = None
    ) -> Lexicon:
        return self.cache.get(self.source(words, lang, allow_offensive, owner, overrides))


class ClientLists:
    """A :class:`WordListStore` as one page (``owner``) sees it: the same calls, its uploads only."""

    def __init__(self, store: WordListStore, owner: str):
        self.store = store
        self.owner = owner
        self.cache = store.cache
        self.clue_db = store.clue_db

    def offered(self) -> list[dict[str, Any]]:
        return self.store.offered(self.owner)

    def add_upload(self, name: str, data: bytes) -> tuple[str, Lexicon, list[str]]:
        return self.store.add_upload(name, data, self.owner)

    def source(self, words: str, lang: str, allow_offensive: bool, overrides: str | None = None) -> ListSource:
        return self.store.source(words, lang, allow_offensive, self.owner, overrides)

    def lexicon(self, words: str, lang: str, allow_offensive: bool, overrides: str | None = None) -> Lexicon:
        return self.store.lexicon(words, lang, allow_offensive, self.owner, overrides)


#: What the page's quick requests read lists from: the whole store, or one page's view of it.
WordLists = WordListStore | ClientLists
