// The card panel: a card's title, labels, body (as text, with a rendered preview),
// fields, dates and path, and the buttons that change it. What the person types is
// never replaced behind their back: when the card changes elsewhere the panel says so,
// and a save refused with 409 shows the card as it now is beside the unsaved text.

import { api } from "./api.js";
import { state, select } from "./state.js";
import { renderMarkdown } from "./markdown.js";
import { labelChip, labelColour, textColourOn, reveal } from "./board.js";
import * as actions from "./actions.js";
import { confirmDialog, showError, toast, button, keepSelectionClearOfToasts } from "./ui.js";

const panel = {
  open: false,
  mode: null, // "edit" or "new"
  slug: null,
  version: null,
  base: null, // {title, labels, body, fields} the inputs started from
  card: null, // the card as last read (meta)
  labels: [], // labels chosen in the inputs
  fields: [], // [{key, value, kind: "string"|"other", removed, added}]
  target: null, // for a new card: {column, after?}
  conflict: null, // the server's card after a 409
  busy: false,
  saving: null, // the save in flight, if any
};

const $ = (selector) => document.querySelector("#panel " + selector);
let previewTimer = null;

export function isOpen() {
  return panel.open;
}

export function openSlug() {
  return panel.open && panel.mode === "edit" ? panel.slug : null;
}

export function initPanel() {
  const element = document.getElementById("panel");
  element.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action], [data-label]");
    if (!target || target.disabled) return;
    if (target.dataset.label !== undefined && !target.dataset.action) return toggleLabel(target.dataset.label);
    switch (target.dataset.action) {
      case "save": return save();
      case "close": return close();
      case "archive": return archive();
      case "unarchive": return unarchive();
      case "delete": return remove();
      case "use-theirs": return useTheirs();
      case "keep-mine": return keepMine();
      case "show-theirs": return showTheirs();
      case "recreate": return recreate();
      case "remove-field": return removeField(target.dataset.field);
      case "add-field": return addField();
    }
  });
  const body = $("textarea[name=body]");
  body.addEventListener("input", () => {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(renderPreview, 120);
  });
  element.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      save();
    } else if (event.key === "Enter" && event.target.name === "title") {
      event.preventDefault();
      save();
    }
  });
  actions.onCardChanged(ownChange);
}

/// Opens the panel on a card; `focus` is "title", "labels" or nothing.
export async function openCard(slug, focus) {
  if (panel.open && panel.mode === "edit" && panel.slug === slug) {
    // Already open: what is typed stays; only the focus moves.
    show(focus);
    return;
  }
  if (panel.open && isDirty()) {
    if (!(await confirmDialog("Discard your unsaved changes to this card?", "Discard"))) return;
  }
  let card;
  try {
    card = await api.card(slug);
  } catch (error) {
    showError(error, "could not open the card");
    return;
  }
  panel.mode = "edit";
  panel.slug = slug;
  panel.target = null;
  load(card);
  show(focus);
}

/// Opens the panel on a new card for a column; `after` puts it below that card.
export async function openNew(columnId, after) {
  if (state.board?.readOnly) return;
  if (panel.open && isDirty()) {
    if (!(await confirmDialog("Discard your unsaved changes to this card?", "Discard"))) return;
  }
  panel.mode = "new";
  panel.slug = null;
  panel.target = { column: columnId, after: after ?? null };
  load({
    title: "", labels: [], body: state.board?.template ?? "", fields: {}, column: columnId,
    archived: false, path: null, created: null, modified: null, version: null,
  });
  show("title");
}

function show(focus) {
  const element = document.getElementById("panel");
  element.hidden = false;
  panel.open = true;
  document.body.classList.add("panel-open");
  if (focus === "labels") {
    ($("[data-label]") || $("input[name=title]")).focus();
  } else if (focus === "title" || panel.mode === "new") {
    const title = $("input[name=title]");
    title.focus();
    title.select();
  } else {
    $("[data-action=close]").focus();
  }
}

