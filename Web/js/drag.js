// Moving cards by dragging, with pointer events (mouse, touch, pen, and WebDriver's
// actions). The card itself travels between the lists as the drop marker while a copy
// follows the pointer; on release the card is sent before or after its new neighbour,
// so it lands exactly where it was let go.

import { state, visibleSlugs, changed } from "./state.js";
import { moveCard } from "./actions.js";

const THRESHOLD = 5; // pixels a mouse or pen moves before a press becomes a drag
const TOUCH_HOLD = 300; // ms a finger rests on a card before it can be dragged
const EDGE = 48; // pixels from an edge where the lists scroll by themselves

let press = null; // {slug, element, pointerId, x, y, type, timer, ready}
let drag = null; // {slug, element, ghost, offsetX, offsetY, origin, column, x, y, scroller}
let suppressClick = false;

export function initDrag() {
  const board = document.getElementById("board");
  board.addEventListener("pointerdown", pointerDown);
  window.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp);
  window.addEventListener("pointercancel", cancel);
  window.addEventListener("keydown", (event) => {
    if (drag && event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  }, true);
  // A finger resting on a card is about to drag it, not asking for the context menu.
  board.addEventListener("contextmenu", (event) => {
    if (drag || press?.type === "touch") event.preventDefault();
  });
  // While a finger drags, the page must not scroll under it.
  window.addEventListener("touchmove", (event) => { if (drag) event.preventDefault(); }, { passive: false });
  window.addEventListener("click", (event) => {
    if (suppressClick) {
      event.preventDefault();
      event.stopPropagation();
      suppressClick = false;
    }
  }, true);
}

export function isDragging() {
  return drag !== null;
}

function pointerDown(event) {
  if (state.board?.readOnly || drag) return;
  if (event.pointerType === "mouse" && event.button !== 0) return;
  if (event.shiftKey || event.ctrlKey || event.metaKey) return;
  const element = event.target.closest(".card");
  if (!element || !element.dataset.slug) return;
  press = {
    slug: element.dataset.slug, element, pointerId: event.pointerId, x: event.clientX, y: event.clientY,
    type: event.pointerType, ready: event.pointerType !== "touch", timer: null,
  };
  if (!press.ready) {
    press.timer = setTimeout(() => {
      if (press) {
        press.ready = true;
        start(press.x, press.y);
      }
    }, TOUCH_HOLD);
  }
}

function pointerMove(event) {
  if (drag) {
    if (event.pointerId !== drag.pointerId) return;
    event.preventDefault();
    follow(event.clientX, event.clientY);
    return;
  }
  if (!press || event.pointerId !== press.pointerId) return;
  const distance = Math.hypot(event.clientX - press.x, event.clientY - press.y);
  if (!press.ready) {
    // A finger that moves before the hold is scrolling, not dragging.
    if (distance > 10) forget();
    return;
  }
  if (distance >= THRESHOLD) {
    start(press.x, press.y);
    follow(event.clientX, event.clientY);
  }
}

function forget() {
  if (press?.timer) clearTimeout(press.timer);
  press = null;
}

function start(x, y) {
  const { element, slug, pointerId } = press;
  forget();
  if (!element.isConnected) return;
  const rect = element.getBoundingClientRect();
  const ghost = element.cloneNode(true);
  ghost.classList.add("ghost");
  ghost.classList.remove("selected", "chosen");
  ghost.removeAttribute("data-slug");
  ghost.style.width = rect.width + "px";
  document.body.appendChild(ghost);
  element.classList.add("dragging");
  document.body.classList.add("dragging-card");
  const card = state.cards.get(slug);
  drag = {
    slug, element, ghost, pointerId, offsetX: x - rect.left, offsetY: y - rect.top,
    origin: card?.column, column: card?.column, x, y, scroller: setInterval(autoScroll, 16),
  };
  place(x, y);
}

function follow(x, y) {
  drag.x = x;
  drag.y = y;
  drag.ghost.style.transform = `translate(${x - drag.offsetX}px, ${y - drag.offsetY}px)`;
  place(x, y);
}

