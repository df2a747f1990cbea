// In-browser benchmark (not a test), in headless Chromium: how the page
// answers a person (interaction to next paint, the longest task, the first
// chart), the replay's frames, and the median time to re-simulate and
// redraw at once. Run by scripts/bench; prints figures beside their
// targets, asserts nothing.
import { serve, launch, open, settled, swept } from './harness.mjs';

// The default preset, and the big world: 2.4 million operations a policy,
// A and B.
const DEFAULT = '';
const BIG = '?v=1&rate=20000&horizon=120&compare=on';
const STEPS = 20;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

// Twenty steps of a slider by the keyboard (trusted input, as a person
// holding an arrow key at about 20 steps a second), measured by the page
// itself: interaction to next paint from the Event Timing API (an
// interaction's latency is its longest event's duration, from the key's
// timestamp to the next frame painted after its handlers), and every
// main-thread task over 50 ms from the Long Tasks API.
async function keyboardSteps(name, query) {
  const page = await open(browser, base + query);
  await settled(page);
  await page.evaluate(() => {
    window.benchEvents = [];
    window.benchLongTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.interactionId) window.benchEvents.push([entry.interactionId, entry.duration]);
      }
    }).observe({ type: 'event', durationThreshold: 16 });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.benchLongTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  await page.focus('#in-attempts');
  for (let step = 0; step < STEPS; step++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(50);
  }
  await settled(page);
  // Entries arrive after the frame they describe.
  await page.waitForTimeout(500);
  const { events, longTasks } = await page.evaluate(() => ({
    events: window.benchEvents, longTasks: window.benchLongTasks,
  }));
  const latency = new Map();
  for (const [id, duration] of events) latency.set(id, Math.max(latency.get(id) ?? 0, duration));
  // Interactions under the 16 ms threshold report no entry: count them as 16.
  const all = [...latency.values()];
  while (all.length < STEPS) all.push(16);
  const worst = Math.max(...all);
  const fast = STEPS - latency.size;
  console.log(`${name}: interaction to next paint over ${STEPS} keyboard steps: median ${median(all).toFixed(0)} ms, `
    + `worst ${worst.toFixed(0)} ms (${fast} under 16 ms; target <= 50 ms)`);
  const longest = longTasks.length ? `${Math.max(...longTasks).toFixed(0)} ms` : 'none over 50 ms';
  console.log(`${name}: longest main-thread task during the steps: ${longest}; `
    + `${longTasks.length} tasks over 50 ms, ${longTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms in all (target: none over 50 ms)`);
  await page.context().close();
}

// performance.now() when the first chart (the lesson's) is final, and
// when every chart but the sweep is, from navigation, on fresh pages.
async function firstChart(loads) {
  const first = [];
  const all = [];
  for (let load = 0; load < loads; load++) {
    const page = await open(browser, base);
    const [lesson, every] = await page.evaluate(() => [document.body.dataset.firstChartAt, document.body.dataset.drawnAt]);
    first.push(Number(lesson));
    all.push(Number(every));
    await page.context().close();
  }
  const sorted = (times) => [...times].sort((a, b) => a - b).join(', ');
  console.log(`default preset: first chart (the lesson's) ${median(first).toFixed(0)} ms from navigation, median of ${loads} fresh loads, `
    + `each with an empty cache (${sorted(first)}; target <= 300 ms)`);
  console.log(`default preset: every chart but the sweep ${median(all).toFixed(0)} ms from navigation (${sorted(all)})`);
}

// Each with the time its re-simulate and redraw should stay within.
const WORKLOADS = [
  ['first preset (herd, 2000 clients)', '', 8],
  ['1 000 000 operations (Poisson 10 000/s for 100 s, failure 0.5, 4 attempts)',
    '?v=1&rate=10000&horizon=100&failure=0.5&workers=0&timeout=0&hop_mean=0.025&service_t=0', 150],
];

// Frames of the herd's replay while it plays (as many lanes as fit for each of A and
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
  console.log(`replay of the herd, A and B: frame interval ${stats(gaps)}; drawing per frame ${stats(work)} (${gaps.length} frames)`);
  await page.context().close();
}

