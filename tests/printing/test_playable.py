"""The playable page (``render --format play``, POST /api/print with format "play"): one HTML file
with nothing to fetch, the puzzle embedded as JSON that no clue can break out of, the answers,
styles and right-to-left direction carried; the player's script parsed by node when it is here.
Playing it in a browser is tests/web/test_web_play_browser.py."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import CellStyle, LockedSolution, Puzzle, write_crossword
from csp_crossword.printing import rendering
from csp_crossword.printing.playable import embed_json, play_data, playable_html

SQUARE = ("HEART", "EMBER", "ABUSE", "RESIN", "TREND")
HOSTILE = '</script><script>alert("x")</script><!-- & </SCRIPT >'


def square_puzzle(**changes) -> Puzzle:
    puzzle = Puzzle(
        parse_grid("\n".join("." * 5 for _ in range(5))),
        solution=tuple(tuple(row) for row in SQUARE),
        clues={"1A": "Organ that beats", "6A": "Glowing coal", "1D": "Organ that beats"},
        title="Word square",
        author="A. Teacher",
    )
    for name, value in changes.items():
        setattr(puzzle, name, value)
    return puzzle


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._open = tag
            self.scripts.append((dict(attrs), ""))
        elif tag == "style":
            self._open = tag
            self.styles.append("")

    def handle_endtag(self, tag):
        if tag == self._open:
            self._open = None

    def handle_data(self, data):
        if self._open == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        elif self._open == "style":
            self.styles[-1] += data


def parse(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    parser.close()
    return parser


def embedded(page: str) -> dict:
    (text,) = [text for attrs, text in parse(page).scripts if attrs.get("type") == "application/json"]
    return json.loads(text)


def test_the_page_fetches_nothing():
    page = playable_html(square_puzzle())
    assert not re.search(r"https?://", page)
    elements = parse(page)
    for tag, attrs in elements.tags:
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith("data:"), (tag, name, value)
    assert not [tag for tag, _ in elements.tags if tag in ("iframe", "object", "embed", "img", "frame")]
    # and its content security policy forbids fetching anything but lets exactly its own script and style run
    (policy,) = [
        a["content"] for t, a in elements.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert "default-src 'none'" in policy
    (script,) = [text for attrs, text in elements.scripts if "type" not in attrs]
    (style,) = elements.styles
    for text in (script, style):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy


def test_a_clue_that_closes_the_script_stays_inside_the_data():
    puzzle = square_puzzle(clues={"1A": HOSTILE, "6A": "line\u2028separator"}, title=HOSTILE)
    page = playable_html(puzzle)
    elements = parse(page)
    assert len(elements.scripts) == 2  # the data and the player: the clue made no element
    assert page.lower().count("</script") == 2
    assert "<!--" not in page
    data = embedded(page)
    assert data["clues"]["1A"] == HOSTILE
    assert data["clues"]["6A"] == "line\u2028separator"
    assert f"<title>{html.escape(HOSTILE)}</title>" in page
    assert embed_json({"k": "<&>"}) == '{"k":"\\u003c\\u0026\\u003e"}'


def test_the_data_carries_answers_clues_styles_and_direction():
    styles = {(2, 2): CellStyle(circle=True), (0, 4): CellStyle(shaded=True, color="#ffcc00"), (1, 1): CellStyle()}
    data = embedded(playable_html(square_puzzle(styles=styles)))
    assert ["".join(row) for row in data["solution"]] == list(SQUARE)
    assert data["clues"] == {"1A": "Organ that beats", "6A": "Glowing coal", "1D": "Organ that beats"}
    assert data["styles"] == {
        "0,4": {"circle": False, "shaded": True, "color": "#ffcc00", "bars": []},
        "2,2": {"circle": True, "shaded": False, "color": "", "bars": []},
    }
    assert (data["title"], data["author"], data["rtl"], data["freeform"]) == ("Word square", "A. Teacher", False, False)

    arabic = Puzzle(
        parse_grid("..#\n...\n#..", rtl=True), solution=(("ب", "ا", None), ("ي", "ت", "ك"), (None, "ن", "ا"))
    )
    data = play_data(arabic)
    assert data["rtl"] is True
    assert data["solution"][0] == ["ب", "ا", None]


def test_blocks_voids_and_given_letters():
    puzzle = Puzzle(
        parse_grid("A.#\n...\n#.."),
        solution=(("A", "B", None), ("C", "D", "E"), (None, "F", "G")),
        voids=frozenset({(2, 0)}),
    )
    data = play_data(puzzle)
    assert data["solution"] == [["A", "B", None], ["C", "D", "E"], [None, "F", "G"]]
    assert data["given"] == [[0, 0]]
    assert data["voids"] == [[2, 0]]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"solution": None}, "needs its solution"),
        ({"solution": None, "locked": LockedSolution("X" * 25, 0)}, "locked"),
        ({"solution": (("H", "E", "A", "R", ""),) + tuple(tuple(row) for row in SQUARE[1:])}, "cell (1, 5)"),
    ],
)
def test_a_puzzle_without_its_answers_cannot_be_played(changes, said):
    with pytest.raises(InputError, match=re.escape(said)):
        playable_html(square_puzzle(**changes))


def test_render_and_the_cli_write_the_playable_page(tmp_path, capsys):
    assert rendering.render(square_puzzle(), "play") == playable_html(square_puzzle())
    source = tmp_path / "square.ipuz"
    write_crossword(source, square_puzzle())
    out = tmp_path / "square.html"
    assert main(["render", str(source), "--format", "play", "-o", str(out)]) == 0
    data = embedded(out.read_text(encoding="utf-8"))
    assert ["".join(row) for row in data["solution"]] == list(SQUARE)
    assert data["clues"]["6A"] == "Glowing coal"
    capsys.readouterr()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_node_parses_the_inlined_player(tmp_path):
    (script,) = [text for attrs, text in parse(playable_html(square_puzzle())).scripts if "type" not in attrs]
    path = tmp_path / "player.js"
    path.write_text(script, encoding="utf-8")
    proc = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_the_download_name_survives_any_title():
    pytest.importorskip("fastapi")
    from csp_crossword.web.puzzle_files import attachment, download_name

    header = attachment(download_name("جدول: الكلمات", "html"))
    header.encode("latin-1")  # an HTTP header: no other characters
    assert header == (
        "attachment; filename=\"puzzle.html\"; filename*=UTF-8''"
        "%D8%AC%D8%AF%D9%88%D9%84%20%D8%A7%D9%84%D9%83%D9%84%D9%85%D8%A7%D8%AA.html"
    )
    assert attachment(download_name("Word square / 2", "html")) == (
        "attachment; filename=\"Word square  2.html\"; filename*=UTF-8''Word%20square%20%202.html"
    )
