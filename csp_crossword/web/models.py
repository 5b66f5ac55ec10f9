"""Request bodies of the web API (pydantic), and their conversion to library values.

Every field is bounded here, so a request the models accept is one the library can take: grids
up to :data:`MAX_WEB_GRID_SIDE` a side, time limits up to :data:`MAX_TIME_LIMIT`, lists and texts
of bounded length. Unknown fields are refused (422, naming the field).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, model_validator

from ..backends.base import MAX_SEED
from ..core.errors import InputError
from ..core.grid import Grid, parse_grid
from ..core.limits import MAX_CLUE_CHARS
from ..formats import EDGES
from ..layout.freeform import MAX_FREEFORM_WORD_GLYPHS
from ..layout.progressive import (
    MAX_NEIGHBOURS,
    MAX_QUEUE_SIZE,
    MAX_THRESHOLD,
    NBSIZE,
    QMAXSIZE,
    SCRAMBLED_WEIGHT,
    STARTS,
    THRESHOLD,
)
from .overrides import MAX_BATCH_CHANGES, MAX_SET_NAME_CHARS, MAX_WEB_SCORE, MIN_WEB_SCORE, SET_NAME_PATTERN

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


#: The most characters a cell may hold: a glyph, or a rebus cell's several letters.
MAX_CELL_CHARS = 32
CellValue = Annotated[str, Field(max_length=MAX_CELL_CHARS)] | None
#: One row of a grid: bounded, so a huge row is refused at once, not item by item.
CellRow = Annotated[list[CellValue], Field(max_length=MAX_WEB_GRID_SIDE)]


class GridModel(Strict):
    """A grid: ``cells`` rows of ``null`` (block or void), ``""`` (empty), one glyph, or a rebus
    cell's several letters (``"HEART"``)."""

    cells: list[CellRow] = Field(min_length=1, max_length=MAX_WEB_GRID_SIDE)
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
                elif value in _RESERVED_CELLS or any(ch.isspace() for ch in value):
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
    #: ``auto``: US spellings from the built-in English list on an American-style grid
    #: (:func:`csp_crossword.api.resolve_spelling`); ``us``, ``uk``, ``any``.
    spelling: Literal["auto", "us", "uk", "any"] = "auto"
    allow_shared_roots: bool = False
    #: A named overrides set applied on top of the list (web/overrides.py).
    overrides: str | None = Field(None, max_length=MAX_SET_NAME_CHARS, pattern=SET_NAME_PATTERN)

    def fill_settings(self) -> dict[str, Any]:
        """The keyword settings of the library's fill, check, count and candidates."""
        return {
            "lang": self.lang,
            "min_score": self.min_score,
            "ban": list(self.ban),
            "allow_duplicates": self.allow_duplicates,
            "no_shared_substring": self.no_shared_substring,
            "allow_shared_roots": self.allow_shared_roots,
        }

    def kept_spelling(self, grid: Grid | None) -> str:
        """The spelling the list keeps to for ``grid`` (None: a generated grid, American-style)."""
        from ..api import resolve_spelling

        own = self.words != "builtin"
        if grid is None:
            return ("us" if self.lang == "en" and not own else "any") if self.spelling == "auto" else self.spelling
        return resolve_spelling(self.spelling, grid, self.lang, own_list=own)


class GridRequest(Strict):
    grid: GridModel


class CandidatesRequest(WordSettings):
    grid: GridModel
    slot: str = Field(max_length=16)
    limit: int = Field(50, ge=1, le=MAX_CANDIDATES)


class FillabilityRequest(WordSettings):
    """The grid as it is being edited: how many words each slot keeps, and which have none."""

    grid: GridModel


class CluesRequest(WordSettings):
    grid: GridModel
    #: list: the word list's clues only; chain: the list's, then the clue database's, then the
    #: built-in clues (the page's "Fill empty clues").
    sources: Literal["list", "chain"] = "list"


