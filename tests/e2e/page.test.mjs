// End-to-end test of the page as it ships: the release build in dist/ (from
// `trunk build --release`), served over HTTP on 127.0.0.1 and driven in
// headless Chromium. Any console error, page error or failed request fails
// the test, because that is how a broken wasm build shows itself.
//
// Run: node --test --test-reporter=spec tests/e2e/   (scripts/test.sh does)
// Env: DIST (default: <repo>/dist), CHROMIUM (default: chromium on PATH).

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { corrupted, oversized, serve, stalled, start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', '..', 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const DEFAULT_TEXT = 'a fluffy blue creature roamed the verdant forest';

let server, browser, baseUrl;
let page, problems, workerWasm;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

// Even when an assertion failed, the browser and the server go away.
after(async () => {
  await stop(server, browser);
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  // The origin is read at each request: one test serves the page a second time, without isolation.
  problems = watch(page, { failedRequests: true, origin: () => baseUrl });
  corrupted.clear();
  oversized.clear();
  stalled.clear();
  // Which of the two worker builds the page started (src/web/worker_client.rs;
  // a model's helper worker is a copy of the same one).
  workerWasm = [];
  page.on('request', (r) => /attnscope-worker[\w-]*_bg\.wasm$/.test(r.url()) && workerWasm.push(r.url().split('/').pop()));
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

// The largest difference between the attention the page exports (JSON: every
// layer, head, query and key) and the CLI's for the same text: the browser's
// wasm kernels against the native ones, which are checked against transformers.
async function worstAgainstCli(model, text) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  const json = JSON.parse(Buffer.concat(chunks).toString());
  const cli = JSON.parse(execFileSync(join(HERE, '..', '..', 'target', 'debug', 'attnscope'),
    ['attention', '--model', model, '--models-dir', join(HERE, '..', '..', 'www', 'models'), '--text', text, '--json', '-'],
    { encoding: 'utf8', maxBuffer: 1 << 26 }));
  assert.deepEqual(json.tokens, cli.tokens);
  let worst = 0;
  cli.attentions.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((v, j) => {
    worst = Math.max(worst, Math.abs(v - json.attentions[l][h][i][j]));
  }))));
  return worst;
}

async function tokens() {
  return page.locator('#tokens .token').allTextContents();
}

// Distinct colours on the heatmap canvas, and its size: a blank or
// single-colour canvas means nothing was drawn.
async function heatmapPixels() {
  return page.locator('#heatmap').evaluate((c) => {
    if (c.width === 0 || c.height === 0) return { width: c.width, height: c.height, colours: 0, hash: 0 };
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      hash = (hash * 31 + d[i] + d[i + 1] * 7 + d[i + 2] * 13) | 0;
    }
    return { width: c.width, height: c.height, colours: colours.size, hash };
  });
}

test('the page opens with the default sentence, its tokens and a heatmap', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();

  assert.equal(await page.locator('textarea#text').inputValue(), DEFAULT_TEXT);
  assert.deepEqual(await tokens(), DEFAULT_TEXT.split(' '));
  assert.match(await page.locator('#status').textContent(), /computed in (under )?\d+(\.\d+)? ms/);
  assert.equal((await page.locator('#error').textContent()).trim(), '');

  const map = await heatmapPixels();
  assert.ok(map.width > 100 && map.height > 100, `heatmap is ${map.width}×${map.height}`);
  assert.ok(map.colours > 8, `heatmap has only ${map.colours} colours`);
  // The picture in the README (docs/screenshot.png) is this one, at a laptop's size.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)))));
  await page.screenshot({ path: join(ARTIFACTS, 'attnscope.png') });
});

test('typing a new sentence updates tokens, heatmap and status', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  const before = await heatmapPixels();
  const entries = await page.evaluate(() => history.length);

  const text = page.locator('textarea#text');
  await text.fill('');
  await text.pressSequentially('the cat sat on the mat', { delay: 5 });

  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 6);
  assert.deepEqual(await tokens(), ['the', 'cat', 'sat', 'on', 'the', 'mat']);
  assert.match(await page.locator('#status').textContent(), /6 tokens, computed in (under )?\d+(\.\d+)? ms/);
  // The address takes the text once typing pauses, in the same history entry.
  await page.waitForFunction(() => new URLSearchParams(location.search).get('text') === 'the cat sat on the mat');
  assert.equal(await page.evaluate(() => history.length), entries, 'typing must not add history entries');

  const afterTyping = await heatmapPixels();
  assert.ok(afterTyping.colours > 8, `heatmap has only ${afterTyping.colours} colours`);
  assert.notEqual(afterTyping.hash, before.hash, 'the heatmap did not change');
  const rows = await page.locator('#heatmap').evaluate((c) => (c.getBoundingClientRect().height - Number(c.dataset.top) - 4) / Number(c.dataset.cell));
  assert.equal(Math.round(rows), 6, 'the map has a row per token');

  // Emptying the box empties the view without an error.
  await text.fill('');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 0);
  assert.equal((await page.locator('#error').textContent()).trim(), '');
});

