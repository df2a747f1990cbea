// In-browser benchmark (not a test): median time to re-simulate and redraw,
// in headless Chromium, for the first preset and for a 1 000 000-operation
// workload. Run by scripts/bench; prints figures, asserts nothing.
import { serve, launch, open } from './harness.mjs';

const WORKLOADS = [
  ['first preset (herd, 2000 clients)', ''],
  ['1 000 000 operations (Poisson 10 000/s for 100 s, failure 0.5, 4 attempts)',
    '?v=1&rate=10000&horizon=100&failure=0.5&workers=0&timeout=0&hop_mean=0.025&service_t=0'],
];

const { server, base } = await serve();
const browser = await launch();
try {
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
