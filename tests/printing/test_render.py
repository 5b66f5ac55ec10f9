"""Rendering: numbering read back from a parsed SVG, right-to-left numbering, HTML, PDF and PNG;
the printed page (pages counted, pixels sampled in the rasterised PDF), paper sizes, the answer
key page, numbered PNG pages and the CLI's warnings."""

from __future__ import annotations

import functools
import io
import math
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import Grid, parse_grid
from csp_crossword.formats import CellStyle, ClueGroup, Puzzle, read_crossword, write_crossword
from csp_crossword.printing import rendering
from csp_crossword.printing.grid_drawing import CELL, PAD
from csp_crossword.printing.rendering import default_page, grid_svg, page_html

from conftest import GRIDS, SHARED

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


# ----------------------------------------------------------------------------- the printed page

WORDS = (
    "river old famous capital opera singer ancient Greek city poet painter small island north "
    "mountain range composer of a sonata Roman god of war Italian dish tree bird coin French wine"
)


def synthetic_clues(grid: Grid, seed: int = 15) -> dict[str, str]:
    """A clue of 20 to 60 characters for every slot, as a newspaper's clues run."""
    rng, words = random.Random(seed), WORDS.split()
    clues = {}
    for slot in grid.slots:
        size, text = rng.randint(20, 60), ""
        while len(text) < size:
            text += rng.choice(words) + " "
        clues[slot.id] = text[:size].strip().capitalize()
    return clues


