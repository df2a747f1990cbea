// The first chart's module (first/): what a reader downloads first, and
// the lesson's chart it draws before the page's own module (page/) is
// even asked for; that chart is the one the page then draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { servePage, open, settled, pixels, inked, pickPreset, withoutBefore } from './harness.mjs';

let base, browser;
servePage((ready) => ({ base, browser } = ready));

const PAGE_MODULE = /retry-playground-page(_bg)?\.(js|wasm)$/;

// On the suite's build (test-hooks) the first module also carries the
// canvas's test exports, about 5 KB: the budget holds with them.
test('the first screen weighs at most its budget (200 KB gzip, 25 KB more in Russian), the page module after it', () => {
  const script = path.join(import.meta.dirname, 'weight.mjs');
  let output;
  try {
    output = execFileSync(process.execPath, [script, '--summary'], { encoding: 'utf8' });
  } catch (error) {
    assert.fail(`over budget:\n${error.stdout}`);
  }
  console.log(output);
  assert.match(output, /within budget/);
  assert.match(output, /retry-playground-page_bg\.wasm: once the first chart is drawn/);
});

test('the lesson\'s chart and words are drawn before the page\'s module is asked for', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const asked = [];
  await page.route(PAGE_MODULE, async (route) => {
    asked.push(await page.evaluate(() => ({
      link: document.body.dataset.firstLink,
      lesson: document.getElementById('lesson').textContent,
    })));
    await route.continue();
  });
  await page.goto(base);
  await page.waitForFunction(() => document.body.dataset.link !== undefined, null, { timeout: 90000 });
  assert.ok(asked.length >= 1, 'the page module was fetched');
  // The default page is the herd's preset: the link of the page's own
  // runs, drawn and told.
  assert.equal(asked[0].link, await page.evaluate(() => document.body.dataset.link));
  assert.match(asked[0].link, /clients=2000/);
  assert.match(asked[0].lesson, /2000 clients fail together/);
  await context.close();
});

for (const [name, query, canvas] of [
  // Presets whose replay stays closed: the page's load chart has no cursor.
  ['the load chart', '?preset=throttle', 'chart-load'],
  ['the latency chart', '?preset=hedge', 'chart-latency'],
  ['the mechanism chart in Russian', '?preset=grpc&lang=ru', 'chart-mechanism'],
]) {
  test(`${name} drawn by the first module is the page's own, pixel for pixel (${query})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const alone = await context.newPage();
    await alone.route(PAGE_MODULE, (route) => route.abort());
    await alone.goto(base + query);
    await alone.waitForFunction(() => document.body.dataset.firstChartAt, null, { timeout: 90000 });
    const { count } = await inked(alone, canvas);
    assert.ok(count > 1000, `${canvas} is drawn (${count} pixels inked)`);
    const first = await pixels(alone, canvas);
    if (query.includes('lang=ru')) {
      const words = await alone.evaluate(() => document.getElementById('lesson').textContent + document.querySelector('h1').textContent);
      assert.match(words, /^[^a-z]*[А-Яа-яё]/, 'the lesson and the page\'s own words are Russian');
    }
    const full = await open(browser, base + query, { viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    await settled(full);
    assert.ok(await pixels(full, canvas) === first, `${canvas}: the page's final pixels differ from the first module's`);
    assert.deepEqual(full.problems, []);
    await full.context().close();
    await context.close();
  });
}

test('the page\'s module draws nothing half done over a chart the first module drew', async () => {
  // The big world, which the first module leaves to the page, run by the
  // page a few units of work a task (test-hooks), so that it shows how far
  // it got for long; its chart then marked as the first module marks the
  // chart it drew (the test above holds the mark to the page's link).
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => { window.testWorkPerTask = 64; });
  await page.goto(`${base}?v=1&rate=20000&horizon=120&compare=on`);
  await page.waitForFunction(() => document.getElementById('progress')?.hidden === false, null, { timeout: 90000 });
  const drawnSoFar = await page.evaluate(() => {
    document.body.dataset.firstLink = location.search.slice(1);
    return Number(document.body.dataset.partialDraws || 0);
  });
  const load = await pixels(page, 'chart-load');
  // Two more looks at the progress, each of which draws the runs so far
  // on a chart the first module did not draw.
  for (let look = 0; look < 2; look++) {
    const said = await page.evaluate(() => document.getElementById('progress').textContent);
    await page.waitForFunction((was) => document.getElementById('progress').textContent !== was, said, { timeout: 90000 });
  }
  assert.equal(await page.evaluate(() => Number(document.body.dataset.partialDraws || 0)), drawnSoFar);
  assert.ok(await pixels(page, 'chart-load') === load, 'the chart was drawn over');
  await page.evaluate(() => window.wasmBindings.pace_for_test(0));
  await settled(page);
  // Its own chart final, the mark goes.
  assert.equal(await page.evaluate(() => document.body.dataset.firstLink), undefined);
  await page.close();
});

for (const [what, query] of [
  // 2.4 million operations a policy: far more work than the first module
  // runs at once (first/src/lib.rs: FIRST_WORK).
  ['a world too heavy for it', '?v=1&rate=20000&horizon=120&compare=on'],
  ['a chapter', '?chapter=herd'],
  ['an embed', '?preset=herd&embed=load'],
]) {
  test(`the first module leaves ${what} to the page's module (${query})`, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.route(PAGE_MODULE, (route) => route.abort());
    await page.goto(base + query);
    // It drew nothing, asked for the page's module, and the page says that failed.
    await page.waitForFunction(() => /could not start:/.test(document.getElementById('starting-why').textContent),
      null, { timeout: 90000 });
    assert.deepEqual(await page.evaluate(() => [document.body.dataset.firstLink, document.body.dataset.firstChartAt,
      document.getElementById('starting').hidden]), [undefined, undefined, false]);
    await context.close();
  });
}

