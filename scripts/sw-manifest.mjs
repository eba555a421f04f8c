// Trunk post-build hook (Trunk.toml): writes into the built sw.js the list
// of the page's files and a version made from their contents, so that each
// deployment caches its own files and retires the older ones (www/sw.js).
// The model files are left out: the page's worker caches those itself.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('sw-manifest.mjs runs as a trunk hook (TRUNK_STAGING_DIR is not set)');

const files = [];
(function walk(at) {
  for (const entry of readdirSync(at, { withFileTypes: true })) {
    const path = join(at, entry.name);
    const name = relative(dir, path).split(sep).join('/');
    if (name === 'models' || name === 'sw.js') continue;
    if (entry.isDirectory()) walk(path);
    else files.push(name);
  }
})(dir);
files.sort();

const hash = createHash('sha256');
for (const name of files) hash.update(name).update('\0').update(readFileSync(join(dir, name)));
const version = hash.digest('hex').slice(0, 16);

// The worker with the extras (index.html), the Speech tab's example clips
// and the catalogs of languages other than English are kept once the page
// first fetches them, not at install: a first visit does not download them.
const lazy = files.filter((f) => f.startsWith('attnscope-worker-extra') || f.startsWith('audio/') || f.startsWith('i18n/'));
const eager = files.filter((f) => !lazy.includes(f));

const sw = join(dir, 'sw.js');
const source = readFileSync(sw, 'utf8');
if (!source.includes('__FILES__') || !source.includes('__LAZY__')) throw new Error('sw.js has no __FILES__ or __LAZY__ to fill in (already filled?)');
writeFileSync(sw, source.replace("'__VERSION__'", JSON.stringify(version)).replace('__FILES__', JSON.stringify(['./', ...eager])).replace('__LAZY__', JSON.stringify(lazy)));
console.log(`sw.js: ${eager.length} files, ${lazy.length} kept at first use, version ${version}`);
