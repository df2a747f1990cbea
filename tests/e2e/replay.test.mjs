// The replay: driven by the simulation, still until asked, in step with
// the load chart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servePage, open, pixels, rendered, renders, settled } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const HERD = 'v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full';

const at = (page) => page.evaluate(() => Number(document.body.dataset.replayAt));
// Lets the page draw `count` frames: the replay moves once a frame while
// it plays, so a replay still after them stands still by construction, on
// a fast host or a slow one, not after some milliseconds of wall clock.
const frames = (page, count) => page.evaluate((n) => new Promise((resolve) => {
  const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
  requestAnimationFrame(step);
}), count);

async function scrubTo(page, position) {
  await page.evaluate((value) => {
    const slider = document.getElementById('replay-time');
    slider.value = String(value);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  }, position);
}

test('the herd opens its replay still, on the first wave after the outage with its calls drawn, at a speed that brings the next wave within 10 s', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  assert.equal(await page.getAttribute('#replay', 'open'), '');
  const first = await at(page);
  assert.ok(first >= 6.2 && first < 6.4, `opens at ${first}`);
  // One short sentence: the calls of the bucket, A's and B's, against the server.
  assert.match(await page.textContent('#replay-text'),
    /^At 6\.\d\d s, A sends [\d\u2009]+ calls in 0\.10 s, B [\d\u2009]+; the server can serve 100 at once\.$/);
  // At real time the next wave (12.6 s) is 6.4 s of watching away.
  assert.equal(await page.inputValue('#replay-speed'), '1', 'the speed the waves suit');
  assert.equal(await page.textContent('#replay-play'), 'Play');
  const shot = await pixels(page, 'chart-replay');
  await frames(page, 30);
  assert.equal(await at(page), first, 'nothing moves before the reader asks');
  assert.equal(await pixels(page, 'chart-replay'), shot);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the load chart marks the replay\'s instant from the start; closing the replay takes the mark off, opening puts it back', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  await settled(page);
  // The page opened the replay itself: that drew the charts once, not again.
  assert.equal(await renders(page), 1);
  const withCursor = await pixels(page, 'chart-load');
  await page.click('#replay > summary');
  await rendered(page, 2);
  assert.equal(await page.getAttribute('#replay', 'open'), null);
  assert.notEqual(await pixels(page, 'chart-load'), withCursor, 'the cursor is gone');
  await page.click('#replay > summary');
  await rendered(page, 3);
  assert.equal(await pixels(page, 'chart-load'), withCursor, 'the cursor is back where it was');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Pixels within a small distance of an sRGB colour, on a canvas.
async function pixelsNear(page, id, [r, g, b], tolerance = 24) {
  return page.evaluate(({ id, r, g, b, tolerance }) => {
    const data = document.getElementById(id).getContext('2d').getImageData(0, 0, 4000, 4000).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < tolerance && Math.abs(data[i + 1] - g) < tolerance && Math.abs(data[i + 2] - b) < tolerance) count++;
    }
    return count;
  }, { id, r, g, b, tolerance });
}

// The cursor's colour in the light theme: no data is drawn in it.
const CURSOR = [190, 0, 140];

test('the load chart\'s cursor is in a colour of its own, and absent where no replay is shown', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  await settled(page);
  assert.ok(await pixelsNear(page, 'chart-load', CURSOR) > 50, 'the cursor and its label are drawn');
  await page.click('#replay > summary');
  await rendered(page, 2);
  assert.equal(await pixelsNear(page, 'chart-load', CURSOR), 0, 'no cursor once the replay is closed');
  await page.context().close();
  // An embed of the load chart shows no replay: no cursor either.
  // (Opened once its charts are final; an embed's address keeps its own
  // pairs, so it is never 'settled' on the bare link.)
  const embed = await open(browser, `${base}?${HERD}&embed=load`);
  assert.equal(await pixelsNear(embed, 'chart-load', CURSOR), 0, 'no cursor in embed=load');
  assert.deepEqual(embed.problems, []);
  await embed.context().close();
});

