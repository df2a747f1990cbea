// The course, walked by keyboard at a laptop's and a phone's size: each
// chapter asks before it shows, shows after an answer only, puts one knob
// on screen, goes back and on by keys, and its link opens it again in a
// fresh page; the axe-core WCAG 2.1 A/AA audit finds nothing on any
// chapter, light or dark. The playground's first screen offers the course.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { servePage, open, STATE_WAIT } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const AXE = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

// The violations of the WCAG 2.1 A and AA rules, as "rule: where" lines.
async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

// What a chapter shows: the words a reader sees, and what is hidden.
async function chapterState(page) {
  return page.evaluate(() => {
    const seen = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const key = document.querySelector('#key-slot canvas');
    return {
      of: document.getElementById('chapter-of').textContent,
      title: document.getElementById('chapter-title').textContent,
      question: seen(document.getElementById('chapter-question')) ? document.getElementById('chapter-question').textContent : '',
      answers: [...document.querySelectorAll('#answers input')].filter(seen).length,
      chartSeen: seen(key),
      verdict: seen(document.getElementById('verdict')) ? document.getElementById('verdict').textContent : '',
      knobs: [...document.querySelectorAll('.param')].filter(seen).map((p) => p.id),
      runs: document.querySelector('#answers .runs .answer-text')?.textContent ?? null,
      picked: document.querySelector('#answers input:checked')?.parentElement.textContent ?? null,
      next: document.getElementById('chapter-next').getAttribute('href'),
      back: document.getElementById('chapter-back').getAttribute('href'),
      lesson: seen(document.getElementById('lesson')) ? document.getElementById('lesson').textContent : '',
      playground: document.getElementById('to-playground').getAttribute('href'),
    };
  });
}

// Waits for the charts of the chapter's own settings (its address bar holds
// the chapter's word, the charts the settings' link).
async function drawn(page) {
  await page.waitForFunction(() => {
    const playground = document.getElementById('to-playground').getAttribute('href') || '';
    return document.body.dataset.link && document.body.dataset.link === playground.slice(1);
  }, null, { timeout: 30000 });
}

// A page navigated to has started its simulator and hears keys.
async function started(page) {
  await page.waitForFunction(() => document.documentElement.classList.contains('course') && document.body.dataset.renders, null, STATE_WAIT);
}

// Presses a key with nothing focused that takes keys (the page's body).
async function press(page, key) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(key);
}