/// Closes the panel; asks first when there is unsaved text, unless `force`.
export async function close(force) {
  if (!panel.open) return;
  if (!force) {
    // A save in flight decides what is still unsaved.
    if (panel.saving) await panel.saving;
    if (!panel.open) return;
  }
  if (!force && isDirty()) {
    if (!(await confirmDialog("Close the card and discard your unsaved changes?", "Discard"))) return;
  }
  panel.open = false;
  panel.slug = null;
  panel.conflict = null;
  document.getElementById("panel").hidden = true;
  document.body.classList.remove("panel-open");
}

function valuesOf(card) {
  return {
    title: card.title ?? "",
    labels: [...(card.labels || [])],
    body: card.body ?? "",
    fields: { ...(card.fields || {}) },
  };
}

/// Fills every input from a card (only when nothing typed would be lost).
function load(card) {
  panel.card = card;
  panel.version = card.version ?? null;
  panel.base = valuesOf(card);
  panel.labels = [...panel.base.labels];
  panel.fields = Object.entries(panel.base.fields).map(([key, value]) => ({
    key, value: actions.toFieldString(value), kind: typeof value === "string" ? "string" : "other", removed: false, added: false,
  }));
  panel.conflict = null;
  $("input[name=title]").value = panel.base.title;
  $("textarea[name=body]").value = panel.base.body;
  renderLabels();
  renderFields();
  renderPreview();
  renderMeta();
  setNotice(null);
  renderConflict();
  renderButtons();
}

function renderButtons() {
  const readOnly = !!state.board?.readOnly;
  const isNew = panel.mode === "new";
  const archived = !!panel.card?.archived;
  $("[data-action=save]").hidden = readOnly;
  $("[data-action=save]").textContent = isNew ? "Add card" : "Save";
  $("[data-action=archive]").hidden = readOnly || isNew || archived;
  $("[data-action=unarchive]").hidden = readOnly || isNew || !archived;
  $("[data-action=delete]").hidden = readOnly || isNew;
  $("input[name=title]").readOnly = readOnly;
  $("textarea[name=body]").readOnly = readOnly;
  $(".add-field").hidden = readOnly;
  $("#panel-heading").textContent = isNew ? "New card in " + (columnName(panel.target.column)) : archived ? "Archived card" : "Card";
}

function columnName(id) {
  return state.board?.columns.find((c) => c.id === id)?.name ?? id;
}

function renderLabels() {
  const box = $(".label-toggles");
  box.replaceChildren();
  const known = new Set();
  for (const label of state.board?.labels || []) {
    known.add(label.id);
    box.appendChild(labelToggle(label.id, label.name || label.id));
  }
  for (const id of panel.labels) if (!known.has(id)) box.appendChild(labelToggle(id, id));
}

function labelToggle(id, name) {
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "label-toggle";
  toggle.dataset.label = id;
  const on = panel.labels.includes(id);
  toggle.setAttribute("aria-pressed", String(on));
  toggle.textContent = name;
  toggle.disabled = !!state.board?.readOnly;
  const colour = labelColour(id);
  if (colour) {
    toggle.style.borderColor = colour;
    if (on) {
      toggle.style.backgroundColor = colour;
      toggle.style.color = textColourOn(colour);
    }
  }
  return toggle;
}

function toggleLabel(id) {
  if (state.board?.readOnly) return;
  const index = panel.labels.indexOf(id);
  if (index >= 0) panel.labels.splice(index, 1);
  else panel.labels.push(id);
  renderLabels();
  $(`[data-label="${CSS.escape(id)}"]`)?.focus();
}

