// The page as a visual instrument, checked in headless Chromium on the
// release build: at every viewport of the issue (phone to 1080p) and in
// light, dark and presentation mode, for the teaching model, MiniLM and
// SmolLM2, nothing overflows the viewport, every canvas fits its box, and at
// 1280×720 in presentation mode the text box and the whole picture are on
// screen together with labels of at least 18 px, and neither the tokens nor
// the tabs need sideways scrolling. Also: touch, the
// accessibility scan (axe-core) of every view, the lesson by keyboard and
// by URL, and the embed mode. Screenshots go to tests/e2e/artifacts/layout/.
//
// Each real model is downloaded once for this file: one page per model
// goes through every viewport and mode.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, settled, overflow } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', '..', 'dist'));
const SHOTS = join(HERE, 'artifacts', 'layout');
const CLI = join(HERE, '..', '..', 'target', 'debug', 'attnscope');
const MODELS_DIR = join(HERE, '..', '..', 'www', 'models');
const DEFAULT_TEXT = 'a fluffy blue creature roamed the verdant forest';

const VIEWPORTS = [
  ['phone', 390, 844],
  ['tablet', 768, 1024],
  ['projector', 1280, 720],
  ['projector-800', 1280, 800],
  ['laptop', 1440, 900],
  ['desktop', 1920, 1080],
];
const MODES = ['light', 'dark', 'present'];
const VIEWS = ['head', 'grid', 'overview', 'explain', 'catalog', 'worked', 'lesson'];

let server, browser, baseUrl;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await serve(DIST);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

// A page that records every console error, page error and failed request.
async function open(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  return { context, page, problems };
}

async function computed(page, pattern = /computed in/, timeout = 300_000) {
  await page.waitForFunction((p) => new RegExp(p).test(document.querySelector('#status')?.textContent ?? ''), pattern.source, { timeout });
}

// Sets light, dark or presentation mode through the page's own switches.
async function mode(page, m) {
  await page.locator('#dark').setChecked(m === 'dark');
  await page.locator('#present').setChecked(m === 'present');
}

// At 1280×720 in presentation mode: the text box and the whole picture are
// inside the viewport, the picture's labels are at least 18 px, and the
// heatmap's weights are printed as large as its cells allow (0.36 of a
// cell: "0.52" across most of its width), not at a small fixed size, on
// every cell but those the mask hides (`causal`: above the diagonal), which
// are drawn in the mask's grey, as its −∞ are one step before, not in the
// colour of a weight of 0.
async function projectorCheck(page, picture, causal) {
  const inside = await page.evaluate((sel) => {
    const r = (q) => document.querySelector(q)?.getBoundingClientRect();
    const fits = (b) => b && b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight + 0.5 && b.right <= innerWidth + 0.5;
    const data = document.querySelector(sel)?.dataset ?? {};
    const tokens = document.querySelectorAll('#tokens .token').length;
    return { text: fits(r('textarea#text')), picture: fits(r(sel)), label: Number(data.labelPx ?? 0), numbers: Number(data.numberPx ?? 0), cell: Number(data.cell ?? 0), written: Number(data.numbers ?? -1), tokens };
  }, picture);
  assert.ok(inside.text, 'the text box is on screen at 1280×720 in presentation mode');
  assert.ok(inside.picture, `${picture} is wholly on screen at 1280×720 in presentation mode`);
  assert.ok(inside.label >= 18, `labels are ${inside.label} px at 1280×720 in presentation mode`);
  if (picture === '#heatmap') {
    assert.ok(inside.numbers >= 0.36 * inside.cell, `the weights are ${inside.numbers} px in ${inside.cell} px cells at 1280×720 in presentation mode`);
    const n = inside.tokens;
    assert.equal(inside.written, causal ? (n * (n + 1)) / 2 : n * n, `numbers written on the ${n} × ${n} weights (${causal ? 'causal' : 'no'} mask)`);
    // Each cell's colour near its top-left corner (its number is in the middle).
    const greys = await page.locator('#heatmap').evaluate((c) => {
      const dpr = c.width / c.getBoundingClientRect().width;
      const [cell, left, top] = ['cell', 'left', 'top'].map((k) => Number(c.dataset[k]));
      const n = document.querySelectorAll('#tokens .token').length;
      const ctx = c.getContext('2d');
      const grey = (i, j) => {
        const [r, g, b] = ctx.getImageData(Math.floor((left + (j + 0.15) * cell) * dpr), Math.floor((top + (i + 0.15) * cell) * dpr), 1, 1).data;
        return r === g && g === b;
      };
      const out = { above: 0, below: 0 };
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (grey(i, j)) out[j > i ? 'above' : 'below']++;
      return out;
    });
    assert.deepEqual(greys, { above: causal ? (n * (n - 1)) / 2 : 0, below: 0 }, 'grey cells: exactly the keys the mask hides');
  }
}

