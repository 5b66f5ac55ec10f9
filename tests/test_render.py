"""Rendering: numbering read back from a parsed SVG, right-to-left numbering, HTML, PDF and PNG."""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from csp_crossword.cli import main
from csp_crossword.formats import Puzzle, write_crossword
from csp_crossword.grid import parse_grid
from csp_crossword.rendering import grid_svg, page_html

from conftest import GRIDS

SVG = "{http://www.w3.org/2000/svg}"


def numbers_in(svg: str) -> dict[tuple[int, int], int]:
    root = ET.fromstring(svg)
    return {
        (int(t.get("data-row")), int(t.get("data-col"))): int(t.text)
        for t in root.iter(f"{SVG}text")
        if t.get("class") == "number"
    }


def expected_numbers(rows: list[str], rtl: bool = False) -> dict[tuple[int, int], int]:
    """Standard numbering, computed here from the row strings: a cell gets the next number when
    an across or down entry of two or more cells starts there."""
    height, width = len(rows), len(rows[0])
    open_ = lambda r, c: 0 <= r < height and 0 <= c < width and rows[r][c] != "#"  # noqa: E731
    step = -1 if rtl else 1
    found, number = {}, 0
    for r in range(height):
        for c in range(width - 1, -1, -1) if rtl else range(width):
            if not open_(r, c):
                continue
            across = not open_(r, c - step) and open_(r, c + step)
            down = not open_(r - 1, c) and open_(r + 1, c)
            if across or down:
                number += 1
                found[(r, c)] = number
    return found


def test_svg_numbers_match_the_standard_numbering():
    rows = (GRIDS / "american" / "am15-01.txt").read_text().split()
    svg = grid_svg(Puzzle(parse_grid("\n".join(rows))))
    assert numbers_in(svg) == expected_numbers(rows)
    blocks = sum(row.count("#") for row in rows)
    assert svg.count('class="block"') == blocks
    assert 'class="letter"' not in svg


def test_right_to_left_numbering_starts_top_right():
    rows = ["...#", "#...", "...."]
    svg = grid_svg(Puzzle(parse_grid("\n".join(rows), rtl=True)))
    got = numbers_in(svg)
    assert got == expected_numbers(rows, rtl=True)
    assert got[(0, 2)] == 1  # the rightmost open cell of the top row
    root = ET.fromstring(svg)
    assert all(t.get("text-anchor") == "end" for t in root.iter(f"{SVG}text") if t.get("class") == "number")


def test_solution_letters_and_freeform_cells():
    solution = (("C", "A", "T"), ("A", None, None), ("B", None, None))
    grid = parse_grid("...\n.##\n.##")
    svg = grid_svg(Puzzle(grid, solution=solution, freeform=True), solution=True)
    root = ET.fromstring(svg)
    assert sorted(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "letter") == sorted("CATAB")
    assert 'class="block"' not in svg  # a freeform board draws nothing where no letter goes


def test_html_page_has_clues_and_direction():
    grid = parse_grid("كت\nب.", rtl=True)
    page = page_html(Puzzle(grid, clues={"1A": "كلمة <أولى>"}, title="تجربة"))
    assert 'dir="rtl"' in page and "كلمة &lt;أولى&gt;" in page and "<h2>Across</h2>" in page


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def puzzle_file(tmp_path):
    grid = parse_grid("...#\n....\n#...")
    solution = (("C", "A", "T", None), ("A", "B", "L", "E"), (None, "B", "E", "D"))
    path = tmp_path / "p.ipuz"
    write_crossword(path, Puzzle(grid, solution=solution, clues={"1A": "Feline"}, title="Tiny"))
    return path


def test_cli_render_svg_to_stdout_and_binary_needs_output(capsys, puzzle_file):
    code, out, _ = run(capsys, "render", puzzle_file)
    assert code == 0 and numbers_in(out) == expected_numbers(["...#", "....", "#..."])
    assert run(capsys, "render", puzzle_file, "--format", "pdf")[0] == 2


def test_cli_render_pdf_and_png(capsys, puzzle_file, tmp_path):
    pytest.importorskip("weasyprint")
    pdf = tmp_path / "p.pdf"
    code, _, err = run(capsys, "render", puzzle_file, "--output", pdf)
    if code == 2 and "Pango" in err:
        pytest.skip("the Pango libraries are not installed")
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")
    png = tmp_path / "p.png"
    assert run(capsys, "render", puzzle_file, "--solution", "--output", png)[0] == 0
    from PIL import Image

    image = Image.open(io.BytesIO(png.read_bytes())).convert("L")
    dark = sum(image.histogram()[:128])
    assert image.size[0] > 500 and 0.001 < dark / (image.size[0] * image.size[1]) < 0.5  # ink, not a blank page
    if shutil.which("pdftoppm"):  # an independent rasteriser of our PDF
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-singlefile", str(pdf), str(tmp_path / "pp")], check=True)
        assert Image.open(tmp_path / "pp.png").size[0] > 300


def test_cli_render_solution_of_a_pattern_is_an_error(capsys, tmp_path):
    path = tmp_path / "g.ipuz"
    write_crossword(path, Puzzle(parse_grid("..\n..")))
    code, _, err = run(capsys, "render", path, "--solution")
    assert code == 2 and "no solution" in err
