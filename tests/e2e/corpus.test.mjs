// End-to-end test of the Q·K space over the built-in corpus (issue #59): the
// worker runs MiniLM over the corpus with progress, the chosen head's corpus
// points are drawn with the page's sentence on top, another head redraws at
// once (the corpus is computed once per model), every head's small plot
// chooses its head, and a run cancelled halfway
// leaves no error and starts again when asked.
//
// Run: node --test --test-reporter=spec tests/e2e/corpus.test.mjs (after trunk build --release)

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');

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
  await page.screenshot({ path: join(ARTIFACTS, `corpus-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

const progress = () => page.locator('#space-corpus-progress').evaluate((p) => [p.value, p.max]).catch(() => null);

test('MiniLM: the corpus runs with progress, is drawn with the sentence on top, and another head is immediate', async () => {
  const text = 'a fluffy blue creature roamed the verdant forest';
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=space&layer=2&head=3&text=${encodeURIComponent(text)}`);
  await page.locator('#space-plot g.space-query').first().waitFor({ timeout: 300_000 });
  const n = await page.locator('#space-plot g.space-query').count();

  // Cancelled halfway: the progress goes, nothing is drawn, no error.
  await page.locator('#space-corpus').check();
  await page.waitForFunction(() => {
    const p = document.querySelector('#space-corpus-progress');
    return p && p.value > 0;
  }, null, { timeout: 60_000 });
  await page.locator('#space-corpus').uncheck();
  await page.locator('#space-corpus-running').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#space-corpus-plot').count(), 0);
  assert.equal(await page.locator('#analysis-error').innerText(), '');
  await page.locator('#space-plot g.space-query').first().waitFor();

  // Again, to the end: the progress counts sentences and only grows.
  const started = Date.now();
  await page.locator('#space-corpus').check();
  const seen = [];
  while (await page.locator('#space-corpus-plot').count() === 0) {
    const p = await progress();
    if (p) seen.push(p);
    await page.waitForTimeout(100);
    assert.ok(Date.now() - started < 120_000, 'the corpus within two minutes');
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`corpus of MiniLM in the worker: ${seconds.toFixed(1)} s, ${seen.length} progress readings`);
  assert.ok(seen.length > 2, 'progress was shown');
  assert.ok(seen.every((p, i) => i === 0 || p[0] >= seen[i - 1][0]), `progress only grows: ${JSON.stringify(seen)}`);
  assert.ok(seen.some(([, max]) => max > 250), 'counted in sentences');

  const points = async (cls) => Number(await page.locator(`#space-corpus-plot path.${cls}`).getAttribute('data-points'));
  const queries = await points('space-corpus-queries');
  assert.ok(queries > 2000, `${queries} corpus queries`);
  assert.equal(await points('space-corpus-keys'), queries, 'as many keys (MiniLM: one key per query)');
  assert.equal(await page.locator('#space-corpus-plot g.space-query').count(), n, 'the sentence on top');
  assert.equal(await page.locator('#space-corpus-plot g.space-key').count(), n);
  const caption = await page.locator('#space-corpus-caption').innerText();
  assert.match(caption, /Layer 2, head 3 over the corpus: its queries green, its keys pink \(\d+ points of \d{3} sentences/);
  assert.doesNotMatch(await page.locator('#view-space').innerText(), /NaN/);
  const d = await page.locator('#space-corpus-plot path.space-corpus-queries').getAttribute('d');
  assert.doesNotMatch(d, /NaN|Infinity/);

  // Another head: answered from the worker's corpus and redrawn at once.
  const times = [];
  for (const head of ['7', '0', '11']) {
    const t0 = Date.now();
    await page.locator('select#head').selectOption(head);
    await page.locator('#space-corpus-caption', { hasText: `head ${head} over the corpus` }).waitFor({ timeout: 10_000 });
    times.push(Date.now() - t0);
  }
  console.log(`switching heads over the corpus: ${times.join(', ')} ms`);
  assert.ok(Math.min(...times) < 1000, `a head redrawn quickly: ${times}`);
  assert.equal(await page.locator('#space-corpus-running').count(), 0, 'not computed again');

  // Every head at once: 72 small plots of the pooled corpus; a click chooses the head everywhere.
  await page.locator('#space-grid').check();
  await page.locator('#space-grid-tiles button.space-tile').nth(71).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('#space-grid-tiles button.space-tile').count(), 72);
  await page.locator('#space-grid-tiles button.space-tile[data-layer="4"][data-head="5"]').click();
  await page.locator('#space-corpus-caption', { hasText: 'Layer 4, head 5 over the corpus' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('select#layer').inputValue(), '4');
  assert.equal(await page.locator('select#head').inputValue(), '5');
  assert.equal(await page.locator('#space-grid-tiles button[aria-pressed="true"]').getAttribute('data-head'), '5');
  assert.doesNotMatch(await page.locator('#space-grid-tiles').innerHTML(), /NaN|Infinity/);

  // A new sentence: placed on the same corpus, not run again.
  await page.locator('textarea#text').fill('the cat sat on the mat');
  await page.waitForFunction(() => document.querySelectorAll('#space-corpus-plot g.space-query').length === 8, null, { timeout: 60_000 });
  assert.equal(await page.locator('#space-corpus-running').count(), 0, 'the corpus is kept per model');
});

test('MiniLM: t-SNE places the sentence\'s queries and keys without axes, and the principal axes come back', async () => {
  const text = 'The animal didn\'t cross the street because it was too tired';
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=space&layer=1&head=2&text=${encodeURIComponent(text)}`);
  await page.locator('#space-plot g.space-query').first().waitFor({ timeout: 300_000 });
  const n = await page.locator('#space-plot g.space-query').count();
  const caption = await page.locator('#space-caption').innerText();
  await page.locator('#space-tsne').check();
  await page.locator('#space-caption', { hasText: 'placed by t-SNE' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('#space-plot g.space-query').count(), n);
  assert.equal(await page.locator('#space-plot .space-axis-label').count(), 0, 'no axes');
  assert.doesNotMatch(await page.locator('#view-space').innerText(), /NaN/);
  await page.locator('#space-plot g.space-query[data-position="3"] circle').click();
  await page.locator('#space-plot g.space-query[data-position="3"][aria-current="true"]').waitFor();
  await page.locator('#space-tsne').uncheck();
  await page.locator('#space-caption', { hasText: caption.slice(0, 40) }).waitFor();
});
