// Page weight (a figure, not a test): every file the built page loads, raw
// and gzip -9, against the budget, for an English and a Russian reader
// (the Russian words are files of their own), then the wasm by part. Run by
// scripts/bench after the page build, and with --summary by the e2e suite
// (first.test.mjs); reads dist/ and, for the wasm's code by crate, the
// cargo artifact the page was built from. Over budget it says so loudly
// and exits non-zero.
//
//   node tests/e2e/weight.mjs [--summary] [dist]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

// 1 KB = 1000 bytes throughout. The first screen's budget: an English
// reader's every file before the first chart.
const BUDGET = 200_000;
// What a Russian reader downloads more before the first chart: its words.
const RUSSIAN_BUDGET = 25_000;
const repo = path.resolve(import.meta.dirname, '../..');
// --summary: the files and their totals, without the wasm's breakdown
// (which rebuilds the module with names kept); what the e2e suite runs.
const args = process.argv.slice(2);
const summary = args.includes('--summary');
const dist = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? path.join(repo, 'dist'));

// GNU gzip -9 as a person would measure it (-n: no file name in the
// header); zlib's level 9 when gzip is missing, which comes out about 2 %
// larger on the wasm.
const gzipTool = (() => {
  try { execFileSync('gzip', ['--version'], { stdio: 'pipe' }); return 'gzip -9'; } catch { return 'zlib level 9'; }
})();
const gz = (bytes) => (gzipTool === 'gzip -9'
  ? execFileSync('gzip', ['-9nc'], { input: bytes, maxBuffer: 1 << 28 }).length
  : zlib.gzipSync(bytes, { level: 9 }).length);
const kb = (bytes) => (bytes / 1000).toFixed(1).padStart(7) + ' KB';
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1).padStart(5)} %`;

// The modules the page fetches later, with when: the page's own module
// (page/), once the first chart's (first/) has drawn; the search's
// workers' script and module (worker/), and "Take it home"'s module
// (home/), once they are opened. index.html names them too, but only for
// the service worker to keep once the page has started.
const LATER = [
  [/^retry-playground-page(_bg)?\.(js|wasm)$/, 'once the first chart is drawn'],
  [/^(search-worker\.js|retry-playground-worker(_bg)?\.(js|wasm))$/, 'once the search opens'],
  [/^retry-playground-home(_bg)?\.(js|wasm)$/, 'once "Take it home" opens'],
];
const later = (name) => LATER.find(([files]) => files.test(name))?.[1];

// The files the page loads: index.html, then every file of dist/ named in a
// loaded text file (the glue names the wasm, a service worker its cache
// list), until nothing new is named; the modules fetched later are not
// among them.
function loadedFiles() {
  const all = fs.readdirSync(dist, { recursive: true })
    .filter((name) => fs.statSync(path.join(dist, name)).isFile());
  if (!all.includes('index.html')) {
    throw new Error(`${dist}/index.html is missing: run \`trunk build --release\` first`);
  }
  const loaded = ['index.html'];
  for (let i = 0; i < loaded.length; i++) {
    if (!/\.(html|js|mjs|css|json|webmanifest)$/.test(loaded[i])) continue;
    const text = fs.readFileSync(path.join(dist, loaded[i]), 'utf8');
    for (const name of all) {
      if (!loaded.includes(name) && !later(name) && text.includes(path.basename(name))) loaded.push(name);
    }
  }
  return loaded;
}

// An unsigned LEB128 number at `at`: [value, the offset after it].
function leb(bytes, at) {
  let value = 0, shift = 0, byte;
  do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return [value, at];
}

// A wasm module's sections: [id, name, body bytes] in file order.
function sections(bytes) {
  const names = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export',
    'start', 'element', 'code', 'data', 'data count'];
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    let size;
    [size, at] = leb(bytes, at + 1);
    out.push([id, names[id] ?? `section ${id}`, bytes.subarray(at, at + size)]);
    at += size;
  }
  return out;
}

// Function body sizes by name, from a module that kept its name section.
function functionSizes(bytes) {
  let imported = 0;
  const bodies = [];
  const names = new Map();
  for (const [id, , body] of sections(bytes)) {
    let at = 0, count, len;
    if (id === 2) {
      // Imports: module and field names, then a kind and its type; only
      // imported functions take function indices.
      [count, at] = leb(body, at);
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 2; k++) { [len, at] = leb(body, at); at += len; }
        const kind = body[at++];
        let flags;
        if (kind === 0) { [, at] = leb(body, at); imported++; }
        else if (kind === 1) { at++; [flags, at] = leb(body, at); [, at] = leb(body, at); if (flags & 1) [, at] = leb(body, at); }
        else if (kind === 2) { [flags, at] = leb(body, at); [, at] = leb(body, at); if (flags & 1) [, at] = leb(body, at); }
        else if (kind === 3) at += 2;
        else if (kind === 4) { at++; [, at] = leb(body, at); }
      }
    } else if (id === 10) {
      [count, at] = leb(body, at);
      for (let i = 0; i < count; i++) { [len, at] = leb(body, at); bodies.push(body.subarray(at, at + len)); at += len; }
    } else if (id === 0) {
      [len, at] = leb(body, at);
      if (Buffer.from(body.subarray(at, at + len)).toString() !== 'name') continue;
      at += len;
      while (at < body.length) {
        const sub = body[at];
        let size;
        [size, at] = leb(body, at + 1);
        const end = at + size;
        if (sub === 1) {
          // Function names: index, then the name.
          [count, at] = leb(body, at);
          for (let i = 0; i < count; i++) {
            let index;
            [index, at] = leb(body, at);
            [len, at] = leb(body, at);
            names.set(index, Buffer.from(body.subarray(at, at + len)).toString());
            at += len;
          }
        }
        at = end;
      }
    }
  }
  return bodies.map((body, i) => [names.get(i + imported) ?? '', body]);
}

