"""Request bodies of the web API (pydantic), and their conversion to library values.

Every field is bounded here, so a request the models accept is one the library can take: grids
up to :data:`MAX_WEB_GRID_SIDE` a side, time limits up to :data:`MAX_TIME_LIMIT`, lists and texts
of bounded length. Unknown fields are refused (422, naming the field).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from ..backends.base import MAX_SEED
from ..core.errors import InputError
from ..core.grid import Grid, parse_grid
from ..core.limits import MAX_CLUE_CHARS
from ..layout.freeform import MAX_FREEFORM_WORD_GLYPHS

#: The largest grid side the web constructor edits (a Sunday puzzle is 21 or 23).
MAX_WEB_GRID_SIDE = 25
#: Seconds a job may be given at most, and what it gets when the request says nothing.
MAX_TIME_LIMIT = 120.0
DEFAULT_TIME_LIMIT = 10.0
#: Words a request may ban, candidates it may ask for, entries of a freeform list.
MAX_BANNED = 10_000
MAX_CANDIDATES = 500
MAX_FREEFORM_ENTRIES = 400
#: The most fills a count job may count before it stops.
MAX_COUNT_LIMIT = 1_000_000

Language = Literal["en", "en-web", "ar", "bn"]
#: Cell values that mean something else in the grid text the library parses.
_RESERVED_CELLS = {"#", ".", "+"}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GridModel(Strict):
    """A grid: ``cells`` rows of ``null`` (block), ``""`` (empty) or one glyph."""

    cells: list[list[str | None]] = Field(min_length=1, max_length=MAX_WEB_GRID_SIDE)
    rtl: bool = False

    def to_grid(self) -> Grid:
        """The library's Grid (InputError naming the cell when a value is not a glyph)."""
        width = len(self.cells[0])
        if not 1 <= width <= MAX_WEB_GRID_SIDE:
            raise InputError(f"a grid row has 1 to {MAX_WEB_GRID_SIDE} cells (row 1 has {width})", "grid")
        lines = []
        for r, row in enumerate(self.cells):
            if len(row) != width:
                raise InputError(f"every row has {width} cells; row {r + 1} has {len(row)}", "grid")
            tokens = []
            for c, value in enumerate(row):
                if value is None:
                    tokens.append("#")
                elif value == "":
                    tokens.append(".")
                elif value in _RESERVED_CELLS or not value.strip() or value != value.strip():
                    raise InputError(f"cell ({r + 1}, {c + 1}) holds {value!r}, not a letter", "grid")
                else:
                    tokens.append(value)
            lines.append(" ".join(tokens))
        try:
            return parse_grid("\n".join(lines), "grid", rtl=self.rtl)
        except InputError as error:
            raise InputError(error.message, "grid") from None


class WordSettings(Strict):
    """The word list a request uses and the rules its fill keeps."""

    words: str = Field("builtin", max_length=64)
    lang: Language = "en"
    min_score: int | None = Field(None, ge=0, le=100)
    ban: list[Annotated[str, Field(max_length=MAX_FREEFORM_WORD_GLYPHS * 4)]] = Field(
        default_factory=list, max_length=MAX_BANNED
    )
    allow_offensive: bool = False
    allow_duplicates: bool = False
    no_shared_substring: int | None = Field(None, ge=2, le=MAX_WEB_GRID_SIDE)

    def fill_settings(self) -> dict[str, Any]:
        """The keyword settings of the library's fill, check, count and candidates."""
        return {
            "lang": self.lang,
            "min_score": self.min_score,
            "ban": list(self.ban),
            "allow_duplicates": self.allow_duplicates,
            "no_shared_substring": self.no_shared_substring,
        }


class GridRequest(Strict):
    grid: GridModel


class CandidatesRequest(WordSettings):
    grid: GridModel
    slot: str = Field(max_length=16)
    limit: int = Field(50, ge=1, le=MAX_CANDIDATES)


class CluesRequest(WordSettings):
    grid: GridModel


class JobLimits(Strict):
    time_limit: float = Field(DEFAULT_TIME_LIMIT, gt=0, le=MAX_TIME_LIMIT)
    seed: int = Field(0, ge=0, le=MAX_SEED)


class FillJobRequest(WordSettings, JobLimits):
    kind: Literal["fill"]
    grid: GridModel
    backend: Literal["ac", "cpsat", "auto", "pyconstraint"] = "ac"


class CheckJobRequest(WordSettings, JobLimits):
    kind: Literal["check"]
    grid: GridModel


class CountJobRequest(WordSettings, JobLimits):
    kind: Literal["count"]
    grid: GridModel
    limit: int | None = Field(1000, ge=1, le=MAX_COUNT_LIMIT)


class FreeformEntry(Strict):
    word: str = Field(min_length=1, max_length=MAX_FREEFORM_WORD_GLYPHS * 4)
    clue: str = Field("", max_length=MAX_CLUE_CHARS)


class FreeformJobRequest(JobLimits):
    kind: Literal["freeform"]
    entries: list[FreeformEntry] = Field(min_length=1, max_length=MAX_FREEFORM_ENTRIES)
    symmetric: bool = False
    rows: int | None = Field(None, ge=3, le=MAX_WEB_GRID_SIDE)
    cols: int | None = Field(None, ge=3, le=MAX_WEB_GRID_SIDE)


AnyJobRequest = Annotated[
    FillJobRequest | CheckJobRequest | CountJobRequest | FreeformJobRequest, Field(discriminator="kind")
]


class JobRequest(RootModel[AnyJobRequest]):
    """A job of any kind, told apart by ``kind`` (an unknown kind is a 422 naming the choices)."""


class PuzzleModel(Strict):
    """A puzzle to save or print: the pattern, the answers when known, clues and metadata."""

    grid: GridModel
    solution: list[list[str | None]] | None = None
    clues: dict[Annotated[str, Field(max_length=16)], Annotated[str, Field(max_length=MAX_CLUE_CHARS)]] = Field(
        default_factory=dict, max_length=4 * MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE
    )
    title: str = Field("", max_length=500)
    author: str = Field("", max_length=500)
    copyright: str = Field("", max_length=500)
    notes: str = Field("", max_length=MAX_CLUE_CHARS)
    freeform: bool = False


class SaveRequest(Strict):
    puzzle: PuzzleModel
    format: Literal["puz", "ipuz", "xd", "json", "txt"]


class PrintRequest(Strict):
    puzzle: PuzzleModel
    solution: bool = False
    format: Literal["pdf", "svg", "html"] = "pdf"