// Text is data, never markup: a script typed in the box is shown as tokens.
test('HTML and script in the text are shown as text', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  await page.evaluate(() => { window.__pwned = false; });
  await page.locator('textarea#text').fill('<img src=x onerror="window.__pwned=true"> <script>window.__pwned=true</script> 👩‍🚀 東京');
  await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token')].some((t) => t.textContent === '<'));
  assert.equal(await page.evaluate(() => window.__pwned), false);
  assert.equal(await page.locator('#tokens img, #tokens script').count(), 0);
  assert.ok((await tokens()).includes('👩‍🚀'));
});

// The state lives in the URL; a hostile or malformed one falls back to defaults.
test('the URL carries the view, and a malformed URL falls back to defaults', async () => {
  await page.goto(`${baseUrl}?model=teaching&layer=0&head=2&view=grid&text=${encodeURIComponent('the dog saw the dog')}`);
  await page.locator('#tokens .token').first().waitFor();
  assert.deepEqual(await tokens(), ['the', 'dog', 'saw', 'the', 'dog']);
  assert.equal(await page.locator('select#head').inputValue(), '2');
  assert.equal(await page.locator('#tab-grid').getAttribute('aria-selected'), 'true');
  const grid = await page.locator('#grid-causal').evaluate((c) => c.width);
  assert.ok(grid > 50, 'the causal dot grid is drawn');

  await page.locator('select#head').selectOption('1');
  await page.waitForFunction(() => location.search.includes('head=1'));
  await page.goBack();
  await page.waitForFunction(() => location.search.includes('head=2'));
  assert.equal(await page.locator('select#head').inputValue(), '2');

  await page.goto(`${baseUrl}?model=%3Cscript%3E&layer=-4&head=99999999999&view=%00&text=`);
  await page.locator('#status').filter({ hasText: /Type some text/ }).waitFor();
  assert.equal(await page.locator('select#model').inputValue(), 'teaching');
  assert.equal((await page.locator('#error').textContent()).trim(), '');
});

test('exports download PNG, SVG, JSON and CSV of the selected head', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#heatmap').width > 0);
  const grab = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks);
  };
  const png = await grab('#export-png');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const svg = (await grab('#export-svg')).toString();
  assert.match(svg, /^<svg[\s\S]*creature[\s\S]*<\/svg>\s*$/);
  const json = JSON.parse((await grab('#export-json')).toString());
  assert.deepEqual(json.tokens, DEFAULT_TEXT.split(' '));
  assert.equal(json.attentions.length, 1);
  assert.equal(json.attentions[0].length, 5);
  // The same numbers as the CLI for the same text.
  const cli = JSON.parse(execFileSync(join(HERE, '..', '..', 'target', 'debug', 'attnscope'), ['attention', '--model', 'teaching', '--text', DEFAULT_TEXT, '--json', '-'], { encoding: 'utf8' }));
  for (let h = 0; h < 5; h++) {
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) {
        assert.ok(Math.abs(cli.attentions[0][h][i][j] - json.attentions[0][h][i][j]) < 1e-5, `head ${h} (${i}, ${j})`);
      }
    }
  }
  const csv = (await grab('#export-csv')).toString().trim().split('\n');
  assert.equal(csv.length, 9);
});

test('keyboard: arrow keys move the selection in the overview', async () => {
  await page.goto(`${baseUrl}?view=overview`);
  await page.locator('#tokens .token').first().waitFor();
  await page.locator('#overview').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('select#head').value === '2');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('select#head').value === '1');
});