// The heatmap's first query hides every later key (SmolLM2, causal): its last
// cell is drawn in the theme's grey (src/web/canvas/paint.rs), a dark one on
// the dark page, where a light grey outshone all but the largest weights.
async function assertHiddenGrey(page, where) {
  const pixel = await page.locator('#heatmap').evaluate((c) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    const [cell, left, top] = ['cell', 'left', 'top'].map((k) => Number(c.dataset[k]));
    const n = document.querySelectorAll('#tokens .token').length;
    const at = (k, from) => Math.floor((from + (k + 0.15) * cell) * dpr);
    return Array.from(c.getContext('2d').getImageData(at(n - 1, left), at(0, top), 1, 1).data.slice(0, 3));
  });
  const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  assert.deepEqual(pixel, dark ? [68, 68, 68] : [150, 150, 150], `${where}: the hidden key's cell is the ${dark ? 'dark' : 'light'} page's grey`);
}

// How much of its box's shorter side a map takes (the larger of its
// width and height over it): a map of up to ~40 tokens fills most of it.
async function filled(page, picture) {
  return page.locator(picture).evaluate((c) => {
    const box = c.closest('.canvas-box').getBoundingClientRect();
    const r = c.getBoundingClientRect();
    return Math.max(r.width, r.height) / Math.min(box.width, box.height);
  });
}

async function assertFills(page, picture, where) {
  const share = await filled(page, picture);
  assert.ok(share >= 0.8, `${picture} takes ${Math.round(share * 100)}% of its box's shorter side (${where})`);
}

// In presentation mode the token strip shows at most two rows (the picture
// gets the height); more tokens than that scroll within it, downwards.
async function assertTwoRowsOfTokens(page, where) {
  const rows = await page.evaluate(() => {
    const strip = document.querySelector('#tokens').getBoundingClientRect();
    const shown = [...document.querySelectorAll('#tokens .token')].map((t) => t.getBoundingClientRect()).filter((r) => r.bottom > strip.top && r.top < strip.bottom);
    return new Set(shown.map((r) => Math.round(r.top))).size;
  });
  assert.ok(rows >= 1 && rows <= 2, `the token strip shows ${rows} rows (${where})`);
}

// On a projector nothing needs sideways scrolling: every token chip and every
// tab lies within the visible width of its strip, and the last token is in sight.
async function assertNoSidewaysScrolling(page, where) {
  const problems = await page.evaluate(() => {
    const out = [];
    for (const [strip, items] of [['#tokens', '.token'], ['.tabs', 'button']]) {
      const s = document.querySelector(strip);
      if (s.scrollWidth > s.clientWidth + 1) out.push(`${strip} scrolls sideways: ${s.scrollWidth} > ${s.clientWidth}`);
      const left = s.getBoundingClientRect().left + s.clientLeft;
      const right = left + s.clientWidth;
      for (const el of s.querySelectorAll(items)) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.left < left - 1 || r.right > right + 1)) out.push(`${strip} “${el.textContent}” spans ${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(left)}–${Math.round(right)}`);
      }
    }
    // (What is hit at the last chip's centre is the chip itself: it is neither clipped nor covered.)
    const last = [...document.querySelectorAll('#tokens .token')].at(-1);
    const r = last.getBoundingClientRect();
    if (document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2) !== last) out.push(`the last token “${last.textContent}” is out of sight`);
    return out;
  });
  assert.deepEqual(problems, [], where);
}

