import { serve, launch, open, settled, swept } from './harness.mjs';
const { server, base } = await serve();
const browser = await launch();
try {
  const page = await open(browser, base + (process.env.Q || ''));
  await settled(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const fn = process.env.FN || 'move_now(true)';
  await page.evaluate((fn) => { for (let i = 0; i < 60; i++) eval('window.wasmBindings.' + fn); }, fn);
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const s of profile.samples) counts.set(s, (counts.get(s) || 0) + 1);
  let total = 0;
  for (const [id, c] of counts) {
    const n = byId.get(id);
    const name = n.callFrame.functionName || '(anon)';
    self.set(name, (self.get(name) || 0) + c);
    total += c;
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [name, c] of top) console.log((100 * c / total).toFixed(1).padStart(5), name.slice(0, 110));
  // inclusive
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const incl = new Map();
  for (const [id, c] of counts) {
    const seen = new Set();
    let at = id;
    while (at !== undefined) {
      const name = byId.get(at).callFrame.functionName || '(anon)';
      if (!seen.has(name)) { seen.add(name); incl.set(name, (incl.get(name) || 0) + c); }
      at = parent.get(at);
    }
  }
  console.log('--- inclusive');
  const re = new RegExp(process.env.RE || 'retry_|plotters');
  for (const [name, c] of [...incl].filter(([n]) => re.test(n)).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((100 * c / total).toFixed(1).padStart(5), name.replace(/::h[0-9a-f]{16}$/, '').slice(0, 120));
} finally { await browser.close(); server.close(); }
