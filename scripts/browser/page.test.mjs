// Drives the page of `solve serve` in headless Chromium, over THI` PRIMUS and Kalah(3,2)
// tables: the start is drawn with every move's value, best first; clicking a move shows
// the new position, Back returns, a copied link reopens it; a whole game of PRIMUS and
// one of Kalah are played against the page (moves by clicking the board), with hint and
// take-back; the editor sets up a position, names what is wrong with an impossible one
// and values a legal one, on THI`, Kalah and Awari; a game is downloaded as a record,
// replayed by `solve thi --record`, and loaded back. Awari's board names South and North;
// Njaka's is a ring of owned holes; flip turns boards round; a Kalah start above the
// tables is answered by bounds and its reply in play marked not proven; a match in
// Aualé's OGN loads until its grand slam and downloads as OGN.
// Usage: node page.test.mjs URL SOLVE TABLES [SCREENSHOT_DIR]
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [url, solve, tables, shots] = process.argv.slice(2);
// A match Aualé wrote, whose sixth move is a grand slam (crates/tablebase/tests/ogn/).
const grandSlam = new URL("../../crates/tablebase/tests/ogn/auale-grand-slam.ogn", import.meta.url).pathname;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const failures = [];
const downloads = mkdtempSync(join(tmpdir(), "page-test-"));

function watch(page) {
  page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  // The browser logs every refusal of the API; the editor's check of an impossible
  // position is refused with a 400 on purpose, and shown.
  const refused = /^Failed to load resource: the server responded with a status of 400/;
  page.on("console", (m) => m.type() === "error" && !refused.test(m.text()) && failures.push(`console: ${m.text()}`));
}

// The answer the page shows, asked of the API again.
function shownAnswer(page) {
  return page.evaluate(async () => {
    const u = new URL(location.href);
    const game = u.searchParams.get("game");
    u.searchParams.delete("game");
    return (await fetch(`/api/${game}?${u.searchParams}`)).json();
  });
}

// A value's order for its player, as the page sorts: a score, or an outcome (a win the
// sooner the better, a loss the later).
function rank(v) {
  if (v.kind === "score") return v.score;
  return { win: 1, draw: 0, loss: -1 }[v.outcome] * (1e6 - (v.plies || 0));
}

async function reading(page) {
  await page.goto(url);
  await page.waitForSelector("#moves button");
  const start = await page.textContent("#title");
  const api = await shownAnswer(page);
  const shown = await page.$$eval("#moves button", (bs) => bs.map((b) => b.dataset.move));
  const sorted = [...api.moves].map((m, i) => ({ m, i })).sort((x, y) => rank(y.m.value) - rank(x.m.value) || x.i - y.i);
  assert.deepEqual(shown, sorted.map((x) => x.m.move), "the moves are listed best first");
  const groups = await page.$$eval("#moves h3", (hs) => hs.map((h) => h.textContent));
  assert.ok(groups.length > 0 && groups.every((g) => ["Winning", "Drawing", "Losing"].includes(g)), `grouped: ${groups}`);
  console.log(`start: ${start} | ${await page.textContent("#value")} | ${shown.length} moves in ${groups.join(", ")}`);

  // A move clicked in the list shows the position it leads to, with its moves.
  const first = api.moves[0];
  await page.click(`#moves button[data-move="${first.move}"]`);
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, first.position);
  const after = await shownAnswer(page);
  assert.equal(after.position, first.position, "the link in the address bar names the position shown");
  const afterShown = await page.$$eval("#moves button", (bs) => bs.map((b) => b.dataset.move).sort());
  assert.deepEqual(afterShown, after.moves.map((m) => m.move).sort(), "the moves shown are the position's");

  // Back (the key ←) returns; the copied link reopens the position; the line's second
  // move jumps two moves.
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((t) => document.querySelector("#title").textContent === t, start);
  const again = await browser.newPage();
  watch(again);
  await again.goto(new URL(`/?game=${after.game}&${new URLSearchParams({ ...after.board_and_rules, position: after.position })}`, url).href);
  await again.waitForSelector("#moves button");
  assert.equal(await again.inputValue("#position"), after.position, "a link reopens its position");
  await again.close();
  await page.click(".line .ply >> nth=1");
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, api.line_positions[2]);
  assert.equal(await page.$$eval("#played span", (s) => s.length), 2, "two moves played along the line");
  await page.click("#back");
  await page.click("#back");
  await page.waitForFunction((t) => document.querySelector("#title").textContent === t, start);
  console.log("read: best first, grouped, back, link, the line followed");
}

