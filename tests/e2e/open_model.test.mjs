// "Open a model…" as a visitor uses it: the tiny Llama folder and the tiny
// Qwen2 GGUF (tests/fixtures/tiny/) chosen with the file pickers, their
// summary, Load, and attention that matches the CLI's (`attnscope attention
// --model-path`); files that are not a model, or cut short, refused with a
// message while the teaching model goes on; the model kept across a reload
// in the Origin Private File System (also where file handles have no
// createWritable, as in Safari), and Forget.
//
// Run: node --test --test-reporter=spec tests/e2e/open_model.test.mjs
// Env: DIST (default: <repo>/dist), CHROMIUM (default: chromium on PATH).

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { shownAndCliCsv, start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const TINY = join(ROOT, 'tests', 'fixtures', 'tiny');
const LLAMA = join(TINY, 'llama');
const QWEN_GGUF = join(TINY, 'gguf', 'qwen2-f32.gguf');
const SMOLLM2_GGUF = join(ROOT, 'www', 'models', 'smollm2', 'SmolLM2-135M-Instruct.Q4_1.gguf');
const TEXT = 'Hello world, hi!';

let server, browser, baseUrl, context, page, problems;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

beforeEach(async () => {
  // A context of its own per test: its storage (and so the kept model) starts empty.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  problems = watch(page, { failedRequests: true, origin: baseUrl, context });
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `open-model-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await context.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

async function ready() {
  await page.locator('#tokens .token').first().waitFor();
  // The worker answers what the storage keeps once it runs.
  await page.waitForFunction(() => document.querySelector('#open-model') !== null);
}

// Chooses files in a picker; the page asks to try again while its worker starts.
async function choose(picker, files) {
  for (let i = 0; i < 60; i++) {
    await page.locator(picker).setInputFiles(files);
    if (!/still starting/.test(await page.locator('#open-message').textContent())) return;
    await page.waitForTimeout(500);
  }
  throw new Error('the worker never started');
}

async function tokens() {
  return page.locator('#tokens .token').allTextContents();
}

// The page's JSON export against the CLI's for the same checkpoint and text.
async function worstAgainstCli(modelPath, text) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  const json = JSON.parse(Buffer.concat(chunks).toString());
  const cli = JSON.parse(execFileSync(join(ROOT, 'target', 'debug', 'attnscope'),
    ['attention', '--model-path', modelPath, '--text', text, '--json', '-'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  assert.deepEqual(json.tokens, cli.tokens);
  assert.equal(json.attentions.length, cli.attentions.length);
  let worst = 0;
  cli.attentions.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((v, j) => {
    worst = Math.max(worst, Math.abs(v - json.attentions[l][h][i][j]));
  }))));
  return worst;
}

async function heatmapColours() {
  return page.locator('#heatmap').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });
}

// What the Origin Private File System keeps for the page.
async function kept() {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const names = [];
    for await (const [name, handle] of root.entries()) {
      if (handle.kind === 'directory') for await (const [inner] of handle.entries()) names.push(`${name}/${inner}`);
      else names.push(name);
    }
    return names.sort();
  });
}

async function typeAndWait(text) {
  await page.locator('textarea#text').fill(text);
  await page.waitForFunction((t) => [...document.querySelectorAll('#tokens .token')].map((e) => e.textContent).join('').includes(t.slice(-3).trim()), text);
}

test('the tiny Llama folder: summary, load, the CLI\'s attention, kept across a reload, then forgotten', async () => {
  await page.goto(`${baseUrl}?text=${encodeURIComponent(TEXT)}`);
  await ready();
  await choose('#open-folder', LLAMA);
  const summary = page.locator('#preflight');
  await summary.waitFor();
  const said = await summary.textContent();
  assert.match(said, /Llama decoder \(llama\)/);
  assert.match(said, /Layers2/);
  assert.match(said, /4 over 2 key\/value heads, d_k = 8/);
  assert.match(said, /config\.json/);
  assert.equal(await page.locator('#preflight-load').count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'open-model-preflight.png') });
  await page.locator('#preflight-load').click();
  await page.waitForFunction(() => document.querySelector('select#model').value === 'custom');
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '<s>', null, { timeout: 60_000 });
  assert.equal(await page.locator('select#layer option').count(), 2);
  assert.equal(await page.locator('select#head option').count(), 4);
  assert.match(await page.locator('select#model option[value=custom]').textContent(), /^llama · /);
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);
  assert.ok(await heatmapColours() > 4, 'a heatmap is drawn');
  const worst = await worstAgainstCli(LLAMA, TEXT);
  assert.ok(worst < 1e-4, `browser and CLI differ by ${worst}`);
  // Kept in the browser: a reload opens it without asking.
  await page.locator('#forget-model').waitFor({ timeout: 30_000 });
  assert.deepEqual(await kept(), ['attnscope-opened-model/attnscope-manifest.json', 'attnscope-opened-model/config.json',
    'attnscope-opened-model/model.safetensors', 'attnscope-opened-model/tokenizer.json']);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'custom');
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '<s>', null, { timeout: 60_000 });
  assert.equal(await page.locator('select#model').inputValue(), 'custom');
  assert.ok(await worstAgainstCli(LLAMA, TEXT) < 1e-4);
  // Forget: gone from the storage and the model choice; the teaching model computes.
  await page.locator('#forget-model').click();
  await page.waitForFunction(() => document.querySelector('select#model').value === 'teaching');
  await page.locator('select#model option[value=custom]').waitFor({ state: 'detached' });
  assert.deepEqual(await kept(), []);
  await page.reload();
  await ready();
  await page.waitForTimeout(500);
  assert.equal(await page.locator('select#model option[value=custom]').count(), 0);
  assert.equal(await page.locator('#forget-model').count(), 0);
});

test('the tiny Qwen2 GGUF: summary and attention equal to the CLI\'s', async () => {
  await page.goto(`${baseUrl}?text=${encodeURIComponent(TEXT)}`);
  await ready();
  await choose('#open-files', QWEN_GGUF);
  await page.locator('#preflight').waitFor();
  const said = await page.locator('#preflight').textContent();
  assert.match(said, /Qwen2 decoder \(qwen2\)/);
  assert.match(said, /GGUF F32/);
  await page.locator('#preflight-load').click();
  await page.waitForFunction(() => document.querySelector('select#model').value === 'custom');
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === 'H', null, { timeout: 60_000 });
  const worst = await worstAgainstCli(QWEN_GGUF, TEXT);
  assert.ok(worst < 1e-4, `browser and CLI differ by ${worst}`);
  // Every view draws it.
  for (const view of ['grid', 'overview', 'explain', 'catalog']) {
    await page.locator(`#tab-${view}`).click();
    await page.waitForFunction((v) => document.querySelector('.shell')?.dataset.view === v, view);
    await page.waitForTimeout(200);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'open-model-qwen2-catalog.png') });
});