// BENCH_PARTS=first,keys,replay,redraw runs only those parts (all by
// default), e.g. to compare two builds in turn on a busy host.
// The search for a better policy of the default world (`v=1`: every
// setting at its default) on the page's
// workers, as many as the browser says it has cores (1, then 2, set by
// overriding navigator.hardwareConcurrency before the page loads): the
// time from opening the panel to the frontier, the runs it made and their
// cost, what 1 000 runs cost at that rate, and the longest main-thread
// task meanwhile.
async function search() {
  const took = {};
  for (const cores of (process.env.BENCH_CORES || "1,2").split(",").map(Number)) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
    const page = await context.newPage();
    await page.goto(`${base}?v=1`);
    await settled(page);
    await swept(page);
    await page.evaluate(() => {
      window.benchLongTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.benchLongTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    await page.click('#search > summary');
    await page.waitForFunction(() => document.body.dataset.searchMs, null, { timeout: 120000, polling: 1000 });
    const { ms, workers, runs, longest } = await page.evaluate(() => ({
      ms: Number(document.body.dataset.searchMs),
      workers: Number(document.body.dataset.searchWorkers),
      runs: Number(/in (\d+) runs/.exec(document.getElementById('search-status').textContent)[1]),
      longest: Math.max(0, ...window.benchLongTasks),
    }));
    took[cores] = ms;
    console.log(`search of the default world on ${workers} worker(s): ${runs} runs in ${ms} ms, `
      + `${(ms * workers / runs).toFixed(2)} ms a run a worker; 1 000 runs at this rate ${(ms * 1000 / runs).toFixed(0)} ms `
      + `(target <= 1000 ms on two workers); longest main-thread task ${longest.toFixed(0)} ms (target < 50)`);
    await context.close();
  }
  console.log(`search scaling: 2 workers ${(took[1] / took[2]).toFixed(2)}x one (target >= 1.7x)`);
}

const parts = (process.env.BENCH_PARTS || 'first,keys,replay,redraw,search').split(',');
const { server, base } = await serve();
const browser = await launch();
try {
  if (parts.includes('first')) await firstChart(10);
  if (parts.includes('keys')) {
    await keyboardSteps('default preset', DEFAULT);
    await keyboardSteps('big world (20 000/s for 120 s, compare on)', BIG);
  }
  if (parts.includes('replay')) await replayFrames();
  if (parts.includes('search')) await search();
  for (const [name, query, target] of parts.includes('redraw') ? WORKLOADS : []) {
    const page = await open(browser, base + query);
    const runs = query ? 5 : 30;
    const times = await page.evaluate((runs) => {
      const out = [];
      for (let i = 0; i < runs; i++) out.push(window.wasmBindings.redraw_now());
      return out;
    }, runs);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    // The runs alone, drawing nothing: the rest of a redraw is drawing.
    const simulated = await page.evaluate((runs) => {
      const out = [];
      for (let i = 0; i < runs; i++) out.push(window.wasmBindings.simulate_now());
      return out.sort((a, b) => a - b);
    }, runs);
    const runsMedian = simulated[Math.floor(simulated.length / 2)];
    const operations = await page.evaluate(() => document.querySelector('#summary td').textContent);
    if (!query) {
      // A move on one policy keeps the other's run: B's base, then A's.
      for (const onB of [true, false]) {
        const moves = await page.evaluate((onB) => Array.from({ length: 20 }, () => window.wasmBindings.move_now(onB)), onB);
        moves.sort((a, b) => a - b);
        console.log(`${name}: a move on ${onB ? 'B' : 'A'}'s base, re-simulate and redraw, median ${moves[10].toFixed(1)} ms over 20 (min ${moves[0].toFixed(1)}, max ${moves.at(-1).toFixed(1)})`);
      }
      const sweeps = await page.evaluate(() => [0, 1, 2, 3, 4].map(() => window.wasmBindings.sweep_now()));
      sweeps.sort((a, b) => a - b);
      console.log(`${name}: sweep of 21 failure rates x 2 policies, median ${sweeps[2].toFixed(1)} ms over 5`);
    }
    console.log(`${name}: median ${median.toFixed(1)} ms over ${runs} redraws (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)}; target <= ${target} ms); operations ${operations}; `
      + `the runs alone ${runsMedian.toFixed(1)} ms (median over ${runs}; natively: --only page of the native benchmark)`);
    await page.context().close();
  }
} finally {
  await browser.close();
  server.close();
}
