"""Word lists named by where they come from, and the per-process cache that loads each once.

A :class:`WordSource` travels to worker processes (a batch's jobs, a portfolio's members on Ray)
instead of the loaded list: each worker loads a source once and keeps it.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from ..words.lexicon import Lexicon
from .inputs import load_words


@dataclass(frozen=True)
class WordSource:
    """Where a job's words come from: files (later ones win), or the built-in list of ``lang``.
    Workers load each source once and keep it (:class:`WordCache`)."""

    files: tuple[str, ...] = ()
    lang: str = "en"
    allow_offensive: bool = False
    overrides: tuple[str, ...] = ()
    #: ``us``, ``uk`` or ``any`` (:func:`~csp_crossword.api.load_words`); ``auto`` is resolved by
    #: the job, which knows its grid (:func:`~csp_crossword.api.resolve_spelling`), and loads as
    #: ``any`` when it is not.
    spelling: str = "any"

    @property
    def key(self) -> str:
        return json.dumps([self.files, self.lang, self.allow_offensive, self.overrides, self.spelling])


class WordCache:
    """The word lists a worker has loaded, by source: each is read once per worker process, not
    once per job (the built-in list is a memory-mapped index; a file list is parsed once)."""

    def __init__(self) -> None:
        self._lists: dict[str, Lexicon] = {}

    def lexicon(self, source: WordSource) -> Lexicon:
        key = source.key
        if key not in self._lists:
            self._lists[key] = load_words(
                list(source.files),
                lang=source.lang,
                allow_offensive=source.allow_offensive,
                overrides=source.overrides,
                spelling="any" if source.spelling == "auto" else source.spelling,
            )
        return self._lists[key]

    def __len__(self) -> int:
        return len(self._lists)


@functools.cache
def worker_cache() -> WordCache:
    """This process's word cache (one per worker process, on purpose: it outlives the jobs)."""
    return WordCache()
