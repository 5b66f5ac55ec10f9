/* clues.js: the clue editor: every entry (across, then down) with its answer and a clue box.
 * Clues are kept by where an entry starts and which way it runs (its anchor), so a clue stays
 * with its entry when a block elsewhere renumbers the grid.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const S = CW.state;
  const $ = (id) => document.getElementById(id);

  let drawnShape = ""; // the slots the list was built for: rebuild only when they change

  function draw() {
    const shape = S.slots.map((s) => s.anchor + ":" + s.length).join("|");
    if (shape !== drawnShape) build(shape);
    // Answers change with every letter: update them in place, keeping the focus in a clue box.
    for (const li of $("clue-list").querySelectorAll("li[data-anchor]")) {
      const slot = S.slots.find((s) => s.anchor === li.dataset.anchor);
      if (!slot) continue;
      li.querySelector(".clue-num").textContent = slot.id;
      const answer = li.querySelector(".clue-answer");
      answer.textContent = G.pattern(S.cells, slot);
      answer.title = answer.textContent;
      const box = li.querySelector("input");
      const clue = S.clues.get(slot.anchor) || "";
      if (box.value !== clue && document.activeElement !== box) box.value = clue;
    }
    markCurrent();
  }

  function build(shape) {
    drawnShape = shape;
    const list = $("clue-list");
    list.textContent = "";
    for (const direction of ["across", "down"]) {
      const heading = document.createElement("li");
      heading.className = "clue-heading";
      heading.textContent = direction === "across" ? "Across" : "Down";
      list.appendChild(heading);
      for (const slot of S.slots.filter((s) => s.direction === direction)) {
        const li = document.createElement("li");
        li.dataset.anchor = slot.anchor;
        const num = document.createElement("button");
        num.type = "button";
        num.className = "clue-num";
        num.title = "select this entry in the grid";
        const answer = document.createElement("span");
        answer.className = "clue-answer";
        const box = document.createElement("input");
        box.type = "text";
        box.className = "clue-text";
        box.placeholder = "clue";
        box.maxLength = 2000;
        box.dir = "auto";
        li.append(num, answer, box);
        list.appendChild(li);
      }
    }
  }

  function markCurrent() {
    const slot = CW.construct.currentSlot();
    for (const li of $("clue-list").querySelectorAll("li[data-anchor]")) {
      const current = !!slot && li.dataset.anchor === slot.anchor;
      li.classList.toggle("current", current);
    }
  }

  /** Clues by slot id, for save and print: only the entries the grid has now. */
  function byId() {
    const clues = {};
    for (const slot of S.slots) {
      const clue = (S.clues.get(slot.anchor) || "").trim();
      if (clue) clues[slot.id] = clue;
    }
    return clues;
  }

  /** "Clues from list": fill the empty clue boxes from the word list's clues. */
  async function fromList() {
    CW.setStatus("looking up clues...", "busy");
    try {
      const answer = await CW.api.post("/api/clues", { grid: { cells: S.cells, rtl: S.rtl }, ...CW.solver.wordSettings() });
      let added = 0;
      for (const [id, clue] of Object.entries(answer.clues || {})) {
        const slot = S.index.byId.get(id);
        if (!slot || !clue || (S.clues.get(slot.anchor) || "").trim()) continue;
        S.clues.set(slot.anchor, clue);
        added++;
      }
      draw();
      if (added) CW.emit("document");
      const complete = S.slots.filter((s) => G.isComplete(S.cells, s)).length;
      const offered = Object.keys(answer.clues || {}).length;
      if (!offered) {
        CW.setStatus(`the word list has no clue for any of the ${complete} complete entries: write them in the boxes`, "info");
      } else {
        CW.setStatus(`clues from the list: ${added} added (the list has clues for ${offered} of ${complete} complete entries)`, "ok");
      }
    } catch (error) {
      CW.report(error, "clues");
    }
  }

  function init() {
    const list = $("clue-list");
    list.addEventListener("input", (event) => {
      const li = event.target.closest("li[data-anchor]");
      if (!li) return;
      S.clues.set(li.dataset.anchor, event.target.value);
      CW.emit("document"); // autosave (drafts.js)
    });
    list.addEventListener("click", (event) => {
      const button = event.target.closest(".clue-num");
      const li = event.target.closest("li[data-anchor]");
      if (!li) return;
      const slot = S.slots.find((s) => s.anchor === li.dataset.anchor);
      if (!slot) return;
      if (button) {
        CW.construct.select(slot.row, slot.col, slot.direction);
        CW.construct.focusGrid();
      } else if (event.target.classList.contains("clue-text")) {
        CW.construct.select(slot.row, slot.col, slot.direction);
      }
    });
    // The keyboard's way through the clues: a box that gets the focus selects its entry in the
    // grid, and Enter goes on to the next clue's box (Shift+Enter back).
    list.addEventListener("focusin", (event) => {
      if (!event.target.classList.contains("clue-text")) return;
      const li = event.target.closest("li[data-anchor]");
      const slot = li && S.slots.find((s) => s.anchor === li.dataset.anchor);
      if (slot) CW.construct.select(slot.row, slot.col, slot.direction);
    });
    list.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || !event.target.classList.contains("clue-text")) return;
      event.preventDefault();
      const boxes = [...list.querySelectorAll("input.clue-text")];
      const next = boxes[boxes.indexOf(event.target) + (event.shiftKey ? -1 : 1)];
      if (next) next.focus();
    });
    $("clues-from-list").addEventListener("click", fromList);
    CW.on("grid", draw);
    CW.on("selection", markCurrent);
    draw();
  }

  CW.clues = { init, byId, draw };
})(window.CW);
