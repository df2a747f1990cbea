// The built page, as a person uses it, in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { servePage, open, openGroup, rendered, renders, settled, swept, pixels, inked, withoutBefore, openShare } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const CHARTS = ['chart-load', 'chart-pauses', 'chart-latency'];

async function chartsInked(page, charts = CHARTS) {
  for (const id of charts) {
    const { count, total } = await inked(page, id);
    // Axes, labels and data cover far more than 1 % of a chart.
    assert.ok(count > total / 100, `${id} is blank: ${count} of ${total} pixels inked`);
  }
}

test('opens on the first preset without errors and draws every chart', async () => {
  const page = await open(browser, base);
  const firstChart = await page.evaluate(() => Number(document.body.dataset.drawnAt));
  await chartsInked(page);
  await swept(page);
  await chartsInked(page, ['chart-sweep']);
  assert.match(page.url(), /\?v=1&compare=on&attempts=8&/);
  assert.match(await page.textContent('#lesson'), /2000 clients/);
  assert.equal(await page.isHidden('#starting'), true, 'the start-up message goes once the simulator runs');
  assert.deepEqual(page.problems, []);
  console.log(`navigation to first chart: ${firstChart} ms (performance.now() at the end of the first render)`);
  await page.context().close();
});

test('moving a control changes the link and the chart', async () => {
  const page = await open(browser, base);
  const before = await pixels(page, 'chart-pauses');
  const count = await renders(page);
  await page.selectOption('#in-jitter', { label: 'Full' });
  await rendered(page, count + 1);
  assert.doesNotMatch(page.url(), /jitter=/, 'full is the default, so the key leaves the link');
  assert.match(await page.textContent('#lesson'), /2000 clients/, 'the lesson stays');
  // A took B's jitter: one change, though B's own difference is gone.
  assert.equal(await page.textContent('#changed'), 'You changed 1 setting');
  assert.notEqual(await pixels(page, 'chart-pauses'), before);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('typing a value into a number box changes the link and the chart', async () => {
  const page = await open(browser, base);
  const before = await pixels(page, 'chart-pauses');
  const count = await renders(page);
  await page.fill('#num-attempts', '7');
  await page.press('#num-attempts', 'Enter');
  await rendered(page, count + 1);
  assert.match(page.url(), /attempts=7&/);
  assert.equal(await page.inputValue('#in-attempts'), '7', 'the slider follows the box');
  assert.notEqual(await pixels(page, 'chart-pauses'), before);
  await page.context().close();
});

test('the keyboard alone can change a control', async () => {
  const page = await open(browser, base);
  const before = await pixels(page, 'chart-pauses');
  const count = await renders(page);
  await page.focus('#in-attempts');
  await page.keyboard.press('ArrowLeft');
  await rendered(page, count + 1);
  assert.match(page.url(), /attempts=7&/);
  assert.notEqual(await pixels(page, 'chart-pauses'), before);
  await page.context().close();
});

test('a link opened in a fresh page reproduces the same pixels and numbers', async () => {
  const page = await open(browser, base);
  await page.selectOption('#in-jitter', { label: 'Decorrelated' });
  await openGroup(page, 'randomness');
  await page.fill('#num-seed', '12345');
  await page.press('#num-seed', 'Enter');
  await page.waitForFunction(() => location.search.includes('seed=12345'));
  await settled(page);
  // The lesson's chart shows the state before the change, faint: the
  // link reproduces the chart without it.
  await withoutBefore(page);
  const link = page.url();
  const summary = await page.textContent('#summary');
  const shots = await Promise.all(CHARTS.map((id) => pixels(page, id)));
  await page.context().close();

  const fresh = await open(browser, link);
  assert.equal(await fresh.textContent('#summary'), summary);
  for (const [i, id] of CHARTS.entries()) {
    assert.equal(await pixels(fresh, id), shots[i], `${id} differs`);
  }
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
});

// Pixels within `tolerance` of an sRGB colour, on a canvas.
async function pixelsNear(page, id, [r, g, b], tolerance = 24) {
  return page.evaluate(({ id, r, g, b, tolerance }) => {
    const canvas = document.getElementById(id);
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < tolerance && Math.abs(data[i + 1] - g) < tolerance && Math.abs(data[i + 2] - b) < tolerance) count++;
    }
    return count;
  }, { id, r, g, b, tolerance });
}