// The canvases follow the page's look: dark mode redraws their labels in its
// light ink, presentation mode draws them larger along with the page's type.
test('dark and presentation modes redraw the canvases in their ink and size', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#heatmap').width > 0);
  // The most opaque pixel left of the cells belongs to a row label: its ink.
  const labelInk = () => page.locator('#heatmap').evaluate((c) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    const w = Math.floor((Number(c.dataset.left) - 2) * dpr);
    const d = c.getContext('2d').getImageData(0, 0, w, c.height).data;
    let best = 3;
    for (let i = 3; i < d.length; i += 4) if (d[i] > d[best]) best = i;
    return [d[best - 3], d[best - 2], d[best - 1]];
  });
  const labelPx = () => page.locator('#heatmap').evaluate((c) => Number(c.dataset.labelPx));
  assert.ok((await labelInk()).every((v) => v < 80), `light labels are dark: ${await labelInk()}`);
  const normal = await labelPx();

  await page.getByLabel('dark').check();
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
  // The redraw follows the restyling; give it a few frames.
  for (let i = 0; i < 20 && !(await labelInk()).every((v) => v > 180); i++) await page.waitForTimeout(50);
  assert.ok((await labelInk()).every((v) => v > 180), `dark labels are light: ${await labelInk()}`);

  await page.getByLabel('presentation').check();
  // (Big cells already grow the labels in normal mode: larger, and at least 18 px.)
  await page.waitForFunction((n) => Number(document.querySelector('#heatmap').dataset.labelPx) >= Math.max(18, n + 1), normal);
  await page.getByLabel('presentation').uncheck();
  await page.waitForFunction((n) => Number(document.querySelector('#heatmap').dataset.labelPx) === n, normal);
});

// A real model: chosen, downloaded with a progress bar, then run in the worker.
// By default the page downloads MiniLM's f16 copy (half the bytes); the
// "Exact f32 weights" switch downloads the published file, the CLI's.
test('MiniLM downloads with progress, runs in the browser and is cached', async () => {
  const asked = [];
  const onRequest = (r) => { if (r.url().includes('/models/minilm/')) asked.push(r.url().split('/').at(-1)); };
  page.on('request', onRequest);
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  assert.ok(await page.locator('#exact').isHidden(), 'the switch is shown for MiniLM only');
  assert.match(await page.locator('select#model option[value=minilm]').textContent(), /· 46\.0 MB/);
  await page.locator('select#model').selectOption('minilm');
  await page.locator('#progress').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#progress').textContent(), /of 46\.0 MB/);
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  const toks = await tokens();
  assert.deepEqual(toks.slice(0, 3), ['[CLS]', 'a', 'fluffy']);
  assert.equal(toks.at(-1), '[SEP]');
  assert.match(await page.locator('#status').textContent(), /computed in \d+(\.\d+)? ms/);
  assert.equal(await page.locator('select#layer option').count(), 6);
  assert.equal(await page.locator('select#head option').count(), 12);
  assert.ok(await page.evaluate(async () => (await (await caches.open('attnscope-models-v1')).keys()).length >= 3), 'model files are cached');
  // Chromium has relaxed SIMD, so the worker with fused multiply-adds computed.
  assert.deepEqual([...new Set(workerWasm)], ['attnscope-worker-fma_bg.wasm']);
  // The f16 copy: close to the CLI's f32 numbers, and not equal to them.
  const rounded = await worstAgainstCli('minilm', DEFAULT_TEXT);
  assert.ok(rounded > 1e-5 && rounded <= 2e-3, `the f16 copy's attention differs from the CLI's f32 by ${rounded}`);
  assert.deepEqual([...new Set(asked)].sort(), ['config.json', 'model.f16.safetensors', 'tokenizer.json']);
  // The exact weights, one switch away: downloaded, and the CLI's numbers.
  await page.locator('#exact').check();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
  await page.waitForFunction(() => document.querySelector('#status').dataset.run && !document.querySelector('#progress'), null, { timeout: 180_000 });
  for (let i = 0; i < 100 && !asked.includes('model.safetensors'); i++) await page.waitForTimeout(100);
  assert.ok(asked.includes('model.safetensors'), `the f32 file was asked for: ${asked}`);
  let worst = 1;
  for (let i = 0; i < 50 && worst >= 1e-4; i++) {
    worst = await worstAgainstCli('minilm', DEFAULT_TEXT);
    if (worst >= 1e-4) await page.waitForTimeout(200);
  }
  assert.ok(worst < 1e-4, `browser (exact weights) and CLI differ by ${worst}`);
  page.off('request', onRequest);
  // Typing updates the real model's view.
  await page.locator('textarea#text').fill('Give me a second, please.');
  await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token')].some((t) => t.textContent === 'second'));
  // The test server is cross-origin isolated, as scripts/serve.sh: MiniLM's
  // products are shared with a helper worker once it holds its weights,
  // and the numbers stay the CLI's.
  for (let i = 0; i < 20 && !/on 2 threads/.test(await page.locator('#status').textContent()); i++) {
    await page.waitForTimeout(250);
    const before = await page.locator('#status').getAttribute('data-run');
    await page.locator('textarea#text').fill(i % 2 ? 'Give me a second, please.' : 'Give me a second, please!');
    await page.waitForFunction((b) => document.querySelector('#status').dataset.run !== b, before);
  }
  await page.locator('textarea#text').fill('Give me a second, please.');
  await page.waitForFunction(() => /on 2 threads/.test(document.querySelector('#status').textContent)
    && [...document.querySelectorAll('#tokens .token')].at(-2)?.textContent === '.');
  const shared = await worstAgainstCli('minilm', 'Give me a second, please.');
  assert.ok(shared < 1e-4, `browser (two threads) and CLI differ by ${shared}`);
  await page.screenshot({ path: join(ARTIFACTS, 'minilm.png'), fullPage: true });
});

