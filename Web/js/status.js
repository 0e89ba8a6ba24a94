// Git: the branch, ahead/behind, uncommitted board changes and cards a merge left to
// tidy (GET /api/status), and the Sync button (POST /api/sync) with what it said.

import { api } from "./api.js";
import { state } from "./state.js";
import { refreshAllCards } from "./board.js";
import { showError } from "./ui.js";

let timer = null;
let syncing = false;

export function initStatus() {
  document.querySelector('[data-action="sync"]').addEventListener("click", sync);
  document.querySelector('[data-action="close-sync"]').addEventListener("click", () => {
    document.getElementById("sync-messages").hidden = true;
  });
  refreshStatus();
  setInterval(refreshStatus, 30000);
}

/// Reads the status again a little later (after changes, many at once).
export function refreshStatusSoon() {
  clearTimeout(timer);
  timer = setTimeout(refreshStatus, 700);
}

async function refreshStatus() {
  const element = document.getElementById("git-status");
  let status;
  try {
    status = await api.status();
  } catch (error) {
    element.textContent = "git: " + error.message;
    return;
  }
  element.replaceChildren();
  const syncButton = document.querySelector('[data-action="sync"]');
  if (status.state !== "ready") {
    element.textContent = status.state === "not-a-repository" ? "not in a git repository" : "git is not installed";
    syncButton.hidden = true;
    return;
  }
  syncButton.hidden = !!state.board?.readOnly;
  // A part with details is a button that lists them (a tooltip alone is out of reach on a touch screen).
  const part = (text, className, title, details) => {
    const span = document.createElement(details ? "button" : "span");
    span.className = className;
    span.textContent = text;
    if (title) span.title = title;
    if (details) {
      span.type = "button";
      span.classList.add("link");
      span.addEventListener("click", () => showLines(details, false));
    }
    element.appendChild(span);
    return span;
  };
  part(status.detached ? "detached HEAD" : "⎇ " + (status.branch ?? "?"), "branch", status.upstream ? "tracking " + status.upstream : "no upstream branch");
  if (status.upstream) part(`↑${status.ahead ?? 0} ↓${status.behind ?? 0}`, "ahead-behind", `${status.ahead ?? 0} commits to push, ${status.behind ?? 0} to pull`);
  if (status.operation) part(status.operation + " in progress", "operation warning");
  const changes = status.changes || [];
  if (changes.length || status.boardChanged) {
    const lines = changes.map((c) => `${c.kind} ${c.title || c.slug}${c.fields?.length ? " (" + c.fields.join(", ") + ")" : ""}`);
    if (status.boardChanged) lines.push("board.md changed");
    part(`${changes.length + (status.boardChanged ? 1 : 0)} uncommitted`, "changes", lines.join("\n"), lines);
  } else {
    part("committed", "clean");
  }
  const tidy = status.toTidy || [];
  markCardsToTidy(tidy);
  if (tidy.length) {
    const lines = tidy.map((t) => `${t.path}${t.line ? ":" + t.line : ""}: ${t.message}`);
    part(`${tidy.length} to tidy`, "tidy warning", lines.join("\n"), lines);
  }
  if (status.conflicts?.length) part(`${status.conflicts.length} conflicted`, "warning", status.conflicts.join("\n"), status.conflicts);
}

/// Marks the cards a merge left to tidy on the board (redrawn only when the set changed).
function markCardsToTidy(tidy) {
  const marks = new Map();
  for (const finding of tidy) {
    if (!finding.path) continue;
    const previous = marks.get(finding.path);
    marks.set(finding.path, previous ? previous + "; " + finding.message : finding.message);
  }
  const same = marks.size === state.toTidy.size && [...marks].every(([path, text]) => state.toTidy.get(path) === text);
  if (same) return;
  state.toTidy = marks;
  refreshAllCards();
}

/// Shows lines (what Sync said, or the details of the status) under the header.
function showLines(lines, failed) {
  const list = document.getElementById("sync-lines");
  list.replaceChildren();
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
  const box = document.getElementById("sync-messages");
  box.classList.toggle("failed", failed);
  box.hidden = false;
}

async function sync() {
  if (syncing) return;
  syncing = true;
  const button = document.querySelector('[data-action="sync"]');
  button.disabled = true;
  button.textContent = "Syncing…";
  try {
    const result = await api.sync();
    showLines(result.messages?.length ? result.messages : [result.ok ? "up to date" : "sync failed"], !result.ok);
  } catch (error) {
    showError(error, "sync failed");
  } finally {
    syncing = false;
    button.disabled = false;
    button.textContent = "Sync";
    refreshStatus();
  }
}
