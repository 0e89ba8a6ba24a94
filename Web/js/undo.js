// Undo of the changes made on this page: a stack of inverse API calls. An entry is pushed
// the moment a change is asked for, so that `u` pressed before the server has answered
// undoes that change (once it is done) and not the one before; a change that fails
// leaves no entry. Undos run one after another, each saying what it undid or why not.

import { toast, showError } from "./ui.js";

const stack = [];
const LIMIT = 100;
let queue = Promise.resolve();

/// Remembers how to undo a change: `change` is the promise of the change itself, and `run`
/// makes the inverse calls with what it resolved to. A change that rejects or resolves to
/// null drops its entry.
export function pushUndo(description, run, change = Promise.resolve()) {
  const entry = { description, run, change };
  stack.push(entry);
  if (stack.length > LIMIT) stack.shift();
  refresh();
  change.then((result) => { if (result === null) drop(entry); }, () => drop(entry));
  return entry;
}

function drop(entry) {
  const index = stack.indexOf(entry);
  if (index >= 0) {
    stack.splice(index, 1);
    refresh();
  }
}

/// Undoes the last change made on this page (after any undo still running).
export function undo() {
  queue = queue.then(undoLast);
  return queue;
}

async function undoLast() {
  const entry = stack.pop();
  refresh();
  if (!entry) {
    toast("nothing to undo");
    return;
  }
  let result;
  try {
    result = await entry.change;
  } catch {
    result = null;
  }
  if (result === null) {
    // It failed, and said so when it did.
    toast(`nothing to undo: the ${entry.description} did not happen`);
    return;
  }
  try {
    await entry.run(result);
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
