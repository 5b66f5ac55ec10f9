"""The built-in word lists, cached as ready indexes in the user cache directory.

``en`` is the constructor-grade English list shipped in the package (:mod:`.crossword_list`),
scored for fill quality. ``en-web`` (the earlier English list), ``ar`` and ``bn`` are derived
from wordfreq's web frequencies: a word's Zipf frequency ``z`` (log10 of its frequency per billion
words; wordfreq's large lists run from about 1 to 7.7) becomes

    score = clamp(round(1 + 99 * (z - ZIPF_FLOOR) / (ZIPF_CEILING - ZIPF_FLOOR)), 1, 100)

so the rarest listed words score 1 and everything at least as common as Zipf 6 ("the", "people")
scores 100.
"""

from __future__ import annotations

import math
import os
import re
import sys
import unicodedata
import zlib
from collections.abc import Mapping
from typing import TypeGuard

from ..core.deadline import Deadline
from ..core.files import write_atomically
from ..core.glyphs import split_glyphs
from .cache_folder import cache_dir
from .index_build import build_index
from .lexicon import Lexicon
from .ready_index import ReadyIndex
from .word_index import MAX_SCORE

#: Zipf value that maps to score 1.
ZIPF_FLOOR = 1.0
#: Zipf value (and above) that maps to score 100.
ZIPF_CEILING = 6.0
#: Entry lengths kept, in glyphs.
MIN_LENGTH = 2
MAX_LENGTH = 21
#: Bump when the derivation or the cache layout changes, so old caches are rebuilt. Format 3
#: keeps the ready index a fill starts from: per length, the entries best first as one string and
#: their scores as bytes, unpacked only for the lengths a grid uses. Format 4 keeps vulgar words
#: apart (offered only with allow_offensive). Format 5 is a file of
#: :meth:`~csp_crossword.words.lexicon.ReadyIndex.to_bytes` (the word indexes' bitsets included),
#: mapped into memory and read one length at a time; the caches of older formats are removed
#: when it is written. Format 6: ``en`` is the shipped crossword list, ``en-web`` wordfreq's.
#: Format 7: the file's header is JSON (no marshal: the cache directory may be writable by
#: others, and reading a cache must not be able to run code) and names the source it was built
#: from, which must match the name the installed sources give (:func:`source_stamp`).
#: Format 8: ``en`` keeps one index per spelling (``us``, ``uk``, ``any``), each without the
#: entries the list spells only the other way.
CACHE_FORMAT = 8

#: The built-in lists; the first is the default.
LANGUAGES = ("en", "en-web", "ar", "bn")
#: The spellings a built-in list can keep to: ``us`` leaves out British-only spellings (COLOUR,
#: GREYED), ``uk`` American-only ones (COLOR), ``any`` keeps both. Only ``en`` tags them.
SPELLINGS = ("any", "us", "uk")
#: The spellings a fill may be asked to keep to: ``auto`` is chosen by the grid
#: (:func:`csp_crossword.api.inputs.resolve_spelling`).
SPELLING_CHOICES = ("auto", "us", "uk", "any")
#: wordfreq's language code of each list derived from it.
WORDFREQ_CODES = {"en-web": "en", "ar": "ar", "bn": "bn"}

_ARABIC_MARKS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")
_ARABIC_WORD = re.compile("[\u0621-\u063a\u0641-\u064a]+")
_BANGLA_WORD = re.compile("[\u0980-\u09e5\u09f0-\u09ff]+")
_ENGLISH_WORD = re.compile("[a-z]+")


def zipf_to_score(zipf: float) -> int:
    """Map a Zipf frequency to a 1-100 score.

    >>> zipf_to_score(1.0), zipf_to_score(3.5), zipf_to_score(7.7)
    (1, 50, 100)
    """
    scaled = 1 + 99 * (zipf - ZIPF_FLOOR) / (ZIPF_CEILING - ZIPF_FLOOR)
    return max(1, min(100, round(scaled)))


def _normalize(word: str, lang: str) -> str | None:
    """The entry form of a wordfreq word in a language, or None when it is not a word of letters."""
    word = unicodedata.normalize("NFC", word)
    if lang in ("en", "en-web"):
        return word.upper() if _ENGLISH_WORD.fullmatch(word) else None
    if lang == "ar":
        word = _ARABIC_MARKS.sub("", word)
        return word if _ARABIC_WORD.fullmatch(word) else None
    if lang == "bn":
        return word if _BANGLA_WORD.fullmatch(word) else None
    raise ValueError(f"no built-in word list for language {lang!r}")


#: Endings after which a plural takes -ES (FOXES), not -S (YIDS); after -O, either (DAGOS, DAGOES).
ES_PLURAL_ENDINGS = ("S", "X", "Z", "CH", "SH")


def with_inflections(words: set[str]) -> set[str]:
    """``words`` and their plurals: a slur's plural is as much a slur (SPICES is not SPIC's)."""
    plurals = {word + ("ES" if word.endswith(ES_PLURAL_ENDINGS) else "S") for word in words}
    return words | plurals | {word + "ES" for word in words if word.endswith("O")}