// In the projector's narrow rail the layer and head pickers share one line,
// each wholly inside the rail ("4 (kv 1)" used to wrap below its label).
async function assertLayerAndHeadOnOneLine(page, where) {
  const boxes = await page.evaluate(() => ['select#layer', 'select#head', '.rail'].map((q) => {
    const r = document.querySelector(q).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  }));
  const [layer, head, rail] = boxes;
  assert.ok(Math.abs(layer.top - head.top) < 4, `layer at ${layer.top}, head at ${head.top} (${where})`);
  assert.ok(head.right <= rail.right + 1 && layer.left >= rail.left - 1, `the pickers leave the rail (${where})`);
  // The model and preset pickers take the rail's width under their labels, so that their names show whole.
  const widths = await page.evaluate(() => ['select#model', 'select#preset', '.controls'].map((q) => document.querySelector(q).getBoundingClientRect().width));
  const [model, preset, controls] = widths;
  assert.ok(model > 0.8 * controls && preset > 0.8 * controls, `model ${model} and preset ${preset} pickers in a rail of ${controls} px (${where})`);
}

// Every viewport and mode for one model, on one page (one download).
async function everyViewport(model, text, picture, ready) {
  const { context, page, problems } = await open();
  await page.goto(`${baseUrl}?model=${model}&text=${encodeURIComponent(text)}`);
  await computed(page);
  await page.waitForFunction(ready, null, { timeout: 60_000 });
  for (const m of MODES) {
    await mode(page, m);
    for (const [name, width, height] of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await settled(page);
      assert.deepEqual(await overflow(page), [], `${model}, ${name} (${width}×${height}), ${m}`);
      if (width === 1280 && height === 720 && m === 'present') {
        await projectorCheck(page, picture, model === 'smollm2');
        await assertNoSidewaysScrolling(page, `${model}, ${name}, ${m}`);
        await assertLayerAndHeadOnOneLine(page, `${model}, ${name}, ${m}`);
      }
      if (m === 'present') await assertTwoRowsOfTokens(page, `${model}, ${name}`);
      if (model === 'smollm2' && width === 1280 && height === 720) await assertHiddenGrey(page, `${model}, ${name}, ${m}`);
      if (width >= 1280) await assertFills(page, picture, `${model}, ${name}, ${m}`);
      await page.screenshot({ path: join(SHOTS, `${model}-${name}-${m}.png`) });
    }
  }
  // The dot grids on a projector: both wholly on screen beside the text box, and filling their boxes.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.locator('#tab-grid').click();
  await settled(page);
  for (const grid of ['#grid-unmasked', '#grid-causal']) {
    await projectorCheck(page, grid);
    await assertFills(page, grid, `${model}, projector, present`);
  }
  assert.deepEqual(await overflow(page), [], `${model}, projector, present, view grid`);
  await page.screenshot({ path: join(SHOTS, `${model}-projector-present-view-grid.png`) });
  // A click on the last row chooses the last token: its chip is in sight in the strip.
  const last = (await page.locator('#tokens .token').count()) - 1;
  const { x, y } = await page.locator('#grid-causal').evaluate((c, i) => {
    const r = c.getBoundingClientRect();
    const { cell, left, top } = Object.fromEntries(['cell', 'left', 'top'].map((k) => [k, Number(c.dataset[k])]));
    return { x: r.left + left + 0.5 * cell, y: r.top + top + (i + 0.5) * cell };
  }, last);
  await page.mouse.click(x, y);
  await page.waitForFunction((n) => {
    const chip = document.querySelectorAll('#tokens .token')[n];
    const strip = document.querySelector('#tokens').getBoundingClientRect();
    const r = chip.getBoundingClientRect();
    return chip.getAttribute('aria-pressed') === 'true' && r.left >= strip.left - 1 && r.right <= strip.right + 1;
  }, last, { timeout: 5000 });
  await page.locator('#tab-head').click();
  // The other views, at the phone's width and at 1080p.
  await mode(page, 'light');
  for (const [name, width, height] of [VIEWPORTS[0], VIEWPORTS[5]]) {
    await page.setViewportSize({ width, height });
    for (const v of VIEWS) {
      await page.locator(`#tab-${v}`).click();
      await settled(page);
      assert.deepEqual(await overflow(page), [], `${model}, ${name}, view ${v}`);
      if (v === 'grid' && name === 'desktop') for (const grid of ['#grid-unmasked', '#grid-causal']) await assertFills(page, grid, `${model}, ${name}`);
      if (model !== 'teaching' || name === 'desktop') await page.screenshot({ path: join(SHOTS, `${model}-${name}-view-${v}.png`) });
    }
  }
  await context.close();
  assert.deepEqual(problems, [], `${model}: the page logged errors`);
}

