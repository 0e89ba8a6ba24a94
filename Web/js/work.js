// Where each card stands for agents: who holds it (claimed-by) and which of the cards it depends on (depends-on)
// are not done yet. The rule is the library's (WorkQueue): a card is done when it is in the done column or after
// it, or archived. The server sends the flow's columns and the archived slugs cards depend on (GET /api/board's
// "work"); the page applies the rule to the cards it has, as events change them.

import { state } from "./state.js";

/// Who holds the card, or null.
export function holder(card) {
  const value = card?.fields?.["claimed-by"];
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/// The slugs the card waits for, in its order, without repeats.
export function dependencies(card) {
  const value = card?.fields?.["depends-on"];
  let items = [];
  if (Array.isArray(value)) items = value.filter((item) => typeof item === "string");
  else if (typeof value === "string") items = value.split(",");
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

function columnIndex(id) {
  return (state.board?.columns || []).findIndex((column) => column.id === id);
}

/// Whether the card `slug` is done: archived, or in the done column or one after it.
export function isDone(slug) {
  const work = state.board?.work;
  if (!work) return false;
  const card = state.cards.get(slug);
  if (!card) return (work.archived || []).includes(slug);
  const done = columnIndex(work.doneColumn);
  return done >= 0 && columnIndex(card.column) >= done;
}

/// The cards `card` waits for that are not done (none for a card that is done itself).
export function waitingOn(card) {
  if (!state.board?.work || isDone(card.slug)) return [];
  return dependencies(card).filter((slug) => !isDone(slug));
}

/// What changes the card's line: redraw it when this differs.
export function signature(card) {
  return (holder(card) ?? "") + "|" + waitingOn(card).join(",");
}

/// The columns of the cards that depend on `slug`: drawn again when it changes (it may have become done).
export function dependentColumns(slug) {
  const columns = new Set();
  for (const card of state.cards.values()) if (dependencies(card).includes(slug)) columns.add(card.column);
  return [...columns];
}

/// Notes that `slug` was archived (it counts as done) or brought back.
export function noteArchived(slug, archived) {
  const work = state.board?.work;
  if (!work) return;
  const list = new Set(work.archived || []);
  if (archived) list.add(slug);
  else list.delete(slug);
  work.archived = [...list];
}

/// The line a card shows: `● holder`, `waits for a, b`.
export function workLine(card) {
  const parts = [];
  const who = holder(card);
  if (who) parts.push("● " + who);
  const waits = waitingOn(card);
  if (waits.length) parts.push("waits for " + waits.join(", "));
  return parts.join(" · ");
}