def _blocklist(lang: str) -> set[str]:
    """Our list of slurs, with their plurals: never offered, whatever the options."""
    text = _blocklist_bytes(lang).decode("utf-8")
    return with_inflections(
        {line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    )


def vulgar_words(lang: str) -> set[str]:
    """Entries of a maintained profanity list (better-profanity's, MIT licence; English only):
    left out of the built-in list unless the user allows offensive words. One entry per line of
    that list; its multi-word lines are phrases, never split into their words."""
    if lang not in ("en", "en-web"):
        return set()
    from importlib import resources

    try:
        text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):  # the dependency is missing: nothing to add
        return set()
    vulgar = set()
    for line in text.splitlines():
        entry = _normalize(line.strip().lower(), lang)
        if entry:
            vulgar.add(entry)
    return vulgar


def derive_scores(lang: str) -> tuple[dict[str, int], set[str]]:
    """The entry -> score table of a built-in list, and which of its entries are vulgar (slow:
    ~1 s). Slurs (our blocklist) are never in it."""
    blocked = _blocklist(lang)
    if lang == "en":
        from .crossword_list import read_list

        scores, vulgar = read_list()
        for entry in blocked:
            scores.pop(entry, None)
        return scores, (vulgar | vulgar_words(lang)) & scores.keys()
    scores = _derive_from_wordfreq(lang, blocked)
    return scores, vulgar_words(lang) & scores.keys()


def _derive_from_wordfreq(lang: str, blocked: set[str]) -> dict[str, int]:
    """The entry -> score table of a list from wordfreq's large list of a language."""
    import wordfreq

    frequencies = wordfreq.get_frequency_dict(WORDFREQ_CODES[lang], wordlist="large")
    scores: dict[str, int] = {}
    for word, freq in frequencies.items():
        entry = _normalize(word, lang)
        if entry is None or entry in blocked:
            continue
        n = len(entry) if lang == "en-web" else len(split_glyphs(entry))
        if not MIN_LENGTH <= n <= MAX_LENGTH:
            continue
        score = zipf_to_score(math.log10(freq) + 9)
        if score > scores.get(entry, 0):
            scores[entry] = score
    return scores


def installed_version(distribution: str) -> str | None:
    """The installed version of a distribution, None when it is not installed: what
    ``importlib.metadata.version`` answers, read from the ``*.dist-info`` folder on ``sys.path``
    (importing ``importlib.metadata`` costs ~30 ms, the scan under 1 ms; other kinds of install
    fall back to it)."""
    wanted = re.sub(r"[-_.]+", "_", distribution).lower()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if kind != "dist-info" or not dot:
                continue
            project, _, version = stem.partition("-")
            if re.sub(r"[-_.]+", "_", project).lower() != wanted:
                continue
            try:
                with open(os.path.join(entry or ".", name, "METADATA"), encoding="utf-8") as handle:
                    for line in handle:
                        if line.startswith("Version:"):
                            return line.partition(":")[2].strip()
                        if not line.strip():  # the headers end at the first blank line
                            break
            except OSError:
                pass
            return version or None
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def cache_path(lang: str, spelling: str = "any") -> str:
    """The ready index of a built-in list (one per spelling for ``en``)."""
    kept = f"-{spelling}" if spelling != "any" and lang == "en" else ""
    return os.path.join(cache_dir(), f"builtin-{lang}{kept}-{source_stamp(lang)}.index")


def source_stamp(lang: str) -> str:
    """What a list's cache is derived from: the cache format, the source list's version or
    checksum, better-profanity's version and our slur list's checksum."""
    # The installed versions from their metadata: importing wordfreq itself costs ~0.2 s, which a
    # fill from the cache should not pay.
    versions = [installed_version(name) or "none" for name in ("wordfreq", "better-profanity")]
    # Our slur list is part of the derivation too: a changed list makes a new cache.
    digest = f"{zlib.crc32(_blocklist_bytes(lang)):08x}"
    if lang == "en":  # the shipped list, not wordfreq, is the source
        from .crossword_list import list_bytes

        versions[0] = f"{zlib.crc32(list_bytes()):08x}"
    return f"v{CACHE_FORMAT}-wordfreq-{versions[0]}-profanity-{versions[1]}-{digest}"


def _blocklist_bytes(lang: str) -> bytes:
    """Our slur list's file as it is (empty when there is none). Read beside this module when it
    is there: ``importlib.resources`` first imports its readers (~4 ms)."""
    name = f"blocklist-{lang.split('-')[0]}.txt"  # en-web shares en's
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", name), "rb") as handle:
            return handle.read()
    except OSError:
        pass
    from importlib import resources

    resource = resources.files("csp_crossword.words").joinpath("data", name)
    return resource.read_bytes() if resource.is_file() else b""


