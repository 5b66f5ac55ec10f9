/* freeform.js: freeform mode, for teachers: a pasted word-and-clue list becomes a crossword laid
 * out by the server (a "freeform" job); the page shows the board, the clues, what was placed and
 * what was not, a word-search view, and prints the sheet and its key.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const $ = (id) => document.getElementById(id);
  const esc = (v) => CW.esc(v);

  const F = { result: null, seed: 0, job: null, lastEntries: null };

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
    if (newSeed) F.seed = Math.floor(Math.random() * 2147483647);
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
      draw();
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

  function drawBoard() {
    const r = F.result;
    const board = $("ff-board");
    const wordsearch = $("ff-wordsearch").checked && Array.isArray(r.wordsearch) && r.wordsearch.length;
    const cells = wordsearch ? r.wordsearch.map((row) => G.splitGlyphs(row)) : r.cells.map((row) => row.map((v) => v || ""));
    const numbers = new Map();
    if (!wordsearch) for (const e of r.entries || []) numbers.set(G.key(e.row, e.col), e.number);
    const box = $("ff-board-wrap");
    const size = G.fitCell(cells.length, cells[0].length, box.clientWidth || 600, box.clientHeight || 500, 14, 40);
    board.classList.toggle("wordsearch", !!wordsearch);
    G.draw(board, { cells, rtl: !!r.rtl, numbers, freeform: true, cellSize: size });
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
        html +=
          `<li><span class="ff-num">${esc(e.number)}</span> ${e.clue ? esc(e.clue) : '<span class="muted">(no clue)</span>'}` +
          ` <span class="ff-answer">${esc(e.display || e.answer)} (${esc(e.length)})</span></li>`;
      }
    }
    list.innerHTML = html;
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
    return {
      grid: { cells: r.cells.map((row) => row.map((v) => v || null)), rtl: !!r.rtl },
      solution: null,
      clues,
      title: $("title").value.trim(),
      author: $("author").value.trim(),
      freeform: true,
    };
  }

  function print(solution) {
    if (!F.result) return CW.setStatus("generate a puzzle first", "error");
    CW.files.print({ puzzle: puzzle(), solution, format: "pdf" }, solution ? "answer-key.pdf" : "puzzle.pdf");
  }

  function init() {
    $("ff-generate").addEventListener("click", () => generate(false));
    $("ff-reshuffle").addEventListener("click", () => generate(true));
    $("ff-cancel").addEventListener("click", cancel);
    $("ff-wordsearch").addEventListener("change", () => F.result && drawBoard());
    $("ff-print").addEventListener("click", () => print(false));
    $("ff-print-key").addEventListener("click", () => print(true));
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
    draw();
  }

  CW.freeform = { init, parseEntries, redraw: () => F.result && drawBoard() };
})(window.CW);