#: Most suggestions one request may ask for.
MAX_CLUE_SUGGESTIONS = 50


class ClueSuggestRequest(WordSettings):
    """An entry's clue suggestions: ``entry`` is its answer, or a slot id ("12A") of ``grid``."""

    grid: GridModel | None = None
    entry: str = Field(min_length=1, max_length=4 * MAX_WEB_GRID_SIDE)
    limit: int = Field(10, ge=1, le=MAX_CLUE_SUGGESTIONS)


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


#: Theme entries a generate request may place, and the characters of one (a glyph may take several).
MAX_THEME_ENTRIES = 8
MAX_THEME_CHARS = 4 * MAX_WEB_GRID_SIDE


def _progressive_start(value: str) -> str:
    if value not in STARTS:
        raise ValueError(f"the progressive search starts with one of {', '.join(STARTS)}, not {value[:20]!r}")
    return value


class ProgressiveModel(Strict):
    """The open style's progressive search options (``layout.progressive.ProgressiveOptions``)."""

    start: Annotated[str, AfterValidator(_progressive_start)] = STARTS[0]
    queue_size: int = Field(QMAXSIZE, ge=1, le=MAX_QUEUE_SIZE)
    neighbours: int = Field(NBSIZE, ge=1, le=MAX_NEIGHBOURS)
    threshold: float = Field(THRESHOLD, ge=0, le=MAX_THRESHOLD)
    scrambled_weight: float = Field(SCRAMBLED_WEIGHT, ge=0, le=1)


