// Filter as you type: the query goes to GET /api/search (the `kanban search` language)
// a moment after the last key, and cards that do not match are hidden.

import { api } from "./api.js";
import { state, changed } from "./state.js";

const DELAY = 150;
let timer = null;
let generation = 0;

const input = () => document.querySelector("input[name=filter]");

export function initFilter() {
  const field = input();
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, DELAY);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      field.value = "";
      run();
      field.blur();
    } else if (event.key === "Enter") {
      event.preventDefault();
      clearTimeout(timer);
      run();
      field.blur();
    }
  });
}

export function focusFilter() {
  const field = input();
  field.focus();
  field.select();
}

/// Runs the current query again (after the board changed), a little later.
export function refreshFilter() {
  if (!state.filter) return;
  clearTimeout(timer);
  timer = setTimeout(run, DELAY);
}

async function run() {
  const query = input().value.trim();
  const mine = ++generation;
  const message = document.getElementById("filter-message");
  if (!query) {
    message.textContent = "";
    input().classList.remove("invalid");
    if (state.filter) {
      state.filter = null;
      changed("all");
    }
    return;
  }
  try {
    const result = await api.search(query);
    if (mine !== generation) return;
    state.filter = new Set(result.slugs || []);
    message.textContent = `${state.filter.size} matching`;
    input().classList.remove("invalid");
    changed("all");
  } catch (error) {
    if (mine !== generation) return;
    input().classList.add("invalid");
    message.textContent = error.message;
  }
}