for (const [name, viewport] of [['laptop', WIDE], ['phone', PHONE]]) {
  test(`the whole course by keyboard on a ${name} (${viewport.width}x${viewport.height})`, { timeout: 600000 }, async () => {
    let page = await open(browser, `${base}?chapter=why-retry`, { viewport });
    const walked = [];
    let previous = null;
    for (;;) {
      await drawn(page);
      const url = new URL(page.url());
      const key = url.searchParams.get('chapter');
      let state = await chapterState(page);
      if (key === 'monday') {
        assert.equal(state.title, 'What to do on Monday');
        const rules = await page.$$eval('#rules > li', (all) => all.map((li) => li.querySelectorAll('a').length));
        assert.ok(rules.length >= 6 && rules.every((n) => n > 0), `rules, each linking a chapter: ${rules}`);
        assert.equal(state.chartSeen, false, 'the last page has no chart');
        assert.equal(state.back, previous);
        if (name === 'laptop') {
          assert.deepEqual(await audit(page), [], 'axe, light, the last page');
          await page.emulateMedia({ colorScheme: 'dark' });
          assert.deepEqual(await audit(page), [], 'axe, dark, the last page');
        }
        walked.push(key);
        break;
      }
      const where = `${name}, ${key}`;
      assert.match(state.of, /^Chapter \d+ of \d+$/, where);
      assert.ok(state.question.length > 40, `${where}: the question is asked`);
      const asked = state.question;
      assert.ok(state.answers >= 2 && state.answers <= 4, `${where}: ${state.answers} answers`);
      assert.equal(state.chartSeen, false, `${where}: the chart waits for an answer`);
      assert.equal(state.verdict, '', `${where}: no verdict before an answer`);
      assert.equal(state.lesson, '', `${where}: no lesson text before an answer`);
      assert.deepEqual(state.knobs, [], `${where}: no knob before an answer`);
      assert.equal(state.back, previous, `${where}: back leads to the chapter before`);
      // Tab reaches the answers; Enter with none picked shows nothing.
      await page.evaluate(() => document.activeElement?.blur());
      for (let tabs = 0; tabs < 30; tabs++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => document.activeElement?.name === 'answer')) break;
      }
      assert.equal(await page.evaluate(() => document.activeElement?.name), 'answer', `${where}: Tab never reached the answers`);
      await page.keyboard.press('Enter');
      assert.equal((await chapterState(page)).chartSeen, false, `${where}: revealed without an answer`);
      // The keys of a radio group pick; Enter submits the guess.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('verdict').dataset.answered === 'true', null, { timeout: 60000 });
      state = await chapterState(page);
      assert.equal(state.chartSeen, true, `${where}: the chart after the answer`);
      assert.ok(state.lesson.length > 60, `${where}: the lesson after the answer`);
      assert.equal(state.knobs.length, 1, `${where}: one knob, not ${state.knobs}`);
      assert.ok(state.runs, `${where}: the runs' answer is marked`);
      const guessed = state.picked.trim();
      const agrees = state.runs === guessed;
      assert.ok(state.verdict.includes(agrees ? 'the runs agree' : `the runs show \u201c${state.runs}\u201d`), `${where}: ${state.verdict}`);
      assert.match(state.verdict, /Over \d+ seeds/, `${where}: the verdict is measured over seeds`);
      // The verdict is read out: focus moved to it.
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'verdict', `${where}: focus on the verdict`);
      if (name === 'phone') {
        // The chart on the first screen, and the knob within a screen of it.
        const at = await page.evaluate(() => {
          const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
          return { chart: box(document.querySelector('#key-slot canvas')), knob: box(document.querySelector('#knob .param')) };
        });
        // As tall as chart/lessons.rs draws it when it measures every plot
        // at 160 px or more (PHONE_KEY, PHONE_KEY_WITH_STRIP).
        const strip = /idempotency/i.test(state.title);
        assert.ok(at.chart.bottom - at.chart.top >= (strip ? 620 : 506) - 1, `${where}: the chart is ${at.chart.bottom - at.chart.top} px tall`);
        // Its plots on the first screen: the time axis' numbers and title,
        // the canvas' lowest 48 px (chart/mod.rs `axes`), may fall below.
        assert.ok(at.chart.bottom - 48 <= viewport.height, `${where}: the chart's plots end at ${at.chart.bottom - 48} px`);
        assert.ok(at.knob.bottom - at.chart.top <= viewport.height, `${where}: the knob ends ${at.knob.bottom - at.chart.top} px below the chart's top`);
      }
      if (name === 'laptop') {
        assert.deepEqual(await audit(page), [], `${where}: axe, light, after the reveal`);
        await page.emulateMedia({ colorScheme: 'dark' });
        assert.deepEqual(await audit(page), [], `${where}: axe, dark, after the reveal`);
        await page.emulateMedia({ colorScheme: 'light' });
      }
      // The chapter's link opens the same chapter, asking again.
      const fresh = await open(browser, page.url(), { viewport });
      const again = await chapterState(fresh);
      assert.deepEqual([again.title, again.question, again.chartSeen], [state.title, asked, false], `${where}: its link`);
      if (name === 'laptop') assert.deepEqual(await audit(fresh), [], `${where}: axe, light, before the reveal`);
      await fresh.context().close();
      // Back by key, and on again.
      if (previous) {
        await Promise.all([page.waitForURL((u) => `?${u.searchParams}` === previous), press(page, 'p')]);
        await started(page);
        await Promise.all([page.waitForURL((u) => u.searchParams.get('chapter') === key), press(page, 'n')]);
        await drawn(page);
      }
      previous = `?chapter=${key}`;
      walked.push(key);
      await Promise.all([page.waitForURL((u) => `?${u.searchParams}` === state.next), press(page, 'n')]);
    }
    assert.ok(problemsOf(page).length === 0, `${name}: ${problemsOf(page)}`);
    await page.context().close();
    console.log(`${name}: walked ${walked.join(' > ')}`);
    assert.equal(walked.length, 13, 'the core path: twelve chapters and the last page');
  });
}

