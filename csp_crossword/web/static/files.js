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
      title: $("title").value.trim(),
      author: $("author").value.trim(),
      copyright: S.meta.copyright || "",
      notes: S.meta.notes || "",
      freeform: false,
    };
  }

  async function open(file) {
    CW.setStatus(`opening ${file.name}...`, "busy");
    try {
      const answer = await CW.api.upload("/api/open", file);
      CW.construct.loadPuzzle(answer);
      const clues = Object.keys(answer.clues || {}).length;
      CW.setStatus(`opened ${file.name}: ${answer.grid.cells.length} x ${answer.grid.cells[0].length}, ${clues} clue${clues === 1 ? "" : "s"}`, "ok");
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
      CW.setStatus(`saved ${file.filename}`, "ok");
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
