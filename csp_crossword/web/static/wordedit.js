/* wordedit.js: the Words tab's Overrides section: named word-list edits kept on the server
 * (docs/web.md "Overrides sets"): choose or create a set, add a word with a score, rescore, ban
 * for good (score 0), remove, export the set's file. The chosen set goes with every word-settings
 * request (CW.wordedit.settings(), read by solver.js's wordSettings()).
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const $ = (id) => document.getElementById(id);
  /** Where the chosen set is remembered, so a reload keeps applying it. */
  const STORAGE_KEY = "csp-crossword.overrides";
  /** Entries drawn at once; the filter finds the others. */
  const MAX_SHOWN = 300;
  const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

  let current = null; // the chosen set as the server last answered it: {name, entries, count, banned}

  /** The word-settings field of the chosen set ({} without one). */
  function settings() {
    return current ? { overrides: current.name } : {};
  }

  const setPath = (name) => `/api/overrides/${encodeURIComponent(name)}`;

  function remember(name) {
    try {
      if (name) localStorage.setItem(STORAGE_KEY, name);
      else localStorage.removeItem(STORAGE_KEY);
    } catch (_) {
      /* storage refused (private window): the choice lasts as long as the page */
    }
  }

  function remembered() {
    try {
      return localStorage.getItem(STORAGE_KEY) || "";
    } catch (_) {
      return "";
    }
  }

  /** Fill the set chooser from GET /api/overrides and keep `wanted` chosen when it is there. */
  async function loadSets(wanted) {
    const answer = await CW.api.get("/api/overrides");
    const select = $("ov-set");
    select.textContent = "";
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "none";
    select.appendChild(none);
    for (const item of answer.sets || []) {
      const option = document.createElement("option");
      option.value = item.name;
      option.textContent = item.error ? `${item.name} (unreadable)` : `${item.name} (${item.count})`;
      select.appendChild(option);
    }
    const names = (answer.sets || []).map((s) => s.name);
    select.value = names.includes(wanted) ? wanted : "";
    return select.value;
  }

  /** Make `name` the set in use ("" for none) and show its entries. */
  async function choose(name) {
    if (!name) {
      current = null;
      remember("");
      draw();
      CW.solver.refreshCandidates(true);
      return;
    }
    try {
      current = await CW.api.get(setPath(name));
      remember(name);
    } catch (error) {
      current = null;
      $("ov-set").value = "";
      CW.report(error, `overrides set ${name}`);
    }
    draw();
    CW.solver.refreshCandidates(true);
  }

  async function create(name) {
    if (!NAME.test(name)) {
      CW.setStatus("a set name is letters, digits, - and _ (up to 64, starting with a letter or digit)", "error");
      return;
    }
    try {
      await CW.api.post("/api/overrides", { name });
      await loadSets(name);
      await choose(name);
      $("ov-new-name").value = "";
      CW.setStatus(`overrides set ${name} created and in use: add, rescore or ban words`, "ok");
      $("ov-word").focus();
    } catch (error) {
      CW.report(error, "create set");
    }
  }

  /** Send one change to the chosen set; the answer is the set as it is now. */
  async function change(action, word, score) {
    if (!current) return false;
    const body = { action, word };
    if (score !== undefined) body.score = score;
    try {
      current = await CW.api.post(`${setPath(current.name)}/entries`, body);
    } catch (error) {
      CW.report(error, `${action} ${word}`);
      return false;
    }
    draw();
    updateOption();
    CW.solver.refreshCandidates(true); // the same question now has another answer
    return true;
  }

  function updateOption() {
    const option = [...$("ov-set").options].find((o) => o.value === current.name);
    if (option) option.textContent = `${current.name} (${current.count})`;
  }

  function scoreOf(input) {
    const value = Number(input.value);
    return Number.isInteger(value) && value >= 0 && value <= 100 ? value : null;
  }

  async function addWord(ban) {
    const word = $("ov-word").value.trim();
    if (!word) {
      CW.setStatus("type a word first", "error");
      $("ov-word").focus();
      return;
    }
    const score = ban ? 0 : scoreOf($("ov-score"));
    if (score === null) {
      CW.setStatus("a score is a whole number from 0 (banned) to 100", "error");
      $("ov-score").focus();
      return;
    }
    if (await change("set", word, score)) {
      $("ov-word").value = "";
      CW.setStatus(score === 0 ? `${word}: banned for good in ${current.name}` : `${word}: score ${score} in ${current.name}`, "ok");
      $("ov-word").focus();
    }
  }

  function draw() {
    const editor = $("ov-editor");
    editor.hidden = !current;
    $("ov-cli-name").textContent = current ? current.name : "NAME";
    const list = $("ov-entries");
    list.textContent = "";
    if (!current) return;
    const filter = $("ov-filter").value.trim().toUpperCase().replace(/[\s\-'.]/g, "");
    const rows = (current.entries || []).filter((e) => !filter || e.word.includes(filter));
    for (const entry of rows.slice(0, MAX_SHOWN)) list.appendChild(row(entry));
    const more = rows.length - Math.min(rows.length, MAX_SHOWN);
    const summary = `${current.count} word${current.count === 1 ? "" : "s"}, ${current.banned} banned`;
    $("ov-summary").textContent = more > 0 ? `${summary}; ${more} more not shown: filter to find them` : summary;
    $("ov-empty").hidden = current.count > 0;
  }

  function row(entry) {
    const li = document.createElement("li");
    li.dataset.word = entry.word;
    li.classList.toggle("banned", entry.banned);
    const word = document.createElement("span");
    word.className = "ov-word";
    word.textContent = entry.display || entry.word;
    word.title = entry.word;
    const score = document.createElement("input");
    score.type = "number";
    score.min = "0";
    score.max = "100";
    score.value = entry.score;
    score.className = "ov-score";
    score.setAttribute("aria-label", `score of ${entry.word} (0 bans it)`);
    score.addEventListener("change", () => {
      const value = scoreOf(score);
      if (value === null || value === entry.score) {
        score.value = entry.score;
        return;
      }
      change("set", entry.display || entry.word, value).then((ok) => ok && CW.setStatus(`${entry.word}: score ${value}${value === 0 ? " (banned)" : ""}`, "ok"));
    });
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "ov-toggle";
    toggle.textContent = entry.banned ? "unban" : "ban";
    toggle.title = entry.banned ? `let ${entry.word} be used again` : `never use ${entry.word}`;
    toggle.addEventListener("click", () => change(entry.banned ? "unban" : "ban", entry.word));
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-x ov-remove";
    remove.title = `remove ${entry.word} from the set`;
    remove.setAttribute("aria-label", remove.title);
    remove.textContent = "×";
    remove.addEventListener("click", () => change("remove", entry.word));
    li.append(word, score, toggle, remove);
    return li;
  }

  async function exportSet() {
    if (!current) return;
    try {
      const file = await CW.api.download(`${setPath(current.name)}/export`, undefined, `${current.name}.txt`);
      CW.saveBlob(file.blob, file.filename);
      CW.setStatus(`exported ${file.filename}: csp-crossword fill GRID --overrides ${file.filename}`, "ok");
    } catch (error) {
      CW.report(error, "export");
    }
  }

  async function deleteSet() {
    if (!current) return;
    const name = current.name;
    if (!window.confirm(`Delete the overrides set ${name} and its file?`)) return;
    try {
      await CW.api.json("DELETE", setPath(name));
      await loadSets("");
      await choose("");
      CW.setStatus(`overrides set ${name} deleted`, "ok");
    } catch (error) {
      CW.report(error, "delete set");
    }
  }

  async function init() {
    $("ov-set").addEventListener("change", (event) => choose(event.target.value));
    $("ov-create").addEventListener("submit", (event) => {
      event.preventDefault();
      create($("ov-new-name").value.trim());
    });
    $("ov-add").addEventListener("submit", (event) => {
      event.preventDefault();
      addWord(false);
    });
    $("ov-ban").addEventListener("click", () => addWord(true));
    $("ov-filter").addEventListener("input", draw);
    $("ov-export").addEventListener("click", exportSet);
    $("ov-delete").addEventListener("click", deleteSet);
    draw();
    try {
      const name = await loadSets(remembered());
      if (name) await choose(name);
    } catch (error) {
      CW.report(error, "overrides sets");
    }
  }

  CW.wordedit = { settings, choose, reload: () => loadSets(current ? current.name : "") };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})(window.CW);