// Plays the move `name` by clicking the board: its cell, then the choice under the board
// where the cell starts several moves.
async function clickMove(page, name) {
  const cells = await page.$$eval(".board .cell.playable", (cs) => cs.map((c) => c.dataset.move));
  const from = cells.find((c) => name === c || (name.startsWith(c) && "-:".includes(name[c.length])));
  assert.ok(from, `a cell starts ${name} (cells: ${cells})`);
  await page.click(`.board .cell.playable[data-move="${from}"]`);
  if (await page.isVisible("#choose")) await page.click(`#choose button:text-is("${name}")`);
}

// Plays a whole game as `side`, choosing with `pick` among the moves listed best first,
// until the game is over; the page's status at the end. With `shot`, the page is
// photographed there after the first blunder, a hint shown.
async function playGame(page, side, pick, plies, shot) {
  await page.click("#mode-play");
  await page.selectOption("#play-side", side);
  await page.click("#play-new");
  let blunders = 0;
  for (let ply = 0; ; ply++) {
    assert.ok(ply < plies, `the game ends within ${plies} moves`);
    await page.waitForFunction(() => ["player", "over"].includes(document.querySelector("#play-status").dataset.turn));
    if ((await page.getAttribute("#play-status", "data-turn")) === "over") break;
    const moves = await page.$$eval("#moves button", (bs) => bs.map((b) => b.dataset.move));
    const before = await page.inputValue("#position");
    await clickMove(page, pick(moves));
    await page.waitForFunction((pos) => document.querySelector("#position").value !== pos, before);
    if (!(await page.textContent("#play-status")).includes("changed the value")) continue;
    if (blunders++ === 0 && shot) {
      await page.waitForFunction(() => document.querySelector("#play-status").dataset.turn === "player");
      await page.keyboard.press("h");
      await page.screenshot({ path: shot });
    }
  }
  return { status: await page.textContent("#play-status"), blunders };
}