/// Moves the dragged card to where the pointer is: into the column under it, before
/// the first card whose middle is below the pointer.
function place(x, y) {
  drag.ghost.style.transform = `translate(${x - drag.offsetX}px, ${y - drag.offsetY}px)`;
  const under = document.elementFromPoint(x, y);
  const columnElement = under?.closest?.(".column");
  for (const element of document.querySelectorAll(".column.drop-target")) element.classList.remove("drop-target");
  if (!columnElement) return;
  const id = columnElement.dataset.column;
  drag.column = id;
  columnElement.classList.add("drop-target");
  if (columnElement.classList.contains("collapsed")) return;
  const list = columnElement.querySelector(".cards");
  let before = null;
  for (const child of list.children) {
    if (child === drag.element || !child.classList.contains("card")) continue;
    const rect = child.getBoundingClientRect();
    if (y < rect.top + rect.height / 2) {
      before = child;
      break;
    }
  }
  const anchor = before ?? list.querySelector(".more");
  if (drag.element.parentNode !== list || drag.element.nextElementSibling !== anchor) {
    list.insertBefore(drag.element, anchor);
  }
}

function autoScroll() {
  if (!drag) return;
  const under = document.elementFromPoint(drag.x, drag.y);
  const list = under?.closest?.(".column")?.querySelector(".cards");
  let moved = false;
  if (list) {
    const rect = list.getBoundingClientRect();
    if (drag.y < rect.top + EDGE && list.scrollTop > 0) { list.scrollTop -= 12; moved = true; }
    else if (drag.y > rect.bottom - EDGE && list.scrollTop + list.clientHeight < list.scrollHeight) { list.scrollTop += 12; moved = true; }
  }
  const board = document.getElementById("board");
  const rect = board.getBoundingClientRect();
  if (drag.x < rect.left + EDGE && board.scrollLeft > 0) { board.scrollLeft -= 12; moved = true; }
  else if (drag.x > rect.right - EDGE && board.scrollLeft + board.clientWidth < board.scrollWidth) { board.scrollLeft += 12; moved = true; }
  if (moved) place(drag.x, drag.y);
}

function neighbour(element, direction) {
  let node = direction < 0 ? element.previousElementSibling : element.nextElementSibling;
  while (node && !(node.classList.contains("card") && node.dataset.slug)) {
    node = direction < 0 ? node.previousElementSibling : node.nextElementSibling;
  }
  return node?.dataset.slug ?? null;
}

function pointerUp(event) {
  if (!drag) {
    if (press && event.pointerId === press.pointerId) forget();
    return;
  }
  if (event.pointerId !== drag.pointerId) return;
  follow(event.clientX, event.clientY);
  const { slug, element, column } = drag;
  const collapsed = element.closest(".column")?.dataset.column !== column;
  const previous = collapsed ? null : neighbour(element, -1);
  const next = collapsed ? null : neighbour(element, 1);
  finish();
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  const card = state.cards.get(slug);
  if (!card || !column) return;
  const visible = visibleSlugs(card.column);
  const at = visible.indexOf(slug);
  if (column === card.column && !collapsed && visible[at - 1] === (previous ?? undefined) && (visible[at + 1] ?? null) === next) {
    // Let go where it was: nothing to send.
    moveBackInPlace(element);
    return;
  }
  let target;
  const order = (state.order.get(column) || []).filter((s) => s !== slug);
  let index;
  if (collapsed) {
    // A collapsed column shows no cards: the element leaves whatever list the drag left it in.
    element.remove();
    target = { column, placement: "bottom" };
    index = order.length;
  } else if (previous) {
    target = { column, after: previous };
    index = order.indexOf(previous) + 1;
  } else if (next) {
    target = { column, before: next };
    index = order.indexOf(next);
  } else {
    target = { column, placement: "top" };
    index = 0;
  }
  moveCard(slug, target, index);
}

function moveBackInPlace(element) {
  // The board's own drawing puts the element back; nothing changed in the model.
  element.classList.remove("dragging");
}

function finish() {
  clearInterval(drag.scroller);
  drag.ghost.remove();
  drag.element.classList.remove("dragging");
  document.body.classList.remove("dragging-card");
  for (const element of document.querySelectorAll(".column.drop-target")) element.classList.remove("drop-target");
  drag = null;
}

function cancel() {
  forget();
  if (!drag) return;
  const { element, origin } = drag;
  finish();
  // Put the element back where the model says it is.
  if (origin) {
    element.remove();
    changed([origin]);
  }
}
