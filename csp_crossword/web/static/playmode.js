/* playmode.js: Play mode of the page: the construct grid (or the freeform puzzle) played with
 * the player of play.js, and exported as one HTML file that plays offline (POST /api/print with
 * format "play"). A grid with empty open cells cannot be played: the panel says so.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const $ = (id) => document.getElementById(id);
  const M = { player: null, shown: "", origin: "" }; // origin: the editing mode play was entered from

  /** The puzzle to play, in CW.files.puzzle()'s shape: the freeform one when chosen and laid out. */
  function pagePuzzle() {
    if ($("play-source").value === "freeform") {
      const puzzle = CW.freeform.puzzle && CW.freeform.puzzle();
      if (puzzle) return { ...puzzle, ...CW.titlesOf("freeform") };
    }
    return { ...CW.files.puzzle(), ...CW.titlesOf("construct") };
  }

  /** The player's data: a grid whose open cells are all filled is the solution. */
  function playData(puzzle) {
    const cells = puzzle.solution || puzzle.grid.cells;
    const styles = {};
    for (const s of puzzle.styles || []) {
      styles[s.row + "," + s.col] = { circle: !!s.circle, shaded: !!s.shaded, color: s.color || "", bars: s.bars || [] };
    }
    return {
      title: puzzle.title || "",
      author: puzzle.author || "",
      copyright: puzzle.copyright || "",
      notes: puzzle.notes || "",
      rtl: !!puzzle.grid.rtl,
      freeform: !!puzzle.freeform,
      solution: cells.map((row) => row.map((v) => (v === null || v === undefined ? null : v))),
      clues: puzzle.clues || {},
      voids: puzzle.voids || [],
      styles,
    };
  }

  function close() {
    if (M.player) M.player.destroy();
    M.player = null;
    M.shown = "";
  }

  /** Show the chosen puzzle; the same puzzle as last time goes on where the solver left it. */
  function show() {
    const data = playData(pagePuzzle());
    const why = CWPlay.problem(data);
    $("play-export").disabled = !!why;
    $("play-empty").hidden = !why;
    if (why) {
      close();
      const fromFreeform = $("play-source").value === "freeform";
      $("play-empty").textContent =
        `This puzzle cannot be played yet: ${why}. ` +
        (fromFreeform ? "Generate a puzzle in Freeform mode first." : "Fill every open cell in Construct mode first (Autofill can), or open a puzzle file with its solution.");
      return;
    }
    // The puzzle itself: a new title or author does not start the solver over.
    const text = JSON.stringify([data.solution, data.clues, data.rtl, data.freeform, data.voids, data.styles]);
    if (M.player && text === M.shown) {
      M.player.fit();
      M.player.focus();
      return;
    }
    close();
    M.shown = text;
    M.player = CWPlay.mount($("play-root"), data, { header: false });
    if (M.player) M.player.focus();
  }

  /** Play mode opens on the puzzle of the mode the user came from. */
  function enter(previous) {
    M.origin = previous;
    const freeform = !!(CW.freeform.puzzle && CW.freeform.puzzle());
    $("play-source").querySelector("option[value=freeform]").disabled = !freeform;
    if (previous === "freeform" && freeform) $("play-source").value = "freeform";
    else if (previous === "construct" || !freeform) $("play-source").value = "construct";
    show();
  }

  /** Leaving Play mode pauses a running timer (the grid is hidden until Resume). */
  function leave() {
    if (M.player && M.player.running) M.player.pause();
  }

  async function exportHtml() {
    const puzzle = pagePuzzle();
    CW.setStatus("making the playable page...", "busy");
    try {
      const file = await CW.api.download("/api/print", { puzzle, solution: false, format: "play" }, "puzzle.html");
      CW.saveBlob(file.blob, file.filename);
      CW.setStatus(`saved ${file.filename}: it plays offline in any browser (its answers are in it, for Check and Reveal)`, "ok");
    } catch (error) {
      CW.report(error, "export");
    }
  }

  function init() {
    $("play-source").addEventListener("change", show);
    $("play-export").addEventListener("click", exportHtml);
  }

  CW.playmode = { init, enter, leave, playData, player: () => M.player, origin: () => M.origin };
})(window.CW);