async function playing(page) {
  // PRIMUS as White, always the worst move: the page wins, pointing out the blunders,
  // and its own moves keep their value (the record replayed says so below).
  await page.goto(`${url}?game=thi&board=primus`);
  await page.waitForSelector("#moves button");
  const shot = shots && join(shots, "page-play.png");
  const primus = await playGame(page, "white", (moves) => moves[moves.length - 1], 80, shot);
  assert.match(primus.status, /Game over: You lose/);
  assert.ok(primus.blunders > 0, "a move that lost the draw is pointed out");
  console.log(`PRIMUS played: ${primus.status} (${primus.blunders} blunders pointed out)`);

  // The game as a record: replayed by the command, every move of Black's (the page's)
  // keeps the value; loaded back, it ends where the game ended.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-game")]);
  const file = join(downloads, "primus-game.txt");
  await download.saveAs(file);
  const record = readFileSync(file, "utf8");
  assert.match(record, /^\[Game "thi"\]\n\[Board "[^"]*"\]\n\[Rules "original"\]\n\[Start "b,b,b\/-,-,-\/w,w,w w"\]/);
  const replay = execFileSync(solve, ["thi", "--out", tables, "--record", file], { encoding: "utf8" });
  const black = replay.split("\n").filter((l) => /^\s+\d+\. Black /.test(l));
  assert.ok(black.length > 0 && black.every((l) => !l.includes("??")), `the page's moves keep their value:\n${replay}`);
  assert.ok(replay.split("\n").some((l) => /^\s+\d+\. White .*\?\?/.test(l)), `the player's blunders are marked:\n${replay}`);
  const end = await page.inputValue("#position");
  const played = await page.$$eval("#played span", (s) => s.length);
  await page.goto(url);
  await page.waitForSelector("#moves button");
  await page.setInputFiles("#load-record", file);
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, end);
  assert.equal(await page.$$eval("#played span", (s) => s.length), played, "the record's moves are the moves played");
  console.log(`record: ${played} moves downloaded, replayed by solve thi --record, loaded back`);

  // Kalah(3,2) as North, the best move each time: the page opens, hint and take-back work.
  await page.goto(`${url}?game=kalah&pits=3&seeds=2`);
  await page.waitForSelector("#moves button");
  await page.click("#mode-play");
  await page.selectOption("#play-side", "north");
  await page.click("#play-new");
  await page.waitForFunction(() => document.querySelector("#play-status").dataset.turn === "player");
  await page.keyboard.press("h");
  assert.ok((await page.$$(".board .cell.hint")).length > 0, "a hint marks a best move on the board");
  const beforeTakeBack = await page.inputValue("#position");
  await clickMove(page, (await page.$$eval("#moves button", (bs) => bs.map((b) => b.dataset.move)))[0]);
  await page.waitForFunction((pos) => document.querySelector("#position").value !== pos, beforeTakeBack);
  await page.waitForFunction(() => ["player", "over"].includes(document.querySelector("#play-status").dataset.turn));
  await page.click("#play-takeback");
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, beforeTakeBack);
  const kalah = await playGame(page, "north", (moves) => moves[0], 40);
  assert.match(kalah.status, /Game over: (You win|You lose|A draw) \([+-]?\d+\)\./);
  assert.equal(kalah.blunders, 0, "best moves are no blunders");
  console.log(`Kalah(3,2) played as North: ${kalah.status}`);
}

async function editing(page) {
  await page.goto(`${url}?game=thi&board=primus`);
  await page.waitForSelector("#moves button");
  await page.click("#mode-edit");
  await page.click("#edit-clear");
  // The board's cells from the top left: a3 b3 c3 / a2 b2 c2 / a1 b1 c1.
  const cell = (i) => page.click(`.board .cell >> nth=${i}`);
  await page.click('#edit-tools button[data-tool="white"]');
  await cell(0);
  await page.waitForFunction(() => document.querySelector("#edit-status").dataset.ok === "no");
  assert.match(await page.textContent("#edit-status"), /first row/, "an impossible position says what is wrong");
  await page.click('#edit-tools button[data-tool="remove"]');
  await cell(0);
  await page.click('#edit-tools button[data-tool="white"]');
  await cell(4);
  await cell(7);
  await page.click('#edit-tools button[data-tool="black"]');
  await cell(1);
  await cell(4);
  await page.waitForFunction(() => document.querySelector("#edit-status").dataset.ok === "yes");
  const status = await page.textContent("#edit-status");
  assert.match(status, /^Legal\. .* for White\.$/);
  if (shots) await page.screenshot({ path: join(shots, "page-edit.png") });
  await page.click("#edit-done");
  await page.waitForFunction(() => document.querySelector("#position").value === "-,b,-/-,wb,-/-,w,- w");
  assert.ok((await page.$$("#moves button")).length > 0, "the position set up is analysed");
  console.log(`edit: impossible named, then -,b,-/-,wb,-/-,w,- w: ${status}`);
}

// The answer shown's position and the labels of the board's rows, top first.
async function rowLabels(page) {
  return page.$$eval(".board .row-label", (ls) => ls.map((l) => l.textContent));
}

