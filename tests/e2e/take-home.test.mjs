// "Take it home": the files the page saves, the policy copied as library
// configuration, and a configuration pasted in, in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { servePage, open, settled, swept, pixels } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

// Small, so every file is quick to make; compare mode, so B's line is under the pictures.
const LINK = 'v=1&compare=on&B.attempts=2&rate=40&horizon=10&seed=7';

function cli(...args) {
  const binary = process.env.NATIVE_CLI
    ? path.resolve(process.env.NATIVE_CLI)
    : path.resolve(import.meta.dirname, '../../target/debug/retry-playground');
  const run = spawnSync(binary, args, { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

// Opens the section and waits for its module (home/), fetched the first
// time it opens.
async function openTakeHome(page) {
  await page.evaluate(() => { document.getElementById('take-home').open = true; });
  await page.waitForSelector('#take-home[data-loaded]', { state: 'attached' });
}

// Clicks a download button and returns the saved file's name and bytes.
async function download(page, selector) {
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: saved.suggestedFilename(), bytes: fs.readFileSync(await saved.path()) };
}

test('each download is a file of the right kind that holds what the command line prints', async () => {
  const page = await open(browser, `${base}?${LINK}`);
  await swept(page);
  await openTakeHome(page);
  const link = new URL(page.url()).search.slice(1);

  for (const [canvas, word] of [['chart-load', 'load'], ['chart-sweep', 'sweep'], ['chart-mechanism', 'mechanism']]) {
    const { name, bytes } = await download(page, `[data-picture="${canvas}"]`);
    assert.equal(name, `custom-seed7-${word}.png`);
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${name} is not a PNG`);
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    const chart = await page.evaluate((id) => {
      const c = document.getElementById(id);
      return { width: c.width, height: c.height };
    }, canvas);
    assert.ok(chart.width > 0, `${canvas} was drawn for its picture`);
    assert.equal(width, chart.width, name);
    // Caption, A's line, B's line and the link: at least four lines of text.
    assert.ok(height > chart.height + 4 * 13, `${name}: ${height} px tall for a ${chart.height} px chart`);
  }

  const series = await download(page, '[data-data="series"]');
  assert.equal(series.name, 'custom-seed7-series.csv');
  assert.equal(series.bytes.toString('utf8'), cli('--csv', link));
  const sweep = await download(page, '[data-data="sweep"]');
  assert.equal(sweep.name, 'custom-seed7-sweep.csv');
  assert.equal(sweep.bytes.toString('utf8'), cli('--sweep', link));
  const report = await download(page, '[data-data="report"]');
  assert.equal(report.name, 'custom-seed7-report.json');
  assert.equal(report.bytes.toString('utf8'), cli(link));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a preset names its files after itself', async () => {
  const page = await open(browser, base);
  await openTakeHome(page);
  const { name } = await download(page, '[data-picture="chart-latency"]');
  const preset = await page.evaluate(() => document.getElementById('preset').selectedOptions[0].textContent);
  assert.match(name, /^[a-z0-9-]+-seed\d+-latency\.png$/);
  assert.ok(!name.startsWith('custom-'), `${name} for preset ${preset}`);
  await page.context().close();
});

test('Copy puts the chosen library configuration on the clipboard, as the command line writes it', async () => {
  const page = await open(browser, `${base}?${LINK}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The configurations are a module of their own (home/), which the first
  // screen never fetches: only the section's opening does.
  const homeFetched = () => page.evaluate(() => performance.getEntriesByType('resource')
    .some((e) => /\/retry-playground-home(_bg)?\.(js|wasm)$/.test(e.name)));
  await settled(page);
  assert.equal(await homeFetched(), false);
  await openTakeHome(page);
  assert.equal(await homeFetched(), true);
  await page.selectOption('#export-format', 'envoy');
  await page.waitForFunction(() => document.getElementById('snippet').value.includes('num_retries'));
  assert.match(await page.textContent('#snippet-heading'), /^Policy A as Envoy/);
  assert.ok((await page.locator('#snippet-notes li').count()) > 0, 'Envoy counts retries: a note says so');
  await page.click('#copy-snippet');
  await page.waitForFunction(() => document.getElementById('snippet-status').textContent.length > 0);
  assert.equal(await page.textContent('#snippet-status'), 'Configuration copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const link = new URL(page.url()).search.slice(1);
  assert.equal(copied.trimEnd(), cli('--export', 'envoy', link).trimEnd());

  // Editing B writes B's policy.
  await page.click('#edit-b');
  await page.waitForFunction(() => document.getElementById('snippet-heading').textContent.startsWith('Policy B'));
  assert.equal((await page.inputValue('#snippet')).trimEnd(), cli('--export', 'envoy', '--b', link).trimEnd());
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Copy refused by the browser selects the configuration and does not claim it copied', async () => {
  const page = await open(browser, `${base}?${LINK}`, {
    before: (p) => p.addInitScript(() => {
      Clipboard.prototype.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      document.execCommand = () => false;
    }),
  });
  await openTakeHome(page);
  await page.click('#copy-snippet');
  await page.waitForFunction(() => document.getElementById('snippet-status').textContent.length > 0);
  assert.doesNotMatch(await page.textContent('#snippet-status'), /copied/i);
  assert.match(await page.textContent('#snippet-status'), /selected/);
  const selected = await page.evaluate(() => {
    const area = document.getElementById('snippet');
    return document.activeElement === area && area.value.length > 0
      && area.selectionStart === 0 && area.selectionEnd === area.value.length;
  });
  assert.equal(selected, true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

const GRPC = JSON.stringify({
  methodConfig: [{
    name: [{ service: 'shop.Cart' }],
    retryPolicy: {
      maxAttempts: 3, initialBackoff: '0.2s', maxBackoff: '2s', backoffMultiplier: 3,
      retryableStatusCodes: ['UNAVAILABLE'],
    },
  }],
  retryThrottling: { maxTokens: 20, tokenRatio: 0.5 },
}, null, 2);

test('a pasted gRPC service config sets the policy: the link and the charts change', async () => {
  const page = await open(browser, `${base}?${LINK}`);
  await openTakeHome(page);
  const before = await pixels(page, 'chart-pauses');
  await page.fill('#paste', GRPC);
  await page.click('#apply-a');
  await settled(page);
  const url = page.url();
  for (const pair of ['attempts=3', 'base=0.2', 'cap=2', 'mult=3', 'jitter=proportional', 'budget=token-bucket', 'tokens=20', 't_ratio=0.5']) {
    assert.ok(new URL(url).search.slice(1).split('&').includes(pair), `${pair} not in ${url}`);
  }
  assert.notEqual(await pixels(page, 'chart-pauses'), before, 'the pauses chart shows the new policy');
  assert.match(await page.textContent('#paste-status'), /^Read as gRPC service config \(JSON\) into policy A/);
  const items = await page.locator('#paste-result li').allTextContents();
  assert.ok(items.includes('Mapped: maxAttempts -> attempts = 3'), items.join('\n'));
  // What the config leaves out takes gRPC's own default, said with its source.
  assert.ok(items.some((item) => item.startsWith("Default: not in the paste: gRFC A6's default -> ")), items.join('\n'));

  // Into B: compare mode, A kept.
  await page.fill('#paste', GRPC.replace('"maxAttempts": 3', '"maxAttempts": 5'));
  await page.click('#apply-b');
  await settled(page);
  const pairs = new URL(page.url()).search.slice(1).split('&');
  assert.ok(pairs.includes('compare=on') && pairs.includes('attempts=3') && pairs.includes('B.attempts=5'), pairs.join('&'));
  assert.equal(await page.getAttribute('#edit-b', 'aria-pressed'), 'true');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The module that writes and reads the configurations is taught the
// page's Russian words before it answers: the snippet's notes and the
// paste's report are Russian, as the rest of the page.
test('in Russian, the snippet\'s notes and a paste\'s report are Russian', async () => {
  const page = await open(browser, `${base}?${LINK}&lang=ru`);
  await openTakeHome(page);
  await page.selectOption('#export-format', 'envoy');
  await page.waitForFunction(() => document.getElementById('snippet').value.includes('num_retries'));
  const notes = await page.locator('#snippet-notes li').allTextContents();
  assert.ok(notes.length > 0 && notes.every((note) => /[А-Яа-яЁё]/.test(note)), notes.join('\n'));
  await page.fill('#paste', GRPC);
  await page.click('#apply-a');
  await page.waitForFunction(() => document.getElementById('paste-status').textContent.length > 0);
  assert.match(await page.textContent('#paste-status'), /^Прочитано как /);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Istio counts retries: a pasted `attempts: 2` is 3 calls, and the cap is
// ten times the backoff, which Istio's proxy keeps; the snippet is then
// written in Istio's format.
test('a pasted Istio VirtualService in YAML sets the policy, retries counted as Istio counts them', async () => {
  const page = await open(browser, `${base}?${LINK}`);
  await openTakeHome(page);
  await page.fill('#paste', 'apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec:\n  http:\n  - timeout: 2s\n    retries:\n      attempts: 2\n      perTryTimeout: 250ms\n      backoff: 50ms  # the base\n');
  await page.click('#apply-a');
  await settled(page);
  const pairs = new URL(page.url()).search.slice(1).split('&');
  for (const pair of ['attempts=3', 'base=0.05', 'cap=0.5', 'timeout=0.25', 'deadline=2']) {
    assert.ok(pairs.includes(pair), `${pair} not in ${pairs.join('&')}`);
  }
  assert.match(await page.textContent('#paste-status'), /^Read as Istio VirtualService \(YAML\) into policy A/);
  // The team's format is the one the page writes back in.
  assert.equal(await page.inputValue('#export-format'), 'istio');
  assert.match(await page.textContent('#snippet-heading'), /^Policy A as Istio/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// One service of the chain takes a pasted policy as its own: attempts,
// base delay, backoff shape, cap, jitter and the timeout of its call
// below; the rest stays the policy's, and the list says so.
test('a configuration pasted into one service of the chain sets that layer\'s own policy', async () => {
  const page = await open(browser, `${base}?v=1&layers=3`);
  await openTakeHome(page);
  await page.fill('#paste', '{"retry_policy":{"num_retries":2,"per_try_timeout":"0.25s","retry_back_off":{"base_interval":"0.025s","max_interval":"0.25s"}}}');
  await page.selectOption('#paste-layer', '2');
  await page.click('#apply-layer');
  await settled(page);
  const pairs = new URL(page.url()).search.slice(1).split('&');
  for (const pair of ['layers=3', 'l2_attempts=3', 'l2_base=0.025', 'l2_shape=exponential', 'l2_cap=0.25', 'l2_jitter=full', 'l2_timeout=0.25']) {
    assert.ok(pairs.includes(pair), `${pair} not in ${pairs.join('&')}`);
  }
  assert.ok(!pairs.some((pair) => pair.startsWith('attempts=') || pair.startsWith('cap=')), pairs.join('&'));
  assert.match(await page.textContent('#paste-status'), /into the service at layer 2: 6 mapped/);
  assert.match(await page.textContent('#paste-result'), /a service below the top takes the policy's “Multiplier”/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a hostile or broken paste gives messages as text and no element from it', async () => {
  const page = await open(browser, `${base}?${LINK}`);
  let dialogs = 0;
  page.on('dialog', (dialog) => { dialogs++; dialog.dismiss(); });
  await openTakeHome(page);
  const scripts = await page.evaluate(() => document.scripts.length);
  const hostile = '{"methodConfig":[{"retryPolicy":{"maxAttempts":"<img src=x onerror=alert(1)>"}}]}';
  for (const [text, expected] of [
    [hostile, /maxAttempts must be a number/],
    ['{{{ <script>alert(1)</script>', /^Nothing was changed: not valid JSON/],
    ['\u0000\u0007 <script>alert(1)</script>', /^Nothing was changed: neither a JSON configuration nor an AWS/],
    ['<img src=x onerror=alert(1)>', /^Nothing was changed: neither a JSON configuration nor an AWS/],
    ['', /^Nothing was changed: nothing to read/],
  ]) {
    const link = page.url();
    await page.fill('#paste', text);
    await page.click('#apply-a');
    await page.waitForFunction(() => document.getElementById('paste-status').textContent.length > 0);
    const said = `${await page.textContent('#paste-status')}\n${(await page.locator('#paste-result li').allTextContents()).join('\n')}`;
    assert.match(said, expected);
    // Every message is a bare list item holding text, nothing else.
    const shape = await page.evaluate(() => ({
      images: document.querySelectorAll('img, iframe').length,
      scripts: document.scripts.length,
      nested: [...document.querySelectorAll('#paste-result li, #paste-status')].some((e) => e.childElementCount > 0),
    }));
    assert.deepEqual(shape, { images: 0, scripts, nested: false }, text);
    if (/^Nothing was changed/.test(said)) assert.equal(page.url(), link, 'nothing read, nothing changed');
    await page.evaluate(() => { document.getElementById('paste-status').textContent = ''; });
  }
  assert.equal(dialogs, 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
