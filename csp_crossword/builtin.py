"""The built-in word lists, derived from wordfreq and cached in the user cache directory.

Score mapping (documented in ``docs/formats.md``): a word's Zipf frequency ``z`` (log10 of its
frequency per billion words; wordfreq's large lists run from about 1 to 7.7) becomes

    score = clamp(round(1 + 99 * (z - ZIPF_FLOOR) / (ZIPF_CEILING - ZIPF_FLOOR)), 1, 100)

so the rarest listed words score 1 and everything at least as common as Zipf 6 ("the", "people")
scores 100.
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import re
import unicodedata
from importlib import resources

from .files import write_atomically
from .glyphs import split_glyphs
from .lexicon import Lexicon, ReadyIndex

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
#: apart (offered only with allow_offensive).
CACHE_FORMAT = 4

LANGUAGES = ("en", "ar", "bn")

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
    if lang == "en":
        return word.upper() if _ENGLISH_WORD.fullmatch(word) else None
    if lang == "ar":
        word = _ARABIC_MARKS.sub("", word)
        return word if _ARABIC_WORD.fullmatch(word) else None
    if lang == "bn":
        return word if _BANGLA_WORD.fullmatch(word) else None
    raise ValueError(f"no built-in word list for language {lang!r}")


def _blocklist(lang: str) -> set[str]:
    """Our list of slurs: never offered, whatever the options."""
    try:
        text = resources.files("csp_crossword").joinpath(f"data/blocklist-{lang}.txt").read_text("utf-8")
    except FileNotFoundError:
        return set()
    return {line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def vulgar_words(lang: str) -> set[str]:
    """Entries of a maintained profanity list (better-profanity's, MIT licence; English only):
    left out of the built-in list unless the user allows offensive words. One entry per line of
    that list; its multi-word lines are phrases, never split into their words."""
    if lang != "en":
        return set()
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


def derive_scores(lang: str) -> dict[str, int]:
    """Build the entry -> score table of a language from wordfreq's large list (slow: ~1 s).
    Slurs (our blocklist) are never in it; vulgar words are (see :func:`vulgar_words`)."""
    import wordfreq

    frequencies = wordfreq.get_frequency_dict(lang, wordlist="large")
    blocked = _blocklist(lang)
    scores: dict[str, int] = {}
    for word, freq in frequencies.items():
        entry = _normalize(word, lang)
        if entry is None or entry in blocked:
            continue
        n = len(entry) if lang == "en" else len(split_glyphs(entry))
        if not MIN_LENGTH <= n <= MAX_LENGTH:
            continue
        score = zipf_to_score(math.log10(freq) + 9)
        if score > scores.get(entry, 0):
            scores[entry] = score
    return scores


def cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "csp-crossword")


def cache_path(lang: str) -> str:
    # The installed version from its metadata: importing wordfreq itself costs ~0.2 s, which a
    # fill from the cache should not pay.
    from importlib import metadata

    versions = []
    for distribution in ("wordfreq", "better-profanity"):
        try:
            versions.append(metadata.version(distribution))
        except metadata.PackageNotFoundError:
            versions.append("none")
    # Our slur list is part of the derivation too: a changed list makes a new cache.
    blocklist = resources.files("csp_crossword").joinpath(f"data/blocklist-{lang}.txt")
    digest = hashlib.sha256(blocklist.read_bytes() if blocklist.is_file() else b"").hexdigest()[:12]
    stamp = f"v{CACHE_FORMAT}-wordfreq-{versions[0]}-profanity-{versions[1]}-{digest}"
    return os.path.join(cache_dir(), f"builtin-{lang}-{stamp}.pickle")


def builtin_lexicon(lang: str = "en", *, allow_offensive: bool = False) -> Lexicon:
    """The built-in word list of a language ("en", "ar" or "bn"), cached after the first build.

    Vulgar words are left out unless ``allow_offensive``; slurs are never in it. A cache that
    cannot be read is rebuilt; a cache directory that cannot be written only costs the rebuild
    next time.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no built-in word list for language {lang!r}; choose from {', '.join(LANGUAGES)}")
    path = cache_path(lang)
    name = f"built-in ({lang})"
    try:
        with open(path, "rb") as handle:
            cached = pickle.load(handle)
        if isinstance(cached, dict) and cached.get("packed") and isinstance(cached.get("vulgar"), dict):
            clean = Lexicon(None, name=name, ready=ReadyIndex(cached["packed"], cached["alphabet"]))
            return _with_vulgar(clean, cached["vulgar"]) if allow_offensive else clean
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError, KeyError, TypeError):
        pass
    scores = derive_scores(lang)
    banned = vulgar_words(lang)
    vulgar = {entry: scores.pop(entry) for entry in sorted(banned) if entry in scores}
    ready = ReadyIndex.of(scores)
    try:
        payload = {**ready.to_dict(), "vulgar": vulgar}
        write_atomically(path, pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass
    clean = Lexicon(scores, name=name, ready=ready)
    return _with_vulgar(clean, vulgar) if allow_offensive else clean


def _with_vulgar(clean: Lexicon, vulgar: dict[str, int]) -> Lexicon:
    return Lexicon({**clean.scores, **vulgar}, name=f"{clean.name}, offensive words allowed")
