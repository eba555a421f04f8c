// Times "Beyond weights" in headless Chromium on the built page (dist/):
// the importance map (MiniLM 72 heads, SmolLM2 270 heads, 16 tokens), the
// value-weighted switch, the logit lens for one position across 30
// layers, the Q·K space of a newly chosen SmolLM2 head on a 40-token text, and
// similar heads (SmolLM2's 270 heads compared and mapped) on the same text. A report, not a test: it prints a table and writes
// tests/e2e/artifacts/bench_analysis.json.
//
// Run: node scripts/bench_analysis.mjs   (after trunk build --release; uses tests/e2e/node_modules)

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const RUNS = Number(process.env.RUNS ?? 3);
// 16 tokens for both models (MiniLM adds [CLS] and [SEP]).
const MINILM_TEXT = 'the quick brown fox jumps over the lazy dog while the cat sleeps';
const SMOLLM2_TEXT = 'The quick brown fox jumps over the lazy dog while the cat sleeps on the';
const SPACE_TEXT = 'The quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat, and the children play in the garden behind the old house by the river.';


async function timed(page, act, done) {
  const t0 = await page.evaluate(() => performance.now());
  await act();
  await done();
  return (await page.evaluate(() => performance.now())) - t0;
}

async function importance(page, heads) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    times.push(await timed(page, () => page.locator('#importance-run').click(),
      () => page.locator('#importance-status', { hasText: `Done: ${heads} heads` }).waitFor({ timeout: 120_000 })));
  }
  return median(times);
}

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const rows = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}?model=minilm&view=beyond&text=${encodeURIComponent(MINILM_TEXT)}`);
  await page.locator('#rollout-map[data-row-sums]').waitFor({ timeout: 300_000 });
  const n = (await page.locator('#rollout-map').getAttribute('data-row-sums')).split(',').length;
  rows.push({ what: `importance map, MiniLM, 72 heads, ${n} tokens`, ms: await importance(page, 72), target_ms: 1000 });
  const switches = [];
  for (let r = 0; r < RUNS; r++) {
    // Another head each time, shown as weights first, so that the switch asks the worker.
    await page.locator('#vw-weights').click();
    await page.locator('select#head').selectOption(String(r + 1));
    await page.waitForTimeout(300);
    const before = await page.locator('#vw-map').evaluate((c) => c.toDataURL());
    switches.push(await timed(page, () => page.locator('#vw-norms').click(),
      () => page.waitForFunction((b) => document.querySelector('#vw-map').toDataURL() !== b, before)));
  }
  rows.push({ what: 'value-weighted switch, MiniLM (ask the worker, redraw)', ms: median(switches), target_ms: 50 });
  // The same switch timed inside the page, without Playwright's click and
  // polling round trips: from the click to the map's redraw (its row sums change).
  const inPage = [];
  for (let r = 0; r < RUNS; r++) {
    await page.locator('#vw-weights').click();
    await page.locator('select#head').selectOption(String(r + 4));
    await page.waitForTimeout(300);
    inPage.push(await page.evaluate(() => new Promise((done) => {
      const map = document.querySelector('#vw-map');
      const t0 = performance.now();
      setTimeout(() => done(NaN), 20_000);
      const before = map.getAttribute('data-row-sums');
      new MutationObserver((_, o) => {
        if (map.getAttribute('data-row-sums') === before) return;
        o.disconnect();
        done(performance.now() - t0);
      })
        .observe(map, { attributes: true, attributeFilter: ['data-row-sums'] });
      document.querySelector('#vw-norms').click();
    })));
  }
  rows.push({ what: 'value-weighted switch, MiniLM, timed in the page', ms: median(inPage), target_ms: 50 });

  await page.goto(`${base}?model=smollm2&view=beyond&text=${encodeURIComponent(SMOLLM2_TEXT)}`);
  await page.locator('#lens-table').waitFor({ timeout: 300_000 });
  const tokens = await page.locator('#tokens .token').count();
  const lens = [];
  for (let r = 0; r < RUNS; r++) {
    const position = r % 2 === 0 ? 3 : 5;
    lens.push(await timed(page, () => page.locator('#tokens .token').nth(position).click(),
      () => page.locator('#logit-lens .note', { hasText: `(position ${position})` }).waitFor({ timeout: 60_000 })));
  }
  rows.push({ what: `logit lens, SmolLM2, one position, 30 layers, ${tokens} tokens`, ms: median(lens), target_ms: 100 });
  // The same lens timed inside the page, without Playwright's click and
  // polling round trips: from a token's click to the lens's note naming it.
  const lensInPage = [];
  for (let r = 0; r < RUNS; r++) {
    const position = r % 2 === 0 ? 3 : 5;
    await page.waitForTimeout(300);
    lensInPage.push(await page.evaluate((position) => new Promise((done) => {
      const t0 = performance.now();
      setTimeout(() => done(NaN), 20_000);
      const shown = () => document.querySelector('#logit-lens .note')?.textContent.includes(`(position ${position})`);
      const wait = () => (shown() ? done(performance.now() - t0) : requestAnimationFrame(wait));
      document.querySelectorAll('#tokens .token')[position].click();
      wait();
    }), position));
  }
  rows.push({ what: `logit lens, SmolLM2, one position, 30 layers, ${tokens} tokens, timed in the page`, ms: median(lensInPage), target_ms: 100 });
  rows.push({ what: `importance map, SmolLM2, 270 heads, ${tokens} tokens`, ms: await importance(page, 270), target_ms: 10000 });

  // The Q·K space: from choosing a head in the panel to its points drawn (the
  // worker projects the head's queries and keys, the page draws the SVG), timed in the page.
  await page.goto(`${base}?model=smollm2&view=space&layer=5&head=0&text=${encodeURIComponent(SPACE_TEXT)}`);
  await page.locator('#space-caption', { hasText: 'head 0' }).waitFor({ timeout: 300_000 });
  const spaceTokens = await page.locator('#space-plot g.space-query').count();
  const space = [];
  for (let r = 0; r < RUNS; r++) {
    const head = 1 + (r % 8);
    await page.waitForTimeout(300);
    space.push(await page.evaluate((head) => new Promise((done) => {
      const t0 = performance.now();
      setTimeout(() => done(NaN), 20_000);
      const shown = () => document.querySelector('#space-caption')?.textContent.includes(`head ${head} `)
        && document.querySelectorAll('#space-plot g.space-query').length > 0;
      const wait = () => (shown() ? done(performance.now() - t0) : requestAnimationFrame(wait));
      const select = document.querySelector('select#head');
      select.value = String(head);
      select.dispatchEvent(new Event('change', { bubbles: true }));
      wait();
    }), head));
  }
  rows.push({ what: `Q·K space, SmolLM2, a head chosen, ${spaceTokens} tokens, timed in the page`, ms: median(space), target_ms: 50 });

  // Similar heads: from opening the catalog to all 270 heads on the map (the
  // worker compares 36,315 pairs a slice at a time; the page draws the SVG).
  const similar = [];
  for (let r = 0; r < RUNS; r++) {
    // A new run each time (the catalog keeps the map of a run it has compared), made away from it.
    await page.locator('#tab-space').click();
    await page.locator('textarea#text').fill(`${SPACE_TEXT}${' again'.repeat(r + 1)}`);
    await page.waitForTimeout(3000);
    similar.push(await timed(page, () => page.locator('#tab-catalog').click(),
      () => page.locator('#similar-map g.similar-head').nth(269).waitFor({ timeout: 120_000 })));
  }
  rows.push({ what: `similar heads, SmolLM2, 270 heads, ${spaceTokens + 1}–${spaceTokens + RUNS} tokens`, ms: median(similar), target_ms: null });
} finally {
  await browser.close();
  server.close();
}
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`Beyond weights in headless Chromium (${cpu}), median of ${RUNS}:`);
for (const r of rows) console.log(`  ${r.what.padEnd(62)} ${r.ms.toFixed(0).padStart(7)} ms  ${r.target_ms ? `(target ≤ ${r.target_ms} ms)` : '(no target)'}`);
mkdirSync(join(ROOT, 'tests', 'e2e', 'artifacts'), { recursive: true });
writeFileSync(join(ROOT, 'tests', 'e2e', 'artifacts', 'bench_analysis.json'), JSON.stringify({ cpu, runs: RUNS, rows }, null, 2));
