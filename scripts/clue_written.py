"""Clues written for this project, one file per batch in ``scripts/clues_written/*.tsv``: the
entries default fills of the American patterns use most, each clued the way a crossword editor
would print it (the common sense, short, fair, in the entry's number and tense), by language-model
writers given those instructions and told never to copy published clues.

A file holds lines ``ENTRY<TAB>CLUE[<TAB>CLUE...]``, best first; ``#`` starts a comment line.
The build reads the files in name order and keeps an entry's clues from the first file that has
it; every clue still has to keep the rules of ``csp_crossword.clues.rules`` (the build drops one
that does not)."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "clues_written"


class WrittenClueError(ValueError):
    """A line of a written clue file that cannot be read, named by file and line."""


def read_written(folder: Path = FOLDER) -> dict[str, tuple[str, ...]]:
    """Entry -> its written clues, best first, from every ``*.tsv`` file of ``folder``."""
    clues: dict[str, tuple[str, ...]] = {}
    for path in sorted(folder.glob("*.tsv")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            entry, _, rest = line.partition("\t")
            entry = entry.strip().upper()
            texts = tuple(" ".join(t.split()) for t in rest.split("\t") if t.strip())
            if not entry.isalnum() or not texts:
                raise WrittenClueError(f"{path.name}:{number}: expected ENTRY<TAB>CLUE, got {line!r}")
            clues.setdefault(entry, texts)
    return clues