class GenerateJobRequest(WordSettings, JobLimits):
    """A grid made from a size: an American-style pattern (``fill`` false: the pattern alone) or
    an open-style layout (always filled). See ``api.generate`` and ``api.american_pattern``."""

    kind: Literal["generate"]
    rows: int = Field(15, ge=3, le=MAX_WEB_GRID_SIDE)
    cols: int = Field(15, ge=3, le=MAX_WEB_GRID_SIDE)
    style: Literal["american", "open"] = "american"
    fill: bool = True
    blocks: int | None = Field(None, ge=0, le=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE // 3)
    max_words: int | None = Field(None, ge=6, le=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE)
    symmetry: Literal["rotational", "mirror"] | None = None  # the american style's; None: rotational
    max_run: int | None = Field(None, ge=2, le=MAX_WEB_GRID_SIDE)
    entries: list[Annotated[str, Field(min_length=1, max_length=MAX_THEME_CHARS)]] = Field(
        default_factory=list, max_length=MAX_THEME_ENTRIES
    )
    method: Literal["auto", "csp", "progressive"] = "auto"
    symmetric: bool = False
    progressive: ProgressiveModel | None = None
    #: A fill may use entries no clue source clues (by default it uses only entries that the word
    #: list, the clue database or the built-in clues give a clue, as ``generate -o x.puz`` does).
    allow_unclued: bool = False

    @model_validator(mode="after")
    def _style_fields(self) -> GenerateJobRequest:
        """Each style's own fields only (a field the style ignores would be a silent surprise)."""
        if self.style == "american":
            if self.method != "auto" or self.progressive is not None or self.symmetric:
                raise ValueError("method, progressive and symmetric are the open style's (american: symmetry)")
        else:
            if not self.fill:
                raise ValueError("the open style always fills its layout: fill false is the american style's")
            if self.entries or self.blocks is not None or self.max_words is not None or self.symmetry is not None:
                raise ValueError("entries, blocks, max_words and symmetry are the american style's")
            if self.progressive is not None and self.method == "csp":
                raise ValueError("progressive options apply to the progressive and auto methods")
        return self


AnyJobRequest = Annotated[
    FillJobRequest | CheckJobRequest | CountJobRequest | FreeformJobRequest | GenerateJobRequest,
    Field(discriminator="kind"),
]


class JobRequest(RootModel[AnyJobRequest]):
    """A job of any kind, told apart by ``kind`` (an unknown kind is a 422 naming the choices)."""


#: A cell style's colour: ``#rrggbb`` (or empty: grey when shaded).
STYLE_COLOR_PATTERN = r"^(#[0-9a-fA-F]{6})?$"


def _edge(value: str) -> str:
    if value not in EDGES:
        raise ValueError(f"a bar runs along one of {', '.join(EDGES)}, not {value[:20]!r}")
    return value


Edge = Annotated[str, AfterValidator(_edge)]
#: A cell position: 0-based row and column, checked against the grid's size in puzzle_files.page_to_puzzle.
CellIndex = Annotated[int, Field(ge=0, lt=MAX_WEB_GRID_SIDE)]


class CellStyleModel(Strict):
    """How one cell is drawn beyond its glyph (the library's ``CellStyle``), 0-based row and col."""

    row: CellIndex
    col: CellIndex
    circle: bool = False
    shaded: bool = False
    color: str = Field("", pattern=STYLE_COLOR_PATTERN)
    bars: list[Edge] = Field(default_factory=list, max_length=4)


class PuzzleModel(Strict):
    """A puzzle to save or print: the pattern, the answers when known, clues and metadata; cell
    styles (circles, shading, bars) and void cells (``null`` in the grid's cells, like blocks)."""

    grid: GridModel
    solution: list[CellRow] | None = Field(None, max_length=MAX_WEB_GRID_SIDE)
    clues: dict[Annotated[str, Field(max_length=16)], Annotated[str, Field(max_length=MAX_CLUE_CHARS)]] = Field(
        default_factory=dict, max_length=4 * MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE
    )
    title: str = Field("", max_length=500)
    author: str = Field("", max_length=500)
    copyright: str = Field("", max_length=500)
    notes: str = Field("", max_length=MAX_CLUE_CHARS)
    freeform: bool = False
    styles: list[CellStyleModel] = Field(default_factory=list, max_length=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE)
    voids: list[tuple[CellIndex, CellIndex]] = Field(
        default_factory=list, max_length=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE
    )
    #: The constructor's locks and the cells an autofill wrote (0-based; kept by .ipuz and .json).
    locked_cells: list[tuple[CellIndex, CellIndex]] = Field(
        default_factory=list, max_length=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE
    )
    filled_cells: list[tuple[CellIndex, CellIndex]] = Field(
        default_factory=list, max_length=MAX_WEB_GRID_SIDE * MAX_WEB_GRID_SIDE
    )


class SaveRequest(Strict):
    puzzle: PuzzleModel
    format: Literal["puz", "ipuz", "xd", "json", "txt"]


class PrintRequest(Strict):
    puzzle: PuzzleModel
    solution: bool = False
    #: ``play``: one HTML file that plays the puzzle offline (answers inside), as a download.
    format: Literal["pdf", "svg", "html", "play"] = "pdf"
    #: Freeform mode: the word-search square (the board's letters, random ones between); when
    #: given, the page printed is the word search of the puzzle's words (web/freeform_api.py).
    wordsearch: list[Annotated[list[CellValue], Field(max_length=MAX_WEB_GRID_SIDE)]] | None = Field(
        None, min_length=1, max_length=MAX_WEB_GRID_SIDE
    )


class OverridesCreate(Strict):
    """A new, empty overrides set."""

    name: str = Field(max_length=MAX_SET_NAME_CHARS, pattern=SET_NAME_PATTERN)


class OverridesChange(Strict):
    """One edit of an overrides set: ``set`` a word's score (adding it; 0 bans), ``ban`` it,
    ``unban`` it or ``remove`` it from the set."""

    action: Literal["set", "ban", "unban", "remove"]
    word: str = Field(min_length=1, max_length=MAX_FREEFORM_WORD_GLYPHS * 4)
    score: int | None = Field(None, ge=MIN_WEB_SCORE, le=MAX_WEB_SCORE)


class OverridesBatch(Strict):
    changes: list[OverridesChange] = Field(min_length=1, max_length=MAX_BATCH_CHANGES)
