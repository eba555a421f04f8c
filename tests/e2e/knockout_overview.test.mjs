// End-to-end test of issue #28's knockout chosen on "All heads" and of the
// detector prompt typed by the user: the real models in the worker, checked
// against the CLI's `attnscope analyze`.
//
// Run: node --test --test-reporter=spec tests/e2e/knockout_overview.test.mjs
// (after trunk build --release and cargo build --bin attnscope)

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const TEXT = 'the cat sat on the mat because it was tired';
const PROMPT = 'The capital of France is';

let server, browser, baseUrl, page, problems;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS));
});

after(async () => {
  await stop(server, browser);
});

async function open(url, viewport) {
  page = await browser.newPage({ viewport });
  problems = watch(page);
  await page.goto(url);
}

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `knockout-overview-${t.name.replace(/\W+/g, '-').slice(0, 60)}.png`) });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

function analyze(model, what, extra) {
  const out = execFileSync(join(ROOT, 'target', 'debug', 'attnscope'),
    ['analyze', '--model', model, '--what', what, '--models-dir', join(ROOT, 'www', 'models'), ...extra],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out).result;
}

// The centre of head (l, h)'s tile, read from its knockout button (mode on).
async function tileCentre(l, h) {
  const style = await page.locator(`#ko-${l}-${h}`).getAttribute('style');
  const n = (k) => Number(style.match(new RegExp(`${k}: ([\\d.]+)px`))[1]);
  return { x: n('left') + n('width') / 2, y: n('top') + n('height') / 2 };
}

