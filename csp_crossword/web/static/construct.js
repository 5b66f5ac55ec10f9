/* construct.js: the construct-mode editor. It holds the grid being made, the selection and the
 * undo history, draws the grid and handles the mouse and keyboard. Solver work (candidates,
 * fill, check, count) is in solver.js, clues in clues.js, files in files.js; they listen for
 * "grid" and "selection" changes through CW.on().
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const $ = (id) => document.getElementById(id);

  /* ---- A tiny event hub: other panels redraw on "grid" and "selection". ---- */
  const listeners = {};
  CW.on = (name, fn) => (listeners[name] = listeners[name] || []).push(fn);
  CW.emit = (name, data) => (listeners[name] || []).forEach((fn) => fn(data));

  const HISTORY_LIMIT = 500;

  /** Everything the editor holds. slots/index are derived from cells on every change. */
  const S = {
    cells: G.blank(15, 15),
    rtl: false,
    locked: new Set(), // cell keys a fill or a candidate must not overwrite
    fromFill: new Set(), // cell keys whose glyph an autofill placed (not typed): the next fill may change them
    clues: new Map(), // slot anchor ("a@0,0") -> clue text: clues follow an entry when numbers shift
    meta: { copyright: "", notes: "" },
    styles: new Map(), // cell key -> {circle, shaded, color, bars: [edges]} (cellstyles.js edits them)
    voids: new Set(), // cell keys outside the puzzle: null in cells like blocks, drawn as nothing
    sel: { r: 0, c: 0, dir: "across" },
    weak: new Set(), // cell keys of the weakest entries of the last fill
    core: new Set(), // cell keys of the slots an unsolvable check blames
    fit: null, // what still fits, by cell and slot (solver.js, after each edit); null before the first answer
    undo: [],
    redo: [],
    lastTyped: null, // where the last glyph went: a combining mark typed next joins it
    slots: [],
    index: null,
    version: 0,
  };
  CW.state = S;

  function derive() {
    S.slots = G.slots(S.cells, S.rtl);
    S.index = G.index(S.slots);
    S.version++;
  }

  /* ---- History: every grid edit is one undoable step. ---- */

  /** What an undo restores. A whole-document step (new grid, open) also keeps clues and titles. */
  function snapshot(doc) {
    const shot = { cells: G.copy(S.cells), rtl: S.rtl, locked: new Set(S.locked), sel: { ...S.sel } };
    shot.styles = new Map(S.styles);
    shot.voids = new Set(S.voids);
    shot.fromFill = new Set(S.fromFill);
    if (doc) {
      shot.doc = {
        clues: new Map(S.clues),
        meta: { ...S.meta },
        title: $("title").value,
        author: $("author").value,
      };
    }
    return shot;
  }

  function restore(shot) {
    S.cells = G.copy(shot.cells);
    S.rtl = shot.rtl;
    S.locked = new Set(shot.locked);
    S.sel = { ...shot.sel };
    S.styles = new Map(shot.styles);
    S.voids = new Set(shot.voids);
    S.fromFill = new Set(shot.fromFill || []);
    if (shot.doc) {
      S.clues = new Map(shot.doc.clues);
      S.meta = { ...shot.doc.meta };
      $("title").value = shot.doc.title;
      $("author").value = shot.doc.author;
    }
  }

  /**
   * Make one undoable edit: mutate(S) changes S.cells (and S.locked). Weak and core marks describe
   * the grid they were computed on, so an edit clears them unless it sets them itself.
   */
  function edit(mutate, options = {}) {
    const before = snapshot(!!options.doc);
    const result = mutate(S);
    if (result === false) return false; // nothing changed: no history step
    S.undo.push(before);
    if (S.undo.length > HISTORY_LIMIT) S.undo.shift();
    S.redo = [];
    if (!options.keepMarks) {
      S.weak.clear();
      S.core.clear();
    }
    changed();
    return true;
  }

  function stepHistory(from, to) {
    const shot = from.pop();
    if (!shot) return;
    to.push(snapshot(!!shot.doc));
    restore(shot);
    S.weak.clear();
    S.core.clear();
    S.lastTyped = null;
    changed();
  }
  const undo = () => stepHistory(S.undo, S.redo);
  const redo = () => stepHistory(S.redo, S.undo);

  /** After any change of the grid: derive slots, redraw, tell the panels. */
  function changed() {
    derive();
    clampSelection();
    render();
    CW.emit("grid");
    CW.emit("selection");
  }

  /* ---- Selection ---- */

  function clampSelection() {
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    S.sel.r = Math.max(0, Math.min(rows - 1, S.sel.r));
    S.sel.c = Math.max(0, Math.min(cols - 1, S.sel.c));
    fixDirection();
  }

  /** Keep the direction on one the selected cell has a slot in, when it has any. */
  function fixDirection() {
    const where = S.index && S.index.at.get(G.key(S.sel.r, S.sel.c));
    if (!where) return;
    if (!where[S.sel.dir]) S.sel.dir = S.sel.dir === "across" ? "down" : "across";
  }

  /** The selected slot: the one through the selected cell in the current direction. */
  function currentSlot() {
    const where = S.index.at.get(G.key(S.sel.r, S.sel.c));
    return where && where[S.sel.dir] ? where[S.sel.dir].slot : null;
  }

  function select(r, c, dir) {
    S.sel.r = r;
    S.sel.c = c;
    if (dir) S.sel.dir = dir;
    S.lastTyped = null;
    fixDirection();
    render();
    CW.emit("selection");
  }

  function toggleDirection() {
    const where = S.index.at.get(G.key(S.sel.r, S.sel.c));
    const other = S.sel.dir === "across" ? "down" : "across";
    if (!where || where[other]) S.sel.dir = other;
    render();
    CW.emit("selection");
  }

  /** One cell along the selected slot: +1 onwards (leftwards in a right-to-left across), -1 back. */
  function stepInSlot(delta) {
    const slot = currentSlot();
    if (!slot) return false;
    const pos = S.index.at.get(G.key(S.sel.r, S.sel.c))[S.sel.dir].pos + delta;
    if (pos < 0 || pos >= slot.length) return false;
    const [r, c] = slot.cells[pos];
    S.sel.r = r;
    S.sel.c = c;
    return true;
  }

  /** Arrow keys: move on the page. An arrow across the current direction first turns to it. */
  function arrow(dr, dc) {
    const dir = dr ? "down" : "across";
    if (S.sel.dir !== dir) {
      const where = S.index.at.get(G.key(S.sel.r, S.sel.c));
      if (where && where[dir]) {
        S.sel.dir = dir;
        render();
        CW.emit("selection");
        return;
      }
    }
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    const r = Math.max(0, Math.min(rows - 1, S.sel.r + dr));
    const c = Math.max(0, Math.min(cols - 1, S.sel.c + dc));
    S.sel.dir = dir;
    select(r, c);
  }

  /** Tab / Shift+Tab: the next / previous entry (across, then down), at its first empty cell. */
  function nextEntry(delta) {
    if (!S.slots.length) return;
    const slot = currentSlot();
    let i = slot ? S.slots.indexOf(slot) : -1;
    i = (i + delta + S.slots.length) % S.slots.length;
    if (i < 0) i = 0;
    const target = S.slots[i];
    const empty = target.cells.find(([r, c]) => !S.cells[r][c]) || target.cells[0];
    select(empty[0], empty[1], target.direction);
  }

  /* ---- Edits ---- */

  function symmetry() {
    return $("symmetry").value;
  }

  /** Toggle a block at (r, c) and at its symmetric partners, all to the same new state. */
  function toggleBlock(r, c) {
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    const makeBlock = S.cells[r][c] !== null;
    edit(() => {
      for (const [y, x] of G.partners(r, c, rows, cols, symmetry())) {
        S.cells[y][x] = makeBlock ? null : S.cells[y][x] === null ? "" : S.cells[y][x];
        if (makeBlock) S.locked.delete(G.key(y, x));
        if (makeBlock) S.fromFill.delete(G.key(y, x));
        S.voids.delete(G.key(y, x));
      }
    });
  }

  /** Put a glyph in a cell; a block there opens first (with its symmetric partners). */
  function setGlyph(r, c, glyph) {
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    return edit(() => {
      if (S.cells[r][c] === null) {
        for (const [y, x] of G.partners(r, c, rows, cols, symmetry())) {
          if (S.cells[y][x] === null) S.cells[y][x] = "";
          S.voids.delete(G.key(y, x));
        }
      }
      if (S.cells[r][c] === glyph) return false;
      S.cells[r][c] = glyph;
      S.fromFill.delete(G.key(r, c)); // typed: the user's own letter from now on
      if (!glyph) S.locked.delete(G.key(r, c));
    });
  }

  /** Typed text (one key, a paste or an IME's result): glyph by glyph into the grid. */
  function typeText(text) {
    for (const part of G.splitGlyphs(text.normalize("NFC"))) {
      const last = S.lastTyped;
      const lastGlyph = last && S.cells[last.r] ? S.cells[last.r][last.c] : null;
      // A combining mark, or a consonant after a virama, belongs to the glyph typed just before.
      if (last && lastGlyph && (G.isContinuation(part) || (G.joinsNext(lastGlyph) && G.isCellGlyph(part)))) {
        setGlyph(last.r, last.c, G.normalizeGlyph(lastGlyph + part));
        continue;
      }
      if (!G.isCellGlyph(part)) continue; // punctuation and spaces are not cell glyphs
      const { r, c } = S.sel;
      setGlyph(r, c, G.normalizeGlyph(part));
      S.lastTyped = { r, c };
      if (stepInSlot(1)) {
        render();
        CW.emit("selection");
      }
    }
  }

  /** After a rebus is put in a cell: on to the slot's next cell, as after a typed letter (the next
   * key must not overwrite the rebus), and nothing joins onto the rebus. */
  function advance() {
    S.lastTyped = null;
    if (stepInSlot(1)) {
      render();
      CW.emit("selection");
    }
  }

  /** Backspace: clear the cell and move back; on an empty cell, move back and clear that. */
  function backspace() {
    S.lastTyped = null;
    const { r, c } = S.sel;
    if (S.cells[r][c]) {
      setGlyph(r, c, "");
      stepInSlot(-1);
    } else if (stepInSlot(-1)) {
      setGlyph(S.sel.r, S.sel.c, "");
    }
    render();
    CW.emit("selection");
  }

  function deleteCell() {
    S.lastTyped = null;
    if (S.cells[S.sel.r][S.sel.c]) setGlyph(S.sel.r, S.sel.c, "");
  }

  /** A word's glyphs one per cell of the slot: a rebus cell the word spells (HEART in
   * SWEETHEART) takes all its letters; unchanged when the word does not spell it there. */
  function throughRebus(slot, glyphs) {
    if (glyphs.length === slot.length) return glyphs;
    const pieces = [];
    let at = 0;
    for (const [r, c] of slot.cells) {
      const here = S.cells[r][c] || "";
      const letters = G.splitGlyphs(here);
      if (letters.length > 1 && glyphs.slice(at, at + letters.length).join("") === letters.join("")) {
        pieces.push(here);
        at += letters.length;
      } else {
        pieces.push(glyphs[at]);
        at += 1;
      }
    }
    return at === glyphs.length && pieces.every((g) => g) ? pieces : glyphs;
  }

  /** Write a word into a slot (a candidate): one undoable step; locked cells keep their glyph. */
  function placeWord(slot, glyphs) {
    glyphs = throughRebus(slot, glyphs);
    if (glyphs.length !== slot.length) {
      CW.setStatus(`"${glyphs.join("")}" has ${glyphs.length} glyphs; ${slot.id} has ${slot.length} cells`, "error");
      return false;
    }
    return edit(() => {
      let changedAny = false;
      slot.cells.forEach(([r, c], i) => {
        const k = G.key(r, c);
        if (S.locked.has(k)) return;
        // a word the user chose counts as typed, also where the fill had the same letter
        if (S.fromFill.delete(k)) changedAny = true;
        if (S.cells[r][c] === glyphs[i]) return;
        S.cells[r][c] = glyphs[i];
        changedAny = true;
      });
      return changedAny;
    });
  }

  /**
   * Place a fill's cells (one undoable step). only: a Set of cell keys to write (fill selection),
   * else every open cell. Locked cells and blocks are never overwritten. weak: cell keys to mark.
   */
  function placeCells(cells, only, weak) {
    return edit(
      () => {
        S.weak = new Set(weak || []);
        S.core.clear();
        for (let r = 0; r < S.cells.length; r++) {
          for (let c = 0; c < S.cells[0].length; c++) {
            const k = G.key(r, c);
            const value = cells[r] ? cells[r][c] : null;
            if (S.cells[r][c] === null || !value || S.locked.has(k)) continue;
            if (only && !only.has(k)) continue;
            if (S.cells[r][c] === value) continue; // a letter (or rebus) the fill kept stays whoever wrote it
            S.cells[r][c] = value;
            S.fromFill.add(k);
          }
        }
      },
      { keepMarks: true }
    );
  }

  /** The grid a new autofill starts from: what the user typed and locked, without the letters an
   * earlier fill placed (else a ban, or a change of mind, could never take effect). */
  function fillBase() {
    const base = G.copy(S.cells);
    for (const k of S.fromFill) {
      if (S.locked.has(k)) continue;
      const [r, c] = k.split(",").map(Number);
      if (base[r] && base[r][c]) base[r][c] = "";
    }
    return base;
  }

  /** Clear fill: empty the cells an autofill wrote; typed and locked letters stay (one undo step). */
  function clearFill() {
    const base = fillBase();
    const cleared = S.cells.flat().filter((v) => v).length - base.flat().filter((v) => v).length;
    if (!cleared) return CW.setStatus("nothing to clear: every letter was typed or is locked", "info");
    edit(() => {
      S.cells = base;
      for (const k of [...S.fromFill]) if (!S.locked.has(k)) S.fromFill.delete(k);
    });
    $("result").hidden = true;
    CW.setStatus(`cleared ${cleared} letter${cleared === 1 ? "" : "s"} of the fill; typed and locked ones kept`, "ok");
  }

  /** Lock or unlock the selected entry; only a complete entry can be locked. */
  function toggleLock() {
    const slot = currentSlot();
    if (!slot) return CW.setStatus("select an entry to lock", "error");
    const keys = slot.cells.map(([r, c]) => G.key(r, c));
    const locked = keys.every((k) => S.locked.has(k));
    if (!locked && !G.isComplete(S.cells, slot)) {
      return CW.setStatus(`${slot.id} is not complete: only a complete entry can be locked`, "error");
    }
    edit(
      () => {
        keys.forEach((k) => (locked ? S.locked.delete(k) : S.locked.add(k)));
      },
      { keepMarks: true }
    );
    CW.setStatus(`${slot.id} ${locked ? "unlocked" : "locked: fills and candidates leave it as it is"}`, "ok");
  }

  function newGrid(rows, cols, rtl) {
    $("result").hidden = true;
    CW.emit("new-document"); // drafts.js keeps the grid so far as a draft of its own
    edit(
      () => {
        S.cells = G.blank(rows, cols);
        S.rtl = rtl;
        S.locked = new Set();
        S.fromFill = new Set();
        S.clues = new Map();
        S.styles = new Map();
        S.voids = new Set();
        // A new puzzle: the author stays; title, copyright and notes (not shown) were the old one's.
        $("title").value = "";
        S.meta = { copyright: "", notes: "" };
        S.sel = { r: 0, c: rtl ? cols - 1 : 0, dir: "across" };
      },
      { doc: true }
    );
  }

  /** Load a Puzzle (from /api/open): the pattern with the solution's glyphs in it, and clues. */
  function loadPuzzle(puzzle) {
    const grid = puzzle.grid;
    const cells = grid.cells.map((row, r) =>
      row.map((value, c) => {
        if (value === null) return null;
        const answer = puzzle.solution && puzzle.solution[r] ? puzzle.solution[r][c] : null;
        return value || answer || "";
      })
    );
    const slots = G.slots(cells, !!grid.rtl);
    $("result").hidden = true;
    CW.emit("new-document");
    edit(
      () => {
        S.cells = cells;
        S.rtl = !!grid.rtl;
        // the locks and the fill's letters a saved .ipuz or .json kept, on open cells only
        const openKeys = (list) => (list || []).filter(([r, c]) => cells[r] && cells[r][c]).map(([r, c]) => G.key(r, c));
        S.locked = new Set(openKeys(puzzle.locked_cells));
        S.fromFill = new Set(openKeys(puzzle.filled_cells));
        S.clues = new Map();
        S.styles = new Map((puzzle.styles || []).map((s) => [G.key(s.row, s.col), { circle: !!s.circle, shaded: !!s.shaded, color: s.color || "", bars: s.bars || [] }]));
        S.voids = new Set((puzzle.voids || []).filter(([r, c]) => cells[r] && cells[r][c] === null).map(([r, c]) => G.key(r, c)));
        for (const slot of slots) {
          const clue = puzzle.clues && puzzle.clues[slot.id];
          if (clue) S.clues.set(slot.anchor, clue);
        }
        S.meta = { copyright: puzzle.copyright || "", notes: puzzle.notes || "" };
        $("title").value = puzzle.title || "";
        $("author").value = puzzle.author || "";
        const first = slots[0];
        S.sel = first ? { r: first.row, c: first.col, dir: first.direction } : { r: 0, c: 0, dir: "across" };
      },
      { doc: true }
    );
    $("rows").value = cells.length;
    $("cols").value = cells[0].length;
    $("rtl").checked = !!grid.rtl;
  }

  /* ---- Drawing ---- */

  function cellClasses(r, c) {
    const k = G.key(r, c);
    const out = [];
    if (r === S.sel.r && c === S.sel.c) out.push("selected");
    if (S.entryKeys && S.entryKeys.has(k)) out.push("in-entry");
    if (S.weak.has(k)) out.push("weak");
    if (S.core.has(k)) out.push("core");
    if (S.fit) {
      // What still fits (solver.js asks after each edit): no word at all, or only a few.
      if (S.fit.deadCells.has(k)) out.push("dead");
      else if (S.fit.tightCells.has(k)) out.push("tight");
    }
    if (S.locked.has(k)) out.push("locked");
    if (S.fromFill.has(k)) out.push("from-fill");
    return out;
  }

  function render() {
    const slot = currentSlot();
    S.entryKeys = new Set(slot ? slot.cells.map(([r, c]) => G.key(r, c)) : []);
    const box = $("grid-wrap");
    const size = G.fitCell(S.cells.length, S.cells[0].length, box.clientWidth - 28, box.clientHeight - 12, 16, 56);
    const titles = CW.solver ? CW.solver.fitTitle : null;
    G.draw($("grid"), { cells: S.cells, rtl: S.rtl, numbers: S.index.numbers, classes: cellClasses, titles, cellSize: size, voids: S.voids, styles: S.styles });
    placeInput(size);
    $("undo").disabled = !S.undo.length;
    $("redo").disabled = !S.redo.length;
    const label = $("current-entry");
    if (slot) {
      const locked = slot.cells.every(([r, c]) => S.locked.has(G.key(r, c)));
      // U+2068/U+2069 isolate the pattern: an Arabic one must not reorder the id and the count.
      label.textContent = `${slot.id} · \u2068${G.pattern(S.cells, slot)}\u2069 · ${slot.length} ${slot.cells.some(([r, c]) => G.splitGlyphs(S.cells[r][c] || "").length > 1) ? "cells" : "letters"}${locked ? " · locked" : ""}${fitText(slot)}`;
    } else {
      const selected = G.key(S.sel.r, S.sel.c);
      label.textContent = S.cells[S.sel.r][S.sel.c] === null ? (S.voids.has(selected) ? "void selected" : "block selected") : "no entry here";
    }
    $("lock-entry").textContent = slot && slot.cells.every(([r, c]) => S.locked.has(G.key(r, c))) ? "Unlock" : "Lock";
  }

  /** " · 12 words fit" for the selected entry, from the last fillability answer. */
  function fitText(slot) {
    const fit = S.fit;
    if (!fit || $("grid").classList.contains("fit-stale")) return "";
    if (fit.dead.has(slot.id)) return " · no word fits";
    const n = fit.counts.get(slot.id);
    return n === undefined ? "" : ` · ${Number(n).toLocaleString()} word${n === 1 ? "" : "s"} fit`;
  }

  /** The hidden text box sits on the selected cell, so an IME's window opens beside it. */
  function placeInput(size) {
    const input = $("grid-input");
    const cell = $("grid").children[S.sel.r * S.cells[0].length + S.sel.c];
    if (!cell) return;
    input.style.left = cell.offsetLeft + "px";
    input.style.top = cell.offsetTop + "px";
    input.style.width = size + "px";
    input.style.height = size + "px";
  }

  /* ---- Mouse and keyboard ---- */

  function focusGrid() {
    $("grid-input").focus({ preventScroll: true });
  }

  function cellOf(event) {
    const node = event.target.closest(".cell");
    return node ? { r: +node.dataset.row, c: +node.dataset.col } : null;
  }

  function onMouseDown(event) {
    const at = cellOf(event);
    if (!at) return;
    event.preventDefault(); // keep the focus in the grid's text box
    focusGrid();
    if (event.button === 2) return; // the context menu event toggles the block
    if (event.shiftKey) {
      select(at.r, at.c);
      toggleBlock(at.r, at.c);
      return;
    }
    if (at.r === S.sel.r && at.c === S.sel.c) toggleDirection();
    else select(at.r, at.c);
  }

  function onContextMenu(event) {
    const at = cellOf(event);
    if (!at) return;
    event.preventDefault();
    select(at.r, at.c);
    toggleBlock(at.r, at.c);
  }

  const KEYS = {
    ArrowLeft: () => arrow(0, -1),
    ArrowRight: () => arrow(0, 1),
    ArrowUp: () => arrow(-1, 0),
    ArrowDown: () => arrow(1, 0),
    Backspace: backspace,
    Delete: deleteCell,
    " ": toggleDirection,
    ".": () => toggleBlock(S.sel.r, S.sel.c),
    Home: () => jumpInSlot(0),
    End: () => jumpInSlot(-1),
  };

  function jumpInSlot(which) {
    const slot = currentSlot();
    if (!slot) return;
    const [r, c] = which === 0 ? slot.cells[0] : slot.cells[slot.length - 1];
    select(r, c);
  }

  function onKeyDown(event) {
    if (event.isComposing || event.keyCode === 229) return; // an IME is composing
    if (event.ctrlKey || event.metaKey || event.altKey) return; // shortcuts: see onGlobalKey
    if (event.key === "Tab") {
      event.preventDefault();
      nextEntry(event.shiftKey ? -1 : 1);
      return;
    }
    if (event.key === "Escape") {
      // Tab moves between entries here, so Escape is the keyboard's way out of the grid: to the
      // side panel's tabs (Shift+Tab from there reaches the toolbars).
      event.preventDefault();
      const tab = document.querySelector(".tabs [data-tab].active") || document.querySelector(".tabs [data-tab]");
      if (tab) tab.focus();
      return;
    }
    const action = KEYS[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  /** Text arrives through the hidden box's input event: keys, IMEs and pastes alike. */
  function onInput(event) {
    if (event.isComposing) return;
    const input = event.target;
    const text = input.value;
    input.value = "";
    if (text) typeText(text);
  }

  /** Undo and redo from anywhere but a text field (which has its own undo). */
  function onGlobalKey(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    if (CW.mode !== "construct") return;
    const target = event.target;
    const inText = target && target.id !== "grid-input" && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && /^(text|search|number|)$/.test(target.type)));
    if (inText) return;
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) {
      event.preventDefault();
      undo();
    } else if (key === "y" || (key === "z" && event.shiftKey)) {
      event.preventDefault();
      redo();
    }
  }

  function readSize(id) {
    const value = parseInt($(id).value, 10);
    if (!(value >= 3 && value <= 25)) {
      CW.setStatus(`${id}: give a number from 3 to 25`, "error");
      return null;
    }
    return value;
  }

  function init() {
    derive();
    const grid = $("grid");
    grid.addEventListener("mousedown", onMouseDown);
    grid.addEventListener("contextmenu", onContextMenu);
    const input = $("grid-input");
    input.addEventListener("keydown", onKeyDown);
    input.addEventListener("input", onInput);
    input.addEventListener("compositionend", () => setTimeout(() => onInput({ target: input, isComposing: false }), 0));
    input.addEventListener("focus", () => $("grid").classList.add("focused"));
    input.addEventListener("blur", () => $("grid").classList.remove("focused"));
    document.addEventListener("keydown", onGlobalKey);
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("toggle-block").addEventListener("click", () => {
      toggleBlock(S.sel.r, S.sel.c);
      focusGrid();
    });
    $("lock-entry").addEventListener("click", () => {
      toggleLock();
      focusGrid();
    });
    $("new-grid").addEventListener("click", () => {
      const rows = readSize("rows");
      const cols = readSize("cols");
      if (rows && cols) {
        newGrid(rows, cols, $("rtl").checked);
        CW.setStatus(`new ${rows} x ${cols} grid${$("rtl").checked ? ", right to left" : ""}`, "ok");
        focusGrid();
      }
    });
    // After a toolbar button clicked by mouse the keyboard goes back to the grid, so typing goes
    // on at once; a button pressed from the keyboard (detail 0) keeps the focus where it is.
    document.querySelector(".editor .toolbar").addEventListener("click", (event) => {
      if (event.target.closest("button") && event.detail > 0) focusGrid();
    });
    window.addEventListener("resize", () => render());
    // Title and author are part of the document: drafts.js saves on "document" as on "grid".
    for (const id of ["title", "author"]) $(id).addEventListener("input", () => CW.emit("document"));
    render();
  }

  /* ---- The whole document, for drafts.js (autosave): plain JSON in, plain JSON out. ---- */

  /** Sets of cell keys the document keeps (a new one: add its name here). */
  const DOCUMENT_SETS = ["locked", "voids", "fromFill"];

  /** Everything a reload must bring back (not the undo history, not the solver's marks). */
  function documentState() {
    const doc = {
      cells: G.copy(S.cells),
      rtl: S.rtl,
      clues: [...S.clues].filter(([, text]) => text && text.trim()),
      meta: { ...S.meta },
      ...CW.titlesOf("construct"),
      styles: [...S.styles].filter(([, style]) => style.circle || style.shaded || style.color || (style.bars && style.bars.length)),
      sel: { ...S.sel },
    };
    for (const name of DOCUMENT_SETS) doc[name] = S[name] instanceof Set ? [...S[name]] : [];
    return doc;
  }

  /** Replace the document with one documentState() gave (a draft): a fresh history. False when
   * doc is not a document this page can show. */
  function loadDocument(doc) {
    const cells = doc && doc.cells;
    const okCell = (v) => v === null || typeof v === "string";
    if (!Array.isArray(cells) || !cells.length || cells.length > 25) return false;
    const cols = Array.isArray(cells[0]) ? cells[0].length : 0;
    if (!cols || cols > 25 || !cells.every((row) => Array.isArray(row) && row.length === cols && row.every(okCell))) return false;
    const keys = (list) => new Set(Array.isArray(list) ? list.filter((k) => typeof k === "string") : []);
    S.cells = G.copy(cells);
    S.rtl = !!doc.rtl;
    S.clues = new Map(Array.isArray(doc.clues) ? doc.clues.filter((e) => Array.isArray(e) && typeof e[1] === "string") : []);
    S.meta = { copyright: (doc.meta && doc.meta.copyright) || "", notes: (doc.meta && doc.meta.notes) || "" };
    S.styles = new Map(Array.isArray(doc.styles) ? doc.styles.filter((e) => Array.isArray(e) && e[1] && typeof e[1] === "object") : []);
    for (const name of DOCUMENT_SETS) S[name] = keys(doc[name]);
    const sel = doc.sel || {};
    S.sel = { r: sel.r | 0, c: sel.c | 0, dir: sel.dir === "down" ? "down" : "across" };
    S.undo = [];
    S.redo = [];
    S.weak.clear();
    S.core.clear();
    S.lastTyped = null;
    $("title").value = typeof doc.title === "string" ? doc.title : "";
    $("author").value = typeof doc.author === "string" ? doc.author : "";
    $("rows").value = cells.length;
    $("cols").value = cols;
    $("rtl").checked = S.rtl;
    $("result").hidden = true;
    changed();
    return true;
  }

  CW.construct = {
    documentState,
    loadDocument,
    init,
    render,
    edit,
    undo,
    redo,
    select,
    currentSlot,
    placeWord,
    placeCells,
    fillBase,
    clearFill,
    loadPuzzle,
    advance,
    newGrid,
    focusGrid,
    changed,
  };
})(window.CW);
