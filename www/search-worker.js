// A worker of the search for a better policy (page/src/search_workers.rs)
// and of the stress report (page/src/stress_panel.rs). It runs the
// search's own module (worker/, built for speed), which the
// page fetches and compiles once and posts to every worker; then each
// batch of runs it is posted is answered with what they found, each run
// of a stress report with its row. Work may come before the module: it
// waits for it.
let received;
const module = new Promise((resolve) => { received = resolve; });
const ready = module.then(async (compiled) => {
  const glue = await import('./retry-playground-worker.js');
  await glue.default({ module_or_path: compiled });
  return glue;
});
onmessage = async ({ data }) => {
  if (data.module) {
    received(data.module);
    return;
  }
  const glue = await ready;
  // A run that throws answers with why, so the page never waits for it.
  try {
    postMessage(data.batch ? glue.search_batch(data.batch) : glue.stress_run(data.link, data.item));
  } catch (error) {
    postMessage({ error: String(error) });
  }
};
