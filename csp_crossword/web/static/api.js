/* api.js: talking to the csp-crossword server (docs/web.md), and the status bar.
 *
 * Every request goes through here so that a server error ({"detail": ...} with a 4xx/5xx) always
 * reaches the status bar with its text: callers catch and hand the error to CW.report().
 */
"use strict";

window.CW = window.CW || {};
/** The largest seed a job takes (the server's MAX_SEED; /api/config's max_seed replaces it). */
window.CW.MAX_SEED = 2147483647;

(function (CW) {
  const statusBar = () => document.getElementById("status");

  /** Show a message in the status bar. kind: "info", "busy", "ok" or "error". */
  CW.setStatus = function (text, kind = "info") {
    const bar = statusBar();
    if (!bar) return;
    bar.textContent = text;
    bar.dataset.kind = kind;
  };

  /** Report a failure. Aborted requests are ours (a newer one replaced them): not an error. */
  CW.report = function (error, what) {
    if (error && error.name === "AbortError") return;
    const text = error && error.message ? error.message : String(error);
    CW.setStatus((what ? what + ": " : "") + text, "error");
    if (!(error instanceof ApiError)) console.error(error);
  };

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.name = "ApiError";
      this.status = status;
    }
  }
  CW.ApiError = ApiError;

  /** One readable line from FastAPI's detail: a string, or a list of {loc, msg} (422). */
  function detailText(detail) {
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) {
      return detail
        .map((d) => {
          const loc = Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "";
          return (loc ? loc + ": " : "") + (d.msg || JSON.stringify(d));
        })
        .join("; ");
    }
    return JSON.stringify(detail);
  }

  /** The error of a failed response, with the server's own words when it gave any. */
  async function errorOf(response) {
    let text = "";
    try {
      text = await response.text();
    } catch (_) {
      /* the body is gone: the status line still says something */
    }
    let message = text.trim();
    try {
      const body = JSON.parse(text);
      if (body && body.detail !== undefined) message = detailText(body.detail);
    } catch (_) {
      /* not JSON (a proxy's page, a plain-text 413): keep the text */
    }
    if (message.length > 400) message = message.slice(0, 400) + "...";
    const retry = response.headers.get("Retry-After");
    const head = `${response.status} ${response.statusText || ""}`.trim();
    let full = message ? `${head}: ${message}` : head;
    if (retry) full += ` (try again in ${retry} s)`;
    return new ApiError(full, response.status);
  }

  /**
   * The name this page gives itself (X-CSP-Client): the word lists it uploads are its own, listed
   * to no other page. Kept for the tab's lifetime, so a reload still sees its uploads.
   */
  const CLIENT_KEY = "csp-crossword-client";
  function clientName() {
    let name = null;
    try {
      name = sessionStorage.getItem(CLIENT_KEY);
    } catch (_) {
      /* storage refused (a privacy setting): a name for this load only */
    }
    if (!name || !/^[0-9a-f]{32}$/.test(name)) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      name = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      try {
        sessionStorage.setItem(CLIENT_KEY, name);
      } catch (_) {
        /* see above */
      }
    }
    return name;
  }
  const CLIENT = clientName();

  async function send(method, path, body, options = {}) {
    const init = { method, signal: options.signal, headers: { "X-CSP-Client": CLIENT } };
    if (body instanceof FormData) {
      init.body = body;
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError(`the server does not answer (${error.message}); is csp-crossword serve still running?`, 0);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  /** Request JSON and answer the parsed body. */
  async function json(method, path, body, options) {
    const response = await send(method, path, body, options);
    if (response.status === 204) return null;
    return response.json();
  }

  /** The file name a download answer suggests (Content-Disposition), else the fallback. */
  function filenameOf(response, fallback) {
    const header = response.headers.get("Content-Disposition") || "";
    const star = /filename\*\s*=\s*([^']*)''([^;]+)/i.exec(header);
    if (star) {
      try {
        return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ""));
      } catch (_) {
        /* a malformed escape: try the plain form */
      }
    }
    const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
    return plain ? plain[1].trim() : fallback;
  }

  /** POST JSON and answer the file the server sends: {blob, filename}. */
  async function download(path, body, fallbackName) {
    const response = await send("POST", path, body);
    const blob = await response.blob();
    return { blob, filename: filenameOf(response, fallbackName), headers: response.headers };
  }

  /** Upload one file as the multipart field `file`. */
  function upload(path, file) {
    const form = new FormData();
    form.append("file", file, file.name);
    return json("POST", path, form);
  }

  /** Hand a blob to the user as a download. */
  CW.saveBlob = function (blob, filename) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  };

  /**
   * Open a PDF (or any page) blob in a new tab. The tab must be opened while the click is still
   * being handled, or the browser's popup blocker refuses it; so callers open it first
   * (CW.openTab()) and hand it here once the file has come. Without a tab: a download.
   */
  CW.openTab = function () {
    const tab = window.open("", "_blank");
    if (tab) {
      try {
        tab.document.title = "Preparing...";
        tab.document.body.textContent = "Preparing the page...";
      } catch (_) {
        /* another origin's blank page: nothing to write */
      }
    }
    return tab;
  };
  CW.showBlob = function (tab, blob, filename) {
    if (tab && !tab.closed) {
      const url = URL.createObjectURL(blob);
      tab.location.href = url;
      setTimeout(() => URL.revokeObjectURL(url), 10 * 60000);
    } else {
      CW.saveBlob(blob, filename);
    }
  };

  const FINAL = new Set(["done", "failed", "cancelled"]);

  /**
   * Follow a job until it ends; resolve with the final Job. Events come from the server's
   * event stream; if the stream breaks (a proxy, a restart), polling GET /api/jobs/{id} takes
   * over so the page never waits forever. onProgress gets each progress payload.
   */
  function followJob(job, onProgress) {
    return new Promise((resolve, reject) => {
      if (FINAL.has(job.state)) {
        resolve(job);
        return;
      }
      let finished = false;
      let timer = null;
      let source = null;
      const finish = (final) => {
        if (finished) return;
        finished = true;
        if (source) source.close();
        if (timer) clearTimeout(timer);
        resolve(final);
      };
      const poll = async () => {
        if (finished) return;
        try {
          const now = await json("GET", `/api/jobs/${encodeURIComponent(job.id)}`);
          if (FINAL.has(now.state)) return finish(now);
          if (now.progress && onProgress) onProgress(now.progress, now);
          timer = setTimeout(poll, 500);
        } catch (error) {
          finished = true;
          reject(error);
        }
      };
      if (typeof EventSource === "undefined") {
        poll();
        return;
      }
      source = new EventSource(`/api/jobs/${encodeURIComponent(job.id)}/events`);
      source.addEventListener("progress", (event) => {
        const data = parse(event.data);
        // The payload is the search statistics, or a Job carrying them in `progress`.
        if (data && onProgress) onProgress(data.progress && data.state ? data.progress : data, data);
      });
      source.addEventListener("done", (event) => {
        const data = parse(event.data);
        if (data && data.state && FINAL.has(data.state)) finish(data);
        else poll(); // a done without the Job: ask for it
      });
      source.onerror = () => {
        // The stream closed (normally right after `done`) or broke: fall back to polling.
        if (finished) return;
        source.close();
        poll();
      };
    });
  }

  function parse(text) {
    try {
      return JSON.parse(text);
    } catch (_) {
      return null;
    }
  }

  /** Start a job and follow it. handle.cancel() asks the server to stop it. */
  async function runJob(body, onProgress, onStart) {
    const job = await json("POST", "/api/jobs", body);
    if (onStart) onStart(job);
    return followJob(job, onProgress);
  }

  function cancelJob(id) {
    return json("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
  }

  CW.api = { json, download, upload, runJob, followJob, cancelJob, get: (p, o) => json("GET", p, undefined, o), post: (p, b, o) => json("POST", p, b, o) };
})(window.CW);
