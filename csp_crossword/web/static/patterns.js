/* patterns.js: the construct mode's pattern tools (the side panel's Patterns tab).
 *
 * - Generate: an American-style pattern (size, blocks, entries, symmetry, longest entry, theme
 *   entries placed first), as the pattern alone or filled; or an open layout (CSP patterns or the
 *   progressive search, with its options). A "generate" job (docs/web.md), followed like a fill.
 * - The pattern library: the grids the server offers (GET /api/patterns), loaded by id.
 *
 * Whatever comes back loads as a new document through CW.construct.loadPuzzle (one undoable step);
 * a fill's letters go in with CW.construct.placeCells (a second step, shown grey as any fill's),
 * so one undo leaves the bare pattern.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const S = CW.state;
  const $ = (id) => document.getElementById(id);
  const esc = (value) => CW.esc(value); // solver.js's, loaded before this file

  const MAX_THEME_ENTRIES = 8;

  let running = null; // {id} of the generate job in progress
  let listed = null; // the server's patterns, once asked

  /* ---- The form ---- */

  const style = () => (document.querySelector('input[name="pat-style"]:checked') || {}).value || "american";

  /** A number field's value; null when empty (the server's default). Out of range: an error naming it. */
  function numberField(id, label, integer = true) {
    const input = $(id);
    const text = input.value.trim();
    if (text === "") return null;
    const value = Number(text);
    const min = input.min === "" ? -Infinity : Number(input.min);
    const max = input.max === "" ? Infinity : Number(input.max);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
      throw new Error(`${label}: give ${integer ? "a whole number" : "a number"} from ${input.min} to ${input.max}`);
    }
    return value;
  }

  function themeEntries() {
    const entries = $("pat-entries")
      .value.split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    if (entries.length > MAX_THEME_ENTRIES) throw new Error(`theme entries: ${MAX_THEME_ENTRIES} at most`);
    return entries;
  }

  /** The generate job's body from the form (docs/web.md "Generate jobs"). */
  function requestBody(fill) {
    const rows = numberField("pat-rows", "rows");
    const cols = numberField("pat-cols", "columns");
    if (rows === null || cols === null) throw new Error("give the grid's rows and columns");
    const seedText = numberField("pat-seed", "seed");
    const body = {
      kind: "generate",
      rows,
      cols,
      style: style(),
      fill,
      time_limit: numberField("pat-time", "time limit", false) || 10,
      seed: seedText === null ? Math.floor(Math.random() * CW.MAX_SEED) : seedText,
      // a fill of clued entries only (every entry gets a clue) unless the box is ticked
      allow_unclued: $("pat-allow-unclued").checked,
      ...CW.solver.wordSettings(),
    };
    if (body.style === "american") {
      body.blocks = numberField("pat-blocks", "blocks");
      body.max_words = numberField("pat-max-words", "max entries");
      body.max_run = numberField("pat-max-run", "longest entry");
      body.symmetry = $("pat-symmetry").value;
      body.entries = themeEntries();
    } else {
      body.method = $("pat-method").value;
      body.max_run = numberField("pat-open-run", "longest run");
      body.symmetric = body.method !== "progressive" && $("pat-symmetric").checked;
      if (body.method !== "csp") {
        // an empty field is left out: the server's default applies (ProgressiveOptions)
        const options = {
          start: $("pat-start").value,
          queue_size: numberField("pat-queue", "queue size"),
          neighbours: numberField("pat-neighbours", "neighbours"),
          threshold: numberField("pat-threshold", "threshold", false),
          scrambled_weight: numberField("pat-scrambled", "scrambled weight", false),
        };
        body.progressive = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null));
      }
    }
    return body;
  }

  /** Show the fields of the chosen style and method only. */
  function syncForm() {
    const american = style() === "american";
    $("pat-american").hidden = !american;
    $("pat-open").hidden = american;
    $("pat-pattern").hidden = !american;
    $("pat-fill").textContent = american ? "Pattern + fill" : "Generate layout";
    const method = $("pat-method").value;
    $("pat-progressive").disabled = method === "csp";
    $("pat-symmetric").disabled = method === "progressive";
  }

  /* ---- The job ---- */

  function setRunning(job) {
    running = job;
    for (const id of ["pat-pattern", "pat-fill"]) $(id).disabled = !!job;
    $("pat-cancel").disabled = !job;
  }

  function showProgress(progress) {
    const parts = ["generating…"];
    if (progress && progress.nodes !== undefined) parts.push(`${Number(progress.nodes).toLocaleString()} steps`);
    if (progress && progress.seconds !== undefined) parts.push(`${Number(progress.seconds).toFixed(1)} s`);
    $("pat-progress").textContent = parts.join(" · ");
  }

  async function generate(fill) {
    if (running) return CW.setStatus("a generate job is running: cancel it first", "error");
    let body;
    try {
      body = requestBody(fill);
    } catch (error) {
      return CW.setStatus(error.message, "error");
    }
    setRunning({});
    showProgress(null);
    CW.setStatus(`generating ${body.rows} × ${body.cols} ${body.style === "american" ? "American pattern" : "open layout"}...`, "busy");
    try {
      const job = await CW.api.runJob(body, showProgress, (started) => (running = { id: started.id }));
      if (job.state === "failed") {
        CW.setStatus(`generate failed: ${job.error || "no reason given"}`, "error");
        return;
      }
      place(body, job);
    } catch (error) {
      CW.report(error, "generate");
    } finally {
      setRunning(null);
      $("pat-progress").textContent = "";
    }
  }

  async function cancel() {
    if (!running || !running.id) return;
    try {
      await CW.api.cancelJob(running.id);
      CW.setStatus("generate cancelled: keeping its best result", "info");
    } catch (error) {
      CW.report(error, "cancel");
    }
  }

  /** Load a finished job's grid: the pattern (theme letters in it), then the fill's letters. */
  function place(body, job) {
    const result = job.result || {};
    const pattern = result.pattern || result.cells;
    if (!pattern) {
      showResult(`<b>No pattern</b>: ${esc(result.reason || "none was drawn in the time limit")}`, "bad");
      CW.setStatus(`generate: ${result.reason || "no pattern in the time limit"} (fewer blocks or more entries leave more room)`, "error");
      return;
    }
    loadCells(pattern, !!result.rtl);
    const filled = result.status === "filled" || result.status === "optimal";
    const letters = result.cells && result.method !== "pattern" ? result.cells : null;
    if (letters) CW.construct.placeCells(letters, null, []);
    const blocks = pattern.flat().filter((v) => v === null).length;
    const what = body.style === "american" ? "American pattern" : `${result.method || "open"} layout`;
    const parts = [`${body.rows} × ${body.cols}`, `${blocks} blocks`, `${S.slots.length} entries`, `seed ${body.seed}`];
    if (result.theme && result.theme.length) parts.push(`theme: ${result.theme.join(", ")}`);
    const stats = result.stats || {};
    if (stats.seconds !== undefined) parts.push(`${Number(stats.seconds).toFixed(2)} s`);
    let head;
    let kind = "good";
    if (result.method === "pattern") {
      head = `${what}: the rest is yours to fill`;
    } else if (filled) {
      head = `${what}, filled`;
      if (result.score && result.score.mean !== undefined) parts.push(`mean score ${result.score.mean}`);
      parts.push(body.allow_unclued ? "unclued entries allowed" : "clued entries only");
    } else {
      kind = "bad";
      const runs = (result.unknown || []).concat(result.scrambled || []);
      head = `${what}: no complete fill (${job.state === "cancelled" ? "cancelled" : result.status || "stopped"})`;
      if (runs.length) parts.push(`down runs that are no word: ${runs.slice(0, 8).join(" ")}${runs.length > 8 ? " …" : ""}`);
    }
    showResult(`<b>${esc(head)}</b><br>${parts.map((p) => `<bdi>${esc(p)}</bdi>`).join(" · ")}`, kind);
    CW.setStatus(`${head}: undo (Ctrl+Z) takes it back`, kind === "good" ? "ok" : "info");
    CW.construct.focusGrid();
  }

  /** A new document from cells (a pattern): through loadPuzzle, keeping the title and notes. */
  function loadCells(cells, rtl) {
    CW.construct.loadPuzzle({
      grid: { cells, rtl },
      solution: null,
      clues: {},
      title: $("title").value,
      author: $("author").value,
      copyright: S.meta.copyright || "",
      notes: S.meta.notes || "",
    });
  }

  const showResult = (html, kind) => CW.solver.showResult(html, kind);

  /* ---- The pattern library ---- */

  async function loadListing() {
    const list = $("pat-list");
    $("pat-list-head").textContent = "Loading the patterns…";
    try {
      const answer = await CW.api.get("/api/patterns");
      listed = answer.patterns || [];
      $("pat-list-head").textContent = listed.length
        ? `${listed.length} pattern${listed.length === 1 ? "" : "s"} from ${(answer.folders || []).join(", ")}`
        : "No patterns: start the server with --patterns DIR (a folder of grid files).";
      drawListing();
    } catch (error) {
      listed = null;
      list.textContent = "";
      $("pat-list-head").textContent = `The patterns could not be listed (${error.message}).`;
    }
  }

  function drawListing() {
    const list = $("pat-list");
    list.textContent = "";
    if (!listed) return;
    const words = $("pat-filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let folder = null;
    let shown = 0;
    for (const item of listed) {
      const size = `${item.rows}x${item.cols}`;
      const haystack = `${item.name} ${item.folder} ${size} ${item.description || ""}`.toLowerCase();
      if (!words.every((w) => haystack.includes(w))) continue;
      if (item.folder !== folder) {
        folder = item.folder;
        const head = document.createElement("li");
        head.className = "pat-folder";
        head.textContent = folder;
        list.appendChild(head);
      }
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pat-item";
      button.dataset.id = item.id;
      button.title = item.description || `load ${item.name} as a new grid`;
      const name = document.createElement("span");
      name.className = "pat-name";
      name.textContent = item.name;
      const info = document.createElement("span");
      info.className = "pat-info";
      info.textContent = `${item.rows} × ${item.cols} · ${item.blocks} blocks${item.prefilled ? ` · ${item.prefilled} letters` : ""}`;
      button.append(name, info);
      li.appendChild(button);
      list.appendChild(li);
      shown++;
    }
    if (!shown && listed.length) {
      const li = document.createElement("li");
      li.className = "pat-none";
      li.textContent = "no pattern matches";
      list.appendChild(li);
    }
  }

  async function loadPattern(id) {
    CW.setStatus(`loading pattern ${id}...`, "busy");
    try {
      const answer = await CW.api.get(`/api/patterns/${encodeURIComponent(id)}`);
      // The library's files say nothing of direction: the RTL box beside New grid decides, as for a new grid.
      loadCells(answer.grid.cells, $("rtl").checked);
      CW.setStatus(`pattern ${answer.name}: ${answer.rows} × ${answer.cols}, ${answer.blocks} blocks; undo (Ctrl+Z) takes it back`, "ok");
      CW.construct.focusGrid();
    } catch (error) {
      CW.report(error, `pattern ${id}`);
    }
  }

  function init() {
    for (const radio of document.querySelectorAll('input[name="pat-style"]')) radio.addEventListener("change", syncForm);
    $("pat-method").addEventListener("change", syncForm);
    $("pat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      generate(true);
    });
    $("pat-pattern").addEventListener("click", () => generate(false));
    $("pat-cancel").addEventListener("click", cancel);
    $("pat-filter").addEventListener("input", drawListing);
    $("pat-list").addEventListener("click", (event) => {
      const button = event.target.closest(".pat-item");
      if (button) loadPattern(button.dataset.id);
    });
    // The listing is asked for when the tab first shows: most sessions never open it.
    const tab = document.querySelector('.tabs [data-tab="patterns"]');
    if (tab) tab.addEventListener("click", () => listed === null && loadListing());
    $("pat-rows").value = $("rows").value;
    $("pat-cols").value = $("cols").value;
    syncForm();
    setRunning(null);
  }

  CW.patterns = { init, generate, loadPattern, loadListing };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})(window.CW);
