// End-to-end test of the Q·K space (issue #59): a head's queries and keys
// placed by the worker on their principal axes in the real browser, checked
// against the CLI's `attnscope analyze --what qk` for MiniLM and SmolLM2; the
// chosen query's lines and readout; key translation; the values with a
// query's output among them; one token refused.
//
// Run: node --test --test-reporter=spec tests/e2e/space.test.mjs (after trunk build --release)

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
  await page.screenshot({ path: join(ARTIFACTS, `space-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

function qk(model, text, layer, head, translate) {
  const args = ['analyze', '--model', model, '--what', 'qk', '--models-dir', join(ROOT, 'www', 'models'),
    '--text', text, '--layer', String(layer), '--head', String(head)];
  if (translate) args.push('--translate-keys');
  return JSON.parse(execFileSync(join(ROOT, 'target', 'debug', 'attnscope'), args, { encoding: 'utf8' })).result;
}

// The points drawn: each query's and key's (x, y) as the page holds them.
async function drawn(kind) {
  return page.locator(`#space-plot g.space-${kind}`).evaluateAll((gs) =>
    gs.map((g) => g.getAttribute('data-xy').split(',').map(Number)));
}

async function sameAsCli(want, what) {
  const spread = Math.max(...[...want.queries, ...want.keys].flat().map(Math.abs));
  for (const [kind, list] of [['query', want.queries], ['key', want.keys]]) {
    const got = await drawn(kind);
    assert.equal(got.length, list.length, `${what}: ${kind} points`);
    got.forEach((p, i) => {
      for (const a of [0, 1]) {
        assert.ok(Math.abs(p[a] - list[i][a]) <= 1e-4 * spread, `${what}: ${kind} ${i} axis ${a}: ${p[a]} against ${list[i][a]}`);
      }
    });
  }
}

async function open(model, text, layer, head) {
  await page.goto(`${baseUrl}?model=${model}&exact=1&view=space&layer=${layer}&head=${head}&text=${encodeURIComponent(text)}`);
  await page.locator('#space-plot g.space-query').first().waitFor({ timeout: 300_000 });
}

test('MiniLM: the points are the CLI\'s, a click chooses the query, its lines and readout follow', async () => {
  const text = 'a fluffy blue creature roamed the verdant forest';
  await open('minilm', text, 2, 3);
  const want = qk('minilm', text, 2, 3, true);
  await sameAsCli(want, 'minilm 2.3 translated');
  const n = want.tokens.length;
  const name = (j) => `“${want.tokens[j]}” (${j})`;
  await page.locator('#space-weightiest', { hasText: name(want.nearest[n - 1].weightiest) }).waitFor();
  // Query 4 ("creature"): chosen by a click on its circle.
  await page.locator('#space-plot g.space-query[data-position="4"] circle').click();
  await page.locator('#space-plot g.space-query[data-position="4"][aria-current="true"]').waitFor();
  await page.locator('#space-weightiest', { hasText: name(want.nearest[4].weightiest) }).waitFor();
  assert.ok(await page.locator('#space-plot line.space-line').count() > 0, 'the chosen query has lines');
  assert.doesNotMatch(await page.locator('#view-space').innerText(), /NaN/);
  // The caption's share of the spread is the CLI's.
  const share = (100 * (want.explained[0] + want.explained[1])).toFixed(1);
  assert.match(await page.locator('#space-caption').innerText(), new RegExp(`keep ${share.replace('.', '\\.')} %`));

  // Values too: every value where the CLI places it, the chosen query's output among them.
  await page.locator('#space-values').check();
  await page.locator('#space-values-plot g.space-value').nth(n - 1).waitFor();
  const values = await page.locator('#space-values-plot g.space-value').evaluateAll((gs) =>
    gs.map((g) => g.getAttribute('data-xy').split(',').map(Number)));
  const spread = Math.max(...want.values.values.flat().map(Math.abs));
  assert.equal(values.length, want.values.values.length);
  values.forEach((p, j) => [0, 1].forEach((a) => assert.ok(Math.abs(p[a] - want.values.values[j][a]) <= 1e-4 * spread,
    `value ${j} axis ${a}: ${p[a]} against ${want.values.values[j][a]}`)));
  const output = page.locator('#space-values-plot g.space-output[data-position="4"]');
  const o = (await output.getAttribute('data-xy')).split(',').map(Number);
  [0, 1].forEach((a) => assert.ok(Math.abs(o[a] - want.values.outputs[4][a]) <= 1e-4 * spread, `output axis ${a}`));
  assert.ok(await page.locator('#space-values-plot line.space-line').count() > 0, 'the output has lines to its values');
});

test('SmolLM2: a grouped-query head, with and without key translation, as the CLI places it; one token refused', async () => {
  const text = 'The cat sat on the mat and the dog sat on the';
  await open('smollm2', text, 5, 2);
  await sameAsCli(qk('smollm2', text, 5, 2, true), 'smollm2 5.2 translated');
  await page.locator('#space-caption', { hasText: 'keys of key/value head 0' }).waitFor();
  await page.locator('#space-translate').uncheck();
  await page.locator('#space-translation-note', { hasText: 'Keys as the model computes them' }).waitFor();
  const plain = qk('smollm2', text, 5, 2, false);
  // Wait for the untranslated answer: its first key is where the CLI puts it.
  await page.waitForFunction((x) => {
    const g = document.querySelector('#space-plot g.space-key');
    return g && Math.abs(Number(g.getAttribute('data-xy').split(',')[0]) - x) < 1e-3;
  }, plain.keys[0][0], { timeout: 60_000 });
  await sameAsCli(plain, 'smollm2 5.2 plain');
  // Another head from the panel: the plot follows.
  await page.locator('select#head').selectOption('7');
  await page.locator('#space-caption', { hasText: 'head 7 (keys of key/value head 2)' }).waitFor();
  // Markup in the text is text: drawn as labels, never as elements.
  await page.locator('textarea#text').fill('a <b>bold</b> & <img src=x onerror="window.hit=1"> "quoted"');
  await page.locator('#space-plot .space-label', { hasText: '<' }).first().waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#space-plot b, #space-plot img, #space-readout b, #space-readout img').count(), 0);
  assert.equal(await page.evaluate(() => window.hit), undefined);
  await page.locator('textarea#text').fill('Hi');
  await page.locator('#analysis-error', { hasText: 'One token' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#space-plot').count(), 0, 'no plot of one point');
});
