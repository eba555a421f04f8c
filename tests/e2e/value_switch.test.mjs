// End-to-end test of the value-weighted switch (issue #28, item 1) on the dot
// grids and the overview: MiniLM computes the norms in the worker, the grid
// of the model's own mask draws them, and a norm read out under the grids is
// the CLI's `attnscope analyze --what value-norms` for that cell.
//
// Run: node --test --test-reporter=spec tests/e2e/value_switch.test.mjs
// (after trunk build --release and cargo build --bin attnscope)

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
const TEXT = 'a fluffy blue creature roamed the verdant forest';
const [LAYER, HEAD] = [2, 5];

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
  await page.screenshot({ path: join(ARTIFACTS, `value-switch-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

function valueNorms(text) {
  const out = execFileSync(join(ROOT, 'target', 'debug', 'attnscope'),
    ['analyze', '--model', 'minilm', '--what', 'value-norms', '--models-dir', join(ROOT, 'www', 'models'), '--text', text],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out).result;
}

// A canvas's pixels hashed in the page: a changed picture has another hash.
const HASH = (c) => {
  if (c.width === 0) return 0;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let hash = 0;
  for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + d[i + 1] * 7 + d[i + 2] * 13) | 0;
  return hash;
};
const pixels = (selector) => page.locator(selector).evaluate(HASH);

// The hash once the picture has stopped moving (a step change animates).
async function settled(selector) {
  let last = await pixels(selector);
  for (let k = 0; k < 50; k++) {
    await page.waitForTimeout(100);
    const now = await pixels(selector);
    if (now === last) return now;
    last = now;
  }
  throw new Error(`${selector} never stopped changing`);
}

// Waits until `selector`'s picture differs from hash `h`.
async function changed(selector, h) {
  await page.waitForFunction(([s, h, hash]) => (0, eval)(hash)(document.querySelector(s)) !== h, [selector, h, HASH.toString()]);
}

// Clicks cell (i, j) of a grid drawn with canvas/grid.rs's layout.
async function clickCell(selector, i, j) {
  const c = page.locator(selector);
  const [cell, left, top] = await Promise.all(['data-cell', 'data-left', 'data-top'].map(async (a) => Number(await c.getAttribute(a))));
  await c.click({ position: { x: left + cell * (j + 0.5), y: top + cell * (i + 0.5) } });
}

test('MiniLM dot grids: the switch draws the norms on the model\'s own grid only, at the weights step only, and a read-out norm is the CLI\'s', async () => {
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=grid&layer=${LAYER}&head=${HEAD}&text=${encodeURIComponent(TEXT)}`);
  await page.locator('#grid-unmasked[data-cell]').waitFor({ timeout: 300_000 });
  await page.locator('#grid-causal[data-cell]').waitFor();
  const own = await settled('#grid-unmasked');
  const whatIf = await settled('#grid-causal');

  const t0 = Date.now();
  await page.locator('#vw-norms').click();
  await changed('#grid-unmasked', own);
  console.log(`value-weighted switch on the dot grid: ${Date.now() - t0} ms until the grid changed`);
  assert.equal(await settled('#grid-causal'), whatIf, 'the what-if (causal) grid of an encoder keeps its weights');
  await page.locator('#grid-norms-caption').waitFor();
  assert.match(await page.locator('#view-grid .hint').textContent(), /‖a·f\(x\)‖/);

  // The norm read out is the CLI's export for that cell.
  const cli = valueNorms(TEXT);
  const n = cli.tokens.length;
  const [i, j] = [Math.min(3, n - 1), 1];
  await clickCell('#grid-unmasked', i, j);
  const readout = await page.locator('#norm-readout').textContent();
  const shown = Number(readout.split('= ').pop());
  const want = cli.layers[LAYER][HEAD][i][j];
  assert.ok(Number.isFinite(shown) && Math.abs(shown - want) <= 1e-4 * Math.max(1, Math.abs(want)), `readout ${readout}, CLI ${want}`);
  assert.ok((await page.locator('#readout').textContent()).includes(`“${cli.tokens[i]}” → “${cli.tokens[j]}”`));

  // A cell of the what-if grid has no norm of its own.
  await clickCell('#grid-causal', i, j);
  assert.match(await page.locator('#norm-readout').textContent(), /^Colour: each row against its own largest/);

  // Before the softmax the switch changes nothing: the scores are drawn either way.
  await page.locator('button.stage[data-stage="scores"]').click();
  const scoresOn = await settled('#grid-unmasked');
  await page.locator('#vw-weights').click();
  assert.equal(await settled('#grid-unmasked'), scoresOn, 'the scores step is the same with the switch on and off');
  await page.locator('#grid-norms-caption').waitFor({ state: 'detached' });
});

test('MiniLM overview: the switch draws every head\'s norms, asked once per run', async () => {
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=overview&text=${encodeURIComponent(TEXT)}`);
  await page.locator('#overview[data-tile]').waitFor({ timeout: 300_000 });
  const weights = await settled('#overview');
  assert.equal(await page.locator('#overview').getAttribute('data-shows'), 'weights');
  const t0 = Date.now();
  await page.locator('#vw-norms').click();
  await page.locator('#overview[data-shows="norms"]').waitFor();
  console.log(`value-weighted switch on the overview (72 heads): ${Date.now() - t0} ms until drawn`);
  assert.notEqual(await settled('#overview'), weights);
  await page.locator('#overview-norms-caption').waitFor();

  // A new text: the norms follow the run.
  const before = await settled('#overview');
  await page.locator('textarea#text').fill('the cat sat on the mat');
  await changed('#overview', before);
  await page.locator('#overview[data-shows="norms"]').waitFor();
  await page.locator('#vw-weights').click();
  await page.locator('#overview[data-shows="weights"]').waitFor();
});

test('The teaching model: the switch says why there are no norms, and the grids keep their weights', async () => {
  await page.goto(`${baseUrl}?model=teaching&view=grid&text=${encodeURIComponent(TEXT)}`);
  await page.locator('#grid-causal[data-cell]').waitFor({ timeout: 60_000 });
  await page.locator('#vw-norms').click();
  await page.locator('#error', { hasText: 'teaching model' }).waitFor();
  assert.match(await page.locator('#view-grid .hint').textContent(), /attention weight/);
  assert.equal(await page.locator('#grid-norms-caption').count(), 0);
  // Back to MiniLM with the switch still on: the norms come and the message goes.
  await page.locator('#model').selectOption('minilm');
  await page.locator('#grid-norms-caption').waitFor({ timeout: 300_000 });
  assert.equal(await page.locator('#error').textContent(), '');
});
