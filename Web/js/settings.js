// The settings dialog: the board's columns and labels, added, renamed, recoloured,
// reordered and removed. Every call answers with the board, which replaces the page's.

import { api } from "./api.js";
import { state, setBoard } from "./state.js";
import { refreshAllCards } from "./board.js";
import { boardChanged } from "./panel.js";
import { showError, button, toast } from "./ui.js";
import { pushUndo } from "./undo.js";

const VALID_COLOUR = /^#[0-9a-fA-F]{6}$/;
const dialog = () => document.getElementById("settings-dialog");

export function initSettings() {
  document.querySelector('[data-action="settings"]').addEventListener("click", openSettings);
}

function openSettings() {
  if (state.board?.readOnly) return;
  render();
  dialog().showModal();
}

let drawn = ""; // the columns and labels the dialog shows, as JSON

/// Redraws the dialog when it is open and its columns or labels changed (not while the person types in it).
export function settingsBoardChanged() {
  if (!dialog().open || shape() === drawn) return;
  if (document.activeElement?.matches?.("#settings-dialog input[name$=name]")) return;
  render();
}

function shape() {
  return JSON.stringify([state.board?.columns, state.board?.labels]);
}

/// Puts a board the API answered with on the page.
function show(board) {
  if (board && board.columns) {
    setBoard(board);
    refreshAllCards();
    boardChanged();
  }
  if (dialog().open && shape() !== drawn) render();
}

async function call(promise, doing) {
  try {
    show(await promise);
    return true;
  } catch (error) {
    showError(error, doing);
    return false;
  }
}

/// A change of the board's settings that Undo takes back: `inverse` makes the calls that undo it.
function change(promise, doing, description, inverse) {
  const done = call(promise, doing).then((ok) => (ok ? true : null));
  pushUndo(description, async () => {
    let board = null;
    for (const step of await inverse()) board = (await step()) ?? board;
    show(board ?? (await api.board()));
  }, done);
  return done;
}

/// The cards of a column, in order, as the page shows them now.
const cardsOf = (id) => [...(state.order.get(id) || [])];

function input(name, value, placeholder) {
  const element = document.createElement("input");
  element.name = name;
  element.value = value ?? "";
  if (placeholder) element.placeholder = placeholder;
  element.autocomplete = "off";
  return element;
}

function render() {
  const columns = document.getElementById("settings-columns");
  const labels = document.getElementById("settings-labels");
  columns.replaceChildren();
  labels.replaceChildren();
  const board = state.board;
  if (!board) return;
  drawn = shape();
  board.columns.forEach((column, index) => columns.appendChild(columnRow(column, index, board.columns)));
  columns.appendChild(addColumnRow());
  board.labels.forEach((label, index) => labels.appendChild(labelRow(label, index, board.labels)));
  labels.appendChild(addLabelRow());
}

