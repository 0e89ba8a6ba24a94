// A small markdown renderer that builds DOM nodes and never parses HTML: raw HTML in
// a card is shown as the text it is. Headings, paragraphs, lists (nested by indent),
// task lists, block quotes, fenced and indented code, rules, GFM tables; inline code, emphasis,
// strong, strikethrough and links (http:, https: and mailto: only).

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/// The URL as a string when it is absolute and of an allowed scheme, else null.
function safeHref(href) {
  try {
    const url = new URL(href.trim());
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])( *\1){2,} *$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/// The cells of a table row: split on `|` that is not escaped, the outer pipes dropped.
function tableCells(line) {
  let text = line.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  const cells = [];
  let cell = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === "|") { cell += "|"; i++; continue; }
    if (text[i] === "|") { cells.push(cell.trim()); cell = ""; continue; }
    cell += text[i];
  }
  cells.push(cell.trim());
  return cells;
}

/// A GFM table starting at `start` (a header row, then the delimiter row), or -1 when there is none.
function renderTable(lines, start, parent) {
  const header = tableCells(lines[start]);
  const delimiter = start + 1 < lines.length && TABLE_DELIMITER.test(lines[start + 1]) ? tableCells(lines[start + 1]) : null;
  if (!lines[start].includes("|") || !delimiter || delimiter.length !== header.length) return -1;
  const align = delimiter.map((d) => (d.startsWith(":") && d.endsWith(":") ? "center" : d.endsWith(":") ? "right" : d.startsWith(":") ? "left" : ""));
  const table = el("table");
  const row = (cells, tag) => {
    const tr = el("tr");
    header.forEach((_, i) => {
      const cell = el(tag);
      if (align[i]) cell.style.textAlign = align[i];
      renderInline(cells[i] ?? "", cell);
      tr.appendChild(cell);
    });
    return tr;
  };
  const head = el("thead");
  head.appendChild(row(header, "th"));
  table.appendChild(head);
  const body = el("tbody");
  let index = start + 2;
  while (index < lines.length && lines[index].trim() !== "" && lines[index].includes("|")) {
    body.appendChild(row(tableCells(lines[index]), "td"));
    index++;
  }
  if (body.children.length) table.appendChild(body);
  const wrapper = el("div", "table");
  wrapper.appendChild(table);
  parent.appendChild(wrapper);
  return index;
}

/// Renders markdown text into a DocumentFragment.
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  renderBlocks(String(text ?? "").replace(/\r\n?/g, "\n").split("\n"), fragment);
  return fragment;
}

function renderBlocks(lines, parent) {
  let index = 0;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) {
      const p = el("p");
      renderInline(paragraph.join("\n"), p);
      parent.appendChild(p);
      paragraph = [];
    }
  };
  while (index < lines.length) {
    const line = lines[index];
    let match;
    if (/^\s*$/.test(line)) { flush(); index++; continue; }
    if ((match = FENCE.exec(line))) {
      flush();
      const fence = match[1];
      const language = match[2].trim().split(/\s+/)[0];
      const body = [];
      index++;
      while (index < lines.length && !new RegExp("^ {0,3}" + fence[0] + "{" + fence.length + ",}\\s*$").test(lines[index])) {
        body.push(lines[index]);
        index++;
      }
      index++;
      const pre = el("pre");
      const code = el("code");
      if (language) code.dataset.language = language;
      code.textContent = body.join("\n");
      pre.appendChild(code);
      parent.appendChild(pre);
      continue;
    }
    if ((match = HEADING.exec(line))) {
      flush();
      const heading = el("h" + match[1].length);
      renderInline(match[2] || "", heading);
      parent.appendChild(heading);
      index++;
      continue;
    }
    if (RULE.test(line) && !paragraph.length) {
      parent.appendChild(el("hr"));
      index++;
      continue;
    }
    if (!paragraph.length && line.includes("|")) {
      const next = renderTable(lines, index, parent);
      if (next >= 0) { index = next; continue; }
    }
    if (QUOTE.test(line)) {
      flush();
      const inner = [];
      while (index < lines.length && (match = QUOTE.exec(lines[index]))) {
        inner.push(match[1]);
        index++;
      }
      const quote = el("blockquote");
      renderBlocks(inner, quote);
      parent.appendChild(quote);
      continue;
    }
    if ((match = LIST_ITEM.exec(line)) && (!paragraph.length || match[4] !== "")) {
      flush();
      index = renderList(lines, index, parent);
      continue;
    }
    if (/^ {4}/.test(line) && !paragraph.length) {
      const body = [];
      while (index < lines.length && (/^ {4}/.test(lines[index]) || /^\s*$/.test(lines[index]))) {
        body.push(lines[index].slice(4));
        index++;
      }
      while (body.length && body[body.length - 1].trim() === "") body.pop();
      const pre = el("pre");
      const code = el("code");
      code.textContent = body.join("\n");
      pre.appendChild(code);
      parent.appendChild(pre);
      continue;
    }
    paragraph.push(line.trim());
    index++;
  }
  flush();
}

