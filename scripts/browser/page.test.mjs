// Drives the page of `solve serve` in headless Chromium: the start is drawn with every
// move's value, clicking a move shows the new position with its own values, Back returns,
// a copied link reopens the position. Usage: node page.test.mjs URL [SCREENSHOT.png]
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

const [url, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const failures = [];
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && failures.push(`console: ${m.text()}`));
  await page.goto(url);
  await page.waitForSelector("#moves button");
  const start = await page.textContent("#title");
  const startValue = await page.textContent("#value");
  const moves = await page.$$eval("#moves button", (bs) => bs.map((b) => ({ move: b.dataset.move, text: b.textContent, title: b.title })));
  assert.ok(moves.length > 0, "the start lists its moves");
  console.log(`start: ${start} | ${startValue} | ${moves.length} moves`);

  // Play the first move by clicking it: the page must show the position it leads to,
  // with that position's value and moves, as the API gives them.
  const first = moves[0];
  const target = first.title.split(": ").slice(1).join(": ");
  await page.click(`#moves button[data-move="${first.move}"]`);
  await page.waitForFunction((pos) => document.querySelector("#position").value === pos, target);
  const after = await page.textContent("#value");
  const api = await page.evaluate(async () => {
    const u = new URL(location.href);
    const game = u.searchParams.get("game");
    u.searchParams.delete("game");
    return (await fetch(`/api/${game}?${u.searchParams}`)).json();
  });
  assert.equal(api.position, target, "the link in the address bar names the position shown");
  const shown = await page.$$eval("#moves button", (bs) => bs.map((b) => b.dataset.move));
  assert.deepEqual(shown, (api.moves || []).map((m) => m.move), "the moves shown are the position's");
  console.log(`after ${first.move}: ${target} | ${after} | ${shown.length} moves`);

  // Back returns to the start; the copied link reopens the position.
  await page.click("#back");
  await page.waitForFunction((t) => document.querySelector("#title").textContent === t, start);
  const link = new URL(`/?game=${encodeURIComponent(api.game === "thi" ? "thi" : api.game)}`, url);
  const params = new URL(page.url()).searchParams;
  for (const [k, v] of params) if (k !== "game") link.searchParams.set(k, v);
  const again = await browser.newPage();
  await again.goto(link.href);
  await again.waitForSelector("#moves button");
  assert.equal(await again.textContent("#title"), start, "a link reopens its position");
  // A move of the best line jumps to the position after it.
  const lastPly = await page.$$eval(".line .ply", (bs) => bs.length);
  if (lastPly > 1) {
    const api2 = await page.evaluate(async () => {
      const u = new URL(location.href);
      const game = u.searchParams.get("game");
      u.searchParams.delete("game");
      return (await fetch(`/api/${game}?${u.searchParams}`)).json();
    });
    await page.click(".line .ply >> nth=1");
    await page.waitForFunction((pos) => document.querySelector("#position").value === pos, api2.line_positions[2]);
    await page.click("#back");
    await page.waitForFunction((t) => document.querySelector("#title").textContent === t, start);
    console.log(`best line: jumped two moves and back`);
  }
  if (screenshot) {
    await page.click("#forward");
    await page.waitForFunction((t) => document.querySelector("#title").textContent !== t, start);
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`screenshot: ${screenshot}`);
  }
} finally {
  await browser.close();
}
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("page test passed");