function columnRow(column, index, all) {
  const row = document.createElement("li");
  row.className = "setting";
  row.dataset.settingColumn = column.id;
  const id = document.createElement("code");
  id.textContent = column.id;
  const name = input("column-name", column.name, "name");
  name.addEventListener("change", () => {
    if (name.value.trim() && name.value !== column.name) {
      change(api.updateColumn(column.id, { name: name.value.trim() }), "could not rename the column", `rename of column “${column.name}”`,
        () => [() => api.updateColumn(column.id, { name: column.name })]);
    }
  });
  const collapsed = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = column.collapsed;
  box.addEventListener("change", () => change(api.updateColumn(column.id, { collapsed: box.checked }), "could not change the column",
    `${box.checked ? "collapse" : "expansion"} of column “${column.name}”`, () => [() => api.updateColumn(column.id, { collapsed: column.collapsed })]));
  collapsed.append(box, " collapsed");
  // The WIP limit: empty for none; the server checks the number.
  const limit = input("column-limit", column.limit == null ? "" : String(column.limit), "WIP limit");
  limit.type = "number";
  limit.min = "1";
  limit.title = "The most cards the column should hold (empty: no limit)";
  limit.addEventListener("change", () => {
    const value = limit.value.trim() === "" ? null : Number(limit.value);
    if (value === column.limit || (value === null && column.limit == null)) return;
    change(api.updateColumn(column.id, { limit: value }), "could not set the WIP limit", `WIP limit of column “${column.name}”`,
      () => [() => api.updateColumn(column.id, { limit: column.limit ?? null })]);
  });
  const queue = document.createElement("label");
  const queueBox = document.createElement("input");
  queueBox.type = "checkbox";
  queueBox.checked = Boolean(column.queue);
  queueBox.addEventListener("change", () => change(api.updateColumn(column.id, { queue: queueBox.checked }), "could not change the column",
    `marking of column “${column.name}”`, () => [() => api.updateColumn(column.id, { queue: Boolean(column.queue) })]));
  queue.title = "Cards wait here rather than being worked on (for the report's flow efficiency)";
  queue.append(queueBox, " queue");
  const up = button("↑", "column-up", "small");
  up.title = "Move left";
  up.disabled = index === 0;
  up.addEventListener("click", () => change(api.moveColumn(column.id, index - 1), "could not move the column", `move of column “${column.name}”`,
    () => [() => api.moveColumn(column.id, index)]));
  const down = button("↓", "column-down", "small");
  down.title = "Move right";
  down.disabled = index === all.length - 1;
  down.addEventListener("click", () => change(api.moveColumn(column.id, index + 1), "could not move the column", `move of column “${column.name}”`,
    () => [() => api.moveColumn(column.id, index)]));
  const remove = button("Remove…", "column-remove", "small danger");
  remove.addEventListener("click", () => {
    const count = (state.order.get(column.id) || []).length;
    const confirmRow = document.createElement("div");
    confirmRow.className = "confirm-remove";
    const text = document.createElement("span");
    let select = null;
    if (count > 0) {
      text.textContent = `Its ${count} card${count === 1 ? "" : "s"} go to `;
      select = document.createElement("select");
      select.name = "move-cards-to";
      for (const other of all) {
        if (other.id === column.id) continue;
        const option = document.createElement("option");
        option.value = other.id;
        option.textContent = other.name;
        select.appendChild(option);
      }
      confirmRow.append(text, select);
    } else {
      text.textContent = "The column is empty. ";
      confirmRow.append(text);
    }
    const yes = button("Remove column", "confirm-remove-column", "small danger");
    yes.addEventListener("click", () => {
      const cards = cardsOf(column.id);
      change(api.removeColumn(column.id, select?.value), "could not remove the column", `removal of column “${column.name}”`, () => [
        () => api.addColumn({ id: column.id, name: column.name, index }),
        ...(column.collapsed ? [() => api.updateColumn(column.id, { collapsed: true })] : []),
        // Its cards come back in their order (each at the bottom after the one before).
        ...cards.map((slug) => async () => { await api.moveCard(slug, { column: column.id, placement: "bottom" }); return null; }),
      ]);
    });
    const no = button("Cancel", null, "small");
    no.addEventListener("click", () => confirmRow.remove());
    confirmRow.append(yes, no);
    row.querySelector(".confirm-remove")?.remove();
    row.appendChild(confirmRow);
  });
  row.append(id, name, collapsed, limit, queue, up, down, remove);
  return row;
}

function addColumnRow() {
  const row = document.createElement("li");
  row.className = "setting add";
  const name = input("new-column-name", "", "new column name");
  const id = input("new-column-id", "", "id (from the name)");
  const add = button("Add column", "add-column", "small");
  add.addEventListener("click", async () => {
    const columnName = name.value.trim();
    const columnId = id.value.trim() || slugify(columnName);
    if (!columnName) {
      toast("a column needs a name", "error");
      return;
    }
    if (!columnId) {
      toast(`no id can be made from “${columnName}” (it has no letters or digits): give one in the id box`, "error");
      id.focus();
      return;
    }
    await change(api.addColumn({ id: columnId, name: columnName }), "could not add the column", `new column “${columnName}”`,
      () => [() => api.removeColumn(columnId, cardsOf(columnId).length ? state.board.columns.find((c) => c.id !== columnId)?.id : undefined)]);
  });
  row.append(name, id, add);
  return row;
}