// Holds the page's requests for `pattern` (its workers' too) until `release()`.
async function hold(pattern) {
  let release;
  const released = new Promise((ok) => { release = ok; });
  const asked = [];
  await page.context().route(pattern, async (route) => {
    asked.push(route.request().url());
    await released;
    await route.continue();
  });
  return { asked, release };
}

// From before the page loads, keeps every message its workers send it
// (`FromWorker` as JSON, src/session/messages.rs) in window.__fromWorkers.
async function recordWorkerMessages() {
  await page.addInitScript(() => {
    const Native = window.Worker;
    window.__fromWorkers = [];
    window.Worker = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => typeof e.data === 'string' && window.__fromWorkers.push(e.data));
      }
    };
  });
}

// The worker's messages so far about loading MiniLM: 'Progress', 'Loaded', 'LoadFailed'.
function minilmLoadMessages() {
  return page.evaluate(() => window.__fromWorkers.map((m) => JSON.parse(m))
    .filter((m) => ['Progress', 'Loaded', 'LoadFailed'].some((k) => m[k]?.model === 'MiniLm'))
    .map((m) => Object.keys(m)[0]));
}

// Whether Cache Storage holds MiniLM's `file` (the worker puts a file there
// once it is downloaded and checked, src/worker/fetch.rs).
function cachedMiniLm(file) {
  return page.evaluate(async (f) => {
    const cache = await caches.open('attnscope-models-v1');
    return (await cache.match(new URL(`models/minilm/${f}`, location.href).href)) !== undefined;
  }, file);
}

// A wait for a run newer than the one shown now (`#status` data-run), with no download under way.
async function nextRunWait(timeout = 180_000) {
  const before = await page.locator('#status').getAttribute('data-run');
  return async () => page.waitForFunction((b) => {
    const run = document.querySelector('#status').dataset.run;
    return run && run !== b && !document.querySelector('#progress');
  }, before, { timeout });
}

// The exact switch flipped while MiniLM's first download is under way (the
// download held back here until the other weights are in use): the worker
// gets a second Load and both downloads run at once. The earlier one, here
// finishing last, must neither replace the weights the page asked for last
// nor report its progress or its end to the page; its file still reaches
// Cache Storage, so that flipping the switch back reads it from there.
async function switchDuringDownload({ startExact, held, other }) {
  await recordWorkerMessages();
  const slow = await hold(`**/models/minilm/${held}`);
  const asked = [];
  page.on('request', (r) => r.url().includes('/models/minilm/model.') && asked.push(r.url().split('/').at(-1)));
  await page.goto(`${baseUrl}?model=minilm${startExact ? '&exact=1' : ''}`);
  await page.locator('#progress').waitFor({ timeout: 60_000 });
  for (let i = 0; i < 600 && slow.asked.length === 0; i++) await page.waitForTimeout(100);
  assert.equal(slow.asked.length, 1, `the worker asked for ${held} and waits for it`);
  const exact = page.locator('#exact');
  await (startExact ? exact.uncheck() : exact.check());
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  const first = await worstAgainstCli('minilm', DEFAULT_TEXT);
  const loads = (await minilmLoadMessages()).length;
  assert.equal((await minilmLoadMessages()).at(-1), 'Loaded');

  // The held download arrives: the worker checks it and caches it.
  slow.release();
  for (let i = 0; i < 600 && !(await cachedMiniLm(held)); i++) await page.waitForTimeout(100);
  assert.ok(await cachedMiniLm(held), `${held} reached Cache Storage`);
  // Had the overtaken load gone on, it would now build its model and say
  // Loaded: give it up to 5 s (the message check below catches it anyway:
  // its progress reports come before the file is cached).
  for (let i = 0; i < 50 && !(await minilmLoadMessages()).slice(loads).includes('Loaded'); i++) await page.waitForTimeout(100);

  const text = `${DEFAULT_TEXT} happy`;
  const ran = await nextRunWait();
  await page.locator('textarea#text').fill(text);
  await ran();
  assert.equal((await tokens()).at(-2), 'happy');
  const worst = await worstAgainstCli('minilm', text);
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  assert.deepEqual(asked, [held, other], 'each weights file was asked for once');
  // What the worker said about loading MiniLM since the other weights were in use, counted.
  const since = {};
  for (const m of (await minilmLoadMessages()).slice(loads)) since[m] = (since[m] ?? 0) + 1;
  return { first, worst, since, asked };
}

