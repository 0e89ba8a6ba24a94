// The JSON API of `kanban serve`. Every call resolves to the decoded JSON body or
// rejects with an ApiError carrying the server's {"error", "message"} (and, on 409,
// the card as it now is).

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "http-" + status;
    this.body = body || {};
  }
}

// With several boards, `kanban serve` serves each under /b/<index>/ and the page is at that address: its API calls
// go to the same prefix. With one board there is no prefix.
export const boardPrefix = (location.pathname.match(/^\/b\/[0-9]+/) || [""])[0];

function request(method, path, body) {
  return send(method, boardPrefix + path, body);
}

async function send(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, "network", "cannot reach the kanban server (" + error.message + ")");
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try { json = JSON.parse(text); } catch { json = null; }
  }
  if (!response.ok) {
    const code = json && typeof json.error === "string" ? json.error : null;
    const message = json && typeof json.message === "string" ? json.message : text.slice(0, 200);
    throw new ApiError(response.status, code, message, json);
  }
  return json;
}

const card = (slug) => "/api/cards/" + encodeURIComponent(slug);

export const api = {
  board: () => request("GET", "/api/board"),
  archive: () => request("GET", "/api/archive"),
  card: (slug) => request("GET", card(slug)),
  createCard: (fields) => request("POST", "/api/cards", fields),
  updateCard: (slug, changes) => request("PATCH", card(slug), changes),
  moveCard: (slug, target) => request("POST", card(slug) + "/move", target),
  archiveCard: (slug, version) => request("POST", card(slug) + "/archive", version ? { version } : {}),
  unarchiveCard: (slug, column) => request("POST", card(slug) + "/unarchive", column ? { column } : {}),
  deleteCard: (slug, version) => request("DELETE", card(slug), version ? { version } : {}),
  restoreCard: (path, text) => request("POST", "/api/cards/restore", { path, text }),
  search: (query) => request("GET", "/api/search?q=" + encodeURIComponent(query)),
  addColumn: (fields) => request("POST", "/api/columns", fields),
  updateColumn: (id, changes) => request("PATCH", "/api/columns/" + encodeURIComponent(id), changes),
  moveColumn: (id, index) => request("POST", "/api/columns/" + encodeURIComponent(id) + "/move", { index }),
  removeColumn: (id, moveCardsTo) =>
    request("DELETE", "/api/columns/" + encodeURIComponent(id), moveCardsTo ? { moveCardsTo } : {}),
  addLabel: (fields) => request("POST", "/api/labels", fields),
  updateLabel: (id, changes) => request("PATCH", "/api/labels/" + encodeURIComponent(id), changes),
  moveLabel: (id, index) => request("POST", "/api/labels/" + encodeURIComponent(id) + "/move", { index }),
  removeLabel: (id, strip) => request("DELETE", "/api/labels/" + encodeURIComponent(id), { strip: !!strip }),
  status: () => request("GET", "/api/status"),
  sync: () => request("POST", "/api/sync", {}),
  // The boards the server serves (only when it serves several): the same for every board's page.
  boards: () => send("GET", "/api/boards"),
};
