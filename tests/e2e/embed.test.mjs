// The playground inside another page: an outer page holds it in a 600x400
// frame, as a course page or a blog post would, and the link picks what it
// shows. Screenshots of the embed, light and dark, go to tests/e2e/out/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { servePage, open, inked, pixels, openShare, STATE_WAIT } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const WIDTH = 600;
const HEIGHT = 400;
const HERD = 'v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd&clients=2000'
  + '&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full';
const SMALL = 'v=1&rate=50&horizon=10';

// An outer page with the playground at `query` in a 600x400 frame; returns
// the outer page and the frame, once the frame has drawn.
async function embedded(query, { colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width: WIDTH + 100, height: HEIGHT + 100 }, colorScheme });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => { if (message.type() === 'error') page.problems.push(message.text()); });
  page.on('pageerror', (error) => page.problems.push(String(error)));
  await page.setContent(`<!doctype html><body style="margin:0; background:${colorScheme === 'dark' ? '#000' : '#ddd'}">
    <iframe src="${base}?${query}" width="${WIDTH}" height="${HEIGHT}" style="border:0; display:block"
      title="Retry playground"></iframe></body>`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1, null, STATE_WAIT);
  return { page, frame };
}

// What shows in the frame: elements with a box that are neither inside
// one of `allowed` nor one of their containers; where the chart stands;
// how far the document reaches; the rows of the embed's controls.
async function layout(frame, canvas, allowed) {
  return frame.evaluate(({ canvas, allowed }) => {
    const keep = allowed.map((s) => document.querySelector(s)).filter(Boolean);
    const shown = (e) => {
      const box = e.getBoundingClientRect();
      const style = getComputedStyle(e);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && Number(style.opacity) > 0;
    };
    const strays = [...document.body.querySelectorAll('*')]
      .filter((e) => shown(e) && !keep.some((k) => k.contains(e) || e.contains(k)))
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
    const chart = document.getElementById(canvas);
    const box = chart.getBoundingClientRect();
    return {
      strays,
      box: { left: box.left, top: box.top, right: box.right, bottom: box.bottom },
      bitmap: [chart.width, chart.height, chart.clientWidth, chart.clientHeight],
      reach: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
      rows: [...document.querySelectorAll('#embed-controls .param')].map((row) => row.id),
    };
  }, { canvas, allowed });
}

const FRAME_PARTS = ['#lesson-title', '#lesson', '#notices', '#limit', '#embed-controls', '#embed-footer'];

function assertInside(shape, what) {
  const { box, bitmap, reach } = shape;
  assert.ok(box.left >= 0 && box.top >= 0 && box.right <= WIDTH && box.bottom <= HEIGHT,
    `${what}: the chart reaches past the frame: ${JSON.stringify(box)}`);
  // Tall enough to read, and drawn at the size it is shown (not stretched).
  assert.ok(box.bottom - box.top >= 150, `${what}: the chart is squeezed: ${JSON.stringify(box)}`);
  assert.deepEqual(bitmap.slice(0, 2), bitmap.slice(2), `${what}: canvas bitmap vs box`);
  assert.ok(reach[0] <= WIDTH && reach[1] <= HEIGHT, `${what}: the page scrolls in its frame: ${reach}`);
}

const EMBEDS = [
  { query: `${HERD}&embed=load&controls=jitter,attempts`, canvas: 'chart-load', rows: ['param-jitter', 'param-attempts'] },
  { query: `${SMALL}&failure=0.3&embed=pauses&controls=base`, canvas: 'chart-pauses', rows: ['param-base'] },
  { query: `${SMALL}&embed=latency&controls=timeout,deadline,attempts`, canvas: 'chart-latency',
    rows: ['param-timeout', 'param-deadline', 'param-attempts'] },
  { query: `${SMALL}&budget=ratio&embed=mechanism&controls=b_pct`, canvas: 'chart-mechanism', rows: ['param-b_pct'] },
  { query: 'v=1&workload=contention&clients=20&embed=contention&controls=clients', canvas: 'chart-contention',
    rows: ['param-clients'] },
  { query: `${SMALL}&embed=sweep&controls=attempts,budget`, canvas: 'chart-sweep', rows: ['param-attempts', 'param-budget'] },
  { query: `${HERD}&embed=replay&controls=jitter`, canvas: 'chart-replay', rows: ['param-jitter'],
    parts: ['.replay-controls', '#replay-text'] },
];

