/* grid.js: the crossword grid as data (slots, numbering, statistics, symmetry, glyphs) and as
 * cells on the page. No state of its own: construct.js and freeform.js hold the grids.
 *
 * A grid is {cells, rtl}: cells[r][c] is null (a block), "" (an empty cell) or one glyph. Columns
 * are in page order (column 0 on the left) also when the grid reads right to left; then across
 * entries run leftwards and numbering starts at the top right, as in the library.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = {};

  G.key = (r, c) => r + "," + c;

  G.blank = function (rows, cols) {
    return Array.from({ length: rows }, () => Array.from({ length: cols }, () => ""));
  };

  G.copy = (cells) => cells.map((row) => row.slice());

  G.isOpen = (cells, r, c) => r >= 0 && r < cells.length && c >= 0 && c < cells[0].length && cells[r][c] !== null;

  /**
   * The slots (runs of two or more open cells), numbered as the library numbers them: across
   * first then down, each in numbering order. Each slot: {id, number, direction, row, col,
   * length, cells: [[r, c], ...] in reading order}.
   */
  G.slots = function (cells, rtl) {
    const rows = cells.length;
    const cols = rows ? cells[0].length : 0;
    const step = rtl ? -1 : 1;
    const open = (r, c) => G.isOpen(cells, r, c);
    const across = [];
    const down = [];
    let number = 0;
    for (let r = 0; r < rows; r++) {
      for (let i = 0; i < cols; i++) {
        const c = rtl ? cols - 1 - i : i;
        if (!open(r, c)) continue;
        const startsAcross = !open(r, c - step) && open(r, c + step);
        const startsDown = !open(r - 1, c) && open(r + 1, c);
        if (!startsAcross && !startsDown) continue;
        number += 1;
        if (startsAcross) {
          const run = [];
          for (let cc = c; open(r, cc); cc += step) run.push([r, cc]);
          across.push(makeSlot(number, "across", run));
        }
        if (startsDown) {
          const run = [];
          for (let rr = r; open(rr, c); rr++) run.push([rr, c]);
          down.push(makeSlot(number, "down", run));
        }
      }
    }
    return across.concat(down);
  };

  function makeSlot(number, direction, run) {
    return {
      id: number + (direction === "across" ? "A" : "D"),
      number,
      direction,
      row: run[0][0],
      col: run[0][1],
      length: run.length,
      cells: run,
      // Where the slot starts and which way it runs: clues stay with this when numbers shift.
      anchor: direction[0] + "@" + run[0][0] + "," + run[0][1],
    };
  }

  /** Index of slots: by id, by cell ({across, down} with the position in each), numbers. */
  G.index = function (slots) {
    const byId = new Map();
    const at = new Map();
    const numbers = new Map();
    for (const slot of slots) {
      byId.set(slot.id, slot);
      numbers.set(G.key(slot.row, slot.col), slot.number);
      slot.cells.forEach(([r, c], pos) => {
        const k = G.key(r, c);
        if (!at.has(k)) at.set(k, {});
        at.get(k)[slot.direction] = { slot, pos };
      });
    }
    return { byId, at, numbers };
  };

  /** The slot's glyphs joined, with "?" for empty cells (the server's pattern form). */
  G.pattern = (cells, slot) => slot.cells.map(([r, c]) => cells[r][c] || "?").join("");
  G.isComplete = (cells, slot) => slot.cells.every(([r, c]) => !!cells[r][c]);
  G.answer = (cells, slot) => slot.cells.map(([r, c]) => cells[r][c]).join("");

  /** The statistics the panel shows (the same definitions as the library's grid stats). */
  G.stats = function (cells, slots, index) {
    const rows = cells.length;
    const cols = cells[0].length;
    let blocks = 0;
    let unchecked = 0;
    let isolated = 0;
    let open = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (cells[r][c] === null) {
          blocks++;
          continue;
        }
        open++;
        const where = index.at.get(G.key(r, c));
        if (!where) isolated++;
        else if (!(where.across && where.down)) unchecked++;
      }
    }
    const total = slots.reduce((sum, s) => sum + s.length, 0);
    const answers = new Map();
    for (const slot of slots) {
      if (!G.isComplete(cells, slot)) continue;
      const word = G.answer(cells, slot);
      if (!answers.has(word)) answers.set(word, []);
      answers.get(word).push(slot.id);
    }
    const duplicates = [...answers].filter(([, ids]) => ids.length > 1).map(([word, ids]) => ({ word, ids }));
    return {
      rows,
      cols,
      entries: slots.length,
      across: slots.filter((s) => s.direction === "across").length,
      down: slots.filter((s) => s.direction === "down").length,
      averageLength: slots.length ? total / slots.length : 0,
      blocks,
      blockShare: rows * cols ? (100 * blocks) / (rows * cols) : 0,
      open,
      filled: cells.flat().filter((v) => v).length,
      unchecked,
      isolated,
      short: slots.filter((s) => s.length < 3).map((s) => s.id),
      duplicates,
      components: components(cells),
    };
  };

  function components(cells) {
    const seen = new Set();
    let count = 0;
    for (let r = 0; r < cells.length; r++) {
      for (let c = 0; c < cells[0].length; c++) {
        if (cells[r][c] === null || seen.has(G.key(r, c))) continue;
        count++;
        const stack = [[r, c]];
        seen.add(G.key(r, c));
        while (stack.length) {
          const [y, x] = stack.pop();
          for (const [ny, nx] of [[y + 1, x], [y - 1, x], [y, x + 1], [y, x - 1]]) {
            if (G.isOpen(cells, ny, nx) && !seen.has(G.key(ny, nx))) {
              seen.add(G.key(ny, nx));
              stack.push([ny, nx]);
            }
          }
        }
      }
    }
    return count;
  }

  /** The cells a block toggle at (r, c) changes under a symmetry: none, rotational, mirror, both. */
  G.partners = function (r, c, rows, cols, symmetry) {
    const list = [[r, c]];
    if (symmetry === "rotational" || symmetry === "both") list.push([rows - 1 - r, cols - 1 - c]);
    if (symmetry === "mirror" || symmetry === "both") list.push([r, cols - 1 - c]);
    if (symmetry === "both") list.push([rows - 1 - r, c]);
    const seen = new Set();
    return list.filter(([y, x]) => {
      const k = G.key(y, x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };

  /* ---- Glyphs: one grapheme cluster a cell, as the library's glyphs module. ---- */

  const segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

  G.splitGlyphs = function (text) {
    if (!text) return [];
    if (segmenter) return Array.from(segmenter.segment(text), (s) => s.segment);
    return Array.from(text);
  };

  /** A glyph that can fill a cell starts with a letter or a digit (any script). */
  G.isCellGlyph = (glyph) => /^[\p{L}\p{N}]/u.test(glyph || "");

  /** A character that belongs to the glyph before it: a combining mark or a joiner. */
  G.isContinuation = (text) => /^[\p{M}\u200C\u200D]/u.test(text || "");

  /** A glyph ending in a virama (or a joiner) takes the next consonant into the same cell. */
  G.joinsNext = (glyph) => /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D\u0DCA\u1039\u17D2\u200D]$/u.test(glyph || "");

  /** NFC and upper case; a letter whose upper case is two letters (ß) stays as it is. */
  G.normalizeGlyph = function (glyph) {
    const nfc = glyph.normalize("NFC");
    const upper = nfc.toUpperCase();
    return G.splitGlyphs(upper).length === 1 ? upper : nfc;
  };

  /** A word as the cells of a slot: NFC, upper case, one glyph each. */
  G.wordGlyphs = (word) => G.splitGlyphs(word.normalize("NFC")).map(G.normalizeGlyph);

  /* ---- Drawing ---- */

  /**
   * Draw a grid into a container. Cells are built once per size and updated in place, so the
   * page does not flicker while typing. view: {cells, rtl, numbers (Map key -> number),
   * classes(r, c) -> extra class list, freeform (empty cells are space, not blocks),
   * cellSize (px), voids (Set of keys of null cells drawn as nothing), styles (Map key -> cell
   * style: circle, shading, bars; see styleCell), titles(r, c) -> a cell's hover text}.
   */
  G.draw = function (container, view) {
    const rows = view.cells.length;
    const cols = rows ? view.cells[0].length : 0;
    const shape = rows + "x" + cols;
    if (container.dataset.shape !== shape) {
      container.textContent = "";
      container.dataset.shape = shape;
      const fragment = document.createDocumentFragment();
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const cell = document.createElement("div");
          cell.className = "cell";
          cell.dataset.row = r;
          cell.dataset.col = c;
          cell.setAttribute("role", "gridcell");
          const num = document.createElement("span");
          num.className = "num";
          const glyph = document.createElement("span");
          glyph.className = "glyph";
          cell.append(num, glyph);
          fragment.appendChild(cell);
        }
      }
      container.appendChild(fragment);
    }
    container.style.setProperty("--rows", rows);
    container.style.setProperty("--cols", cols);
    if (view.cellSize) container.style.setProperty("--cell", view.cellSize + "px");
    container.classList.toggle("rtl", !!view.rtl);
    container.classList.toggle("freeform", !!view.freeform);
    // Void cells are drawn as nothing: the grid then draws each cell's own lines (style.css).
    container.classList.toggle("has-voids", !!view.voids && view.voids.size > 0);
    const nodes = container.children;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const node = nodes[r * cols + c];
        const value = view.cells[r][c];
        const space = view.freeform ? !value : value === null;
        const classes = ["cell"];
        const k = G.key(r, c);
        const isVoid = space && !!view.voids && view.voids.has(k);
        if (space) classes.push(view.freeform ? "space" : isVoid ? "void" : "block");
        const style = view.styles && !space ? view.styles.get(k) : null;
        styleCell(node, classes, style);
        if (view.freeform && !space) {
          // Letter cells draw their own top/left edge only where no letter cell is beside them.
          if (!(r > 0 && view.cells[r - 1][c])) classes.push("edge-t");
          if (!(c > 0 && view.cells[r][c - 1])) classes.push("edge-l");
        }
        if (view.classes) classes.push(...view.classes(r, c));
        const className = classes.join(" ");
        if (node.className !== className) node.className = className;
        if (view.titles) {
          const title = space ? "" : view.titles(r, c);
          if (node.title !== title) node.title = title;
        }
        const number = view.numbers ? view.numbers.get(G.key(r, c)) : undefined;
        const numText = number === undefined ? "" : String(number);
        if (node.firstChild.textContent !== numText) node.firstChild.textContent = numText;
        const text = space ? "" : value || "";
        if (node.lastChild.textContent !== text) {
          node.lastChild.textContent = text;
          // Long glyphs (a Bangla conjunct, a rebus) shrink to fit the cell.
          node.lastChild.classList.toggle("long", text.length > 2);
          node.lastChild.classList.toggle("longer", text.length > 4);
        }
      }
    }
  };

  /**
   * A cell's style (view.styles: key -> {circle, shaded, color, bars: ["top", ...]}) as classes; a
   * colour goes in the --shade variable the shaded class paints with.
   */
  function styleCell(node, classes, style) {
    const color = style && /^#[0-9a-fA-F]{6}$/.test(style.color || "") ? style.color : "";
    if (style) {
      if (style.circle) classes.push("circle");
      if (style.shaded || color) classes.push("shaded");
      for (const edge of style.bars || []) if (G.EDGES.includes(edge)) classes.push("bar-" + edge);
    }
    if (node.style.getPropertyValue("--shade") !== color) {
      if (color) node.style.setProperty("--shade", color);
      else node.style.removeProperty("--shade");
    }
  }

  /** The edges of a cell a bar can run along (the library's EDGES). */
  G.EDGES = ["top", "right", "bottom", "left"];

  /** A cell size (px) that lets a rows x cols grid fit the given box. */
  G.fitCell = function (rows, cols, width, height, min = 16, max = 44) {
    const size = Math.floor(Math.min((width - 4) / cols, (height - 4) / rows));
    return Math.max(min, Math.min(max, size));
  };

  CW.grid = G;
})(window.CW);
