/* drafts.js: autosave of construct mode into the browser's localStorage, and the Drafts list.
 *
 * Every change of the document (CW.on "grid" for cells, locks, styles and voids; "document" for
 * clues, title and author) saves it SAVE_DELAY_MS after the last change, and at once when the
 * page is hidden or left. A reload reopens the last draft. "New grid" and "Open" start a new
 * draft, so the grid so far stays in the list. The undo history is not saved.
 *
 * Storage: DRAFT_PREFIX + id holds a document (CW.construct.documentState()), INDEX_KEY a list of
 * {id, title, rows, cols, saved} (newest first, at most MAX_DRAFTS), CURRENT_KEY the id the page
 * reopens. A full storage is reported in the status bar and makes leaving the page ask first.
 */
"use strict";

window.CW = window.CW || {};

(function (CW) {
  const $ = (id) => document.getElementById(id);

  /** Milliseconds after the last change before the draft is saved. */
  const SAVE_DELAY_MS = 500;
  /** The most drafts kept: saving one more drops the oldest. */
  const MAX_DRAFTS = 30;
  const DRAFT_PREFIX = "csp-crossword.draft.";
  const INDEX_KEY = "csp-crossword.drafts";
  const CURRENT_KEY = "csp-crossword.current-draft";
  /** Milliseconds a Delete button waits for its confirming second click. */
  const CONFIRM_MS = 4000;

  const state = {
    id: null, // the draft the page edits
    timer: null,
    dirty: false, // changes not yet in storage
    failed: false, // the last save did not get into storage
    loading: false, // a draft is being loaded: its own change events are not edits
  };

  /*
   * Two tabs on one draft would overwrite each other's work. Each tab says when it saved which
   * draft; a tab that hears another save the draft it shows goes on in a draft of its own.
   */
  const TAB = newId();
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("csp-crossword-drafts") : null;
  function onOtherTab(event) {
    const message = event.data || {};
    if (message.tab === TAB || message.saved !== state.id) return;
    state.id = newId();
    state.dirty = true; // this tab's grid goes to its own draft at once
    save();
    CW.setStatus("this grid is also open in another tab: this tab now keeps its own copy (Drafts lists both)", "info");
  }

  /* ---- Storage: every access may throw (storage disabled, full); none of it reaches the user. ---- */

  function storage() {
    try {
      return window.localStorage || null;
    } catch (_) {
      return null; // a privacy setting refuses storage altogether
    }
  }

  function readJSON(key) {
    try {
      const store = storage();
      const text = store && store.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (_) {
      return null;
    }
  }

  function remove(key) {
    try {
      const store = storage();
      if (store) store.removeItem(key);
    } catch (_) {
      /* nothing to do: the next save tries again */
    }
  }

  const isQuotaError = (error) =>
    !!error && (error.name === "QuotaExceededError" || error.name === "NS_ERROR_DOM_QUOTA_REACHED" || error.code === 22 || error.code === 1014);

  /** The drafts, newest first: the index, without entries whose document is gone. */
  function list() {
    const index = readJSON(INDEX_KEY);
    if (!Array.isArray(index)) return [];
    const store = storage();
    try {
      return index
        .filter((d) => d && typeof d.id === "string" && store && store.getItem(DRAFT_PREFIX + d.id) !== null)
        .sort((a, b) => (b.saved || 0) - (a.saved || 0));
    } catch (_) {
      return [];
    }
  }

  function newId() {
    const bytes = new Uint8Array(6);
    crypto.getRandomValues(bytes);
    return Date.now().toString(36) + "-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** A document with nothing in it: an untouched grid is not worth a place in the list. */
  function isBlank(doc) {
    const cells = doc.cells.flat();
    return cells.every((v) => v === "") && !doc.clues.length && !doc.title.trim() && !doc.author.trim() && !doc.styles.length;
  }

  /* ---- Saving ---- */

  /** Save the current draft now (when it has changes). True when storage has the latest state. */
  function save() {
    clearTimeout(state.timer);
    state.timer = null;
    if (!state.dirty && !state.failed) return true;
    const store = storage();
    const doc = CW.construct.documentState();
    const entry = {
      id: state.id,
      title: doc.title.trim(),
      rows: doc.cells.length,
      cols: doc.cells[0].length,
      saved: Date.now(),
    };
    try {
      if (!store) throw new Error("this browser keeps no storage for the page");
      store.setItem(DRAFT_PREFIX + state.id, JSON.stringify({ ...doc, saved: entry.saved }));
      const drafts = [entry, ...list().filter((d) => d.id !== state.id)];
      for (const old of drafts.splice(MAX_DRAFTS)) remove(DRAFT_PREFIX + old.id);
      store.setItem(INDEX_KEY, JSON.stringify(drafts));
      store.setItem(CURRENT_KEY, state.id);
    } catch (error) {
      const why = isQuotaError(error)
        ? "the browser's storage for this page is full: delete old drafts (Drafts) or save the puzzle to a file"
        : (error && error.message) || String(error);
      state.failed = true;
      CW.setStatus(`autosave failed: ${why}`, "error");
      return false;
    }
    if (state.failed) CW.setStatus("autosave works again: the draft is saved", "ok");
    if (channel) channel.postMessage({ saved: state.id, tab: TAB });
    state.dirty = false;
    state.failed = false;
    refreshMenu();
    return true;
  }

  function onChange() {
    if (state.loading) return;
    state.dirty = true;
    clearTimeout(state.timer);
    state.timer = setTimeout(save, SAVE_DELAY_MS);
  }

  /** Whether leaving now would lose work: a save now (storage is synchronous) decides. */
  function needsWarning() {
    return !save();
  }

  /** "New grid" and "Open": keep the grid so far, then go on in a new draft (or drop a blank one). */
  function startNew() {
    save();
    const doc = CW.construct.documentState();
    if (isBlank(doc) && state.id) forget(state.id);
    state.id = newId();
    state.dirty = false;
    state.failed = false;
  }

  function forget(id) {
    remove(DRAFT_PREFIX + id);
    const store = storage();
    try {
      if (store) store.setItem(INDEX_KEY, JSON.stringify(list().filter((d) => d.id !== id)));
    } catch (_) {
      /* a shorter index that does not fit: the missing document drops it from the list anyway */
    }
  }

  /** Open a saved draft (the current one is saved first). */
  function open(id) {
    if (id === state.id) return true;
    const doc = readJSON(DRAFT_PREFIX + id);
    save();
    state.loading = true;
    let ok = false;
    try {
      ok = !!doc && CW.construct.loadDocument(doc);
    } finally {
      state.loading = false;
    }
    if (!ok) {
      CW.setStatus("that draft cannot be read (it was removed or damaged)", "error");
      return false;
    }
    state.id = id;
    state.dirty = false;
    state.failed = false;
    try {
      const store = storage();
      if (store) store.setItem(CURRENT_KEY, id);
    } catch (_) {
      /* the reload then reopens the previous current draft: nothing is lost */
    }
    CW.setStatus(`reopened draft "${doc.title || "Untitled"}" (saved ${when(doc.saved)})`, "ok");
    refreshMenu();
    return true;
  }

  /** Delete a draft that is not the one being edited. */
  function deleteDraft(id) {
    if (id === state.id) return false;
    forget(id);
    refreshMenu();
    return true;
  }

  /* ---- The Drafts menu ---- */

  function when(ms) {
    if (!ms) return "at an unknown time";
    const date = new Date(ms);
    const today = new Date().toDateString() === date.toDateString();
    const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return today ? `at ${time}` : `on ${date.toLocaleDateString()} ${time}`;
  }

  function refreshMenu() {
    if (!$("drafts-menu").hidden) buildMenu();
  }

  function buildMenu() {
    const box = $("drafts-list");
    box.textContent = "";
    const drafts = list();
    if (!drafts.some((d) => d.id === state.id)) {
      drafts.unshift({ id: state.id, title: CW.titlesOf("construct").title, rows: CW.state.cells.length, cols: CW.state.cells[0].length, saved: 0 });
    }
    for (const draft of drafts) {
      const current = draft.id === state.id;
      const li = document.createElement("li");
      li.dataset.id = draft.id;
      li.classList.toggle("current", current);
      const name = document.createElement("button");
      name.type = "button";
      name.className = "draft-open";
      name.textContent = draft.title || "Untitled";
      name.title = current ? "the grid you are editing" : "reopen this draft";
      const info = document.createElement("span");
      info.className = "draft-info";
      const saved = current ? (state.dirty ? "not saved yet" : "open now") : `saved ${when(draft.saved)}`;
      info.textContent = `${draft.rows}×${draft.cols} · ${saved}`;
      li.append(name, info);
      if (!current) {
        const del = document.createElement("button");
        del.type = "button";
        del.className = "draft-delete";
        del.textContent = "Delete";
        del.setAttribute("aria-label", `Delete draft ${draft.title || "Untitled"}`);
        li.append(del);
      }
      box.appendChild(li);
    }
  }

  /** The menu opens under its button; where that would run off the window's right (or left)
   * edge, it moves over by as much, so every draft stays in view. */
  function keepOnScreen(menu) {
    const MARGIN = 8;
    menu.style.left = "0px";
    const box = menu.getBoundingClientRect();
    const over = box.right - (document.documentElement.clientWidth - MARGIN);
    const shift = over > 0 ? Math.min(over, box.left - MARGIN) : 0;
    if (shift > 0) menu.style.left = `${-shift}px`;
  }

  function showMenu(show) {
    const menu = $("drafts-menu");
    if (show) buildMenu();
    menu.hidden = !show;
    $("drafts").setAttribute("aria-expanded", String(show));
    if (show) keepOnScreen(menu);
    if (show) {
      const first = menu.querySelector("li:not(.current) .draft-open") || menu.querySelector(".draft-open");
      if (first) first.focus();
    }
  }

  function onMenuClick(event) {
    const li = event.target.closest("li[data-id]");
    if (!li) return;
    const id = li.dataset.id;
    if (event.target.closest(".draft-open")) {
      if (id !== state.id) open(id);
      showMenu(false);
      CW.construct.focusGrid();
    } else if (event.target.closest(".draft-delete")) {
      const button = event.target.closest(".draft-delete");
      if (button.dataset.confirm !== "yes") {
        button.dataset.confirm = "yes"; // a second click within CONFIRM_MS deletes
        button.textContent = "Really delete?";
        setTimeout(() => {
          if (button.isConnected) {
            button.dataset.confirm = "";
            button.textContent = "Delete";
          }
        }, CONFIRM_MS);
        return;
      }
      const name = li.querySelector(".draft-open").textContent;
      deleteDraft(id);
      CW.setStatus(`draft "${name}" deleted`, "ok");
      const next = $("drafts-list").querySelector(".draft-open");
      if (next) next.focus();
    }
  }

  /* ---- Start ---- */

  /** Reopen the last draft, if there is one the page can show. */
  function restore() {
    const drafts = list();
    let wanted = null;
    try {
      const store = storage();
      wanted = store && store.getItem(CURRENT_KEY);
    } catch (_) {
      /* no storage: the newest draft, if any */
    }
    const ids = [wanted, ...drafts.map((d) => d.id)].filter(Boolean);
    for (const id of ids) {
      const doc = readJSON(DRAFT_PREFIX + id);
      if (!doc) continue;
      state.loading = true;
      let ok = false;
      try {
        ok = CW.construct.loadDocument(doc);
      } finally {
        state.loading = false;
      }
      if (ok) {
        state.id = id;
        CW.setStatus(`reopened your last grid "${doc.title || "Untitled"}" (autosaved ${when(doc.saved)}); Drafts lists the others`, "ok");
        return true;
      }
    }
    return false;
  }

  function init() {
    state.id = newId();
    restore();
    if (channel) channel.addEventListener("message", onOtherTab);
    CW.on("grid", onChange);
    CW.on("document", onChange);
    CW.on("new-document", startNew);
    window.addEventListener("pagehide", save);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") save();
    });
    window.addEventListener("beforeunload", (event) => {
      if (!needsWarning()) return;
      event.preventDefault();
      event.returnValue = ""; // older browsers ask only when this is set
    });
    $("drafts").addEventListener("click", () => showMenu($("drafts-menu").hidden));
    $("drafts-list").addEventListener("click", onMenuClick);
    $("drafts-menu").addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        showMenu(false);
        $("drafts").focus();
      }
    });
    document.addEventListener("mousedown", (event) => {
      if (!$("drafts-menu").hidden && !event.target.closest(".drafts-wrap")) showMenu(false);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();

  CW.drafts = { save, list, open, deleteDraft, needsWarning, MAX_DRAFTS, SAVE_DELAY_MS, state };
})(window.CW);