// Where a function's code comes from, by its demangled name: our crate by
// module, the standard library by the parts that weigh (float formatting and
// parsing, sorting, Unicode tables), other crates by name.
function part(name) {
  const plain = name.replace(/\[[0-9a-f]+\]/g, '');
  // `<T as Trait>::f`, `<T>::f`: T's crate, or the trait's when T is a
  // primitive (`<f64 as core::fmt::Display>::fmt`).
  const bare = plain.replace(/^(<|&|mut |dyn )+/, '');
  let path = bare.match(/^[\w:]+/)?.[0] ?? '';
  if (!path.includes('::')) path = bare.match(/ as (?:&|mut |dyn )*([\w:]+)/)?.[1] ?? `core::${path}`;
  const segments = path.split('::');
  const crate = segments[0];
  if (segments.length < 2 || !crate) return 'unnamed (shims, compiler intrinsics)';
  // The workspace's crates (retry_core, retry_sim, ...) by module.
  if (crate.startsWith('retry_')) return `${crate}::${segments[1]}`;
  if (['core', 'alloc', 'std'].includes(crate)) {
    const has = (...words) => words.some((word) => plain.includes(word));
    if (has('flt2dec', 'fmt::float', 'f64 as core::fmt', 'f32 as core::fmt')) return 'std: float formatting';
    if (has('dec2flt', 'FromStr')) return 'std: float parsing';
    if (has('slice::sort')) return 'std: sorting';
    if (has('unicode', 'to_lowercase', 'to_uppercase', 'char as core::fmt::Debug', 'escape_debug')) return 'std: Unicode';
    if (has('fmt')) return 'std: formatting';
    return 'std: other';
  }
  return crate;
}

