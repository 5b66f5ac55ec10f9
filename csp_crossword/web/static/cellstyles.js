/* cellstyles.js: the "Cell" tools of construct mode: circle, shade, bar, void, rebus.
 *
 * Styles live in CW.state.styles (cell key -> {circle, shaded, color, bars}) and voids in
 * CW.state.voids (keys of null cells that are outside the puzzle), as the library's
 * Puzzle.styles and Puzzle.voids. Every change goes through CW.construct.edit, so undo and redo
 * cover it. Bars are drawn and saved; like the library's grid, the page's slots do not split at
 * them (a barred puzzle's entries come from its file).
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const S = CW.state;
  const $ = (id) => document.getElementById(id);

  /** The most characters a rebus cell takes (the server's limit is 32). */
  const MAX_REBUS_CHARS = 12;
  /** Alt + key (by key position, so a keyboard layout or macOS's Option characters do not matter). */
  const ALT_KEYS = { KeyO: "circle", KeyS: "shade", KeyB: "bar", KeyV: "void", KeyR: "rebus" };

  const symmetry = () => $("symmetry").value;
  const selectedKey = () => G.key(S.sel.r, S.sel.c);
  const isOpen = (r, c) => S.cells[r][c] !== null;

  /** Set one flag of the selected open cell's style; a style left with nothing is removed. */
  function toggleFlag(flag, label) {
    const { r, c } = S.sel;
    if (!isOpen(r, c)) return CW.setStatus(`select an open cell to ${label}`, "error");
    const k = selectedKey();
    const style = { circle: false, shaded: false, color: "", bars: [], ...(S.styles.get(k) || {}) };
    const on = flag === "shaded" ? !(style.shaded || style.color) : !style[flag];
    CW.construct.edit(
      () => {
        const next = { ...style, [flag]: on };
        if (flag === "shaded" && !on) next.color = ""; // unshading drops a file's colour too
        store(k, next);
      },
      { keepMarks: true }
    );
    CW.setStatus(`cell ${label}${on ? "d" : " removed"}`, "ok");
  }

  function store(k, style) {
    const bars = (style.bars || []).filter((edge) => G.EDGES.includes(edge));
    if (style.circle || style.shaded || style.color || bars.length) S.styles.set(k, { ...style, bars });
    else S.styles.delete(k);
  }

  /** Where a cell's edge goes under each symmetric partner: [r, c, edge] for every partner. */
  function barPartners(r, c, edge) {
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    const flipH = { left: "right", right: "left", top: "top", bottom: "bottom" };
    const flipV = { top: "bottom", bottom: "top", left: "left", right: "right" };
    const list = [[r, c, edge]];
    const mode = symmetry();
    if (mode === "rotational" || mode === "both") list.push([rows - 1 - r, cols - 1 - c, flipV[flipH[edge]]]);
    if (mode === "mirror" || mode === "both") list.push([r, cols - 1 - c, flipH[edge]]);
    if (mode === "both") list.push([rows - 1 - r, c, flipV[edge]]);
    const seen = new Set();
    return list.filter(([y, x, e]) => !seen.has(G.key(y, x) + e) && seen.add(G.key(y, x) + e));
  }

  /** A bar after the selected cell in the current direction (and at its symmetric partners). */
  function toggleBar() {
    const { r, c, dir } = S.sel;
    if (!isOpen(r, c)) return CW.setStatus("select an open cell to put a bar after it", "error");
    const edge = dir === "down" ? "bottom" : S.rtl ? "left" : "right";
    const has = ((S.styles.get(selectedKey()) || {}).bars || []).includes(edge);
    CW.construct.edit(
      () => {
        for (const [y, x, e] of barPartners(r, c, edge)) {
          const k = G.key(y, x);
          const style = { circle: false, shaded: false, color: "", bars: [], ...(S.styles.get(k) || {}) };
          const bars = new Set(style.bars);
          if (has) bars.delete(e);
          else bars.add(e);
          store(k, { ...style, bars: G.EDGES.filter((x2) => bars.has(x2)) });
        }
      },
      { keepMarks: true }
    );
    CW.setStatus(`bar ${has ? "removed from" : "put on"} the ${edge} edge of the cell`, "ok");
  }

  /** Make the selected cell (and its symmetric partners) void, or a void cell open again. */
  function toggleVoid() {
    const { r, c } = S.sel;
    const rows = S.cells.length;
    const cols = S.cells[0].length;
    const makeVoid = !S.voids.has(selectedKey());
    CW.construct.edit(() => {
      for (const [y, x] of G.partners(r, c, rows, cols, symmetry())) {
        const k = G.key(y, x);
        if (makeVoid) {
          S.cells[y][x] = null;
          S.voids.add(k);
          S.locked.delete(k);
          if (S.fromFill) S.fromFill.delete(k);
        } else if (S.voids.has(k)) {
          S.voids.delete(k);
          S.cells[y][x] = "";
        }
      }
    });
    CW.setStatus(makeVoid ? "void: the cell is outside the puzzle (no block, no letter)" : "the void cell is open again", "ok");
  }

  /* ---- Rebus: several letters in one cell, typed in a small box over it. ---- */

  function openRebus() {
    const { r, c } = S.sel;
    if (S.cells[r][c] === null) return CW.setStatus("select an open cell for a rebus", "error");
    const box = $("rebus-input");
    const cell = $("grid").children[r * S.cells[0].length + c];
    box.hidden = false;
    box.value = S.cells[r][c] || "";
    box.dataset.cell = selectedKey();
    box.style.left = cell.offsetLeft + "px";
    box.style.top = cell.offsetTop + "px";
    box.style.minWidth = Math.max(cell.offsetWidth * 3, 110) + "px";
    box.style.height = Math.max(cell.offsetHeight, 28) + "px";
    box.focus();
    box.select();
    CW.setStatus("rebus: type the letters, Enter to put them in the cell, Escape to cancel", "info");
  }

  /** The rebus text as a cell holds it: NFC, upper case, letters and digits only. */
  function rebusText(text) {
    const kept = Array.from(text.normalize("NFC").toUpperCase().matchAll(/[\p{L}\p{M}\p{N}]/gu), (m) => m[0]).join("");
    return kept.slice(0, MAX_REBUS_CHARS);
  }

  /** Close the rebus box; commit: put its text in the cell; refocus: the keyboard back to the grid. */
  function closeRebus(commit, refocus = true) {
    const box = $("rebus-input");
    if (box.hidden) return;
    box.hidden = true;
    const [r, c] = (box.dataset.cell || "").split(",").map(Number);
    if (commit && S.cells[r] && S.cells[r][c] !== null && S.cells[r][c] !== undefined) {
      const text = rebusText(box.value);
      if (text !== S.cells[r][c]) {
        CW.construct.edit(() => {
          S.cells[r][c] = text;
          if (!text) S.locked.delete(G.key(r, c));
          if (S.fromFill) S.fromFill.delete(G.key(r, c)); // typed: the user's own letters
        });
      }
      CW.setStatus(text ? `rebus ${text} put in the cell` : "cell cleared", "ok");
      if (text) CW.construct.advance();
    } else {
      CW.setStatus("rebus cancelled: the cell is as it was", "info");
    }
    if (refocus) CW.construct.focusGrid();
  }

  const ACTIONS = {
    circle: () => toggleFlag("circle", "circle"),
    shade: () => toggleFlag("shaded", "shade"),
    bar: toggleBar,
    void: toggleVoid,
    rebus: openRebus,
  };

  function onGridKey(event) {
    if (event.isComposing) return;
    let action = null;
    if (event.key === "Insert" && !event.altKey && !event.ctrlKey && !event.metaKey) action = "rebus";
    else if (event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) action = ALT_KEYS[event.code];
    if (!action) return;
    event.preventDefault(); // no Option+letter character reaches the grid
    ACTIONS[action]();
  }

  function init() {
    for (const name of Object.keys(ACTIONS)) {
      $("cell-" + name).addEventListener("click", () => {
        // The editor toolbar gives the keyboard back to the grid after a click: the rebus box
        // opens once that has happened, or it would lose the focus and close at once.
        if (name === "rebus") setTimeout(openRebus, 0);
        else ACTIONS[name]();
      });
    }
    $("grid-input").addEventListener("keydown", onGridKey);
    const box = $("rebus-input");
    box.addEventListener("keydown", (event) => {
      if (event.isComposing) return;
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        closeRebus(true);
      } else if (event.key === "Escape") {
        event.preventDefault();
        closeRebus(false);
      }
    });
    box.addEventListener("blur", () => closeRebus(false, false)); // a click elsewhere cancels
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();

  CW.cellStyles = { toggleFlag, toggleBar, toggleVoid, openRebus, closeRebus };
})(window.CW);