test('the exact switch turned on during the f16 download keeps the f32 weights when the f16 copy arrives last', async () => {
  const { first, worst, since, asked } = await switchDuringDownload({ startExact: false, held: 'model.f16.safetensors', other: 'model.safetensors' });
  assert.ok(first < 1e-4, `before the f16 copy arrived, browser and CLI differ by ${first}`);
  assert.ok(worst < 1e-4, `after it arrived, browser (exact weights) and CLI differ by ${worst}`);
  assert.deepEqual(since, {}, 'the overtaken load told the page nothing');
  assert.match(await page.locator('section[aria-label="The model"]').textContent(), /f32 weights as published/);

  // Switching back and forth reads each file from Cache Storage.
  let ran = await nextRunWait();
  await page.locator('#exact').uncheck();
  await ran();
  const rounded = await worstAgainstCli('minilm', `${DEFAULT_TEXT} happy`);
  assert.ok(rounded > 1e-5 && rounded <= 2e-3, `the f16 copy's attention differs from the CLI's f32 by ${rounded}`);
  ran = await nextRunWait();
  await page.locator('#exact').check();
  await ran();
  const again = await worstAgainstCli('minilm', `${DEFAULT_TEXT} happy`);
  assert.ok(again < 1e-4, `browser (exact weights again) and CLI differ by ${again}`);
  assert.deepEqual(asked, ['model.f16.safetensors', 'model.safetensors'], 'no file was downloaded twice');
});

test('the exact switch turned off during the f32 download keeps the f16 copy when the f32 file arrives last', async () => {
  const { first, worst, since, asked } = await switchDuringDownload({ startExact: true, held: 'model.safetensors', other: 'model.f16.safetensors' });
  assert.ok(first > 1e-5 && first <= 2e-3, `before the f32 file arrived, the f16 copy's attention differs from the CLI's by ${first}`);
  assert.ok(worst > 1e-5 && worst <= 2e-3, `after it arrived, the f16 copy's attention differs from the CLI's by ${worst}`);
  assert.deepEqual(since, {}, 'the overtaken load told the page nothing');
  assert.match(await page.locator('section[aria-label="The model"]').textContent(), /rounded to f16/);

  const ran = await nextRunWait();
  await page.locator('#exact').check();
  await ran();
  const exact = await worstAgainstCli('minilm', `${DEFAULT_TEXT} happy`);
  assert.ok(exact < 1e-4, `browser (exact weights, from the cache) and CLI differ by ${exact}`);
  assert.deepEqual(asked, ['model.safetensors', 'model.f16.safetensors'], 'no file was downloaded twice');
});

// Safari has no relaxed SIMD and would refuse the whole fused worker: there
// the page must start the plain one. Chromium cannot switch relaxed SIMD
// off any more, so the page's question is answered as Safari answers it.
test('without relaxed SIMD the page starts the plain worker, which computes the same attention', async () => {
  await page.addInitScript(() => {
    const validate = WebAssembly.validate.bind(WebAssembly);
    const relaxedMadd = (b) => b.some((v, i) => v === 0xfd && b[i + 1] === 0x85 && b[i + 2] === 0x02);
    WebAssembly.validate = (bytes) => !relaxedMadd(new Uint8Array(bytes.buffer ?? bytes)) && validate(bytes);
  });
  await page.goto(`${baseUrl}?model=minilm&exact=1`);
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  assert.deepEqual([...new Set(workerWasm)], ['attnscope-worker_bg.wasm']);
  const worst = await worstAgainstCli('minilm', DEFAULT_TEXT);
  assert.ok(worst < 1e-4, `browser (plain worker) and CLI differ by ${worst}`);
});

// Pasting a long document: the teaching model cuts it and says so; the page stays usable.
test('10,000 pasted characters are cut to the model limit with a notice', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  const long = 'the cat sat on a mat '.repeat(500).slice(0, 10_000);
  assert.equal(long.length, 10_000);
  await page.locator('textarea#text').fill(long);
  await page.locator('#status').filter({ hasText: /Text cut to 256 words/ }).waitFor();
  assert.equal(await page.locator('#tokens .token').count(), 256);
  const map = await heatmapPixels();
  assert.ok(map.colours > 8, 'the cut text is drawn');
  // Still responsive: a short sentence afterwards replaces it.
  await page.locator('textarea#text').fill('the dog barked');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);
  assert.equal((await page.locator('#error').textContent()).trim(), '');
});