function renderFields() {
  const list = $(".fields");
  list.replaceChildren();
  const readOnly = !!state.board?.readOnly;
  for (const field of panel.fields) {
    const row = document.createElement("div");
    row.className = "field" + (field.removed ? " removed" : "");
    const name = document.createElement("label");
    name.textContent = field.key;
    const input = document.createElement("input");
    input.name = "field:" + field.key;
    input.dataset.field = field.key;
    input.value = field.value;
    input.readOnly = readOnly || field.kind !== "string" || field.removed;
    if (field.kind !== "string") input.title = "not plain text: edit the file to change it";
    input.addEventListener("input", () => { field.value = input.value; });
    const id = "field-" + Math.random().toString(36).slice(2);
    input.id = id;
    name.htmlFor = id;
    row.append(name, input);
    if (!readOnly) {
      const removeButton = button(field.removed ? "keep" : "remove", "remove-field", "small");
      removeButton.dataset.field = field.key;
      row.appendChild(removeButton);
    }
    list.appendChild(row);
  }
}

function removeField(key) {
  const field = panel.fields.find((f) => f.key === key);
  if (!field) return;
  if (field.added) panel.fields.splice(panel.fields.indexOf(field), 1);
  else field.removed = !field.removed;
  renderFields();
}

function addField() {
  const keyInput = $("input[name=new-field-key]");
  const valueInput = $("input[name=new-field-value]");
  const key = keyInput.value.trim();
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(key)) {
    toast("a field name is letters, digits, _ . and -", "error");
    return;
  }
  if (["title", "column", "position", "created", "modified", "labels"].includes(key)) {
    toast(`“${key}” is set by the panel itself`, "error");
    return;
  }
  const existing = panel.fields.find((f) => f.key === key);
  if (existing) {
    existing.value = valueInput.value;
    existing.removed = false;
  } else {
    panel.fields.push({ key, value: valueInput.value, kind: "string", removed: false, added: true });
  }
  keyInput.value = "";
  valueInput.value = "";
  renderFields();
}

function renderPreview() {
  $(".preview").replaceChildren(renderMarkdown($("textarea[name=body]").value));
}

function renderMeta() {
  const card = panel.card || {};
  const meta = $(".meta");
  meta.replaceChildren();
  const rows = [
    ["column", card.column ? columnName(card.column) + (card.archived ? " (archived)" : "") : null],
    ["created", card.created ? formatDate(card.created) : null],
    ["modified", card.modified ? formatDate(card.modified) : null],
    ["path", card.path],
    ["slug", card.slug],
  ];
  for (const [key, value] of rows) {
    if (!value) continue;
    const term = document.createElement("dt");
    term.textContent = key;
    const detail = document.createElement("dd");
    detail.textContent = value;
    if (key === "created" || key === "modified") detail.title = card[key];
    meta.append(term, detail);
  }
}

function formatDate(iso) {
  const date = new Date(iso);
  return isNaN(date) ? iso : date.toLocaleString();
}

/// What the inputs hold now, as the API's changes against the base.
function changes() {
  const result = {};
  const title = $("input[name=title]").value;
  if (title !== panel.base.title) result.title = title;
  const body = $("textarea[name=body]").value;
  if (body !== panel.base.body) result.body = body;
  const labels = panel.labels;
  if (labels.length !== panel.base.labels.length || labels.some((l, i) => l !== panel.base.labels[i])) {
    result.labels = [...labels];
  }
  const fields = {};
  for (const field of panel.fields) {
    if (field.removed && !field.added) fields[field.key] = null;
    else if (field.added) fields[field.key] = field.value;
    else if (field.kind === "string" && field.value !== panel.base.fields[field.key]) fields[field.key] = field.value;
  }
  if (Object.keys(fields).length) result.fields = fields;
  return result;
}

function isDirty() {
  return panel.open && panel.base !== null && Object.keys(changes()).length > 0;
}

async function save() {
  if (panel.busy || state.board?.readOnly) return;
  const edits = panel.mode === "new" ? null : changes();
  if (edits && !Object.keys(edits).length) {
    toast("nothing to save");
    return;
  }
  panel.saving = edits ? send(edits, panel.version) : create();
  try {
    await panel.saving;
  } finally {
    panel.saving = null;
  }
}

