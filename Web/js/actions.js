// The changes the page makes: each calls the API, puts the answer on the board at once
// (the event that follows changes nothing more), and pushes its inverse for undo.

import { api } from "./api.js";
import { state, locate, upsertCard, removeCard, placeCard, setBoard } from "./state.js";
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
  // The server says when a change put a column over its WIP limit.
  if (card.warning) toast(card.warning, "warning");
  // The server's excerpt: one rule for what a card shows under its title, in one place.
  upsertCard(card, "excerpt" in card ? card.excerpt : undefined);
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
  const title = titleOf(slug);
  if (index !== undefined) placeCard(slug, target.column, index);
  const change = api.moveCard(slug, target).then(accept);
  pushUndo(`move of “${title}”`, async () => accept(await api.moveCard(slug, placeOf(from))), change);
  try {
    return await change;
  } catch (error) {
    // Put it back where it was at once: the board must not show a move that did not happen, even when the
    // server is gone and the board cannot be fetched again.
    if (index !== undefined) placeCard(slug, from.column, from.index);
    showError(error, `could not move “${title}”`);
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

/// Moves several cards to the bottom of a column, in board order; a card already in that column stays where it is
/// (as `kanban move A B --to COLUMN` and the app's bulk move leave it).
export async function moveCards(slugs, columnId) {
  const places = placesInOrder(slugs).filter(([, where]) => where.column !== columnId);
  if (!places.length) return;
  const change = (async () => {
    const moved = [];
    for (const place of places) {
      const [slug] = place;
      try {
        accept(await api.moveCard(slug, { column: columnId, placement: "bottom" }));
        moved.push(place);
      } catch (error) {
        showError(error, `could not move “${titleOf(slug)}”`);
      }
    }
    return moved.length ? moved : null;
  })();
  pushUndo(`move of ${places.length} cards`, async (moved) => {
    for (const [slug, where] of moved) accept(await api.moveCard(slug, placeOf(where)));
  }, change);
  await change;
}

export async function createCard(fields) {
  const change = api.createCard(fields).then(accept);
  pushUndo(`new card “${fields.title}”`, async (card) => {
    // Moves since do not matter; a text someone else gave the card does.
    const current = await api.card(card.slug);
    unchangedSince(current, card, ["title", "labels", "body", "fields"]);
    await api.deleteCard(card.slug, current.version);
    removeCard(card.slug);
    announce({ slug: card.slug, deleted: true });
  }, change);
  try {
    return await change;
  } catch (error) {
    showError(error, "could not add the card");
    return null;
  }
}

/// Saves changes made on `version` of a card; `before` holds the old values for undo.
/// A conflict (409) is rethrown for the panel; other errors are shown and rethrown.
export async function updateCard(slug, changes, version, before) {
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
  const change = api.updateCard(slug, { ...changes, version }).then(accept);
  pushUndo(`edit of “${before.title ?? titleOf(slug)}”`, async (card) => {
    // Only what this edit set is put back, and only while it is still what the edit left.
    const current = await api.card(slug);
    unchangedSince(current, card, Object.keys(inverse), inverse.fields && Object.keys(inverse.fields));
    accept(await api.updateCard(slug, { ...inverse, version: current.version }));
  }, change);
  return change;
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
  const title = titleOf(slug);
  const change = api.archiveCard(slug, version).then((card) => {
    removeCard(slug);
    announce(card);
    return card;
  });
  pushUndo(`archive of “${title}”`, async () => {
    accept(await api.unarchiveCard(slug, from?.column));
    if (from) accept(await api.moveCard(slug, placeOf(from)));
  }, change);
  try {
    return await change;
  } catch (error) {
    if (error.status !== 409) showError(error, `could not archive “${title}”`);
    throw error;
  }
}

export async function archiveCards(slugs) {
  const places = placesInOrder(slugs);
  const change = (async () => {
    const done = [];
    for (const place of places) {
      const [slug] = place;
      try {
        await api.archiveCard(slug);
        removeCard(slug);
        done.push(place);
      } catch (error) {
        showError(error, `could not archive “${titleOf(slug)}”`);
      }
    }
    return done.length ? done : null;
  })();
  pushUndo(`archive of ${places.length} cards`, async (done) => {
    for (const [slug, from] of done) {
      accept(await api.unarchiveCard(slug, from?.column));
      accept(await api.moveCard(slug, placeOf(from)));
    }
  }, change);
  await change;
}

export async function unarchiveCard(slug, columnId) {
  const change = api.unarchiveCard(slug, columnId).then(accept);
  pushUndo(`unarchive of “${slug}”`, async (card) => {
    await api.archiveCard(slug);
    removeCard(slug);
    announce({ ...card, archived: true });
  }, change);
  try {
    return await change;
  } catch (error) {
    showError(error, "could not unarchive the card");
    return null;
  }
}

export async function deleteCard(slug, version) {
  const from = locate(slug);
  const title = titleOf(slug);
  const change = api.deleteCard(slug, version).then((deleted) => {
    removeCard(slug);
    announce({ slug, deleted: true });
    toast(`deleted “${title}” (u undoes)`);
    return deleted;
  });
  pushUndo(`delete of “${title}”`, async (deleted) => {
    accept(await api.restoreCard(deleted.path, deleted.text));
    if (from && !deleted.path.startsWith("archive/")) {
      const where = locate(slug);
      if (where && (where.column !== from.column || where.previous !== from.previous)) {
        accept(await api.moveCard(slug, placeOf(from)));
      }
    }
  }, change);
  try {
    return await change;
  } catch (error) {
    if (error.status !== 409) showError(error, `could not delete “${title}”`);
    throw error;
  }
}
