// The settings dialog: the board's columns and labels, added, renamed, recoloured,
// reordered and removed. Every call answers with the board, which replaces the page's.

import { api } from "./api.js";
import { state, setBoard } from "./state.js";
import { refreshAllCards } from "./board.js";
import { boardChanged } from "./panel.js";
import { showError, button } from "./ui.js";

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

async function call(promise, doing) {
  try {
    const board = await promise;
    if (board && board.columns) {
      setBoard(board);
      refreshAllCards();
      boardChanged();
    }
    if (shape() !== drawn) render();
    return true;
  } catch (error) {
    showError(error, doing);
    return false;
  }
}

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
    if (name.value.trim() && name.value !== column.name) call(api.updateColumn(column.id, { name: name.value.trim() }), "could not rename the column");
  });
  const collapsed = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = column.collapsed;
  box.addEventListener("change", () => call(api.updateColumn(column.id, { collapsed: box.checked }), "could not change the column"));
  collapsed.append(box, " collapsed");
  const up = button("↑", "column-up", "small");
  up.title = "Move left";
  up.disabled = index === 0;
  up.addEventListener("click", () => call(api.moveColumn(column.id, index - 1), "could not move the column"));
  const down = button("↓", "column-down", "small");
  down.title = "Move right";
  down.disabled = index === all.length - 1;
  down.addEventListener("click", () => call(api.moveColumn(column.id, index + 1), "could not move the column"));
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
    yes.addEventListener("click", () => call(api.removeColumn(column.id, select?.value), "could not remove the column"));
    const no = button("Cancel", null, "small");
    no.addEventListener("click", () => confirmRow.remove());
    confirmRow.append(yes, no);
    row.querySelector(".confirm-remove")?.remove();
    row.appendChild(confirmRow);
  });
  row.append(id, name, collapsed, up, down, remove);
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
    if (!columnName || !columnId) return;
    await call(api.addColumn({ id: columnId, name: columnName }), "could not add the column");
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
  colour.addEventListener("change", () => call(api.updateLabel(label.id, { color: colour.value }), "could not recolour the label"));
  const id = document.createElement("code");
  id.textContent = label.id;
  const name = input("label-name", label.name, "name");
  name.addEventListener("change", () => {
    if (name.value !== label.name) call(api.updateLabel(label.id, { name: name.value.trim() }), "could not rename the label");
  });
  const up = button("↑", "label-up", "small");
  up.disabled = index === 0;
  up.addEventListener("click", () => call(api.moveLabel(label.id, index - 1), "could not move the label"));
  const down = button("↓", "label-down", "small");
  down.disabled = index === all.length - 1;
  down.addEventListener("click", () => call(api.moveLabel(label.id, index + 1), "could not move the label"));
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
    yes.addEventListener("click", () => call(api.removeLabel(label.id, box.checked), "could not remove the label"));
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
    if (!labelId) return;
    await call(api.addLabel({ id: labelId, name: labelName || labelId, color: colour.value }), "could not add the label");
  });
  row.append(colour, name, id, add);
  return row;
}

function slugify(text) {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