test('compare mode draws both policies and keeps both in the link', async () => {
  const page = await open(browser, base);
  // The herd preset compares A (no jitter, blue, solid) with B (full jitter, vermillion, dashed).
  for (const id of CHARTS) {
    assert.ok(await pixelsNear(page, id, [0, 114, 178]) > 100, `${id}: too little of A's blue`);
    assert.ok(await pixelsNear(page, id, [213, 94, 0]) > 100, `${id}: too little of B's vermillion`);
  }
  assert.match(await page.textContent('#summary'), /B - A/);
  // Shares differ by percentage points: 63.2 % to 96.2 % is +33.0 pp, not +33.0 %.
  const success = await page.$$eval('#summary tr', (rows) => [...rows.find((r) => r.textContent.startsWith('User-visible success')).cells].map((c) => c.textContent));
  assert.match(success[3], /^[+-]?\d+\.\d pp$/, `B - A of a share: ${success[3]}`);
  // Edit B through the page: its jitter goes to equal, A's stays none.
  await page.click('#edit-b');
  assert.equal(await page.getAttribute('#edit-b', 'aria-pressed'), 'true');
  assert.equal(await page.inputValue('#in-jitter'), '1', 'the controls show B (full jitter)');
  await page.selectOption('#in-jitter', { label: 'Equal' });
  await settled(page);
  assert.match(page.url(), /&jitter=none&.*&B\.jitter=equal$/);
  await page.click('#edit-a');
  assert.equal(await page.inputValue('#in-jitter'), '0', 'the controls show A again (no jitter)');
  // Choosing a preset while editing B shows that preset's A.
  await page.click('#edit-b');
  const storm = await page.$$eval('#preset option', (all) => all.findIndex((o) => o.textContent.startsWith('The retry storm')));
  await page.selectOption('#preset', String(storm));
  await settled(page);
  assert.equal(await page.getAttribute('#edit-a', 'aria-pressed'), 'true');
  assert.equal(await page.inputValue('#num-base'), '0.001', "the storm's A");
  await page.selectOption('#preset', '0');
  await page.click('#edit-b');
  await page.selectOption('#in-jitter', { label: 'Equal' });
  await page.click('#edit-a');
  await settled(page);
  await withoutBefore(page);
  await swept(page);
  assert.ok(await pixelsNear(page, 'chart-sweep', [213, 94, 0]) > 100, 'the sweep lacks B');
  const link = page.url();
  const summary = await page.textContent('#summary');
  const all = [...CHARTS, 'chart-sweep'];
  const shots = await Promise.all(all.map((id) => pixels(page, id)));
  await page.context().close();

  const fresh = await open(browser, link);
  await swept(fresh);
  assert.equal(await fresh.textContent('#summary'), summary);
  for (const [i, id] of all.entries()) {
    assert.equal(await pixels(fresh, id), shots[i], `${id} differs in a fresh page`);
  }
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
});

