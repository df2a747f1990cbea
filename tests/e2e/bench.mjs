// In-browser benchmark (not a test): median time to re-simulate and redraw,
// in headless Chromium, for the first preset and for a 1 000 000-operation
// workload. Run by scripts/bench; prints figures, asserts nothing.
import { serve, launch, open, swept } from './harness.mjs';

const WORKLOADS = [
  ['first preset (herd, 2000 clients)', ''],
  ['1 000 000 operations (Poisson 10 000/s for 100 s, failure 0.5, 4 attempts)',
    '?v=1&rate=10000&horizon=100&failure=0.5&workers=0&timeout=0&hop_mean=0.025&service_t=0'],
];

// Frames of the herd's replay while it plays (200 lanes for each of A and
// B): the time between frames as the browser paced them, and the time the
// page spent drawing each (the replay, and the load chart's cursor every
// 200 ms).
async function replayFrames() {
  const page = await open(browser, base);
  await page.waitForFunction(() => document.body.dataset.replayAt !== undefined);
  // After the sweep, which computes between frames at first.
  await swept(page);
  await page.click('#replay-play');
  const { gaps, work } = await page.evaluate(() => new Promise((resolve) => {
    const gaps = [], work = [];
    let last = null;
    const frame = (now) => {
      if (last !== null) gaps.push(now - last);
      last = now;
      work.push(Number(document.body.dataset.replayFrameMs || 0));
      if (gaps.length < 180) requestAnimationFrame(frame); else resolve({ gaps, work });
    };
    requestAnimationFrame(frame);
  }));
  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (share) => sorted[Math.floor((sorted.length - 1) * share)].toFixed(1);
    return `median ${at(0.5)} ms, 95th percentile ${at(0.95)} ms, worst ${sorted.at(-1).toFixed(1)} ms`;
  };
  console.log(`replay of the herd, 2 x 200 lanes: frame interval ${stats(gaps)}; drawing per frame ${stats(work)} (${gaps.length} frames)`);
  await page.context().close();
}

const { server, base } = await serve();
const browser = await launch();
try {
  await replayFrames();
  for (const [name, query] of WORKLOADS) {
    const page = await open(browser, base + query);
    const runs = query ? 5 : 30;
    const times = await page.evaluate((runs) => {
      const out = [];
      for (let i = 0; i < runs; i++) out.push(window.wasmBindings.redraw_now());
      return out;
    }, runs);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const operations = await page.evaluate(() => document.querySelector('#summary td').textContent);
    if (!query) {
      const sweeps = await page.evaluate(() => [0, 1, 2, 3, 4].map(() => window.wasmBindings.sweep_now()));
      sweeps.sort((a, b) => a - b);
      console.log(`${name}: sweep of 21 failure rates x 2 policies, median ${sweeps[2].toFixed(1)} ms over 5`);
    }
    console.log(`${name}: median ${median.toFixed(1)} ms over ${runs} redraws (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)}); operations ${operations}`);
    await page.context().close();
  }
} finally {
  await browser.close();
  server.close();
}
