// After one visit the page works offline, from the service worker's cache;
// a new build's page drops the old build's files from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, rendered, inked } from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const CHARTS = ['chart-load', 'chart-pauses', 'chart-latency', 'chart-sweep', 'chart-mechanism', 'chart-contention'];

// Polls `check` (async, run in the page) until it holds. waitForFunction
// takes the promise an async function returns for a true value at once.
async function until(page, check, arg, what) {
  // A bound on a wait for a state, as STATE_WAIT is, not a measure of speed.
  const deadline = Date.now() + 90000;
  while (!(await page.evaluate(check, arg))) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await page.waitForTimeout(200);
  }
}

// What the search's workers load once the search opens, kept before.
const SEARCH_FILES = ['search-worker.js', 'retry-playground-worker.js', 'retry-playground-worker_bg.wasm'];

// Waits until the service worker controls the page and its cache holds the
// page, every file the page loaded from its own origin and the search's.
async function cached(page) {
  await until(page, async (search) => {
    if (!navigator.serviceWorker.controller) return false;
    const files = performance.getEntriesByType('resource').map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && !url.pathname.endsWith('/sw.js'))
      .map((url) => url.origin + url.pathname)
      .concat(search.map((name) => new URL(name, location).href));
    const keys = await caches.keys();
    if (keys.length !== 1) return false;
    const cache = await caches.open(keys[0]);
    const held = (await cache.keys()).map((request) => request.url);
    return files.length >= 6 && [new URL('./', location).href, ...files].every((file) => held.includes(file));
  }, SEARCH_FILES, 'the page and its files are cached');
}

async function everyChartDrawn(page) {
  await page.evaluate(() => { document.getElementById('more-charts').open = true; });
  await page.waitForFunction(() => document.body.dataset.swept === location.search.slice(1), null, { timeout: 30000 });
  // The contention chart is drawn once its group opened: wait for ink on
  // every chart, then say which one is blank if any stays so.
  await page.waitForFunction((ids) => ids.every((id) => {
    const canvas = document.getElementById(id);
    if (!canvas.width) return false;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) count++;
    }
    return count > data.length / 400;
  }), CHARTS, { timeout: 30000 }).catch(() => {});
  for (const id of CHARTS) {
    const { count, total } = await inked(page, id);
    assert.ok(count > total / 100, `${id} is blank offline: ${count} of ${total} pixels inked`);
  }
}

test('after one visit the page opens, draws every chart, searches and writes configurations offline', async () => {
  const { server, base } = await serve();
  const link = 'v=1&attempts=5&rate=80&horizon=10&failure=0.2&seed=3';
  const page = await open(browser, `${base}?${link}`);
  await cached(page);
  // Offline twice over: the browser says so, and the server is gone.
  await page.context().setOffline(true);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  // A POST passes the service worker by: it meets the network itself.
  assert.deepEqual(await page.evaluate(() => fetch('./', { method: 'POST' })
    .then(() => [navigator.onLine, 'answered'], () => [navigator.onLine, 'failed'])), [false, 'failed']);
  page.problems.length = 0;
  await page.reload();
  await rendered(page, 1);
  assert.equal(await page.evaluate(() => location.search), `?${link}`);
  assert.equal(await page.isHidden('#starting'), true);
  await everyChartDrawn(page);
  // The search, never opened online: its workers' module comes from the
  // cache, and the search ends on them.
  await page.click('#search > summary');
  await page.waitForFunction(() => document.body.dataset.searchMs, null, { timeout: 120000 });
  assert.ok(Number(await page.getAttribute('body', 'data-search-workers')) >= 1, 'the search ran on workers');
  // "Take it home", never opened online either: its module comes from the
  // cache and writes the policy.
  await page.click('#take-home > summary');
  await page.waitForFunction(() => document.getElementById('snippet').value.includes('maxAttempts'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a new build served drops the old build\'s files from the cache', async () => {
  const { server, base } = await serve();
  const page = await open(browser, base);
  await cached(page);
  // What an earlier build left: a file under another hash.
  const old = new URL('retry-playground-0123456789abcdef_bg.wasm', base).href;
  await page.evaluate(async (old) => {
    const cache = await caches.open((await caches.keys())[0]);
    await cache.put(old, new Response('an older build'));
  }, old);
  assert.equal(await page.evaluate(async (old) => (await caches.match(old))?.text(), old), 'an older build');
  // The page, asked of the network first, starts and lists what it loaded.
  await page.reload();
  await rendered(page, 1);
  await until(page, async (old) => {
    const cache = await caches.open((await caches.keys())[0]);
    return !(await cache.match(old));
  }, old, 'the old file is dropped');
  await cached(page);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  server.close();
});