// A 5 MB paste is cut to 10,000 characters before anything is tokenized or
// copied into a message; the URL keeps the same 10,000.
test('a 5 MB paste is cut to 10,000 characters, in the computation and in the URL alike', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  const huge = 'the cat sat on a mat '.repeat(250_000);
  await page.locator('textarea#text').evaluate((t, text) => {
    t.value = text;
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }, huge);
  await page.locator('#status').filter({ hasText: /Text cut to its first 10000 characters/ }).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('text')?.length === 10_000, null, { timeout: 10_000 });
  assert.equal(new URL(page.url()).searchParams.get('text'), huge.slice(0, 10_000));
  await page.locator('textarea#text').fill('the dog barked');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);
});

// A damaged download is caught by its hash, reported with a retry, never cached,
// and the teaching model keeps working.
test('a corrupted model file is reported with a retry; the teaching model keeps working', async () => {
  corrupted.add('/models/minilm/model.f16.safetensors');
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  await page.locator('select#model').selectOption('minilm');
  await page.locator('#retry').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#error').textContent(), /could not be loaded: .*corrupted: its sha256 is/);
  assert.equal(await page.evaluate(async () => (await (await caches.open('attnscope-models-v1')).keys()).some((r) => r.url.endsWith('.safetensors'))), false, 'a bad file must not be cached');

  // The user goes back to the teaching model: it still computes.
  await page.locator('select#model').selectOption('teaching');
  await page.locator('textarea#text').fill('the dog barked');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);

  // The mirror is fixed: retry succeeds.
  corrupted.clear();
  oversized.clear();
  stalled.clear();
  await page.locator('select#model').selectOption('minilm');
  await page.locator('#retry').click();
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 120_000 });
  assert.equal((await page.locator('#error').textContent()).trim(), '');
});

// A cache entry damaged after it was stored (same length, one byte changed)
// is checked like a download, deleted and downloaded again, never parsed.
test('a model file damaged in Cache Storage is downloaded again', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  const real = await page.evaluate(async () => {
    const text = await (await fetch('models/minilm/config.json')).text();
    const damaged = text.replace('"', "'");
    const cache = await caches.open('attnscope-models-v1');
    await cache.put(new URL('models/minilm/config.json', location.href).href, new Response(damaged));
    return text;
  });
  await page.locator('select#model').selectOption('minilm');
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  const cached = await page.evaluate(async () => {
    const hit = await (await caches.open('attnscope-models-v1')).match(new URL('models/minilm/config.json', location.href).href);
    return hit.text();
  });
  assert.equal(cached, real, 'the cache now holds the checked file');
});

// A server that sends more than the pinned size is cut off at once; one that
// stops sending is given up after the stall timeout. Both are reported, and
// the teaching model keeps working.
test('downloads are capped at the pinned size and given up when they stall', async () => {
  oversized.add('/models/minilm/tokenizer.json');
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  await page.locator('select#model').selectOption('minilm');
  await page.locator('#retry').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#error').textContent(), /tokenizer\.json sends more than its \d+ bytes/);

  oversized.clear();
  stalled.add('/models/minilm/tokenizer.json');
  await page.locator('#retry').click();
  await page.locator('#error').filter({ hasText: /stalled: nothing arrived for 30 s/ }).waitFor({ timeout: 120_000 });
  await page.locator('select#model').selectOption('teaching');
  await page.locator('textarea#text').fill('the dog barked');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);
  // The cancelled downloads show up as failed requests: expected here.
  problems = problems.filter((p) => !/request failed: .*tokenizer\.json/.test(p));
});

// A worker that dies (an uncaught error here; a trap in its wasm or running
// out of memory end the same way, with an error event on the page's side):
// the page says so, starts another, and everything keeps working.
test('a worker that dies is reported and restarted; the teaching model keeps working', async () => {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  const deadline = Date.now() + 60_000;
  while (page.workers().length === 0 && Date.now() < deadline) await page.waitForTimeout(100);
  const [worker] = page.workers();
  await worker.evaluate(() => setTimeout(() => { throw new Error('worker killed by the test'); }));
  await page.locator('#error').filter({ hasText: /computation worker stopped unexpectedly .*it was restarted/ }).waitFor({ timeout: 30_000 });
  // The teaching model (on the page's thread) still computes, and clears the message.
  await page.locator('textarea#text').fill('the dog barked');
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 3);
  // The new worker loads and runs a real model.
  await page.locator('select#model').selectOption('minilm');
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  problems = problems.filter((p) => !/worker killed by the test/.test(p));
});