test('layout: the teaching model at every viewport and mode', async () => {
  await everyViewport('teaching', DEFAULT_TEXT, '#heatmap', () => document.querySelector('#heatmap')?.width > 0);
});

test('layout: MiniLM at every viewport and mode', async () => {
  await everyViewport('minilm', DEFAULT_TEXT, '#heatmap', () => document.querySelector('#tokens .token')?.textContent === '[CLS]');
});

test('layout: SmolLM2 at every viewport and mode', async () => {
  await everyViewport('smollm2', 'The capital of France is', '#heatmap', () => document.querySelector('#next-tokens') !== null);
});

// On a phone nothing hovers: a tap on a cell reads out its weight and raw
// score (the CLI's numbers), and a tap on a token outlines it in every view.
test('touch: tapping a cell shows its values, tapping a token highlights it everywhere', async () => {
  const { context, page, problems } = await open({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  await page.goto(baseUrl);
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.cell);
  await settled(page);
  const at = (i, j) => page.locator('#heatmap').evaluate((c, [i, j]) => {
    const r = c.getBoundingClientRect();
    const { cell, left, top } = Object.fromEntries(['cell', 'left', 'top'].map((k) => [k, Number(c.dataset[k])]));
    return { x: r.left + left + (j + 0.5) * cell, y: r.top + top + (i + 0.5) * cell };
  }, [i, j]);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  const { x, y } = await at(3, 1);
  await page.touchscreen.tap(x, y);
  await page.locator('#readout').filter({ hasText: 'weight' }).waitFor();
  const readout = await page.locator('#readout').textContent();
  assert.match(readout, /^“creature” → “fluffy”: weight [\d.]+ · raw score q·k -?[\d.]+ · scaled -?[\d.]+$/);
  const cli = (stage) => execFileSync(CLI, ['attention', '--model', 'teaching', '--text', DEFAULT_TEXT, '--stage', stage], { encoding: 'utf8' })
    .trim().split('\n')[4].trim().split(/\s+/).slice(1).map(Number);
  const weight = Number(readout.match(/weight ([\d.]+)/)[1]);
  const score = Number(readout.match(/raw score q·k (-?[\d.]+)/)[1]);
  assert.ok(Math.abs(weight - cli('weights')[1]) < 6e-4, `weight ${weight} against the CLI's ${cli('weights')[1]}`);
  assert.ok(Math.abs(score - cli('scores')[1]) < 1.5e-3, `raw score ${score} against the CLI's ${cli('scores')[1]}`);
  assert.equal(await page.locator('#heatmap').getAttribute('data-token'), '3', 'the tapped cell chose its query');

  // A token tapped in the strip is outlined in every view.
  await page.locator('#tokens .token').nth(5).tap();
  await page.waitForFunction(() => document.querySelector('#heatmap').dataset.token === '5');
  await page.locator('#tab-grid').tap();
  await page.waitForFunction(() => document.querySelector('#grid-causal')?.dataset.token === '5' && document.querySelector('#grid-unmasked').dataset.token === '5');
  await page.locator('#tab-explain').tap();
  await page.waitForFunction(() => document.querySelector('#lines')?.dataset.query === '5' && document.querySelector('select#explain-query').value === '5');
  assert.match(page.url(), /token=5/);
  await page.screenshot({ path: join(SHOTS, 'touch-phone.png') });
  await context.close();
  assert.deepEqual(problems, []);
});

// axe-core on every view, in light and dark: nothing serious or critical.
test('accessibility: no serious or critical axe violation on any view', async () => {
  const { context, page, problems } = await open({ viewport: { width: 1280, height: 800 } });
  const scan = async (where) => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], where);
  };
  for (const m of ['light', 'dark']) {
    await page.goto(`${baseUrl}?dark=${m === 'dark' ? 1 : 0}`);
    await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);
    for (const v of VIEWS) {
      await page.locator(`#tab-${v}`).click();
      await settled(page);
      await scan(`view ${v}, ${m}`);
    }
  }
  await page.goto(`${baseUrl}?embed=1&view=grid`);
  await page.waitForFunction(() => document.querySelector('#grid-causal')?.width > 0);
  await scan('embedded dot grid');
  await context.close();
  assert.deepEqual(problems, []);
});