// The page's wasm rebuilt with names kept: wasm-bindgen and wasm-opt as
// Trunk runs them, over the cargo artifact, plus -g. Null (and why) when a
// tool or the artifact is missing.
function namedModule() {
  const html = fs.readFileSync(path.join(repo, 'index.html'), 'utf8');
  const link = html.match(/<link[^>]*data-trunk[^>]*rel="rust"[^>]*>/)?.[0] ?? '';
  const attr = (key) => link.match(new RegExp(`${key}="([^"]*)"`))?.[1];
  const profile = attr('data-cargo-profile-release') ?? attr('data-cargo-profile') ?? 'release';
  // The crate the link names (its href, else the one beside index.html).
  const manifest = fs.readFileSync(path.join(repo, attr('href') ?? '', 'Cargo.toml'), 'utf8');
  const target = attr('data-target-name')
    ?? manifest.match(/^\[package\][^[]*?^name\s*=\s*"([^"]+)"/m)[1].replaceAll('-', '_');
  const level = attr('data-wasm-opt');
  const params = (attr('data-wasm-opt-params') ?? '').split(/\s+/).filter(Boolean);
  const targetDir = path.resolve(repo, process.env.CARGO_TARGET_DIR ?? 'target');
  const artifact = path.join(targetDir, 'wasm32-unknown-unknown', profile, `${target}.wasm`);
  if (!fs.existsSync(artifact)) return [null, `no cargo artifact at ${artifact}`];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'weight-'));
  try {
    execFileSync('wasm-bindgen', ['--keep-debug', '--target', 'web', '--out-dir', work, artifact], { stdio: 'pipe' });
    const bound = path.join(work, `${target}_bg.wasm`);
    const named = path.join(work, 'named.wasm');
    if (level && level !== '0') {
      execFileSync('wasm-opt', [`-O${level}`, ...params, '-g', bound, '-o', named], { stdio: 'pipe' });
    } else {
      fs.copyFileSync(bound, named);
    }
    return [fs.readFileSync(named), artifact];
  } catch (error) {
    return [null, `wasm-bindgen or wasm-opt failed: ${String(error.stderr || error.message).split('\n')[0]}`];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const loaded = loadedFiles().map((name) => {
  const bytes = fs.readFileSync(path.join(dist, name));
  return { name, bytes, raw: bytes.length, gzip: gz(bytes) };
});
// A language's words are loaded only by a page in that language, those
// of "Take it home" only once it opens and the course's only with a
// chapter's address (page/src/language.rs).
const words = fs.readdirSync(dist).filter((name) => name.endsWith('.words')).sort().map((name) => {
  const bytes = fs.readFileSync(path.join(dist, name));
  return { name, bytes, raw: bytes.length, gzip: gz(bytes) };
});
const files = loaded.filter((file) => !file.name.endsWith('.words'));
const total = files.reduce((sum, file) => sum + file.gzip, 0);

console.log(`page weight: the ${files.length} files dist/index.html loads (${gzipTool}, 1 KB = 1000 B)`);
for (const file of files) console.log(`  ${kb(file.raw)} raw ${kb(file.gzip)} gzip  ${file.name}`);
console.log(`  total ${kb(total)} gzip, budget ${kb(BUDGET)}: what an English reader downloads`);
for (const file of words) {
  const when = file.name.includes('take-home') ? 'once "Take it home" opens'
    : file.name.includes('course') ? 'once a chapter opens'
      : file.name.includes('page') ? 'once the first chart is drawn' : 'at once';
  console.log(`  ${kb(file.raw)} raw ${kb(file.gzip)} gzip  ${file.name}: a Russian reader's, ${when}`);
}
const russian = words.filter((file) => !/take-home|course|page/.test(file.name)).reduce((sum, file) => sum + file.gzip, 0);
console.log(`  a Russian reader downloads ${kb(russian).trim()} more than an English one before the first chart, budget ${kb(RUSSIAN_BUDGET).trim()}`);
// Every module opened: those fetched later and every file of words.
const modules = fs.readdirSync(dist).filter(later).sort().map((name) => {
  const bytes = fs.readFileSync(path.join(dist, name));
  return { name, raw: bytes.length, gzip: gz(bytes) };
});
for (const file of modules) console.log(`  ${kb(file.raw)} raw ${kb(file.gzip)} gzip  ${file.name}: ${later(file.name)}`);
const whole = total + [...modules, ...words].reduce((sum, file) => sum + file.gzip, 0);
console.log(`  with every module opened (the search, "Take it home", the course, in Russian): ${kb(whole).trim()} gzip`);

const wasm = files.find((file) => file.name.endsWith('.wasm'));
if (wasm && !summary) {
  console.log('\nthe wasm by section (each compressed alone)');
  const out = sections(wasm.bytes);
  const code = out.find(([id]) => id === 10)?.[2];
  const groups = new Map();
  for (const [id, name, body] of out) {
    const key = id === 10 || id === 11 ? name : 'tables, imports, exports';
    const group = groups.get(key) ?? [];
    group.push(body);
    groups.set(key, group);
  }
  for (const [key, bodies] of groups) {
    const bytes = Buffer.concat(bodies);
    console.log(`  ${kb(bytes.length)} raw ${kb(gz(bytes))} gzip  ${key}`);
  }
  const glue = files.find((file) => file.name.endsWith('.js'));
  if (glue) console.log(`  ${kb(glue.raw)} raw ${kb(glue.gzip)} gzip  JS glue (${glue.name})`);

  const [named, from] = namedModule();
  if (!named) {
    console.log(`\nno breakdown of the code by crate: ${from}`);
  } else {
    const functions = functionSizes(named);
    const rebuilt = functions.reduce((sum, [, body]) => sum + body.length, 0);
    const codeGzip = gz(code);
    console.log(`\nthe code by crate and module: function bodies of ${path.relative(repo, from)}`);
    console.log(`rebuilt with names kept (${kb(rebuilt).trim()} of code; dist/ has ${kb(code.length).trim()}); gzip is each part's share`);
    console.log(`of the code's ${kb(codeGzip).trim()}; code inlined into a caller counts with the caller's module`);
    const byPart = new Map();
    for (const [name, body] of functions) byPart.set(part(name), (byPart.get(part(name)) ?? 0) + body.length);
    for (const [name, size] of [...byPart].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${kb(size)} raw ${kb((codeGzip * size) / rebuilt)} gzip ${pct(size, rebuilt)}  ${name}`);
    }
    // WEIGHT_TOP=N also lists the N largest functions: where to look next.
    const top = Number(process.env.WEIGHT_TOP ?? 0);
    if (top > 0) {
      console.log(`\nthe ${top} largest functions (raw bytes, part, name)`);
      for (const [name, body] of [...functions].sort((a, b) => b[1].length - a[1].length).slice(0, top)) {
        console.log(`  ${String(body.length).padStart(7)}  ${part(name).padEnd(28)} ${name.slice(0, 150)}`);
      }
    }
  }
}

if (russian > RUSSIAN_BUDGET) {
  console.log(`\n!!!!!!!! RUSSIAN WORDS OVER BUDGET: ${kb(russian).trim()} gzip against ${kb(RUSSIAN_BUDGET).trim()} !!!!!!!!`);
  process.exitCode = 1;
}
if (total > BUDGET) {
  const over = Math.ceil((total - BUDGET) / 1000);
  console.log(`\n!!!!!!!! PAGE WEIGHT OVER BUDGET by ${over} KB: ${kb(total).trim()} gzip against ${kb(BUDGET).trim()} !!!!!!!!`);
  process.exitCode = 1;
} else {
  console.log(`\npage weight within budget: ${kb(total).trim()} gzip of ${kb(BUDGET).trim()}, ${kb(BUDGET - total).trim()} to spare`);
}
