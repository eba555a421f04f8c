// End-to-end test of SmolLM2's importance map (issue #28): progress that
// advances, Cancel that stops it and leaves the page working, then one full
// run whose 30 × 9 cells are all coloured and carry a finite number, one of
// them the same as that head's knockout run alone from the panel.
//
// Run: node --test --test-reporter=spec tests/e2e/importance_smollm2.test.mjs (after trunk build --release)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const PROMPT = 'The capital of France is';

let server, browser, baseUrl;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

// The number at the end of a head button's title ("L3 · H4: change 0.0123"), or null before the map.
const change = (title) => (title.includes('change ') ? Number(title.split('change ').pop()) : null);

test('SmolLM2 importance map: progress advances, Cancel stops it, then 270 coloured cells, one equal to its head\'s knockout', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watch(page);
  try {
    await page.goto(`${baseUrl}?model=smollm2&view=beyond&text=${encodeURIComponent(PROMPT)}`);
    await page.locator('#lens-table').waitFor({ timeout: 300_000 });
    const cells = page.locator('#knockout-grid button.kh');
    assert.equal(await cells.count(), 30 * 9);
    const progress = async () => Number(await page.locator('#importance-progress').getAttribute('value'));

    // Started: the status counts heads and the bar moves on.
    await page.locator('#importance-run').click();
    await page.locator('#importance-status', { hasText: /Knocking out head [1-9]\d* of 270/ }).waitFor({ timeout: 120_000 });
    const first = await progress();
    await page.waitForFunction((p) => Number(document.querySelector('#importance-progress').value) > p, first, { timeout: 120_000 });
    const moved = await progress();
    assert.ok(moved > first && moved < 1, `progress ${first} → ${moved}`);

    // Cancelled: the message says so and stays; nothing is coloured later.
    await page.locator('#importance-cancel').click();
    await page.locator('#importance-status', { hasText: 'Cancelled.' }).waitFor();
    assert.equal(await page.locator('#importance-run').isEnabled(), true);
    assert.equal(await page.locator('#importance-cancel').isEnabled(), false);
    await page.waitForTimeout(3000);
    assert.equal(await page.locator('#importance-status').textContent(), 'Cancelled.');
    assert.equal(await progress(), 0);
    assert.equal(await page.locator('#knockout-grid button.kh[style*="background"]').count(), 0, 'no cell coloured after Cancel');

    // The page keeps working: a knockout run from the panel answers.
    await page.locator('#kh-0-0').click();
    await page.locator('#knockout-run').click();
    await page.locator('#knockout-top').waitFor({ timeout: 120_000 });
    await page.locator('#knockout-clear').click();
    assert.equal(await page.locator('#knockout-result').count(), 0, 'Clear empties the readout');

    // One full run.
    const t0 = Date.now();
    await page.locator('#importance-run').click();
    await page.locator('#importance-status', { hasText: 'Done: 270 heads' }).waitFor({ timeout: 600_000 });
    console.log(`importance map, SmolLM2 270 heads: ${Date.now() - t0} ms (under the test's load)`);
    assert.match(await page.locator('#importance-status').textContent(), /drop in the probability of the top next token \(".*Paris/);
    assert.equal(await page.locator('#knockout-grid button.kh[style*="background"]').count(), 270, 'every cell coloured');
    const titles = await cells.evaluateAll((bs) => bs.map((b) => [b.id, b.title]));
    const scores = titles.map(([id, t]) => [id, change(t)]);
    for (const [id, v] of scores) assert.ok(v !== null && Number.isFinite(v), `${id}: ${v}`);
    assert.ok(scores.some(([, v]) => v !== 0), 'some head changes the top token\'s probability');

    // The head that mattered most, knocked out alone from the panel: the same number.
    const [top, score] = scores.reduce((best, s) => (Math.abs(s[1]) > Math.abs(best[1]) ? s : best));
    await page.locator(`#${top}`).click();
    await page.locator('#knockout-run').click();
    await page.locator('#knockout-change').waitFor({ timeout: 120_000 });
    assert.match(await page.locator('#knockout-result').textContent(), new RegExp(`Heads ${top.slice(3).replace('-', '\\.')} zeroed`));
    const alone = Number((await page.locator('#knockout-change').textContent()).split(': ').pop());
    assert.ok(Math.abs(alone - score) <= 2e-4, `${top}: map ${score}, knockout alone ${alone}`);
  } finally {
    await page.screenshot({ path: join(ARTIFACTS, 'importance-smollm2.png'), fullPage: true });
    await page.close();
  }
  assert.deepEqual(problems, [], 'the page logged errors');
});
