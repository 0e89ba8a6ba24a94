// The changes the page makes: each calls the API, puts the answer on the board at once
// (the event that follows changes nothing more), and pushes its inverse for undo.

import { api } from "./api.js";
import { state, locate, upsertCard, removeCard, placeCard, setBoard } from "./state.js";
import { excerptOf } from "./markdown.js";
import { pushUndo } from "./undo.js";
import { showError, toast } from "./ui.js";

const listeners = new Set();

/// Tells the card panel about a card the page itself just changed (with body and version).
export function onCardChanged(listener) {
  listeners.add(listener);
}

function announce(card) {
  for (const listener of listeners) listener(card);
}

/// Puts a full card (from GET/POST/PATCH/move…) on the board.
function accept(card) {
  if (!card || !card.slug) return card;
  upsertCard(card, "body" in card ? excerptOf(card.body) : undefined);
  announce(card);
  return card;
}

/// The move target that puts a card back where `where` (from locate) says it was.
function placeOf(where) {
  if (where.previous) return { column: where.column, after: where.previous };
  if (where.next) return { column: where.column, before: where.next };
  return { column: where.column, placement: "top" };
}

export async function refetchBoard() {
  try {
    setBoard(await api.board());
  } catch (error) {
    showError(error, "could not load the board");
  }
}

const titleOf = (slug) => state.cards.get(slug)?.title || slug;

/// Moves a card; `index` (optional) is where it is shown until the server answers.
export async function moveCard(slug, target, index) {
  const from = locate(slug);
  if (!from) return null;
  if (index !== undefined) placeCard(slug, target.column, index);
  try {
    const card = accept(await api.moveCard(slug, target));
    pushUndo(`move of “${card.title}”`, async () => accept(await api.moveCard(slug, placeOf(from))));
    return card;
  } catch (error) {
    showError(error, `could not move “${titleOf(slug)}”`);
    await refetchBoard();
    return null;
  }
}

/// Where each card is, in board order, for putting several back: each goes after the card
/// that was before it (already back if it moved too), or at the top.
function placesInOrder(slugs) {
  const columns = state.board.columns.map((c) => c.id);
  return slugs
    .map((slug) => [slug, locate(slug)])
    .filter(([, where]) => where)
    .sort(([, a], [, b]) => columns.indexOf(a.column) - columns.indexOf(b.column) || a.index - b.index)
    .map(([slug, where]) => [slug, { ...where, next: null }]);
}

export async function moveCards(slugs, columnId) {
  const places = placesInOrder(slugs);
  const moved = [];
  for (const [slug] of places) {
    try {
      accept(await api.moveCard(slug, { column: columnId, placement: "bottom" }));
      moved.push(places.find(([s]) => s === slug));
    } catch (error) {
      showError(error, `could not move “${titleOf(slug)}”`);
    }
  }
  if (moved.length) {
    pushUndo(`move of ${moved.length} cards`, async () => {
      for (const [slug, where] of moved) accept(await api.moveCard(slug, placeOf(where)));
    });
  }
}

export async function createCard(fields) {
  try {
    const card = accept(await api.createCard(fields));
    pushUndo(`new card “${card.title}”`, async () => {
      // Moves since do not matter; a text someone else gave the card does.
      const current = await api.card(card.slug);
      unchangedSince(current, card, ["title", "labels", "body", "fields"]);
      await api.deleteCard(card.slug, current.version);
      removeCard(card.slug);
      announce({ slug: card.slug, deleted: true });
    });
    return card;
  } catch (error) {
    showError(error, "could not add the card");
    return null;
  }
}

