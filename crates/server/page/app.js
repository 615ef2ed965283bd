// The page over the API of docs/api.md: a position is a request (a game and its
// parameters); every answer carries its title, the board to draw, every move with its
// value and the position it leads to, the best line's positions, and the parameters that
// ask for any other position of its game. The page knows no game: what it shows of one
// is what the server sends.
"use strict";

const $ = (id) => document.getElementById(id);

const state = { starts: [], current: null, answer: null, back: [] };

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function plies(n) {
  return n === 1 ? "1 ply" : `${n} plies`;
}

// A value bounded by a search above the tables (kind `bounds`) has no outcome of its own:
// its ends are scores (numbers) or outcomes, and it says it is not proven.
function valueText(v) {
  if (v.kind === "bounds") return `between ${boundText(v.lower)} and ${boundText(v.upper)} — not proven`;
  if (v.kind === "score") return `${v.score > 0 ? "+" : ""}${v.score} (${v.outcome})`;
  return v.plies === null || v.plies === undefined ? v.outcome : `${v.outcome} in ${plies(v.plies)}`;
}

function boundText(b) {
  if (typeof b === "number") return `${b > 0 ? "+" : ""}${b}`;
  return b.plies === null || b.plies === undefined ? b.outcome : `${b.outcome} in ${plies(b.plies)}`;
}

// The class a value colours with: its outcome, or `bounds`.
function outcomeOf(v) {
  return v.kind === "bounds" ? "bounds" : v.outcome;
}

// What a search above the tables did, where one answered.
function searchedText(a) {
  const s = a.details && a.details.search;
  if (!s) return "";
  return `searched above the tables: ${s.nodes} nodes in ${s.seconds.toFixed(2)} s${s.stopped ? `, stopped (${s.stopped})` : ""}`;
}

function requestUrl(req) {
  return `/api/${encodeURIComponent(req.game)}?${new URLSearchParams(req.params)}`;
}

function pageUrl(req) {
  return `/?${new URLSearchParams({ game: req.game, ...req.params })}`;
}

function showError(body) {
  const box = $("error");
  box.replaceChildren(element("span", "", body.error || "the server did not answer"));
  if (body.command) {
    box.append(element("br"), element("span", "", "Build them with: "), element("code", "", body.command));
  }
  box.hidden = false;
}

async function load(req, remember) {
  let body;
  let ok = false;
  let res;
  try {
    res = await fetch(requestUrl(req));
  } catch (e) {
    body = { error: `no answer from the server: ${e.message}` };
  }
  if (res) {
    try {
      body = await res.json();
      ok = res.ok;
    } catch (e) {
      // Refused below the API (a request too long for the HTTP layer, say): no JSON.
      body = { error: `the server answered ${res.status} ${res.statusText} without an explanation` };
    }
  }
  if (!ok) {
    showError(body);
    return;
  }
  $("error").hidden = true;
  if (remember && state.current) state.back.push(state.current);
  state.current = req;
  state.answer = body;
  history.replaceState(null, "", pageUrl(req));
  render();
  showStart(req);
}

// The board menu names the start shown, or nothing once play has left it.
function showStart(req) {
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => String(a[k]) === String(b[k]));
  const i = state.starts.findIndex((s) => s.game === req.game && same(s.params, req.params));
  $("start").value = i >= 0 ? String(i) : "";
}

function atPosition(position) {
  return { game: state.current.game, params: { ...state.answer.board_and_rules, position } };
}

function drawCell(cell, grid) {
  const c = element("div", `cell${cell.owner ? " " + cell.owner : ""}`);
  if (grid) {
    for (const letter of cell.text) c.append(element("span", `counter ${letter}`));
    c.title = cell.text || "empty";
  } else {
    c.textContent = cell.text;
  }
  return c;
}

function drawRows(board, grid) {
  return board.rows.map((row, i) => {
    const r = element("div", "row");
    r.append(element("span", "row-label", board.labels[i] || ""));
    for (const cell of row) r.append(drawCell(cell, grid));
    return r;
  });
}

function drawBoard(board) {
  const box = $("board");
  box.className = `board ${board.layout}`;
  if (board.layout === "pits" && board.stores && board.stores.length === 2) {
    const wrap = element("div", "pits");
    const rows = element("div", "rows");
    rows.append(...drawRows(board, false));
    wrap.append(element("div", "store", board.stores[0].text), rows, element("div", "store", board.stores[1].text));
    box.replaceChildren(wrap);
  } else {
    box.replaceChildren(...drawRows(board, board.layout === "grid"));
  }
}

