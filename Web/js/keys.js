// The keyboard, as in `kanban tui`. Keys act on the selected card and column; they
// are ignored while the person types in a field or a dialog is open.

import { state, select, visibleSlugs } from "./state.js";
import { reveal } from "./board.js";
import * as actions from "./actions.js";
import * as panel from "./panel.js";
import { focusFilter } from "./filter.js";
import { undo } from "./undo.js";
import { confirmDialog, dialogOpen, showError } from "./ui.js";
import { isDragging } from "./drag.js";

export const KEYS = [
  ["h l, ← →", "select the column left, right"],
  ["j k, ↓ ↑", "select the card below, above"],
  ["g G, Home End", "first, last card of the column"],
  ["H L, Shift+← →", "move the card to the previous, next column"],
  ["K J, Shift+↑ ↓", "move the card up, down its column"],
  ["n", "new card in the column (below the selected card)"],
  ["e, Enter", "open the card"],
  ["t", "edit the card's title"],
  ["#", "the card's labels"],
  ["a", "archive the card (or the chosen cards)"],
  ["d", "delete the card, after a confirmation"],
  ["x", "choose the card (as shift-click does), for moving or archiving several"],
  ["/", "filter: words, \"phrases\", label:ID, column:ID, title:WORD, -TERM"],
  ["u", "undo the last change made on this page"],
  ["?", "show these keys"],
  ["Escape", "close the card, the dialog, or clear the chosen cards"],
];

const HANDLED = new Set([
  "?", "/", "u", "h", "j", "k", "l", "H", "J", "K", "L", "g", "G", "n", "e", "t", "#", "x", " ", "a", "d",
  "Enter", "Home", "End", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown",
]);

function typing(target) {
  if (!target || !target.closest) return false;
  return !!target.closest("input, textarea, select, [contenteditable=''], [contenteditable=true]");
}

export function initKeys({ showHelp }) {
  window.addEventListener("keydown", async (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (dialogOpen() || isDragging()) return;
    if ((event.key === "Enter" || event.key === " ") && event.target.closest?.("button, a, summary")) return;
    if (typing(event.target)) {
      if (event.key === "Escape" && panel.isOpen() && event.target.closest("#panel")) {
        event.preventDefault();
        event.target.blur();
        panel.close();
      }
      return;
    }
    // Decided before any await: a key that is ours must not also type or scroll.
    if (HANDLED.has(event.key)) event.preventDefault();
    await handle(event.key, event.shiftKey, showHelp);
  });
}

const readOnly = () => !!state.board?.readOnly;

function openColumns() {
  return (state.board?.columns || []).filter((c) => !c.collapsed).map((c) => c.id);
}

function currentColumn() {
  // The selected card's column, wherever the card went (a move is shown before the server answers).
  const card = state.selected && state.cards.get(state.selected);
  if (card) state.selectedColumn = card.column;
  const open = openColumns();
  if (open.includes(state.selectedColumn)) return state.selectedColumn;
  return open[0] ?? null;
}

function selectCard(slug) {
  select(slug);
  if (slug) reveal(slug);
}

function selectColumn(id) {
  const previousIndex = state.selected ? visibleSlugs(state.selectedColumn).indexOf(state.selected) : 0;
  state.selectedColumn = id;
  const slugs = visibleSlugs(id);
  selectCard(slugs[Math.min(Math.max(previousIndex, 0), slugs.length - 1)] ?? null);
  state.selectedColumn = id;
  document.querySelector(`.column[data-column="${CSS.escape(id)}"]`)?.scrollIntoView({ inline: "nearest", block: "nearest" });
}