def _remove_older_caches(lang: str) -> None:
    """Remove the caches of a language written in older formats: an older checkout that still
    wants its own rebuilds it once, and the two then live side by side."""
    try:
        names = os.listdir(cache_dir())
    except OSError:
        return
    for name in names:
        found = re.fullmatch(rf"builtin-{re.escape(lang)}(?:-us|-uk)?-v(\d+)(-.*)?\.(pickle|index)", name)
        if found and int(found.group(1)) < CACHE_FORMAT:
            try:
                os.unlink(os.path.join(cache_dir(), name))
            except OSError:
                pass


def builtin_lexicon(
    lang: str = "en", *, allow_offensive: bool = False, spelling: str = "any", deadline: Deadline = None
) -> Lexicon:
    """The built-in word list of a language ("en", "ar" or "bn"), cached after the first build.

    Vulgar words are left out unless ``allow_offensive``; slurs are never in it. ``spelling``
    (``en`` only; :data:`SPELLINGS`): ``us`` leaves out British-only spellings, ``uk``
    American-only ones. A cache that cannot be read is rebuilt; a cache directory that cannot be
    written only costs the rebuild next time. The ``en`` list keeps display forms ("ice age" for
    ICEAGE), read on first use.

    ``deadline`` (a job's): the first build runs in a process of its own, waited for until then
    (:func:`~csp_crossword.words.index_build.build_index`), and
    :class:`~csp_crossword.words.index_build.IndexTimeout` says when the deadline passed first.
    Only when that process cannot write the cache is the list built here, past the deadline.
    """
    spelling = _checked(lang, spelling)
    stamp = source_stamp(lang)
    path = cache_path(lang, spelling)
    if deadline is not None:
        build_index(lang, spelling, path, deadline)
    name = f"built-in ({lang})" if spelling == "any" else f"built-in ({lang}, {spelling.upper()} spelling)"
    try:
        ready, extra = ReadyIndex.load(path)
        vulgar = extra.get("vulgar")
        if extra.get("source") == stamp and _is_scores(vulgar):
            if allow_offensive:
                return _with_vulgar(ready, vulgar, name, lang)
            return Lexicon(None, _display_forms(lang), name=name, ready=ready)
    except (OSError, ValueError, KeyError):
        pass
    scores, banned = derive_scores(lang)
    if spelling != "any":
        for entry in other_spellings(spelling):
            scores.pop(entry, None)
    vulgar = {entry: scores.pop(entry) for entry in sorted(banned) if entry in scores}
    ready = ReadyIndex.of(scores)
    try:
        write_atomically(path, ready.to_bytes({"vulgar": vulgar, "source": stamp}))
        _remove_older_caches(lang)
    except OSError:
        pass
    if allow_offensive:
        return _with_vulgar(ready, vulgar, name, lang)
    return Lexicon(scores, _display_forms(lang), name=name, ready=ready)


def prepare_builtin(lang: str, spelling: str, deadline: Deadline) -> None:
    """Make sure the ready index of the built-in list ``lang`` (kept to ``spelling``) is cached
    before ``deadline``, as :func:`builtin_lexicon` does on a first use: IndexTimeout when the
    deadline passes first, ValueError for an unknown language or spelling. Nothing to do without a
    deadline: the load then builds the index itself."""
    spelling = _checked(lang, spelling)
    if deadline is not None:
        build_index(lang, spelling, cache_path(lang, spelling), deadline)


def _checked(lang: str, spelling: str) -> str:
    """The spelling a built-in list keeps to (``any`` but for ``en``); ValueError for a language
    or spelling there is no list of."""
    if lang not in LANGUAGES:
        raise ValueError(f"no built-in word list for language {lang!r}; choose from {', '.join(LANGUAGES)}")
    if spelling not in SPELLINGS:
        raise ValueError(f"unknown spelling {spelling!r}; choose from {', '.join(SPELLINGS)}")
    return spelling if lang == "en" else "any"


def other_spellings(spelling: str) -> frozenset[str]:
    """The entries a fill keeping to ``spelling`` leaves out: for ``us`` the British-only
    spellings of the built-in English list, for ``uk`` the American-only ones, for ``any``
    none (slow: reads the shipped list, ~0.3 s)."""
    if spelling == "any":
        return frozenset()
    from .crossword_list import read_spellings

    other = "uk" if spelling == "us" else "us"
    return frozenset(read_spellings()[other])


def _is_scores(value: object) -> TypeGuard[dict[str, int]]:
    return isinstance(value, dict) and all(isinstance(v, int) and -MAX_SCORE <= v <= MAX_SCORE for v in value.values())


def _with_vulgar(clean: ReadyIndex, vulgar: dict[str, int], name: str, lang: str) -> Lexicon:
    ready = clean.with_entries(vulgar)
    return Lexicon(None, _display_forms(lang), name=f"{name}, offensive words allowed", ready=ready)


def _display_forms(lang: str) -> Mapping[str, str] | None:
    """The display forms of a built-in list (the shipped English list has them), read on first use."""
    if lang != "en":
        return None
    from .crossword_list import DisplayForms

    return DisplayForms()