function render() {
  const a = state.answer;
  $("title").textContent = `${a.title} — ${a.position}`;
  $("position").value = a.position;
  drawBoard(a.board);
  const who = a.to_move === "mover" ? "the player to move" : `${a.to_move[0].toUpperCase()}${a.to_move.slice(1)} (to move)`;
  const value = $("value");
  value.textContent = a.over ? `Game over: ${valueText(a.value)} for ${who}` : `${who}: ${valueText(a.value)}`;
  value.dataset.outcome = outcomeOf(a.value);
  const searched = $("searched");
  searched.textContent = searchedText(a);
  searched.hidden = searched.textContent === "";

  const list = $("moves");
  list.replaceChildren();
  for (const m of a.moves || []) {
    const best = m.move === a.best;
    const b = element("button", `${outcomeOf(m.value)}${best ? " best" : ""}`);
    b.type = "button";
    b.dataset.move = m.move;
    b.title = `play ${m.move}: ${m.position}`;
    b.append(element("span", "mv", m.move), element("span", "val", valueText(m.value)));
    // The move a search prefers when it proved no value: the greatest lower bound.
    if (best && a.value.kind === "bounds") b.append(element("span", "note", "preferred, not proven best"));
    b.addEventListener("click", () => load(atPosition(m.position), true));
    const li = element("li");
    li.append(b);
    list.append(li);
  }
  if (!a.moves || a.moves.length === 0) list.append(element("li", "note", a.over ? "none: the game is over" : "none"));

  // Each move of the line is a link to the position after it, where the server kept them.
  const line = $("line");
  line.replaceChildren(
    ...a.line.map((name, i) => {
      const after = a.line_positions && a.line_positions[i + 1];
      if (!after) return element("span", "", name);
      const b = element("button", "ply", name);
      b.type = "button";
      b.title = `go to the position after ${name}: ${after}`;
      b.addEventListener("click", () => load(atPosition(after), true));
      return b;
    }),
  );
  const ends = { over: "game over", repetition: "repeats: endless play", cut: "…" };
  line.append(element("span", "end", ends[a.line_end.kind] || ""));

  $("back").disabled = state.back.length === 0;
  $("forward").disabled = nextOnLine() === null;
  $("copied").hidden = true;
}

function nextOnLine() {
  const a = state.answer;
  if (a.line_positions && a.line_positions.length > 1) return a.line_positions[1];
  const best = (a.moves || []).find((m) => m.move === a.best);
  return best ? best.position : null;
}

function fillStarts() {
  const select = $("start");
  const none = element("option", "", "(a position)");
  none.value = "";
  none.disabled = true;
  select.replaceChildren(none);
  state.starts.forEach((s, i) => {
    const o = element("option", "", s.title);
    o.value = String(i);
    select.append(o);
  });
  if (state.starts.length === 0) select.append(element("option", "", "no tables: build some with solve"));
}

async function init() {
  $("back").addEventListener("click", () => {
    const previous = state.back.pop();
    if (previous) load(previous, false);
  });
  $("forward").addEventListener("click", () => {
    const next = nextOnLine();
    if (next !== null) load(atPosition(next), true);
  });
  $("copy").addEventListener("click", async () => {
    const link = new URL(pageUrl(state.current), location.href).href;
    const note = $("copied");
    try {
      await navigator.clipboard.writeText(link);
      note.textContent = "Link copied.";
    } catch {
      note.textContent = link;
    }
    note.hidden = false;
  });
  $("start").addEventListener("change", (e) => {
    const s = state.starts[Number(e.target.value)];
    if (s) load({ game: s.game, params: { ...s.params } }, true);
  });
  $("goto").addEventListener("submit", (e) => {
    e.preventDefault();
    if (state.current) load(atPosition($("position").value.trim()), true);
  });

  let games;
  try {
    games = await (await fetch("/api/games")).json();
  } catch (e) {
    showError({ error: `no answer from the server: ${e.message}` });
    return;
  }
  for (const g of games.games) {
    for (const t of g.tables) {
      for (const s of t.starts) state.starts.push({ game: g.game, params: s.parameters, title: s.title });
    }
  }
  fillStarts();
  const asked = new URLSearchParams(location.search);
  if (asked.has("game")) {
    const game = asked.get("game");
    asked.delete("game");
    load({ game, params: Object.fromEntries(asked) }, false);
  } else if (state.starts.length > 0) {
    const s = state.starts[0];
    load({ game: s.game, params: { ...s.params } }, false);
  } else {
    showError({ error: "this server holds no tables", command: "solve thi --board trias" });
  }
}

init();