// Awari names South and North at the start; after a move, whose position says only who
// moves ("mover"), the player to move is the one after the mover before, drawn at the
// bottom; a position typed in (which does not say) is taken as South's to move.
async function sides(page) {
  await page.goto(`${url}?game=awari&pits=3&seeds=2`);
  await page.waitForSelector("#moves button");
  assert.deepEqual(await rowLabels(page), ["North", "South"], "the start names its rows");
  assert.match(await page.textContent("#value"), /^South \(to move\): /);
  const south = await page.$$eval(".board .row:last-child .cell", (cs) => cs.map((c) => c.className));
  assert.ok(south.every((c) => c.includes("south")), `South's pits are South's: ${south}`);
  const before = await page.inputValue("#position");
  await page.click("#forward");
  await page.waitForFunction((pos) => document.querySelector("#position").value !== pos, before);
  assert.deepEqual(await rowLabels(page), ["South", "North"], "after South's move North moves, at the bottom");
  assert.match(await page.textContent("#value"), /^North \(to move\): /);
  const bottom = await page.$$eval(".board .row:last-child .cell", (cs) => cs.map((c) => c.className));
  assert.ok(bottom.every((c) => c.includes("north")), `the mover's pits are North's: ${bottom}`);
  // Flip turns the board round: the rows and each row's pits reversed.
  const cells = () => page.$$eval(".board .cell", (cs) => cs.map((c) => c.textContent).join(" "));
  const unflipped = await cells();
  await page.keyboard.press("f");
  assert.deepEqual(await rowLabels(page), ["North", "South"], "flipped, the mover's row is on top");
  assert.equal(await cells(), unflipped.split(" ").reverse().join(" "), "flipped, every pit in the other place");
  await page.click("#flip");
  assert.equal(await cells(), unflipped, "flipped twice, as before");
  const typed = await page.inputValue("#position");
  await page.goto(`${url}?game=awari&pits=3&position=${encodeURIComponent(typed)}`);
  await page.waitForSelector("#moves button");
  assert.deepEqual(await rowLabels(page), ["North", "South"], "a position typed in is taken as South's to move");
  console.log(`sides: Awari's start South/North, after a move North to move, flip, ${typed} typed in: South's`);
}

// Njaka's board is a ring of holes, each marked with its owner, flipped half a turn.
async function ring(page) {
  await page.goto(`${url}?game=njaka&holes=4&counters=2`);
  await page.waitForSelector("#moves button");
  assert.equal(await page.getAttribute("#board", "class"), "board ring", "Njaka's layout is a ring");
  const holes = () => page.$$eval(".ring .cell", (cs) => cs.map((c) => ({ owner: c.classList.contains("south") ? "south" : c.classList.contains("north") ? "north" : "", name: c.querySelector(".hole-name").textContent, top: parseFloat(c.style.top) })));
  const drawn = await holes();
  assert.deepEqual(drawn.map((h) => `${h.name}${h.owner[0]}`), ["1s", "2s", "3n", "4n"], "holes 1 to 4 with their owners");
  assert.ok(drawn[0].top > 50 && drawn[2].top < 50, `South's holes below, North's above: ${JSON.stringify(drawn)}`);
  await page.click("#flip");
  const flipped = await holes();
  assert.ok(flipped[0].top < 50 && flipped[2].top > 50, `flipped, South's above: ${JSON.stringify(flipped)}`);
  await page.click("#flip");
  console.log("ring: Njaka's 4 holes round a ring, owners marked, flipped");
}

// The editor beyond THI`: a pit of Kalah and of Awari emptied by clicks, the position
// valued, then analysed.
async function editingPits(page, query, clicks) {
  await page.goto(`${url}?${query}`);
  await page.waitForSelector("#moves button");
  await page.click("#mode-edit");
  await page.click('#edit-tools button[data-tool="remove"]');
  for (let i = 0; i < clicks; i++) await page.click(".board .row:last-child .cell >> nth=0");
  await page.waitForFunction(() => ["yes", "no"].includes(document.querySelector("#edit-status").dataset.ok));
  const status = await page.textContent("#edit-status");
  const notation = await page.inputValue("#position");
  assert.equal(await page.getAttribute("#edit-status", "data-ok"), "yes", `${notation}: ${status}`);
  assert.match(status, /^Legal\. /);
  await page.click("#edit-done");
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos && !document.body.dataset.mode.includes("edit"), notation);
  await page.waitForSelector("#moves button");
  console.log(`edit ${query}: ${notation}: ${status}`);
}