// A static host that cannot send the cross-origin isolation headers: no
// SharedArrayBuffer, so no helper worker. SmolLM2 then runs whole on one
// thread, with the same numbers.
test('without cross-origin isolation SmolLM2 runs on one thread, with the same attention', async () => {
  const plain = await serve(DIST, { isolated: false });
  const isolatedUrl = baseUrl;
  baseUrl = `http://127.0.0.1:${plain.address().port}/`;
  try {
    await page.goto(`${baseUrl}?model=smollm2&text=${encodeURIComponent('The capital of France is')}`);
    await page.locator('#next-tokens').waitFor({ timeout: 300_000 });
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    const status = await page.locator('#status').textContent();
    assert.match(status, /computed in [\d.]+ ms in your browser/);
    assert.match(await page.locator('#next-tokens li').first().textContent(), /Paris/);
    const worst = await worstAgainstCli('smollm2', 'The capital of France is');
    assert.ok(worst < 1e-4, `browser (one thread) and CLI differ by ${worst}`);
  } finally {
    baseUrl = isolatedUrl;
    await new Promise((ok) => plain.close(ok));
  }
});

// A browser that will not start a second worker (here: the worker's Worker
// constructor replaced before the model arrives): SmolLM2 runs on one
// thread, and the status says so and why.
test('when the helper worker cannot start, SmolLM2 runs on one thread and the status says why', async () => {
  const patched = new Promise((resolve) => page.on('worker', async (w) => {
    if (/attnscope-worker-extra/.test(w.url()) || !/attnscope-worker/.test(w.url())) return;
    resolve(await w.evaluate(() => {
      self.Worker = function () { throw new Error('workers disabled by the test'); };
      return 'patched';
    }));
  }));
  // The model's file waits until the worker is patched.
  await page.context().route('**/models/smollm2/**', async (route) => {
    await patched;
    await route.continue();
  });
  await page.goto(`${baseUrl}?model=smollm2&text=${encodeURIComponent('The capital of France is')}`);
  assert.equal(await patched, 'patched');
  await page.locator('#next-tokens').waitFor({ timeout: 300_000 });
  const status = await page.locator('#status').textContent();
  assert.match(status, /on one thread \(no helper worker could be started: .*workers disabled by the test\)/);
  assert.doesNotMatch(status, /on 2 threads/);
  assert.match(await page.locator('#next-tokens li').first().textContent(), /Paris/);
});

// A helper worker that dies in the middle of a run (here: an exception from
// the browser as it writes out the first piece it claimed; a trap in its
// wasm ends the same way, with an error event): the run completes on one
// thread with the same numbers, the status says so, and the page's worker
// carries on.
test('when the helper worker dies mid-run, the run completes on one thread and the status says so', async () => {
  // The helper is a second copy of the page's worker: its script, asked for
  // again (the page's offline copy asks too, and runs nothing), first replaces a method that the helper's wasm calls on
  // the shared buffer (it runs in a loop that takes no other instruction).
  // The first call reads a request's input, the second writes out the
  // first piece the helper claimed: that one throws, and the helper dies
  // holding the piece.
  const kill = `{
    const subarray = Float32Array.prototype.subarray;
    let calls = 0;
    Float32Array.prototype.subarray = function (...args) {
      if (this.buffer instanceof SharedArrayBuffer && ++calls === 2) throw new Error('helper killed by the test');
      return subarray.apply(this, args);
    };
  }\n`;
  const loaded = [];
  await page.context().route(/attnscope-worker-fma_loader\.js$/, async (route) => {
    loaded.push(route.request().url());
    const response = await route.fetch();
    const body = await response.text();
    await route.fulfill({ response, body: loaded.length > 1 ? kill + body : body });
  });
  const text = 'Give me a second, please.';
  // The exact weights, to compare with the CLI's.
  await page.goto(`${baseUrl}?model=minilm&exact=1&text=${encodeURIComponent(text)}`);
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 180_000 });
  // The helper takes part once it holds its weights: type until a run
  // has it, or says it stopped.
  for (let i = 0; !/on (2 threads|one thread)/.test(await page.locator('#status').textContent()); i++) {
    assert.ok(i < 40, `the helper never took part: ${await page.locator('#status').textContent()}`);
    await page.waitForTimeout(250);
    const before = await page.locator('#status').getAttribute('data-run');
    await page.locator('textarea#text').fill(i % 2 ? text : `${text}!`);
    await page.waitForFunction((b) => document.querySelector('#status').dataset.run !== b, before);
  }
  // The run the helper died in completed, on this thread alone.
  const status = await page.locator('#status').textContent();
  assert.match(status, /on one thread \(the helper worker stopped/);
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  const worst = await worstAgainstCli('minilm', await page.locator('textarea#text').inputValue());
  assert.ok(worst < 1e-4, `browser (helper dead) and CLI differ by ${worst}`);
  // Later runs too, with the error's message now known (the run before may
  // have known it already: wait for the next run, then read its status).
  const before = await page.locator('#status').getAttribute('data-run');
  await page.locator('textarea#text').fill('Give me a minute, please.');
  await page.waitForFunction((b) => document.querySelector('#status').dataset.run !== b, before, { timeout: 30_000 });
  assert.match(await page.locator('#status').textContent(), /on one thread \(the helper worker stopped: .*helper killed by the test\)/);
  assert.ok([...await tokens()].includes('minute'));
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  problems = problems.filter((p) => !/helper killed by the test/.test(p));
});

