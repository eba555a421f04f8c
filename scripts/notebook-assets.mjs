// Trunk post-build hook (Trunk.toml): copies the page and the worker with the
// extras (the one that reads trace files; the plain build, which every browser
// runs) and the style from the build into the Python package
// (python/src/attnscope/static/page/), where attnscope.show and
// attnscope.to_html take them: the notebook viewer is this page, built from
// the same Rust as the site. Names are fixed there (page.js, page_bg.wasm,
// worker.js, worker_bg.wasm, style.css); manifest.json gives each file's
// sha256 and a version made from them.

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('notebook-assets.mjs runs as a trunk hook (TRUNK_STAGING_DIR is not set)');
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'python', 'src', 'attnscope', 'static', 'page');

const names = readdirSync(dir);
const one = (test, what) => {
  const found = names.filter(test);
  if (found.length !== 1) throw new Error(`the build has ${found.length} files for ${what}: ${found.join(', ')}`);
  return found[0];
};
const files = {
  'page.js': one((n) => /^attnscope-web-[0-9a-f]+\.js$/.test(n), "the page's script"),
  'page_bg.wasm': one((n) => /^attnscope-web-[0-9a-f]+_bg\.wasm$/.test(n), "the page's wasm"),
  'worker.js': one((n) => n === 'attnscope-worker-extra.js', "the extra worker's script"),
  'worker_bg.wasm': one((n) => n === 'attnscope-worker-extra_bg.wasm', "the extra worker's wasm"),
  'style.css': one((n) => /^style-[0-9a-f]+\.css$/.test(n), "the page's style"),
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sums = {};
const version = createHash('sha256');
for (const [to, from] of Object.entries(files)) {
  const bytes = readFileSync(join(dir, from));
  sums[to] = createHash('sha256').update(bytes).digest('hex');
  version.update(to).update('\0').update(sums[to]);
  copyFileSync(join(dir, from), join(out, to));
}
const manifest = { version: version.digest('hex').slice(0, 16), files: sums };
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`notebook viewer: ${Object.keys(files).length} files into python/src/attnscope/static/page, version ${manifest.version}`);
