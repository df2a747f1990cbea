// Every preset teaches on the first screen, on a laptop and on a phone, and
// keeps teaching while the learner follows it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { serve, launch, open, openGroup, pickPreset, rendered, renders, settled, openShare } from './harness.mjs';

let server, base, browser;
before(async () => {
  ({ server, base } = await serve());
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

// The command line the page's numbers and presets are checked against.
const CLI = process.env.NATIVE_CLI
  ? path.resolve(process.env.NATIVE_CLI)
  : path.resolve(import.meta.dirname, '../../target/debug/retry-playground');

// Every preset as the library defines it (`--presets`): its title, the
// chart its lesson leads with, and each "try this" with the number it
// promises to move, for policy `side`, up (rises) or down.
function definedPresets() {
  const run = spawnSync(CLI, ['--presets'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout).presets;
}

// The presets to walk: every one the built page lists, in its order, each
// with what the library defines of it; the page must list them all.
async function presetsOf(page) {
  const defined = definedPresets();
  const titles = await page.$$eval('#preset option:not([disabled])', (all) => all.map((o) => o.textContent));
  assert.deepEqual([...titles].sort(), defined.map((p) => p.title).sort(), 'the page lists the presets the library defines');
  return titles.map((t) => defined.find((p) => p.title === t));
}

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

// The preset list's value for a title.
async function presetValue(page, title) {
  const value = await page.$$eval('#preset option', (all, title) => all.find((o) => o.textContent === title)?.value, title);
  assert.ok(value !== undefined, `no preset titled ${title}`);
  return value;
}

// Where the lesson's pieces are, in page coordinates (0 = top of the page).
async function layout(page) {
  return page.evaluate(() => {
    const box = (element) => {
      const r = element.getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left + scrollX, right: r.right + scrollX, height: r.height };
    };
    const canvases = [...document.querySelectorAll('#key-slot canvas')];
    return {
      select: box(document.getElementById('preset')),
      lesson: box(document.getElementById('lesson')),
      keys: canvases.map((c) => c.id),
      key: canvases.length ? box(canvases[0]) : null,
      width: innerWidth,
      height: innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      lessonText: document.getElementById('lesson').textContent,
      tryThis: (() => { const b = document.querySelector('#try-this button'); return b ? box(b) : null; })(),
      numbers: [...document.querySelectorAll('#headlines .headline')].slice(0, 2)
        .flatMap((h) => [...h.querySelectorAll('.number')]).map(box),
      title: (() => {
        const h = document.getElementById('lesson-title');
        return { text: h.textContent, visible: h.offsetHeight > 0, overflows: h.scrollWidth > h.clientWidth };
      })(),
    };
  });
}

function inside(what, box, { width, height }) {
  assert.ok(box.top >= 0 && box.bottom <= height && box.left >= 0 && box.right <= width,
    `${what} is not inside the first ${width}x${height} screen: ${JSON.stringify(box)}`);
}

for (const [name, viewport] of [['laptop', WIDE], ['phone', PHONE]]) {
  test(`every preset teaches on the first screen of a ${name} (${viewport.width}x${viewport.height})`, async () => {
    const page = await open(browser, base, { viewport });
    const seen = [];
    for (const preset of await presetsOf(page)) {
      await pickPreset(page, await presetValue(page, preset.title));
      const at = await layout(page);
      assert.ok(at.lessonText.length > 80, `${preset.title}: no lesson`);
      inside(`${preset.title}: the preset list`, at.select, viewport);
      assert.deepEqual(at.keys, [`chart-${preset.chart}`], `${preset.title}: the lesson's chart`);
      const shown = Math.max(0, Math.min(at.key.bottom, viewport.height) - Math.max(at.key.top, 0)) / at.key.height;
      if (viewport === WIDE) {
        inside(`${preset.title}: the lesson`, at.lesson, viewport);
        assert.ok(shown >= 0.6, `${preset.title}: only ${(100 * shown).toFixed(0)} % of its chart on the first screen`);
      } else {
        // A phone leads with the picture: the whole chart on the first
        // screen, tall enough for two panels, and its words starting there.
        inside(`${preset.title}: the lesson's chart`, at.key, viewport);
        // As tall as chart/lessons.rs draws it when it measures every plot
        // at 160 px or more (PHONE_KEY, PHONE_KEY_WITH_STRIP).
        const strip = preset.title === 'The lost response without an idempotency key';
        assert.ok(at.key.height >= (strip ? 620 : 506) - 1, `${preset.title}: its chart is ${at.key.height} px tall`);
        // Under it, on the same screen: the first change to try and the
        // two numbers the lesson is about; its words follow.
        if (preset.tries.length) inside(`${preset.title}: "try this"`, at.tryThis, viewport);
        assert.ok(at.numbers.length >= 1, `${preset.title}: its numbers`);
        at.numbers.forEach((n, i) => inside(`${preset.title}: headline number ${i + 1}`, n, viewport));
        assert.ok(at.lesson.top > at.key.bottom, `${preset.title}: the lesson starts at ${at.lesson.top} px`);
        assert.ok(at.scrollWidth <= viewport.width, `${preset.title}: the page scrolls sideways (${at.scrollWidth} px)`);
        // The list is too narrow for some titles here: the heading says them in full.
        assert.deepEqual(at.title, { text: preset.title, visible: true, overflows: false }, `${preset.title}: its heading`);
      }
      seen.push(`${preset.chart} ${at.key.top.toFixed(0)}-${at.key.bottom.toFixed(0)} (${(100 * shown).toFixed(0)} % shown)`);
    }
    console.log(`${name}: the lesson's chart of each preset at ${seen.join(', ')}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('inside a 700 px wide frame the page needs no sideways scroll and leads with the chart', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  await page.setContent(`<iframe src="${base}" style="width:700px;height:800px;border:0"></iframe>`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await frame.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1);
  const at = await layout(frame);
  assert.ok(at.scrollWidth <= 700, `the frame scrolls sideways: ${at.scrollWidth} px`);
  inside('the preset list', at.select, { width: 700, height: 800 });
  inside('the lesson', at.lesson, { width: 700, height: 800 });
  const controls = await frame.evaluate(() => document.getElementById('controls').getBoundingClientRect().top + scrollY);
  assert.ok(at.key.top < controls, 'the chart comes before the controls');
  await page.context().close();
});

// The lesson's number of `metric` for policy `side`, as the page shows it.
async function headline(page, metric, side) {
  const text = await page.textContent(`#headlines [data-metric="${metric}"] [data-side="side-${side}"] .number`);
  const value = parseFloat(text);
  assert.ok(Number.isFinite(value), `${metric} of ${side}: '${text}'`);
  return value;
}

// Which lesson the page shows: its title and the preset its text is of.
// The text itself follows the runs and the settings (its numbers, and
// what it says of a policy the learner changed), so it is not compared.
async function lessonShown(page) {
  return page.evaluate(() => ({
    title: document.getElementById('lesson-title').textContent,
    of: document.getElementById('lesson').dataset.for,
  }));
}

test('each "try this" applies its change, moves its number the way the lesson says, and the lesson stays', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  for (const preset of await presetsOf(page)) {
    await pickPreset(page, await presetValue(page, preset.title));
    const lesson = await lessonShown(page);
    const link = page.url();
    const buttons = await page.$$eval('#try-this button', (all) => all.map((b) => ({
      label: b.textContent, metric: b.dataset.metric, side: b.dataset.side, rises: b.dataset.rises === 'true',
    })));
    assert.deepEqual(buttons, preset.tries.map(({ label, metric, side, rises }) => ({ label, metric, side: `side-${side}`, rises })),
      `${preset.title}: the page's buttons and what they promise`);
    for (const expected of preset.tries) {
      const before = await headline(page, expected.metric, expected.side);
      await page.click(`#try-this button:text-is("${expected.label}")`);
      await settled(page);
      assert.notEqual(page.url(), link, `${expected.label}: the link did not change`);
      const after = await headline(page, expected.metric, expected.side);
      assert.ok(expected.rises ? after > before : after < before,
        `${preset.title}, '${expected.label}': ${expected.metric} of ${expected.side} should ${expected.rises ? 'rise' : 'fall'}, went ${before} -> ${after}`);
      assert.deepEqual(await lessonShown(page), lesson, 'the lesson stays');
      assert.match(await page.textContent('#changed'), /^You changed \d+ settings?$/);
      const button = page.locator(`#try-this button:text-is("${expected.label}")`);
      assert.equal(await button.getAttribute('aria-disabled'), 'true', 'applied: nothing left to do');
      assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'the pressed button keeps the focus');
      await page.click('#back-to-preset');
      await settled(page);
      assert.equal(page.url(), link, 'back to the preset');
      assert.equal(await page.isHidden('#lesson-status'), true);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the lesson stays while the learner changes settings', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  const lesson = await lessonShown(page);
  const link = page.url();
  const steps = [
    ['a list', () => page.selectOption('#in-jitter', { label: 'Equal' })],
    ['a typed number', async () => { await page.fill('#num-attempts', '5'); await page.press('#num-attempts', 'Enter'); }],
    ['a slider by keyboard', async () => { await page.focus('#in-cap'); await page.keyboard.press('ArrowRight'); }],
    ['a collapsed group', async () => { await openGroup(page, 'workload'); await page.fill('#num-clients', '1500'); await page.press('#num-clients', 'Enter'); }],
    ['a new seed', async () => { await openShare(page); await page.click('#new-seed'); }],
    ['compare off', () => page.selectOption('#in-compare', { label: 'Off' })],
  ];
  for (const [i, [what, step]] of steps.entries()) {
    const count = await renders(page);
    await step();
    await rendered(page, count + 1);
    await settled(page);
    assert.deepEqual(await lessonShown(page), lesson, `after ${what} the lesson is gone`);
    assert.equal(await page.isVisible('#lesson-status'), true);
    // Each step changed one setting of A or of the world; with compare
    // off, B's own settings are out of play and not counted.
    assert.equal(await page.textContent('#changed'), i === 0 ? 'You changed 1 setting' : `You changed ${i + 1} settings`);
  }
  await page.click('#back-to-preset');
  await settled(page);
  assert.equal(page.url(), link);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// What the headlines say over the seeds, as the page shows them.
async function spreadShown(page) {
  await page.waitForFunction(() => document.body.dataset.spread === location.search.slice(1), null, { timeout: 30000 });
  return page.$$eval('#headlines .headline', (all) => all.map((h) => ({
    label: h.dataset.metric,
    numbers: [...h.querySelectorAll('.number')].map((n) => n.textContent),
    ranges: [...h.querySelectorAll('.range')].map((r) => r.textContent),
    // The words, without the tip inside them.
    seeds: h.querySelector('.seeds').firstChild.textContent,
    better: [...h.querySelectorAll('.better')].map((b) => b.closest('.value').dataset.side),
  })));
}

test('each headline shows its range over seeds as the command line measures it, and "better" only where the seeds hold it', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  const seen = {};
  for (const preset of await presetsOf(page)) {
    await pickPreset(page, await presetValue(page, preset.title));
    const shown = await spreadShown(page);
    const link = new URL(page.url()).search.slice(1);
    const native = spawnSync(CLI, ['--seeds', link], { encoding: 'utf8' });
    assert.equal(native.status, 0, native.stderr);
    const measured = JSON.parse(native.stdout).headlines.map((h) => ({
      label: h.label,
      numbers: [h.a, h.b].filter((n) => n !== null),
      ranges: [h.range_a, h.range_b].filter((r) => r !== null),
      seeds: h.seeds,
      better: h.better ? [`side-${h.better.toLowerCase()}`] : [],
    }));
    assert.deepEqual(shown, measured, `${preset.title}: the page's spread and the command line's`);
    seen[preset.title] = shown;
  }
  // The close calls: 67.3 % against 67.0 % is no real difference.
  const aws = seen['What production defaults do: AWS SDK standard mode'];
  const success = aws.find((h) => h.label === 'User-visible success');
  assert.deepEqual(success.better, []);
  assert.match(success.seeds, /no real difference/);
  // Hover or focus on what the seeds say tells the rule (on a preset that
  // compares two policies).
  await pickPreset(page, await presetValue(page, 'What production defaults do: AWS SDK standard mode'));
  await spreadShown(page);
  const words = page.locator('#headlines .seeds').first();
  await words.focus();
  assert.match(await page.locator('#headlines .seeds .tip').first().textContent(), /at least 9 in 10 of the seeds/);
  assert.equal(await page.locator('#headlines .seeds .tip').first().isVisible(), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the policy switch is hidden without a policy B', async () => {
  const page = await open(browser, `${base}?v=1&rate=5&horizon=5`);
  assert.equal(await page.isVisible('#sides'), false, 'nothing to switch between');
  await page.selectOption('#in-compare', { label: 'On' });
  await settled(page);
  assert.equal(await page.isVisible('#sides'), true);
  await page.context().close();
});

test('no preset title is cut where the list has room: it is as wide as the longest', async () => {
  // On a phone the list is narrower than some titles; the heading below it
  // shows the title in full (checked for every preset above).
  const page = await open(browser, base, { viewport: WIDE });
  const cut = await page.evaluate(() => {
    const select = document.getElementById('preset');
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    // The arrow and the padding take some of the width.
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    return [...select.options].filter((o) => context.measureText(o.textContent).width > room).map((o) => o.textContent);
  });
  assert.deepEqual(cut, [], 'titles wider than the list');
  await page.context().close();
});

test('the numbers are in their policy\'s colour, and every term explains itself on hover and on focus', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  // The headlines are written again once the seeds are measured: look at them after.
  await spreadShown(page);
  const colour = (selector) => page.$eval(selector, (e) => getComputedStyle(e).color);
  assert.equal(await colour('#headlines [data-side="side-a"]'), 'rgb(0, 114, 178)');
  assert.equal(await colour('#headlines [data-side="side-b"]'), 'rgb(213, 94, 0)');
  assert.equal(await colour('#summary th.side-b'), 'rgb(213, 94, 0)');
  assert.equal(await colour('#edit-b'), 'rgb(213, 94, 0)');

  // Keyboard: Tab reaches a headline's term, and its tip shows.
  const term = page.locator('#headlines .term').first();
  await term.focus();
  const tip = page.locator('#headlines .tip').first();
  assert.equal(await tip.isVisible(), true, 'focus shows the tip');
  assert.equal(await term.getAttribute('aria-describedby'), await tip.getAttribute('id'));
  assert.ok((await tip.textContent()).length > 40);
  await page.keyboard.press('Tab');
  assert.equal(await tip.isVisible(), false);
  // Hover: a control's mark and a summary row.
  await page.hover('#param-jitter .term-mark');
  assert.match(await page.locator('#param-jitter .tip').textContent(), /random pause/);
  assert.equal(await page.locator('#param-jitter .tip').isVisible(), true);
  assert.match(await page.getAttribute('#in-jitter', 'aria-describedby'), /tip-param-jitter/);
  await page.click('#all-numbers > summary');
  await page.hover('#summary .term >> nth=0');
  assert.equal(await page.locator('#summary .tip').first().isVisible(), true);
  // Tips stay inside the page: no sideways scroll while one shows.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  await page.context().close();
});

test('Copy link without a clipboard shows the link selected and says so', async () => {
  // A plain-http host has no navigator.clipboard; the old copy command may be refused too.
  const page = await open(browser, base, {
    before: (p) => p.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      document.execCommand = () => false;
    }),
  });
  await openShare(page);
  await page.click('#copy-link');
  const field = await page.evaluate(() => {
    const f = document.getElementById('copy-field');
    return { shown: !f.hidden, value: f.value, selected: document.activeElement === f && f.selectionStart === 0 && f.selectionEnd === f.value.length };
  });
  // The default page is exactly the first preset: its short link.
  assert.deepEqual(field, { shown: true, value: new URL('?preset=herd', page.url()).href, selected: true });
  assert.doesNotMatch(await page.textContent('#copy-status'), /copied/i);
  assert.match(await page.textContent('#copy-status'), /selected/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Copy link refused by the browser does not claim it copied', async () => {
  const page = await open(browser, base, {
    before: (p) => p.addInitScript(() => {
      Clipboard.prototype.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      document.execCommand = () => false;
    }),
  });
  await openShare(page);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent.length > 0);
  assert.doesNotMatch(await page.textContent('#copy-status'), /copied/i);
  assert.equal(await page.inputValue('#copy-field'), new URL('?preset=herd', page.url()).href);
  assert.equal(await page.isVisible('#copy-field'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a preset\'s short link opens its world in a fresh page, and a moved knob copies the whole link', async () => {
  const page = await open(browser, base, {
    before: (p) => p.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      document.execCommand = () => false;
    }),
  });
  const full = await page.evaluate(() => document.body.dataset.link);
  const fresh = await open(browser, new URL('?preset=herd', page.url()).href);
  assert.equal(await fresh.evaluate(() => document.body.dataset.link), full, 'the same world');
  assert.equal(new URL(fresh.url()).search, `?${full}`, 'the address bar writes the whole link');
  await fresh.context().close();
  await page.fill('#num-attempts', '7');
  await page.press('#num-attempts', 'Enter');
  await page.waitForFunction(() => /attempts=7&/.test(location.search));
  await openShare(page);
  await page.click('#copy-link');
  assert.equal(await page.inputValue('#copy-field'), page.url(), 'no longer the preset');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a page that cannot start the simulator says why and how to serve it, with no uncaught error', async () => {
  // Each way the simulator fails to start: what breaks it, and the reason
  // the banner gives.
  const cases = [
    // Opened as a file, browsers refuse to load the module and its WebAssembly.
    { name: 'a file', url: pathToFileURL(path.resolve(import.meta.dirname, '../../dist/index.html')).href,
      reason: /opened as a file/ },
    { name: 'the wasm refused', reason: /WebAssembly file did not load/,
      before: (page) => page.route('**/*.wasm', (route) => route.abort()) },
    { name: 'the wasm missing', reason: /WebAssembly file did not load/,
      before: (page) => page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'Not Found' })) },
    { name: 'an old browser', reason: /this browser has no WebAssembly/,
      before: (page) => page.addInitScript(() => { delete window.WebAssembly; }) },
  ];
  for (const { name, url = base, reason, before } of cases) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const uncaught = [];
    page.on('pageerror', (error) => uncaught.push(String(error)));
    await before?.(page);
    await page.goto(url);
    await page.waitForLoadState('load');
    await page.waitForFunction(() => /could not start:/.test(document.getElementById('starting-why').textContent),
      null, { timeout: 10000 }).catch(() => {});
    assert.equal(await page.isVisible('#starting'), true, name);
    assert.match(await page.textContent('#starting-why'), reason, name);
    assert.match(await page.textContent('#starting'), /web server/, name);
    assert.equal(await page.evaluate(() => document.body.dataset.renders), undefined, name);
    assert.deepEqual(uncaught, [], name);
    await context.close();
  }
});
