// The page over the API of docs/api.md: a position is a request (a game and its
// parameters); every answer carries its title, the board to draw (each cell naming the
// moves that start there), every move with its value and the position it leads to, the
// best line's positions, and the parameters that ask for any other position of its game.
// Reading, playing and keeping records know no game. Only the editor does: it writes a
// board back in each game's notation (EDITORS), and the server says whether it stands.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  starts: [],
  origin: null, // the start chosen last: the editor's "Start"
  current: null, // the request shown
  answer: null, // its answer
  // The moves played from the first position shown: [{ request, answer, move, side }],
  // the first entry's move null. Back walks it; the game record is written from it.
  trail: [],
  mode: "analyse",
  flipped: false,
  hint: false,
  play: { human: null, active: false, note: "" },
  edit: null, // { game, rules: board_and_rules, board, side, tool, checked }
  token: 0, // the last load asked for: an older answer arriving late is dropped
};

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(className, text, title, onClick) {
  const b = element("button", className, text);
  b.type = "button";
  if (title) b.title = title;
  b.addEventListener("click", onClick);
  return b;
}

function plies(n) {
  return n === 1 ? "1 ply" : `${n} plies`;
}

function capital(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// ---------------------------------------------------------------- values

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

const OUTCOMES = { win: 1, draw: 0, loss: -1 };

// A number that orders values for the player they belong to, the greater the better: a
// score itself; an outcome, a win the sooner the better, a loss the later. Bounds by
// their lower end (what the search proved at least).
function rank(v) {
  if (v.kind === "bounds") return typeof v.lower === "number" ? v.lower : rank(v.lower);
  if (v.kind === "score") return v.score;
  const distance = v.plies === null || v.plies === undefined ? 0 : v.plies;
  return OUTCOMES[v.outcome] * (1e6 - distance);
}

// Whether a move's value is worse for its player than the position's: a blunder loses a
// whole outcome (win to draw, draw to loss) or, for scores, any of the score. A slower win
// is no blunder. Bounds prove nothing of the kind.
function blunder(move, position) {
  if (move.kind === "bounds" || position.kind === "bounds") return false;
  if (move.kind === "score") return move.score < position.score;
  return OUTCOMES[move.outcome] < OUTCOMES[position.outcome];
}

// The moves best first; equal moves in the game's order.
function sortedMoves(a) {
  return (a.moves || []).map((m, i) => ({ m, i })).sort((x, y) => rank(y.m.value) - rank(x.m.value) || x.i - y.i).map((x) => x.m);
}

// The moves a best reply chooses among: with exact values every move of the best value
// (so that games differ); with bounds the one the search prefers.
function bestMoves(a) {
  const moves = a.moves || [];
  if (a.value.kind === "bounds") return moves.filter((m) => m.move === a.best);
  if (moves.length === 0) return [];
  const top = Math.max(...moves.map((m) => rank(m.value)));
  return moves.filter((m) => rank(m.value) === top);
}

// ---------------------------------------------------------------- sides

// The two players of the answer's game, the first to move at its starts first.
function sidesOf(a) {
  return a.to_move === "white" || a.to_move === "black" ? ["white", "black"] : ["south", "north"];
}

function other(side) {
  return { white: "black", black: "white", south: "north", north: "south" }[side];
}

// Who moves at the trail's last position: the answer's `to_move`, or where a position
// does not say (Awari's and Oware's `mover`), the other player than the one who made the
// move before it; at a first position that does not say, South.
function sideToMove() {
  const last = state.trail[state.trail.length - 1];
  return last ? last.side : null;
}

function sideAfter(answer, previous) {
  if (answer.to_move !== "mover") return answer.to_move;
  return previous ? other(previous) : "south";
}

// ---------------------------------------------------------------- loading

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

// The answer to `req`: { ok, body }, body the report or the server's error.
async function ask(req) {
  let res;
  try {
    res = await fetch(requestUrl(req));
  } catch (e) {
    return { ok: false, body: { error: `no answer from the server: ${e.message}` } };
  }
  try {
    return { ok: res.ok, body: await res.json() };
  } catch {
    // Refused below the API (a request too long for the HTTP layer, say): no JSON.
    return { ok: false, body: { error: `the server answered ${res.status} ${res.statusText} without an explanation` } };
  }
}

// Shows `req`: as the position after `move` on the trail, or, without one, as a first
// position (a start, a position typed or set up, a record's). Resolves to whether it was
// shown.
async function load(req, move, firstSide) {
  const token = ++state.token;
  const { ok, body } = await ask(req);
  if (token !== state.token) return false;
  if (!ok) {
    showError(body);
    return false;
  }
  $("error").hidden = true;
  if (move) {
    state.trail.push({ request: req, answer: body, move, side: sideAfter(body, sideToMove()) });
  } else {
    state.trail = [{ request: req, answer: body, move: null, side: firstSide || sideAfter(body, null) }];
  }
  settle();
  return true;
}

// Shows the trail's last position.
function settle() {
  const last = state.trail[state.trail.length - 1];
  state.current = last.request;
  state.answer = last.answer;
  state.hint = false;
  history.replaceState(null, "", pageUrl(state.current));
  render();
  showStart(state.current);
  if (state.mode === "play") playOn();
}

function back() {
  if (state.trail.length < 2) return;
  state.token++;
  state.trail.pop();
  state.play.note = "";
  settle();
}

// Plays `m` (a move of the position shown) as the player to move.
function playMove(m) {
  const a = state.answer;
  if (state.mode === "play" && state.play.active && sideToMove() === state.play.human) {
    state.play.note = blunder(m.value, a.value)
      ? `Your move ${m.move} changed the value: ${valueText(a.value)} became ${valueText(m.value)}.`
      : "";
  }
  return load(atPosition(m.position), m.move);
}

// The board menu names the start shown (by its title, however it was asked for), or
// nothing once play has left it.
function showStart(req) {
  const i = state.answer.start ? state.starts.findIndex((s) => s.game === req.game && s.title === state.answer.title) : -1;
  $("start").value = i >= 0 ? String(i) : "";
}

function atPosition(position) {
  return { game: state.current.game, params: { ...state.answer.board_and_rules, position } };
}

// ---------------------------------------------------------------- the board

// The legal moves that start at a cell: named as its `move`, or beginning with it and a
// `-` (a Kalah turn) or `:` (a THI` direction).
function movesFrom(cell) {
  if (!cell.move || !state.answer) return [];
  return (state.answer.moves || []).filter((m) => m.move === cell.move || (m.move.startsWith(cell.move) && "-:".includes(m.move[cell.move.length])));
}

// Side names for rows and owners that say only `mover` and `opponent`, where the trail
// knows who moves.
function ownerName(owner) {
  const side = sideToMove();
  if (owner === "mover" && side) return side;
  if (owner === "opponent" && side) return other(side);
  return owner;
}

function labelText(label) {
  const side = sideToMove();
  if (side && (label === "mover" || label === "opponent")) return capital(ownerName(label));
  return label;
}

function drawCell(cell, grid, place) {
  const owner = cell.owner ? ownerName(cell.owner) : "";
  const c = element("div", `cell${owner ? " " + owner : ""}`);
  if (grid) {
    for (const letter of cell.text) c.append(element("span", `counter ${letter}`));
    c.title = cell.text || "empty";
  } else {
    c.textContent = cell.text;
  }
  if (state.edit) {
    c.classList.add("editable");
    c.addEventListener("click", () => editCell(place));
    return c;
  }
  const moves = movesFrom(cell);
  if (moves.length > 0 && !computerToMove()) {
    c.classList.add("playable");
    if (state.hint && moves.some((m) => bestMoves(state.answer).includes(m))) c.classList.add("hint");
    c.tabIndex = 0;
    c.title = `play ${moves.map((m) => m.move).join(" or ")}`;
    c.dataset.move = cell.move;
    c.addEventListener("click", () => chooseFrom(moves));
  }
  return c;
}

// One move from a cell is played at once; several (Kalah's turns, THI`'s directions) are
// offered beneath the board.
function chooseFrom(moves) {
  const box = $("choose");
  if (moves.length === 1) {
    box.hidden = true;
    playMove(moves[0]);
    return;
  }
  box.replaceChildren(element("span", "note", "Which move?"));
  for (const m of sortedMoves({ moves })) {
    box.append(button(`choice ${outcomeOf(m.value)}`, m.move, `play ${m.move}`, () => chooseFrom([m])));
  }
  box.hidden = false;
}

function drawRows(board, grid, cells) {
  const order = (xs) => (state.flipped ? [...xs].reverse() : xs);
  return order(board.rows.map((row, i) => ({ row, i }))).map(({ row, i }) => {
    const r = element("div", "row");
    r.append(element("span", "row-label", labelText(board.labels[i] || "")));
    for (const { cell, j } of order(row.map((cell, j) => ({ cell, j })))) r.append(cells(cell, grid, { row: i, cell: j }));
    return r;
  });
}

// Njaka's circle: the holes round a ring counterclockwise from hole 1, the first half
// (South's in the standard game) along the bottom.
function drawRing(board, box) {
  const holes = board.rows[0];
  const ring = element("div", "ring");
  const n = holes.length;
  const first = Math.PI / 2 + (Math.PI * (n / 2 - 1)) / n + (state.flipped ? Math.PI : 0);
  holes.forEach((cell, j) => {
    // Screen angles grow clockwise (y points down): counterclockwise is less.
    const angle = first - (2 * Math.PI * j) / n;
    const c = drawCell(cell, false, { row: 0, cell: j });
    c.style.left = `${50 + 40 * Math.cos(angle)}%`;
    c.style.top = `${50 + 40 * Math.sin(angle)}%`;
    c.append(element("span", "hole-name", String(j + 1)));
    ring.append(c);
  });
  ring.append(element("div", "ring-label", board.labels[0] || ""));
  box.replaceChildren(ring);
}

function drawBoard(board) {
  const box = $("board");
  box.className = `board ${board.layout}${state.edit ? " editing" : ""}`;
  if (board.layout === "ring") return drawRing(board, box);
  if (board.layout === "pits" && board.stores && board.stores.length === 2) {
    const wrap = element("div", "pits");
    const rows = element("div", "rows");
    rows.append(...drawRows(board, false, drawCell));
    const stores = board.stores.map((s, k) => {
      const store = drawCell(s, false, { store: k });
      store.classList.add("store");
      return store;
    });
    if (state.flipped) stores.reverse();
    wrap.append(stores[0], rows, stores[1]);
    box.replaceChildren(wrap);
  } else {
    box.replaceChildren(...drawRows(board, board.layout === "grid", drawCell));
  }
}

// ---------------------------------------------------------------- the panel

function render() {
  if (state.edit) return renderEdit();
  const a = state.answer;
  $("title").textContent = `${a.title} — ${a.position}`;
  $("position").value = a.position;
  $("choose").hidden = true;
  drawBoard(a.board);
  const side = sideToMove();
  const who = a.to_move === "mover" && side ? `${capital(side)} (to move)` : a.to_move === "mover" ? "the player to move" : `${capital(a.to_move)} (to move)`;
  const value = $("value");
  value.textContent = a.over ? `Game over: ${valueText(a.value)} for ${who}` : `${who}: ${valueText(a.value)}`;
  value.dataset.outcome = outcomeOf(a.value);
  const searched = $("searched");
  searched.textContent = searchedText(a);
  searched.hidden = searched.textContent === "";
  renderMoves(a);
  renderLine(a);
  renderPlayed();
  $("back").disabled = state.trail.length < 2;
  $("forward").disabled = nextOnLine() === null || computerToMove();
  $("save-line").disabled = a.line.length === 0;
  $("save-game").disabled = state.trail.length < 2;
  const ogn = $("record-format").querySelector('option[value="ogn"]');
  ogn.disabled = !["awari", "oware"].includes(state.current.game);
  if (ogn.disabled) $("record-format").value = "record";
  $("copied").hidden = true;
  renderPlayBar();
}

// What a search above the tables did, where one answered.
function searchedText(a) {
  const s = a.details && a.details.search;
  if (!s) return "";
  return `searched above the tables: ${s.nodes} nodes in ${s.seconds.toFixed(2)} s${s.stopped ? `, stopped (${s.stopped})` : ""}`;
}

const GROUPS = { win: "Winning", draw: "Drawing", loss: "Losing", bounds: "Not proven" };

// The moves best first, grouped by outcome as syzygy-tables.info does.
function renderMoves(a) {
  const list = $("moves");
  list.replaceChildren();
  const best = bestMoves(a);
  let group = null;
  let ol = null;
  for (const m of sortedMoves(a)) {
    const outcome = outcomeOf(m.value);
    if (outcome !== group) {
      group = outcome;
      list.append(element("h3", `group ${outcome}`, GROUPS[outcome] || outcome));
      ol = element("ol", "group-moves");
      list.append(ol);
    }
    const isBest = m.move === a.best;
    const b = button(`${outcome}${isBest ? " best" : ""}${state.hint && best.includes(m) ? " hint" : ""}`, "", `play ${m.move}: ${m.position}`, () => playMove(m));
    b.dataset.move = m.move;
    b.append(element("span", "mv", m.move), element("span", "val", valueText(m.value)));
    // The move a search prefers when it proved no value: the greatest lower bound.
    if (isBest && a.value.kind === "bounds") b.append(element("span", "note", "preferred, not proven best"));
    b.disabled = computerToMove();
    const li = element("li");
    li.append(b);
    ol.append(li);
  }
  if (!a.moves || a.moves.length === 0) list.append(element("p", "note", a.over ? "none: the game is over" : "none"));
}

// Each move of the line is a link to the position after it, where the server kept them.
function renderLine(a) {
  const line = $("line");
  line.replaceChildren(
    ...a.line.map((name, i) => {
      const after = a.line_positions && a.line_positions[i + 1];
      if (!after) return element("span", "", name);
      return button("ply", name, `go to the position after ${name}: ${after}`, () => alongLine(i));
    }),
  );
  const ends = { over: "game over", repetition: "repeats: endless play", cut: "…" };
  line.append(element("span", "end", ends[a.line_end.kind] || ""));
}

// Follows the best line `i + 1` moves, each on the trail.
async function alongLine(i) {
  const a = state.answer;
  for (let k = 0; k <= i; k++) {
    if (!(await load(atPosition(a.line_positions[k + 1]), a.line[k]))) return;
  }
}

function renderPlayed() {
  const played = $("played");
  const moves = state.trail.slice(1);
  played.replaceChildren(...moves.map((t, i) => element("span", t.request === state.current ? "here" : "", `${i + 1}. ${t.move}`)));
  if (moves.length === 0) played.append(element("span", "end", "none yet"));
}

function nextOnLine() {
  const a = state.answer;
  if (a.line_positions && a.line_positions.length > 1 && a.line.length > 0) return { move: a.line[0], position: a.line_positions[1] };
  const best = (a.moves || []).find((m) => m.move === a.best);
  return best ? { move: best.move, position: best.position } : null;
}

function forward() {
  const next = nextOnLine();
  if (next === null || computerToMove()) return;
  const m = (state.answer.moves || []).find((x) => x.move === next.move);
  if (m) playMove(m);
  else load(atPosition(next.position), next.move);
}

// ---------------------------------------------------------------- play

function computerToMove() {
  const p = state.play;
  return state.mode === "play" && p.active && !state.answer.over && sideToMove() !== p.human;
}

// In play, after every position shown: the computer answers, or the game is over.
function playOn() {
  if (!computerToMove()) return;
  const token = state.token;
  setTimeout(() => {
    if (token !== state.token || !computerToMove()) return;
    const a = state.answer;
    const choices = bestMoves(a);
    if (choices.length === 0) return;
    const m = choices[Math.floor(Math.random() * choices.length)];
    if (a.value.kind === "bounds") state.play.note = `Beyond the tables: ${m.move} is the move a search prefers, not proven best.`;
    load(atPosition(m.position), m.move);
  }, 350);
}

function resultText() {
  const a = state.answer;
  const mover = sideToMove();
  const yours = mover === state.play.human;
  const v = a.value;
  if (v.kind === "bounds") return "Game over.";
  const outcome = yours ? v.outcome : { win: "loss", loss: "win", draw: "draw" }[v.outcome];
  const words = { win: "You win", draw: "A draw", loss: "You lose" }[outcome];
  const mine = yours ? v.score : -v.score;
  const score = v.kind === "score" ? ` (${mine > 0 ? "+" : ""}${mine})` : "";
  return `Game over: ${words}${score}.`;
}

function renderPlayBar() {
  const p = state.play;
  const select = $("play-side");
  const sides = sidesOf(state.answer);
  if ([...select.options].map((o) => o.value).join() !== sides.join()) {
    select.replaceChildren(...sides.map((s) => Object.assign(element("option", "", capital(s)), { value: s })));
  }
  if (!p.active) {
    $("play-status").textContent = "Choose your side and press New game: the page answers every move with a best move.";
    $("play-takeback").disabled = true;
    $("play-hint").disabled = true;
    return;
  }
  let status;
  const turn = state.answer.over ? "over" : computerToMove() ? "page" : "player";
  if (turn === "over") status = resultText();
  else if (turn === "page") status = `${capital(sideToMove())} (the tables) is thinking…`;
  else status = `Your move, ${capital(p.human)}.`;
  $("play-status").textContent = [p.note, status].filter(Boolean).join(" ");
  $("play-status").dataset.turn = turn;
  $("play-takeback").disabled = !state.trail.slice(1).some((t, i) => state.trail[i].side === p.human);
  $("play-hint").disabled = state.answer.over || computerToMove();
}

function newGame() {
  const p = state.play;
  p.human = $("play-side").value;
  p.active = true;
  p.note = "";
  state.token++;
  state.trail = [state.trail[state.trail.length - 1]];
  settle();
}

// Takes back the human's last move and the computer's answers to it.
function takeBack() {
  const p = state.play;
  state.token++;
  while (state.trail.length > 1) {
    const undone = state.trail.pop();
    if (state.trail[state.trail.length - 1].side === p.human && undone.move) break;
  }
  p.note = "";
  settle();
}

function showHint() {
  state.hint = true;
  render();
}

// ---------------------------------------------------------------- modes

function setMode(mode) {
  if (mode === state.mode) return;
  if (state.mode === "edit") state.edit = null;
  state.mode = mode;
  for (const m of ["analyse", "play", "edit"]) $(`mode-${m}`).setAttribute("aria-selected", String(m === mode));
  $("play-bar").hidden = mode !== "play";
  $("edit-bar").hidden = mode !== "edit";
  document.body.dataset.mode = mode;
  if (mode !== "play") state.play.active = false;
  if (mode === "edit") startEditing();
  else if (state.answer) render();
}

// ---------------------------------------------------------------- the editor

// Each game's notation written from the board the server draws (docs/api.md, Board; the
// notations: `solve <game> --help`): `sides` the players the editor offers to move (none
// where the mover's row is the bottom one), `tools` what a click does.
const COUNTS = ["add", "remove"];
const EDITORS = {
  thi: {
    sides: ["white", "black"],
    tools: ["white", "black", "remove"],
    write: (b, side) => `${b.rows.map((r) => r.map((c) => c.text || "-").join(",")).join("/")} ${side[0]}`,
  },
  kalah: {
    sides: ["south", "north"],
    tools: COUNTS,
    write: (b, side) =>
      `${texts(b.rows[1]).join(",")}/${texts(b.rows[0]).reverse().join(",")} ${b.stores[1].text}-${b.stores[0].text} ${side[0].toUpperCase()}`,
  },
  awari: { sides: null, tools: COUNTS, write: (b) => [...texts(b.rows[1]), ...texts(b.rows[0]).reverse()].join(",") },
  oware: {
    sides: null,
    tools: COUNTS,
    write: (b) => `${[...texts(b.rows[1]), ...texts(b.rows[0]).reverse()].join(",")} ${b.stores[1].text}-${b.stores[0].text}`,
  },
  trias: {
    sides: ["south", "north"],
    tools: COUNTS,
    write: (b, side) => `${b.rows.map((r) => texts(r).join(",")).join("/")} ${side[0].toUpperCase()}`,
  },
  njaka: {
    sides: ["south", "north"],
    tools: [...COUNTS, "owner"],
    write: (b, side) => `${b.rows[0].map((c) => `${c.text}${c.owner[0]}`).join(",")} ${side[0].toUpperCase()}`,
  },
};

function texts(row) {
  return row.map((c) => c.text);
}

const TOOL_NAMES = { add: "+1", remove: "−1", owner: "owner", white: "+ white", black: "+ black" };

function startEditing() {
  const a = state.answer;
  const editor = EDITORS[state.current.game];
  if (!a || !editor) {
    showError({ error: `no editor for ${state.current ? state.current.game : "this game"}` });
    return;
  }
  const board = JSON.parse(JSON.stringify(a.board));
  // The bottom row is the mover's in a game whose position does not say who moves.
  for (const row of board.rows) for (const c of row) if (c.owner === "mover" || c.owner === "opponent") c.owner = c.owner === "mover" ? "south" : "north";
  const side = editor.sides ? (editor.sides.includes(a.to_move) ? a.to_move : editor.sides[0]) : null;
  state.edit = { game: state.current.game, rules: { ...a.board_and_rules }, board, side, tool: editor.tools[0], checked: null };
  const tools = $("edit-tools");
  tools.replaceChildren(
    ...editor.tools.map((t) => {
      const b = button("tool", TOOL_NAMES[t], `a click on a cell: ${TOOL_NAMES[t]}`, () => {
        state.edit.tool = t;
        renderEdit();
      });
      b.dataset.tool = t;
      return b;
    }),
  );
  const select = $("edit-side");
  $("edit-side-label").hidden = !editor.sides;
  select.replaceChildren(...(editor.sides || []).map((s) => Object.assign(element("option", "", capital(s)), { value: s })));
  if (side) select.value = side;
  checkEdit();
}

function editCell(place) {
  const e = state.edit;
  const cell = place.store !== undefined ? e.board.stores[place.store] : e.board.rows[place.row][place.cell];
  if (e.game === "thi") {
    if (e.tool === "remove") cell.text = cell.text.slice(0, -1);
    else if (cell.text.length < 8) cell.text += e.tool[0];
    cell.owner = cell.text ? (cell.text.endsWith("w") ? "white" : "black") : undefined;
  } else if (e.tool === "owner") {
    if (cell.owner) cell.owner = other(cell.owner);
  } else {
    cell.text = String(Math.max(0, Number(cell.text) + (e.tool === "add" ? 1 : -1)));
  }
  checkEdit();
}

function clearEdit() {
  const e = state.edit;
  for (const row of e.board.rows) for (const c of row) {
    c.text = e.game === "thi" ? "" : "0";
    if (e.game === "thi") c.owner = undefined;
  }
  for (const s of e.board.stores || []) s.text = "0";
  checkEdit();
}

// The position set up, asked of the server: its value, or what is wrong with it.
async function checkEdit() {
  const e = state.edit;
  const notation = EDITORS[e.game].write(e.board, e.side);
  e.checked = { notation, ok: null, body: null };
  renderEdit();
  const token = ++state.token;
  const { ok, body } = await ask({ game: e.game, params: { ...e.rules, position: notation } });
  if (token !== state.token || state.edit !== e) return;
  e.checked = { notation, ok, body };
  renderEdit();
}

function renderEdit() {
  const e = state.edit;
  $("title").textContent = `Setting up a position — ${e.checked ? e.checked.notation : ""}`;
  if (e.checked) $("position").value = e.checked.notation;
  drawBoard(e.board);
  for (const b of $("edit-tools").children) b.setAttribute("aria-pressed", String(b.dataset.tool === e.tool));
  const status = $("edit-status");
  const c = e.checked;
  if (!c || c.ok === null) {
    status.textContent = "Checking…";
    status.dataset.ok = "";
  } else if (c.ok) {
    const who = c.body.to_move === "mover" ? "the player to move" : capital(c.body.to_move);
    status.textContent = `Legal. ${c.body.over ? "Game over: " : ""}${valueText(c.body.value)} for ${who}.`;
    status.dataset.ok = "yes";
  } else {
    status.textContent = `Not a position here: ${c.body.error}`;
    status.dataset.ok = "no";
  }
  $("edit-done").disabled = !(c && c.ok);
}

async function doneEditing() {
  const e = state.edit;
  if (!e.checked || !e.checked.ok) return;
  const req = { game: e.game, params: { ...e.rules, position: e.checked.notation } };
  setMode("analyse");
  await load(req, null);
}

async function editStart() {
  const s = state.origin;
  if (!s) return;
  const { ok, body } = await ask(s);
  if (!ok) return showError(body);
  state.current = s;
  state.answer = body;
  state.edit = null;
  startEditing();
}

// ---------------------------------------------------------------- records

// docs/records.md: tags `[Name "value"]`, then the moves, numbered.
function writeRecord(first, moves, kind) {
  const a = first.answer;
  const params = { ...a.board_and_rules };
  const rules = params.rules;
  delete params.rules;
  const tag = (name, value) => `[${name} "${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
  const tags = [tag("Game", first.request.game), tag("Board", Object.entries(params).map(([k, v]) => `${k}=${v}`).join(" "))];
  if (rules !== undefined) tags.push(tag("Rules", rules));
  tags.push(tag("Start", a.position), tag("Title", a.title), tag("Moves", kind));
  const numbered = moves.map((m, i) => `${i + 1}. ${m}`);
  const lines = [];
  for (let i = 0; i < numbered.length; i += 8) lines.push(numbered.slice(i, i + 8).join(" "));
  return `${tags.join("\n")}\n\n${lines.join("\n")}\n`;
}

// A record read: { tags, moves }, or an error naming what is wrong.
function readRecord(text) {
  const tags = {};
  const moves = [];
  let rest = text.replace(/\r/g, "");
  for (;;) {
    rest = rest.replace(/^\s+/, "");
    const m = /^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]/.exec(rest);
    if (!m) break;
    tags[m[1]] = m[2].replace(/\\(.)/g, "$1");
    rest = rest.slice(m[0].length);
  }
  rest = rest.replace(/\{[^}]*\}/g, " ");
  for (const token of rest.split(/\s+/).filter(Boolean)) {
    if (/^\d+\.$/.test(token)) continue;
    if (token.startsWith("[")) throw new Error(`a tag after the moves: ${token}`);
    moves.push(token);
  }
  for (const need of ["Game", "Start"]) if (!(need in tags)) throw new Error(`no [${need} "…"] tag`);
  return { tags, moves };
}

function recordRequest(record) {
  const params = {};
  for (const pair of (record.tags.Board || "").split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at < 1) throw new Error(`the Board tag's \`${pair}\` is not name=value`);
    params[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (record.tags.Rules !== undefined) params.rules = record.tags.Rules;
  params.position = record.tags.Start;
  return { game: record.tags.Game, params };
}

function download(name, text) {
  const a = element("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// A file read as one of our records or, its first tag `Variant`, as an OGN match: the
// request of its first position, who moves there where it says, and its moves
// ({ name, captured where it says }).
function readKept(text) {
  if (isOgn(text)) return readOgn(text);
  const record = readRecord(text);
  return { request: recordRequest(record), side: null, moves: record.moves.map((name) => ({ name })) };
}

async function loadRecord(file) {
  let kept;
  try {
    kept = readKept(await file.text());
  } catch (e) {
    showError({ error: `${file.name}: ${e.message}` });
    return;
  }
  if (!(await load(kept.request, null, kept.side))) return;
  for (const [i, { name, captured }] of kept.moves.entries()) {
    const m = (state.answer.moves || []).find((x) => x.move === name);
    if (!m) {
      showError({ error: `${file.name}: move ${i + 1}, ${name}, is not a legal move at ${state.answer.position}` });
      return;
    }
    if (captured !== undefined && (m.captures || 0) !== captured) {
      const why = "Aualé's Oware Abapa, read as Wari, lets a grand slam (a capture of every stone the opponent has) take nothing; Wari takes them";
      showError({ error: `${file.name}: move ${i + 1}, ${name}, captures ${m.captures || 0} here; the record says ${captured} (${why})` });
      return;
    }
    if (!(await load(atPosition(m.position), m.move))) return;
  }
}

// The record of `moves` (names) from the trail entry `first`, each leading to the
// position of `positions` (first's own first), in the format chosen: ours, or OGN.
function saveRecord(first, moves, positions, kind) {
  const game = first.request.game;
  if ($("record-format").value !== "ogn") {
    download(`${game}-${kind === "best line" ? "line" : "game"}.txt`, writeRecord(first, moves, kind));
    return;
  }
  const captured = moves.map((name, i) => ({ name, captured: capturedBetween(positions[i], positions[i + 1]) }));
  try {
    download(`${game}-${kind === "best line" ? "line" : "game"}.ogn`, writeOgn(first, first.side, captured));
  } catch (e) {
    showError({ error: `OGN cannot hold this record: ${e.message}` });
  }
}

// ---------------------------------------------------------------- OGN

// Aualé's Oware Game Notation (docs/records.md#oware-in-aualés-ogn; tablebase::ogn in
// Rust): tags as ours, `Variant` first; `FEN` the twelve houses from South's `A`, the
// stores South's then North's, and `S` or `N`; moves `A`–`F` South's, `a`–`f` North's,
// `+N` where they captured.
const OGN_ROSTER = [["Variant", null], ["Event", "?"], ["Site", "?"], ["Date", "?"], ["Round", "?"], ["South", "?"], ["North", "?"], ["Result", "*"]];
const OGN_START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

function isOgn(text) {
  return /^\s*\[\s*Variant[\s"]/.test(text);
}

// The counts of an Awari or Oware position: its twelve houses, the mover's row first, and
// for Oware the captures, the mover's first.
function owarePosition(text) {
  const [cells, captured] = text.trim().split(/\s+(?=\d+-\d+$)/);
  const houses = cells.split(/[\s,]+/).map(Number);
  const [mine, theirs] = captured ? captured.split("-").map(Number) : [null, null];
  return { houses, mine, theirs };
}

// What the move from `before` to `after` captured.
function capturedBetween(before, after) {
  const [b, a] = [owarePosition(before), owarePosition(after)];
  if (b.mine !== null) return a.theirs - b.mine;
  return b.houses.reduce((x, y) => x + y, 0) - a.houses.reduce((x, y) => x + y, 0);
}

// An OGN match of `moves` (names and what each captured) from `first`, South or North to
// move there; an error names what OGN cannot hold.
function writeOgn(first, side, moves) {
  const a = first.answer;
  const rules = a.board_and_rules || {};
  const variant = first.request.game === "awari" ? "Awari" : { wari: "Wari", trysse: "Trysse" }[rules.rules];
  if (!variant) throw new Error("OGN keeps Oware games (Awari, Wari, Trysse)");
  const p = owarePosition(a.position);
  const stones = p.houses.reduce((x, y) => x + y, 0) + (p.mine || 0) + (p.theirs || 0);
  if (p.mine === null && stones !== 48) throw new Error("an Awari position keeps no captures, which OGN's FEN gives: only one of all 48 stones");
  if (p.houses.length !== 12 || stones !== 48) throw new Error("OGN's board has 6 houses a row and 48 stones");
  const usual = variant === "Trysse" ? 21 : 25;
  if (rules.target !== undefined && Number(rules.target) !== usual) throw new Error(`${variant} in OGN plays to ${usual}, not ${rules.target}`);
  const south = side === "south";
  const houses = south ? p.houses : [...p.houses.slice(6), ...p.houses.slice(0, 6)];
  const [mine, theirs] = [p.mine || 0, p.theirs || 0];
  const fen = [...houses, south ? mine : theirs, south ? theirs : mine, south ? "S" : "N"].join("-");
  const tag = (name, value) => `[${name} "${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
  const tags = OGN_ROSTER.map(([name, unknown]) => tag(name, unknown === null ? variant : unknown));
  if (fen !== OGN_START) tags.push(tag("FEN", fen));
  const tokens = [];
  let mover = side;
  moves.forEach((m, i) => {
    if (i % 2 === 0) tokens.push(`${i / 2 + 1}.`);
    const letter = String.fromCharCode((mover === "south" ? 64 : 96) + Number(m.name));
    tokens.push(m.captured > 0 ? `${letter}+${m.captured}` : letter);
    mover = other(mover);
  });
  const lines = [];
  let line = "";
  for (const t of tokens) {
    if (line && line.length + 1 + t.length >= 80) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line} ${t}` : t;
  }
  return `${tags.join("\n")}\n${tokens.length ? `\n${line ? [...lines, line].join("\n") : ""}\n` : ""}`;
}

// An OGN match read: the request of its first position, the player to move there, and
// its moves ({ name, captured }); an error names the line where the notation breaks.
function readOgn(text) {
  const tags = {};
  let at = 0;
  const lineAt = (i) => text.slice(0, i).split("\n").length;
  const fail = (i, why) => {
    throw new Error(`line ${lineAt(i)}: ${why}`);
  };
  const tagPattern = /\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;
  for (;;) {
    tagPattern.lastIndex = at;
    const m = tagPattern.exec(text);
    if (!m) break;
    tags[m[1]] = m[2].replace(/\\(.)/g, "$1");
    at = tagPattern.lastIndex;
  }
  const variant = (tags.Variant || "").toLowerCase();
  const kind = { "oware abapa": ["oware", "wari"], wari: ["oware", "wari"], trysse: ["oware", "trysse"], awari: ["awari", null] }[variant];
  if (!kind) throw new Error(`the Variant "${tags.Variant}" is none read here ("Oware Abapa", "Wari", "Trysse", "Awari")`);
  const fen = (tags.FEN || OGN_START).split("-");
  if (fen.length !== 15 || !fen.slice(0, 14).every((n) => /^\d{1,2}$/.test(n)) || !["S", "N"].includes(fen[14])) {
    throw new Error(`the FEN tag "${tags.FEN}" is not twelve houses, South's store, North's store and S or N, joined by -`);
  }
  const side = fen[14] === "S" ? "south" : "north";
  const counts = fen.slice(0, 14).map(Number);
  const houses = side === "south" ? counts.slice(0, 12) : [...counts.slice(6, 12), ...counts.slice(0, 6)];
  const [mine, theirs] = side === "south" ? [counts[12], counts[13]] : [counts[13], counts[12]];
  const params = kind[0] === "awari" ? { pits: "6", position: houses.join(",") } : { pits: "6", seeds: "4", rules: kind[1], position: `${houses.join(",")} ${mine}-${theirs}` };
  return { request: { game: kind[0], params }, side, moves: readOgnMoves(text, at, side, fail) };
}

function readOgnMoves(text, from, side, fail) {
  const moves = [];
  let result = null;
  let mover = side;
  const token = /\s*(?:(\{[^}]*\}?)|(\([^)]*\)?)|([^\s{(]+))/y;
  token.lastIndex = from;
  for (let m; (m = token.exec(text)) && m[0].trim(); ) {
    const at = m.index + m[0].length - m[0].trimStart().length;
    if (m[1] && !m[1].endsWith("}")) fail(at, "a comment `{` that does not end");
    if (m[2] && !m[2].endsWith(")")) fail(at, "a variation `(` that does not end");
    if (!m[3]) continue;
    const word = m[3].replace(/^\d+\.+/, "");
    if (result !== null) fail(at, `\`${m[3]}\` after the result \`${result}\`: the result comes last`);
    if (word === "") continue;
    if (word.startsWith("[")) fail(at, "a tag after the moves: the tags come first");
    if (word === "*" || /^\d{1,2}-\d{1,2}$/.test(word)) {
      result = word;
      continue;
    }
    const move = /^([A-Fa-f])(?:\+(\d+))?$/.exec(word);
    if (!move) fail(at, `\`${word}\` is not an OGN move: a house A–F (South's) or a–f (North's), +N after it where it captured N`);
    const owner = move[1] <= "F" ? "south" : "north";
    if (owner !== mover) fail(at, `move ${moves.length + 1} \`${word}\` is ${capital(owner)}'s, but ${capital(mover)} is to move`);
    moves.push({ name: String(move[1].toUpperCase().charCodeAt(0) - 64), captured: Number(move[2] || 0) });
    mover = other(mover);
  }
  return moves;
}

// ---------------------------------------------------------------- start

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

function loadStart(s) {
  state.origin = { game: s.game, params: { ...s.params } };
  if (state.edit) return editStart();
  return load(state.origin, null);
}

function onKey(e) {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey || state.edit) return;
  const keys = { ArrowRight: forward, " ": forward, ArrowLeft: back, Backspace: back, f: flip, h: () => (state.mode === "play" ? showHint() : null) };
  const action = keys[e.key];
  if (!action) return;
  e.preventDefault();
  action();
}

function flip() {
  state.flipped = !state.flipped;
  if (state.edit) renderEdit();
  else render();
}

function wire() {
  $("back").addEventListener("click", back);
  $("forward").addEventListener("click", forward);
  $("flip").addEventListener("click", flip);
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
    if (s) loadStart(s);
  });
  $("goto").addEventListener("submit", (e) => {
    e.preventDefault();
    if (state.current && !state.edit) load(atPosition($("position").value.trim()), null);
  });
  for (const m of ["analyse", "play", "edit"]) $(`mode-${m}`).addEventListener("click", () => setMode(m));
  $("play-new").addEventListener("click", newGame);
  $("play-hint").addEventListener("click", showHint);
  $("play-takeback").addEventListener("click", takeBack);
  $("play-hide").addEventListener("change", (e) => document.body.classList.toggle("hide-values", e.target.checked));
  $("edit-clear").addEventListener("click", clearEdit);
  $("edit-start").addEventListener("click", editStart);
  $("edit-done").addEventListener("click", doneEditing);
  $("edit-side").addEventListener("change", (e) => {
    state.edit.side = e.target.value;
    checkEdit();
  });
  $("save-line").addEventListener("click", () => {
    const here = state.trail[state.trail.length - 1];
    saveRecord(here, state.answer.line, state.answer.line_positions || [], "best line");
  });
  $("save-game").addEventListener("click", () => {
    const trail = state.trail;
    saveRecord(trail[0], trail.slice(1).map((t) => t.move), trail.map((t) => t.answer.position), "game played");
  });
  $("load-record").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (file) loadRecord(file);
  });
  document.addEventListener("keydown", onKey);
}

async function init() {
  wire();
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
    const first = state.starts.find((s) => s.game === game);
    if (first) state.origin = { game, params: { ...first.params } };
    load({ game, params: Object.fromEntries(asked) }, null);
  } else if (state.starts.length > 0) {
    loadStart(state.starts[0]);
  } else {
    showError({ error: "this server holds no tables", command: "solve thi --board trias" });
  }
}

init();
