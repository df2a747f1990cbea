// The page in the other engines, as Debian ships them: Gecko (Firefox ESR,
// over WebDriver BiDi with puppeteer-core) and WebKit (WebKitGTK's
// MiniBrowser, over classic WebDriver, ./webdriver.mjs). A smoke test of
// each: the first chart, a preset's link, Russian, a chapter answered, the
// search on workers, "Take it home"'s module, no console error; and on a
// 390 px phone no sideways scroll with any preset selected, in English or
// Russian (WebKit widened the page to the selected preset's name), with a
// picture of the first screen in tests/e2e/out/ to look at.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { serve, rendered, renders, settled, inked, STATE_WAIT } from './harness.mjs';
import { launchWebKit } from './webdriver.mjs';

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const OUT = path.resolve(import.meta.dirname, 'out');
// The search's many runs on a busy two-core host: a wait, not a measure.
const SEARCH_WAIT = { timeout: 180000 };

// Classic WebDriver hears nothing of the console: the server puts this
// first in the page, and the test reads what it kept. It also keeps the
// history calls a browser refused, which the page ignores: Safari refuses
// replaceState past 100 calls in 10 s, and the address bar then stays on
// an older state.
const PRELUDE = `(() => {
  const problems = window.__problems = [];
  const refused = window.__refused = [];
  addEventListener('error', (e) => problems.push('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno));
  addEventListener('unhandledrejection', (e) => problems.push('unhandled rejection: ' + e.reason));
  const error = console.error;
  console.error = function (...args) { problems.push(args.map(String).join(' ')); return error.apply(this, args); };
  for (const name of ['pushState', 'replaceState']) {
    const call = history[name];
    history[name] = function (...args) {
      try { return call.apply(this, args); } catch (e) { refused.push(name + ' ' + args[2] + ': ' + e); throw e; }
    };
  }
})();`;

// The first of `paths` that is an executable file, or of `name` on PATH.
function found(paths, name) {
  const dirs = name ? (process.env.PATH ?? '').split(':').map((dir) => path.join(dir, name)) : [];
  return [...paths, ...dirs].find((file) => {
    try { fs.accessSync(file, fs.constants.X_OK); return fs.statSync(file).isFile(); } catch { return false; }
  });
}

// Debian bookworm has WebKitWebDriver in /usr/bin; other releases put it
// beside MiniBrowser in the multiarch folder only.
const webkitDriver = () => found([process.env.WEBKIT_DRIVER, '/usr/bin/WebKitWebDriver',
  ...['x86_64', 'aarch64'].map((arch) => `/usr/lib/${arch}-linux-gnu/webkit2gtk-4.1/WebKitWebDriver`)].filter(Boolean), 'WebKitWebDriver');

// Each engine behind the few calls of playwright's page the harness uses
// (evaluate, waitForFunction) and a few more. `consoleSeen`: the errors
// the engine reports itself, when it does.
const engines = [
  {
    name: 'Firefox',
    binary: () => found([process.env.FIREFOX || '/usr/bin/firefox-esr']),
    async launch(binary) {
      const browser = await puppeteer.launch({
        browser: 'firefox', executablePath: binary, headless: true, defaultViewport: WIDE,
      });
      const page = await browser.newPage();
      const problems = [];
      // Over BiDi Firefox reports both: the prelude's are not needed.
      page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
      page.on('pageerror', (error) => problems.push(String(error)));
      return {
        version: await browser.version(),
        consoleSeen: problems,
        goto: (url) => page.goto(url),
        evaluate: (fn, ...args) => page.evaluate(fn, ...args),
        waitForFunction: (fn, arg, { timeout } = {}) => page.waitForFunction(fn, { timeout, polling: 100 }, arg),
        click: (selector) => page.click(selector),
        screenshot: () => page.screenshot(),
        setViewport: (viewport) => page.setViewport(viewport),
        close: () => browser.close(),
      };
    },
  },
  {
    name: 'WebKit',
    // MiniBrowser needs an X server: Xvfb's, without a display of its own.
    binary: () => found([], 'Xvfb') && webkitDriver(),
    async launch(driver) {
      const session = await launchWebKit({ driver });
      return {
        version: `WebKitGTK ${session.capabilities.browserVersion}`,
        goto: (url) => session.goto(url),
        evaluate: (fn, ...args) => session.evaluate(fn, ...args),
        waitForFunction: (fn, arg, { timeout } = {}) => session.waitFor(fn, arg, { timeout }),
        click: (selector) => session.click(selector),
        screenshot: () => session.screenshot(),
        setViewport: (viewport) => session.setViewport(viewport),
        close: () => session.close(),
      };
    },
  },
];