async function send(edits, version) {
  panel.busy = true;
  try {
    const before = { ...panel.base };
    const card = await actions.updateCard(panel.slug, edits, version, before);
    if (panel.slug === card.slug) {
      load(card);
      toast("saved");
    }
  } catch (error) {
    if (error.status === 409 && error.body?.card) {
      panel.conflict = error.body.card;
      renderConflict();
    } else if (error.status === 404) {
      setNotice("This card was deleted elsewhere, so there is nothing to save into. Your text is still here.", false, true);
    } else {
      showError(error, "could not save");
    }
  } finally {
    panel.busy = false;
  }
}

async function create() {
  const title = $("input[name=title]").value.trim();
  if (!title) {
    toast("a card needs a title", "error");
    $("input[name=title]").focus();
    return;
  }
  const fields = { title, column: panel.target.column, labels: [...panel.labels], body: $("textarea[name=body]").value };
  if (panel.target.after) fields.after = panel.target.after;
  else fields.placement = "bottom";
  panel.busy = true;
  try {
    const card = await actions.createCard(fields);
    if (card) {
      const extra = panel.fields.filter((f) => f.added && !f.removed);
      let final = card;
      if (extra.length) {
        const changes = { fields: Object.fromEntries(extra.map((f) => [f.key, f.value])) };
        final = await actions.updateCard(card.slug, changes, card.version, { fields: {} });
      }
      await close(true);
      select(final.slug);
      reveal(final.slug);
      keepSelectionClearOfToasts();
    }
  } catch (error) {
    showError(error, "could not add the card");
  } finally {
    panel.busy = false;
  }
}

async function archive() {
  try {
    await actions.archiveCard(panel.slug, panel.version);
    if (!isDirty()) await close(true);
  } catch (error) {
    if (error.status === 409 && error.body?.card) {
      panel.conflict = error.body.card;
      renderConflict();
    }
  }
}

async function unarchive() {
  const card = await actions.unarchiveCard(panel.slug);
  if (card && !isDirty()) load(card);
}

async function remove() {
  const title = panel.card?.title || panel.slug;
  if (!(await confirmDialog(`Delete “${title}”? Its file is removed (u undoes it).`, "Delete"))) return;
  try {
    await actions.deleteCard(panel.slug, panel.version);
    await close(true);
  } catch (error) {
    if (error.status === 409 && error.body?.card) {
      panel.conflict = error.body.card;
      renderConflict();
    }
  }
}

/// A change the page made itself (the answer of an API call), or a delete.
function ownChange(card) {
  if (!panel.open || panel.mode !== "edit" || card.slug !== panel.slug) return;
  if (card.deleted || panel.busy) return;
  cardNow(card);
}

/// Called by the live stream for every event naming the open card (`previousSlug`: its name before a rename).
export async function externalChange(event, previousSlug) {
  if (!panel.open || panel.mode !== "edit" || panel.busy) return;
  if (previousSlug === panel.slug && event.slug && event.slug !== previousSlug) panel.slug = event.slug;
  const slug = panel.slug;
  if (event.event === "deleted") {
    if (event.slug === slug) setNotice("This card was deleted elsewhere. Your text is still here.", false, true);
    return;
  }
  let card;
  try {
    card = await api.card(slug);
  } catch (error) {
    if (error.status === 404) setNotice("This card is no longer on the board. Your text is still here.", false, true);
    return;
  }
  if (panel.slug === slug && panel.open) cardNow(card);
}

function sameContent(a, b) {
  return a.title === b.title && a.body === b.body && JSON.stringify(a.labels) === JSON.stringify(b.labels) &&
    JSON.stringify(a.fields) === JSON.stringify(b.fields);
}

/// The open card as it is now on disk: take it in where no typed text is at stake.
function cardNow(card) {
  if (card.version && card.version === panel.version) return;
  const now = valuesOf(card);
  if (sameContent(now, panel.base)) {
    // Only where it lies changed (a move, an archive): nothing the person sees in the inputs.
    panel.card = card;
    panel.version = card.version ?? panel.version;
    renderMeta();
    renderButtons();
    return;
  }
  if (!isDirty() && !panel.conflict) {
    load(card);
    setNotice("This card was changed elsewhere; the panel shows it as it is now.", false);
    return;
  }
  setNotice("This card was changed elsewhere while you were editing. Your text is kept; saving will show both versions.", true);
}

