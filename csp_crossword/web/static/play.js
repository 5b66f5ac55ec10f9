/* play.js: the crossword player, for solvers: an empty numbered grid, the clue lists, keyboard
 * and mouse, check / reveal / clear, a timer with pause, rebus cells. One standalone file: the
 * constructor page uses it in its Play mode, and an exported playable HTML file inlines it (with
 * play.css) to play offline, with no other script. It uses the page's grid.js (CW.grid) for
 * glyphs and numbering; the exported file inlines grid.js before it.
 *
 *   CWPlay.mount(root, data, options) -> player
 *
 * data: {title, author, copyright, notes, rtl, freeform, solution: rows of (glyph | null),
 * clues: {"1A": text}, and optionally voids: [[r, c]], given: [[r, c]] (cells shown filled),
 * labels: {"r,c": "label"}, styles: {"r,c": {circle, shaded, color, bars: ["top", ...]}}}.
 * A null solution cell is a block (in a freeform puzzle: empty space). Columns are in page order
 * also when the puzzle reads right to left: then across answers run leftwards.
 * options: {header: show title and author (default true), print: a Print button (default false),
 * onSolved(seconds)}.
 */
"use strict";

(function (global) {
  /* The glyph rules and the numbering are the page's grid.js (CW.grid), which an exported file
   * inlines before this one: one definition of what a cell holds and where entries run. */
  const G = () => global.CW.grid;

  /** Two entries are the same answer: NFC and upper case on both sides (a rebus typed in lower case counts). */
  const sameAnswer = (a, b) => !!a && !!b && a.normalize("NFC").toUpperCase() === b.normalize("NFC").toUpperCase();

  const key = (r, c) => r + "," + c;

  /* ---- The puzzle: slots and numbering, as the library numbers them (CW.grid.slots) ---- */

  /** Slots of the solution rows (a string: an open cell; null: a block or empty space). */
  function computeSlots(rows, rtl) {
    return G().slots(rows.map((row) => row.map((v) => (typeof v === "string" ? v : null))), rtl);
  }

  /** Why the data cannot be played ("" when it can): a missing answer, no entries. */
  function problem(data) {
    const rows = data && Array.isArray(data.solution) ? data.solution : null;
    if (!rows || !rows.length || !Array.isArray(rows[0]) || !rows[0].length) return "the puzzle has no grid";
    const cols = rows[0].length;
    if (rows.some((row) => !Array.isArray(row) || row.length !== cols)) return "the grid's rows differ in length";
    let empty = 0;
    for (const row of rows) for (const v of row) if (v === "") empty++;
    if (empty) return `${empty} open cell${empty === 1 ? " is" : "s are"} still empty`;
    if (!computeSlots(rows, !!data.rtl).length) return "the grid has no entries (runs of two or more letters)";
    return "";
  }

  /**
   * A freeform board cropped to the rows and columns its letters use (as the printed sheet is):
   * the same data with every cell position moved.
   */
  function cropFreeform(data) {
    const rows = data.solution;
    let top = rows.length, bottom = -1, left = rows[0].length, right = -1;
    rows.forEach((row, r) =>
      row.forEach((v, c) => {
        if (typeof v !== "string") return;
        top = Math.min(top, r);
        bottom = Math.max(bottom, r);
        left = Math.min(left, c);
        right = Math.max(right, c);
      })
    );
    if (bottom < 0 || (top === 0 && left === 0 && bottom === rows.length - 1 && right === rows[0].length - 1)) return data;
    const moveKey = (k) => {
      const [r, c] = k.split(",").map(Number);
      return r - top + "," + (c - left);
    };
    const moveKeys = (map) => Object.fromEntries(Object.entries(map || {}).map(([k, v]) => [moveKey(k), v]));
    const moveList = (list) => (list || []).map(([r, c]) => [r - top, c - left]);
    return Object.assign({}, data, {
      solution: rows.slice(top, bottom + 1).map((row) => row.slice(left, right + 1)),
      voids: moveList(data.voids),
      given: moveList(data.given),
      labels: moveKeys(data.labels),
      styles: moveKeys(data.styles),
    });
  }

  /** mm:ss, or h:mm:ss past an hour. */
  function clock(seconds) {
    const s = Math.floor(seconds);
    const two = (n) => String(n).padStart(2, "0");
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : two(m)) + ":" + two(s % 60);
  }

  /** An element with a class, attributes and text (never HTML). */
  function el(tag, className, attrs, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const COLOR = /^#[0-9a-fA-F]{6}$/;
  const BAR_SHADOWS = { top: "inset 0 3px 0 #111", right: "inset -3px 0 0 #111", bottom: "inset 0 -3px 0 #111", left: "inset 3px 0 0 #111" };
  /** Cell sizes (px), the gap between the grid and the clue lists, the least width of the grid's column. */
  const MIN_CELL = 18;
  const MAX_CELL = 48;
  const SIDE_GAP = 18;
  const MIN_MAIN_WIDTH = 360;
  const MIN_BOARD_HEIGHT = 200;
  /** The most characters a rebus cell takes (as construct mode's). */
  const MAX_REBUS_CHARS = 12;

  /* ---- The player ---- */

  function mount(root, data, options) {
    const opts = Object.assign({ header: true, print: false, onSolved: null }, options || {});
    const glyphs = G();
    root.textContent = "";
    root.classList.add("cwp");
    const why = problem(data);
    if (why) {
      root.appendChild(el("p", "cwp-unplayable", { role: "alert" }, "This puzzle cannot be played: " + why + "."));
      return null;
    }

    if (data.freeform) data = cropFreeform(data);
    const solution = data.solution;
    const rows = solution.length;
    const cols = solution[0].length;
    const rtl = !!data.rtl;
    const voids = new Set((data.voids || []).map(([r, c]) => key(r, c)));
    const isOpen = (r, c) => r >= 0 && r < rows && c >= 0 && c < cols && typeof solution[r][c] === "string";
    const slots = computeSlots(solution, rtl);
    const at = new Map(); // cell -> {across: {slot, pos}, down: {slot, pos}}
    const numbers = new Map();
    const labels = data.labels || {};
    for (const slot of slots) {
      const [r0, c0] = slot.cells[0];
      slot.label = labels[key(r0, c0)] || String(slot.number);
      numbers.set(key(r0, c0), slot.label);
      slot.cells.forEach(([r, c], pos) => {
        const k = key(r, c);
        if (!at.has(k)) at.set(k, {});
        at.get(k)[slot.direction] = { slot, pos };
      });
    }
    const byId = new Map(slots.map((slot) => [slot.id, slot]));
    const clues = data.clues || {};
    const given = new Set((data.given || []).map(([r, c]) => key(r, c)));

    const P = {
      entries: solution.map((row, r) => row.map((v, c) => (given.has(key(r, c)) && typeof v === "string" ? v : ""))),
      marks: new Map(), // cell -> "wrong" | "ok" | "revealed"
      sel: { r: slots[0].cells[0][0], c: slots[0].cells[0][1] },
      dir: slots[0].direction,
      lastTyped: null,
      started: false,
      running: false,
      paused: false,
      elapsed: 0, // seconds counted before `since`
      since: 0,
      tick: null,
      solved: false,
      cellSize: 0,
    };

    /* ---- The page ---- */

    root.dir = rtl ? "rtl" : "ltr";
    if (opts.header) {
      const head = el("header", "cwp-head");
      head.appendChild(el("h1", "cwp-title", { dir: "auto" }, data.title || "Crossword"));
      const byline = [data.author, data.copyright].filter(Boolean).join(" · ");
      if (byline) head.appendChild(el("p", "cwp-byline", { dir: "auto" }, byline));
      if (data.notes) head.appendChild(el("p", "cwp-notes", { dir: "auto" }, data.notes));
      root.appendChild(head);
    }

    const bar = el("div", "cwp-bar", { role: "toolbar", "aria-label": "Play" });
    function menu(label, act, items, title) {
      const details = el("details", "cwp-menu");
      details.appendChild(el("summary", "cwp-button", { title }, label));
      const list = el("div", "cwp-menu-list");
      for (const [scope, text] of items) {
        list.appendChild(el("button", "cwp-button", { type: "button", "data-act": act, "data-scope": scope }, text));
      }
      details.appendChild(list);
      return details;
    }
    const SCOPES = [["letter", "Letter"], ["word", "Word"], ["puzzle", "Puzzle"]];
    bar.append(
      menu("Check", "check", SCOPES, "Mark the wrong letters"),
      menu("Reveal", "reveal", SCOPES, "Show the answer"),
      menu("Clear", "clear", [["word", "Word"], ["puzzle", "Puzzle (and the timer)"]], "Empty cells"),
      el("button", "cwp-button", { type: "button", "data-act": "rebus", title: "Several letters in one cell (Insert key)" }, "Rebus")
    );
    bar.appendChild(el("span", "cwp-spacer"));
    const timerText = el("span", "cwp-timer", { role: "timer", "aria-label": "time" }, clock(0));
    const pauseButton = el("button", "cwp-button", { type: "button", "data-act": "pause" }, "Pause");
    bar.append(timerText, pauseButton);
    if (opts.print) bar.appendChild(el("button", "cwp-button", { type: "button", "data-act": "print", title: "Print the grid and the clues" }, "Print"));
    root.appendChild(bar);
    const message = el("div", "cwp-message", { role: "status", "aria-live": "polite" });
    root.appendChild(message);

    const body = el("div", "cwp-body");
    const main = el("div", "cwp-main");
    const clueBar = el("div", "cwp-clue-bar");
    const clueBarId = el("span", "cwp-clue-id");
    const clueBarText = el("span", "cwp-clue-text", { dir: "auto" });
    clueBar.append(clueBarId, clueBarText);
    const board = el("div", "cwp-board");
    const grid = el("div", "cwp-grid" + (data.freeform ? " cwp-freeform" : ""), { role: "grid", "aria-label": "Crossword grid" });
    grid.style.setProperty("--cwp-rows", rows);
    grid.style.setProperty("--cwp-cols", cols);
    const input = el("input", "cwp-input", { type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-label": "Type the answers" });
    const rebus = el("div", "cwp-rebus", { hidden: "" });
    const rebusText = el("input", "cwp-rebus-text", { type: "text", maxlength: String(MAX_REBUS_CHARS), spellcheck: "false", "aria-label": "Several letters for this cell", dir: "auto" });
    rebus.append(rebusText, el("span", "cwp-rebus-hint", {}, "Enter"));
    const cover = el("div", "cwp-cover", { hidden: "" });
    cover.append(el("p", "", {}, "Paused"), el("button", "cwp-button cwp-primary", { type: "button", "data-act": "pause" }, "Resume"));
    board.append(grid, input, rebus, cover);
    main.append(clueBar, board);

    const lists = el("div", "cwp-lists");
    const items = new Map(); // slot id -> li
    for (const direction of ["across", "down"]) {
      const group = slots.filter((s) => s.direction === direction);
      if (!group.length) continue;
      const section = el("section", "cwp-list");
      section.appendChild(el("h2", "", {}, direction === "across" ? "Across" : "Down"));
      const ol = el("ol");
      for (const slot of group) {
        const li = el("li", "", { "data-slot": slot.id });
        li.appendChild(el("span", "cwp-n", {}, slot.label));
        const text = clues[slot.id] || "";
        li.appendChild(el("span", "cwp-t" + (text ? "" : " cwp-none"), { dir: "auto" }, text || "(no clue)"));
        items.set(slot.id, li);
        ol.appendChild(li);
      }
      section.appendChild(ol);
      lists.appendChild(section);
    }
    body.append(main, lists);
    root.appendChild(body);
    if (slots.length > 100) root.classList.add("cwp-many");

    // The cells, built once; render() updates their classes and text.
    const cellNodes = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const node = el("div", "cwp-cell", { "data-row": String(r), "data-col": String(c), role: "gridcell" });
        node.append(el("span", "cwp-num"), el("span", "cwp-glyph"));
        const style = (data.styles || {})[key(r, c)];
        if (style && isOpen(r, c)) {
          if (style.color && COLOR.test(style.color)) node.style.setProperty("--cwp-shade", style.color);
          const shadows = (style.bars || []).map((edge) => BAR_SHADOWS[edge]).filter(Boolean);
          if (shadows.length) node.style.boxShadow = shadows.join(", ");
        }
        cellNodes.push(node);
        grid.appendChild(node);
      }
    }

    /* ---- Selection ---- */

    const slotAt = (r, c, direction) => {
      const where = at.get(key(r, c));
      return where && where[direction] ? where[direction] : null;
    };
    const current = () => slotAt(P.sel.r, P.sel.c, P.dir);
    const locked = (r, c) => given.has(key(r, c)) || P.marks.get(key(r, c)) === "revealed" || P.marks.get(key(r, c)) === "ok";

    function select(r, c, direction) {
      if (!isOpen(r, c)) return;
      P.sel = { r, c };
      if (direction && slotAt(r, c, direction)) P.dir = direction;
      else if (!slotAt(r, c, P.dir)) P.dir = P.dir === "across" ? "down" : "across";
      P.lastTyped = null;
      render();
    }

    function toggleDirection() {
      const other = P.dir === "across" ? "down" : "across";
      if (slotAt(P.sel.r, P.sel.c, other)) P.dir = other;
      P.lastTyped = null;
      render();
    }

    /** Move one cell in the entry (forward 1, back -1); false at its end. */
    function stepInSlot(delta) {
      const here = current();
      if (!here) return false;
      const next = here.slot.cells[here.pos + delta];
      if (!next) return false;
      P.sel = { r: next[0], c: next[1] };
      return true;
    }

    const firstEmpty = (slot) => slot.cells.find(([r, c]) => !P.entries[r][c]) || slot.cells[0];

    function selectSlot(slot, cell) {
      const [r, c] = cell || firstEmpty(slot);
      P.sel = { r, c };
      P.dir = slot.direction;
      P.lastTyped = null;
      render();
    }

    /** Tab / Shift+Tab: the next or previous entry, across then down, wrapping around. */
    function nextEntry(delta) {
      const here = current();
      const index = here ? slots.indexOf(here.slot) : -1;
      selectSlot(slots[(index + delta + slots.length) % slots.length]);
    }

    /** After the last cell of an entry, typing goes on in the next entry that has an empty cell. */
    function afterEntry() {
      const here = current();
      const start = here ? slots.indexOf(here.slot) : -1;
      for (let i = 1; i <= slots.length; i++) {
        const slot = slots[(start + i) % slots.length];
        if (slot.cells.some(([r, c]) => !P.entries[r][c])) return selectSlot(slot);
      }
    }

    /** An arrow: across the entry's direction it turns the direction first, else moves (over blocks). */
    function arrow(dr, dc) {
      const axis = dr ? "down" : "across";
      if (P.dir !== axis && slotAt(P.sel.r, P.sel.c, axis)) {
        P.dir = axis;
      } else {
        for (let r = P.sel.r + dr, c = P.sel.c + dc; r >= 0 && r < rows && c >= 0 && c < cols; r += dr, c += dc) {
          if (isOpen(r, c)) {
            P.sel = { r, c };
            if (!slotAt(r, c, P.dir)) P.dir = axis;
            break;
          }
        }
      }
      P.lastTyped = null;
      render();
    }

    /* ---- Typing ---- */

    function setEntry(r, c, value) {
      if (P.entries[r][c] === value) return;
      P.entries[r][c] = value;
      const mark = P.marks.get(key(r, c));
      if (mark === "wrong") P.marks.delete(key(r, c));
    }

    /** Typed text (a key, a paste, an IME's result), glyph by glyph. */
    function typeText(text) {
      for (const part of glyphs.splitGlyphs(text.normalize("NFC"))) {
        const last = P.lastTyped;
        const lastGlyph = last ? P.entries[last.r][last.c] : "";
        // A combining mark, or a consonant after a virama, belongs to the glyph typed just before.
        if (last && lastGlyph && (glyphs.isContinuation(part) || (glyphs.joinsNext(lastGlyph) && glyphs.isCellGlyph(part)))) {
          setEntry(last.r, last.c, glyphs.normalizeGlyph(lastGlyph + part));
          continue;
        }
        if (!glyphs.isCellGlyph(part)) continue;
        const { r, c } = P.sel;
        if (locked(r, c)) {
          P.lastTyped = null;
        } else {
          setEntry(r, c, glyphs.normalizeGlyph(part));
          P.lastTyped = { r, c };
        }
        if (!stepInSlot(1)) afterEntry();
      }
      changed();
    }

    /** Backspace: clear the cell and move back; on an empty cell, move back and clear that. */
    function backspace() {
      P.lastTyped = null;
      const { r, c } = P.sel;
      if (P.entries[r][c] && !locked(r, c)) {
        setEntry(r, c, "");
        stepInSlot(-1);
      } else if (stepInSlot(-1) && !locked(P.sel.r, P.sel.c)) {
        setEntry(P.sel.r, P.sel.c, "");
      }
      changed();
    }

    function deleteCell() {
      P.lastTyped = null;
      if (!locked(P.sel.r, P.sel.c)) setEntry(P.sel.r, P.sel.c, "");
      changed();
    }

    /* ---- Rebus: several letters in one cell ---- */

    function openRebus() {
      if (P.paused || locked(P.sel.r, P.sel.c)) return;
      const node = cellNodes[P.sel.r * cols + P.sel.c];
      rebus.style.left = node.offsetLeft + "px";
      rebus.style.top = node.offsetTop + "px";
      rebus.style.minWidth = Math.max(P.cellSize * 3, 90) + "px";
      rebus.hidden = false;
      rebusText.value = P.entries[P.sel.r][P.sel.c];
      rebusText.focus();
      rebusText.select();
    }

    function closeRebus(commit) {
      if (rebus.hidden) return;
      rebus.hidden = true;
      if (commit) {
        // As construct mode's rebus: letters, digits (and their marks), upper case.
        const value = rebusText.value.normalize("NFC").replace(/[^\p{L}\p{N}\p{M}]/gu, "").toUpperCase();
        setEntry(P.sel.r, P.sel.c, value);
        P.lastTyped = null;
        if (value && !stepInSlot(1)) afterEntry();
        startClock();
        changed();
      }
      focus();
    }

    /* ---- Check, reveal, clear ---- */

    function scopeCells(scope) {
      if (scope === "letter") return [[P.sel.r, P.sel.c]];
      if (scope === "word") {
        const here = current();
        return here ? here.slot.cells : [[P.sel.r, P.sel.c]];
      }
      const all = [];
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (isOpen(r, c)) all.push([r, c]);
      return all;
    }

    function check(scope) {
      let wrong = 0;
      let filled = 0;
      for (const [r, c] of scopeCells(scope)) {
        const k = key(r, c);
        if (!P.entries[r][c] || given.has(k) || P.marks.get(k) === "revealed") continue;
        filled++;
        if (sameAnswer(P.entries[r][c], solution[r][c])) P.marks.set(k, "ok");
        else {
          P.marks.set(k, "wrong");
          wrong++;
        }
      }
      say(!filled ? "Nothing to check there yet." : wrong ? `${wrong} wrong letter${wrong === 1 ? "" : "s"} marked.` : "All checked letters are right.", wrong ? "bad" : "");
      changed(true);
    }

    function reveal(scope) {
      let shown = 0;
      for (const [r, c] of scopeCells(scope)) {
        const k = key(r, c);
        if (given.has(k)) continue;
        if (sameAnswer(P.entries[r][c], solution[r][c])) {
          if (!P.marks.has(k) || P.marks.get(k) === "wrong") P.marks.set(k, "ok");
          continue;
        }
        P.entries[r][c] = solution[r][c];
        P.marks.set(k, "revealed");
        shown++;
      }
      say(shown ? `${shown} cell${shown === 1 ? "" : "s"} revealed.` : "Those cells were right already.", "");
      changed(true);
    }

    function clear(scope) {
      for (const [r, c] of scopeCells(scope)) {
        if (given.has(key(r, c))) continue;
        P.entries[r][c] = "";
        P.marks.delete(key(r, c));
      }
      if (scope === "puzzle") {
        stopClock();
        P.started = false;
        P.elapsed = 0;
        P.solved = false;
        root.classList.remove("cwp-solved");
        timerText.textContent = clock(0);
      }
      say("", "");
      changed(true);
    }

    /* ---- Timer ---- */

    const seconds = () => P.elapsed + (P.running ? (Date.now() - P.since) / 1000 : 0);

    function startClock() {
      if (P.started || P.solved) return;
      P.started = true;
      resumeClock();
    }

    function resumeClock() {
      if (P.running || !P.started || P.solved || P.paused) return;
      P.running = true;
      P.since = Date.now();
      P.tick = setInterval(() => (timerText.textContent = clock(seconds())), 250);
    }

    function stopClock() {
      if (P.running) P.elapsed = seconds();
      P.running = false;
      clearInterval(P.tick);
      P.tick = null;
      timerText.textContent = clock(P.elapsed);
    }

    function setPaused(paused) {
      if (P.solved && paused) return;
      P.paused = paused;
      closeRebus(false);
      if (paused) stopClock();
      else resumeClock();
      root.classList.toggle("cwp-paused", paused);
      cover.hidden = !paused;
      pauseButton.textContent = paused ? "Resume" : "Pause";
      if (!paused) focus();
    }

    /* ---- State after a change ---- */

    function say(text, kind) {
      message.textContent = text;
      message.dataset.kind = kind || "";
    }

    function changed(quiet) {
      render();
      if (P.solved) return;
      let empty = 0;
      let wrong = 0;
      let revealed = 0;
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (!isOpen(r, c)) continue;
          if (!P.entries[r][c]) empty++;
          else if (!sameAnswer(P.entries[r][c], solution[r][c])) wrong++;
          if (P.marks.get(key(r, c)) === "revealed") revealed++;
        }
      }
      if (empty) return;
      if (wrong) {
        if (!quiet) say("Every cell is filled, but something is not right yet: Check can mark the wrong letters.", "bad");
        return;
      }
      P.solved = true;
      stopClock();
      root.classList.add("cwp-solved");
      const help = revealed ? ` (${revealed} cell${revealed === 1 ? "" : "s"} revealed)` : "";
      say(P.started ? `Solved in ${clock(P.elapsed)}!${help}` : `The puzzle is complete${help}.`, "good");
      if (opts.onSolved) opts.onSolved(P.elapsed);
    }

    function render() {
      const here = current();
      const inWord = new Set(here ? here.slot.cells.map(([r, c]) => key(r, c)) : []);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const node = cellNodes[r * cols + c];
          const k = key(r, c);
          const classes = ["cwp-cell"];
          if (!isOpen(r, c)) classes.push(data.freeform || voids.has(k) ? "cwp-space" : "cwp-block");
          else {
            const style = (data.styles || {})[k];
            if (style && style.circle) classes.push("cwp-circle");
            if (style && (style.shaded || style.color)) classes.push("cwp-shaded");
            if (given.has(k)) classes.push("cwp-given");
            const mark = P.marks.get(k);
            if (mark) classes.push("cwp-" + mark);
            if (inWord.has(k)) classes.push("cwp-word");
            if (r === P.sel.r && c === P.sel.c) classes.push("cwp-sel");
          }
          const className = classes.join(" ");
          if (node.className !== className) node.className = className;
          const num = numbers.get(k) || "";
          if (node.firstChild.textContent !== num) node.firstChild.textContent = num;
          const text = isOpen(r, c) ? P.entries[r][c] : "";
          if (node.lastChild.textContent !== text) {
            node.lastChild.textContent = text;
            // A rebus shrinks to fit the cell; one glyph (a Bangla conjunct too) keeps its size.
            node.lastChild.classList.toggle("cwp-long", glyphs.splitGlyphs(text).length > 1);
          }
        }
      }
      const cross = here ? slotAt(P.sel.r, P.sel.c, P.dir === "across" ? "down" : "across") : null;
      for (const [id, li] of items) {
        const slot = byId.get(id);
        li.classList.toggle("cwp-current", !!here && here.slot.id === id);
        li.classList.toggle("cwp-crossing", !!cross && cross.slot.id === id);
        li.classList.toggle("cwp-done", slot.cells.every(([r, c]) => !!P.entries[r][c]));
      }
      if (here) {
        clueBarId.textContent = here.slot.label + (here.slot.direction === "across" ? "A" : "D");
        clueBarText.textContent = clues[here.slot.id] || "(no clue)";
        clueBarText.classList.toggle("cwp-none", !clues[here.slot.id]);
        const li = items.get(here.slot.id);
        if (li) keepInView(li);
      }
      placeInput();
    }

    /** Scroll a clue list (not the page) so the current clue shows. */
    function keepInView(li) {
      const list = li.closest(".cwp-list");
      if (!list || list.scrollHeight <= list.clientHeight) return;
      const top = li.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top - 4;
      else if (top + li.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + li.offsetHeight - list.clientHeight + 4;
    }

    /** The text box the keys go into sits on the selected cell, so an IME's window opens there. */
    function placeInput() {
      const node = cellNodes[P.sel.r * cols + P.sel.c];
      input.style.left = node.offsetLeft + "px";
      input.style.top = node.offsetTop + "px";
      input.style.width = P.cellSize + "px";
      input.style.height = P.cellSize + "px";
    }

    /**
     * A cell size that fits the space beside the clue lists (or above them, on a narrow screen)
     * and below the bars; the grid's column is as wide as the grid, so the clues stand beside it.
     */
    function fit() {
      if (!root.clientWidth) return; // hidden: measured when shown again
      const stacked = global.getComputedStyle(body).flexDirection === "column";
      const width = root.clientWidth - (stacked ? 0 : lists.offsetWidth + SIDE_GAP);
      const top = board.getBoundingClientRect().top + (global.scrollY || 0);
      const height = Math.max(MIN_BOARD_HEIGHT, (global.innerHeight || 800) - Math.max(0, top) - 24);
      const size = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(Math.min((width - 4) / cols, (height - 4) / rows))));
      if (size !== P.cellSize) {
        P.cellSize = size;
        grid.style.setProperty("--cwp-cell", size + "px");
        lists.style.setProperty("--cwp-grid-height", size * rows + "px");
      }
      main.style.width = stacked ? "" : Math.min(width, Math.max(cols * size + 6, MIN_MAIN_WIDTH)) + "px";
      placeInput();
    }

    function focus() {
      if (!P.paused) input.focus({ preventScroll: true });
    }

    /* ---- Events ---- */

    const KEYS = {
      ArrowLeft: () => arrow(0, -1),
      ArrowRight: () => arrow(0, 1),
      ArrowUp: () => arrow(-1, 0),
      ArrowDown: () => arrow(1, 0),
      Backspace: backspace,
      Delete: deleteCell,
      " ": toggleDirection,
      Insert: openRebus,
      Home: () => current() && selectSlot(current().slot, current().slot.cells[0]),
      End: () => current() && selectSlot(current().slot, current().slot.cells[current().slot.cells.length - 1]),
      Enter: () => nextEntry(1),
    };

    input.addEventListener("keydown", (event) => {
      if (event.isComposing || event.keyCode === 229) return; // an IME is composing
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (P.paused || P.solved) {
        if (event.key === "Tab" || KEYS[event.key]) event.preventDefault();
        if (P.solved && event.key.startsWith("Arrow")) KEYS[event.key]();
        return;
      }
      if (event.key === "Tab") {
        event.preventDefault();
        startClock();
        nextEntry(event.shiftKey ? -1 : 1);
        return;
      }
      const action = KEYS[event.key];
      if (action) {
        event.preventDefault();
        startClock();
        action();
      }
    });
    input.addEventListener("input", (event) => {
      if (event.isComposing) return;
      const text = input.value;
      input.value = "";
      if (!text || P.paused || P.solved) return;
      startClock();
      typeText(text);
    });
    input.addEventListener("compositionend", () =>
      setTimeout(() => {
        const text = input.value;
        input.value = "";
        if (text && !P.paused && !P.solved) {
          startClock();
          typeText(text);
        }
      }, 0)
    );
    input.addEventListener("focus", () => grid.classList.add("cwp-focused"));
    input.addEventListener("blur", () => grid.classList.remove("cwp-focused"));

    grid.addEventListener("mousedown", (event) => {
      const node = event.target.closest(".cwp-cell");
      if (!node) return;
      event.preventDefault(); // keep the focus in the text box
      closeRebus(false);
      const r = +node.dataset.row;
      const c = +node.dataset.col;
      if (r === P.sel.r && c === P.sel.c) toggleDirection();
      else select(r, c);
      focus();
    });

    lists.addEventListener("click", (event) => {
      const li = event.target.closest("li[data-slot]");
      if (!li || P.paused) return;
      const slot = byId.get(li.dataset.slot);
      if (slot) selectSlot(slot);
      focus();
    });

    rebusText.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        closeRebus(true);
      } else if (event.key === "Escape") {
        event.preventDefault();
        closeRebus(false);
      }
    });
    rebusText.addEventListener("blur", () => setTimeout(() => closeRebus(true), 0));

    root.addEventListener("click", (event) => {
      const button = event.target.closest("[data-act]");
      if (!button || !root.contains(button)) return;
      const details = button.closest("details");
      if (details) details.open = false;
      const act = button.dataset.act;
      if (act === "pause") return setPaused(!P.paused);
      if (act === "print") return global.print();
      if (P.paused) return;
      if (act === "rebus") return openRebus();
      if (act === "check") check(button.dataset.scope);
      else if (act === "reveal") reveal(button.dataset.scope);
      else if (act === "clear") clear(button.dataset.scope);
      focus();
    });
    // One menu open at a time; a click elsewhere closes them.
    document.addEventListener("click", closeMenus);
    function closeMenus(event) {
      for (const details of root.querySelectorAll("details.cwp-menu[open]")) {
        if (!details.contains(event.target)) details.open = false;
      }
    }
    global.addEventListener("resize", fit);

    fit();
    render();

    return {
      root,
      pause: () => setPaused(true),
      resume: () => setPaused(false),
      focus,
      fit,
      get solved() {
        return P.solved;
      },
      get running() {
        return P.running;
      },
      get seconds() {
        return seconds();
      },
      entries: () => P.entries.map((row) => row.slice()),
      destroy() {
        stopClock();
        global.removeEventListener("resize", fit);
        document.removeEventListener("click", closeMenus);
        root.textContent = "";
        root.classList.remove("cwp", "cwp-paused", "cwp-solved", "cwp-many");
      },
    };
  }

  global.CWPlay = { mount, problem, computeSlots, clock };
})(window);