// A start above the tables (Kalah(3,20) beside the tables of Kalah(3,2)) is searched
// within the server's time: its value and its reply in play are marked not proven.
async function beyond(page) {
  await page.goto(`${url}?game=kalah&pits=3&seeds=20`);
  await page.waitForSelector("#moves button", { timeout: 30000 });
  const api = await shownAnswer(page);
  assert.equal(api.value.kind, "bounds", `Kalah(3,20) is answered by bounds: ${JSON.stringify(api.value)}`);
  assert.match(await page.textContent("#value"), /not proven/);
  assert.match(await page.textContent("#moves"), /preferred, not proven best/);
  await page.click("#mode-play");
  await page.selectOption("#play-side", "north");
  await page.click("#play-new");
  await page.waitForFunction(() => /not proven best/.test(document.querySelector("#play-status").textContent), null, { timeout: 30000 });
  console.log(`beyond: Kalah(3,20) ${await page.textContent("#value")}; ${await page.textContent("#play-status")}`);
  await page.click("#mode-analyse");
}

// Aualé's OGN: a match of Aualé's loads until its grand slam, which Wari plays
// otherwise; the moves before it download as OGN, as Aualé writes them, and load back.
async function ognRecords(page, ogn) {
  await page.goto(`${url}?game=awari&pits=3&seeds=2`);
  await page.waitForSelector("#moves button");
  await page.setInputFiles("#load-record", ogn);
  await page.waitForFunction(() => !document.querySelector("#error").hidden);
  const error = await page.textContent("#error");
  assert.match(error, /move 6, 6, captures 2 here; the record says 0 \(Aualé's Oware Abapa/, error);
  assert.equal(await page.$$eval("#played span", (s) => s.length), 5, "the five moves before it are played");
  assert.match(await page.textContent("#value"), /^South \(to move\)/, "North moved first, as the FEN says");
  const end = await page.inputValue("#position");
  await page.selectOption("#record-format", "ogn");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-game")]);
  const file = join(downloads, "game.ogn");
  await download.saveAs(file);
  const written = readFileSync(file, "utf8");
  const aualé = readFileSync(ogn, "utf8");
  const fen = /\[FEN "[^"]*"\]/.exec(aualé)[0];
  assert.ok(written.startsWith('[Variant "Wari"]\n') && written.includes(`\n${fen}\n`), written);
  assert.ok(written.endsWith("\n\n1. d E 2. e+3 D 3. f\n"), `the moves as Aualé writes them:\n${written}`);
  await page.goto(url);
  await page.waitForSelector("#moves button");
  await page.setInputFiles("#load-record", file);
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, end);
  console.log(`OGN: Aualé's match stopped at its grand slam; its first 5 moves written as OGN and loaded back`);
}

try {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  watch(phone);
  await reading(phone);
  if (shots) {
    await phone.click("#forward");
    await phone.waitForFunction(() => document.querySelectorAll("#played span").length === 1);
    await phone.screenshot({ path: join(shots, "serve.png"), fullPage: true });
  }
  const desktop = await browser.newPage({ viewport: { width: 1100, height: 820 }, acceptDownloads: true });
  watch(desktop);
  await playing(desktop);
  await editing(desktop);
  await sides(desktop);
  await ring(desktop);
  await editingPits(desktop, "game=kalah&pits=3&seeds=2", 1);
  await editingPits(desktop, "game=awari&pits=3&seeds=2", 2);
  await beyond(desktop);
  await ognRecords(desktop, grandSlam);
  if (shots) console.log(`screenshots: ${join(shots, "serve.png")}, page-play.png, page-edit.png`);
} finally {
  await browser.close();
}
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("page test passed");