test('an opened decoder takes a long text: the tiny Gemma 3 with a longer context, its sliding-window head equal to the CLI\'s', async () => {
  // The tiny Gemma 3 (local layers see 4 keys), its context raised from 128 tokens.
  const dir = join(mkdtempSync(join(tmpdir(), 'attnscope-gemma3-')), 'gemma3-long');
  mkdirSync(dir);
  for (const f of ['model.safetensors', 'tokenizer.json']) copyFileSync(join(TINY, 'gemma3', f), join(dir, f));
  const config = readFileSync(join(TINY, 'gemma3', 'config.json'), 'utf8');
  writeFileSync(join(dir, 'config.json'), config.replace('"max_position_embeddings": 128', '"max_position_embeddings": 32768'));
  const subjects = ['The old lighthouse keeper', 'A fluffy blue creature', 'Her younger brother', 'The committee', 'Nobody in the village'];
  const objects = ['the verdant forest', 'a letter from Lisbon', 'the broken clock', 'seven red apples', 'the storm over the harbour'];
  const text = Array.from({ length: 8 }, (_, i) => `${subjects[i % 5]} watched ${objects[(i * 3 + 1) % 5]} on day ${i + 1}.`).join(' ');
  await page.goto(`${baseUrl}?text=${encodeURIComponent(TEXT)}`);
  await ready();
  await choose('#open-folder', dir);
  await page.locator('#preflight').waitFor();
  assert.match(await page.locator('#preflight').textContent(), /Gemma 3 decoder/);
  await page.locator('#preflight-load').click();
  await page.waitForFunction(() => document.querySelector('select#model').value === 'custom');
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.locator('textarea#text').fill(text);
  await page.waitForFunction(() => /^(\d+) tokens/.test(document.querySelector('#status')?.textContent ?? '')
    && Number(document.querySelector('#status').textContent.match(/^(\d+) tokens/)[1]) > 256
    && /computed in/.test(document.querySelector('#status').textContent), null, { timeout: 120_000 });
  const status = await page.locator('#status').textContent();
  const n = Number(status.match(/^(\d+) tokens/)[1]);
  assert.doesNotMatch(status, /cut/, 'the whole text is read');
  await page.locator('select#layer').selectOption('0');
  await page.locator('select#head').selectOption('1');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);
  const { shown, cli } = await shownAndCliCsv(page, ROOT, ['attention', '--model-path', dir, '--text', text, '--layer', '0', '--head', '1']);
  assert.equal(shown.tokens.length, n);
  assert.deepEqual(shown.tokens, cli.tokens);
  let worst = 0;
  shown.rows.forEach((row, i) => row.forEach((v, j) => { worst = Math.max(worst, Math.abs(v - cli.rows[i][j])); }));
  assert.ok(worst < 1e-4, `layer 0 head 1 differs from the CLI by ${worst}`);
  // A local layer: the last query sees its 4 keys and nothing before them, and the note says so.
  const last = shown.rows[n - 1];
  assert.ok(last.slice(0, n - 4).every((w) => w === 0) && last.slice(n - 4).every((w) => w > 0), 'the window of 4 keys');
  await page.locator('#mask-note', { hasText: 'Layer 0 is a local one, with a sliding window: each token sees only itself and the 3 tokens before it.' }).waitFor();
  // Its third layer is global: causal, and the note says nothing of a window.
  await page.locator('select#layer').selectOption('2');
  await page.waitForFunction(() => !/local/.test(document.querySelector('#mask-note')?.textContent ?? 'local'));
  assert.match(await page.locator('#mask-note').textContent(), /is causal: each token sees only itself and earlier tokens/);
});

