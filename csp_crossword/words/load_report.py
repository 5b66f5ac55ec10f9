"""What loading a word list file skipped, by reason: the one warning the CLI prints per file.

>>> report = LoadReport("my.dict")
>>> report.skip(17, TOO_LONG, "'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN")
>>> report.skip(20, CHARACTERS, "'R&B' holds '&'")
>>> report.skip(21, MALFORMED, "score 'lots' is not a number")
>>> report.repeats = 2
>>> print(report.warning())  # doctest: +NORMALIZE_WHITESPACE
my.dict: skipped 3 entries: 1 longer than 255 glyphs (line 17: 'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN),
1 with characters other than letters, marks and digits (line 20: 'R&B' holds '&'), 1 malformed
(line 21: score 'lots' is not a number); merged 2 repeated entries (the highest score kept)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeGuard

from ..core.limits import MAX_WORD_GLYPHS

#: A word longer than any grid side (:data:`~csp_crossword.core.limits.MAX_WORD_GLYPHS`).
TOO_LONG = "long"
#: A word holding a character no cell can hold (cells take letters, marks and digits).
CHARACTERS = "characters"
#: Anything else: an empty word, a score that is not a number within bounds, a clue too long,
#: a JSON item that is not a word.
MALFORMED = "malformed"
#: An entry the built-in English list spells only the other way than the fill keeps to
#: (``--spelling us`` leaves out COLOUR); how the warning names it depends on the spelling.
SPELLING = "spelling"
#: The reasons, in the order the warning names them, and how it names them.
REASONS = {
    TOO_LONG: f"longer than {MAX_WORD_GLYPHS} glyphs",
    CHARACTERS: "with characters other than letters, marks and digits",
    MALFORMED: "malformed",
    SPELLING: "spelled the other way",
}
#: How the warning names the entries of the other spelling, by the spelling the fill keeps to.
OTHER_SPELLING = {"us": "spelled only the British way", "uk": "spelled only the American way"}
#: Lines quoted per reason; the rest of a reason are only counted (a list of thousands of bad
#: lines still warns in one short line, and a cached report stays small).
WARNING_EXAMPLES = 2


class Skip(NamedTuple):
    """One skipped line: its number (0 when unknown, as for a JSON item), the reason (a key of
    :data:`REASONS`) and what was wrong, as the warning quotes it."""

    line: int
    reason: str
    why: str

    def quoted(self) -> str:
        return f"line {self.line}: {self.why}" if self.line else self.why


@dataclass
class LoadReport:
    """What a loader skipped, so the CLI can warn once per file.

    Attributes:
        path: The file, as the caller named it.
        counts: Reason -> how many lines were skipped for it.
        examples: The first :data:`WARNING_EXAMPLES` skipped lines of each reason, in file order.
        repeats: Lines naming an entry listed before (merged into it: the highest score kept, or
            with ``last_wins`` the last one; each listing still counts as one use of the word).
        last_wins: Whether a repeat took the last score (override files) rather than the highest.
        spelling: The spelling the entries were kept to (``us``, ``uk``; ``any``: all kept).
    """

    path: str
    counts: dict[str, int] = field(default_factory=dict)
    examples: list[Skip] = field(default_factory=list)
    repeats: int = 0
    last_wins: bool = False
    spelling: str = "any"

    def skip(self, line: int, reason: str, why: str) -> None:
        """Count a skipped line, keeping it as an example while its reason has few."""
        seen = self.counts.get(reason, 0)
        self.counts[reason] = seen + 1
        if seen < WARNING_EXAMPLES:
            self.examples.append(Skip(line, reason, why))

    @property
    def skipped(self) -> int:
        """Lines skipped, for every reason."""
        return sum(self.counts.values())

    @property
    def malformed(self) -> list[tuple[int, str]]:
        """(line, what was wrong) of the skipped lines kept as examples, in file order."""
        return [(skip.line, skip.why) for skip in sorted(self.examples, key=lambda skip: skip.line)]

    def warning(self) -> str | None:
        """One line naming the file, what was skipped by reason (with the first lines of each)
        and how many repeats were merged; None when nothing was."""
        parts = []
        for reason, name in REASONS.items():
            count = self.counts.get(reason, 0)
            if not count:
                continue
            if reason == SPELLING:
                name = f"{OTHER_SPELLING.get(self.spelling, name)}, left out by --spelling {self.spelling}"
            quoted = [skip.quoted() for skip in self.examples if skip.reason == reason]
            more = "; ..." if count > len(quoted) else ""
            parts.append(f"{count:,} {name} ({'; '.join(quoted)}{more})")
        said = f"skipped {self.skipped:,} {'entry' if self.skipped == 1 else 'entries'}: {', '.join(parts)}"
        clauses = [said] if parts else []
        if self.repeats:
            kept = "last" if self.last_wins else "highest"
            noun = "entry" if self.repeats == 1 else "entries"
            clauses.append(f"merged {self.repeats:,} repeated {noun} (the {kept} score kept)")
        return f"{self.path}: {'; '.join(clauses)}" if clauses else None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON values (kept in a list's cache; the path is the caller's)."""
        return {
            "counts": dict(self.counts),
            "examples": [list(skip) for skip in self.examples],
            "repeats": self.repeats,
            "last_wins": self.last_wins,
            "spelling": self.spelling,
        }

    @classmethod
    def from_json(cls, path: str, data: object) -> LoadReport:
        """The report of :meth:`to_json` for ``path``; ValueError when ``data`` is not one."""
        if not isinstance(data, dict):
            raise ValueError("not a load report")
        counts, examples, repeats = data.get("counts"), data.get("examples"), data.get("repeats")
        if not isinstance(counts, dict) or not all(r in REASONS and _count(n) for r, n in counts.items()):
            raise ValueError("damaged load report counts")
        if not isinstance(examples, list) or not _count(repeats):
            raise ValueError("damaged load report")
        kept = []
        for item in examples:
            if not (isinstance(item, list) and len(item) == 3 and _count(item[0]) and item[1] in REASONS):
                raise ValueError("damaged load report example")
            if not isinstance(item[2], str):
                raise ValueError("damaged load report example")
            kept.append(Skip(item[0], item[1], item[2]))
        spelling = data.get("spelling")
        if not isinstance(spelling, str):
            raise ValueError("damaged load report spelling")
        return cls(path, dict(counts), kept, repeats, data.get("last_wins") is True, spelling)


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