function labelRow(label, index, all) {
  const row = document.createElement("li");
  row.className = "setting";
  row.dataset.settingLabel = label.id;
  const colour = document.createElement("input");
  colour.type = "color";
  colour.name = "label-color";
  colour.value = VALID_COLOUR.test(label.color ?? "") ? label.color.toLowerCase() : "#888888";
  colour.addEventListener("change", () => change(api.updateLabel(label.id, { color: colour.value }), "could not recolour the label",
    `colour of label “${label.name}”`, () => [() => api.updateLabel(label.id, { color: label.color })]));
  const id = document.createElement("code");
  id.textContent = label.id;
  const name = input("label-name", label.name, "name");
  name.addEventListener("change", () => {
    if (name.value !== label.name) {
      change(api.updateLabel(label.id, { name: name.value.trim() }), "could not rename the label", `rename of label “${label.name}”`,
        () => [() => api.updateLabel(label.id, { name: label.name })]);
    }
  });
  const up = button("↑", "label-up", "small");
  up.disabled = index === 0;
  up.addEventListener("click", () => change(api.moveLabel(label.id, index - 1), "could not move the label", `move of label “${label.name}”`,
    () => [() => api.moveLabel(label.id, index)]));
  const down = button("↓", "label-down", "small");
  down.disabled = index === all.length - 1;
  down.addEventListener("click", () => change(api.moveLabel(label.id, index + 1), "could not move the label", `move of label “${label.name}”`,
    () => [() => api.moveLabel(label.id, index)]));
  const remove = button("Remove…", "label-remove", "small danger");
  remove.addEventListener("click", () => {
    const confirmRow = document.createElement("div");
    confirmRow.className = "confirm-remove";
    const strip = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = true;
    strip.append(box, " also take it off the cards that have it");
    const yes = button("Remove label", "confirm-remove-label", "small danger");
    yes.addEventListener("click", () => {
      // The cards on the board that carry it get it back with Undo (archived ones keep it: they are not stripped).
      const carriers = box.checked ? [...state.cards.values()].filter((card) => card.labels?.includes(label.id)).map((card) => card.slug) : [];
      change(api.removeLabel(label.id, box.checked), "could not remove the label", `removal of label “${label.name}”`, () => [
        () => api.addLabel({ id: label.id, name: label.name, color: label.color }),
        ...carriers.map((slug) => async () => { await api.updateCard(slug, { addLabels: [label.id] }); return null; }),
        // Its place last, and within the list as it is now (another window may have removed labels meanwhile).
        () => api.moveLabel(label.id, Math.min(index, state.board?.labels.length ?? 0)).catch(() => null),
      ]);
    });
    const no = button("Cancel", null, "small");
    no.addEventListener("click", () => confirmRow.remove());
    confirmRow.append(strip, yes, no);
    row.querySelector(".confirm-remove")?.remove();
    row.appendChild(confirmRow);
  });
  row.append(colour, id, name, up, down, remove);
  return row;
}

function addLabelRow() {
  const row = document.createElement("li");
  row.className = "setting add";
  const colour = document.createElement("input");
  colour.type = "color";
  colour.name = "new-label-color";
  colour.value = "#7f8c8d";
  const name = input("new-label-name", "", "new label name");
  const id = input("new-label-id", "", "id (from the name)");
  const add = button("Add label", "add-label", "small");
  add.addEventListener("click", async () => {
    const labelName = name.value.trim();
    const labelId = id.value.trim() || slugify(labelName);
    if (!labelId) {
      toast(labelName ? `no id can be made from “${labelName}” (it has no letters or digits): give one in the id box` : "a label needs a name", "error");
      return;
    }
    await change(api.addLabel({ id: labelId, name: labelName || labelId, color: colour.value }), "could not add the label",
      `new label “${labelName || labelId}”`, () => [() => api.removeLabel(labelId, true)]);
  });
  row.append(colour, name, id, add);
  return row;
}

function slugify(text) {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