function problemsOf(page) {
  return page.problems;
}

test('the playground offers the course on its first screen, and a chapter the playground', async () => {
  const page = await open(browser, base, { viewport: WIDE });
  const start = await page.$eval('#start-course', (a) => {
    const box = a.getBoundingClientRect();
    return { href: a.getAttribute('href'), bottom: box.bottom, seen: box.width > 0 };
  });
  assert.equal(start.seen, true);
  assert.ok(start.bottom < WIDE.height / 4, `the course's link at ${start.bottom} px`);
  assert.deepEqual(await audit(page), [], 'axe on the playground, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await audit(page), [], 'axe on the playground, dark');
  await Promise.all([page.waitForURL(/chapter=why-retry/), page.click('#start-course')]);
  await drawn(page);
  // Turn the knob after the reveal, then take the state to the playground.
  await page.check('#answers .answer-row:nth-child(1) input[type=radio]');
  await page.click('#reveal');
  const knob = await page.$eval('#knob .param', (p) => p.id);
  assert.equal(knob, 'param-failure');
  await page.fill('#knob input[type=number]', '0.5');
  await page.press('#knob input[type=number]', 'Enter');
  await page.waitForURL((u) => u.searchParams.get('failure') === '0.5' && u.searchParams.get('chapter') === 'why-retry');
  await drawn(page);
  const playground = await page.$eval('#to-playground', (a) => a.getAttribute('href'));
  const report = await page.evaluate(() => window.wasmBindings.report_json(location.search));
  const sandbox = await open(browser, `${base}${playground}`, { viewport: WIDE });
  await sandbox.waitForFunction(() => document.body.dataset.link === location.search.slice(1));
  assert.equal(await sandbox.evaluate(() => document.documentElement.classList.contains('course')), false);
  assert.equal(await sandbox.evaluate(() => window.wasmBindings.report_json(location.search)), report, 'the same numbers in the playground');
  assert.equal(await sandbox.$eval('#lesson-title', (h) => h.textContent), 'Why retry at all: a flaky dependency');
  await sandbox.context().close();
  await page.context().close();
});

test('a chapter is presented to a room with a key, and stays presented on', async () => {
  const page = await open(browser, `${base}?chapter=jitter`, { viewport: WIDE });
  await press(page, 'f');
  await page.waitForURL(/present=on/);
  const shown = await page.evaluate(() => ({
    presenting: document.documentElement.classList.contains('presenting'),
    header: getComputedStyle(document.querySelector('header')).display,
    font: parseFloat(getComputedStyle(document.documentElement).fontSize),
  }));
  assert.deepEqual([shown.presenting, shown.header], [true, 'none']);
  assert.ok(shown.font >= 20, `large type: ${shown.font} px`);
  // The next chapter on the path, as the page links it.
  const next = await page.$eval('#chapter-next', (a) => new URL(a.href).searchParams.get('chapter'));
  assert.ok(next && next !== 'jitter', next);
  await Promise.all([page.waitForURL((u) => u.searchParams.get('chapter') === next), press(page, 'n')]);
  assert.match(page.url(), /present=on/);
  // The next chapter is a page of its own: presented once it has started.
  await page.waitForFunction(() => document.documentElement.classList.contains('presenting'), null, STATE_WAIT);
  await page.waitForFunction(() => document.body.dataset.renders !== undefined, null, STATE_WAIT);
  await press(page, 'Escape');
  await page.waitForURL((u) => !u.searchParams.has('present'));
  await page.context().close();
});
