// What the page says to the person: a status line of toasts, and the confirmation
// dialog (in the page, not window.confirm).

const TOAST_TIME = 6000;

/// Shows a message in the status line; kind is "info" or "error".
export function toast(message, kind = "info") {
  const area = document.getElementById("toasts");
  const item = document.createElement("div");
  item.className = "toast " + kind;
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "dismiss";
  close.textContent = "×";
  close.title = "Dismiss";
  close.addEventListener("click", () => item.remove());
  item.appendChild(close);
  area.appendChild(item);
  while (area.children.length > 4) area.firstElementChild.remove();
  raise(area);
  setTimeout(() => item.remove(), kind === "error" ? TOAST_TIME * 2 : TOAST_TIME);
  requestAnimationFrame(keepSelectionClearOfToasts);
  return item;
}

/// Keeps the toasts where they can be seen and dismissed: inside an open modal dialog (the settings, a
/// confirmation), whose top layer would otherwise cover them and make them inert, else in the page.
function raise(area) {
  const host = [...document.querySelectorAll("dialog[open]")].find((d) => d.matches(":modal")) ?? document.body;
  if (area.parentElement === host) return;
  host.appendChild(area);
  // When the dialog closes, the toasts still showing go back to the page with it.
  if (host !== document.body) host.addEventListener("close", () => document.body.appendChild(area), { once: true });
}

/// Scrolls the selected card's column so that the toasts do not cover the card (a card just added sits at the
/// bottom of its column, where the toasts are). Columns keep room below their last card for this.
export function keepSelectionClearOfToasts() {
  const card = document.querySelector("#board .card.selected");
  const area = document.getElementById("toasts");
  if (!card || !area || !area.children.length) return;
  const covered = area.getBoundingClientRect();
  const rect = card.getBoundingClientRect();
  const overlaps = rect.bottom > covered.top && rect.top < covered.bottom && rect.right > covered.left && rect.left < covered.right;
  if (overlaps) card.closest(".cards")?.scrollBy({ top: rect.bottom - covered.top + 12 });
}

/// Shows an API error (or any error) to the person.
export function showError(error, doing) {
  const message = error && error.message ? error.message : String(error);
  toast(doing ? `${doing}: ${message}` : message, "error");
}

/// Asks in a dialog; resolves true when the person confirms.
export function confirmDialog(message, confirmLabel = "Delete") {
  const dialog = document.getElementById("confirm-dialog");
  document.getElementById("confirm-message").textContent = message;
  const confirm = dialog.querySelector('[data-action="confirm"]');
  const cancel = dialog.querySelector('[data-action="cancel"]');
  confirm.textContent = confirmLabel;
  return new Promise((resolve) => {
    const finish = (answer) => {
      confirm.removeEventListener("click", yes);
      cancel.removeEventListener("click", no);
      dialog.removeEventListener("close", no);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const yes = () => finish(true);
    const no = () => finish(false);
    confirm.addEventListener("click", yes);
    cancel.addEventListener("click", no);
    dialog.addEventListener("close", no);
    dialog.showModal();
    confirm.focus();
  });
}

/// True while a modal dialog of the page is open.
export function dialogOpen() {
  return !!document.querySelector("dialog[open]");
}

export function button(text, action, className) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  if (action) element.dataset.action = action;
  if (className) element.className = className;
  return element;
}
