"""The driver's independent check of a batch result: the file as written, read back.

The worker's library call already verified its fill; this checks what the user gets instead:
the file in the output folder, parsed again by our reader for its format, its solution checked by
:func:`csp_crossword.verify.fill.verify_fill` against the job's own word list (loaded here, in the
driver), its pattern against the job's grid (``fill``: same blocks, givens kept) or the American
rules (:func:`csp_crossword.verify.fill.pattern_problems`). A file that fails is removed and its job
recorded as failed: a wrong puzzle never stays in the folder.
"""

from __future__ import annotations

import os

from ..api.word_sources import WordCache
from ..core.errors import InputError
from ..core.grid import Grid
from ..verify.fill import pattern_problems, verify_fill
from ..words.lexicon import Lexicon
from .spec import BatchJob


class ResultChecker:
    """Checks result files, keeping each word list it loads (the driver's own copy)."""

    def __init__(self) -> None:
        self._words = WordCache()
        self._filtered: dict[tuple[str, int | None, tuple[str, ...]], Lexicon] = {}

    def problems(self, job: BatchJob, path: str) -> list[str]:
        """What is wrong with the result file of ``job`` at ``path`` (empty: it is right)."""
        from ..formats import read_crossword

        try:
            puzzle = read_crossword(path, rtl=job.settings.get("lang") == "ar")
        except InputError as error:
            return [f"the file does not read back: {error.message}"]
        if puzzle.solution is None:
            return ["the file has no solution"]
        cells = puzzle.solution
        if job.kind == "fill":
            return self._fill_problems(job, cells)
        if job.kind == "generate":
            return self._generate_problems(job, puzzle.grid, cells)
        return self._freeform_problems(job, puzzle.grid, cells)

    def _fill_problems(self, job: BatchJob, cells: tuple[tuple[str | None, ...], ...]) -> list[str]:
        from ..api import open_grid

        if job.grid_path is None:
            return ["the job names no grid"]
        grid_file = open_grid(job.grid_path, rtl=job.settings.get("lang") == "ar")
        own = grid_file.words()
        lexicon = own if own is not None else self._lexicon(job)
        return verify_fill(
            grid_file.grid,
            cells,
            lexicon,
            allow_duplicates=bool(job.settings.get("allow_duplicates", False)),
            exact_uses=own.multiplicity if own is not None else None,
            no_shared_substring=job.settings.get("no_shared_substring"),
        )

    def _generate_problems(self, job: BatchJob, grid: Grid, cells: tuple[tuple[str | None, ...], ...]) -> list[str]:
        rows, cols = job.settings["size"]
        if (grid.rows, grid.cols) != (rows, cols):
            return [f"the grid is {grid.rows}x{grid.cols}, not {rows}x{cols}"]
        numeric = job.settings.get("numeric", False)
        problems = verify_fill(
            grid,
            cells,
            self._lexicon(job, numeric=numeric),
            allow_duplicates=bool(job.settings.get("allow_duplicates", False)),
            no_shared_substring=job.settings.get("no_shared_substring"),
        )
        if job.settings.get("style", "open" if numeric else "american") == "american":
            problems += pattern_problems(
                cells,
                symmetry=job.settings.get("symmetry", "rotational"),
                max_words=job.settings.get("max_words"),
                max_run=job.settings.get("max_run"),
            )
        return problems

    def _freeform_problems(self, job: BatchJob, grid: Grid, cells: tuple[tuple[str | None, ...], ...]) -> list[str]:
        problems = verify_fill(grid, cells, self._words.lexicon(job.words))
        if not job.settings.get("allow_islands", False) and not grid.stats().connected:
            problems.append("the board is not one connected piece")
        return problems

    def _lexicon(self, job: BatchJob, *, numeric: bool = False) -> Lexicon:
        if numeric:
            from ..words.numeric import products_lexicon

            return products_lexicon()
        min_score = job.settings.get("min_score")
        ban = tuple(job.settings.get("ban", ()))
        key = (job.words.key, min_score, ban)
        if key not in self._filtered:
            whole = self._words.lexicon(job.words)
            self._filtered[key] = whole.filtered(min_score=min_score, banned=ban) if min_score or ban else whole
        return self._filtered[key]


def remove_quietly(path: str) -> None:
    """Remove a rejected result file (gone already is fine)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


__all__ = ["ResultChecker", "remove_quietly"]
