/* freeform.js: freeform mode, for teachers: a pasted word-and-clue list becomes a crossword laid
 * out by the server (a "freeform" job); the page shows the board, the clues, what was placed and
 * what was not, a word-search view, and prints the sheet, its key and the word search. A word
 * selected on the board can be replaced by another that fits its cells (POST
 * /api/freeform/replace) or highlighted (shaded on the board and in print).
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const $ = (id) => document.getElementById(id);
  const esc = (v) => CW.esc(v);

  /**
   * Clues longer than this many characters are flagged in the clue list. A printed clue column
   * (about 42 mm at 9 pt) holds about 25 characters a line: past three lines a clue crowds the
   * page, and it is often a definition pasted whole rather than a clue.
   */
  const LONG_CLUE_CHARS = 80;

  // sel: the selected word {r, c, dir} (a cell and a direction); highlights: anchors of the
  // highlighted words ("across@r,c"); search: the word-search square, rows of glyphs.
  const F = { result: null, seed: 0, job: null, lastEntries: null, sel: null, highlights: new Set(), search: null };

  /**
   * The entries of the text box: one a line, as `word`, `word: clue`, `word;clue` or
   * `word<TAB>clue` (the first of these separators splits; clues may hold the others).
   */
  function parseEntries(text) {
    const entries = [];
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const cut = [line.indexOf("\t"), line.indexOf(";"), line.indexOf(":")].filter((i) => i > 0);
      const at = cut.length ? Math.min(...cut) : -1;
      const word = (at < 0 ? line : line.slice(0, at)).trim();
      const clue = at < 0 ? "" : line.slice(at + 1).trim();
      if (word) entries.push({ word, clue });
    }
    return entries;
  }

  /** A word's entry form, to compare a placed word with a line of the list. */
  const entryForm = (word) => word.normalize("NFC").replace(/[\s\-\u2010-\u2014'\u2019\u02bc.]/g, "").toUpperCase();

  function timeLimit() {
    const value = Number($("ff-time-limit").value);
    return value > 0 ? value : 5;
  }

  function setRunning(running) {
    $("ff-generate").disabled = running;
    $("ff-reshuffle").disabled = running || !F.lastEntries;
    $("ff-cancel").disabled = !running;
    $("ff-progress").hidden = !running;
  }

  async function generate(newSeed) {
    const entries = parseEntries($("ff-words").value);
    if (!entries.length) return CW.setStatus("type or paste some words first, one a line", "error");
    if (newSeed) F.seed = Math.floor(Math.random() * CW.MAX_SEED);
    const body = { kind: "freeform", entries, symmetric: $("ff-symmetric").checked, seed: F.seed, time_limit: timeLimit() };
    F.lastEntries = entries;
    setRunning(true);
    $("ff-progress").textContent = "laying out...";
    CW.setStatus(`laying out ${entries.length} words...`, "busy");
    try {
      const job = await CW.api.runJob(
        body,
        (p) => {
          const parts = ["laying out"];
          if (p.boards !== undefined) parts.push(`${Number(p.boards).toLocaleString()} boards`);
          if (p.nodes !== undefined) parts.push(`${Number(p.nodes).toLocaleString()} nodes`);
          if (p.seconds !== undefined) parts.push(`${Number(p.seconds).toFixed(1)} s`);
          $("ff-progress").textContent = parts.join(" · ");
        },
        (job) => (F.job = job.id)
      );
      if (job.state === "failed" || !job.result) {
        CW.setStatus(`freeform failed: ${job.error || "no result"}`, "error");
        return;
      }
      F.result = job.result;
      F.search = (job.result.wordsearch || []).map((row) => G.splitGlyphs(row));
      F.sel = null;
      F.highlights = new Set();
      draw();
      keep();
      const r = job.result;
      const failed = (r.failed || []).length;
      CW.setStatus(
        `placed ${(r.placed || []).length} of ${entries.length} words on ${r.rows || r.cells.length} x ${r.cols || r.cells[0].length}` +
          (failed ? `; ${failed} could not be placed` : "") +
          (job.state === "cancelled" ? " (cancelled: best so far)" : ""),
        failed ? "info" : "ok"
      );
    } catch (error) {
      CW.report(error, "freeform");
    } finally {
      F.job = null;
      setRunning(false);
    }
  }

  async function cancel() {
    if (!F.job) return;
    try {
      await CW.api.cancelJob(F.job);
    } catch (error) {
      CW.report(error, "cancel");
    }
  }

  /* ---- Drawing the result ---- */

  function draw() {
    const r = F.result;
    const empty = !r;
    $("ff-empty").hidden = !empty;
    $("ff-result").hidden = empty;
    if (empty) return;
    drawBoard();
    drawClues();
    drawPlaced();
  }

  /* ---- Words on the board: selection, highlight ---- */

  /** The board's words as G.slots gives them (cells in reading order), with their entries. */
  function boardSlots() {
    const r = F.result;
    const slots = G.slots(r.cells.map((row) => row.map((v) => v || null)), !!r.rtl);
    const byId = new Map((r.entries || []).map((e) => [e.id, e]));
    for (const slot of slots) slot.entry = byId.get(slot.id) || null;
    return slots;
  }

  /** The word through (r, c) running in dir, or null. */
  function slotAt(r, c, dir) {
    return boardSlots().find((s) => s.direction === dir && s.cells.some(([rr, cc]) => rr === r && cc === c)) || null;
  }

  const selectedSlot = () => (F.sel ? slotAt(F.sel.r, F.sel.c, F.sel.dir) : null);
  const wordSearchShown = () => $("ff-wordsearch").checked && F.search && F.search.length;

  /** Select the word through (r, c): in dir when there is one, else the other way. */
  function select(r, c, dir) {
    const other = dir === "across" ? "down" : "across";
    const slot = slotAt(r, c, dir) || slotAt(r, c, other);
    F.sel = slot ? { r, c, dir: slot.direction } : null;
    drawBoard();
    showSelection();
  }

  function showSelection() {
    const slot = selectedSlot();
    $("ff-replace").disabled = !slot;
    $("ff-highlight").disabled = !slot;
    $("ff-highlight").setAttribute("aria-pressed", String(!!slot && F.highlights.has(slot.anchor)));
    const word = slot && slot.entry ? slot.entry.display || slot.entry.answer : "";
    $("ff-selected").textContent = slot ? `${slot.id} ${word}` : "Click a word on the board (arrows move, Space turns)";
    $("ff-selected").classList.toggle("muted", !slot);
  }

  function onBoardClick(event) {
    const node = event.target.closest(".cell");
    if (!node || !F.result || wordSearchShown()) return;
    const r = Number(node.dataset.row);
    const c = Number(node.dataset.col);
    if (!F.result.cells[r][c]) {
      F.sel = null;
      drawBoard();
      return showSelection();
    }
    // a second click on the selected cell turns to the word the other way (at a crossing)
    const same = F.sel && F.sel.r === r && F.sel.c === c;
    const dir = F.sel ? (same ? (F.sel.dir === "across" ? "down" : "across") : F.sel.dir) : "across";
    select(r, c, dir);
    $("ff-board").focus();
  }

  /** Arrows move to the next letter cell that way; Space turns; R replaces; H highlights. */
  function onBoardKey(event) {
    if (!F.result || wordSearchShown() || event.ctrlKey || event.metaKey || event.altKey) return;
    const cells = F.result.cells;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const key = event.key;
    if (moves[key]) {
      event.preventDefault();
      const [dr, dc] = moves[key];
      const dir = dr ? "down" : "across";
      if (!F.sel) return selectFirst();
      for (let r = F.sel.r + dr, c = F.sel.c + dc; r >= 0 && r < cells.length && c >= 0 && c < cells[0].length; r += dr, c += dc) {
        if (cells[r][c]) return select(r, c, dir);
      }
      return select(F.sel.r, F.sel.c, dir);
    }
    if (key === " " || key === "Enter") {
      event.preventDefault();
      if (!F.sel) return selectFirst();
      return select(F.sel.r, F.sel.c, F.sel.dir === "across" ? "down" : "across");
    }
    if (key === "Escape") {
      F.sel = null;
      drawBoard();
      return showSelection();
    }
    if (key === "r" || key === "R") {
      event.preventDefault();
      return replaceSelected();
    }
    if (key === "h" || key === "H") {
      event.preventDefault();
      return toggleHighlight();
    }
  }

  function selectFirst() {
    const first = boardSlots()[0];
    if (first) select(first.cells[0][0], first.cells[0][1], first.direction);
  }

  function toggleHighlight() {
    const slot = selectedSlot();
    if (!slot) return CW.setStatus("select a word on the board first", "error");
    const on = !F.highlights.has(slot.anchor);
    if (on) F.highlights.add(slot.anchor);
    else F.highlights.delete(slot.anchor);
    keepSoon();
    drawBoard();
    showSelection();
    CW.setStatus(`${on ? "highlighted" : "no longer highlighted"}: ${slot.id}`, "ok");
  }

  /** Cells of the highlighted words: key -> {shaded: true} (drawn shaded, printed shaded). */
  function highlightStyles() {
    const styles = new Map();
    if (!F.highlights.size) return styles;
    for (const slot of boardSlots()) {
      if (F.highlights.has(slot.anchor)) for (const [r, c] of slot.cells) styles.set(G.key(r, c), { shaded: true });
    }
    return styles;
  }

  /** The built-in list's language for a board: Arabic for a right-to-left board, Bangla for a
   * board in Bengali script, else the Words tab's choice. */
  function boardLanguage(cells, rtl) {
    if (rtl) return "ar";
    if (cells.some((row) => row.some((v) => v && /[\u0980-\u09FF]/.test(v)))) return "bn";
    return CW.solver.wordSettings().lang;
  }

  /** Replace the selected word with a random word that fits its cells (the server draws it). */
  async function replaceSelected() {
    const slot = selectedSlot();
    if (!slot) return CW.setStatus("select a word on the board first", "error");
    const r = F.result;
    const fromList = $("ff-replace-from").value === "list";
    const body = {
      cells: r.cells.map((row) => row.map((v) => v || null)),
      rtl: !!r.rtl,
      row: slot.cells[0][0],
      col: slot.cells[0][1],
      direction: slot.direction,
      seed: Math.floor(Math.random() * CW.MAX_SEED),
      // the Words tab's list and rules, in the board's own language
      ...CW.solver.wordSettings(),
      lang: boardLanguage(r.cells, !!r.rtl),
    };
    if (fromList) body.entries = F.lastEntries || parseEntries($("ff-words").value);
    $("ff-replace").disabled = true;
    try {
      const answer = await CW.api.post("/api/freeform/replace", body);
      applyReplacement(slot, answer, fromList);
    } catch (error) {
      CW.report(error, "replace");
    } finally {
      showSelection();
    }
  }

  function applyReplacement(slot, answer, fromList) {
    keepSoon();
    const r = F.result;
    const glyphs = G.splitGlyphs(answer.word);
    answer.cells.forEach(([row, col], k) => {
      r.cells[row][col] = glyphs[k];
      if (F.search && F.search[row]) F.search[row][col] = glyphs[k];
    });
    const old = slot.entry ? slot.entry.display || slot.entry.answer : "";
    if (slot.entry) Object.assign(slot.entry, { answer: answer.word, display: answer.display, clue: answer.clue || "", replaced: true });
    const placedAt = (r.placed || []).findIndex((w) => entryForm(w) === entryForm(old));
    if (placedAt >= 0) r.placed[placedAt] = answer.display;
    if (fromList) r.failed = (r.failed || []).filter((w) => entryForm(String(w)) !== entryForm(answer.word));
    draw();
    showSelection();
    CW.setStatus(`replaced ${old} with ${answer.display} (fits ${answer.pattern}; ${answer.choices} words fitted)`, "ok");
  }

  function drawBoard() {
    const r = F.result;
    const board = $("ff-board");
    const wordsearch = wordSearchShown();
    const cells = wordsearch ? F.search : r.cells.map((row) => row.map((v) => v || ""));
    const numbers = new Map();
    if (!wordsearch) for (const e of r.entries || []) numbers.set(G.key(e.row, e.col), e.number);
    const box = $("ff-board-wrap");
    const size = G.fitCell(cells.length, cells[0].length, box.clientWidth || 600, box.clientHeight || 500, 14, 40);
    board.classList.toggle("wordsearch", !!wordsearch);
    const slot = wordsearch ? null : selectedSlot();
    const inWord = new Set(slot ? slot.cells.map(([rr, cc]) => G.key(rr, cc)) : []);
    const classes = (rr, cc) => {
      if (!slot) return [];
      if (rr === F.sel.r && cc === F.sel.c) return ["selected"];
      return inWord.has(G.key(rr, cc)) ? ["in-entry"] : [];
    };
    const styles = wordsearch ? null : highlightStyles();
    G.draw(board, { cells, rtl: !!r.rtl, numbers, freeform: true, cellSize: size, classes, styles });
  }

  function drawClues() {
    const r = F.result;
    const list = $("ff-clues");
    let html = "";
    for (const direction of ["across", "down"]) {
      const entries = (r.entries || []).filter((e) => e.direction === direction);
      if (!entries.length) continue;
      html += `<li class="clue-heading">${direction === "across" ? "Across" : "Down"}</li>`;
      for (const e of entries) {
        const clue = e.clue || "";
        const long = clue.length > LONG_CLUE_CHARS;
        // a replaced word's clue starts as an empty box to type one in
        const text = clue
          ? esc(clue)
          : !e.replaced
          ? '<span class="muted">(no clue)</span>'
          : `<input type="text" class="ff-clue-input" data-id="${esc(e.id)}" maxlength="2000" placeholder="(no clue: type one)" aria-label="clue for ${esc(e.id)}">`;
        const flag = long
          ? ` <span class="ff-long-flag" title="${esc(`This clue is ${clue.length} characters; clues over ${LONG_CLUE_CHARS} take more than three lines of a printed clue column`)}">⚠ long clue</span>`
          : "";
        html +=
          `<li data-id="${esc(e.id)}"${long ? ' class="ff-long-clue"' : ""}><span class="ff-num">${esc(e.number)}</span> ${text}` +
          ` <span class="ff-answer">${esc(e.display || e.answer)} (${esc(e.length)})</span>${flag}</li>`;
      }
    }
    list.innerHTML = html;
  }

  /** A clue typed into an empty clue box: kept with its entry (and printed). */
  function onClueTyped(event) {
    const input = event.target.closest(".ff-clue-input");
    if (!input || !F.result) return;
    const entry = (F.result.entries || []).find((e) => e.id === input.dataset.id);
    if (!entry) return;
    entry.clue = input.value.trim();
    if (entry.clue) drawClues();
  }

  function drawPlaced() {
    const r = F.result;
    const placed = $("ff-placed");
    placed.textContent = "";
    for (const word of r.placed || []) {
      const li = document.createElement("li");
      li.dataset.word = word;
      const text = document.createElement("span");
      text.textContent = word;
      const x = document.createElement("button");
      x.type = "button";
      x.className = "chip-x";
      x.textContent = "×";
      x.title = `remove ${word} from the list and lay out again`;
      x.setAttribute("aria-label", x.title);
      li.append(text, x);
      placed.appendChild(li);
    }
    const failed = $("ff-failed");
    failed.textContent = "";
    for (const word of r.failed || []) {
      const li = document.createElement("li");
      li.textContent = typeof word === "string" ? word : word.word || JSON.stringify(word);
      failed.appendChild(li);
    }
    $("ff-failed-box").hidden = !(r.failed || []).length;
    $("ff-placed-count").textContent = `${(r.placed || []).length}`;
  }

  /** Remove a word's line from the list, then lay out again. */
  function removeWord(word) {
    const target = entryForm(word);
    const lines = $("ff-words").value.split(/\r?\n/);
    const keep = lines.filter((line) => {
      const entry = parseEntries(line)[0];
      return !entry || entryForm(entry.word) !== target;
    });
    $("ff-words").value = keep.join("\n");
    CW.setStatus(`removed ${word}; laying out again`, "info");
    generate(false);
  }

  /**
   * Puzzle for print: the board's cells, empty space as null (freeform: printed as space, not
   * black squares). The server takes the full board as the solution and prints an empty pattern.
   */
  function puzzle() {
    const r = F.result;
    const clues = {};
    for (const e of r.entries || []) if (e.clue) clues[e.id] = e.clue;
    const styles = [];
    for (const [key, style] of highlightStyles()) {
      const [row, col] = key.split(",").map(Number);
      styles.push({ row, col, shaded: !!style.shaded });
    }
    return {
      grid: { cells: r.cells.map((row) => row.map((v) => v || null)), rtl: !!r.rtl },
      solution: null,
      clues,
      ...CW.titlesOf("freeform"),
      freeform: true,
      styles,
    };
  }

  function print(solution) {
    if (!F.result) return CW.setStatus("generate a puzzle first", "error");
    CW.files.print({ puzzle: puzzle(), solution, format: "pdf" }, solution ? "answer-key.pdf" : "puzzle.pdf");
  }

  /** The word-search sheet (the letter square and the words to find) or its key, as a PDF. */
  function printSearch(solution) {
    if (!F.result || !F.search || !F.search.length) return CW.setStatus("generate a puzzle first", "error");
    const body = { puzzle: puzzle(), solution, format: "pdf", wordsearch: F.search };
    CW.files.print(body, solution ? "word-search-key.pdf" : "word-search.pdf");
  }

  function init() {
    $("ff-generate").addEventListener("click", () => generate(false));
    $("ff-reshuffle").addEventListener("click", () => generate(true));
    $("ff-cancel").addEventListener("click", cancel);
    $("ff-wordsearch").addEventListener("change", () => F.result && drawBoard());
    $("ff-print").addEventListener("click", () => print(false));
    $("ff-print-key").addEventListener("click", () => print(true));
    $("ff-print-search").addEventListener("click", () => printSearch(false));
    $("ff-print-search-key").addEventListener("click", () => printSearch(true));
    $("ff-board").addEventListener("click", onBoardClick);
    $("ff-board").addEventListener("keydown", onBoardKey);
    $("ff-replace").addEventListener("click", replaceSelected);
    $("ff-highlight").addEventListener("click", toggleHighlight);
    $("ff-clues").addEventListener("change", onClueTyped);
    $("ff-placed").addEventListener("click", (event) => {
      const li = event.target.closest("li[data-word]");
      if (li && event.target.closest(".chip-x")) removeWord(li.dataset.word);
    });
    $("ff-file").addEventListener("change", (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (!file) return;
      const reader = new FileReader();
      reader.onload = () => {
        $("ff-words").value = String(reader.result).replace(/^\ufeff/, "");
        CW.setStatus(`read ${file.name}: ${parseEntries($("ff-words").value).length} entries`, "ok");
      };
      reader.onerror = () => CW.setStatus(`could not read ${file.name}`, "error");
      reader.readAsText(file);
    });
    window.addEventListener("resize", () => F.result && CW.mode === "freeform" && drawBoard());
    setRunning(false);
    restore();
    for (const id of ["ff-words", "ff-symmetric", "ff-time-limit"]) $(id).addEventListener("input", keepSoon);
    for (const id of ["ff-board", "ff-clues", "ff-placed"]) $(id).addEventListener("click", keepSoon);
    $("ff-clues").addEventListener("change", keepSoon);
    $("ff-board").addEventListener("keydown", keepSoon);
    window.addEventListener("pagehide", keep);
    document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && keep());
    draw();
  }

  /* ---- Kept in the browser: a reload brings back the list and the board ---- */

  const KEPT_KEY = "csp-crossword-freeform";

  function keep() {
    const kept = {
      words: $("ff-words").value,
      symmetric: $("ff-symmetric").checked,
      time: $("ff-time-limit").value,
      seed: F.seed,
      result: F.result,
      lastEntries: F.lastEntries,
      highlights: [...F.highlights],
    };
    try {
      localStorage.setItem(KEPT_KEY, JSON.stringify(kept));
    } catch (error) {
      CW.setStatus(`freeform: the browser would not keep the list and board (${error.name}); print or play it before leaving`, "error");
    }
  }

  function restore() {
    let kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(KEPT_KEY) || "null");
    } catch (_) {
      return; /* nothing kept, or not ours */
    }
    if (!kept || typeof kept !== "object") return;
    if (typeof kept.words === "string") $("ff-words").value = kept.words;
    $("ff-symmetric").checked = !!kept.symmetric;
    if (kept.time) $("ff-time-limit").value = kept.time;
    if (Number.isInteger(kept.seed)) F.seed = kept.seed;
    if (kept.result && Array.isArray(kept.result.cells)) {
      F.result = kept.result;
      F.search = (kept.result.wordsearch || []).map((row) => G.splitGlyphs(row));
      F.lastEntries = kept.lastEntries || null;
      F.highlights = new Set(Array.isArray(kept.highlights) ? kept.highlights : []);
    }
  }

  let keepTimer = null;
  const keepSoon = () => {
    clearTimeout(keepTimer);
    keepTimer = setTimeout(keep, 500);
  };

  // puzzle(): the laid-out puzzle in CW.files.puzzle()'s shape (null before a layout), for Play mode.
  CW.freeform = { init, parseEntries, redraw: () => F.result && drawBoard(), puzzle: () => (F.result ? puzzle() : null) };
})(window.CW);