function renderList(lines, start, parent) {
  const first = LIST_ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = el(ordered ? "ol" : "ul");
  if (ordered) {
    const number = parseInt(first[2], 10);
    if (number !== 1) list.start = number;
  }
  let index = start;
  while (index < lines.length) {
    const match = LIST_ITEM.exec(lines[index]);
    if (!match || match[1].length !== indent || /\d/.test(match[2]) !== ordered) break;
    const contentIndent = indent + match[2].length + Math.max(1, Math.min(match[3].length, 4));
    const itemLines = [match[4]];
    index++;
    // The item's continuation: lines indented past the marker, or lazily continued text.
    while (index < lines.length) {
      const line = lines[index];
      if (/^\s*$/.test(line)) {
        const next = lines[index + 1];
        if (next !== undefined && /^\s*$/.test(next) === false && leadingSpaces(next) > indent) {
          itemLines.push("");
          index++;
          continue;
        }
        break;
      }
      const sibling = LIST_ITEM.exec(line);
      if (sibling && sibling[1].length <= indent) break;
      if (leadingSpaces(line) > indent) {
        itemLines.push(line.slice(Math.min(leadingSpaces(line), contentIndent)));
      } else if (sibling || FENCE.test(line) || HEADING.test(line) || QUOTE.test(line)) {
        break;
      } else {
        itemLines.push(line.trim());
      }
      index++;
    }
    const item = el("li");
    const task = /^\[( |x|X)\](?: +|$)(.*)$/.exec(itemLines[0]);
    if (task) {
      item.className = "task";
      const box = el("input");
      box.type = "checkbox";
      box.disabled = true;
      box.checked = task[1] !== " ";
      item.appendChild(box);
      itemLines[0] = task[2];
    }
    const tight = !itemLines.includes("");
    if (tight && itemLines.every((l) => !LIST_ITEM.test(l) && !FENCE.test(l) && !QUOTE.test(l))) {
      const span = el("span");
      renderInline(itemLines.map((l) => l.trim()).join("\n"), span);
      item.appendChild(span);
    } else if (tight) {
      // Text, then nested blocks, without wrapping the text in a paragraph.
      let split = itemLines.findIndex((l) => LIST_ITEM.test(l) || FENCE.test(l) || QUOTE.test(l));
      const span = el("span");
      renderInline(itemLines.slice(0, split).map((l) => l.trim()).join("\n"), span);
      item.appendChild(span);
      renderBlocks(itemLines.slice(split), item);
    } else {
      renderBlocks(itemLines, item);
    }
    list.appendChild(item);
  }
  parent.appendChild(list);
  return index;
}

function leadingSpaces(line) {
  return line.length - line.trimStart().length;
}

// Inline: code spans first (their text is literal), then links, then emphasis.
const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|!?\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)|<((?:https?:\/\/|mailto:)[^>\s]+)>|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])|(\*\*|__)(?=\S)([\s\S]*?\S)\7|(\*|_)(?=\S)([\s\S]*?\S)\9(?![\w*])|~~(?=\S)([\s\S]*?\S)~~|\\([\\`*_{}\[\]()#+\-.!>~|])|( {2,}|\\)\n/;

function renderInline(text, parent) {
  let rest = text;
  while (rest.length) {
    const match = INLINE.exec(rest);
    if (!match) { appendText(parent, rest); break; }
    if (match.index > 0) appendText(parent, rest.slice(0, match.index));
    const [whole] = match;
    if (match[1] !== undefined) {
      const code = el("code");
      code.textContent = match[2].replace(/^ (.*) $/s, "$1");
      parent.appendChild(code);
    } else if (match[3] !== undefined) {
      const href = safeHref(match[4]);
      if (href && !whole.startsWith("!")) {
        const link = el("a");
        link.href = href;
        link.rel = "noopener noreferrer";
        link.target = "_blank";
        renderInline(match[3], link);
        parent.appendChild(link);
      } else if (whole.startsWith("!")) {
        appendText(parent, match[3] ? "[image: " + match[3] + "]" : "[image]");
      } else {
        renderInline(match[3], parent);
        if (match[4]) appendText(parent, " (" + match[4] + ")");
      }
    } else if (match[5] !== undefined || match[6] !== undefined) {
      const target = match[5] ?? match[6];
      const href = safeHref(target);
      if (href) {
        const link = el("a");
        link.href = href;
        link.rel = "noopener noreferrer";
        link.target = "_blank";
        link.textContent = target;
        parent.appendChild(link);
      } else {
        appendText(parent, whole);
      }
    } else if (match[7] !== undefined) {
      const strong = el("strong");
      renderInline(match[8], strong);
      parent.appendChild(strong);
    } else if (match[9] !== undefined) {
      if (match[9] === "_" && match.index > 0 && /\w/.test(rest[match.index - 1])) {
        appendText(parent, "_");
        rest = rest.slice(match.index + 1);
        continue;
      }
      const em = el("em");
      renderInline(match[10], em);
      parent.appendChild(em);
    } else if (match[11] !== undefined) {
      const del = el("del");
      renderInline(match[11], del);
      parent.appendChild(del);
    } else if (match[12] !== undefined) {
      appendText(parent, match[12]);
    } else {
      parent.appendChild(el("br"));
    }
    rest = rest.slice(match.index + whole.length);
  }
}

function appendText(parent, text) {
  const last = parent.lastChild;
  if (last && last.nodeType === Node.TEXT_NODE) last.data += text;
  else parent.appendChild(document.createTextNode(text));
}

