// The archive view: archived cards (GET /api/archive), each opened in the card panel
// or put back on the board.

import { api } from "./api.js";
import { state } from "./state.js";
import { labelChip } from "./board.js";
import { openCard } from "./panel.js";
import { unarchiveCard } from "./actions.js";
import { showError, button } from "./ui.js";

let showing = false;

export function initArchive() {
  document.querySelector('[data-action="archive-view"]').addEventListener("click", toggleArchive);
  document.getElementById("archive-view").addEventListener("click", async (event) => {
    const action = event.target.closest("[data-action]");
    const row = event.target.closest("[data-archived]");
    if (!row) return;
    const slug = row.dataset.archived;
    if (action?.dataset.action === "unarchive") {
      event.stopPropagation();
      if (await unarchiveCard(slug, row.querySelector("select")?.value)) row.remove();
      updateCount();
    } else if (!action && !event.target.closest("select")) {
      openCard(slug);
    }
  });
}

async function toggleArchive() {
  showing = !showing;
  document.getElementById("archive-view").hidden = !showing;
  document.getElementById("board").hidden = showing;
  const toggle = document.querySelector('[data-action="archive-view"]');
  toggle.setAttribute("aria-pressed", String(showing));
  toggle.textContent = showing ? "Board" : "Archive";
  if (showing) await refreshArchive();
}

/// Reads the archive again when it is showing (after an archive event).
export async function refreshArchive() {
  if (!showing) return;
  let result;
  try {
    result = await api.archive();
  } catch (error) {
    showError(error, "could not read the archive");
    return;
  }
  const list = document.getElementById("archive-list");
  list.replaceChildren();
  const cards = (result.cards || []).slice().sort((a, b) => String(b.path).localeCompare(String(a.path)));
  for (const card of cards) list.appendChild(row(card));
  updateCount();
}

function updateCount() {
  const count = document.getElementById("archive-list").children.length;
  document.getElementById("archive-count").textContent = `${count} archived card${count === 1 ? "" : "s"}`;
}

function row(card) {
  const item = document.createElement("li");
  item.className = "archived-card";
  item.dataset.archived = card.slug;
  const title = document.createElement("div");
  title.className = "title";
  title.textContent = card.title || card.slug;
  const labels = document.createElement("div");
  labels.className = "labels";
  for (const id of card.labels || []) labels.appendChild(labelChip(id));
  const meta = document.createElement("div");
  meta.className = "excerpt";
  meta.textContent = `${card.path}${card.excerpt ? " · " + card.excerpt : ""}`;
  item.append(title, labels, meta);
  if (!state.board?.readOnly) {
    const controls = document.createElement("div");
    controls.className = "controls";
    const select = document.createElement("select");
    select.name = "unarchive-column";
    select.title = "Column to put it back in";
    for (const column of state.board?.columns || []) {
      const option = document.createElement("option");
      option.value = column.id;
      option.textContent = column.name;
      if (column.id === card.column) option.selected = true;
      select.appendChild(option);
    }
    controls.append(select, button("Unarchive", "unarchive", "small"));
    item.appendChild(controls);
  }
  return item;
}
