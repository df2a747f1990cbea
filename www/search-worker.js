// A worker of the search for a better policy (page/src/search_workers.rs).
// It runs the search's own module (worker/, built for speed), which the
// page never loads: imported once, then each batch of runs it is posted
// is answered with what they found. Messages are handled in order, so a
// batch waits for the module to be ready.
const ready = import('./retry-playground-worker.js').then(async (glue) => {
  await glue.default();
  return glue;
});
onmessage = async ({ data }) => {
  const glue = await ready;
  postMessage(glue.search_batch(data.batch));
};
