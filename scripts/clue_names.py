"""Clues for people's names from the 1990 US Census name lists (``build_builtin_clues.py``).

The Census Bureau's frequency lists of female first names, male first names and surnames (1990;
US government data, in the public domain) say which entries of the built-in list are names and
how common each is. They come with the ``names`` package on PyPI (``pip install names``: the
files ``dist.female.first``, ``dist.male.first`` and ``dist.all.last`` beside its module), or
from a folder holding those three files.

A first name gets a plain clue a solver can work with ("Woman's name"); a surname gets none here
(editors rate "Family name" no clue at all: SHEA, NYE and MAAS are clued by a bearer in the written
tables or not at all). The builder
offers it only after every clue WordNet and the written tables give, so a word that is also a
name (MAY, WILL, SMITH) keeps its meaning first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from csp_crossword.clues.builtin import (
    EITHERS_NAME,
    FIRST_NAMES,
    MANS_NAME,
    MENS_NAMES,
    WOMANS_NAME,
    WOMENS_NAMES,
)

FILES = {"female": "dist.female.first", "male": "dist.male.first", "last": "dist.all.last"}
#: A first name is a woman's (or a man's) when that share of people with it is at least this many
#: times the other's; else it is clued as either.
GENDER_RATIO = 3.0
#: A first name is clued as one only when at least this share of people (percent) has it: rarer
#: "names" (UTE, YER: one person in 100,000) are words to a solver, and "Woman's name" misleads.
MIN_FIRST_NAME_SHARE = 0.003
#: Surnames up to this rank count as names (the list runs to 88,799, down to one person in ten
#: million): past it a "surname" (HORA, BUB) is better known as a word.
MAX_SURNAME_RANK = 10_000


@dataclass(frozen=True)
class CensusNames:
    """Upper-case name -> share of people (percent) with it, per list; surname ranks."""

    female: dict[str, float]
    male: dict[str, float]
    surname_rank: dict[str, int]

    def clues(self, entry: str) -> list[str]:
        """The name clue of ``entry``: as a first name, else as a first name's plural (SHEILAS:
        "Women's names"); none for a surname or an entry not listed."""
        first = self._first_name(entry, (WOMANS_NAME, MANS_NAME, EITHERS_NAME))
        if first:
            return [first]
        if entry in self.surname_rank:
            return []
        plural = self._first_name(entry[:-1], (WOMENS_NAMES, MENS_NAMES, FIRST_NAMES)) if entry.endswith("S") else ""
        return [plural] if plural else []

    def _first_name(self, name: str, wording: tuple[str, str, str]) -> str:
        """``wording``'s woman's, man's or either's clue for a first name ("" when it is none)."""
        woman, man = self.female.get(name, 0.0), self.male.get(name, 0.0)
        if max(woman, man) < MIN_FIRST_NAME_SHARE:
            return ""
        if woman and woman >= GENDER_RATIO * man:
            return wording[0]
        if man and man >= GENDER_RATIO * woman:
            return wording[1]
        return wording[2] if woman or man else ""


def default_folder() -> Path | None:
    """The folder of the ``names`` package's Census files, if that package is installed."""
    try:
        import names  # type: ignore[import-not-found]
    except ImportError:
        return None
    folder = Path(names.__file__).parent
    return folder if all((folder / name).exists() for name in FILES.values()) else None


def read_census(folder: Path) -> CensusNames:
    """The three lists of ``folder``: lines ``NAME  FREQUENCY  CUMULATIVE  RANK``."""
    shares: dict[str, dict[str, float]] = {}
    ranks: dict[str, int] = {}
    for kind, name in FILES.items():
        table: dict[str, float] = {}
        with open(folder / name, encoding="ascii") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) != 4 or not fields[0].isalpha():
                    continue
                table[fields[0].upper()] = float(fields[1])
                if kind == "last" and int(fields[3]) <= MAX_SURNAME_RANK:
                    ranks[fields[0].upper()] = int(fields[3])
        shares[kind] = table
    return CensusNames(shares["female"], shares["male"], ranks)
