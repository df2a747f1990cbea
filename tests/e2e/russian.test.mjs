// The page in Russian: every preset and every chapter, before and after its
// answer, on a laptop and on a phone, reads in Russian (at least 95 % of the
// words a reader sees, canvases included, are Cyrillic, names and code
// aside), no element overflows its box and no chart draws text outside its
// canvas; a browser whose language is ru-RU opens in Russian, the switch
// is remembered, links carry the language, and the numbers are those of
// the English page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { servePage, open, pickPreset, rendered, settled } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const CLI = path.resolve(import.meta.dirname, '../../target/debug/retry-playground');
const AXE = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

// Names and code that stay as they are in Russian text (i18n/GLOSSARY.md,
// "What stays English"): a library's, an algorithm's, a format's, a key's.
const NAMES = new Set([
  'AWS', 'SDK', 'gRPC', 'gRFC', 'Envoy', 'Finagle', 'Linkerd', 'Polly', 'resilience', 'botocore', 'tenacity',
  'backon', 'Brooker', 'Brooker\'s', 'SRE', 'Poisson', 'CUBIC', 'JSON', 'CSV', 'PNG', 'YAML', 'HTTP', 'Retry', 'After',
  'Idempotency', 'Key', 'thundering', 'herd', 'goodput', 'Esc', 'Ctrl', 'Cmd', 'English', 'Stability', 'Sim',
  'OSDI', 'Go', 'cenkalti', 'backoff', 'NET', 'Java', 'Python', 'Rust', 'service', 'config', 'retry_policy', 'Python',
  'iframe', 'Retry-After', 'Idempotency-Key', 'jitter', 'full', 'equal', 'decorrelated', 'exponential', 'none',
  'ms', 'pp', 'log', 'Google', 'Marc', 'Yandex',
]);

// The words a reader sees, DOM and canvases: [cyrillic, other, sample of others].
async function wordsSeen(page) {
  const texts = await page.evaluate(() => {
    const out = [];
    const seen = (e) => e.checkVisibility({ visibilityProperty: true });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('code, kbd, textarea, script, style, select, .snippet, [lang="en"]')) continue;
      if (seen(parent)) out.push(node.textContent);
    }
    for (const select of document.querySelectorAll('select')) {
      if (seen(select) && select.selectedOptions[0]) out.push(select.selectedOptions[0].textContent);
    }
    return out;
  });
  const drawn = await page.evaluate(() => window.wasmBindings?.text_drawn_for_test?.() ?? '');
  let cyrillic = 0;
  const other = [];
  for (const word of [...texts, drawn].join(' ').match(/[A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё'_-]+/g) ?? []) {
    if (/[А-Яа-яЁё]/.test(word)) cyrillic += 1;
    else if (!NAMES.has(word) && !/^[A-Z]\.\w+$/.test(word)) other.push(word);
  }
  return [cyrillic, other];
}

// Elements whose content is wider than their box, and the page's own width.
async function overflows(page) {
  return page.evaluate(() => {
    const out = [];
    for (const e of document.body.querySelectorAll('*')) {
      if (!e.checkVisibility({ visibilityProperty: true }) || e.matches('canvas, svg, textarea, input, select, option')) continue;
      const style = getComputedStyle(e);
      if (style.display.startsWith('inline') && style.display !== 'inline-block') continue;
      if (['auto', 'scroll'].includes(style.overflowX)) continue;
      if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0) {
        out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
      }
    }
    if (document.documentElement.scrollWidth > innerWidth) out.push(`the page: ${document.documentElement.scrollWidth} > ${innerWidth}`);
    return out;
  });
}

// Text a visible canvas draws partly outside itself.
async function outside(page) {
  return page.evaluate(() => {
    const lines = (window.wasmBindings?.text_outside_for_test?.() ?? 'no test hooks in this build').split('\n');
    return lines.filter((line) => {
      const canvas = document.getElementById(line.split(':')[0]);
      return line && (!canvas || canvas.checkVisibility());
    }).join('\n');
  });
}

// The charts of a chapter's own settings are drawn (its address bar holds
// the chapter's word, the charts the settings' link).
async function drawn(page) {
  await page.waitForFunction(() => {
    const playground = document.getElementById('to-playground').getAttribute('href') || '';
    return document.body.dataset.link && document.body.dataset.link === playground.slice(1);
  }, null, { timeout: 30000 });
}

// All three checks on what `page` shows, named `where`.
async function readsInRussian(page, where) {
  const [cyrillic, other] = await wordsSeen(page);
  const share = cyrillic / (cyrillic + other.length);
  assert.ok(share >= 0.95, `${where}: ${(100 * share).toFixed(1)} % Cyrillic; not: ${[...new Set(other)].slice(0, 30).join(' ')}`);
  assert.deepEqual(await overflows(page), [], `${where}: overflows`);
  assert.equal(await outside(page), '', `${where}: chart text outside its canvas`);
  return share;
}