test('pressing play changes the replay over time, and pause stops it', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  const before = await pixels(page, 'chart-replay');
  const start = await at(page);
  await page.click('#replay-play');
  await page.waitForFunction((t) => Number(document.body.dataset.replayAt) > t + 0.05, start);
  assert.notEqual(await pixels(page, 'chart-replay'), before, 'the replay canvas changed');
  assert.equal(await page.textContent('#replay-play'), 'Pause');
  await page.click('#replay-play');
  const stopped = await at(page);
  await frames(page, 30);
  assert.equal(await at(page), stopped);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('scrubbing moves the load chart cursor and the text line; a click on the load chart moves the replay', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  const load = await pixels(page, 'chart-load');
  const text = await page.textContent('#replay-text');
  await scrubTo(page, 500);
  assert.ok(Math.abs((await at(page)) - 15) < 0.05, 'half the slider is half the horizon');
  assert.notEqual(await pixels(page, 'chart-load'), load, 'the cursor moved');
  const moved = await page.textContent('#replay-text');
  assert.notEqual(moved, text);
  assert.match(moved, /^At 15\.00 s, /);
  // A click a quarter of the way into the load chart's plot.
  const box = await page.locator('#chart-load').boundingBox();
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const clicked = await at(page);
  assert.ok(clicked > 5 && clicked < 25 && Math.abs(clicked - 15) > 0.01, `clicked to ${clicked}`);
  // Keys: full stop steps one bucket (0.1 s), k plays.
  await page.focus('#chart-replay');
  await page.keyboard.press('.');
  assert.ok(Math.abs((await at(page)) - clicked - 0.1) < 1e-3);
  await page.keyboard.press('k');
  assert.equal(await page.textContent('#replay-play'), 'Pause');
  await page.keyboard.press('k');
  // Dragging with the button held scrubs while it moves, before any click
  // (the focus on the replay may have scrolled: measure the chart again).
  await page.locator('#chart-load').scrollIntoViewIfNeeded();
  const area = await page.locator('#chart-load').boundingBox();
  await page.mouse.move(area.x + area.width * 0.3, area.y + area.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * 0.8, area.y + area.height * 0.5, { steps: 4 });
  const dragged = await at(page);
  await page.mouse.up();
  assert.ok(dragged > clicked + 3, `dragged to ${dragged}, clicked at ${clicked}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('opened by hand it stands still until Play, with or without reduced motion; Play moves it', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${base}?v=1&horizon=10`);
    await settled(page);
    assert.equal(await page.getAttribute('#replay', 'open'), null, 'a lesson without a moment keeps it closed');
    await page.click('#replay > summary');
    await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
    // A state, not a time: a frame painted after the fold opened.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(await at(page), 0, `reduced motion ${reducedMotion}: still`);
    assert.equal(await page.textContent('#replay-play'), 'Play');
    await page.click('#replay-play');
    await page.waitForFunction(() => Number(document.body.dataset.replayAt) > 0);
    assert.equal(await page.textContent('#replay-play'), 'Pause');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the same link opens the replay at the same instant with identical pixels', async () => {
  const shots = [];
  for (let i = 0; i < 2; i++) {
    const page = await open(browser, `${base}?${HERD}`);
    await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
    shots.push([await at(page), await pixels(page, 'chart-replay'), await page.textContent('#replay-text')]);
    await page.context().close();
  }
  assert.deepEqual(shots[0], shots[1]);
});

test('a scrubbed instant rides in the link: a fresh page opens the replay there, pixel for pixel', async () => {
  const page = await open(browser, `${base}?${HERD}`);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  await scrubTo(page, 437);
  const instant = await at(page);
  assert.match(new URL(page.url()).hash, /^#at=13\.11\d*$/, 'the fragment carries the instant');
  assert.equal(new URL(page.url()).search, `?${HERD}`, 'the settings are untouched');
  const shot = [await pixels(page, 'chart-replay'), await page.textContent('#replay-text')];
  const fresh = await open(browser, page.url());
  await fresh.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  assert.equal(await at(fresh), instant);
  assert.deepEqual([await pixels(fresh, 'chart-replay'), await fresh.textContent('#replay-text')], shot);
  // A link without a moment of its own opens at its instant too, still.
  const plain = await open(browser, `${base}?v=1&horizon=10#at=4.5`);
  await plain.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  assert.equal(await at(plain), 4.5);
  assert.equal(await plain.textContent('#replay-play'), 'Play');
  // Hostile fragments are no instant: the replay stays closed.
  const hostile = await open(browser, `${base}?v=1&horizon=10#at=<img src=x onerror=alert(1)>`);
  assert.equal(await hostile.getAttribute('#replay', 'open'), null);
  for (const p of [page, fresh, plain, hostile]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});