// The rows dim by the policy the controls show: switching to B shows its
// own budget's fields, which A's lack of a budget dims.
test('the edit switch dims the rows of the policy it shows', async () => {
  const page = await open(browser, `${base}?v=1&compare=on&B.budget=ratio`);
  await settled(page);
  const dimmed = () => page.$eval('#param-b_pct', (row) => row.classList.contains('inactive'));
  assert.equal(await dimmed(), true, 'A has no budget: its share is dimmed');
  await page.click('#edit-b');
  assert.equal(await dimmed(), false, "B's ratio budget has a share");
  await page.click('#edit-a');
  assert.equal(await dimmed(), true, 'A again');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the layers view counts 27 calls at the bottom, and 3 with one owner of retries', async () => {
  const page = await open(browser, base);
  const index = await page.$$eval('#preset option', (all) => all.findIndex((o) => o.textContent.startsWith('3 x 3 x 3')));
  await page.selectOption('#preset', String(index));
  await settled(page);
  const text = await page.textContent('#layers');
  assert.match(text, /A: layer 3: 27\.00 calls per request \(at 100 % failure: 3\u00b3 = 27\)/);
  assert.match(text, /B: layer 3: 3\.00 calls per request/);
  // One layer: the view goes away.
  await page.fill('#num-layers', '1');
  await page.press('#num-layers', 'Enter');
  await settled(page);
  assert.equal(await page.isHidden('#layers'), true);
  await page.context().close();
});

