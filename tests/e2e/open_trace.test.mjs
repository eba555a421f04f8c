// "Open a trace…" (src/web/shell/open_trace.rs, src/session/trace_view.rs):
// trace files opened in the page as a visitor would, with the file picker
// and by dropping a file, their numbers checked against the CLI's reading of
// the same file; damaged files get a sentence and the page keeps working.
//
// Run: node --test --test-reporter=spec tests/e2e/open_trace.test.mjs (after `trunk build --release`)

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'tracefile');
const CLI = join(ROOT, 'target', 'debug', 'attnscope');
const DEFAULT_TEXT = 'a fluffy blue creature roamed the verdant forest';

let server, browser, baseUrl, page, problems, scratch;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'attnscope-trace-'));
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  problems = watch(page, { origin: baseUrl });
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `trace-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

// The CLI's reading of the same file: the JSON of `attention --trace`.
function cliJson(file, layer = 0, head = 0) {
  return JSON.parse(execFileSync(CLI, ['attention', '--trace', file, '--layer', String(layer), '--head', String(head), '--json', '-'],
    { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

async function openPage() {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
}

async function openTrace(file) {
  await page.locator('#open-trace').setInputFiles(file);
}

// The page's table of the selected head's weights (3 decimals).
async function weightsTable() {
  await page.locator('#weights-table').waitFor({ state: 'attached' });
  return page.locator('#weights-table tbody tr').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.textContent))));
}

async function grab(button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  return Buffer.concat(chunks);
}

// Waits until the stage shows `layer` and `head` of a trace of `n` tokens.
async function waitForHead(layer, head, n) {
  await page.waitForFunction(([l, h, n]) => {
    const rows = document.querySelectorAll('#weights-table tbody tr');
    return document.querySelector('select#layer')?.value === String(l) && document.querySelector('select#head')?.value === String(h)
      && rows.length === n;
  }, [layer, head, n]);
}

// Colour of the cell (row, col) of tile (0, 0) of the overview, a tile of n × n cells.
function overviewCell(row, col, n) {
  return page.locator('#overview').evaluate((c, [row, col, n]) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    const tile = Number(c.dataset.tile), margin = Number(c.dataset.margin), cell = tile / n;
    const at = (k) => Math.round((margin + (k + 0.5) * cell) * dpr);
    return Array.from(c.getContext('2d').getImageData(at(col), at(row), 1, 1).data.slice(0, 3));
  }, [row, col, n]);
}

test('a committed trace (SmolLM2, written by the Python package) opens: tokens, overview, a head, the export', async () => {
  const file = join(FIXTURES, 'smollm2_capital.safetensors');
  const cli = cliJson(file, 2, 4);
  const n = cli.tokens.length;
  await openPage();
  await openTrace(file);
  await page.locator('#trace-info').filter({ hasText: /30 layers × 9 heads over 3 key\/value heads/ }).waitFor();
  assert.match(await page.locator('#trace-info').textContent(), new RegExp(`${n} tokens · smollm2_capital\\.safetensors`));
  assert.equal(await page.locator('select#model').inputValue(), 'trace');
  assert.equal(await page.locator('#tokens .token').count(), n);
  assert.equal(await page.locator('select#layer option').count(), 30);
  assert.equal(await page.locator('select#head option').count(), 9);
  assert.match(await page.locator('#status').textContent(), /its text is fixed/);
  // The text box says the text is fixed rather than offering to type.
  assert.equal(await page.locator('textarea#text').getAttribute('readonly'), '');
  assert.match(await page.locator('textarea#text').getAttribute('placeholder'), /fixed/);

  // A head: every weight as the CLI reads it from the file.
  await page.locator('select#layer').selectOption('2');
  await page.locator('select#head').selectOption('4');
  await waitForHead(2, 4, n);
  const shown = await weightsTable();
  cli.attentions[2][4].forEach((row, i) => row.forEach((v, j) => {
    assert.ok(Math.abs(shown[i][j] - v) <= 5e-4 + 1e-9, `(${i}, ${j}): page ${shown[i][j]}, file ${v}`);
  }));

  // The export is the CLI's JSON of the same file, to the last digit.
  const json = JSON.parse((await grab('#export-json')).toString());
  assert.deepEqual(json.tokens, cli.tokens);
  assert.deepEqual(json.attentions, cli.attentions);
  const png = await grab('#export-png');
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

  // The overview, from the file's thumbnails: causal, so the first query
  // sees only itself (weight 1: viridis' yellow) and no later token (0).
  await page.locator('#tab-overview').click();
  await page.waitForFunction(() => document.querySelector('#overview')?.dataset.tile);
  assert.deepEqual(await overviewCell(0, 0, n), [253, 231, 37]);
  assert.deepEqual(await overviewCell(0, n - 1, n), [68, 1, 84]);

  // Step by step follows q·k from the file's queries and keys.
  await page.locator('#tab-explain').click();
  await page.locator('#explain').filter({ hasText: /s_j = q·k_j/ }).waitFor();
  // The lesson needs a live model, and says so.
  await page.locator('#tab-lesson').click();
  await page.locator('#needs-live-model').waitFor();

  // Back to a model: it runs as before.
  await page.locator('select#model').selectOption('teaching');
  await page.waitForFunction((t) => document.querySelectorAll('#tokens .token').length === t.split(' ').length, DEFAULT_TEXT);
  assert.equal(await page.locator('textarea#text').inputValue(), DEFAULT_TEXT);
});

test('a trace written by `attnscope trace --model minilm --out` opens and shows its numbers', async () => {
  const file = join(scratch, 'minilm.trace.safetensors');
  execFileSync(CLI, ['trace', '--model', 'minilm', '--models-dir', join(ROOT, 'www', 'models'),
    '--text', 'The cat sat on the mat because it was warm', '--out', file]);
  const cli = cliJson(file, 5, 11);
  const n = cli.tokens.length;
  await openPage();
  await openTrace(file);
  await page.locator('#trace-info').filter({ hasText: /6 layers × 12 heads/ }).waitFor();
  await page.locator('select#layer').selectOption('5');
  await page.locator('select#head').selectOption('11');
  await waitForHead(5, 11, n);
  const shown = await weightsTable();
  cli.attentions[5][11].forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs(shown[i][j] - v) <= 5e-4 + 1e-9, `(${i}, ${j})`)));
  assert.deepEqual(await page.locator('#tokens .token').allTextContents(), cli.tokens);
  assert.match(await page.locator('#mask-note').textContent(), /no mask/);
});

test('a trace dropped on the page opens; one without queries and keys shows its weights only', async () => {
  const file = join(FIXTURES, 'numpy_f16.safetensors');
  const cli = cliJson(file, 1, 2);
  await openPage();
  const bytes = readFileSync(file).toString('base64');
  await page.evaluate((b64) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([raw], 'dropped.trace.safetensors'));
    document.querySelector('#stage').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, bytes);
  await page.locator('#trace-info').filter({ hasText: /2 layers × 3 heads over 1 key\/value heads · 53 tokens · dropped/ }).waitFor();
  assert.match(await page.locator('#status').textContent(), /no queries and keys/);
  await page.locator('select#layer').selectOption('1');
  await page.locator('select#head').selectOption('2');
  // 53 tokens: no table, the export carries the numbers.
  await page.waitForFunction(() => document.querySelector('select#head').value === '2');
  const json = JSON.parse((await grab('#export-json')).toString());
  assert.deepEqual(json.attentions, cli.attentions);
  // Without queries and keys step by step says why it is empty; the heatmap draws.
  await page.locator('#tab-explain').click();
  await page.locator('#needs-queries-keys').waitFor();
  await page.locator('#tab-head').click();
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 100);
  await page.locator('#tab-catalog').click();
  await page.locator('#tab-grid').click();
  await page.waitForFunction(() => document.querySelector('#grid-causal')?.width > 50);
});

test('a damaged, a cut-short and a newer-version trace each get a clear message; the teaching model keeps working', async () => {
  const good = readFileSync(join(FIXTURES, 'tiny_llama.safetensors'));
  const headerLen = Number(good.readBigUInt64LE(0));
  const header = good.subarray(8, 8 + headerLen).toString('latin1');

  const damaged = Buffer.from(good);
  damaged.write('#', 8 + header.indexOf('"dtype"'), 'latin1'); // the header is no longer JSON
  const cut = good.subarray(0, good.length - 100);
  const newer = Buffer.from(good);
  const at = header.indexOf('"format_version":"1.0"');
  assert.ok(at > 0);
  newer.write('"format_version":"2.0"', 8 + at, 'latin1');
  const cases = [
    ['damaged.trace.safetensors', damaged, /not a trace file: its header is not valid JSON/],
    ['cut.trace.safetensors', cut, /cut short/],
    ['newer.trace.safetensors', newer, /format version 2\.0, newer than this attnscope reads/],
  ];
  await openPage();
  for (const [name, bytes, why] of cases) {
    const file = join(scratch, name);
    writeFileSync(file, bytes);
    await openTrace(file);
    await page.locator('#trace-error').filter({ hasText: why }).waitFor();
    assert.match(await page.locator('#trace-error').textContent(), new RegExp(name.replace(/\./g, '\\.')));
    assert.equal(await page.locator('select#model').inputValue(), 'teaching');
    // The teaching model still computes what is typed.
    const text = `the ${name.split('.')[0]} file failed`;
    await page.locator('textarea#text').fill(text);
    await page.waitForFunction((t) => [...document.querySelectorAll('#tokens .token')].map((e) => e.textContent).join(' ') === t, text);
  }
  // A good trace after the failures opens, and its message goes away.
  await openTrace(join(FIXTURES, 'tiny_llama.safetensors'));
  await page.locator('#trace-info').filter({ hasText: /6 layers × 4 heads over 2 key\/value heads/ }).waitFor();
  assert.equal(await page.locator('#trace-error').count(), 0);
});
