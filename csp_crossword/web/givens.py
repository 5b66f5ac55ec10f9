"""The page's rows of the entries the user wrote that the word list lacks (the library keeps them
as given: :mod:`csp_crossword.api.givens`).

An opened puzzle, or a grid where the constructor typed a word of their own, has complete entries
the chosen list does not hold (ABOW, a name, a theme phrase): the page shows them as given.
"""

from __future__ import annotations

from typing import Any

from ..api.givens import entries_outside

__all__ = ["entries_outside", "given_rows"]


def given_rows(outside: dict[str, str]) -> list[dict[str, Any]]:
    """The answer's ``given`` rows: the entries kept although the list lacks them."""
    return [{"slot": slot_id, "answer": entry} for slot_id, entry in outside.items()]
