// End-to-end test of writing (issue 56): in Chromium, SmolLM2 writes 20
// greedy tokens after "The capital of France is" that equal the CLI's
// (`attnscope generate`, tests/fixtures/smollm2/write_cli.json), the heatmap
// grows by 20 rows, the timeline shows step 7 again (its distribution and the
// text of 5 + 6 tokens), and sampled settings kept in the URL write the
// CLI's sampled text again after a reload.
//
// Run: node --test --test-reporter=spec tests/e2e/write.test.mjs (after trunk build --release)
// WRITE_FIXTURE=path reads the CLI's output from elsewhere.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const FIXTURE = process.env.WRITE_FIXTURE ?? join(ROOT, 'tests', 'fixtures', 'smollm2', 'write_cli.json');

// What the CLI wrote for one entry of the fixture: its settings, the ids
// generated and their text (the whole text or only what was written after the
// prompt: both are accepted). All access to the fixture's fields is here.
function cli(entry) {
  const e = JSON.parse(readFileSync(FIXTURE, 'utf8'))[entry];
  return {
    prompt: e.prompt,
    tokens: e.tokens,
    ids: e.ids.map(Number),
    text: e.text,
    settings: { temperature: e.temperature, topK: e.top_k, topP: e.top_p, seed: e.seed },
  };
}

let server, browser, baseUrl;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

// The card's state as its data attributes say it.
const card = (page) => page.locator('#write-card').evaluate((c) => ({
  state: c.dataset.state,
  steps: Number(c.dataset.steps),
  ids: c.dataset.ids ? c.dataset.ids.split(',').map(Number) : [],
  written: c.dataset.text ?? '',
  full: document.querySelector('#text').value,
}));

// Rows the heatmap draws (its canvas says where the cells start and how big they are).
const heatmapRows = (page) => page.locator('#heatmap').evaluate((c) =>
  Math.round((c.getBoundingClientRect().height - Number(c.dataset.top) - 4) / Number(c.dataset.cell)));

const tokenCount = (page) => page.locator('#tokens li').count();

// The text the CLI wrote, as the page has it: whole, or after the prompt.
function sameText(got, want, prompt) {
  assert.ok(got.full === want || got.written === want || got.full === prompt + want,
    `page wrote ${JSON.stringify(got.full)}, the CLI ${JSON.stringify(want)}`);
}

async function waitReady(page, text) {
  await page.locator('#write-go').waitFor({ timeout: 300_000 });
  await page.waitForFunction((t) => document.querySelector('#text').value === t
    && document.querySelector('#status').textContent.includes('computed in'), text, { timeout: 300_000 });
}

test('SmolLM2 writes the CLI\'s 20 greedy tokens; the heatmap grows by 20 rows; the timeline shows step 7', async () => {
  const want = cli('greedy');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watch(page);
  try {
    await page.goto(`${baseUrl}?model=smollm2&text=${encodeURIComponent(want.prompt)}`);
    await waitReady(page, want.prompt);
    const prompt = await tokenCount(page);
    await page.waitForFunction((n) => {
      const c = document.querySelector('#heatmap');
      return c && Math.round((c.getBoundingClientRect().height - Number(c.dataset.top) - 4) / Number(c.dataset.cell)) === n;
    }, prompt, { timeout: 60_000 });
    const rows0 = await heatmapRows(page);

    const t0 = Date.now();
    await page.locator('#write-go').click();
    await page.waitForFunction(() => document.querySelector('#write-card').dataset.state === 'done', null, { timeout: 300_000 });
    const ms = Date.now() - t0;
    const got = await card(page);
    console.log(`SmolLM2 wrote ${got.steps} tokens in ${ms} ms (${(1000 * got.steps / ms).toFixed(1)} tokens/s, under the test's load)`);
    // The CLI stops early at an end-of-text token, as the page does.
    assert.equal(got.steps, want.ids.length);
    assert.deepEqual(got.ids, want.ids);
    sameText(got, want.text, want.prompt);
    assert.equal(await page.locator('#write-bars li.chosen').count(), 1, 'the last step\'s chosen token is marked');

    // Every view follows the text as it grew: the heatmap has a row per token written.
    await page.waitForFunction((n) => {
      const c = document.querySelector('#heatmap');
      return Math.round((c.getBoundingClientRect().height - Number(c.dataset.top) - 4) / Number(c.dataset.cell)) === n;
    }, rows0 + want.ids.length, { timeout: 60_000 });
    assert.equal(await tokenCount(page), prompt + want.ids.length);

    // Step 7 again: the text when token 7 was chosen, its distribution and that token marked.
    const timeline = page.locator('#write-timeline');
    assert.equal(await timeline.getAttribute('max'), String(want.ids.length + 1));
    await timeline.evaluate((r) => { r.value = '7'; r.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.waitForFunction((n) => document.querySelectorAll('#tokens li').length === n
      && document.querySelector('#write-bars').dataset.step === '7', prompt + 6, { timeout: 60_000 });
    assert.equal(Number(await page.locator('#write-bars').getAttribute('data-chosen')), want.ids[6]);
    await page.waitForFunction((n) => {
      const c = document.querySelector('#heatmap');
      return Math.round((c.getBoundingClientRect().height - Number(c.dataset.top) - 4) / Number(c.dataset.cell)) === n;
    }, prompt + 6, { timeout: 60_000 });
    assert.match(await page.locator('.write-timeline').textContent(), new RegExp(`step 7 of ${want.ids.length}`));
    assert.match(await page.locator('#write-cache').textContent(), new RegExp(`Token ${prompt + 6} computed`));

    // The far end is now again.
    await timeline.evaluate((r) => { r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.waitForFunction((n) => document.querySelectorAll('#tokens li').length === n, prompt + want.ids.length, { timeout: 60_000 });
    assert.equal((await card(page)).state, 'done');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('sampled settings kept in the URL write the CLI\'s sampled text again after a reload', async () => {
  const want = cli('sampled');
  const s = want.settings;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watch(page);
  try {
    await page.goto(`${baseUrl}?model=smollm2&ntemp=${s.temperature}&text=${encodeURIComponent(want.prompt)}`);
    await waitReady(page, want.prompt);
    await page.locator('#write-mode').selectOption('sample');
    for (const [id, v] of [['#write-top-k', s.topK], ['#write-top-p', s.topP], ['#write-seed', s.seed], ['#write-count', want.tokens]]) {
      await page.locator(id).fill(String(v));
      await page.locator(id).dispatchEvent('change');
    }
    const topp = Number(s.topP).toFixed(3);
    await page.waitForFunction((q) => q.every((x) => location.search.includes(x)),
      ['sample=1', `topk=${s.topK}`, `topp=${topp}`, `seed=${s.seed}`, `n=${want.tokens}`], { timeout: 10_000 });

    await page.reload();
    await waitReady(page, want.prompt);
    assert.equal(await page.locator('#write-mode').inputValue(), 'sample');
    assert.equal(await page.locator('#write-seed').inputValue(), String(s.seed));
    await page.locator('#write-go').click();
    await page.waitForFunction(() => document.querySelector('#write-card').dataset.state === 'done', null, { timeout: 300_000 });
    const got = await card(page);
    assert.deepEqual(got.ids, want.ids);
    sameText(got, want.text, want.prompt);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
