// End-to-end test of similar heads (issue #59): every head of MiniLM and
// SmolLM2 compared in the real worker, placed on the catalog's map where the
// CLI's `attnscope analyze --what similar-heads` places it, with the CLI's
// groups and distances; a dot selects its head in every view; the comparison
// can be stopped and started again; a text too long says so.
//
// Run: node --test --test-reporter=spec tests/e2e/similar.test.mjs (after trunk build --release)

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
  await page.screenshot({ path: join(ARTIFACTS, `similar-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

function similar(model, text, clusters) {
  const args = ['analyze', '--model', model, '--what', 'similar-heads', '--models-dir', join(ROOT, 'www', 'models'),
    '--text', text, '--clusters', String(clusters)];
  const out = execFileSync(join(ROOT, 'target', 'debug', 'attnscope'), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  return JSON.parse(out).result;
}

async function open(model, text) {
  await page.goto(`${baseUrl}?model=${model}&exact=1&view=catalog&text=${encodeURIComponent(text)}`);
}

// The heads drawn: layer, head, group and (x, y), by layer and head (the
// selected head and its neighbours are drawn last).
async function drawn() {
  const heads = await page.locator('#similar-map g.similar-head').evaluateAll((gs) => gs.map((g) => ({
    lh: [Number(g.dataset.layer), Number(g.dataset.head)],
    group: Number(g.dataset.group),
    xy: g.dataset.xy.split(',').map(Number),
  })));
  return heads.sort((a, b) => a.lh[0] - b.lh[0] || a.lh[1] - b.lh[1]);
}

function sameAsCli(got, want, what) {
  assert.equal(got.length, want.heads.length, `${what}: heads on the map`);
  const spread = Math.max(...want.map.flat().map(Math.abs));
  got.forEach((g, i) => {
    assert.deepEqual(g.lh, want.heads[i], `${what}: head ${i}`);
    assert.equal(g.group, want.clusters[i], `${what}: group of head ${i}`);
    for (const a of [0, 1]) {
      assert.ok(Math.abs(g.xy[a] - want.map[i][a]) <= 1e-4 * spread, `${what}: head ${i} axis ${a}: ${g.xy[a]} against ${want.map[i][a]}`);
    }
  });
}

test('MiniLM: every head where the CLI places it, and a dot selects its head in every view', async () => {
  const text = 'the animal did not cross the street because it was too tired';
  await open('minilm', text);
  await page.locator('#similar-map g.similar-head').nth(71).waitFor({ timeout: 300_000 });
  const want = similar('minilm', text, 6);
  sameAsCli(await drawn(), want, 'minilm');

  // A dot opens its head: the pickers, the link and the Q·K space follow. (Dispatched: on a
  // map of 72 heads another dot may lie on top of this one.)
  await page.locator('#similar-map g.similar-head[data-layer="3"][data-head="7"] circle').dispatchEvent('click');
  await page.locator('#similar-map g.similar-head[data-layer="3"][data-head="7"][aria-current="true"]').waitFor();
  assert.equal(await page.locator('select#layer').inputValue(), '3');
  assert.equal(await page.locator('select#head').inputValue(), '7');
  await page.waitForFunction(() => /layer=3/.test(location.search) && /head=7/.test(location.search));

  // The heads most like it, nearest first, with the CLI's distances.
  const me = want.heads.findIndex(([l, h]) => l === 3 && h === 7);
  const order = want.distance[me].map((d, g) => [d, g]).filter(([, g]) => g !== me)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, 5);
  const listed = await page.locator('#similar-like li').allTextContents();
  assert.equal(listed.length, 5);
  listed.forEach((line, k) => {
    const [l, h] = want.heads[order[k][1]];
    assert.ok(line.startsWith(`L${l} · H${h}`), `like ${k}: ${line}`);
    const d = Number(line.match(/d = ([0-9.]+)/)[1]);
    assert.ok(Math.abs(d - order[k][0]) < 5e-3, `like ${k}: d ${d} against ${order[k][0]}`);
  });
  // A listed head is selected by a click too.
  const [l0, h0] = want.heads[order[0][1]];
  await page.locator('#similar-like button').first().click();
  await page.locator(`#similar-map g.similar-head[data-layer="${l0}"][data-head="${h0}"][aria-current="true"]`).waitFor();

  await page.locator('#tab-space').click();
  await page.locator('#space-caption', { hasText: `layer ${l0}, head ${h0}` }).waitFor({ timeout: 60_000 });

  // Back in the catalog, the map is kept (no second comparison) and two groups are the page's own.
  await page.locator('#tab-catalog').click();
  await page.locator('#similar-map g.similar-head').nth(71).waitFor();
  await page.locator('select#similar-groups').selectOption('2');
  const two = similar('minilm', text, 2);
  await page.waitForFunction((groups) => {
    const got = [...document.querySelectorAll('#similar-map g.similar-head')]
      .sort((a, b) => a.dataset.layer - b.dataset.layer || a.dataset.head - b.dataset.head)
      .map((g) => Number(g.dataset.group));
    return got.length === groups.length && got.every((g, i) => g === groups[i]);
  }, two.clusters);
});

test('SmolLM2: stopped, started again, all 270 heads as the CLI maps them; a long text is refused', async () => {
  // 122 tokens: a few seconds of comparing, long enough to stop it on the way.
  const text = Array.from({ length: 11 }, (_, i) => `sentence ${i} says the cat sat on the mat.`).join(' ');
  await open('smollm2', text);
  await page.locator('#similar-progress').waitFor({ timeout: 300_000 });
  await page.locator('#similar-stop').click();
  await page.locator('#similar-start').waitFor();
  assert.equal(await page.locator('#similar-map').count(), 0);
  await page.locator('#similar-start').click();
  await page.locator('#similar-map g.similar-head').nth(269).waitFor({ timeout: 300_000 });
  const want = similar('smollm2', text, 6);
  assert.ok(want.rows > 100 && want.rows <= 128, `${want.rows} tokens`);
  sameAsCli(await drawn(), want, 'smollm2');

  // Typing past 128 tokens: the catalog says why there is no map.
  await page.locator('textarea#text').fill(`${text} ${text}`);
  await page.locator('#similar-note', { hasText: 'up to 128 tokens' }).waitFor({ timeout: 120_000 });
});