for (const { query, canvas, rows, parts = [] } of EMBEDS) {
  test(`an embed of ${canvas} shows it whole in a 600x400 frame, with the lesson and its controls only`, async () => {
    const { page, frame } = await embedded(query);
    if (canvas === 'chart-sweep') {
      await frame.waitForFunction(() => document.body.dataset.swept !== undefined, null, { timeout: 30000 });
    }
    const shape = await layout(frame, canvas, [...FRAME_PARTS, ...parts, `#${canvas}`]);
    assert.deepEqual(shape.strays, [], `${canvas}: more than the embed shows`);
    assertInside(shape, canvas);
    assert.deepEqual(shape.rows, rows);
    const { count, total } = await inked(frame, canvas);
    assert.ok(count > total / 50, `${canvas} is blank: ${count} of ${total} pixels inked`);
    // The way out: the same state, without the embed, in a new tab.
    const link = await frame.evaluate(() => document.body.dataset.link);
    assert.equal(await frame.getAttribute('#open-playground', 'href'), `?${link}`);
    assert.equal(await frame.getAttribute('#open-playground', 'target'), '_blank');
    assert.equal(await frame.getAttribute('#open-playground', 'rel'), 'noopener');
    assert.ok(await frame.isVisible('#open-playground'));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('the controls an embed names change its link and redraw its chart', async () => {
  const { page, frame } = await embedded(`${HERD}&embed=load&controls=jitter,attempts`);
  const before = await pixels(frame, 'chart-load');
  const renders = await frame.evaluate(() => Number(document.body.dataset.renders));
  await frame.selectOption('#in-jitter', { label: 'Equal' });
  await frame.waitForFunction((n) => Number(document.body.dataset.renders) > n, renders);
  const search = await frame.evaluate(() => location.search);
  const link = await frame.evaluate(() => document.body.dataset.link);
  // The state moved, and the embed kept its own pairs after it.
  assert.match(link, /&jitter=equal&/);
  assert.equal(search, `?${link}&embed=load&controls=jitter,attempts`);
  assert.equal(await frame.getAttribute('#open-playground', 'href'), `?${link}`);
  assert.notEqual(await pixels(frame, 'chart-load'), before, 'the chart did not change');
  // A slider, from the keyboard.
  const drawn = await frame.evaluate(() => Number(document.body.dataset.renders));
  await frame.focus('#in-attempts');
  await frame.press('#in-attempts', 'ArrowRight');
  await frame.waitForFunction((n) => Number(document.body.dataset.renders) > n, drawn);
  assert.match(await frame.evaluate(() => location.search), /&attempts=9&.*&embed=load&controls=jitter,attempts$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a hostile embed link says what it changed, as text, and still embeds', async () => {
  const { page, frame } = await embedded(
    'v=1&embed=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&controls=wat,attempts,jitter,base,cap');
  const notices = await frame.textContent('#notices');
  assert.match(notices, /'<img src=x onerror=alert\(1\)>' must be one of lesson, load/);
  assert.match(notices, /'wat' is no parameter's key; ignored/);
  assert.match(notices, /4 controls named; an embed shows at most 3: attempts, jitter, base/);
  assert.equal(await frame.evaluate(() => document.querySelectorAll('img').length), 0);
  // The lesson's chart (the load chart for settings of one's own), and the
  // first three controls.
  const shape = await layout(frame, 'chart-load', [...FRAME_PARTS, '#chart-load']);
  assert.deepEqual(shape.strays, []);
  assertInside(shape, 'hostile');
  assert.deepEqual(shape.rows, ['param-attempts', 'param-jitter', 'param-base']);
  // The address says what the embed shows now.
  assert.match(await frame.evaluate(() => location.search), /&embed=lesson&controls=attempts,jitter,base$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Copy embed code copies an iframe that shows the current state', async () => {
  const page = await open(browser, `${base}?${HERD}&seed=5`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openShare(page);
  await page.click('#copy-embed');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent.length > 0);
  assert.match(await page.textContent('#copy-status'), /Embed code copied/);
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(snippet, /^<iframe src="[^"]+" title="Retry playground: The thundering herd after an outage" width="600" height="400" style="border:0" loading="lazy"><\/iframe>$/);
  const src = snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
  const link = await page.evaluate(() => document.body.dataset.link);
  // The preset's lesson chart, and the controls in play: the seed moved,
  // then what the lesson's "try this" changes.
  assert.equal(src, `${base}?${link}&embed=lesson&controls=seed,jitter`);
  await page.context().close();
  // Pasted into a page, it shows that state.
  const outer = await embedded(src.slice(src.indexOf('?') + 1));
  assert.equal(await outer.frame.evaluate(() => document.body.dataset.link), link);
  assert.deepEqual((await layout(outer.frame, 'chart-load', [...FRAME_PARTS, '#chart-load'])).strays, []);
  await outer.page.context().close();
});

test('Copy embed code refused by the browser shows the code selected, and says so', async () => {
  const page = await open(browser, `${base}?${SMALL}`, {
    before: (p) => p.addInitScript(() => {
      Clipboard.prototype.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      document.execCommand = () => false;
    }),
  });
  await openShare(page);
  await page.click('#copy-embed');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent.length > 0);
  assert.doesNotMatch(await page.textContent('#copy-status'), /copied/i);
  assert.match(await page.textContent('#copy-status'), /embed code is selected/);
  assert.match(await page.inputValue('#copy-field'), /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?v=1&amp;rate=50&amp;horizon=10&amp;embed=lesson&amp;controls=rate,horizon"/);
  assert.equal(await page.getAttribute('#copy-field', 'aria-label'), 'Code that embeds this page');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the embed looks right light and dark (screenshots in tests/e2e/out/)', async () => {
  const out = path.resolve(import.meta.dirname, 'out');
  fs.mkdirSync(out, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    const { page, frame } = await embedded(`${HERD}&embed=load&controls=jitter,attempts,base`, { colorScheme });
    const colours = await frame.evaluate(() => {
      const canvas = document.getElementById('chart-load');
      return {
        corner: [...canvas.getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)],
        page: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.getElementById('lesson')).color,
      };
    });
    const level = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b) / 3;
    if (colorScheme === 'dark') {
      assert.ok(colours.corner.every((c) => c < 60), `chart not dark: ${colours.corner}`);
      assert.ok(level(colours.page) < 60 && level(colours.text) > 180, JSON.stringify(colours));
    } else {
      assert.ok(colours.corner.every((c) => c > 200), `chart not light: ${colours.corner}`);
      assert.ok(level(colours.page) > 200 && level(colours.text) < 80, JSON.stringify(colours));
    }
    await page.screenshot({ path: path.join(out, `embed-${colorScheme}.png`), clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('a chapter embedded in a 600x400 frame asks first, then shows its chart whole, its verdict and its knob', async () => {
  const { page, frame } = await embedded('chapter=herd&embed');
  const asked = await frame.evaluate(() => {
    const chart = document.getElementById('chart-load');
    const question = document.getElementById('chapter-question').getBoundingClientRect();
    return { hidden: getComputedStyle(chart).visibility === 'hidden', questionBottom: question.bottom };
  });
  assert.equal(asked.hidden, true, 'the chart waits for an answer');
  assert.ok(asked.questionBottom <= HEIGHT, `the question at ${asked.questionBottom} px`);
  await frame.check('#answers .answer-row:nth-child(2) input[type=radio]');
  await frame.click('#reveal');
  await frame.waitForFunction(() => document.getElementById('verdict').dataset.answered === 'true', null, { timeout: 30000 });
  await frame.waitForFunction(() => document.body.dataset.link !== undefined);
  const shape = await layout(frame, 'chart-load', ['#chapter-title', '#verdict', '#knob', '#notices', '#limit', '#embed-footer', '#chart-load']);
  assert.deepEqual(shape.strays, [], 'more than a chapter embed shows');
  assertInside(shape, 'the chapter embed');
  assert.equal(await frame.$eval('#knob .param', (row) => row.id), 'param-clients');
  assert.match(await frame.textContent('#verdict'), /the runs agree/);
  assert.equal(await frame.getAttribute('#open-playground', 'href'), '?chapter=herd');
  const out = path.resolve(import.meta.dirname, 'out');
  fs.mkdirSync(out, { recursive: true });
  await page.screenshot({ path: path.join(out, 'embed-chapter.png') });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
