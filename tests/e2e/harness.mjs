// Shared by the end-to-end tests: serves dist/ on a free loopback port and
// drives the system's Chromium with playwright-core (no browser download).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

// The built page: dist/, or another build's folder in DIST.
const root = path.resolve(process.env.DIST || path.join(import.meta.dirname, '../../dist'));
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

// One server and one browser for a test file: started before its tests,
// closed after them; `ready` receives `{ base, browser }` once both are up.
export function servePage(ready) {
  let server, browser;
  before(async () => {
    let base;
    ({ server, base } = await serve());
    browser = await launch();
    ready({ base, browser });
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
}

// `prelude`, a script's source, runs first in every page served: before
// the page's own scripts, so that it sees all they do.
export async function serve({ prelude } = {}) {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${path.join(root, 'index.html')} is missing: run \`trunk build --release\` first`);
  }
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    const target = fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(root, 'index.html');
    response.writeHead(200, { 'content-type': types[path.extname(target)] ?? 'application/octet-stream' });
    if (prelude && target.endsWith('.html')) {
      // Trunk's minified page has no <head> tag: the charset comes first.
      const html = fs.readFileSync(target, 'utf8');
      const at = html.search(/<meta charset[^>]*>/i);
      const after = at < 0 ? html.indexOf('>', html.search(/<html/i)) + 1 : html.indexOf('>', at) + 1;
      response.end(`${html.slice(0, after)}<script>${prelude}</script>${html.slice(after)}`);
      return;
    }
    fs.createReadStream(target).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// A page that records every console error and uncaught exception.
// `before(page)` runs before the page loads, e.g. to take a browser API away.
// `serviceWorkers: 'block'` keeps the page's service worker out, so that
// what `before` routes is what the page gets.
export async function open(browser, url, {
  colorScheme = 'light', deviceScaleFactor = 1, viewport = { width: 1280, height: 900 }, before,
  serviceWorkers = 'allow',
} = {}) {
  const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor, serviceWorkers });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => { if (message.type() === 'error') page.problems.push(message.text()); });
  page.on('pageerror', (error) => page.problems.push(String(error)));
  if (before) await before(page);
  await page.goto(url);
  await rendered(page, 1);
  return page;
}

// Unfolds the header's share buttons (copy link, embed code, new seed).
export async function openShare(page) {
  await page.evaluate(() => { document.getElementById('share').open = true; });
}

// Opens a group of controls (they start collapsed unless the lesson is about them).
export async function openGroup(page, group) {
  await page.evaluate((id) => { document.getElementById(id).open = true; }, `group-${group}`);
}

// Picks a preset by its key's position in the list, and waits for its charts.
export async function pickPreset(page, value) {
  const count = await renders(page);
  const current = await page.inputValue('#preset');
  await page.selectOption('#preset', value);
  if (current !== value) await rendered(page, count + 1);
  await settled(page);
}

// How long a wait for a state may take before it fails: a wait, not a
// measure of speed (the benchmarks measure that). On a shared two-core
// host one preset's runs were seen taking 17 s that take 0.6 s alone.
export const STATE_WAIT = { timeout: 90000 };

// Waits until the page has rendered at least `count` times in all.
export async function rendered(page, count) {
  await page.waitForFunction((n) => Number(document.body.dataset.renders || 0) >= n, count, STATE_WAIT);
}

// Waits until the charts show the state in the address bar.
export async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.link === location.search.slice(1), null, STATE_WAIT);
}

// Waits until the sweep of the state in the address bar is complete.
export async function swept(page) {
  await page.waitForFunction(() => document.body.dataset.swept === location.search.slice(1), null, STATE_WAIT);
}

export async function renders(page) {
  return page.evaluate(() => Number(document.body.dataset.renders || 0));
}

// Draws the state shown again as a fresh page opened on its link would:
// without the faint state before the last change and on axes of its own
// (a hook of pages built with TRUNK_BUILD_FEATURES=test-hooks). What a
// link reproduces is its own picture; the ghost is the history of a visit.
export async function withoutBefore(page) {
  const count = await renders(page);
  await page.evaluate(() => window.wasmBindings.forget_before_for_test());
  await rendered(page, count + 1);
  await settled(page);
}

// The canvas as a PNG data URL: equal strings mean identical pixels.
export async function pixels(page, id) {
  return page.evaluate((id) => document.getElementById(id).toDataURL('image/png'), id);
}

// How many pixels differ from the top-left (background) pixel.
export async function inked(page, id) {
  return page.evaluate((id) => {
    const canvas = document.getElementById(id);
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) count++;
    }
    return { count, total: data.length / 4 };
  }, id);
}
