/* app.js: starts the page: the mode switch, the side-panel tabs, and the server's configuration.
 * The editor itself is in construct.js (with solver.js, clues.js, files.js) and freeform.js.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const $ = (id) => document.getElementById(id);

  CW.mode = "construct";

  /** Title and author of each editing mode: a freeform word puzzle and the grid under
   * construction are different puzzles, so switching modes swaps the two fields. Play mode shows
   * the puzzle of the mode it came from and leaves them as they are. */
  const titles = { construct: { title: "", author: "" }, freeform: { title: "", author: "" } };

  function swapTitles(from, to) {
    if (!(from in titles) || !(to in titles) || from === to) return;
    titles[from] = { title: $("title").value, author: $("author").value };
    $("title").value = titles[to].title;
    $("author").value = titles[to].author;
  }

  /** Title and author of an editing mode: the fields when they show that mode's, else the kept ones. */
  CW.titlesOf = function (mode) {
    const showing = CW.mode === "play" ? CW.playmode.origin() || "construct" : CW.mode;
    if (mode === showing) return { title: $("title").value.trim(), author: $("author").value.trim() };
    const kept = titles[mode] || { title: "", author: "" };
    return { title: kept.title.trim(), author: kept.author.trim() };
  };

  /** Switch between construct, freeform and play mode (the buttons act as tabs). */
  function setMode(mode) {
    const previous = CW.mode;
    // back from play: the fields belong to the mode play came from
    const editing = previous === "play" ? CW.playmode.origin() || "construct" : previous;
    swapTitles(editing, mode);
    CW.mode = mode;
    for (const name of ["construct", "freeform", "play"]) {
      const on = name === mode;
      $("mode-" + name).classList.toggle("active", on);
      $("mode-" + name).setAttribute("aria-selected", String(on));
      $(name).hidden = !on;
    }
    document.body.dataset.mode = mode;
    // A panel measured while hidden had no size: draw again now that it shows.
    if (previous === "play" && mode !== "play") CW.playmode.leave();
    if (mode === "construct") {
      CW.construct.render();
      CW.construct.focusGrid();
    } else if (mode === "play") {
      CW.playmode.enter(previous);
    } else {
      CW.freeform.redraw();
    }
  }

  /** The side panel's tabs: candidates, clues, words. */
  function setTab(name) {
    for (const button of document.querySelectorAll(".tabs [data-tab]")) {
      const on = button.dataset.tab === name;
      button.classList.toggle("active", on);
      button.setAttribute("aria-selected", String(on));
      $("tab-" + button.dataset.tab).hidden = !on;
    }
  }

  /** What the server offers: word lists, languages, limits. The page works on defaults without. */
  async function loadConfig() {
    try {
      const config = await CW.api.get("/api/config");
      CW.config = config || {};
      CW.solver.offerLists(config.wordlists || config.word_lists || []);
      const langs = config.languages || config.langs;
      if (Array.isArray(langs) && langs.length) {
        const select = $("lang");
        const current = select.value;
        select.textContent = "";
        for (const lang of langs) {
          const option = document.createElement("option");
          option.value = typeof lang === "string" ? lang : lang.id || lang.code;
          option.textContent = typeof lang === "string" ? lang : lang.name || option.value;
          select.appendChild(option);
        }
        if ([...select.options].some((o) => o.value === current)) select.value = current;
      }
      if (Number.isInteger(config.max_seed)) CW.MAX_SEED = config.max_seed;
      const maxTime = config.max_time_limit || (config.limits && config.limits.max_time_limit);
      if (maxTime) {
        $("time-limit").max = maxTime;
        $("ff-time-limit").max = maxTime;
      }
      const version = config.version ? ` ${config.version}` : "";
      // A message the page gave meanwhile (a draft reopened) says more than "ready": keep it.
      const bar = $("status");
      if (bar && bar.textContent === "Loading…") {
        CW.setStatus(`ready: csp-crossword${version}. Click a cell and type; "." or right-click makes a block.`, "ok");
      }
    } catch (error) {
      CW.report(error, "server configuration");
    }
  }

  function init() {
    CW.construct.init();
    CW.solver.init();
    CW.clues.init();
    CW.files.init();
    CW.freeform.init();
    $("mode-construct").addEventListener("click", () => setMode("construct"));
    $("mode-freeform").addEventListener("click", () => setMode("freeform"));
    CW.playmode.init();
    $("mode-play").addEventListener("click", () => setMode("play"));
    for (const button of document.querySelectorAll(".tabs [data-tab]")) {
      button.addEventListener("click", () => setTab(button.dataset.tab));
    }
    setTab("candidates");
    setMode("construct");
    CW.emit("selection"); // the first candidates
    loadConfig();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})(window.CW);