test('MiniLM: knock out two heads from the overview, run, the cosine is the CLI\'s; mode off, a click opens the head', async () => {
  await open(`${baseUrl}?model=minilm&exact=1&view=overview&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await page.locator('#overview[data-tile]').waitFor({ timeout: 300_000 });
  assert.equal(await page.locator('#knock-mode').getAttribute('aria-pressed'), 'false');
  assert.equal(await page.locator('.knock-cell').count(), 0);
  assert.equal(await page.locator('#knockout-result').count(), 0, 'no knockout result before any run');

  await page.locator('#knock-mode').click();
  assert.equal(await page.locator('#knock-mode').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('button.knock-cell').count(), 72);
  await page.locator('#ko-0-3').click();
  await page.locator('#ko-2-5').click();
  for (const id of ['#ko-0-3', '#ko-2-5']) {
    assert.equal(await page.locator(id).getAttribute('aria-pressed'), 'true', id);
    assert.match(await page.locator(id).getAttribute('aria-label'), /knocked out/);
  }
  assert.equal(await page.locator('#ko-1-1').getAttribute('aria-pressed'), 'false');
  assert.equal(await page.locator('#knock-count').textContent(), '2 heads chosen');
  // A third click and its undo: the set is a toggle.
  await page.locator('#ko-4-4').click();
  assert.equal(await page.locator('#knock-count').textContent(), '3 heads chosen');
  await page.locator('#ko-4-4').click();
  assert.equal(await page.locator('#knock-count').textContent(), '2 heads chosen');
  const layerBefore = await page.locator('select#layer').inputValue();

  await page.locator('#knock-run').click();
  await page.locator('#knockout-cosine').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#knockout-result').textContent(), /Heads 0\.3, 2\.5 zeroed/);
  const shown = Number((await page.locator('#knockout-cosine').textContent()).split(': ').pop());
  const cli = analyze('minilm', 'knockout', ['--text', TEXT, '--heads', '0.3,2.5']);
  assert.ok(Math.abs(shown - cli.effect.cosine) < 1e-3, `page ${shown}, CLI ${cli.effect.cosine}`);
  assert.ok(cli.effect.cosine < 1, `knocking out two heads changes the embedding (cosine ${cli.effect.cosine})`);
  // Choosing heads did not open them.
  assert.equal(await page.locator('select#layer').inputValue(), layerBefore);

  // Mode off: the two stay marked; a click on a tile opens that head.
  const centre = await tileCentre(3, 7);
  await page.locator('#knock-mode').click();
  assert.equal(await page.locator('#knock-mode').getAttribute('aria-pressed'), 'false');
  assert.equal(await page.locator('button.knock-cell').count(), 0);
  assert.equal(await page.locator('.knock-mark').count(), 2);
  await page.locator('#overview').click({ position: centre });
  await page.waitForFunction(() => document.querySelector('select#layer').value === '3' && document.querySelector('select#head').value === '7');
  assert.equal(await page.locator('#knock-count').textContent(), '2 heads chosen');

  // Mean instead of zero, chosen here: the readout says so, the cosine is the CLI's with --ablation mean,
  // and the panel in "Beyond weights" shows the same choice.
  assert.equal(await page.locator('#knock-zero').getAttribute('aria-pressed'), 'true');
  await page.locator('#knock-mean').click();
  assert.equal(await page.locator('#knock-mean').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#knock-zero').getAttribute('aria-pressed'), 'false');
  await page.locator('#knock-run').click();
  await page.locator('#knockout-result', { hasText: 'replaced by their mean' }).waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#knockout-result').textContent(), /Heads 0\.3, 2\.5 replaced by their mean/);
  const meanShown = Number((await page.locator('#knockout-cosine').textContent()).split(': ').pop());
  const meanCli = analyze('minilm', 'knockout', ['--text', TEXT, '--heads', '0.3,2.5', '--ablation', 'mean']);
  assert.ok(Math.abs(meanShown - meanCli.effect.cosine) < 1e-3, `mean: page ${meanShown}, CLI ${meanCli.effect.cosine}`);
  await page.locator('#tab-beyond').click();
  await page.locator('#ablation-mean').waitFor();
  assert.equal(await page.locator('#ablation-mean').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#kh-0-3').getAttribute('aria-pressed'), 'true', 'the panel has the same set');
  await page.locator('#ablation-zero').click();
  await page.locator('#tab-overview').click();
  await page.locator('#knock-zero[aria-pressed="true"]').waitFor();

  // Clear empties the set and the readout.
  assert.equal(await page.locator('#knockout-result').count(), 1);
  await page.locator('#knock-clear').click();
  assert.equal(await page.locator('#knock-count').textContent(), 'No head chosen');
  assert.equal(await page.locator('#knockout-result').count(), 0, 'Clear takes the old result away');
  await page.locator('#knock-run').click();
  await page.locator('#overview-error', { hasText: 'No head chosen' }).waitFor();

  // A run cleared before its answer comes: the answer is dropped. Run and Clear in one task, so
  // the answer cannot come between them.
  await page.locator('#knock-mode').click();
  assert.equal(await page.locator('#knock-mode').getAttribute('aria-pressed'), 'true');
  await page.locator('#ko-1-1').click();
  await page.evaluate(() => {
    document.querySelector('#knock-run').click();
    document.querySelector('#knock-clear').click();
  });
  assert.equal(await page.locator('#knock-count').textContent(), 'No head chosen');
  // The worker answers in order: once the norms asked after it have come, so has that knockout.
  await page.locator('#vw-norms').click();
  await page.locator('#overview[data-shows="norms"]').waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#knockout-result').count(), 0, 'the cleared run\'s answer is not shown');
  await page.locator('#vw-weights').click();
  await page.locator('#ko-5-11').click();
  await page.locator('#knock-run').click();
  await page.locator('#knockout-result', { hasText: 'Heads 5.11 zeroed' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(500);
  assert.match(await page.locator('#knockout-result').textContent(), /Heads 5\.11 zeroed\./);
});

test('SmolLM2 on a phone: the toggle is reachable, two heads knocked out, the next-token list before and after', async () => {
  await open(`${baseUrl}?model=smollm2&view=overview&text=${encodeURIComponent(PROMPT)}`, { width: 390, height: 844 });
  await page.locator('#overview[data-tile]').waitFor({ timeout: 300_000 });
  await page.locator('#knock-mode').click();
  await page.locator('#ko-0-0').click();
  await page.locator('#ko-29-8').click();
  assert.equal(await page.locator('#knock-count').textContent(), '2 heads chosen');
  await page.locator('#knock-run').click();
  await page.locator('#knockout-top').waitFor({ timeout: 120_000 });
  // The readout, below the tiles on a phone, is scrolled into sight when it comes.
  await page.waitForFunction(() => {
    const r = document.querySelector('#knockout-result').getBoundingClientRect();
    return r.top >= 0 && r.top < innerHeight - 40;
  }, null, { timeout: 5_000 });
  const cli = analyze('smollm2', 'knockout', ['--text', PROMPT, '--heads', '0.0,29.8']);
  const after = await page.locator('#knockout-after li').allTextContents();
  assert.equal(after.length, cli.effect.after.length);
  assert.ok(after[0].startsWith(JSON.stringify(cli.effect.after[0].token)), `${after[0]} vs ${cli.effect.after[0].token}`);
  assert.match(await page.locator('#knockout-before li').first().textContent(), /Paris/);
});

test('detectors on typed text: its tokens twice in the prompt line, scores the CLI\'s; too long a text says the limit, typing still works', async () => {
  await open(`${baseUrl}?model=minilm&exact=1&view=catalog&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await page.locator('#detector-run').waitFor({ timeout: 300_000 });
  await page.locator('#overview, #tokens .token').first().waitFor({ timeout: 300_000 });
  const phrase = 'Olá 🙂 the owl hoots';
  await page.locator('#detector-mine').click();
  assert.equal(await page.locator('#detector-mine').getAttribute('aria-pressed'), 'true');
  await page.locator('#detector-text').fill(phrase);
  await page.locator('#detector-run').click();
  await page.locator('#detector-prompt').waitFor({ timeout: 60_000 });
  const cli = analyze('minilm', 'detectors', ['--prompt-text', phrase]);
  const line = await page.locator('#detector-prompt').textContent();
  assert.equal(line, `Prompt (${cli.tokens.length} tokens): ${cli.tokens.join(' ')}`);
  assert.ok(line.includes('🙂') || line.includes('[UNK]'), line);
  const t = cli.prompt.period;
  assert.deepEqual(cli.prompt.ids.slice(1, 1 + t), cli.prompt.ids.slice(1 + t, 1 + 2 * t), 'the text twice');
  const cell = page.locator('#detector-induction button.cell').nth(5 * 12 + 1);
  const score = Number((await cell.getAttribute('title')).split(': ').pop());
  assert.ok(Math.abs(score - cli.induction[5][1]) < 1e-3, `L5 H1 ${score} vs CLI ${cli.induction[5][1]}`);

  // Too long: the message names the limit, and the maps stay those of the prompt shown.
  await page.locator('#detector-text').fill('word '.repeat(300));
  await page.locator('#detector-run').click();
  await page.locator('#detector-error', { hasText: 'too long' }).waitFor();
  const limit = Number((await page.locator('#detector-error').textContent()).match(/reads at most (\d+)/)[1]);
  assert.ok(limit >= 128 && limit < 2 * 300, `the limit named, ${limit}, is the model's`);
  assert.equal(await page.locator('#detector-prompt').textContent(), line);
  await page.locator('#detector-text').fill('');
  await page.locator('#detector-run').click();
  await page.locator('#detector-error', { hasText: 'empty' }).waitFor();

  // Typing in the main box still runs the model.
  await page.locator('textarea#text').fill('a brand new sentence');
  await page.locator('#tokens .token', { hasText: 'brand' }).waitFor({ timeout: 60_000 });
});