test('a chapter and an embed ask for the page\'s module at once: they start without the first chart\'s', async () => {
  for (const query of ['?chapter=herd', '?preset=herd&embed=load']) {
    // Opened once the page's module has drawn its charts.
    const page = await open(browser, base + query, {
      serviceWorkers: 'block',
      before: (page) => page.route(/retry-playground-first/, (route) => route.abort()),
    });
    assert.equal(await page.evaluate(() => document.getElementById('starting').hidden), true);
    await page.context().close();
  }
});

test('in Russian, every preset\'s first screen shows the lesson and the chart the page then shows', async () => {
  const full = await open(browser, `${base}?lang=ru`, { viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const alone = await context.newPage();
  await alone.route(PAGE_MODULE, (route) => route.abort());
  const values = await full.$$eval('#preset option:not([disabled])', (all) => all.map((o) => o.value));
  let drawn = 0;
  for (const value of values) {
    await pickPreset(full, value);
    await withoutBefore(full);
    const search = await full.evaluate(() => location.search);
    const [lesson, canvas, replay] = await full.evaluate(() => [document.getElementById('lesson').dataset.text,
      document.querySelector('#key-slot canvas').id, document.getElementById('replay').open]);
    await alone.goto(base + search);
    await alone.waitForFunction(() => document.body.dataset.firstChartAt
      || /не смог/.test(document.getElementById('starting-why').textContent), null, { timeout: 90000 });
    if (!await alone.evaluate(() => document.body.dataset.firstChartAt)) continue;
    drawn++;
    assert.equal(await alone.evaluate(() => document.getElementById('lesson').textContent), lesson, search);
    // The replay's cursor is the page's alone.
    if (!(replay && canvas === 'chart-load')) {
      assert.ok(await pixels(alone, canvas) === await pixels(full, canvas), `${search}: ${canvas} differs`);
    }
  }
  // Every preset whose lesson's chart is the load, latency or mechanism chart.
  assert.ok(drawn >= 20, `the first module drew ${drawn} of ${values.length} presets`);
  assert.deepEqual(full.problems, []);
  await full.context().close();
  await context.close();
});
