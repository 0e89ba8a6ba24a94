// Starts the page: reads the board, draws it, opens the event stream, and wires the
// header, the board's clicks and the dialogs to the modules that do the work.

import { api, boardPrefix } from "./api.js";
import { state, setBoard, select, subscribe, changed } from "./state.js";
import { onColumnAction } from "./board.js";
import { initDrag } from "./drag.js";
import { initKeys, KEYS } from "./keys.js";
import { initPanel, openCard, openNew, boardChanged } from "./panel.js";
import { connect, afterEvent } from "./live.js";
import { initFilter, refreshFilter } from "./filter.js";
import { initUndo, undo } from "./undo.js";
import { initSettings, settingsBoardChanged } from "./settings.js";
import { initStatus, refreshStatusSoon } from "./status.js";
import { initArchive, refreshArchive } from "./archive.js";
import { moveCards, archiveCards } from "./actions.js";
import { showError, toast } from "./ui.js";

function initBoardClicks() {
  document.getElementById("board").addEventListener("click", (event) => {
    const card = event.target.closest(".card");
    if (card?.dataset.problem) {
      toast(card.title, "error");
      return;
    }
    if (!card || !card.dataset.slug) {
      // A click beside the cards selects the column (where n adds a card).
      const column = event.target.closest(".column");
      if (column && !event.target.closest("button") && column.dataset.column !== state.selectedColumn) {
        state.selectedColumn = column.dataset.column;
        select(null);
      }
      return;
    }
    const slug = card.dataset.slug;
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      if (state.multi.has(slug)) state.multi.delete(slug);
      else state.multi.add(slug);
      select(slug);
      return;
    }
    select(slug);
    openCard(slug);
  });
  onColumnAction(async (action, id) => {
    if (action === "new-card") {
      openNew(id);
    } else if (action === "collapse") {
      const column = state.board.columns.find((c) => c.id === id);
      if (!column) return;
      if (state.board.readOnly) {
        // Read-only: collapse on this page only.
        column.collapsed = !column.collapsed;
        changed([id]);
        return;
      }
      try {
        setBoard(await api.updateColumn(id, { collapsed: !column.collapsed }));
      } catch (error) {
        showError(error, "could not change the column");
      }
    }
  });
}

function initMultiBar() {
  const columnSelect = document.getElementById("multi-column");
  subscribe(() => {
    const wanted = (state.board?.columns || []).map((c) => c.id + "\u0000" + c.name).join("\u0001");
    if (columnSelect.dataset.columns !== wanted) {
      columnSelect.dataset.columns = wanted;
      columnSelect.replaceChildren();
      for (const column of state.board?.columns || []) {
        const option = document.createElement("option");
        option.value = column.id;
        option.textContent = column.name;
        columnSelect.appendChild(option);
      }
    }
  });
  document.getElementById("multi-bar").addEventListener("click", async (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    const slugs = [...state.multi];
    if (action === "move-chosen") {
      await moveCards(slugs, columnSelect.value);
    } else if (action === "archive-chosen") {
      await archiveCards(slugs);
    } else if (action !== "clear-chosen") {
      return;
    }
    state.multi.clear();
    select(state.selected);
  });
}

function initHelp() {
  const list = document.getElementById("help-keys");
  for (const [keys, what] of KEYS) {
    const term = document.createElement("dt");
    for (const key of keys.split(/(, | )/)) {
      if (key === ", " || key === " ") term.append(key);
      else {
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        term.appendChild(kbd);
      }
    }
    const detail = document.createElement("dd");
    detail.textContent = what;
    list.append(term, detail);
  }
  document.querySelector('[data-action="help"]').addEventListener("click", showHelp);
  for (const close of document.querySelectorAll("dialog [data-action=close-dialog]")) {
    close.addEventListener("click", () => close.closest("dialog").close());
  }
}

function showHelp() {
  document.getElementById("help-dialog").showModal();
}

function showProblems() {
  const element = document.getElementById("problems");
  const problems = state.board?.problems || [];
  element.hidden = problems.length === 0;
  element.textContent = `${problems.length} unreadable card file${problems.length === 1 ? "" : "s"}`;
  element.title = problems.map((p) => `${p.path}: ${p.message}`).join("\n");
  document.getElementById("read-only").hidden = !state.board?.readOnly;
}

// With several boards served, the header's picker lists them and opens the one chosen; with one, there is none.
async function initBoardPicker() {
  document.querySelector('[data-action="report"]').href = boardPrefix + "/report";
  if (!boardPrefix) return;
  const picker = document.getElementById("board-picker");
  let answer;
  try {
    answer = await api.boards();
  } catch (error) {
    return;
  }
  const boards = Array.isArray(answer?.boards) ? answer.boards : [];
  for (const board of boards) {
    const option = document.createElement("option");
    option.value = String(board.index);
    option.textContent = board.title === board.name ? board.name : `${board.title} (${board.name})`;
    option.selected = boardPrefix === "/b/" + board.index;
    picker.append(option);
  }
  picker.hidden = boards.length < 2;
  picker.addEventListener("change", () => {
    location.assign("/b/" + encodeURIComponent(picker.value) + "/");
  });
}

async function start() {
  // The token has done its work (the server set its cookie): keep it out of the address bar and history.
  if (new URLSearchParams(location.search).has("token")) history.replaceState(null, "", location.pathname);
  initPanel();
  initBoardClicks();
  initDrag();
  initKeys({ showHelp });
  initFilter();
  initUndo();
  initSettings();
  initArchive();
  initMultiBar();
  initHelp();
  initBoardPicker();
  document.querySelector('[data-action="undo"]').addEventListener("click", () => undo());
  let generation = 0;
  subscribe(() => {
    if (generation === state.boardGeneration) return;
    generation = state.boardGeneration;
    showProblems();
    boardChanged();
    settingsBoardChanged();
  });
  let boardReady = false;
  let streamOpen = false;
  const maybeReady = () => {
    if (boardReady && streamOpen) document.body.dataset.ready = "1";
  };
  const message = document.getElementById("board-message");
  try {
    setBoard(await api.board());
    message.hidden = true;
  } catch (error) {
    message.classList.add("error");
    message.textContent = error.status === 401 || error.status === 403
      ? "This page needs the link `kanban serve` printed (with its token): " + error.message
      : "Cannot load the board: " + error.message;
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  boardReady = true;
  initStatus();
  afterEvent((event) => {
    refreshFilter();
    refreshStatusSoon();
    if (["archived", "unarchived", "deleted", "created"].includes(event.event)) refreshArchive();
  });
  connect(() => {
    streamOpen = true;
    maybeReady();
  });
}

start();