async function handle(key, shift, showHelp) {
  if (document.getElementById("board").hidden) {
    // The archive view: the board's keys have nothing to act on; Escape goes back to the board.
    if (key === "Escape" && !panel.isOpen()) {
      document.querySelector('[data-action="archive-view"]').click();
      return true;
    }
    if (!["Escape", "?", "u"].includes(key)) return false;
  }
  const column = currentColumn();
  const slugs = column ? visibleSlugs(column) : [];
  const index = state.selected ? slugs.indexOf(state.selected) : -1;
  const selected = index >= 0 ? state.selected : null;
  const open = openColumns();
  const columnIndex = open.indexOf(column);
  switch (key) {
    case "Escape":
      if (panel.isOpen()) panel.close();
      else if (state.multi.size) {
        state.multi.clear();
        select(state.selected);
      } else return false;
      return true;
    case "?":
      showHelp();
      return true;
    case "/":
      focusFilter();
      return true;
    case "u":
      if (!readOnly()) undo();
      return true;
    case "ArrowLeft":
      if (shift) return moveAcross(selected, column, -1);
    // falls through
    case "h":
      if (columnIndex > 0) selectColumn(open[columnIndex - 1]);
      return true;
    case "ArrowRight":
      if (shift) return moveAcross(selected, column, 1);
    // falls through
    case "l":
      if (columnIndex >= 0 && columnIndex < open.length - 1) selectColumn(open[columnIndex + 1]);
      return true;
    case "ArrowDown":
      if (shift) return moveWithin(selected, column, 1);
    // falls through
    case "j":
      if (slugs.length) selectCard(slugs[Math.min(index + 1, slugs.length - 1)]);
      return true;
    case "ArrowUp":
      if (shift) return moveWithin(selected, column, -1);
    // falls through
    case "k":
      if (slugs.length) selectCard(slugs[Math.max(index - 1, 0)]);
      return true;
    case "g":
    case "Home":
      if (slugs.length) selectCard(slugs[0]);
      return true;
    case "G":
    case "End":
      if (slugs.length) selectCard(slugs[slugs.length - 1]);
      return true;
    case "H":
      return moveAcross(selected, column, -1);
    case "L":
      return moveAcross(selected, column, 1);
    case "J":
      return moveWithin(selected, column, 1);
    case "K":
      return moveWithin(selected, column, -1);
    case "n":
      if (!readOnly() && column) panel.openNew(column, selected);
      return true;
    case "e":
    case "Enter":
      if (selected) panel.openCard(selected);
      return true;
    case "t":
      if (selected) panel.openCard(selected, "title");
      return true;
    case "#":
      if (selected) panel.openCard(selected, "labels");
      return true;
    case "x":
    case " ":
      if (selected) {
        if (state.multi.has(selected)) state.multi.delete(selected);
        else state.multi.add(selected);
        select(selected);
      }
      return true;
    case "a":
      if (readOnly()) return true;
      if (state.multi.size) {
        await actions.archiveCards([...state.multi]);
      } else if (selected) {
        const next = slugs[index + 1] ?? slugs[index - 1] ?? null;
        let version;
        try {
          version = await actions.versionAsShown(selected);
        } catch (error) {
          showError(error, "not archived");
          return true;
        }
        try {
          await actions.archiveCard(selected, version);
          selectCard(next);
        } catch (error) {
          if (error.status === 409) showError(error, "not archived");
        }
      }
      return true;
    case "d":
      if (readOnly() || !selected) return true;
      {
        const title = state.cards.get(selected)?.title ?? selected;
        if (!(await confirmDialog(`Delete “${title}”? Its file is removed (u undoes it).`, "Delete"))) return true;
        const next = slugs[index + 1] ?? slugs[index - 1] ?? null;
        let version;
        try {
          version = await actions.versionAsShown(selected);
        } catch (error) {
          showError(error, "not deleted");
          return true;
        }
        try {
          await actions.deleteCard(selected, version);
          selectCard(next);
        } catch (error) {
          if (error.status === 409) showError(error, "not deleted");
        }
      }
      return true;
  }
  return false;
}

async function moveAcross(slug, column, direction) {
  if (readOnly() || !slug) return true;
  const columns = openColumns();
  const target = columns[columns.indexOf(column) + direction];
  if (!target) return true;
  const order = (state.order.get(target) || []).filter((s) => s !== slug);
  await actions.moveCard(slug, { column: target, placement: "bottom" }, order.length);
  selectCard(slug);
  return true;
}

async function moveWithin(slug, column, direction) {
  if (readOnly() || !slug) return true;
  const slugs = visibleSlugs(column);
  const at = slugs.indexOf(slug);
  const other = slugs[at + direction];
  if (at < 0 || !other) return true;
  const order = (state.order.get(column) || []).filter((s) => s !== slug);
  if (direction > 0) await actions.moveCard(slug, { column, after: other }, order.indexOf(other) + 1);
  else await actions.moveCard(slug, { column, before: other }, order.indexOf(other));
  selectCard(slug);
  return true;
}