/// Saves changes made on `version` of a card; `before` holds the old values for undo.
/// A conflict (409) is rethrown for the panel; other errors are shown and rethrown.
export async function updateCard(slug, changes, version, before) {
  const card = accept(await api.updateCard(slug, { ...changes, version }));
  const inverse = {};
  for (const key of Object.keys(changes)) {
    if (key === "fields") {
      inverse.fields = {};
      for (const field of Object.keys(changes.fields)) {
        inverse.fields[field] = before.fields && field in before.fields ? toFieldString(before.fields[field]) : null;
      }
    } else {
      inverse[key] = before[key];
    }
  }
  pushUndo(`edit of “${before.title ?? card.title}”`, async () => {
    // Only what this edit set is put back, and only while it is still what the edit left.
    const current = await api.card(slug);
    unchangedSince(current, card, Object.keys(inverse), inverse.fields && Object.keys(inverse.fields));
    accept(await api.updateCard(slug, { ...inverse, version: current.version }));
  });
  return card;
}

/// Throws unless `current` still has the values `then` had for `keys` (and for the
/// named fields): undo never replaces a change someone else made meanwhile.
function unchangedSince(current, then, keys, fieldKeys) {
  const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const key of keys) {
    if (key === "fields") {
      for (const field of fieldKeys ?? Object.keys({ ...current.fields, ...then.fields })) {
        if (!same(current.fields?.[field], then.fields?.[field])) throw new Error(`its “${field}” was changed elsewhere since`);
      }
    } else if (!same(current[key], then[key])) {
      throw new Error(`its ${key} was changed elsewhere since`);
    }
  }
}

export function toFieldString(value) {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/// The version of a card as the board shows it, for a change made from the board (a key):
/// when the file changed since (its event not yet drawn), the card is drawn anew and this throws,
/// so the person sees what they are about to archive or delete.
export async function versionAsShown(slug) {
  const shown = state.cards.get(slug);
  const current = await api.card(slug);
  const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (!shown || !same(shown.title, current.title) || !same(shown.labels, current.labels) || !same(shown.modified, current.modified)) {
    accept(current);
    throw new Error(`“${current.title}” changed since it was shown; look again`);
  }
  return current.version;
}

export async function archiveCard(slug, version) {
  const from = locate(slug);
  try {
    const card = await api.archiveCard(slug, version);
    removeCard(slug);
    announce(card);
    pushUndo(`archive of “${card.title}”`, async () => {
      let back = accept(await api.unarchiveCard(slug, from?.column));
      if (from) back = accept(await api.moveCard(slug, placeOf(from)));
    });
    return card;
  } catch (error) {
    if (error.status !== 409) showError(error, `could not archive “${titleOf(slug)}”`);
    throw error;
  }
}

export async function archiveCards(slugs) {
  const done = [];
  for (const [slug, from] of placesInOrder(slugs)) {
    try {
      await api.archiveCard(slug);
      removeCard(slug);
      done.push([slug, from]);
    } catch (error) {
      showError(error, `could not archive “${titleOf(slug)}”`);
    }
  }
  if (done.length) {
    pushUndo(`archive of ${done.length} cards`, async () => {
      for (const [slug, from] of done) {
        accept(await api.unarchiveCard(slug, from?.column));
        if (from) accept(await api.moveCard(slug, placeOf(from)));
      }
    });
  }
}

export async function unarchiveCard(slug, columnId) {
  try {
    const card = accept(await api.unarchiveCard(slug, columnId));
    pushUndo(`unarchive of “${card.title}”`, async () => {
      await api.archiveCard(slug);
      removeCard(slug);
    });
    return card;
  } catch (error) {
    showError(error, "could not unarchive the card");
    return null;
  }
}

export async function deleteCard(slug, version) {
  const from = locate(slug);
  const title = titleOf(slug);
  try {
    const deleted = await api.deleteCard(slug, version);
    removeCard(slug);
    announce({ slug, deleted: true });
    toast(`deleted “${title}” (u undoes)`);
    pushUndo(`delete of ${deleted.path}`, async () => {
      accept(await api.restoreCard(deleted.path, deleted.text));
      if (from && !deleted.path.startsWith("archive/")) {
        const where = locate(slug);
        if (where && (where.column !== from.column || where.previous !== from.previous)) {
          accept(await api.moveCard(slug, placeOf(from)));
        }
      }
    });
    return deleted;
  } catch (error) {
    if (error.status !== 409) showError(error, `could not delete “${titleOf(slug)}”`);
    throw error;
  }
}