function setNotice(text, offerTheirs, offerRecreate = false) {
  const notice = $(".notice");
  notice.replaceChildren();
  notice.hidden = !text;
  if (!text) return;
  const message = document.createElement("span");
  message.textContent = text;
  notice.appendChild(message);
  if (offerTheirs) notice.appendChild(button("Compare", "show-theirs", "small"));
  if (offerRecreate && !state.board?.readOnly) notice.appendChild(button("Add it again with this text", "recreate", "small"));
}

/// A card deleted elsewhere while its text was being edited, made again from what the panel holds (title,
/// labels, body and fields), at the bottom of the column it was in: typed text is never lost.
async function recreate() {
  if (panel.busy) return;
  const column = state.board.columns.some((c) => c.id === panel.card?.column) ? panel.card.column : state.board.columns[0]?.id;
  const fields = Object.fromEntries(panel.fields.filter((f) => !f.removed && f.kind === "string").map((f) => [f.key, f.value]));
  panel.busy = true;
  try {
    const card = await actions.createCard({
      title: $("input[name=title]").value.trim() || panel.base?.title || "Untitled",
      column, labels: [...panel.labels], body: $("textarea[name=body]").value, placement: "bottom",
    });
    if (!card) return;
    const final = Object.keys(fields).length ? await actions.updateCard(card.slug, { fields }, card.version, { fields: {} }) : card;
    panel.slug = final.slug;
    load(final);
    setNotice("");
    select(final.slug);
    toast(`added “${final.title}” again`);
  } catch (error) {
    showError(error, "could not add the card again");
  } finally {
    panel.busy = false;
  }
}

async function showTheirs() {
  try {
    panel.conflict = await api.card(panel.slug);
    renderConflict();
  } catch (error) {
    showError(error, "could not read the card");
  }
}

function renderConflict() {
  const box = $(".conflict");
  box.replaceChildren();
  const theirs = panel.conflict;
  if (!theirs) {
    box.hidden = true;
    box.removeAttribute("data-conflict");
    return;
  }
  box.hidden = false;
  box.setAttribute("data-conflict", "");
  setNotice(null);
  const heading = document.createElement("h3");
  heading.textContent = "Changed elsewhere: the card as it is now";
  const explain = document.createElement("p");
  explain.textContent = "Your unsaved text is still in the fields below. Use theirs, or keep yours and save it over theirs.";
  const title = document.createElement("div");
  title.className = "theirs-title";
  title.textContent = theirs.title;
  const labels = document.createElement("div");
  labels.className = "labels";
  for (const id of theirs.labels || []) labels.appendChild(labelChip(id));
  const body = document.createElement("pre");
  body.className = "theirs-body";
  body.textContent = theirs.body ?? "";
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  buttons.append(button("Use theirs", "use-theirs"), button("Keep mine (save again)", "keep-mine", "primary"));
  box.append(heading, explain, title, labels, body, buttons);
  if (theirs.archived) {
    const note = document.createElement("p");
    note.textContent = "It is archived now.";
    box.insertBefore(note, buttons);
  }
}

function useTheirs() {
  const theirs = panel.conflict;
  if (!theirs) return;
  load(theirs);
}

async function keepMine() {
  const theirs = panel.conflict;
  if (!theirs) return;
  const edits = changes();
  panel.conflict = null;
  renderConflict();
  setNotice(null);
  if (!Object.keys(edits).length) {
    load(theirs);
    return;
  }
  panel.card = theirs;
  panel.saving = send(edits, theirs.version);
  try {
    await panel.saving;
  } finally {
    panel.saving = null;
  }
}

/// Redraws the label toggles and meta after the board's labels or columns changed.
export function boardChanged() {
  if (!panel.open) return;
  renderLabels();
  renderMeta();
}