test('without createWritable (Safari), the opened model is kept through the synchronous access handle, byte for byte', async () => {
  // The extra worker, as Safari's: file handles without createWritable.
  const patched = new Promise((resolve) => page.on('worker', async (w) => {
    if (!/attnscope-worker-extra/.test(w.url())) return;
    resolve(await w.evaluate(() => {
      delete FileSystemFileHandle.prototype.createWritable;
      return 'createWritable' in FileSystemFileHandle.prototype;
    }));
  }));
  await page.goto(`${baseUrl}?text=${encodeURIComponent(TEXT)}`);
  await ready();
  // SmolLM2's GGUF (98 MB), so that the copy takes many chunks.
  await choose('#open-files', SMOLLM2_GGUF);
  assert.equal(await patched, false, 'the worker still has createWritable');
  await page.locator('#preflight-load').click();
  // SmolLM2's tokens keep their spaces (the teaching model's, shown meanwhile, do not).
  const smollm2Shown = () => page.waitForFunction(() => document.querySelector('select#model').value === 'custom'
    && document.querySelectorAll('#tokens .token')[1]?.textContent === ' world', null, { timeout: 120_000 });
  await smollm2Shown();
  assert.deepEqual(await tokens(), ['Hello', ' world', ',', ' hi', '!']);
  await page.locator('#forget-model').waitFor({ timeout: 60_000 });
  const name = basename(SMOLLM2_GGUF);
  assert.deepEqual(await kept(), [`attnscope-opened-model/${name}`, 'attnscope-opened-model/attnscope-manifest.json']);
  const stored = await page.evaluate(async (name) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('attnscope-opened-model');
    const file = await (await dir.getFileHandle(name)).getFile();
    const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }, name);
  assert.equal(stored, createHash('sha256').update(readFileSync(SMOLLM2_GGUF)).digest('hex'));
  await page.reload();
  await smollm2Shown();
});

test('a file that is not a model, a truncated GGUF and a truncated safetensors are refused; nothing is kept', async () => {
  await page.goto(`${baseUrl}?text=${encodeURIComponent('the cat sat')}`);
  await ready();
  const refused = async (files, pattern) => {
    await choose('#open-files', files);
    await page.waitForFunction(() => /cannot/.test(document.querySelector('#open-message')?.textContent ?? '')
      || /cannot be loaded/.test(document.querySelector('#preflight')?.textContent ?? ''));
    const said = (await page.locator('#open-message').textContent()) + (await page.locator('#preflight').count() ? await page.locator('#preflight').textContent() : '');
    assert.match(said, pattern);
    assert.equal(await page.locator('#preflight-load').count(), 0);
  };
  await refused({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture either') }, /holiday\.jpg is not a model/);
  const gguf = readFileSync(QWEN_GGUF);
  await refused({ name: 'qwen2-cut.gguf', mimeType: 'application/octet-stream', buffer: gguf.subarray(0, gguf.length >> 1) }, /truncated/);
  const weights = readFileSync(join(LLAMA, 'model.safetensors'));
  await refused([
    { name: 'config.json', mimeType: 'application/json', buffer: readFileSync(join(LLAMA, 'config.json')) },
    { name: 'tokenizer.json', mimeType: 'application/json', buffer: readFileSync(join(LLAMA, 'tokenizer.json')) },
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: weights.subarray(0, weights.length - 100) },
  ], /model\.safetensors/);
  await refused([
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{"model_type": "mamba"}') },
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: weights },
  ], /"mamba"/);
  // Nothing stored, nothing added to the model choice, and the teaching model goes on.
  assert.deepEqual(await kept(), []);
  assert.equal(await page.locator('select#model option[value=custom]').count(), 0);
  assert.equal(await page.locator('select#model').inputValue(), 'teaching');
  await typeAndWait('a fluffy blue creature');
  assert.deepEqual(await tokens(), ['a', 'fluffy', 'blue', 'creature']);
});