function chapterKeys() {
  const run = spawnSync(CLI, ['--course'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout).chapters.map((c) => c.key);
}

for (const [name, viewport] of [['laptop', WIDE], ['phone', PHONE]]) {
  test(`every preset reads in Russian on a ${name}`, async () => {
    const page = await open(browser, `${base}?lang=ru`, { viewport });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
    const values = await page.$$eval('#preset option:not([disabled])', (os) => os.map((o) => o.value));
    // The table of all numbers open too: its Russian labels are the longest.
    await page.click('#all-numbers > summary');
    const shares = [];
    for (const value of values) {
      await pickPreset(page, value);
      await settled(page);
      shares.push((await readsInRussian(page, `preset ${value}`)).toFixed(3));
    }
    console.log(`${name}: Cyrillic share per preset ${shares.join(' ')}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test(`every chapter reads in Russian on a ${name}, before and after its answer`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.problems = [];
    page.on('pageerror', (error) => page.problems.push(String(error)));
    for (const key of chapterKeys()) {
      await page.goto(`${base}?lang=ru&chapter=${key}`);
      await rendered(page, 1);
      await readsInRussian(page, `chapter ${key}`);
      if (await page.$('#answers input')) {
        await page.check('#answers input');
        await page.click('#reveal');
        await page.waitForFunction(() => !document.getElementById('verdict').hidden
          && !document.getElementById('verdict').textContent.includes('\u2026'));
        await drawn(page);
        await readsInRussian(page, `chapter ${key}, answered`);
      }
    }
    assert.deepEqual(page.problems, []);
    await context.close();
  });
}

test('a browser whose language is ru-RU opens in Russian; the switch is remembered and carried', async () => {
  const context = await browser.newContext({ viewport: WIDE, locale: 'ru-RU' });
  const page = await context.newPage();
  await page.goto(base);
  await rendered(page, 1);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  assert.equal(await page.textContent('#reveal'), 'Показать, что будет');
  // Followed only from the browser: links do not carry it.
  assert.ok(!(await page.evaluate(() => location.search)).includes('lang='));
  // The switch: English, remembered for the next visit and carried by links.
  await Promise.all([page.waitForNavigation(), page.click('#langs a[data-lang="en"]')]);
  await rendered(page, 1);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.match(await page.evaluate(() => location.search), /lang=en/);
  await page.goto(base);
  await rendered(page, 1);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the choice is remembered');
  assert.match(await page.evaluate(() => location.search), /lang=en/, 'and carried');
  await context.close();
});

test('lang= changes no number: the page, its links and the command line', async () => {
  const link = 'v=1&compare=on&clients=2000&workload=crowd&outage_for=5&jitter=none&B.jitter=full';
  const page = await open(browser, `${base}?${link}&lang=ru`, { viewport: WIDE });
  const ru = await page.evaluate((l) => window.wasmBindings.report_json(l), link);
  const withLang = await page.evaluate((l) => window.wasmBindings.report_json(`${l}&lang=ru`), link);
  const cli = spawnSync(CLI, [link], { encoding: 'utf8' });
  const cliRu = spawnSync(CLI, ['--lang', 'ru', `${link}&lang=ru`], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(ru, withLang);
  assert.equal(ru + '\n', cli.stdout);
  assert.equal(cliRu.stdout, cli.stdout, 'the command line in Russian prints the same report');
  // A preset's link with lang is still the preset: its lesson, not "your own settings".
  const herd = await open(browser, `${base}?v=1&lang=ru&chapter=herd`, { viewport: WIDE });
  assert.ok(!(await herd.textContent('#chapter-title')).includes('свои'));
  await herd.context().close();
  await page.context().close();
});

test('the axe-core WCAG 2.1 A/AA audit finds nothing in Russian, and <html lang> says ru', async () => {
  const found = [];
  for (const query of ['lang=ru', 'lang=ru&chapter=herd', 'lang=ru&chapter=budget']) {
    const page = await open(browser, `${base}?${query}`, { viewport: WIDE });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
    await page.addScriptTag({ content: AXE });
    const audit = async (where) => {
      const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
      found.push(...result.violations.flatMap((v) => v.nodes.map((n) => `${where}: ${v.id}: ${n.target.join(' ')}`)));
    };
    await audit(query);
    if (await page.$('#answers input')) {
      await page.check('#answers input');
      await page.click('#reveal');
      await drawn(page);
      await audit(`${query}, answered`);
    }
    await page.context().close();
  }
  assert.deepEqual(found, []);
});

test('the embed reads in Russian in a 600x400 frame, before and after its answer', async () => {
  const page = await open(browser, base, { viewport: { width: 700, height: 500 } });
  for (const query of ['v=1&lang=ru&chapter=why-retry&embed', 'v=1&lang=ru&compare=on&jitter=none&workload=crowd&clients=2000&embed=lesson&controls=jitter,attempts']) {
    await page.setContent(`<iframe src="${base}?${query}" style="width:600px;height:400px;border:0"></iframe>`);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1);
    await settledOrDrawn(frame);
    await readsInRussian(frame, query);
    if (await frame.$('#answers input')) {
      await frame.check('#answers input');
      await frame.click('#reveal');
      await frame.waitForFunction(() => !document.getElementById('verdict').hidden
        && !document.getElementById('verdict').textContent.includes('\u2026'));
      await readsInRussian(frame, `${query}, answered`);
    }
  }
  await page.context().close();
});

// A frame's charts are drawn (its address holds the embed's pairs, which
// the charts' link does not).
async function settledOrDrawn(frame) {
  await frame.waitForFunction(() => document.body.dataset.link && document.body.dataset.drawnAt, null, { timeout: 30000 });
}
