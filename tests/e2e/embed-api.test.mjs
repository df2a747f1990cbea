// window.retryPlayground, the page's numbers for scripts: the same as the
// command line's for the pinned links, and the same parameter table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { servePage, open } from './harness.mjs';

let base, browser;
servePage((served) => ({ base, browser } = served));

const binary = process.env.NATIVE_CLI
  ? path.resolve(process.env.NATIVE_CLI)
  : path.resolve(import.meta.dirname, '../../target/debug/retry-playground');

function native(...args) {
  const run = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

// The links whose reports the native and browser tests pin, read from
// their one definition (a `\` at a line's end continues a Rust string).
function pinnedLinks() {
  const source = fs.readFileSync(path.resolve(import.meta.dirname, '../common/golden.rs'), 'utf8');
  return [...source.matchAll(/pub const (\w*LINK): &str = "((?:[^"\\]|\\\n\s*)*)";/g)]
    .map(([, name, text]) => [name, text.replace(/\\\n\s*/g, '')]);
}

test('run(link) returns the report the command line prints, as a plain object', async () => {
  const links = pinnedLinks();
  assert.deepEqual(links.map(([name]) => name), ['LINK', 'ALONE_LINK', 'PLAIN_LINK']);
  // Compare mode answers for both policies.
  links.push(['compare', 'v=1&compare=on&attempts=3&rate=40&horizon=5&failure=0.2&B.jitter=none&B.budget=ratio']);
  const page = await open(browser, base);
  for (const [name, link] of links) {
    const report = await page.evaluate((link) => window.retryPlayground.run(link), link);
    assert.deepStrictEqual(report, JSON.parse(native(link)), name);
    // A whole address reads as its query, as on the command line.
    const whole = await page.evaluate((link) => window.retryPlayground.run(`https://example.org/play/?${link}#t=1`), link);
    assert.deepStrictEqual(whole, report, `${name} as an address`);
  }
  assert.deepEqual(Object.keys(await page.evaluate((l) => window.retryPlayground.run(l), links[3][1])), ['a', 'b']);
  // A plain object: numbers, strings, arrays and objects, nothing else.
  const plain = await page.evaluate((link) => {
    const seen = [];
    const walk = (value) => {
      if (value === null || ['number', 'string', 'boolean'].includes(typeof value)) return;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== Array.prototype) seen.push(String(proto?.constructor?.name));
      Object.values(value).forEach(walk);
    };
    walk(window.retryPlayground.run(link));
    return seen;
  }, links[0][1]);
  assert.deepEqual(plain, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('params() lists the command line\'s parameter table', async () => {
  const page = await open(browser, base);
  const params = await page.evaluate(() => window.retryPlayground.params());
  // `--params`: key, label, unit, range or choices, default, help.
  const rows = native('--params').trimEnd().split('\n');
  assert.equal(params.length, rows.length);
  for (const [index, row] of rows.entries()) {
    const param = params[index];
    const [key] = row.split(/\s+/);
    assert.equal(param.key, key);
    assert.ok(row.endsWith(` ${param.help}`), `${key}: help`);
    assert.match(row, new RegExp(` default ${String(param.default).replace(/[.|]/g, '\\$&')} `), `${key}: default`);
    const range = param.kind === 'choice' ? param.choices.join('|') : `${param.min}..${param.max}`;
    assert.ok(row.includes(` ${range} `), `${key}: ${range} in ${row}`);
  }
  assert.deepEqual(Object.keys(params.find((p) => p.key === 'base')),
    ['key', 'label', 'unit', 'group', 'kind', 'min', 'max', 'step', 'default', 'help', 'per_policy']);
  await page.context().close();
});

test('the API says when it is there, and refuses what is not a link', async () => {
  const page = await open(browser, base, {
    before: (p) => p.addInitScript(() => {
      window.readyEvents = 0;
      addEventListener('retryplaygroundready', () => { window.readyEvents += 1; });
    }),
  });
  assert.equal(await page.evaluate(() => window.readyEvents), 1);
  assert.equal(await page.evaluate(() => Object.isFrozen(window.retryPlayground)), true);
  const refused = await page.evaluate(() => {
    try { window.retryPlayground.run(42); return 'accepted'; } catch (error) { return `${error.name}: ${error.message}`; }
  });
  assert.equal(refused, 'TypeError: retryPlayground.run(link) takes a share link, a string');
  // A hostile link is read as the command line reads it: fixed, not feared.
  const hostile = 'v=1&attempts=1e309&jitter=%3Cscript%3E&rate=5&horizon=2';
  assert.deepStrictEqual(await page.evaluate((l) => window.retryPlayground.run(l), hostile), JSON.parse(native(hostile)));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
