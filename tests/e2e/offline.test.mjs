// Offline use, on the release build: after one visit the page opens and
// computes with the network gone (the test's server stopped), with the
// teaching model and with a real model downloaded before; and a new
// deployment replaces the cached files of the old one.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', '..', 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');

let browser, next;

before(async () => {
  browser = await launch();
  // The next deployment: the same files, but a page with one more line and
  // a service worker of another version, as a rebuild would make them.
  next = mkdtempSync(join(tmpdir(), 'attnscope-next-'));
  for (const name of readdirSync(DIST)) {
    if (name !== 'sw.js' && name !== 'index.html') symlinkSync(join(DIST, name), join(next, name));
  }
  writeFileSync(join(next, 'index.html'), readFileSync(join(DIST, 'index.html'), 'utf8').replace('</body>', '<!-- next deployment --></body>'));
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const version = sw.match(/const VERSION = "([0-9a-f]+)"/)?.[1];
  assert.ok(version, 'the built sw.js has a version (scripts/sw-manifest.mjs)');
  writeFileSync(join(next, 'sw.js'), sw.replace(`"${version}"`, `"${version}-next"`));
});

after(async () => {
  await browser?.close();
  if (next) rmSync(next, { recursive: true, force: true });
});

const caches = (page) => page.evaluate(async () => (await caches.keys()).sort());

test('after one visit the page works offline, and a new deployment replaces the old files', async () => {
  let root = DIST;
  const server = await serve(() => root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  try {
    await page.goto(base);
    await page.locator('#offline[data-ready="true"]').waitFor({ timeout: 120_000 });
    assert.match(await page.locator('#offline').textContent(), /offline/);
    // A real model, downloaded once (the worker keeps it in Cache Storage).
    await page.locator('select#model').selectOption('minilm');
    await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 300_000 });
    const first = await caches(page);
    const old = first.find((n) => n.startsWith('attnscope-page-'));
    assert.ok(old, `the page's files are cached: ${first}`);

    // A new deployment: the page takes it, and the old files go.
    root = next;
    await page.goto(base);
    // (waitForFunction would take the pending promise of an async check as true.)
    for (let i = 0; ; i++) {
      const names = await caches(page);
      if (!names.includes(old) && names.some((n) => n.startsWith('attnscope-page-') && n.endsWith('-next'))) break;
      assert.ok(i < 240, `the new deployment never replaced the cached files: ${names}`);
      await page.waitForTimeout(250);
    }
    assert.match(await page.content(), /next deployment/);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // The network goes: the server stops, open connections included.
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
    await page.reload();
    await page.locator('#tokens .token').first().waitFor({ timeout: 60_000 });
    assert.match(await page.content(), /next deployment/, 'offline, the page is the newest deployment');
    await page.locator('textarea#text').fill('the dog barked');
    await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);
    // The real model, from the cache, in a worker that started offline.
    await page.locator('select#model').selectOption('minilm');
    await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 120_000 });
    assert.match(await page.locator('#status').textContent(), /computed in [\d.]+ ms/);
    assert.equal((await page.locator('#error').textContent()).trim(), '');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'offline-minilm.png') });
  } finally {
    await context.close();
    server.closeAllConnections();
    server.close();
  }
  assert.deepEqual(errors, []);
});
