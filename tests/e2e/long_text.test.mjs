// Long texts (issue #31): SmolLM2 on a paragraph of some 300 tokens, past the
// 256 up to which a trace keeps every head's weights. The worker keeps each
// layer's Q, K and V and each head's sums, and computes a head again when the
// page shows it: its weights must be the CLI's; the overview draws every
// head; typing at the end goes on from the cache; what needs every head's
// weights at once (the JSON of all heads) says so, and the page goes on.
// The overview's tiles are each drawn against their brightest cell, and the
// dot grids shade each cell by its dot's size.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shownAndCliCsv, start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));

const subjects = ['The old lighthouse keeper', 'A fluffy blue creature', 'Her younger brother', 'The committee', 'Nobody in the village'];
const verbs = ['watched', 'remembered', 'painted', 'argued about', 'carried'];
const objects = ['the verdant forest', 'a letter from Lisbon', 'the broken clock', 'seven red apples', 'the storm over the harbour'];
const TEXT = Array.from({ length: 21 }, (_, i) => `${subjects[i % 5]} ${verbs[Math.floor(i / 5) % 5]} ${objects[(i * 3 + 1) % 5]} on day ${i + 1}.`).join(' ');

let server, browser, baseUrl;

before(async () => {
  ({ server, browser, baseUrl } = await start(DIST, join(HERE, 'artifacts', 'long_text')));
});

after(async () => {
  await stop(server, browser);
});

const computed = (page) =>
  page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
const tokensRead = async (page) => Number((await page.locator('#status').textContent()).match(/^(\d+) tokens/)?.[1]);

test('SmolLM2 on 300 tokens: a head computed again is the CLI\'s, every head in the overview, typing goes on from the cache', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watch(page);
  // Every text the run's progress showed, as the page drew it.
  await page.addInitScript(() => {
    window.progressSeen = [];
    new MutationObserver(() => {
      const p = document.querySelector('#run-progress');
      if (p && p.textContent !== window.progressSeen.at(-1)) window.progressSeen.push(p.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${baseUrl}?model=smollm2&layer=5&head=3&text=${encodeURIComponent(TEXT)}`);
  await computed(page);
  const n = await tokensRead(page);
  assert.ok(n > 256 && n < 400, `${n} tokens`);
  // A long run shows how far it is, layer by layer, and the notice goes when the result comes.
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.length >= 2, `progress seen: ${JSON.stringify(seen)}`);
  for (const line of seen) assert.match(line, new RegExp(`^Computing ${n} tokens: layer ([1-9]|[12][0-9]|30) of 30 done$`));
  assert.equal(await page.locator('#run-progress').count(), 0);
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);

  // The head shown, exported as CSV, against the CLI's run of the same text.
  const { shown, cli } = await shownAndCliCsv(page, ROOT,
    ['attention', '--model', 'smollm2', '--models-dir', join(ROOT, 'www', 'models'), '--text', TEXT, '--layer', '5', '--head', '3']);
  assert.equal(shown.tokens.length, n);
  assert.deepEqual(shown.tokens, cli.tokens);
  assert.equal(shown.rows.length, n);
  let worst = 0;
  for (let i = 0; i < n; i++) {
    assert.equal(shown.rows[i].length, n);
    const sum = shown.rows[i].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `row ${i} sums to ${sum}`);
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(shown.rows[i][j] - cli.rows[i][j]));
  }
  assert.ok(worst < 1e-4, `layer 5 head 3 differs from the CLI by ${worst}`);
  assert.ok(shown.rows[n - 1][n - 1] !== undefined && shown.rows[0][1] === 0, 'causal: the first query sees only itself');

  // The JSON of every head would be 270 × n² numbers: refused, in words.
  await page.locator('#export-json').click();
  await page.locator('#error', { hasText: 'command line' }).waitFor();

  // Typing at the end: one token more, the rest from the cache.
  await page.locator('textarea#text').fill(`${TEXT} And`);
  await page.waitForFunction((n) => new RegExp(`^${n + 1} tokens`).test(document.querySelector('#status')?.textContent ?? ''), n, { timeout: 120_000 });
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''));
  assert.equal(await page.locator('#error').textContent(), '');

  // Every head in the overview, drawn from the sums: 30 × 9 tiles, each
  // with the colours of its pattern (a blank or single-colour canvas fails).
  await page.goto(`${baseUrl}?model=smollm2&view=overview&text=${encodeURIComponent(`${TEXT} And`)}`);
  await computed(page);
  await page.waitForFunction(() => document.querySelector('#overview')?.dataset.drawMs !== undefined);
  const colours = await page.locator('#overview').evaluate((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let k = 0; k < data.length; k += 4) seen.add((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
    return seen.size;
  });
  assert.ok(colours > 50, `the overview shows ${colours} colours`);
  // Each tile against its own brightest cell, and the caption says so.
  assert.equal(await page.locator('#overview').getAttribute('data-scale'), 'each tile');
  await page.locator('#overview-scale-caption').waitFor();
  await page.screenshot({ path: join(HERE, 'artifacts', 'long_text', 'overview.png') });

  // The dot grids: a dot would be a pixel or two, so each cell is shaded by
  // its dot's size (its opacity), and a caption says so. In the causal grid
  // the weights above the diagonal are exactly 0 (no ink at all); below it
  // they are small, but not 0.
  await page.goto(`${baseUrl}?model=smollm2&view=grid&text=${encodeURIComponent(`${TEXT} And`)}`);
  await computed(page);
  await page.locator('#grid-small-caption').waitFor();
  const quarters = await page.locator('#grid-causal').evaluate((c, n) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    const [cell, left, top] = ['cell', 'left', 'top'].map((k) => Number(c.dataset[k]));
    const mean = (rows, cols) => {
      const x0 = Math.ceil((left + cols[0] * cell) * dpr), x1 = Math.floor((left + cols[1] * cell) * dpr);
      const y0 = Math.ceil((top + rows[0] * cell) * dpr), y1 = Math.floor((top + rows[1] * cell) * dpr);
      const d = c.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0).data;
      let ink = 0;
      for (let k = 3; k < d.length; k += 4) ink += d[k];
      return { cell, ink: ink / (d.length / 4) };
    };
    return { topRight: mean([0, n / 4], [(3 * n) / 4, n]), bottomLeft: mean([(3 * n) / 4, n], [0, n / 4]) };
  }, n + 1);
  assert.ok(quarters.topRight.cell < 4, `cells of ${quarters.topRight.cell} px`);
  assert.equal(quarters.topRight.ink, 0, `the future has no ink: ${JSON.stringify(quarters)}`);
  assert.ok(quarters.bottomLeft.ink > 0.5, `the past has some: ${JSON.stringify(quarters)}`);
  await page.screenshot({ path: join(HERE, 'artifacts', 'long_text', 'dot-grids.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