// What the prelude kept in a page is lost when it goes: `goto` reads it
// first, and `kept()` reads the page shown and returns all so far.
async function launched(engine, binary) {
  const page = await engine.launch(binary);
  const kept = { problems: page.consoleSeen ?? [], refused: [] };
  const read = async () => {
    const [problems, refused] = await page.evaluate(() => [window.__problems?.splice(0) ?? [], window.__refused?.splice(0) ?? []]);
    if (!page.consoleSeen) kept.problems.push(...problems);
    kept.refused.push(...refused);
  };
  const goto = page.goto;
  page.goto = async (url) => {
    await read().catch(() => {}); // the first page, about:blank, kept nothing
    await goto(url);
  };
  page.kept = async () => { await read(); return kept; };
  return page;
}

let server, base;
before(async () => {
  ({ server, base } = await serve({ prelude: PRELUDE }));
  fs.mkdirSync(OUT, { recursive: true });
});
after(() => server?.close());

// Opens `query` and waits for its first charts.
// A page that never draws says where it stood: what it loaded, what the
// banner says, and the errors the page kept. It is loaded once more
// (said in the output, with where it stood): once in many runs WebKit's
// first load of a chapter drew nothing in 90 s, which takes a second
// everywhere else, and the second load drew. Twice is a failure.
async function visit(page, query, again = true) {
  await page.goto(`${base}${query}`);
  try {
    await rendered(page, 1);
  } catch (error) {
    const stood = await page.evaluate(() => ({
      link: location.search,
      ready: document.readyState,
      visible: document.visibilityState,
      body: { ...document.body.dataset },
      banner: document.getElementById('starting')?.textContent?.trim().slice(0, 200),
      worker: navigator.serviceWorker?.controller ? 'controls the page' : 'none',
      loaded: performance.getEntriesByType('resource').map((e) => `${e.name.split('/').pop()} ${Math.round(e.duration)} ms`),
    })).catch((e) => `unreadable: ${e}`);
    const kept = await page.kept().catch(() => ({}));
    const where = `the page stood at ${JSON.stringify(stood)}; it kept ${JSON.stringify(kept)}`;
    if (!again) {
      error.message += `\n${where}`;
      throw error;
    }
    console.log(`# ${query || 'the default page'} drew nothing: ${where}. Loading it once more.`);
    await visit(page, query, false);
  }
}

// The id of the lesson's chart and whether it is on screen.
const keyChart = (page) => page.evaluate(() => {
  const canvas = document.querySelector('#key-slot canvas');
  return { id: canvas?.id, seen: !!canvas && canvas.checkVisibility({ visibilityProperty: true }) };
});

async function assertDrawn(page, where) {
  const { id, seen } = await keyChart(page);
  assert.ok(seen, `${where}: the lesson's chart is on screen`);
  const { count, total } = await inked(page, id);
  assert.ok(count > total / 50, `${where}: ${id} is nearly blank, ${count} of ${total} pixels drawn`);
}