// The decoder: grouped-query, causal, its next-token guess, in the worker's memory budget.
test('SmolLM2 downloads, runs causally in the browser and predicts the next token', async () => {
  await page.goto(`${baseUrl}?model=smollm2&view=overview&text=${encodeURIComponent('The capital of France is')}`);
  await page.locator('#progress').waitFor({ timeout: 60_000 });
  await page.locator('#next-tokens').waitFor({ timeout: 300_000 });
  const toks = await tokens();
  assert.equal(toks.length, 5, `tokens: ${JSON.stringify(toks)}`);
  assert.equal(await page.locator('select#layer option').count(), 30);
  assert.equal(await page.locator('select#head option').count(), 9);
  // Query head 4 shares key/value head 1 (short in the option, said in full in the select's title).
  assert.match(await page.locator('select#head option').nth(4).textContent(), /^4 \(kv 1\)$/);
  assert.match(await page.locator('select#head').getAttribute('title'), /key\/value head/);
  const first = await page.locator('#next-tokens li').first().textContent();
  assert.match(first, /Paris/);
  const p = Number(first.match(/([\d.]+)%/)[1]);
  assert.ok(Math.abs(p - 77.25) < 1, `p(Paris) = ${p}%`);
  const status = await page.locator('#status').textContent();
  // The test server sends the cross-origin isolation headers, as
  // scripts/serve.sh does: every product is shared with a helper worker.
  assert.match(status, /on 2 threads/);
  const mb = Number(status.match(/worker memory ([\d.]+) MB/)[1]);
  assert.ok(mb <= 400, `the workers hold ${mb} MB`);
  assert.match(await page.locator('#mask-note').textContent(), /causal/);
  // The overview's thumbnails cross from the worker as 16-bit levels: in every
  // head the first query sees only itself (weight 1, viridis' yellow) and
  // none of the future (weight 0, its darkest purple). Tile L0 H0, 5 × 5 cells.
  const corner = (col) => page.locator('#overview').evaluate((c, col) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    const tile = Number(c.dataset.tile), margin = Number(c.dataset.margin), cell = tile / 5;
    const at = (k) => Math.round((margin + (k + 0.5) * cell) * dpr);
    return Array.from(c.getContext('2d').getImageData(at(col), at(0), 1, 1).data.slice(0, 3));
  }, col);
  assert.deepEqual(await corner(0), [253, 231, 37]);
  assert.deepEqual(await corner(4), [68, 1, 84]);
  await page.screenshot({ path: join(ARTIFACTS, 'smollm2.png'), fullPage: true });

  // Typing at the end extends the text (the worker reuses its key/value cache).
  await page.locator('textarea#text').press('End');
  await page.locator('textarea#text').pressSequentially(' Paris', { delay: 5 });
  await page.waitForFunction(() => {
    const t = document.querySelectorAll('#tokens .token');
    return t.length === 6 && t[5].textContent.includes('Paris');
  }, null, { timeout: 60_000 });
  // The appended token went through the fused worker's one-token kernel; its
  // attention matches the CLI's full computation of the whole text.
  const worst = await worstAgainstCli('smollm2', 'The capital of France is Paris');
  assert.ok(worst < 1e-4, `browser (appended) and CLI differ by ${worst}`);

  // Emptying the box empties the view, as with the other models: no tokens,
  // no prediction, no error.
  await page.locator('textarea#text').fill('');
  await page.locator('#status').filter({ hasText: /Type some text/ }).waitFor();
  assert.equal(await page.locator('#tokens .token').count(), 0);
  assert.equal(await page.locator('#next-tokens').count(), 0);
  assert.equal((await page.locator('#error').textContent()).trim(), '');
});