// The lesson: every step by URL and by the arrow keys, and its numbers are
// the model's (MiniLM's weights row against the CLI's).
test('lesson: every step by URL and keyboard, with the numbers of the trace', async () => {
  const { context, page, problems } = await open({ viewport: { width: 1440, height: 900 } });
  const titles = [];
  for (let k = 1; k <= 14; k++) {
    await page.goto(`${baseUrl}?view=lesson&step=${k}`);
    await page.locator('#lesson-count').filter({ hasText: `Step ${k} of 14` }).waitFor();
    titles.push(await page.locator('#lesson-title').textContent());
    await page.waitForFunction(() => document.querySelector('#lesson-numbers') || document.querySelector('.lesson-says'));
  }
  assert.equal(new Set(titles).size, 14, `fourteen different steps (eight, four on writing, two on listening): ${titles}`);

  await page.goto(`${baseUrl}?view=lesson`);
  await page.locator('#lesson-count').filter({ hasText: 'Step 1 of 14' }).waitFor();
  await page.locator('#lesson-title').click();
  for (let k = 2; k <= 14; k++) {
    await page.keyboard.press('ArrowRight');
    await page.locator('#lesson-count').filter({ hasText: `Step ${k} of 14` }).waitFor();
    assert.equal(await page.locator('#lesson-title').textContent(), titles[k - 1]);
    await page.waitForFunction((k) => new URLSearchParams(location.search).get('step') === String(k), k);
    // (The picture eases from one stage to the next: let it settle for the artifact.)
    if (k === 3) await page.waitForTimeout(1000).then(() => page.screenshot({ path: join(SHOTS, 'lesson-step-3.png') }));
  }
  await page.keyboard.press('ArrowLeft');
  await page.locator('#lesson-count').filter({ hasText: 'Step 13 of 14' }).waitFor();
  // Back goes back through the steps in the history too.
  await page.goBack();
  await page.locator('#lesson-count').filter({ hasText: 'Step 14 of 14' }).waitFor();

  const text = 'The animal didn\'t cross the street because it was too tired';
  await page.goto(`${baseUrl}?model=minilm&exact=1&view=lesson&step=5&token=8&text=${encodeURIComponent(text)}`);
  await page.waitForFunction(() => document.querySelector('#tokens .token')?.textContent === '[CLS]', null, { timeout: 300_000 });
  await page.locator('#lesson-weights li').first().waitFor();
  const shown = (await page.locator('#lesson-weights li .val').allTextContents()).map(Number);
  const cli = JSON.parse(execFileSync(CLI, ['attention', '--model', 'minilm', '--models-dir', MODELS_DIR, '--text', text, '--json', '-'],
    { encoding: 'utf8', maxBuffer: 1 << 26 }));
  const want = cli.attentions[0][0][8];
  assert.equal(shown.length, want.length);
  shown.forEach((v, j) => assert.ok(Math.abs(v - want[j]) < 1e-4, `weight ${j}: ${v} against the CLI's ${want[j]}`));
  await page.screenshot({ path: join(SHOTS, 'lesson-minilm-step-5.png') });
  await context.close();
  assert.deepEqual(problems, []);
});