// Each layer's line says what its service has of its own, and its
// button opens that service's controls with the focus on its attempts
// (the top's are the policy's).
test('a layer\'s line names its service\'s own settings and opens its controls', async () => {
  const page = await open(browser, `${base}?v=1&layers=3&l2_attempts=2&l2_cap=0.25`);
  await settled(page);
  const second = page.locator('#layers li').nth(1);
  assert.equal(await second.locator('.layer-own').textContent(), 'Attempts at layer 2: 2 \u00b7 Cap at layer 2: 0.25 s');
  assert.equal(await page.locator('#layers li').nth(2).locator('.layer-own').count(), 0, 'the third service has nothing of its own');
  await second.locator('button.layer-open').click();
  assert.equal(await page.evaluate(() => document.getElementById('group-layers').open), true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'num-l2_attempts');
  await page.locator('#layers li').nth(0).locator('button.layer-open').click();
  assert.equal(await page.evaluate(() => document.getElementById('group-policy').open), true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'num-attempts');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// A layer's bar ends in grey for the calls it made for nobody: the grey
// is that share of the bar, as the line beside it says; its spark draws
// its calls over time.
test('a layer\'s bar shows in grey the calls made for a caller that gave up', async () => {
  const page = await open(browser, `${base}?preset=orphans`);
  await settled(page);
  const bars = await page.$$eval('#layers li', (items) => items.map((item) => {
    const bar = item.querySelector('.bar').getBoundingClientRect().width;
    const grey = item.querySelector('.bar-nobody')?.getBoundingClientRect().width ?? 0;
    return { text: item.textContent, share: grey / bar };
  }));
  const greyed = bars.filter((b) => b.share > 0);
  assert.equal(greyed.length, 1, JSON.stringify(bars));
  const [, calls, nobody] = /([\d.]+) calls per request.*?([\d.]+) of them for nobody/.exec(greyed[0].text);
  assert.ok(Math.abs(greyed[0].share - nobody / calls) < 0.01, `${greyed[0].share} against ${nobody} of ${calls}`);
  assert.match(await page.textContent('#layers'), /In grey, at the end of a bar and at the top of a spark/);
  // Under each line its calls a second over the run, on one scale: the
  // top of each spark's area stands at its busiest bucket's share of the
  // busiest of all (read back from its label, rounded to a call a
  // second); only the greyed layer has calls for nobody in it.
  const sparks = await page.$$eval('#layers li svg.layer-spark', (all) => all.map((svg) => ({
    peak: Number(/at most (\d+)/.exec(svg.getAttribute('aria-label'))[1]),
    top: svg.querySelector('.spark-calls').getBBox().y,
    nobody: svg.querySelector('.spark-nobody') !== null,
    height: svg.getBoundingClientRect().height,
  })));
  assert.equal(sparks.length, bars.length);
  const busiest = Math.max(...sparks.map((s) => s.peak));
  for (const spark of sparks) {
    assert.ok(spark.height > 10, JSON.stringify(spark));
    const expected = 20 * (1 - spark.peak / busiest);
    // Each peak read within half a call a second: y within 20 / busiest.
    assert.ok(Math.abs(spark.top - expected) < 20 / busiest + 0.1, `${JSON.stringify(spark)} against ${expected}`);
  }
  assert.deepEqual(sparks.map((s) => s.nobody), bars.map((b) => b.share > 0));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// "Your system": a dashboard's numbers typed into the form become the
// world (the link says so), the latency chart marks the typed p50 and p99,
// a p99 below the p50 is read as the p50 with a message, and the form
// shows what it used.
test('your system builds the world from a dashboard\'s numbers', async () => {
  const page = await open(browser, `${base}?preset=herd`);
  await settled(page);
  await page.click('#yours > summary');
  await page.waitForSelector('#y-rate');
  assert.equal(await page.inputValue('#y-rate'), '100', 'the form starts from the state shown');
  const typed = { rate: '40', service_p50: '25', service_p99: '300', failure: '2', workers: '16', servers: '3', layers: '1', l2_failure: '1' };
  for (const [id, value] of Object.entries(typed)) await page.fill(`#y-${id}`, value);
  assert.equal(await page.isVisible('#y-l3_failure'), false, 'one service on the way shows one');
  await page.click('#yours-build');
  await settled(page);
  const query = new URL(page.url()).searchParams;
  assert.equal(query.get('workload'), null, 'Poisson arrivals, the default');
  assert.equal(query.get('outage_for'), null, 'no fault on a normal day');
  for (const [key, value] of [['rate', '40'], ['service', 'lognormal'], ['service_p50', '0.025'], ['service_p99', '0.3'],
    ['failure', '0.02'], ['workers', '16'], ['servers', '3'], ['layers', '2'], ['l2_failure', '0.01']]) {
    assert.equal(query.get(key), value, key);
  }
  assert.equal(await page.inputValue('#preset'), 'custom', 'no preset\'s lesson stays');
  const drawn = await page.evaluate(() => window.wasmBindings.text_drawn_for_test());
  assert.match(drawn, /service alone, p50 0\.025 s/);
  assert.match(drawn, /service alone, p99 0\.300 s/);
  // 40 a second less 1 % at the service on the way, 39.6, each 44.2 ms
  // on average (the log-normal of p50 25 ms and p99 300 ms: sigma =
  // ln 12 / 2.326, mean 25 e^(sigma^2 / 2)): 1.75 of 48 workers busy.
  assert.match(await page.textContent('#yours-fit'), /keep 4 % of its 48 workers busy/);
  assert.equal(await page.isHidden('#yours-notes'), true);
  await page.fill('#y-service_p99', '10');
  await page.click('#yours-build');
  await page.waitForFunction(() => /p99=0.025(&|$)/.test(location.search));
  assert.match(await page.textContent('#yours-notes'), /Latency p99: 10 ms is below the p50; read as 25 ms/);
  assert.equal(await page.inputValue('#y-service_p99'), '25', 'the form shows what it used');
  // Then the stress report, one click away.
  await page.click('#yours button[data-open=stress]');
  assert.equal(await page.getAttribute('#stress', 'open'), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the classic preset sweeps four strategies', async () => {
  const page = await open(browser, base);
  const index = await page.$$eval('#preset option', (all) => all.findIndex((o) => o.textContent.startsWith('Token bucket or circuit breaker')));
  await page.selectOption('#preset', String(index));
  await settled(page);
  await swept(page);
  // no retries (grey), 3 retries (reddish purple), token bucket (violet),
  // breaker (green): none in the policies' blue or vermillion.
  for (const colour of [[150, 150, 150], [204, 121, 167], [120, 94, 240], [0, 158, 115]]) {
    assert.ok(await pixelsNear(page, 'chart-sweep', colour, 16) > 60, `no curve in ${colour}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the Copy link button copies the address that reproduces the page', async () => {
  const page = await open(browser, base);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openGroup(page, 'randomness');
  await page.fill('#num-seed', '77');
  await page.press('#num-seed', 'Enter');
  await settled(page);
  await openShare(page);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent.length > 0);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  assert.match(copied, /seed=77/);
  assert.equal(await page.textContent('#copy-status'), 'Link copied.');
  assert.equal(await page.isHidden('#copy-field'), true);
  await page.context().close();
});

test('the browser computes the same numbers as the native command line', async () => {
  const link = 'v=1&attempts=5&jitter=proportional&jfrac=0.4&base=0.03&cap=1&timeout=0.2&deadline=1.5'
    + '&rate=300&horizon=8&failure=0.3&workers=10&slope=0.002&lost=0.02&seed=99';
  const page = await open(browser, `${base}?${link}`);
  const inBrowser = await page.evaluate((link) => window.wasmBindings.report_json(link), link);
  const binary = process.env.NATIVE_CLI
    ? path.resolve(process.env.NATIVE_CLI)
    : path.resolve(import.meta.dirname, '../../target/debug/retry-playground');
  const native = spawnSync(binary, [link], { encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  const nativeText = native.stdout.trim();
  // Equal text means equal bits: floats are printed shortest-round-trip.
  let at = 0;
  while (at < inBrowser.length && inBrowser[at] === nativeText[at]) at++;
  assert.ok(at === inBrowser.length && at === nativeText.length,
    `first difference at ${at}: browser ...${inBrowser.slice(at - 60, at + 40)} vs native ...${nativeText.slice(at - 60, at + 40)}`);
  await page.context().close();
});

test('a hostile link loads, says what it fixed, and never becomes markup', async () => {
  const hostile = '?attempts=1e309&base=-4&cap=NaN&jitter=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E'
    + '&seed=%3Cscript%3Ealert(1)%3C%2Fscript%3E&horizon=-5&failure=7&bogus=1';
  const page = await open(browser, base + hostile);
  const notices = await page.textContent('#notices');
  for (const key of ['attempts', 'base', 'cap', 'jitter', 'seed', 'horizon', 'failure', 'bogus', 'v']) {
    assert.ok(notices.includes(`${key}:`), `no notice for ${key}: ${notices}`);
  }
  assert.equal(await page.locator('#notices img, #notices script, img').count(), 0);
  assert.match(page.url(), /base=0.001&/);
  assert.match(page.url(), /horizon=1&failure=1$/);
  assert.doesNotMatch(page.url(), /1e309|script|bogus/);
  await chartsInked(page);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a configuration too big for the page is cut short and says so', async () => {
  const page = await open(browser, `${base}?v=1&rate=20000&horizon=3600&failure=0.5`);
  assert.equal(await page.isVisible('#limit'), true);
  assert.match(await page.textContent('#limit'), /stopped there/);
  await swept(page);
  await chartsInked(page, ['chart-load', 'chart-latency', 'chart-sweep']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every preset loads without errors and draws every chart', async () => {
  const page = await open(browser, base);
  const options = await page.$$eval('#preset option:not([disabled])', (all) => all.map((o) => o.value));
  assert.ok(options.length >= 9, `only ${options.length} presets`);
  for (const value of options) {
    const count = await renders(page);
    await page.selectOption('#preset', value);
    if (value !== '0') await rendered(page, count + 1);
    await settled(page);
    // A preset where no retry happens shows a message instead of pauses.
    const retried = !/Operations retried0\.0 %/.test(await page.textContent('#summary'));
    await chartsInked(page, retried ? CHARTS : ['chart-load', 'chart-latency']);
    assert.doesNotMatch(await page.textContent('#lesson'), /Your own settings/, `preset ${value} lost its lesson`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a panic shows the banner with a way back', async () => {
  const page = await open(browser, base);
  // Only a page built with the test-hooks feature exports it (scripts/test builds one).
  assert.equal(await page.evaluate(() => typeof window.wasmBindings.panic_for_test), 'function',
    'dist/ lacks panic_for_test: build it with TRUNK_BUILD_FEATURES=test-hooks, as scripts/test does');
  await page.evaluate(() => { try { window.wasmBindings.panic_for_test(); } catch (e) { /* the trap */ } });
  await page.waitForSelector('#panic:not([hidden])');
  assert.match(await page.textContent('#panic'), /panic requested by a test/);
  assert.equal(await page.getAttribute('#panic a', 'href'), './');
  await page.context().close();
});

test('dark mode on a high-DPI screen paints a dark, sharper canvas', async () => {
  const page = await open(browser, base, { colorScheme: 'dark', deviceScaleFactor: 2 });
  const size = await page.evaluate(() => {
    const c = document.getElementById('chart-pauses');
    const corner = c.getContext('2d').getImageData(1, 1, 1, 1).data;
    return { ratio: c.width / c.clientWidth, corner: [...corner] };
  });
  assert.ok(Math.abs(size.ratio - 2) < 0.01, `canvas not sized by devicePixelRatio: ${size.ratio}`);
  assert.ok(size.corner[0] < 60 && size.corner[1] < 60 && size.corner[2] < 60, `background not dark: ${size.corner}`);
  await page.context().close();
});

// The trigger preset's map: computed cell by cell after the headlines,
// then a click on A's top-left cell (80 % of the workers lost for 1 s)
// opens that trigger: the link says it, the map stays (only the trigger
// changed), and A, which stays broken after the preset's 10 s, recovers.
test('a click on a cell of the map opens its world', async () => {
  const link = 'v=1&compare=on&attempts=5&shape=constant&base=0.001&jitter=none&rate=65&horizon=100&buckets=100&failure=0&workers=10&queue=1000&service_t=0.1&drop_for=10&drop_to=0.4&B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests';
  const page = await open(browser, `${base}?${link}`);
  const start = Date.now();
  await page.waitForFunction(() => Number(document.body.dataset.mapCells) === 128, null, { timeout: 60000 });
  console.log(`the map's 128 cells in the page: ${Date.now() - start} ms after the first chart`);
  const { count, total } = await inked(page, 'chart-map');
  assert.ok(count > total / 10, `the map is nearly blank: ${count} of ${total}`);
  const successA = () => page.$$eval('#summary tr', (rows) => rows.find((r) => r.textContent.startsWith('User-visible success')).cells[1].textContent);
  assert.notEqual(await successA(), '100.0 %');
  // Where A's grid is, in CSS pixels, as the page drew it.
  const [left, top, cellW, cellH] = (await page.getAttribute('#chart-map', 'data-grid')).split(',').map(Number);
  const box = await page.locator('#chart-map').boundingBox();
  const count0 = await renders(page);
  await page.mouse.click(box.x + left + cellW / 2, box.y + top + cellH / 2);
  await rendered(page, count0 + 1);
  await settled(page);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('drop_for'), '1');
  // 0.2 of the workers left is the default, which links leave out.
  assert.equal(url.searchParams.get('drop_to'), null);
  assert.equal(await page.evaluate(() => document.body.dataset.mapCells), '128', 'the map is kept');
  assert.equal(await successA(), '100.0 %');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The search for a better policy on the herd: opened, it runs after the
// charts and ends with the frontier the command line prints for the same
// link, byte for byte; a newer state (another seed) mid-search replaces
// it, and the frontier drawn is the newer one's. A button then makes a
// policy that beats A's policy B.
test('the search finds the frontier the command line finds, and a newer state replaces it', async () => {
  const herd = 'v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full';
  const binary = path.resolve('target/debug/retry-playground');
  const native = (link) => {
    const out = spawnSync(binary, ['--frontier', link], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(out.status, 0, out.stderr);
    return out.stdout.trim();
  };
  const page = await open(browser, `${base}?${herd}`);
  await settled(page);
  // Closed, the panel starts no worker, and the search's module is not
  // fetched: the first screen never pays for it.
  const workerFetched = () => page.evaluate(() => performance.getEntriesByType('resource')
    .some((e) => /\/(search-worker\.js|retry-playground-worker(_bg)?\.(js|wasm))$/.test(e.name)));
  assert.equal(await workerFetched(), false);
  await page.click('#search > summary');
  // Mid-search, another seed.
  await page.waitForFunction(() => /Searching/.test(document.getElementById('search-status').textContent));
  await openGroup(page, 'randomness');
  await page.fill('#num-seed', '2');
  await page.press('#num-seed', 'Enter');
  const newer = await page.waitForFunction(() => document.body.dataset.searched, null, { timeout: 120000 });
  const link = new URL(page.url()).search.slice(1);
  assert.match(link, /seed=2/);
  assert.equal(await newer.jsonValue(), link, 'the frontier drawn is the newer state\'s');
  // On the page's workers, one per core the browser reports.
  assert.ok(Number(await page.getAttribute('body', 'data-search-workers')) >= 1, 'the search ran on workers');
  assert.equal(await workerFetched(), true, 'the page fetched the search\'s module once it opened');
  const inPage = await page.evaluate(() => window.wasmBindings.frontier_json_for_test());
  assert.equal(inPage, native(link));
  const found = JSON.parse(inPage);
  assert.ok(found.better.length >= 1, 'something beats A on the herd');
  assert.equal(await page.locator('#better li').count(), found.better.length);
  // The team's format (here picked; a paste picks it too), and the
  // winner taken home in it: policy B, its snippet the command line's.
  await page.click('#take-home > summary');
  await page.waitForSelector('#take-home[data-loaded]', { state: 'attached' });
  await page.selectOption('#export-format', 'istio');
  const count = await renders(page);
  await page.click('#better li:first-child button.take-b-home');
  await rendered(page, count + 1);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('compare'), 'on');
  assert.equal(url.searchParams.get('B.jitter'), 'decorrelated');
  assert.match(await page.textContent('#snippet-heading'), /^Policy B as Istio/);
  const exported = spawnSync(binary, ['--export', 'istio', '--b', url.search.slice(1)], { encoding: 'utf8' });
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal((await page.inputValue('#snippet')).trimEnd(), exported.stdout.trimEnd());
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The stress report runs on the search's workers, a run per row in
// whatever order they answer: its Markdown is the command line's, byte
// for byte. A row's button opens its fault's world and keeps the report
// (the same faults of the same world); its link opens it in a fresh page.
test('the stress report is the command line\'s, a row opens its fault, its link opens the report', async () => {
  const world = 'v=1&compare=on&attempts=3&rate=40&workers=8&service_t=0.1&horizon=20&B.budget=token-bucket';
  const page = await open(browser, `${base}?${world}`);
  await settled(page);
  await page.click('#stress > summary');
  const stressed = await page.waitForFunction(() => document.body.dataset.stressed, null, { timeout: 120000 });
  const link = new URL(page.url()).search.slice(1);
  assert.equal(await stressed.jsonValue(), link);
  const markdown = decodeURIComponent((await page.getAttribute('#stress-markdown', 'href')).replace(/^data:[^,]*,/, ''));
  const native = spawnSync(path.resolve('target/debug/retry-playground'), ['--stress', '--markdown', link], { encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  assert.equal(markdown, native.stdout);
  const rows = await page.locator('#stress-table tbody tr').count();
  assert.equal(rows, markdown.split('\n').filter((line) => line.startsWith('| ')).length - 1, 'a row per run');
  // A verdict per policy's row, as the Markdown gives them, safe or not.
  const verdicts = markdown.split('\n## ')[1].split('\n').filter((line) => line.startsWith('- '));
  assert.ok(verdicts.length > 0);
  assert.equal(await page.locator('#stress-verdicts li:not([data-warning])').count(), verdicts.length);
  const first = (await page.textContent('#stress-verdicts li:not([data-warning])')).trim();
  assert.equal(first, verdicts[0].slice(2).replaceAll('**', ''));
  // The first row: the outage of 5 s, from 30 s (the default start).
  const count = await renders(page);
  await page.click('#stress-table tbody tr:nth-child(1) button');
  await rendered(page, count + 1);
  const opened = new URL(page.url()).searchParams;
  assert.equal(opened.get('outage_for'), '5');
  assert.equal(opened.get('horizon'), '95');
  assert.equal(await page.getAttribute('body', 'data-stressed'), link, 'the report stays');
  // The report's link, in a fresh page, opens the panel and runs it.
  const shared = await page.getAttribute('#stress-link', 'href');
  assert.equal(shared, `?${link}#stress`);
  const fresh = await open(browser, `${base}${shared}`);
  const again = await fresh.waitForFunction(() => document.body.dataset.stressed, null, { timeout: 120000 });
  assert.equal(await again.jsonValue(), link);
  assert.equal(await fresh.getAttribute('#stress', 'open'), '');
  assert.deepEqual([...page.problems, ...fresh.problems], []);
  await fresh.context().close();
  await page.context().close();
});

// The page's analyses refuse the worlds the command line refuses, from
// the same definition and in its words: the search on the contention
// model (its backoffs race for one row), the stress report on the layers
// preset (its dependency fails every call, so no fault takes goodput away).
test('the search and the stress report refuse where the command line does, in its words', async () => {
  const binary = path.resolve('target/debug/retry-playground');
  for (const [preset, flag, panel] of [['contention', 'frontier', 'search'], ['layers', 'stress', 'stress']]) {
    const page = await open(browser, `${base}?preset=${preset}`);
    await settled(page);
    const native = spawnSync(binary, [`--${flag}`, `preset=${preset}`], { encoding: 'utf8' });
    assert.equal(native.status, 1, `${preset}: the command line refuses`);
    const why = native.stderr.trim().replace(/^[a-z]+: /, '');
    assert.ok(why.length > 20, native.stderr);
    await page.click(`#${panel} > summary`);
    await page.waitForFunction(([id, text]) => document.getElementById(id).textContent === text,
      [`${panel}-status`, why], { timeout: 30000 });
    assert.equal(await page.getAttribute('body', 'data-search-workers'), null, `${preset}: no worker ran`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

// Where the search's module cannot load (a server that lost it), the
// page says so in the console and searches on its own thread: the same
// frontier, no worker, no search left hanging.
test('the search finds its frontier on the page when its module cannot load', async () => {
  const link = 'v=1&rate=80&horizon=10&failure=0.2&seed=3';
  const page = await open(browser, `${base}?${link}`, {
    serviceWorkers: 'block',
    before: (page) => page.route('**/retry-playground-worker_bg.wasm', (route) => route.fulfill({ status: 404, body: '' })),
  });
  await settled(page);
  await page.click('#search > summary');
  const searched = await page.waitForFunction(() => document.body.dataset.searched, null, { timeout: 120000 });
  assert.equal(await searched.jsonValue(), new URL(page.url()).search.slice(1));
  assert.equal(await page.getAttribute('body', 'data-search-workers'), null, 'not on workers');
  const binary = path.resolve('target/debug/retry-playground');
  const native = spawnSync(binary, ['--frontier', link], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(native.status, 0, native.stderr);
  assert.equal(await page.evaluate(() => window.wasmBindings.frontier_json_for_test()), native.stdout.trim());
  // The browser's own line for the missing file is the only error.
  assert.deepEqual(page.problems.filter((problem) => !/404/.test(problem)), []);
  await page.context().close();
});
