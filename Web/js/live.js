// The live board: GET /api/events as Server-Sent Events, applied card by card. The
// board, the selection, the scroll positions and the panel's inputs stay as they are;
// only the cards an event names are moved or redrawn.

import { state, upsertCard, removeCard, locate, select } from "./state.js";
import { refetchBoard } from "./actions.js";
import { externalChange, openSlug } from "./panel.js";
import { toast } from "./ui.js";
import { boardPrefix } from "./api.js";
import { noteArchived } from "./work.js";

const hooks = { afterEvent: [] };
let boardTimer = null;
let hadError = false;

/// Calls `listener(event)` after each event is applied.
export function afterEvent(listener) {
  hooks.afterEvent.push(listener);
}

const HIDDEN_CLOSE = 60000; // ms a page stays hidden before it lets go of its stream
let source = null;
let hiddenTimer = null;
let openListener = null;

/// Opens the stream; `onOpen` is called each time it (re)connects. A page hidden for a minute
/// closes its stream (a browser allows few connections to one server) and catches up when shown.
export function connect(onOpen) {
  openListener = onOpen;
  open();
  document.addEventListener("visibilitychange", () => {
    clearTimeout(hiddenTimer);
    if (document.hidden) {
      hiddenTimer = setTimeout(() => {
        source?.close();
        source = null;
        setStatus("paused", "off", "The page was hidden; it catches up when shown");
      }, HIDDEN_CLOSE);
    } else if (!source) {
      hadError = true; // refetch the board once the stream is open again
      open();
    }
  });
}

function setStatus(text, kind, title) {
  const status = document.getElementById("live");
  status.textContent = text;
  status.className = "live " + kind;
  status.title = title;
}

function open() {
  source = new EventSource(boardPrefix + "/api/events", { withCredentials: true });
  const mine = source;
  mine.addEventListener("open", () => {
    setStatus("live", "on", "Changes made anywhere appear here as they happen");
    if (hadError) {
      // Events may have been missed while the stream was down.
      hadError = false;
      refetchBoard();
    }
    openListener?.();
  });
  mine.addEventListener("error", () => {
    if (mine !== source) return;
    hadError = true;
    if (mine.readyState === EventSource.CLOSED) setStatus("offline", "off", "The event stream is closed; reload the page");
    else setStatus("reconnecting…", "off", "The event stream is down; the board may be out of date");
  });
  mine.addEventListener("message", (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    apply(event);
  });
}

function slugOfPath(path) {
  if (typeof path !== "string") return null;
  const name = path.split("/").pop();
  if (!name.endsWith(".md")) return null;
  const base = name.slice(0, -3);
  // Archived files are named DATE-slug.md.
  return path.startsWith("archive/") ? base.replace(/^\d{4}-\d{2}-\d{2}-/, "") : base;
}

function leaveSelection(slug) {
  if (state.selected !== slug) return;
  const where = locate(slug);
  select(where ? where.next ?? where.previous : null);
}

function apply(event) {
  // A file that did not read and now does, or is gone: its stand-in goes.
  if ((state.board?.problems || []).some((p) => p.path === event.path || p.path === event.previousPath)) refetchBoardSoon();
  switch (event.event) {
    case "board":
    case "column-added":
    case "column-removed":
      clearTimeout(boardTimer);
      boardTimer = setTimeout(refetchBoard, 30);
      break;
    case "deleted":
    case "archived": {
      const slug = event.slug ?? slugOfPath(event.path);
      if (slug) noteArchived(slug, event.event === "archived");
      if (slug) {
        leaveSelection(slug);
        removeCard(slug);
      }
      break;
    }
    case "invalid":
      toast(`${event.path ?? "a card"}${event.line ? ":" + event.line : ""}: ${event.message ?? "cannot be read"}`, "error");
      refetchBoardSoon(); // the board's problems now name it: drawn in its column
      break;
    case "root-lost":
      toast("The board's directory went away; the server has stopped watching it.", "error");
      break;
    default: {
      if (event.event === "unarchived" && event.slug) noteArchived(event.slug, false);
      const old = slugOfPath(event.previousPath);
      if (old && old !== event.slug) {
        if (state.selected === old) state.selected = event.slug;
        removeCard(old);
      }
      if (event.card) upsertCard(event.card);
      else if (event.slug && event.event !== "created") refetchBoardSoon();
    }
  }
  const open = openSlug();
  const previous = slugOfPath(event.previousPath);
  if (open && (event.slug === open || previous === open || slugOfPath(event.path) === open)) {
    externalChange(event, previous);
  }
  for (const listener of hooks.afterEvent) listener(event);
}

function refetchBoardSoon() {
  clearTimeout(boardTimer);
  boardTimer = setTimeout(refetchBoard, 30);
}