// Embedded in an iframe: only the stage and the few controls its view needs.
test('embed: ?embed=1 shows the stage and its controls only', async () => {
  const { context, page, problems } = await open({ viewport: { width: 640, height: 420 } });
  await page.goto(`${baseUrl}?embed=1&view=grid&stage=scaled`);
  await page.waitForFunction(() => document.querySelector('#grid-causal')?.width > 0);
  await settled(page);
  assert.equal(await page.locator('header.bar, aside.panel, nav.tabs').count(), 0);
  assert.equal(await page.locator('.stage[data-stage=scaled]').getAttribute('aria-checked'), 'true');
  assert.match(await page.locator('a.open-full').getAttribute('href'), /view=grid/);
  assert.deepEqual(await overflow(page), []);
  const entries = await page.evaluate(() => history.length);
  await page.locator('select#head').selectOption('2');
  await page.waitForFunction(() => location.search.includes('head=2'));
  assert.equal(await page.evaluate(() => history.length), entries, 'an embedded page adds no history entries to its host');
  await page.screenshot({ path: join(SHOTS, 'embed-grid.png') });
  await context.close();
  assert.deepEqual(problems, []);
});

// Play steps through QKᵀ → ×1/√d_k → +M → softmax with short transitions
// (many frames per step); with prefers-reduced-motion each step is drawn once.
test('stages: Play steps through the four, animated unless motion is reduced', async () => {
  const { context, page, problems } = await open({ viewport: { width: 1280, height: 800 } });
  // Redraws of the heatmap within `ms` after `act`.
  const redraws = (act, ms) => page.evaluate(async ([act, ms]) => {
    const map = document.querySelector('#heatmap');
    let n = 0;
    const seen = new MutationObserver(() => n++);
    seen.observe(map, { attributeFilter: ['data-draw-ms'] });
    document.querySelector(act).click();
    await new Promise((done) => setTimeout(done, ms));
    seen.disconnect();
    return n;
  }, [act, ms]);
  for (const reduced of [false, true]) {
    await page.emulateMedia({ reducedMotion: reduced ? 'reduce' : 'no-preference' });
    await page.goto(`${baseUrl}?stage=scores`);
    await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);
    await settled(page);
    const n = await redraws('.stage[data-stage=weights]', 1000);
    if (reduced) assert.ok(n <= 3, `${n} redraws for one step with reduced motion`);
    else assert.ok(n >= 8, `only ${n} redraws in a step's transition`);
  }
  // Play: from the raw scores to the softmax, one step after the other.
  await page.locator('#play').click();
  const seen = [];
  for (let i = 0; i < 80 && seen.at(-1) !== 'weights'; i++) {
    const s = await page.locator('.stage[aria-checked=true]').getAttribute('data-stage');
    if (seen.at(-1) !== s) seen.push(s);
    await page.waitForTimeout(100);
  }
  assert.deepEqual(seen, ['scores', 'scaled', 'masked', 'weights']);
  await page.locator('#play').filter({ hasText: 'Play' }).waitFor();
  await context.close();
  assert.deepEqual(problems, []);
});