// How far the page reaches past the window's right edge, and what does:
// the visible elements whose box or content reach furthest (WebKit's
// select lets its text overflow its box; that widens the page and no
// box shows it), outside any box that clips or scrolls.
const sideways = (page) => page.evaluate(() => {
  const width = document.documentElement.scrollWidth;
  if (width <= innerWidth) return null;
  const contained = (e) => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  const reach = [...document.body.querySelectorAll('*')]
    .filter((e) => e.checkVisibility())
    .map((e) => {
      const box = e.getBoundingClientRect();
      return { e, right: Math.max(box.right, box.left + e.scrollWidth) };
    })
    .filter(({ e, right }) => right > innerWidth + 0.5 && !contained(e))
    .sort((a, b) => b.right - a.right)
    .slice(0, 3)
    .map(({ e, right }) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} to ${Math.round(right)} px`);
  return `${width} > ${innerWidth} px (${reach.join(', ')})`;
});

for (const engine of engines) {
  const binary = engine.binary();
  const optional = process.env.ENGINES_OPTIONAL === '1';
  const skip = !binary && optional && `${engine.name} is not installed (ENGINES_OPTIONAL=1): apt-get install firefox-esr webkit2gtk-driver xvfb`;

  describe(engine.name, { skip }, () => {
    let page;
    before(async () => {
      assert.ok(binary, `${engine.name} is not installed: apt-get install firefox-esr webkit2gtk-driver xvfb, or set ENGINES_OPTIONAL=1 to skip it`);
      page = await launched(engine, binary);
      await page.setViewport(WIDE);
      console.log(`${engine.name}: ${page.version}`);
    });
    after(async () => { await page?.close(); });

    test('the default page draws its first chart and settles on its link', async () => {
      await visit(page, '');
      await settled(page);
      await assertDrawn(page, 'the default page');
      assert.notEqual(await page.evaluate(() => location.search), '', 'the address bar holds the state');
    });

    test('a preset\'s link opens that preset', async () => {
      await visit(page, '?preset=budget');
      await settled(page);
      const shown = await page.evaluate(() => ({
        link: location.search,
        picked: document.getElementById('preset').selectedOptions[0]?.textContent,
        title: document.getElementById('lesson-title').textContent,
      }));
      assert.doesNotMatch(shown.link, /preset=/, 'the link became the preset\'s settings');
      assert.equal(shown.title, 'The budget that saves the day');
      assert.equal(shown.picked, shown.title);
      await assertDrawn(page, 'preset budget');
    });

    test('lang=ru reads in Russian', async () => {
      await visit(page, '?lang=ru');
      await settled(page);
      const shown = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        heading: document.querySelector('h1').textContent,
        title: document.getElementById('lesson-title').textContent,
      }));
      assert.equal(shown.lang, 'ru');
      assert.match(shown.heading, /[А-Яа-яЁё]{3}/, `the heading: ${shown.heading}`);
      assert.match(shown.title, /[А-Яа-яЁё]{3}/, `the lesson's title: ${shown.title}`);
      await assertDrawn(page, 'lang=ru');
    });

    test('a chapter shows its chart and verdict after an answer only', async () => {
      await visit(page, '?chapter=jitter');
      assert.equal((await keyChart(page)).seen, false, 'the chart waits for an answer');
      await page.click('#answers .answer-row:nth-child(1) input[type=radio]');
      await page.click('#reveal');
      await page.waitForFunction(() => {
        const verdict = document.getElementById('verdict');
        return verdict.dataset.answered === 'true' && !verdict.hidden && !verdict.textContent.includes('\u2026');
      }, null, STATE_WAIT);
      const shown = await page.evaluate(() => ({
        verdict: document.getElementById('verdict').textContent,
        lesson: document.getElementById('lesson').textContent,
      }));
      assert.match(shown.verdict, /Over \d+ seeds/);
      assert.ok(shown.lesson.length > 60, `the lesson after the answer: ${shown.lesson}`);
      await assertDrawn(page, 'chapter jitter, answered');
    });

    test('the search for a better policy finishes on workers', async () => {
      await visit(page, '');
      await settled(page);
      await page.click('#search > summary');
      await page.waitForFunction(() => document.body.dataset.searched === location.search.slice(1), null, SEARCH_WAIT);
      const done = await page.evaluate(() => ({
        workers: Number(document.body.dataset.searchWorkers),
        better: document.querySelectorAll('#better li').length,
      }));
      assert.ok(done.workers >= 1, `the search ran on ${done.workers} workers`);
      assert.ok(done.better >= 1, 'something beats A on the herd');
    });

    // Its module is imported the first time the section opens, and on a
    // Russian page taught the Russian words first.
    test('"Take it home" loads its module and writes the policy, in Russian', async () => {
      await visit(page, '?lang=ru');
      await settled(page);
      await page.click('#take-home > summary');
      await page.waitForFunction(() => document.getElementById('snippet').value.includes('maxAttempts')
        && document.querySelectorAll('#snippet-notes li').length > 0, null, STATE_WAIT);
      const notes = await page.evaluate(() => [...document.querySelectorAll('#snippet-notes li')].map((li) => li.textContent));
      assert.ok(notes.every((note) => /[А-Яа-яЁё]/.test(note)), notes.join('\n'));
    });

    test(`at ${PHONE.width}x${PHONE.height} no preset scrolls the page sideways, in English or Russian`, async () => {
      await page.setViewport(PHONE);
      const wide = [];
      // English as a first visit has it (no lang= in the link), Russian by its link.
      for (const [lang, query] of [['en', ''], ['ru', '?lang=ru']]) {
        await visit(page, query);
        await settled(page);
        const inner = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
        assert.deepEqual(inner, PHONE, 'the page inside the window is a phone\'s');
        await page.evaluate(() => scrollTo(0, 0));
        fs.writeFileSync(path.join(OUT, `engines-${engine.name.toLowerCase()}-${lang}-${PHONE.width}.png`), await page.screenshot());
        const values = await page.evaluate(() => [...document.querySelectorAll('#preset option:not([disabled])')].map((o) => o.value));
        assert.ok(values.length >= 20, `${values.length} presets`);
        for (const value of values) {
          const count = await renders(page);
          // As a pick from the list: the page hears the select's change.
          const changed = await page.evaluate((value) => {
            const select = document.getElementById('preset');
            if (select.value === value) return false;
            select.value = value;
            select.dispatchEvent(new Event('input', { bubbles: true }));
            select.dispatchEvent(new Event('change', { bubbles: true }));
            return true;
          }, value);
          // The preset's charts and lesson: not the address bar, which the
          // last test checks on its own.
          if (changed) await rendered(page, count + 1);
          await page.waitForFunction(() => document.getElementById('lesson-title').textContent
            === document.getElementById('preset').selectedOptions[0].textContent, null, STATE_WAIT);
          const past = await sideways(page);
          if (past) {
            const name = await page.evaluate(() => document.getElementById('preset').selectedOptions[0].textContent);
            wide.push(`${lang} ${value} "${name}": ${past}`);
          }
        }
      }
      await page.setViewport(WIDE);
      assert.deepEqual(wide, [], `${engine.name} scrolls sideways at ${PHONE.width} px`);
    });

    test('no console error, uncaught exception or unhandled rejection in any of it', async () => {
      assert.deepEqual((await page.kept()).problems, []);
    });

    // The page once called replaceState in every task of a run while the
    // link had a lang= (it compared the address bar with the link without
    // its language): hundreds of calls a preset, past Safari's 100 in
    // 10 s. WebKit refused the rest, and after a few picks in Russian the
    // address bar kept an older preset's link.
    test('the browser refused no history call: the address bar kept up', async () => {
      const { refused } = await page.kept();
      assert.equal(refused.length, 0, `${refused.length} calls refused, the first: ${refused[0]}`);
    });
  });
}
