// End-to-end test of activation patching with SmolLM2 (issue #60): the
// indirect-object preset's residual and heads maps computed in Chromium equal
// the CLI's (`attnscope analyze --what patch-residual|patch-heads`) to the
// shown decimals; Cancel stops a map and leaves the page working; a cell opens
// its patched run in the heatmap beside the clean run; a pair of prompts of
// different lengths is a clear message, and padding makes it fit; the form
// follows the visitor's own sentence.
//
// Run: node --test --test-reporter=spec tests/e2e/patching_smollm2.test.mjs (after trunk build --release
// and `cargo build --profile test --bin attnscope`)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const CLEAN = 'When Mary and John went to the store, John gave a drink to';
const CORRUPT = 'When Mary and John went to the store, Mary gave a drink to';

let server, browser, baseUrl;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

/** The CLI's map of `what` for the preset. */
function cli(what) {
  const out = execFileSync(join(ROOT, 'target', 'debug', 'attnscope'), [
    'analyze', '--model', 'smollm2', '--what', what, '--text', CLEAN, '--corrupt', CORRUPT,
    '--right', ' Mary', '--wrong', ' John', '--json', '-',
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
  return JSON.parse(out).result.maps[0].effect;
}

/** The effects the page drew in map `k` (rows of numbers). */
async function shown(page, k) {
  const data = await page.locator(`#patch-map-${k}`).getAttribute('data-effect');
  return data.split(';').map((r) => r.split(',').map(Number));
}

function same(what, page, want) {
  assert.equal(page.length, want.length, `${what}: layers`);
  for (let l = 0; l < want.length; l++) {
    assert.equal(page[l].length, want[l].length, `${what}: columns of layer ${l}`);
    for (let c = 0; c < want[l].length; c++) {
      // The readout shows 4 decimals: equal to them.
      assert.ok(Math.abs(page[l][c] - want[l][c]) < 1e-4, `${what} ${l}.${c}: page ${page[l][c]}, CLI ${want[l][c]}`);
    }
  }
}

test('SmolLM2 patching: the indirect-object maps equal the CLI\'s, Cancel stops, bad pairs are told', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watch(page);
  try {
    await page.goto(`${baseUrl}?model=smollm2&view=beyond&text=${encodeURIComponent('The capital of France is')}`);
    await page.locator('#lens-table').waitFor({ timeout: 300_000 });
    await page.locator('#patch-preset').selectOption({ value: 'Indirect object' });
    assert.equal(await page.locator('#patch-corrupt').inputValue(), CORRUPT);
    await page.locator('#patch-note').waitFor();
    // The preset's text is run: the logit lens reads its 14th token.
    await page.waitForFunction(() => document.body.textContent.includes('(position 13)'), null, { timeout: 120_000 });

    // Started, then cancelled: the message stays, the page keeps working.
    await page.locator('#patch-what').selectOption({ value: 'heads' });
    await page.locator('#patch-run').click();
    await page.locator('#patch-status', { hasText: /step \d+ of 30/ }).waitFor({ timeout: 120_000 });
    await page.locator('#patch-cancel').click();
    await page.locator('#patch-status', { hasText: 'Cancelled.' }).waitFor();
    await page.waitForTimeout(2000);
    assert.equal(await page.locator('#patch-status').textContent(), 'Cancelled.');
    assert.equal(await page.locator('#patch-map-0').count(), 0);

    // The residual map, timed, then the heads map: the CLI's numbers.
    await page.locator('#patch-what').selectOption({ value: 'residual' });
    let t0 = Date.now();
    await page.locator('#patch-run').click();
    await page.locator('#patch-status', { hasText: 'Done.' }).waitFor({ timeout: 600_000 });
    console.log(`patching, SmolLM2 residual map 30 × 14: ${Date.now() - t0} ms in Chromium (under the test's load)`);
    assert.match(await page.locator('#patch-status').textContent(), /differ at position 9 “ John”/);
    same('residual', await shown(page, 0), cli('patch-residual'));
    await page.locator('#patch-map-0 tbody tr:nth-child(1) td:nth-of-type(10)').click();
    assert.match(await page.locator("#patch-map-0-readout").textContent(), /Layer 0, position 9 “ John”: effect 1\.0000/);

    await page.locator('#patch-what').selectOption({ value: 'heads' });
    t0 = Date.now();
    await page.locator('#patch-run').click();
    await page.locator('#patch-status', { hasText: 'Done.' }).waitFor({ timeout: 600_000 });
    console.log(`patching, SmolLM2 heads map 30 × 9: ${Date.now() - t0} ms in Chromium (under the test's load)`);
    same('heads', await shown(page, 0), cli('patch-heads'));

    // A cell opens its patched run in the heatmap, beside the clean run: the run's effect is the
    // cell's, and the head shown is the cell's.
    await page.locator('#patch-map-0 tbody tr:nth-child(10) td:nth-of-type(7)').click();
    const cell = (await page.locator('#patch-map-0-readout').textContent()).match(/Layer 9, head 6: effect (-?[\d.]+(?:e-?\d+)?)/);
    assert.ok(cell, 'the readout names the cell');
    await page.locator('#patch-map-0-open').click();
    const figure = page.locator('figure.compare:not([hidden])');
    await figure.waitFor({ timeout: 120_000 });
    await page.locator('figure.compare figcaption', { hasText: 'layer 9 head 6' }).waitFor({ timeout: 60_000 });
    const caption = await page.locator('figure.compare figcaption').textContent();
    assert.match(caption, /This map is the patched run: the heads' outputs of layer 9 at head 6/);
    assert.ok(caption.includes(`effect ${cell[1]} `), `${caption} (the map said ${cell[1]})`);
    assert.ok(await page.locator('canvas#heatmap').isVisible() && await page.locator('canvas#compare-heatmap').isVisible());
    await page.locator('#compare-close').click();
    await page.locator('figure.compare[hidden]').waitFor({ state: 'attached' });
    await page.click('#tab-beyond');
    await page.locator('#patch-map-0').waitFor();

    // A corrupted prompt of another length: said, and nothing stuck.
    await page.locator('#patch-corrupt').fill('When Mary went to the store');
    await page.locator('#patch-run').click();
    await page.locator('#analysis-error', { hasText: 'same number of tokens' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#patch-run').isEnabled(), true);
    // Offered, padding makes them fit where the words differ.
    await page.locator('#patch-what').selectOption({ value: 'heads-last' });
    await page.locator('#patch-fit').selectOption({ value: 'pad' });
    await page.locator('#patch-run').click();
    await page.locator('#patch-status', { hasText: 'Done.' }).waitFor({ timeout: 600_000 });
    assert.match(await page.locator('#patch-status').textContent(), /filler tokens? " " put into the corrupted prompt/);

    // The visitor's own sentence: the form follows it (the corrupted prompt to change a word of,
    // the two likeliest next tokens as answers) until they type in it.
    await page.locator('#patch-preset').selectOption({ value: 'Factual recall' });
    await page.locator('#text').fill('The teacher asked the class a question about');
    await page.waitForFunction(() => document.querySelector('#patch-corrupt').value === 'The teacher asked the class a question about', null, { timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('#patch-right').value !== ' Paris', null, { timeout: 120_000 });
    assert.notEqual(await page.locator('#patch-right').inputValue(), await page.locator('#patch-wrong').inputValue());
  } finally {
    await page.screenshot({ path: join(ARTIFACTS, 'patching-smollm2.png'), fullPage: true });
    await page.close();
  }
  assert.deepEqual(problems, [], 'the page logged errors');
});
