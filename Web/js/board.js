// Draws the board: columns side by side, each a list of card elements kept by slug,
// so that a change moves or rebuilds only the cards it touched and scroll positions,
// focus and selection survive. A column draws its cards in chunks as it scrolls.

import { state, subscribe, visibleSlugs, column as findColumn, label as findLabel } from "./state.js";
import { signature, workLine, waitingOn } from "./work.js";

const CHUNK = 60;
const VALID_COLOUR = /^#[0-9a-fA-F]{6}$/;

const boardElement = () => document.getElementById("board");
const columnViews = new Map(); // column id → {element, list, count, more, limit}
const cardViews = new Map(); // slug → {element, card}
const hooks = { columnAction: null };

export function onColumnAction(handler) {
  hooks.columnAction = handler;
}

/// The colour for a label's chip, or null when it is not a plain #rrggbb.
export function labelColour(id) {
  const colour = findLabel(id)?.color;
  return typeof colour === "string" && VALID_COLOUR.test(colour) ? colour : null;
}

/// Black or white, whichever reads better on the colour.
export function textColourOn(colour) {
  const value = parseInt(colour.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
}

export function labelChip(id) {
  const chip = document.createElement("span");
  chip.className = "chip";
  chip.textContent = findLabel(id)?.name || id;
  const colour = labelColour(id);
  if (colour) {
    chip.style.backgroundColor = colour;
    chip.style.color = textColourOn(colour);
  }
  return chip;
}

subscribe(render);

function render(change) {
  if (!state.board) return;
  const root = boardElement();
  document.title = state.board.title ? state.board.title + " · kanban" : "kanban";
  document.getElementById("board-title").textContent = state.board.title;
  document.body.classList.toggle("read-only", state.board.readOnly);
  if (change.all || columnViews.size !== state.board.columns.length) {
    const wanted = new Set(state.board.columns.map((c) => c.id));
    for (const [id, view] of columnViews) {
      if (!wanted.has(id)) {
        view.element.remove();
        columnViews.delete(id);
      }
    }
    let previous = null;
    for (const column of state.board.columns) {
      let view = columnViews.get(column.id);
      if (!view) {
        view = makeColumn(column.id);
        columnViews.set(column.id, view);
      }
      const expected = previous ? previous.nextElementSibling : root.firstElementChild;
      if (expected !== view.element) root.insertBefore(view.element, expected);
      previous = view.element;
      renderColumn(column.id);
    }
  } else {
    for (const id of change.columns) if (columnViews.has(id)) renderColumn(id);
  }
  renderSelection();
}

function makeColumn(id) {
  const element = document.createElement("section");
  element.className = "column";
  element.dataset.column = id;
  const header = document.createElement("header");
  const collapse = document.createElement("button");
  collapse.type = "button";
  collapse.className = "collapse";
  collapse.dataset.action = "collapse";
  const name = document.createElement("h2");
  const count = document.createElement("span");
  count.className = "count";
  const add = document.createElement("button");
  add.type = "button";
  add.className = "add";
  add.dataset.action = "new-card";
  add.textContent = "+";
  add.title = "New card";
  header.append(collapse, name, count, add);
  const list = document.createElement("div");
  list.className = "cards";
  const more = document.createElement("div");
  more.className = "more";
  list.appendChild(more);
  element.append(header, list);
  const view = { element, header, name, count, list, more, collapse, add, limit: CHUNK };
  header.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button && hooks.columnAction) hooks.columnAction(button.dataset.action, id);
  });
  list.addEventListener("scroll", () => {
    if (list.scrollTop + list.clientHeight > list.scrollHeight - 600) growColumn(id);
  }, { passive: true });
  return view;
}

function growColumn(id) {
  const view = columnViews.get(id);
  if (!view) return;
  if (view.limit < visibleSlugs(id).length) {
    view.limit += CHUNK * 2;
    renderColumn(id);
  }
}

