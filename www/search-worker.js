// A worker of the search for a better policy (page/src/search_workers.rs).
// The page posts it the module it already compiled and the URL of its
// JavaScript glue, so nothing is downloaded or compiled twice; then each
// batch of runs, which it answers with what they found. Messages are
// handled in order, so a batch waits for the module to be ready.
let ready;
onmessage = async ({ data }) => {
  if (data.module) {
    ready = import(data.glue).then(async (glue) => {
      await glue.default({ module_or_path: data.module });
      return glue;
    });
    return;
  }
  const glue = await ready;
  postMessage(glue.search_batch(data.batch));
};
