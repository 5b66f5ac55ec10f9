/* solver.js: the construct mode's server work: word settings and the ban list, candidates for the
 * selected slot, and the fill / check / count jobs with their progress and results.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const G = CW.grid;
  const S = CW.state;
  const $ = (id) => document.getElementById(id);

  /* ---- Word settings ---- */

  const banned = []; // words in entry form, in the order they were banned

  /** The word-settings fields every grid request carries (docs/web.md "Word settings"). */
  function wordSettings() {
    const settings = {
      words: $("wordlist").value || "builtin",
      lang: $("lang").value || "en",
      ban: banned.slice(),
      allow_duplicates: $("allow-duplicates").checked,
      allow_offensive: $("allow-offensive").checked,
    };
    const min = $("min-score").value.trim();
    if (min !== "") settings.min_score = Number(min);
    Object.assign(settings, CW.wordedit ? CW.wordedit.settings() : {}); // the overrides set in use (wordedit.js)
    return settings;
  }

  function timeLimit() {
    const value = Number($("time-limit").value);
    return value > 0 ? value : 10;
  }

  /** The grid as the solver sees it: a rebus cell (several letters, "STAR") goes as its letters,
   * and the fill spells them in the entries through it. */
  const gridBody = (cells) => ({ cells: cells || S.cells, rtl: S.rtl });

  /** Add a word to the ban list (entry form: no spaces or hyphens, upper case). */
  function ban(word) {
    const entry = word.normalize("NFC").replace(/[\s\-\u2010-\u2014'\u2019\u02bc.]/g, "").toUpperCase();
    if (!entry || banned.includes(entry)) return;
    banned.push(entry);
    drawBans();
    CW.setStatus(`banned ${entry}: fills and candidates leave it out`, "ok");
    refreshCandidates();
  }

  /** The ban list is kept in the browser, so a reload keeps it (a lost write only costs that). */
  const BANS_KEY = "csp-crossword-bans";
  function storeBans() {
    try {
      localStorage.setItem(BANS_KEY, JSON.stringify(banned));
    } catch (_) {
      /* storage full or refused: the list lasts as long as the page */
    }
  }
  function loadBans() {
    try {
      const kept = JSON.parse(localStorage.getItem(BANS_KEY) || "[]");
      if (Array.isArray(kept)) for (const word of kept) if (typeof word === "string" && word && !banned.includes(word)) banned.push(word);
    } catch (_) {
      /* nothing kept, or not ours */
    }
  }

  function drawBans() {
    storeBans();
    const box = $("ban-list");
    box.textContent = "";
    for (const word of banned) {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.textContent = word;
      const x = document.createElement("button");
      x.type = "button";
      x.className = "chip-x";
      x.title = "remove " + word + " from the ban list";
      x.setAttribute("aria-label", x.title);
      x.textContent = "×";
      x.addEventListener("click", () => {
        banned.splice(banned.indexOf(word), 1);
        drawBans();
        refreshCandidates();
      });
      chip.appendChild(x);
      box.appendChild(chip);
    }
    $("ban-empty").hidden = banned.length > 0;
  }

  /** The word lists the server offers (GET /api/config), plus uploads. */
  function offerLists(lists) {
    const select = $("wordlist");
    const current = select.value;
    select.textContent = "";
    const seen = new Set();
    for (const item of [{ id: "builtin", name: "built-in list" }, ...(lists || [])]) {
      const id = typeof item === "string" ? item : item.id;
      if (seen.has(id)) continue;
      seen.add(id);
      const option = document.createElement("option");
      option.value = id;
      option.textContent = typeof item === "string" ? item : item.name || id;
      select.appendChild(option);
    }
    if (seen.has(current)) select.value = current;
  }

  async function uploadList(file) {
    CW.setStatus(`loading ${file.name}...`, "busy");
    try {
      const answer = await CW.api.upload("/api/wordlists", file);
      const option = document.createElement("option");
      option.value = answer.id;
      option.textContent = `${answer.name} (${Number(answer.entries).toLocaleString()} entries)`;
      $("wordlist").appendChild(option);
      $("wordlist").value = answer.id;
      const warnings = answer.warnings && answer.warnings.length ? `; ${answer.warnings.join("; ")}` : "";
      CW.setStatus(`word list ${answer.name}: ${Number(answer.entries).toLocaleString()} entries${warnings}`, warnings ? "info" : "ok");
      refreshCandidates();
    } catch (error) {
      CW.report(error, "word list upload");
    }
  }

  /* ---- Candidates for the selected slot ---- */

  let candidateTimer = null;
  let candidateRequest = null;
  let candidateKey = "";

  /** Ask again shortly: typing fast should not send a request per key. */
  function refreshCandidates(force) {
    if (force === true) candidateKey = ""; // the same question has a new answer (an edited overrides set)
    clearTimeout(candidateTimer);
    candidateTimer = setTimeout(loadCandidates, 150);
    refreshFillability(force); // the same settings change what fits everywhere (a no-op for a new selection)
  }

  async function loadCandidates() {
    const slot = CW.construct.currentSlot();
    const list = $("candidates");
    const head = $("candidates-head");
    if (!slot) {
      if (candidateRequest) candidateRequest.abort();
      candidateKey = "";
      list.textContent = "";
      head.textContent = "Select an entry to see words that fit it.";
      return;
    }
    // A complete entry asks for alternatives: its own cells are emptied (locked ones and rebus
    // cells, the constructor's own choice, stay).
    const complete = G.isComplete(S.cells, slot);
    let cells = S.cells;
    if (complete) {
      cells = G.copy(S.cells);
      for (const [r, c] of slot.cells) {
        if (!S.locked.has(G.key(r, c)) && G.splitGlyphs(cells[r][c] || "").length < 2) cells[r][c] = "";
      }
    }
    const body = { grid: gridBody(cells), slot: slot.id, limit: 50, ...wordSettings() };
    const key = JSON.stringify(body);
    if (key === candidateKey) return; // the same question: the list shown answers it
    candidateKey = key;
    if (candidateRequest) candidateRequest.abort();
    const request = new AbortController();
    candidateRequest = request;
    // The list shown answers another question: it goes at once (no stale words to click).
    list.textContent = "";
    list.classList.add("loading");
    head.textContent = `${slot.id} ${complete ? "(alternatives)" : "\u2068" + G.pattern(S.cells, slot) + "\u2069"}: looking up…`;
    try {
      const answer = await CW.api.post("/api/candidates", body, { signal: request.signal });
      if (request !== candidateRequest) return;
      drawCandidates(slot, answer, complete);
    } catch (error) {
      if (error.name === "AbortError" || request !== candidateRequest) return;
      candidateKey = ""; // ask again next time
      if (quietRetry(error)) {
        // The server is busy (other pages, a burst of typing): ask again shortly, no error shown.
        head.textContent = `${slot.id}: the server is busy, asking again…`;
        clearTimeout(candidateTimer);
        candidateTimer = setTimeout(loadCandidates, RETRY_MS);
        return;
      }
      list.textContent = "";
      head.textContent = `${slot.id}: no candidates (${error.message})`;
      CW.report(error, "candidates");
    } finally {
      if (request === candidateRequest) list.classList.remove("loading");
    }
  }

  /** A candidate's look-ahead status as the page shows it: mark, class and hover text. */
  const CANDIDATE_STATUS = {
    viable: { mark: "✓", title: "its crossings can still be filled (every crossing keeps a word)" },
    dead_end: { mark: "✗", title: "dead end: placing it leaves a crossing entry with no word" },
    unknown: { mark: "?", title: "not checked in time: its crossings may or may not fill" },
  };
  const statusOf = (item) => (item.status in CANDIDATE_STATUS ? item.status : item.dead_end === true ? "dead_end" : item.dead_end === false ? "viable" : "unknown");

  function drawCandidates(slot, answer, complete) {
    const list = $("candidates");
    const head = $("candidates-head");
    list.textContent = "";
    // Best first (the server sends them so; a stable sort keeps its order among equal scores),
    // dead ends after every word whose crossings can still be filled.
    const shown = (answer.candidates || [])
      .slice()
      .sort((a, b) => (statusOf(a) === "dead_end") - (statusOf(b) === "dead_end") || (b.score || 0) - (a.score || 0));
    const total = answer.total !== undefined ? answer.total : shown.length;
    let text = `${answer.slot || slot.id} \u2068${answer.pattern || ""}\u2069: ${Number(total).toLocaleString()} word${total === 1 ? "" : "s"}`;
    if (shown.length < total) text += `, best ${shown.length}`;
    const tally = { viable: 0, dead_end: 0, unknown: 0 };
    for (const item of shown) tally[statusOf(item)]++;
    if (shown.length) {
      const parts = [`${tally.viable} fill their crossings`];
      if (tally.dead_end) parts.push(`${tally.dead_end} dead end${tally.dead_end === 1 ? "" : "s"}`);
      if (tally.unknown) parts.push(`${tally.unknown} not checked`);
      text += ` (${parts.join(", ")})`;
    }
    if (complete) text += " (alternatives to the entry)";
    if (answer.unsatisfiable) text += ` · the grid has no fill: ${typeof answer.unsatisfiable === "string" ? answer.unsatisfiable : "a slot has no word"}`;
    if ((answer.checked_without || []).length) text += ` (words checked against the rest of the grid, without ${answer.checked_without.join(", ")})`;
    const given = answer.given || [];
    if (given.length) text += ` · kept as given (not in the list): ${given.map((g) => `${g.slot} \u2068${g.answer}\u2069`).join(", ")}`;
    head.textContent = text;
    for (const item of shown) {
      const li = document.createElement("li");
      li.dataset.word = item.word;
      const status = statusOf(item);
      li.dataset.status = status;
      li.classList.add("status-" + status.replace("_", "-"));
      if (status === "dead_end") li.classList.add("dead-end");
      li.title = CANDIDATE_STATUS[status].title;
      const mark = document.createElement("span");
      mark.className = "cand-status";
      mark.textContent = CANDIDATE_STATUS[status].mark;
      mark.setAttribute("aria-label", status.replace("_", " "));
      const word = document.createElement("span");
      word.className = "cand-word";
      word.textContent = item.word;
      const display = document.createElement("span");
      display.className = "cand-display";
      const plain = (item.display || "").replace(/[\s\-'.]/g, "").toUpperCase();
      display.textContent = item.display && plain !== item.word ? item.display : "";
      const score = document.createElement("span");
      score.className = "cand-score";
      score.textContent = item.score;
      const banButton = document.createElement("button");
      banButton.type = "button";
      banButton.className = "cand-ban";
      banButton.textContent = "ban";
      banButton.title = `never use ${item.word}`;
      li.append(mark, word, display, score, banButton);
      list.appendChild(li);
    }
    if (!shown.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = "no word fits";
      list.appendChild(li);
    }
  }

  /* ---- Fillability: what still fits every slot, asked after each edit ---- */

  /** Milliseconds to wait after the last edit, and before asking again when the server is busy. */
  const FIT_DEBOUNCE_MS = 150;
  const RETRY_MS = 1000;
  /** A slot with this many words or fewer (and still an empty cell) is shown as tight. */
  const TIGHT_WORDS = 10;

  let fitTimer = null;
  let fitRequest = null;
  let fitKey = "";

  /** A busy server (429) or a request a newer one replaced (409): ask again, say nothing red. */
  const quietRetry = (error) => error && (error.status === 429 || error.status === 409);

  function refreshFillability(force) {
    if (force === true) fitKey = "";
    clearTimeout(fitTimer);
    fitTimer = setTimeout(loadFillability, FIT_DEBOUNCE_MS);
  }

  async function loadFillability() {
    const body = { grid: gridBody(), ...wordSettings() };
    const key = JSON.stringify(body);
    if (key === fitKey) return; // the marks shown answer this grid already
    fitKey = key;
    if (fitRequest) fitRequest.abort(); // the newest edit wins: one request in flight at most
    fitRequest = null;
    if (!S.slots.length) {
      // No entry at all (every cell a block): nothing to ask.
      S.fit = null;
      $("fit-summary").textContent = "";
      CW.construct.render();
      return;
    }
    const request = new AbortController();
    fitRequest = request;
    $("grid").classList.add("fit-stale");
    $("fit-summary").classList.add("stale");
    const slots = S.slots;
    const shape = `${S.cells.length}x${S.cells[0].length}`;
    if (S.fit && S.fit.shape !== shape) {
      S.fit = null; // marks of another grid (a new one, an opened file): gone at once
      CW.construct.render();
    }
    const sent = performance.now();
    try {
      const answer = await CW.api.post("/api/fillability", body, { signal: request.signal });
      if (request !== fitRequest) return; // a newer edit's answer is coming
      applyFillability(answer, slots, key, shape);
      CW.fillability.timings.push(performance.now() - sent);
    } catch (error) {
      if (error.name === "AbortError" || request !== fitRequest) return;
      fitKey = "";
      if (quietRetry(error)) {
        clearTimeout(fitTimer);
        fitTimer = setTimeout(loadFillability, RETRY_MS);
        return;
      }
      S.fit = null;
      $("grid").classList.remove("fit-stale");
      $("fit-summary").classList.remove("stale");
      drawFitSummary(null, error.message);
      CW.construct.render();
    } finally {
      if (request === fitRequest) fitRequest = null;
    }
  }

  /** Keep the answer as marks by cell (S.fit) for construct.js to draw. */
  function applyFillability(answer, slots, key, shape) {
    const counts = new Map(Object.entries(answer.counts || {}));
    const dead = new Map((answer.dead || []).map((row) => [row.slot, row.reason]));
    const byId = new Map(slots.map((slot) => [slot.id, slot]));
    const deadCells = new Map(); // cell key -> ["1A: reason", ...]
    const tightCells = new Set();
    for (const [id, reason] of dead) {
      const slot = byId.get(id);
      if (!slot) continue;
      for (const [r, c] of slot.cells) {
        const k = G.key(r, c);
        if (!deadCells.has(k)) deadCells.set(k, []);
        deadCells.get(k).push(`${id}: ${reason}`);
      }
    }
    for (const [id, n] of counts) {
      const slot = byId.get(id);
      if (!slot || dead.has(id) || n > TIGHT_WORDS || G.isComplete(S.cells, slot)) continue;
      slot.cells.forEach(([r, c]) => tightCells.add(G.key(r, c)));
    }
    S.fit = { key, shape, counts, dead, deadCells, tightCells, exact: answer.exact !== false, given: answer.given || [] };
    // Marks of the grid as it is now, unless an edit came since the request (its answer is on the way).
    const current = key === JSON.stringify({ grid: gridBody(), ...wordSettings() });
    $("grid").classList.toggle("fit-stale", !current);
    $("fit-summary").classList.toggle("stale", !current);
    drawFitSummary(answer, null, slots);
    CW.construct.render();
  }

  /** The line under the toolbar: which entries have no word, and the fewest words elsewhere. */
  function drawFitSummary(answer, problem, slots) {
    const line = $("fit-summary");
    line.textContent = "";
    if (problem) {
      line.dataset.kind = "info";
      line.textContent = `fill outlook unavailable (${problem})`;
      return;
    }
    const dead = answer.dead || [];
    const complete = new Set((slots || []).filter((slot) => G.isComplete(S.cells, slot)).map((slot) => slot.id));
    const open = Object.entries(answer.counts || {}).filter(([id, n]) => n > 0 && !complete.has(id));
    open.sort((a, b) => a[1] - b[1]);
    if (dead.length) {
      line.dataset.kind = "bad";
      const head = document.createElement("b");
      head.textContent = `${dead.length} ${dead.length === 1 ? "entry has" : "entries have"} no word: `;
      line.append(head, dead.map((row) => row.slot).join(", "));
      line.title = dead.map((row) => `${row.slot}: ${row.reason}`).join("\n");
    } else {
      line.dataset.kind = "good";
      line.textContent = "every entry still has words";
      line.title = "after arc consistency with every crossing (a fill may still fail deeper down: Check tells)";
    }
    const fewest = open.slice(0, 4);
    if (fewest.length) {
      const label = document.createElement("span");
      label.className = "fit-fewest";
      label.append(" · fewest: ");
      fewest.forEach(([id, n], i) => {
        const item = document.createElement("span");
        item.className = n <= TIGHT_WORDS ? "fit-count tight" : "fit-count";
        item.textContent = `${id} ${Number(n).toLocaleString()}`;
        label.append(item, i < fewest.length - 1 ? ", " : "");
      });
      line.append(label);
    }
    if (answer.exact === false) line.append(" (counts are upper bounds)");
  }

  /** A cell's hover text: the words left in its entries, and why an entry has none. */
  function fitTitle(r, c) {
    const fit = S.fit;
    if (!fit || !S.index) return "";
    const where = S.index.at.get(G.key(r, c)) || {};
    const parts = [];
    for (const dir of ["across", "down"]) {
      const slot = where[dir] && where[dir].slot;
      if (!slot) continue;
      if (fit.dead.has(slot.id)) parts.push(`${slot.id}: no word fits — ${fit.dead.get(slot.id)}`);
      else if (fit.counts.has(slot.id)) {
        const n = fit.counts.get(slot.id);
        parts.push(`${slot.id}: ${Number(n).toLocaleString()} word${n === 1 ? "" : "s"} fit`);
      }
    }
    return parts.join("\n");
  }

  function onCandidateClick(event) {
    const li = event.target.closest("li[data-word]");
    if (!li) return;
    if (event.target.closest(".cand-ban")) {
      ban(li.dataset.word);
      return;
    }
    const slot = CW.construct.currentSlot();
    if (!slot) return;
    if (CW.construct.placeWord(slot, G.wordGlyphs(li.dataset.word))) {
      CW.setStatus(`placed ${li.dataset.word} in ${slot.id}`, "ok");
    }
    CW.construct.focusGrid();
  }

  /* ---- Jobs: fill, check, count ---- */

  let running = null; // {id, kind} of the job in progress
  let lastFill = null; // {base: cells the fill started from, placed: cells after placing it}

  function setRunning(job) {
    running = job;
    const busy = !!job;
    for (const id of ["autofill", "another-fill", "fill-selection", "check", "count"]) $(id).disabled = busy;
    $("cancel-job").disabled = !busy;
    $("progress").hidden = !busy && !$("progress").textContent;
  }

  function showProgress(kind, progress) {
    const parts = [`${kind}…`];
    if (progress) {
      if (progress.nodes !== undefined) parts.push(`${Number(progress.nodes).toLocaleString()} nodes`);
      if (progress.boards !== undefined) parts.push(`${Number(progress.boards).toLocaleString()} boards`);
      if (progress.count !== undefined) parts.push(`${Number(progress.count).toLocaleString()} counted`);
      if (progress.seconds !== undefined) parts.push(`${Number(progress.seconds).toFixed(1)} s`);
    }
    $("progress").hidden = false;
    $("progress").textContent = parts.join(" · ");
  }

  /** Run one job to its end; answer the final Job, or null when it could not start. */
  async function runJob(body) {
    if (running) {
      CW.setStatus("a job is already running: cancel it first", "error");
      return null;
    }
    const kind = body.kind;
    setRunning({ kind });
    showProgress(kind, null);
    CW.setStatus(`${kind} running...`, "busy");
    try {
      const job = await CW.api.runJob(
        body,
        (progress) => showProgress(kind, progress),
        (job) => (running = { id: job.id, kind })
      );
      if (job.state === "failed") {
        // The box must not keep an earlier job's words ("cancelled") once this one failed.
        showResult(`<b>${esc(kind)} failed</b><br>${esc(job.error || "no reason given")}`, "bad");
        CW.setStatus(`${kind} failed: ${job.error || "no reason given"}`, "error");
      }
      return job;
    } catch (error) {
      if (error.name !== "AbortError") showResult(`<b>${esc(kind)}: no answer</b><br>${esc(error.message || error)}`, "bad");
      CW.report(error, kind);
      return null;
    } finally {
      setRunning(null);
      $("progress").hidden = true;
      $("progress").textContent = "";
    }
  }

  async function cancel() {
    if (!running || !running.id) return;
    try {
      await CW.api.cancelJob(running.id);
      CW.setStatus(`${running ? running.kind : "job"} cancelled: keeping its best result`, "info");
    } catch (error) {
      CW.report(error, "cancel");
    }
  }

  /** The cell keys of a slot and of every entry crossing it. */
  function selectionKeys(index, slot) {
    const keys = new Set();
    for (const [r, c] of slot.cells) {
      const where = index.at.get(G.key(r, c)) || {};
      for (const dir of ["across", "down"]) if (where[dir]) where[dir].slot.cells.forEach(([y, x]) => keys.add(G.key(y, x)));
    }
    return keys;
  }

  const sameCells = (a, b) => a && b && a.length === b.length && a.every((row, r) => row.every((v, c) => v === b[r][c]));

  /**
   * Fill the grid. mode: "all" places every cell; "again" re-runs the last fill's starting grid
   * with a new seed; "selection" fills on the server but places only the selected entry and the
   * entries crossing it.
   */
  async function fill(mode) {
    // Letters an earlier fill placed are not the user's: a new fill may change them (a ban of one
    // of its words takes effect). Typed and locked letters are kept.
    let base = CW.construct.fillBase();
    // Another fill starts from the grid the last fill started from, not from its answer; locked
    // entries are kept whatever their letters came from.
    if (mode === "again" && lastFill && sameCells(lastFill.placed, S.cells)) {
      base = G.copy(lastFill.base);
      for (const k of S.locked) {
        const [r, c] = k.split(",").map(Number);
        if (base[r] && base[r][c] !== null) base[r][c] = S.cells[r][c];
      }
    }
    const slot = CW.construct.currentSlot();
    if (mode === "selection" && !slot) return CW.setStatus("select an entry to fill around", "error");
    if (mode === "selection") {
      // Only the selection is filled again: the fill's letters elsewhere stay as constraints,
      // else the entries beside the selection would mix old letters with new ones.
      base = G.copy(S.cells);
      for (const k of selectionKeys(S.index, slot)) {
        if (!S.fromFill.has(k) || S.locked.has(k)) continue;
        const [r, c] = k.split(",").map(Number);
        base[r][c] = "";
      }
    }
    // Autofill is repeatable (seed 0); another fill and fill selection try new seeds.
    const seed = mode === "all" ? 0 : Math.floor(Math.random() * CW.MAX_SEED);
    const startCells = G.copy(base);
    const body = { kind: "fill", grid: gridBody(startCells), time_limit: timeLimit(), seed, ...wordSettings() };
    const job = await runJob(body);
    if (!job || job.state === "failed") return;
    const result = job.result || {};
    const status = result.status || job.state;
    if (status !== "filled" && status !== "optimal") {
      const reason = result.reason || job.error || "";
      const what =
        job.state === "cancelled" ? "cancelled before a complete fill" : status === "timeout" ? "time limit reached without a fill" : status;
      showResult(`<b>Fill: ${esc(what)}</b>${reason ? "<br>" + esc(reason) : ""}`, "bad");
      CW.setStatus(`fill: ${what}${reason ? " (" + reason + ")" : ""}`, job.state === "cancelled" ? "info" : "error");
      return;
    }
    // The grid may have changed while the job ran: place into the grid as it is now.
    const index = G.index(G.slots(startCells, S.rtl));
    let only = null;
    if (mode === "selection") only = selectionKeys(index, index.byId.get(slot.id) || slot);
    // Fill selection: the weakest of the entries it placed, from the scores of every entry.
    const inPlace = (ws) => ws && (!only || ws.cells.some(([r, c]) => only.has(G.key(r, c))));
    let weakest = (result.score && result.score.weakest) || [];
    if (only && Array.isArray(result.entries)) {
      const count = Math.max(weakest.length, 5);
      weakest = result.entries
        .filter((e) => typeof e.score === "number" && inPlace(index.byId.get(e.id)))
        .sort((a, b) => a.score - b.score)
        .slice(0, count)
        .map((e) => ({ id: e.id, answer: e.answer, score: e.score }));
    }
    weakest = weakest.filter((w) => inPlace(index.byId.get(w.id)));
    const weakKeys = [];
    for (const item of weakest) {
      index.byId.get(item.id).cells.forEach(([r, c]) => (!only || only.has(G.key(r, c))) && weakKeys.push(G.key(r, c)));
    }
    // The answer holds every cell (the givens too), so placing it over the previous fill replaces it.
    const before = G.copy(S.cells);
    CW.construct.placeCells(result.cells, only, weakKeys);
    const same = sameCells(before, S.cells);
    lastFill = { base: startCells, placed: G.copy(S.cells) };
    const score = result.score || {};
    // <bdi>: an Arabic answer beside a Latin slot id must not reorder the whole line.
    const weakText = weakest.map((w) => `<bdi>${esc(w.id)}</bdi> <bdi>${esc(w.answer)}</bdi> (${esc(w.score)})`).join(", ");
    const stats = result.stats || {};
    showResult(
      `<b>${mode === "selection" ? "Filled around " + esc(slot.id) : "Filled"}</b>` +
        (score.mean !== undefined ? ` · mean score ${esc(score.mean)}` : "") +
        jobTime(job, stats.seconds) +
        givenText(result) +
        rebusNote(result) +
        (weakText ? `<br>weakest: <span class="weak-list">${weakText}</span>` : ""),
      "good"
    );
    if (same && mode === "again") {
      // Small grids often have one best fill whatever the seed: say so rather than seem stuck.
      CW.setStatus("the same fill came back (it is the best the list allows here): ban a word or change a letter to steer it", "info");
    } else {
      CW.setStatus(`${status}${job.state === "cancelled" ? " (cancelled, best so far)" : ""}: undo (Ctrl+Z) takes it back`, "ok");
    }
  }

  async function check() {
    // Letters a fill placed are not constraints: the question is whether the user's grid fills.
    const asked = G.copy(S.cells);
    const body = { kind: "check", grid: gridBody(CW.construct.fillBase()), time_limit: timeLimit(), seed: 0, ...wordSettings() };
    const job = await runJob(body);
    if (!job || job.state === "failed") return;
    const result = job.result || {};
    const status = result.status || "unknown";
    S.core.clear();
    if (!sameCells(asked, S.cells)) {
      // The grid changed while the check ran: its answer is about another grid.
      showResult(`<b>Check: ${esc(status)}</b>`, "info", asked);
      CW.setStatus(`check: ${status} (for the grid before your last edits)`, "info");
      return;
    }
    if (status === "solvable") {
      showResult(`<b>Solvable</b>: a fill exists.${jobTime(job)}${givenText(result)}`, "good");
      CW.setStatus("check: solvable", "ok");
    } else if (status === "unsolvable") {
      const core = result.core || [];
      const patterns = result.patterns || {};
      const reasons = result.empty_reasons || {};
      const items = core
        .map((id) => {
          const slot = S.index.byId.get(id);
          if (slot) slot.cells.forEach(([r, c]) => S.core.add(G.key(r, c)));
          const why = reasons[id] ? ` — ${esc(reasons[id])}` : "";
          return `<li><span class="core-id">${esc(id)}</span> <code><bdi>${esc(patterns[id] || (slot ? G.pattern(S.cells, slot) : ""))}</bdi></code>${why}</li>`;
        })
        .join("");
      showResult(
        `<b>Unsolvable</b>${result.reason ? ": " + esc(result.reason) : ""}` +
          (core.length ? `<br>These slots cannot all be filled together:<ul class="core-list">${items}</ul>` : ""),
        "bad"
      );
      CW.setStatus(`check: unsolvable${result.reason ? " (" + result.reason + ")" : ""}`, "error");
    } else {
      const why = result.reason || (job.state === "cancelled" ? "cancelled" : "time limit reached");
      showResult(`<b>Unknown</b> (${esc(why)})`, "info");
      CW.setStatus(`check: unknown (${why})`, "info");
    }
    CW.construct.render();
  }

  async function count() {
    const asked = G.copy(S.cells);
    const body = { kind: "count", grid: gridBody(CW.construct.fillBase()), limit: 1000, time_limit: timeLimit(), seed: 0, ...wordSettings() };
    const job = await runJob(body);
    if (!job || job.state === "failed") return;
    const result = job.result || {};
    if (result.count === undefined) {
      showResult(`<b>Count</b>: <code>${esc(JSON.stringify(result))}</code>`, "info");
      return;
    }
    const n = Number(result.count).toLocaleString();
    let text;
    if (result.exact === true) text = `exactly ${n} fill${result.count === 1 ? "" : "s"}`;
    else if (result.exact === false) text = `at least ${n} fills (stopped: ${result.stopped || "limit"})`;
    else text = `${n} fills`;
    showResult(`<b>Count</b>: ${esc(text)}${jobTime(job, result.seconds)}${givenText(result)}`, "info", asked);
    CW.setStatus(`count: ${text}`, "ok");
  }

  /** " · 2.31 s (solver 1.10 s)": the whole job as the user waited for it, and the search alone. */
  function jobTime(job, solverSeconds) {
    const total = job && job.seconds && typeof job.seconds.total === "number" ? job.seconds.total : null;
    const solver = typeof solverSeconds === "number" ? solverSeconds : null;
    if (total === null) return solver === null ? "" : ` · ${solver.toFixed(2)} s`;
    const parts = [];
    if (solver !== null) parts.push(`solver ${solver.toFixed(2)} s`);
    if (job.seconds.waiting >= 0.05) parts.push(`waited ${Number(job.seconds.waiting).toFixed(2)} s`);
    return ` · ${total.toFixed(2)} s${parts.length ? " (" + parts.join(", ") + ")" : ""}`;
  }

  /** The entries that read a rebus as its first letter, because no list entry spells it there. */
  function rebusNote(result) {
    const short = (result && result.rebus_first_letter) || [];
    if (!short.length) return "";
    const items = short.map((r) => `<bdi>${esc(r.slot)}</bdi> reads <bdi>${esc(r.rebus)}</bdi> as its first letter`).join(", ");
    return `<br><span class="rebus-short">${items}: no entry of the list spells it there</span>`;
  }

  /** The complete entries the list lacks, which the server kept as the user's own. */
  function givenText(answer) {
    const given = (answer && answer.given) || [];
    if (!given.length) return "";
    const items = given.map((g) => `<bdi>${esc(g.slot)}</bdi> <bdi>${esc(g.answer)}</bdi>`).join(", ");
    return `<br>kept as given (not in the list): <span class="given-list">${items}</span>`;
  }

  /** The cells the result box speaks of: once the grid is no longer that grid, the box goes. */
  let resultCells = null;

  function showResult(html, kind, cells) {
    const box = $("result");
    box.innerHTML = html;
    box.dataset.kind = kind;
    resultCells = G.copy(cells || S.cells);
    if (!sameCells(resultCells, S.cells)) {
      box.innerHTML += "<br><i>for the grid as it was when the job started: it has been edited since</i>";
    }
    box.hidden = false;
    CW.construct.render(); // the box takes room from the grid: fit the cells again
  }

  /** An edit (a letter, a block, a fill placed, an undo) makes an earlier result box stale. */
  function dropStaleResult() {
    const box = $("result");
    if (box.hidden || !resultCells || sameCells(resultCells, S.cells)) return;
    box.hidden = true;
    box.textContent = "";
    resultCells = null;
    CW.construct.render();
  }

  const esc = (value) => String(value).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
  CW.esc = esc;

  /* ---- Statistics ---- */

  function drawStats() {
    const st = G.stats(S.cells, S.slots, S.index);
    const rows = [
      ["Size", `${st.rows} × ${st.cols}${S.rtl ? " (RTL)" : ""}`],
      ["Entries", `${st.entries} (${st.across} across, ${st.down} down)`],
      ["Average length", st.averageLength.toFixed(2)],
      ["Blocks", `${st.blocks} (${st.blockShare.toFixed(1)}%)`],
      ["Filled", `${st.filled} of ${st.open} cells`],
      ["Unchecked cells", st.unchecked, st.unchecked > 0],
      ["Under 3 letters", st.short.length ? `${st.short.length}: ${st.short.join(" ")}` : "0", st.short.length > 0],
      ["Duplicates", st.duplicates.length ? st.duplicates.map((d) => `\u2068${d.word}\u2069 (${d.ids.join(", ")})`).join("; ") : "0", st.duplicates.length > 0],
    ];
    if (st.isolated) rows.push(["Isolated cells", st.isolated, true]);
    if (st.components > 1) rows.push(["Separate parts", st.components, true]);
    $("stats").innerHTML = rows
      .map(([name, value, warn]) => `<dt>${esc(name)}</dt><dd${warn ? ' class="warn"' : ""}>${esc(value)}</dd>`)
      .join("");
  }

  function init() {
    $("candidates").addEventListener("click", onCandidateClick);
    $("autofill").addEventListener("click", () => fill("all"));
    $("another-fill").addEventListener("click", () => fill("again"));
    $("fill-selection").addEventListener("click", () => fill("selection"));
    $("check").addEventListener("click", check);
    $("count").addEventListener("click", count);
    $("cancel-job").addEventListener("click", cancel);
    $("clear-fill").addEventListener("click", () => CW.construct.clearFill());
    $("ban-entry").addEventListener("click", () => {
      const slot = CW.construct.currentSlot();
      if (slot && G.isComplete(S.cells, slot)) ban(G.answer(S.cells, slot));
      else CW.setStatus("select a complete entry to ban its word", "error");
    });
    $("ban-add").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("ban-word");
      if (input.value.trim()) ban(input.value.trim());
      input.value = "";
    });
    for (const id of ["wordlist", "lang", "min-score", "allow-duplicates", "allow-offensive"]) {
      $(id).addEventListener("change", refreshCandidates);
    }
    $("wordlist-file").addEventListener("change", (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (file) uploadList(file);
    });
    CW.on("grid", drawStats);
    CW.on("grid", dropStaleResult);
    CW.on("grid", refreshCandidates);
    CW.on("selection", refreshCandidates);
    setRunning(null);
    loadBans();
    drawBans();
    drawStats();
    refreshFillability(); // the grid the page opens with (a draft restored asks again)
  }

  CW.solver = { init, wordSettings, offerLists, refreshCandidates, refreshFillability, ban, showResult, fitTitle };
  /** For tests and benchmarks: milliseconds from each fillability request sent to its marks. */
  CW.fillability = { timings: [] };
})(window.CW);
