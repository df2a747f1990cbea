// A small W3C WebDriver client for WebKitGTK (Safari's engine) as Debian
// ships it: WebKitWebDriver (webkit2gtk-driver) driving MiniBrowser
// (libwebkit2gtk-4.1-0). Playwright's WebKit is a patched build it
// downloads; this drives the system's own, over plain HTTP with fetch.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// MiniBrowser is a GTK window with no headless mode: it needs an X server.
// Xvfb picks a free display itself (-displayfd), so runs never collide.
export async function startXvfb() {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let log = '';
  xvfb.stderr.on('data', (chunk) => { log += chunk; });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    xvfb.stdio[3].on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it chose a display: ${log}`)));
  });
  return { display, stop: () => stopped(xvfb) };
}

async function stopped(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exit;
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// MiniBrowser's toolbar (buttons and the address entry) will not shrink
// below 447 px, so a 390 px window would stay 447 px wide inside. GTK's
// user style, read from XDG_CONFIG_HOME, shrinks that chrome only: web
// content takes its fonts and sizes from WebKit, not from GTK's CSS.
function tinyChrome() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'webkitgtk-'));
  fs.mkdirSync(path.join(home, 'gtk-3.0'));
  fs.writeFileSync(path.join(home, 'gtk-3.0', 'gtk.css'),
    '* { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; }\n');
  return home;
}

// Starts Xvfb, WebKitWebDriver on a free port and one browser session.
// `close()` ends all three.
export async function launchWebKit({ driver = process.env.WEBKIT_DRIVER || 'WebKitWebDriver', browser = process.env.WEBKIT_BROWSER } = {}) {
  const xvfb = await startXvfb();
  const home = tinyChrome();
  const port = await freePort();
  const child = spawn(driver, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: xvfb.display, XDG_CONFIG_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const stop = async () => {
    await stopped(child);
    await xvfb.stop();
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    const failed = new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`${driver} exited (${code}): ${log}`)));
    });
    failed.catch(() => {});
    // Up when it answers: a state, polled until the driver listens.
    for (;;) {
      const up = await Promise.race([fetch(`${url}/status`).then(() => true, () => false), failed]);
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Without a binary the driver starts the MiniBrowser it was built with.
    const options = browser ? { binary: browser, args: ['--automation'] } : undefined;
    const created = await command(url, 'POST', '/session', {
      capabilities: { alwaysMatch: { browserName: 'MiniBrowser', ...(options && { 'webkitgtk:browserOptions': options }) } },
    });
    return new Session(url, created.sessionId, created.capabilities, stop);
  } catch (error) {
    await stop();
    throw error;
  }
}

async function command(url, method, route, body) {
  const response = await fetch(url + route, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const { value } = await response.json();
  if (!response.ok || value?.error) {
    throw new Error(`WebDriver ${method} ${route}: ${value?.error}: ${value?.message}`);
  }
  return value;
}

// A script for the page: a function's own text, called with the script's
// arguments.
const call = (fn) => `return (${fn}).apply(null, arguments)`;

// The key of an element's reference in the protocol's JSON (the spec's).
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class Session {
  constructor(url, id, capabilities, stop) {
    this.url = `${url}/session/${id}`;
    this.capabilities = capabilities;
    this.stop = stop;
  }

  command(method, route, body) {
    return command(this.url, method, route, body);
  }

  // WebKitGTK's driver may answer while the new document still loads
  // (the spec says after its load event): waits for that too.
  async goto(url) {
    await this.command('POST', '/url', { url });
    await this.waitFor(() => document.readyState === 'complete', null, { what: `${url} to load` });
  }

  evaluate(fn, ...args) {
    return this.command('POST', '/execute/sync', { script: call(fn), args });
  }

  // Polls `fn` in the page until it returns something truthy: a wait for
  // a state, failed after `timeout` ms with `what` it waited for.
  async waitFor(fn, arg, { timeout = 30000, what = String(fn) } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(fn, arg);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`waited ${timeout} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  // A real click, by the driver, in the middle of the element.
  async click(selector) {
    const found = await this.command('POST', '/element', { using: 'css selector', value: selector });
    const id = found[ELEMENT];
    await this.command('POST', `/element/${id}/click`, {});
  }

  // The page's visible part, as a PNG.
  async screenshot() {
    return Buffer.from(await this.command('GET', '/screenshot'), 'base64');
  }

  // Sizes the window so that the page inside is `width` x `height` CSS
  // pixels: the window's frame (MiniBrowser's toolbar) is measured and
  // added on.
  // A window caught mid-resize or mid-load can report a size that gives
  // no valid window (the driver once refused a width): that try is read
  // again a moment later.
  async setViewport({ width, height }) {
    let inner = { width: 0, height: 0 };
    let refused = '';
    for (let tries = 0; tries < 6; tries++) {
      const rect = await this.command('GET', '/window/rect');
      inner = await this.evaluate(() => ({ width: innerWidth, height: innerHeight }));
      if (inner.width === width && inner.height === height) return inner;
      const wanted = {
        width: Math.round(rect.width + width - inner.width),
        height: Math.round(rect.height + height - inner.height),
      };
      const valid = Object.values(wanted).every((v) => Number.isFinite(v) && v > 0);
      const resized = valid && await this.command('POST', '/window/rect', wanted)
        .then(() => true, (error) => { refused = `; the driver refused ${JSON.stringify(wanted)}: ${error.message}`; return false; });
      if (!resized) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    inner = await this.evaluate(() => ({ width: innerWidth, height: innerHeight }));
    if (inner.width !== width || inner.height !== height) {
      throw new Error(`the window will not be ${width}x${height} inside: ${inner.width}x${inner.height}${refused}`);
    }
    return inner;
  }

  async close() {
    try {
      await this.command('DELETE', '');
    } finally {
      await this.stop();
    }
  }
}
