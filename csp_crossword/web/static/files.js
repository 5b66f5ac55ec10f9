/* files.js: open, save and print in construct mode (POST /api/open, /api/save, /api/print). */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const S = CW.state;
  const $ = (id) => document.getElementById(id);

  /**
   * The Puzzle the server saves and prints. The grid carries the letters typed; the server takes
   * a grid with every open cell filled as the solution (and prints an empty pattern), and a partly
   * filled one as a pattern with given letters.
   */
  function puzzle() {
    return {
      grid: { cells: S.cells.map((row) => row.slice()), rtl: S.rtl },
      solution: null,
      clues: CW.clues.byId(),
      ...CW.titlesOf("construct"),
      copyright: S.meta.copyright || "",
      notes: S.meta.notes || "",
      freeform: false,
      ...cellStyles(),
      ...work(),
    };
  }

  /** The locks and the letters an autofill placed (0-based cells), which .ipuz and .json keep. */
  function work() {
    const cells = (keys) =>
      [...keys].map((k) => k.split(",").map(Number)).filter(([r, c]) => S.cells[r] && S.cells[r][c]);
    return { locked_cells: cells(S.locked), filled_cells: cells(S.fromFill) };
  }

  /** Circles, shading, bars (0-based cells) and void cells, as the server's PuzzleModel has them. */
  function cellStyles() {
    const at = (k) => k.split(",").map(Number);
    const styles = [];
    for (const [k, style] of S.styles) {
      const [row, col] = at(k);
      if (!S.cells[row] || S.cells[row][col] === undefined) continue;
      const bars = (style.bars || []).filter((edge) => CW.grid.EDGES.includes(edge));
      if (!(style.circle || style.shaded || style.color || bars.length)) continue;
      styles.push({ row, col, circle: !!style.circle, shaded: !!style.shaded, color: style.color || "", bars });
    }
    const voids = [...S.voids].map(at).filter(([r, c]) => S.cells[r] && S.cells[r][c] === null);
    return { styles, voids };
  }

  /** The server's list of what a file could not carry (a JSON list in a header), as one text. */
  function warningsOf(headers) {
    try {
      const list = JSON.parse((headers && headers.get("X-Save-Warnings")) || "[]");
      return Array.isArray(list) ? list.filter((w) => typeof w === "string") : [];
    } catch (_) {
      return [];
    }
  }

  async function open(file) {
    CW.setStatus(`opening ${file.name}...`, "busy");
    try {
      const answer = await CW.api.upload("/api/open", file);
      CW.construct.loadPuzzle(answer);
      const clues = Object.keys(answer.clues || {}).length;
      const notes = (answer.warnings || []).filter((w) => typeof w === "string");
      const said = `opened ${file.name}: ${answer.grid.cells.length} x ${answer.grid.cells[0].length}, ${clues} clue${clues === 1 ? "" : "s"}`;
      CW.setStatus(notes.length ? `${said}. Note: ${notes.join("; ")}` : said, notes.length ? "warn" : "ok");
    } catch (error) {
      CW.report(error, `open ${file.name}`);
    }
  }

  async function save() {
    const format = $("save-format").value;
    CW.setStatus(`saving as .${format}...`, "busy");
    try {
      const file = await CW.api.download("/api/save", { puzzle: puzzle(), format }, `puzzle.${format}`);
      CW.saveBlob(file.blob, file.filename);
      const losses = warningsOf(file.headers);
      if (losses.length) CW.setStatus(`saved ${file.filename}, but .${format} cannot carry everything: ${losses.join("; ")}`, "warn");
      else CW.setStatus(`saved ${file.filename}`, "ok");
    } catch (error) {
      CW.report(error, "save");
    }
  }

  /** Print the puzzle or its answer key: a PDF in a new tab (opened now, while the click counts). */
  async function print(body, name) {
    const tab = CW.openTab();
    CW.setStatus(`making ${name}...`, "busy");
    try {
      const file = await CW.api.download("/api/print", body, name);
      CW.showBlob(tab, file.blob, file.filename);
      CW.setStatus(`${name} ready${tab ? " in a new tab" : ""}`, "ok");
    } catch (error) {
      if (tab) tab.close();
      CW.report(error, "print");
    }
  }

  function init() {
    $("open-file").addEventListener("change", (event) => {
      const file = event.target.files[0];
      event.target.value = ""; // choosing the same file again opens it again
      if (file) open(file);
    });
    $("save").addEventListener("click", save);
    $("print").addEventListener("click", () => print({ puzzle: puzzle(), solution: false, format: "pdf" }, "puzzle.pdf"));
    $("print-key").addEventListener("click", () => print({ puzzle: puzzle(), solution: true, format: "pdf" }, "answer-key.pdf"));
  }

  CW.files = { init, puzzle, print };
})(window.CW);
