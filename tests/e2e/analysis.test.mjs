// End-to-end test of "Beyond weights" (issue #28's page part): value-weighted
// attention, rollout, the logit lens, head knockout and the importance map,
// computed by the real models in the worker and checked against the CLI's
// `attnscope analyze`.
//
// Run: node --test --test-reporter=spec tests/e2e/analysis.test.mjs (after trunk build --release)

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const TEXT = 'the cat sat on the mat because it was tired';
const PROMPT = 'The capital of France is';

let server, browser, baseUrl, page, problems;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  problems = watch(page);
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `analysis-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

function analyze(model, what, text, extra = []) {
  const out = execFileSync(join(ROOT, 'target', 'debug', 'attnscope'),
    ['analyze', '--model', model, '--what', what, '--models-dir', join(ROOT, 'www', 'models'), '--text', text, ...extra],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out).result;
}

// A canvas's pixels hashed: a changed picture has another hash.
function pixels(selector) {
  return page.locator(selector).evaluate((c) => {
    if (c.width === 0) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + d[i + 1] * 7 + d[i + 2] * 13) | 0;
    return hash;
  });
}

// Clicks cell (i, j) of a map drawn with canvas/grid.rs's layout.
async function clickCell(selector, i, j) {
  const c = page.locator(selector);
  const [cell, left, top] = await Promise.all(['data-cell', 'data-left', 'data-top'].map(async (a) => Number(await c.getAttribute(a))));
  await c.click({ position: { x: left + cell * (j + 0.5), y: top + cell * (i + 0.5) } });
}

async function setText(text) {
  await page.locator('textarea#text').fill(text);
}

test('MiniLM: value-weighted switch against the CLI, rollout rows sum to 1, knockout messages, importance cancelled and restarted', async () => {
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=beyond&layer=2&head=5&text=${encodeURIComponent(TEXT)}`);
  await page.locator('#rollout-map[data-row-sums]').waitFor({ timeout: 300_000 });

  // Rollout: every row of the map drawn sums to 1, at the last layer and the first.
  const sums = async () => (await page.locator('#rollout-map').getAttribute('data-row-sums')).split(',').map(Number);
  for (const s of await sums()) assert.ok(Math.abs(s - 1) < 1e-4, `rollout row sums to ${s}`);
  await page.locator('#rollout-slider').fill('1');
  await page.locator('#rollout-layer', { hasText: 'After layers 1 … 1 of 6' }).waitFor();
  for (const s of await sums()) assert.ok(Math.abs(s - 1) < 1e-4, `rollout row sums to ${s}`);

  // Value-weighted attention: the picture changes, and the readout is the CLI's number.
  await page.locator('#vw-map[data-cell]').waitFor();
  const before = await pixels('#vw-map');
  const t0 = Date.now();
  await page.locator('#vw-norms').click();
  await page.waitForFunction((h) => {
    const c = document.querySelector('#vw-map');
    // While the norms are on their way the canvas is emptied to width 0.
    if (!c || c.width === 0) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + d[i + 1] * 7 + d[i + 2] * 13) | 0;
    return hash !== h;
  }, before);
  console.log(`value-weighted switch: ${Date.now() - t0} ms until the map changed`);
  const cli = analyze('minilm', 'value-norms', TEXT);
  const [i, j] = [3, 1];
  await clickCell('#vw-map', i, j);
  const readout = await page.locator('#vw-map-readout').textContent();
  const shown = Number(readout.split(': ').pop());
  const want = cli.layers[2][5][i][j];
  assert.ok(Math.abs(shown - want) <= 1e-4 * Math.max(1, Math.abs(want)), `readout ${readout}, CLI ${want}`);
  assert.ok(readout.includes(`“${cli.tokens[i]}” → “${cli.tokens[j]}”`), readout);

  // Knockout: of no head, of every head, on an empty text.
  await page.locator('#knockout-run').click();
  await page.locator('#analysis-error', { hasText: 'No head chosen' }).waitFor();
  await page.locator('#kh-0-3').click();
  await page.locator('#knockout-run').click();
  await page.locator('#knockout-cosine').waitFor();
  assert.match(await page.locator('#knockout-cosine').textContent(), /Cosine of the sentence embeddings before and after: 0\.\d+|1/);
  await page.locator('#knockout-all').click();
  await page.locator('#knockout-run').click();
  await page.locator('#knockout-note', { hasText: 'Every head is removed' }).waitFor();

  // Importance map: cancelled mid-way, nothing drawn after; then run to the end.
  await page.locator('#importance-run').click();
  await page.locator('#importance-status', { hasText: /Knocking out head [1-9]\d* of 72/ }).waitFor();
  await page.locator('#importance-cancel').click();
  await page.locator('#importance-status', { hasText: 'Cancelled.' }).waitFor();
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('#importance-status').textContent(), 'Cancelled.');
  const t1 = Date.now();
  await page.locator('#importance-run').click();
  await page.locator('#importance-status', { hasText: 'Done: 72 heads' }).waitFor({ timeout: 60_000 });
  console.log(`importance map, MiniLM 72 heads, ${cli.tokens.length} tokens: ${Date.now() - t1} ms`);
  const title = await page.locator('#kh-0-3').getAttribute('title');
  const map = analyze('minilm', 'importance', TEXT);
  const score = Number(title.split('change ').pop());
  assert.ok(Math.abs(score - map.scores[0][3]) < 1e-3, `${title} vs CLI ${map.scores[0][3]}`);

  await setText('');
  await page.locator('#knockout-run').click();
  await page.locator('#analysis-error', { hasText: /empty|no tokens/ }).waitFor();
  // Typing still works after all that.
  await setText('a new sentence');
  await page.locator('#rollout-map[data-row-sums]').waitFor();
});

test('SmolLM2: the logit lens top token after the last layer is the CLI\'s, and the grid on request', async () => {
  await page.goto(`${baseUrl}?model=smollm2&view=beyond&text=${encodeURIComponent(PROMPT)}`);
  await page.locator('#lens-table').waitFor({ timeout: 300_000 });
  const cli = analyze('smollm2', 'logit-lens', PROMPT);
  const rows = page.locator('#lens-table tbody tr');
  assert.equal(await rows.count(), 30);
  // Every layer, to the four decimals shown: the page's lens comes from the
  // run's trace, each layer's feed-forward on one row shared with the helper.
  for (let l = 0; l < 30; l++) {
    const cells = await rows.nth(l).locator('td').allTextContents();
    assert.equal(cells[1], JSON.stringify(cli.layers[l][0].token), `layer ${l + 1}`);
    assert.ok(Math.abs(Number(cells[2]) - cli.layers[l][0].p) <= 1e-4, `layer ${l + 1}: ${cells[2]} vs ${cli.layers[l][0].p}`);
  }
  assert.match(await rows.nth(29).locator('td').nth(1).textContent(), /Paris/);
  await page.locator('#lens-grid-toggle').check();
  await page.locator('#lens-grid').waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#lens-grid tbody tr').count(), 30);

  // Knockout on a decoder: the next-token list before and after.
  await page.locator('#kh-0-0').click();
  await page.locator('#knockout-run').click();
  await page.locator('#knockout-top').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#knockout-before li').first().textContent(), /Paris/);
});
