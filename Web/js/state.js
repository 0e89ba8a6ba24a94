// The board as the page knows it: columns, labels and the active cards in board order,
// the selection and the filter. Changes are announced to subscribers with the ids of
// the columns they touched, so that only those are drawn again.

import { dependentColumns } from "./work.js";

export const state = {
  board: null, // {title, columns: [{id, name, collapsed, limit, queue}], labels, readOnly, template, problems}
  cards: new Map(), // slug → card (with excerpt)
  order: new Map(), // column id → [slug] in board order
  selected: null, // the slug the keyboard acts on
  selectedColumn: null,
  multi: new Set(), // slugs chosen with shift/ctrl/cmd-click
  filter: null, // Set of matching slugs, or null for no filter
  boardGeneration: 0, // counts the boards read (columns and labels may have changed)
  toTidy: new Map(), // card path → what a merge left to tidy in it (from the git status)
};

const subscribers = new Set();
let pendingColumns = new Set();
let pendingAll = false;
let scheduled = false;

/// Calls `listener({all, columns})` after a batch of changes (once per task).
export function subscribe(listener) {
  subscribers.add(listener);
}

export function changed(columns) {
  if (columns === "all") pendingAll = true;
  else for (const column of columns) if (column) pendingColumns.add(column);
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    const change = { all: pendingAll, columns: pendingColumns };
    pendingAll = false;
    pendingColumns = new Set();
    for (const listener of subscribers) listener(change);
  });
}

/// Board order: position compared by code units (cards without one last), ties by slug.
function compareCards(a, b) {
  const pa = a.position, pb = b.position;
  if (pa !== pb) {
    if (pa == null) return 1;
    if (pb == null) return -1;
    return pa < pb ? -1 : 1;
  }
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

export function setBoard(json) {
  state.boardGeneration++;
  const previousColumns = state.board ? state.board.columns.map((c) => c.id) : [];
  state.board = {
    title: json.title ?? "",
    columns: (json.columns || []).map(({ id, name, collapsed, limit, queue }) => ({
      id, name, collapsed: !!collapsed, limit: Number.isInteger(limit) ? limit : null, queue: !!queue,
    })),
    labels: json.labels || [],
    readOnly: !!json.readOnly,
    template: json.template ?? "",
    problems: json.problems || [],
    work: json.work ? { ...json.work, archived: [...(json.work.archived || [])] } : null,
  };
  state.cards.clear();
  state.order.clear();
  for (const column of json.columns || []) {
    const slugs = [];
    for (const card of column.cards || []) {
      state.cards.set(card.slug, card);
      slugs.push(card.slug);
    }
    state.order.set(column.id, slugs);
  }
  for (const slug of [...state.multi]) if (!state.cards.has(slug)) state.multi.delete(slug);
  if (state.selected && !state.cards.has(state.selected)) state.selected = null;
  const ids = state.board.columns.map((c) => c.id);
  if (!ids.includes(state.selectedColumn)) state.selectedColumn = firstOpenColumn();
  changed(ids.join() === previousColumns.join() ? ids : "all");
}

function firstOpenColumn() {
  const columns = state.board?.columns || [];
  return (columns.find((c) => !c.collapsed) || columns[0] || {}).id ?? null;
}

export function column(id) {
  return state.board?.columns.find((c) => c.id === id) || null;
}

export function label(id) {
  return state.board?.labels.find((l) => l.id === id) || null;
}

/// Where a card is: its column, index, and the slugs before and after it (null at the ends).
export function locate(slug) {
  const card = state.cards.get(slug);
  if (!card) return null;
  const slugs = state.order.get(card.column) || [];
  const index = slugs.indexOf(slug);
  if (index < 0) return null;
  return { column: card.column, index, previous: slugs[index - 1] ?? null, next: slugs[index + 1] ?? null };
}

/// Takes a card off the board (deleted, archived, or about to be put back elsewhere).
export function removeCard(slug) {
  const card = state.cards.get(slug);
  if (!card) return null;
  state.cards.delete(slug);
  const slugs = state.order.get(card.column);
  if (slugs) {
    const index = slugs.indexOf(slug);
    if (index >= 0) slugs.splice(index, 1);
  }
  state.multi.delete(slug);
  changed([card.column, ...dependentColumns(slug)]);
  return card;
}

/// Puts a card (as the server now has it) in its place by position, then slug.
export function upsertCard(card, excerpt) {
  const old = state.cards.get(card.slug);
  const stored = { ...card };
  delete stored.body;
  delete stored.version;
  if (stored.excerpt === undefined) stored.excerpt = excerpt ?? old?.excerpt ?? "";
  if (stored.archived) {
    removeCard(card.slug);
    return;
  }
  if (old) {
    const slugs = state.order.get(old.column);
    const index = slugs ? slugs.indexOf(card.slug) : -1;
    if (index >= 0) slugs.splice(index, 1);
    changed([old.column]);
  }
  if (!state.order.has(stored.column)) {
    // A column the page does not know yet: the board event that adds it refetches the board.
    state.cards.delete(card.slug);
    return;
  }
  state.cards.set(card.slug, stored);
  const slugs = state.order.get(stored.column);
  let low = 0, high = slugs.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareCards(state.cards.get(slugs[middle]), stored) < 0) low = middle + 1;
    else high = middle;
  }
  slugs.splice(low, 0, card.slug);
  changed([stored.column, ...dependentColumns(card.slug)]);
}

/// Puts a card at an index of a column before the server has answered (a drop).
export function placeCard(slug, columnId, index) {
  const card = state.cards.get(slug);
  if (!card || !state.order.has(columnId)) return;
  const from = state.order.get(card.column);
  const at = from.indexOf(slug);
  if (at >= 0) from.splice(at, 1);
  changed([card.column, columnId]);
  changed(dependentColumns(slug));
  const moved = { ...card, column: columnId };
  state.cards.set(slug, moved);
  if (state.selected === slug) state.selectedColumn = columnId;
  const slugs = state.order.get(columnId);
  slugs.splice(Math.max(0, Math.min(index, slugs.length)), 0, slug);
}

/// The cards of a column as shown: in board order, without those the filter hides.
export function visibleSlugs(columnId) {
  const slugs = state.order.get(columnId) || [];
  return state.filter ? slugs.filter((slug) => state.filter.has(slug)) : slugs;
}

export function select(slug) {
  state.selected = slug;
  const card = slug && state.cards.get(slug);
  if (card) state.selectedColumn = card.column;
  changed([]);
}
