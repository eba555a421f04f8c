// The Image tab (src/web/views/image/): a vision trace (format 1.1) opened in
// the page as a visitor would, its picture cut into the model's patches and
// tinted by a query's weights, checked against the CLI's reading of the same
// file; a patch clicked becomes the query; a vision trace whose grid does not
// fit its tokens is refused with a sentence. Screenshots at a phone, a
// projector in presentation mode and a desktop go to artifacts/.
//
// Run: node --test --test-reporter=spec tests/e2e/vision.test.mjs (after `trunk build --release`)

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
// A tiny random ViT traced by attnscope.trace_image (scripts/reference/tracefile_vision.py):
// [CLS], then 4 × 4 patches.
const VIT = join(FIXTURES, 'tiny_vit.safetensors');

let server, browser, baseUrl, page, problems, scratch;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'attnscope-vision-'));
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

afterEach(async () => {
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

async function openPage(viewport, query = '') {
  page = await browser.newPage({ viewport });
  problems = watch(page, { origin: baseUrl });
  await page.goto(`${baseUrl}${query}`);
  await page.locator('#tokens .token').first().waitFor();
}

// The CLI's weights of one head, [query][key].
function cliHead(file, layer, head) {
  const json = JSON.parse(execFileSync(CLI, ['attention', '--trace', file, '--json', '-'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  return json.attentions[layer][head];
}

// The patch (row, column) a query weighs most, from the CLI's row.
function mostWeight(row, firstPatch, cols) {
  let best = firstPatch;
  for (let t = firstPatch; t < row.length; t++) if (row[t] > row[best]) best = t;
  return [Math.floor((best - firstPatch) / cols), (best - firstPatch) % cols];
}

const query = () => page.locator('#image-overlay').getAttribute('data-query');

test('a vision trace opens on the Image tab; the query weighs the patches as the CLI reads them; a click chooses a patch', async () => {
  await openPage({ width: 1280, height: 900 });
  assert.equal(await page.locator('#tab-image').isHidden(), true, 'no Image tab for text');
  await page.locator('#open-trace').setInputFiles(VIT);
  await page.locator('#image-overlay[data-query]').waitFor();
  assert.equal(await page.locator('#tab-image').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#image-overlay').getAttribute('data-rows'), '4');
  assert.deepEqual(await page.locator('.image-special').allTextContents(), ['[CLS]']);

  // Layer 2, head 1: the class token's strongest patch, as the CLI reads the file.
  await page.selectOption('#layer', '2');
  await page.selectOption('#head', '1');
  const a = cliHead(VIT, 2, 1);
  const [r, c] = mostWeight(a[0], 1, 4);
  await page.waitForFunction((want) => document.querySelector('#image-readout')?.textContent.startsWith(want),
    `Most weight: patch ${r},${c} (${a[0][1 + r * 4 + c].toFixed(4)})`);
  assert.match(await page.locator('#image-caption').textContent(), /^Layer 2 · head 1: where \[CLS\] looks/);
  // The lesson's notions on the picture: the query's q, the keys, and the score, scale and
  // weight of the key it weighs most (this trace holds queries and keys: 8 numbers each).
  const j = a[0].indexOf(Math.max(...a[0]));
  const keyName = j === 0 ? '\\[CLS\\]' : `patch ${Math.floor((j - 1) / 4)},${(j - 1) % 4}`;
  const steps = await page.locator('#image-steps').textContent();
  assert.match(steps, /Query: \[CLS\]: its vector q, 8 numbers/);
  assert.match(steps, /Keys: all 17 tokens, the 16 patches and 1 special/);
  assert.match(steps, new RegExp(`weighs most is ${keyName}: q·k = -?\\d+\\.\\d{3}, × 0\\.354 \\(1/√8\\) = -?\\d+\\.\\d{3}; the softmax over all 17 scores gives it ${a[0][j].toFixed(4)}`), steps);

  // A click in patch (3, 1): token 1 + 3·4 + 1 = 14, its own strongest patch read out.
  const box = (await page.locator('#image-overlay').getAttribute('data-picture')).split(',').map(Number);
  const canvas = await page.locator('#image-overlay').boundingBox();
  await page.mouse.click(canvas.x + box[0] + box[2] * 1.5 / 4, canvas.y + box[1] + box[3] * 3.5 / 4);
  await page.waitForFunction(() => document.querySelector('#image-overlay')?.getAttribute('data-query') === '14');
  const [r14, c14] = mostWeight(a[14], 1, 4);
  await page.waitForFunction((want) => document.querySelector('#image-readout')?.textContent.startsWith(want),
    `Most weight: patch ${r14},${c14}`);
  assert.match(await page.locator('#image-caption').textContent(), /where patch 3,1 looks/);
  // The chosen patch is the page's chosen token, in the token strip every view follows.
  assert.equal((await page.locator('#tokens .token[aria-pressed="true"]').textContent()).trim(), '3,1');
  await page.click('#tab-head');
  await page.locator('#heatmap').waitFor();
  await page.click('#tab-image');
  await page.locator('#image-overlay[data-query="14"]').waitFor();
  assert.equal(await query(), '14');

  // The picture's pixels: with no tint, the canvas shows the trace's image.
  await page.locator('#image-tint').evaluate((el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  const lit = await page.evaluate(() => {
    const c = document.querySelector('#image-overlay');
    const [x, y, w, h] = c.getAttribute('data-picture').split(',').map(Number);
    const s = c.width / c.getBoundingClientRect().width;
    // The sun: top right of the scene (tests/fixtures/tracefile/vision_roundtrip.json's picture).
    return [...c.getContext('2d').getImageData(Math.round((x + w * 0.7) * s), Math.round((y + h * 0.25) * s), 1, 1).data];
  });
  assert.ok(lit[0] > 200 && lit[1] > 180 && lit[2] < 120, `the sun's yellow, not ${lit}`);
  assert.ok(!(await page.locator('#view-image').textContent()).includes('NaN'));

  // Rollout through every layer instead of one head: computed by the worker from the file.
  await page.selectOption('#image-source', 'rollout');
  await page.waitForFunction(() => /^Rollout after all 3 layers, every head averaged: how much of each patch's input reaches patch 3,1/
    .test(document.querySelector('#image-caption')?.textContent ?? ''));
  assert.match(await page.locator('#image-readout').textContent(), /^Most weight: patch \d,\d \(0\.\d{4}\)/);
  await page.selectOption('#image-source', 'head');

  // Every head of the layer side by side (folded at first); a click on the third copy (112 px
  // wide, 10 apart, 4 or more across at this width) chooses head 3.
  await page.click('#image-heads-details > summary');
  await page.locator('#image-heads[data-heads="4"]').waitFor();
  assert.ok(Number(await page.locator('#image-heads').getAttribute('data-across')) >= 3);
  const heads = await page.locator('#image-heads').boundingBox();
  await page.mouse.click(heads.x + 2 * 122 + 50, heads.y + 50);
  await page.waitForFunction(() => document.querySelector('#head')?.value === '2');
  await page.waitForFunction(() => /^Layer 2 · head 2: where patch 3,1 looks/.test(document.querySelector('#image-caption')?.textContent ?? ''));
  await page.screenshot({ path: join(ARTIFACTS, 'vision-heads.png'), fullPage: true });
});

test('the Image tab at a phone, a projector in presentation mode and a desktop: the picture fits, nothing wider than the screen', async () => {
  for (const [name, viewport, q] of [
    ['phone', { width: 390, height: 844 }, ''],
    ['projector', { width: 1280, height: 720 }, '?present=1'],
    ['desktop', { width: 1920, height: 1080 }, ''],
  ]) {
    await openPage(viewport, q);
    await page.locator('#open-trace').setInputFiles(VIT);
    await page.locator('#image-overlay[data-query]').waitFor();
    const fits = await page.evaluate(() => {
      const c = document.querySelector('#image-overlay').getBoundingClientRect();
      return { right: c.right, bottom: c.bottom, width: c.width, page: document.documentElement.scrollWidth };
    });
    assert.ok(fits.page <= viewport.width, `${name}: the page is ${fits.page} px wide`);
    assert.ok(fits.right <= viewport.width + 1 && fits.width > 200, `${name}: ${JSON.stringify(fits)}`);
    if (name !== 'phone') assert.ok(fits.bottom <= viewport.height, `${name}: the picture ends at ${fits.bottom}`);
    if (name === 'projector') {
      // Every tab, the Image tab too, on one row at a projector.
      const tops = await page.$$eval('.tabs [role=tab]:not([hidden])', (tabs) => tabs.map((t) => t.offsetTop));
      assert.equal(new Set(tops).size, 1, `the tabs wrap: ${tops}`);
    }
    await page.screenshot({ path: join(ARTIFACTS, `vision-${name}.png`) });
    if (name !== 'desktop') await page.close();
  }
});

test('a vision trace whose grid needs more tokens than it has is refused with a sentence; the page keeps working', async () => {
  await openPage({ width: 1280, height: 900 });
  // The header's description with a 5 × 4 grid over 17 tokens.
  const bytes = readFileSync(VIT);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const d = JSON.parse(header.__metadata__.trace);
  d.patches.rows = 5;
  header.__metadata__.trace = JSON.stringify(d);
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(text)));
  const bad = join(scratch, 'bad-grid.safetensors');
  writeFileSync(bad, Buffer.concat([head, Buffer.from(text), bytes.subarray(8 + n)]));
  await page.locator('#open-trace').setInputFiles(bad);
  await page.waitForFunction(() =>
    /patch grid of 5 × 4 from token 1 on needs more than its 17 tokens/.test(document.querySelector('#trace-error')?.textContent ?? ''));
  assert.equal(await page.locator('#tab-image').isHidden(), true);
  // The teaching model still computes.
  await page.locator('#tokens .token').first().waitFor();
  assert.ok(existsSync(VIT));
});