def am15(**fields) -> Puzzle:
    grid = parse_grid((GRIDS / "american" / "am15-01.txt").read_text())
    return Puzzle(grid, clues=synthetic_clues(grid), title="Fifteen", author="A. Setter", **fields)


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of every page of a PDF (pypdfium2), whitespace collapsed."""
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(pdf)
    try:
        return [" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document))]
    finally:
        document.close()


@functools.cache
def pdf_unavailable() -> str:
    """Why PDF output cannot be made here (WeasyPrint or the Pango libraries missing), or ""."""
    try:
        rendering.page_pdf(Puzzle(parse_grid("..\n..")), page="a4")
    except InputError as error:
        return str(error)
    return ""


def needs_weasyprint():
    pytest.importorskip("weasyprint")
    if pdf_unavailable():
        pytest.skip(pdf_unavailable())


@pytest.mark.parametrize("paper, points", [("letter", (612, 792)), ("a4", (595, 842))])
def test_a_15x15_with_its_clues_prints_on_one_page(paper, points):
    needs_weasyprint()
    puzzle = am15()
    assert len(puzzle.grid.slots) >= 70
    pdf, count = rendering.pdf_document(puzzle, page=paper)
    pages = pdf_pages(pdf)
    assert count == len(pages) == 1
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(pdf)
    assert tuple(round(x) for x in document[0].get_size()) == points
    document.close()
    for clue in puzzle.clues.values():  # every clue printed whole: nothing clipped or lost
        assert clue in pages[0]
    font = float(re.search(r"body \{ margin: 0; font-size: ([\d.]+)pt", page_html(puzzle, page=paper)).group(1))
    assert font >= 8.0


def test_a_large_grid_takes_two_pages_with_clues_beside_the_grid():
    needs_weasyprint()
    grid = parse_grid("\n".join("." * 21 if r % 3 else "...#" * 5 + "." for r in range(21)))
    puzzle = Puzzle(grid, clues={s.id: f"A clue of some length for {s.id}, long" for s in grid.slots})
    pdf, count = rendering.pdf_document(puzzle, page="letter")
    pages = pdf_pages(pdf)
    assert count == len(pages) == 2
    assert "Across" in pages[0] and "1A" in pages[0]  # the first page is not the grid alone
    assert all(clue in pages[0] + pages[1] for clue in puzzle.clues.values())


def raster(pdf: bytes, tmp_path, page: int = 1):
    """Page ``page`` of the PDF as a greyscale image at 144 dpi (pdftoppm, else pypdfium2)."""
    from PIL import Image

    if shutil.which("pdftoppm"):
        path = tmp_path / "page.pdf"
        path.write_bytes(pdf)
        out = tmp_path / "raster"
        subprocess.run(
            ["pdftoppm", "-png", "-r", "144", "-f", str(page), "-l", str(page), "-singlefile", str(path), str(out)],
            check=True,
        )
        return Image.open(tmp_path / "raster.png").convert("RGB")
    pdfium = pytest.importorskip("pypdfium2")
    return pdfium.PdfDocument(pdf)[page - 1].render(scale=2).to_pil().convert("RGB")


def grid_box(image) -> tuple[int, int, int, int]:
    """Left, top, right, bottom of the grid: the extent of the long dark horizontal runs (grid
    lines; text has none that long)."""
    grey = image.convert("L")
    width, height = grey.size
    pixels = grey.load()
    box = [width, height, 0, 0]
    for y in range(height):
        run = 0
        for x in range(width):
            run = run + 1 if pixels[x, y] < 100 else 0
            if run == 120:
                box[0], box[1], box[3] = min(box[0], x - 119), min(box[1], y), max(box[3], y)
            if run >= 120:
                box[2] = max(box[2], x)
    assert box[2] > box[0], "no grid lines found"
    return box[0], box[1], box[2], box[3]


def darkest(image, x: float, y: float) -> int:
    grey = image.convert("L")
    return min(grey.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_circles_shading_bars_and_voids_are_drawn(tmp_path):
    needs_weasyprint()
    styles = {
        (1, 1): CellStyle(circle=True),
        (3, 3): CellStyle(circle=True),
        (2, 2): CellStyle(shaded=True),
        (2, 3): CellStyle(color="#ff0000"),
        (3, 1): CellStyle(bars=frozenset({"right"})),
    }
    puzzle = Puzzle(parse_grid(".....\n.....\n.....\n.....\n....."), styles=styles, voids=frozenset({(0, 0)}))
    svg = grid_svg(puzzle)
    assert svg.count('class="circle"') == 2 and svg.count('class="bar"') == 1 and svg.count("<rect") == 24
    assert 'class="circle"' in page_html(puzzle, page="a4")
    image = raster(rendering.page_pdf(puzzle, page="a4"), tmp_path)
    left, top, right, bottom = grid_box(image)
    cell = (right - left) / 5
    assert abs((bottom - top) - (right - left)) < 4  # square: 5 by 5

    def centre(r, c):
        return left + (c + 0.5) * cell, top + (r + 0.5) * cell

    radius = (CELL / 2 - 1.5) / CELL * cell
    for r, c, circled in ((1, 1, True), (3, 3, True), (1, 3, False), (3, 2, False)):
        x, y = centre(r, c)
        outline = [darkest(image, x + radius * math.cos(a), y + radius * math.sin(a)) for a in (0.8, 2.4, 3.9, 5.5)]
        assert all(v < 140 for v in outline) if circled else all(v > 220 for v in outline), (r, c, outline)
    grey = image.convert("L")
    assert 150 < grey.getpixel(tuple(map(round, centre(2, 2)))) < 235  # shaded grey
    red = image.getpixel(tuple(map(round, centre(2, 3))))
    assert red[0] > 200 and red[1] < 80 and red[2] < 80
    assert grey.getpixel(tuple(map(round, centre(1, 2)))) > 245  # an open cell is white
    x, y = centre(0, 0)
    assert min(grey.getpixel((round(x), round(y))), darkest(image, x, y - cell / 2 + 1)) > 245  # void: nothing

    def line_width(x0, y0):  # dark pixels in a row through (x0, y0)
        return sum(1 for dx in range(-8, 9) if grey.getpixel((round(x0) + dx, round(y0))) < 128)

    bar = line_width(left + 2 * cell, centre(3, 1)[1])
    plain = line_width(left + 2 * cell, centre(1, 1)[1] + cell * 0.3)
    assert bar >= 2 * plain >= 2


def test_freeform_sheet_is_cropped_without_black_blocks(tmp_path):
    rows = [["#"] * 10 for _ in range(10)]
    for c in range(2, 7):
        rows[3][c] = "."
    for r in range(3, 8):
        rows[r][4] = "."
    grid = parse_grid("\n".join("".join(row) for row in rows))
    puzzle = Puzzle(grid, freeform=True, title="Free")
    svg = grid_svg(puzzle)
    assert 'class="block"' not in svg and svg.count('class="cell"') == 9
    assert f'width="{5 * CELL + 2 * PAD}"' in svg  # the five used columns, not ten
    needs_weasyprint()
    image = raster(rendering.page_pdf(puzzle, page="letter"), tmp_path)
    left, top, right, _ = grid_box(image)  # the long lines: the T's bar, five used columns wide
    grey = image.convert("L")
    cell = (right - left) / 5
    x = left + 2.5 * cell  # down the stem: its foot five rows below the top, then nothing
    assert darkest(image, x, top + 5 * cell) < 128 and darkest(image, x, top + 5.5 * cell) > 245
    title = [y for y in range(top - 2) if grey.crop((0, y, grey.size[0], y + 1)).getextrema()[0] < 128]
    assert top - title[-1] < 1.5 * cell  # the used rows start under the title: no empty rows above
    bottom = round(top + 5 * cell)
    y = round(top + 2.5 * cell)
    stem = [x for x in range(left, right + 1) if grey.getpixel((x, y)) < 128]  # the stem's two sides
    assert abs((stem[-1] - stem[0]) - cell) < 4 and abs(stem[0] - (left + 2 * cell)) < 4
    box = grey.crop((left, top, right, bottom))
    dark = sum(box.histogram()[:128]) / (box.size[0] * box.size[1])
    assert dark < 0.05  # lines only: no solid black where no letter goes
    assert grey.getpixel((round(left + 0.5 * cell), round(top + 2.5 * cell))) > 245


def test_diagramless_sheet_hides_blocks_and_numbers():
    puzzle = Puzzle(parse_grid("..#\n...\n#.."), diagramless=True, solution=None)
    svg = grid_svg(puzzle)
    assert 'class="block"' not in svg and 'class="number"' not in svg and svg.count('class="cell"') == 9
    labelled = Puzzle(parse_grid("..#\n...\n#.."), diagramless=True, labels={(0, 0): "1"})
    assert numbers_in(grid_svg(labelled)) == {(0, 0): 1}


def test_labels_replace_the_standard_numbers_and_groups_follow_down():
    grid = parse_grid("...\n...\n...")
    puzzle = Puzzle(
        grid,
        clues={"1A": "First across clue"},
        labels={(0, 0): "7"},
        extra_clues=[ClueGroup("Rows", [("R1", "A row clue")])],
    )
    assert numbers_in(grid_svg(puzzle))[(0, 0)] == 7
    page = page_html(puzzle, page="a4")
    assert page.index("<h2>Across</h2>") < page.index("<h2>Down</h2>") < page.index("<h2>Rows</h2>")
    assert '<b class="num">7</b>First across clue' in page and "A row clue" in page


def test_bangla_glyphs_are_page_text_not_svg_text():
    grid = Grid((("কি", "ক্ষ"), ("", "")))
    page = page_html(Puzzle(grid, clues={"1A": "বাংলা সূত্র"}), page="a4")
    assert ">ক্ষ</span>" in page and "বাংলা সূত্র" in page and "<text" not in page


@pytest.mark.parametrize(
    "environ, paper",
    [
        ({"LANG": "en_US.UTF-8"}, "letter"),
        ({"LANG": "de_DE.UTF-8"}, "a4"),
        ({"LANG": "fr_CA.UTF-8"}, "letter"),
        ({"LANG": "en_GB.UTF-8", "LC_PAPER": "es_MX.UTF-8"}, "letter"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "bn_BD.UTF-8"}, "a4"),
        ({"LANG": "C.UTF-8"}, "letter"),
        ({}, "letter"),
        ({"LANG": "en_US.UTF-8", "PAPERSIZE": "a4"}, "a4"),
    ],
)
def test_default_paper_follows_the_locale(environ, paper):
    assert default_page(environ) == paper


def test_cli_key_adds_a_page_and_png_pages_are_numbered(capsys, tmp_path):
    needs_weasyprint()
    grid = parse_grid("...#\n....\n#...")
    solution = (("C", "A", "T", None), ("A", "B", "L", "E"), (None, "B", "E", "D"))
    clues = {slot.id: f"Clue for {slot.id}" for slot in grid.slots}
    path = tmp_path / "p.ipuz"
    write_crossword(path, Puzzle(grid, solution=solution, clues=clues, title="Tiny"))
    pdf = tmp_path / "p.pdf"
    code, _, err = run(capsys, "render", path, "--page", "a4", "-o", pdf)
    assert code == 0 and len(pdf_pages(pdf.read_bytes())) == 1 and "1 page on a4" in err
    code, _, err = run(capsys, "render", path, "--page", "A4", "--key", "-o", pdf)
    pages = pdf_pages(pdf.read_bytes())
    assert code == 0 and len(pages) == 2 and "2 pages" in err
    assert "Clue for 1A" in pages[0] and "Tiny — solution" in pages[1] and "ABLE" in pages[1].replace(" ", "")
    png = tmp_path / "out.png"
    code, _, err = run(capsys, "render", path, "--page", "letter", "--key", "-o", png)
    numbered = [tmp_path / "out-1.png", tmp_path / "out-2.png"]
    assert code == 0 and all(p.read_bytes().startswith(b"\x89PNG") for p in numbered) and not png.exists()
    assert all(p.name in err for p in numbered)
    assert run(capsys, "render", path, "--page", "letter", "-o", png)[0] == 0
    assert png.exists() and not (tmp_path / "out-3.png").exists()
    assert rendering.render(read_crossword(path), "png", page="a4", key=True).startswith(b"\x89PNG")
    assert len(rendering.render_pages(read_crossword(path), page="a4", key=True, scale=0.5)) == 2


def test_cli_warns_when_clues_are_missing(capsys, tmp_path):
    grid = parse_grid("...\n...\n...")
    bare = tmp_path / "bare.ipuz"
    write_crossword(bare, Puzzle(grid, title="Bare"))
    out = tmp_path / "bare.html"
    code, _, err = run(capsys, "render", bare, "--page", "a4", "-o", out)
    assert code == 0 and "warning: no clues: the page has the grid only" in err
    assert "<h2>" not in out.read_text()
    some = tmp_path / "some.ipuz"
    write_crossword(some, Puzzle(grid, title="Some", clues={"1A": "Only this one"}))
    code, _, err = run(capsys, "render", some, "--page", "a4", "-o", out)
    assert code == 0 and "5 of 6 entries have no clue" in err
    code, _, err = run(capsys, "render", some)  # the SVG grid alone: nothing to warn about
    assert code == 0 and "warning" not in err


def test_real_file_circles_are_drawn():
    path = SHARED / "realfiles" / "puzzmo__alpha-bits.puz"
    if not path.exists():
        pytest.skip(f"{path} not present")
    puzzle = read_crossword(path)
    circles = sum(1 for style in puzzle.styles.values() if style.circle)
    if not circles:
        pytest.skip("the .puz reader does not read circles yet")
    assert grid_svg(puzzle).count('class="circle"') == circles
