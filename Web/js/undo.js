// Undo of the changes made on this page: a stack of inverse API calls. Each entry says
// what it undoes; running it may fail (the card changed since), and then says so.

import { toast, showError } from "./ui.js";

const stack = [];
const LIMIT = 100;

/// Remembers how to undo a change: `run` makes the inverse calls.
export function pushUndo(description, run) {
  stack.push({ description, run });
  if (stack.length > LIMIT) stack.shift();
  refresh();
}

export async function undo() {
  const entry = stack.pop();
  refresh();
  if (!entry) {
    toast("nothing to undo");
    return;
  }
  try {
    await entry.run();
    toast("undone: " + entry.description);
  } catch (error) {
    showError(error, "could not undo " + entry.description);
  }
}

function refresh() {
  const button = document.querySelector('[data-action="undo"]');
  if (!button) return;
  button.disabled = stack.length === 0;
  button.title = stack.length ? "Undo " + stack[stack.length - 1].description + " (u)" : "Nothing to undo (u)";
}

export function initUndo() {
  refresh();
}
