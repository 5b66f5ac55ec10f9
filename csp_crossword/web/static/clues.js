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

  /** Where a clue of "Fill empty clues" came from, as the status line says it. */
  const SOURCE_NAMES = { list: "the word list", db: "your clue database", builtin: "the built-in clues" };
  /** Empty slots the status line names before "...". */
  const LISTED_EMPTY = 12;

  /** "Fill empty clues": every empty clue box of a complete entry gets the first clue of the
   * word list, the clue database and the built-in clues (POST /api/clues, sources "chain"). */
  async function fillEmpty() {
    CW.setStatus("looking up clues...", "busy");
    try {
      const answer = await CW.api.post("/api/clues", { grid: { cells: S.cells, rtl: S.rtl }, sources: "chain", ...CW.solver.wordSettings() });
      const clues = answer.clues || {};
      const from = {};
      let added = 0;
      for (const [id, clue] of Object.entries(clues)) {
        const slot = S.index.byId.get(id);
        if (!slot || !clue || (S.clues.get(slot.anchor) || "").trim()) continue;
        S.clues.set(slot.anchor, clue);
        const source = (answer.sources || {})[id] || "list";
        from[source] = (from[source] || 0) + 1;
        added++;
      }
      draw();
      if (added) CW.emit("document");
      const empty = S.slots.filter((s) => G.isComplete(S.cells, s) && !(S.clues.get(s.anchor) || "").trim()).map((s) => s.id);
      const parts = Object.entries(from).sort((a, b) => b[1] - a[1]).map(([source, n]) => `${n} from ${SOURCE_NAMES[source] || source}`);
      const filled = added ? `clues: ${parts.join(", ")}` : "no clue to add";
      if (empty.length) {
        const shown = empty.slice(0, LISTED_EMPTY).join(", ") + (empty.length > LISTED_EMPTY ? ", ..." : "");
        CW.setStatus(`${filled}; ${empty.length} complete ${empty.length === 1 ? "entry has" : "entries have"} no clue: ${shown}`, added ? "ok" : "info");
      } else {
        CW.setStatus(`${filled}; every complete entry has its clue`, "ok");
      }
    } catch (error) {
      CW.report(error, "clues");
    }
  }

  // ---- Suggestions for the selected entry (POST /api/clues/suggest) ----

  /** Suggestions asked for an entry. */
  const SUGGESTIONS = 6;
  /** Milliseconds the selection must rest before asking (arrowing through the grid asks once). */
  const SUGGEST_DELAY_MS = 200;
  /** Entries whose suggestions are kept, so going back to one asks nothing. */
  const SUGGEST_CACHE = 200;
  const suggestCache = new Map();
  let suggestTimer = 0;
  let suggestFor = null; // {anchor, answer} of the entry the list shows
  let asked = 0; // the last request's number: an older answer that comes late is dropped

  function cluesVisible() {
    return !$("tab-clues").hidden;
  }

  function scheduleSuggestions() {
    clearTimeout(suggestTimer);
    if (cluesVisible()) suggestTimer = setTimeout(showSuggestions, SUGGEST_DELAY_MS);
  }

  function setSuggestHead(text) {
    $("clue-suggest-head").textContent = text;
  }

  /** Show the suggestions of the selected entry. The list of another entry is cleared at once,
   * and an answer that comes after the selection moved on is dropped: a list always belongs to
   * the entry its heading names. */
  async function showSuggestions() {
    const slot = CW.construct.currentSlot();
    if (!slot || !G.isComplete(S.cells, slot)) {
      asked++; // a request still on its way is for an entry no longer shown
      suggestFor = null;
      drawSuggestions([]);
      setSuggestHead(slot ? `${slot.id} is not complete: fill it to see clues for it.` : "Select an entry to see clues for it.");
      return;
    }
    const answer = G.answer(S.cells, slot);
    const settings = CW.solver.wordSettings();
    const key = answer + "\n" + JSON.stringify(settings);
    if (suggestFor && suggestFor.anchor === slot.anchor && suggestFor.key === key) return;
    const mine = ++asked;
    suggestFor = { anchor: slot.anchor, answer, key };
    let found = suggestCache.get(key);
    if (!found) {
      drawSuggestions([]); // never the previous entry's clues under this entry's heading
      setSuggestHead(`Clues for ${slot.id} ${answer}: looking...`);
      try {
        const reply = await CW.api.post("/api/clues/suggest", { entry: answer, limit: SUGGESTIONS, ...settings });
        found = reply.suggestions || [];
      } catch (error) {
        if (mine === asked) {
          suggestFor = null; // selecting the entry again asks again
          setSuggestHead(`Clues for ${slot.id}: ${error.message || error}`);
        }
        return;
      }
      suggestCache.set(key, found);
      if (suggestCache.size > SUGGEST_CACHE) suggestCache.delete(suggestCache.keys().next().value);
      if (mine !== asked) return;
    }
    setSuggestHead(found.length ? `Clues for ${slot.id} ${answer}:` : `No clue found for ${slot.id} ${answer}: write one in its box.`);
    drawSuggestions(found);
  }

  /** The suggestions in the server's order (best first: the word list's clue, your database's,
   * the built-in ones), each with its source; the first is marked as the suggested one. */
  function drawSuggestions(found) {
    const list = $("clue-suggestions");
    list.textContent = "";
    found.forEach((item, index) => {
      const li = document.createElement("li");
      const pick = document.createElement("button");
      pick.type = "button";
      pick.className = "clue-pick";
      pick.dataset.clue = item.clue;
      pick.dataset.rank = String(item.rank || index + 1);
      if (item.kind) pick.dataset.kind = item.kind;
      const suggested = item.suggested !== undefined ? item.suggested : index === 0;
      pick.classList.toggle("suggested", !!suggested);
      const rank = document.createElement("span");
      rank.className = "clue-pick-rank";
      rank.textContent = `${pick.dataset.rank}.`;
      const text = document.createElement("span");
      text.className = "clue-pick-text";
      text.textContent = item.clue;
      text.dir = "auto";
      const source = document.createElement("span");
      source.className = "clue-pick-source";
      source.textContent = item.label || item.source;
      source.title = item.source; // the file of your database, or what the built-in clues come from
      pick.append(rank, text);
      if (suggested) {
        const mark = document.createElement("span");
        mark.className = "clue-pick-mark";
        mark.textContent = "suggested";
        pick.appendChild(mark);
      }
      pick.appendChild(source);
      pick.title = suggested ? "the suggested clue: use it" : "use this clue";
      li.appendChild(pick);
      list.appendChild(li);
    });
  }

  /** A suggestion clicked (or Enter on it): it becomes the clue of the entry it was for. */
  function pickSuggestion(event) {
    const pick = event.target.closest(".clue-pick");
    if (!pick || !suggestFor) return;
    S.clues.set(suggestFor.anchor, pick.dataset.clue);
    const box = $("clue-list").querySelector(`li[data-anchor="${CSS.escape(suggestFor.anchor)}"] input`);
    if (box) box.value = pick.dataset.clue;
    draw();
    CW.emit("document");
    const slot = S.slots.find((s) => s.anchor === suggestFor.anchor);
    CW.setStatus(`clue of ${slot ? slot.id : "the entry"} set`, "ok");
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
    $("clues-fill").addEventListener("click", fillEmpty);
    $("clue-suggestions").addEventListener("click", pickSuggestion);
    const tab = document.querySelector('.tabs [data-tab="clues"]');
    if (tab) tab.addEventListener("click", () => setTimeout(showSuggestions, 0)); // after app.js shows the tab
    CW.on("grid", draw);
    CW.on("grid", scheduleSuggestions);
    CW.on("selection", markCurrent);
    CW.on("selection", scheduleSuggestions);
    draw();
  }

  CW.clues = { init, byId, draw, fillEmpty, showSuggestions };
})(window.CW);