/// Makes sure the card at `index` of a column is drawn (for the keyboard).
export function reveal(slug) {
  const card = state.cards.get(slug);
  if (!card) return;
  const view = columnViews.get(card.column);
  if (!view) return;
  const index = visibleSlugs(card.column).indexOf(slug);
  if (index >= view.limit) {
    view.limit = index + CHUNK;
    renderColumn(card.column);
  }
  cardViews.get(slug)?.element.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function renderColumn(id) {
  const view = columnViews.get(id);
  const column = findColumn(id);
  if (!view || !column) return;
  const all = state.order.get(id) || [];
  const visible = visibleSlugs(id);
  view.name.textContent = column.name;
  view.element.classList.toggle("collapsed", column.collapsed);
  view.collapse.textContent = column.collapsed ? "▸" : "▾";
  view.collapse.title = column.collapsed ? "Expand " + column.name : "Collapse " + column.name;
  view.collapse.setAttribute("aria-expanded", String(!column.collapsed));
  // A WIP limit shows as count/limit, marked when the column holds more (the filter's count wins the space).
  const limit = column.limit;
  const over = limit != null && all.length > limit;
  view.count.textContent = state.filter ? `${visible.length}/${all.length}` : limit != null ? `${all.length}/${limit}` : String(all.length);
  view.count.title = limit != null ? `WIP limit ${limit}${over ? ": over it" : ""}` : "";
  view.element.classList.toggle("over-limit", over);
  const shown = column.collapsed ? [] : visible.slice(0, view.limit);
  // The card being dragged stays wherever the drag has put it until it is dropped.
  const wanted = shown.map(cardFor).filter((element) => !element.classList.contains("dragging"));
  const keep = new Set(wanted);
  for (const child of [...view.list.children]) {
    if (child.classList.contains("card") && !keep.has(child) && !child.classList.contains("dragging")) child.remove();
  }
  let previous = null;
  for (const element of wanted) {
    const expected = nextCard(previous ? previous.nextElementSibling : view.list.firstElementChild);
    if (expected !== element) view.list.insertBefore(element, expected ?? view.more);
    previous = element;
  }
  // Files of this column that do not read are drawn where they are, after its cards, as `kanban tui` draws them:
  // a card a person cannot see is a card a person cannot fix.
  for (const child of [...view.list.querySelectorAll(".card.unreadable")]) child.remove();
  if (!column.collapsed) {
    for (const problem of problemsIn(id)) view.list.insertBefore(standIn(problem), view.more);
  }
  if (view.more.nextElementSibling) view.list.appendChild(view.more);
  const hidden = column.collapsed ? 0 : visible.length - shown.length;
  view.more.textContent = hidden > 0 ? `${hidden} more…` : "";
  view.more.hidden = hidden <= 0;
}

/// The files of column `id` that do not read (from the board's `problems`).
function problemsIn(id) {
  const prefix = `cards/${id}/`;
  return (state.board?.problems || []).filter((p) => p.path.startsWith(prefix) && !p.path.slice(prefix.length).includes("/"));
}

/// A stand-in for a file that does not read: its name and why, never taken for a card (no slug, not draggable).
function standIn(problem) {
  const element = document.createElement("article");
  element.className = "card unreadable";
  element.dataset.problem = problem.path;
  const title = document.createElement("div");
  title.className = "title";
  title.textContent = "⚠ " + problem.path.split("/").pop();
  const why = document.createElement("div");
  why.className = "excerpt";
  why.textContent = problem.message;
  element.append(title, why);
  element.title = problem.message + "\nFix the file in an editor: it shows as a card once it reads.";
  return element;
}

function nextCard(node) {
  while (node && (!node.classList.contains("card") || node.classList.contains("dragging") || node.classList.contains("unreadable"))) {
    if (node.classList.contains("more")) return null;
    node = node.nextElementSibling;
  }
  return node;
}

function cardFor(slug) {
  const card = state.cards.get(slug);
  let view = cardViews.get(slug);
  if (!view) {
    const element = document.createElement("article");
    element.className = "card";
    element.dataset.slug = slug;
    view = { element, card: null };
    cardViews.set(slug, view);
  }
  const work = signature(card);
  if (view.card !== card || view.work !== work) {
    fillCard(view.element, card);
    view.card = card;
    view.work = work;
  }
  return view.element;
}

function fillCard(element, card) {
  element.replaceChildren();
  const title = document.createElement("div");
  title.className = "title";
  title.textContent = card.title || card.slug;
  element.appendChild(title);
  if (card.labels?.length) {
    const labels = document.createElement("div");
    labels.className = "labels";
    for (const id of card.labels) labels.appendChild(labelChip(id));
    element.appendChild(labels);
  }
  const line = workLine(card);
  if (line) {
    const work = document.createElement("div");
    work.className = "work";
    if (waitingOn(card).length) work.classList.add("waiting");
    work.textContent = line;
    element.appendChild(work);
  }
  const tidy = state.toTidy.get(card.path);
  if (tidy) {
    const note = document.createElement("div");
    note.className = "tidy";
    note.textContent = "⚠ " + tidy;
    element.appendChild(note);
  }
  if (card.excerpt) {
    const excerpt = document.createElement("div");
    excerpt.className = "excerpt";
    excerpt.textContent = card.excerpt;
    element.appendChild(excerpt);
  }
  element.title = card.title;
}

/// Redraws every card's contents (after the labels changed their names or colours).
export function refreshAllCards() {
  for (const view of cardViews.values()) view.card = null;
  for (const id of columnViews.keys()) renderColumn(id);
  renderSelection();
}

function renderSelection() {
  for (const element of document.querySelectorAll("#board .card.selected, #board .card.chosen")) {
    element.classList.remove("selected", "chosen");
  }
  for (const element of document.querySelectorAll("#board .column.selected")) element.classList.remove("selected");
  if (state.selected) cardViews.get(state.selected)?.element.classList.add("selected");
  for (const slug of state.multi) cardViews.get(slug)?.element.classList.add("chosen");
  if (state.selectedColumn) columnViews.get(state.selectedColumn)?.element.classList.add("selected");
  const bar = document.getElementById("multi-bar");
  if (bar) {
    bar.hidden = state.multi.size === 0;
    document.getElementById("multi-count").textContent = `${state.multi.size} selected`;
  }
  // Drop cached elements of cards that are gone, so memory follows the board.
  if (cardViews.size > state.cards.size + 200) {
    for (const [slug, view] of cardViews) if (!state.cards.has(slug) && !view.element.isConnected) cardViews.delete(slug);
  }
}
