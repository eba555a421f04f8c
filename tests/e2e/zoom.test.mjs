// Zoom and pan on a long text (issue #31, "long texts"): the teaching model
// on 200 different words draws its heatmap whole, cells of a pixel or two;
// + and − on the focused map, ctrl + wheel about the pointer, the plain
// wheel and a drag to pan, arrow keys that move the described cell with the
// map following it, and Fit. Under every zoom and pan the cell pointed at,
// clicked or reached by keyboard is the one the canvas's geometry says
// (data-cell, data-left, data-top, data-pan-x, data-pan-y), named by its
// tokens in the readout. The dot grids zoom together. Screenshots go to
// tests/e2e/artifacts/zoom/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', '..', 'dist'));
const SHOTS = join(HERE, 'artifacts', 'zoom');

// 200 different made-up words (three syllables each): a wrong cell names other tokens.
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'zu'];
const WORDS = Array.from({ length: 200 }, (_, k) => SYLLABLES[k % 10] + SYLLABLES[Math.floor(k / 10) % 10] + SYLLABLES[(Math.floor(k / 100) + k) % 10]);
const LONG_TEXT = WORDS.join(' ');

let server, browser, baseUrl;

before(async () => {
  ({ server, browser, baseUrl } = await start(DIST, SHOTS));
});

after(async () => {
  await stop(server, browser);
});

// Lets the page redraw: effects, frames.
async function settled(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
}

// The map's geometry as drawn: where its window is on the screen, its cells and how far it is panned.
function geometry(page, canvas = '#heatmap') {
  return page.locator(canvas).evaluate((c) => {
    const r = c.getBoundingClientRect();
    const n = (k) => Number(c.dataset[k]);
    return { x: r.left, y: r.top, width: r.width, height: r.height, cell: n('cell'), left: n('left'), top: n('top'), panX: n('panX'), panY: n('panY'), zoom: n('zoom') };
  });
}

// The window (the grid's part of the canvas), on the screen.
const windowOf = (g) => ({ x0: g.x + g.left, y0: g.y + g.top, x1: g.x + g.width - 4, y1: g.y + g.height - 4 });

// The (row, column) under a point of the screen, by the geometry alone.
const cellAt = (g, x, y) => [Math.floor((y - g.y - g.top + g.panY) / g.cell), Math.floor((x - g.x - g.left + g.panX) / g.cell)];

// The middle of cell (i, j) on the screen.
const middleOf = (g, i, j) => ({ x: g.x + g.left - g.panX + (j + 0.5) * g.cell, y: g.y + g.top - g.panY + (i + 0.5) * g.cell });

const readout = (page) => page.locator('#readout').textContent();
const level = (page, bar = '#heatmap-zoom') => page.locator(`${bar} .zoom-level`).textContent();

// The readout names query token i and key token j.
async function assertNames(page, tokens, i, j, where) {
  await page.waitForFunction(([q, k]) => document.querySelector('#readout').textContent.startsWith(`“${q}” → “${k}”`), [tokens[i], tokens[j]], { timeout: 5000 })
    .catch(async () => assert.fail(`${where}: the readout says ${JSON.stringify(await readout(page))}, not cell (${i}, ${j}) “${tokens[i]}” → “${tokens[j]}”`));
}

test('a long text: the heatmap zooms and pans by keyboard, wheel and drag, and every cell read is the one under the pointer', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}?text=${encodeURIComponent(LONG_TEXT)}`);
  await page.waitForFunction((n) => document.querySelectorAll('#tokens .token').length === n && document.querySelector('#heatmap')?.dataset.cell, WORDS.length, { timeout: 60_000 });
  await settled(page);
  const tokens = await page.locator('#tokens .token').allTextContents();
  assert.deepEqual(tokens, WORDS);

  // Fitted whole: every row and column inside the box, cells too small for labels on each.
  const fit = await geometry(page);
  assert.ok(fit.cell * WORDS.length <= fit.width - fit.left, `200 columns of ${fit.cell} px fit a canvas of ${fit.width} px`);
  const box = await page.locator('#heatmap').evaluate((c) => c.closest('.canvas-box').getBoundingClientRect().toJSON());
  assert.ok(fit.width <= box.width + 1 && fit.height <= box.height + 1, `the canvas (${fit.width}×${fit.height}) stays in its box (${box.width}×${box.height})`);
  await page.locator('#heatmap-zoom').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await level(page), '1×');
  assert.equal(fit.zoom, 1);
  assert.equal(await page.locator('#heatmap-zoom .zoom-fit').isDisabled(), true, 'nothing to reset at first');
  const bar = await page.locator('#heatmap-zoom').boundingBox();
  assert.ok(bar.x >= fit.x - 0.5 && bar.y >= fit.y - 0.5 && bar.x + bar.width <= fit.x + fit.left && bar.y + bar.height <= fit.y + fit.top,
    `the zoom bar (${JSON.stringify(bar)}) sits in the map's empty corner (${fit.left}×${fit.top})`);
  await page.screenshot({ path: join(SHOTS, 'desktop-1280-fit.png') });
  // The bar and the focusable map pass axe as the rest of the page does.
  const scan = async (where) => {
    const { violations } = await new AxeBuilder({ page }).include('#view-head, #view-grid').analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], where);
  };
  await scan('heatmap with its zoom bar');

  // The keyboard: + twice on the focused map.
  await page.locator('#heatmap').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForFunction(() => Number(document.querySelector('#heatmap').dataset.zoom) > 2);
  assert.equal(await level(page), '2.3×');
  let g = await geometry(page);
  assert.ok(Math.abs(g.cell - 2.25 * fit.cell) < 1e-6, `cells of ${g.cell} px at 2.25× of ${fit.cell}`);
  assert.deepEqual([g.width, g.height], [fit.width, fit.height], 'the canvas keeps its size');
  assert.ok(g.panX > 0 && g.panY > 0, 'zoomed about the middle of the map');
  await page.keyboard.press('-');
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('#heatmap').dataset.zoom) - 1.5) < 1e-9);
  assert.equal(await level(page), '1.5×');

  // Ctrl + wheel about the pointer: the cell under it stays under it.
  let w = windowOf(await geometry(page));
  const pointer = { x: Math.round(w.x0 + 0.3 * (w.x1 - w.x0)), y: Math.round(w.y0 + 0.6 * (w.y1 - w.y0)) };
  await page.mouse.move(pointer.x, pointer.y);
  const before = cellAt(await geometry(page), pointer.x, pointer.y);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -400);
  await page.keyboard.up('Control');
  await page.waitForFunction(() => Number(document.querySelector('#heatmap').dataset.zoom) > 2.5);
  await settled(page);
  g = await geometry(page);
  assert.notEqual(await level(page), '1.5×');
  assert.deepEqual(cellAt(g, pointer.x, pointer.y), before, 'ctrl + wheel zooms about the pointer');
  // The page itself did not zoom or scroll.
  assert.equal(await page.evaluate(() => window.visualViewport.scale), 1);

  // Pointing at a cell after the zoom reads that cell.
  let [i, j] = cellAt(g, pointer.x + 9, pointer.y + 5);
  let mid = middleOf(g, i, j);
  await page.mouse.move(mid.x, mid.y);
  await assertNames(page, tokens, i, j, 'hover after ctrl + wheel');

  // The plain wheel pans a zoomed map (down), a drag pans it (to the left part).
  const scroll = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 120);
  await page.waitForFunction((y) => Number(document.querySelector('#heatmap').dataset.panY) > y + 50, g.panY);
  assert.equal(await page.evaluate(() => window.scrollY), scroll, 'the wheel panned the map, not the page');
  g = await geometry(page);
  await page.mouse.move(pointer.x, pointer.y);
  await page.mouse.down();
  await page.mouse.move(pointer.x + 60, pointer.y + 10, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction((x) => Math.abs(Number(document.querySelector('#heatmap').dataset.panX) - (x - 60)) < 1, g.panX);
  assert.equal(await page.locator('#heatmap').getAttribute('data-token'), '', 'a drag chooses no token');

  // A click on a cell of the panned map pins it, and chooses its query.
  g = await geometry(page);
  w = windowOf(g);
  const target = { x: w.x0 + 0.71 * (w.x1 - w.x0), y: w.y0 + 0.23 * (w.y1 - w.y0) };
  [i, j] = cellAt(g, target.x, target.y);
  mid = middleOf(g, i, j);
  await page.mouse.click(mid.x, mid.y);
  await page.waitForFunction((t) => document.querySelector('#heatmap').dataset.token === String(t), i);
  await page.mouse.move(5, 5);
  await assertNames(page, tokens, i, j, 'a clicked cell, zoomed and panned');
  await page.screenshot({ path: join(SHOTS, 'desktop-1280-zoomed.png') });

  // The arrow keys move the described cell past the window's right edge: the map follows it.
  await page.locator('#heatmap').focus();
  const across = Math.ceil((w.x1 - w.x0) / g.cell);
  const lastShown = Math.floor((w.x1 - w.x0 + g.panX) / g.cell);
  const steps = Math.min(lastShown - j + 3, WORDS.length - 1 - j);
  assert.ok(steps > 0 && across < WORDS.length, `${steps} steps right, ${across} columns in sight`);
  for (let k = 0; k < steps; k++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await assertNames(page, tokens, i + 1, j + steps, 'the cell moved by the arrow keys');
  await settled(page);
  g = await geometry(page);
  const moved = middleOf(g, i + 1, j + steps);
  w = windowOf(g);
  assert.ok(moved.x > w.x0 && moved.x < w.x1 && moved.y > w.y0 && moved.y < w.y1, `cell (${i + 1}, ${j + steps}) is in sight after the map followed it`);
  assert.deepEqual(cellAt(g, moved.x, moved.y), [i + 1, j + steps]);
  // Enter chooses its query; shift + arrow pans without moving it.
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector('#heatmap').dataset.token === String(t), i + 1);
  const panned = g.panX;
  await page.keyboard.press('Shift+ArrowLeft');
  await page.waitForFunction((x) => Number(document.querySelector('#heatmap').dataset.panX) < x - 1, panned);
  await assertNames(page, tokens, i + 1, j + steps, 'shift + arrow moves the map only');

  // Fit: back to the whole map.
  await page.locator('#heatmap-zoom .zoom-fit').click();
  await page.waitForFunction(() => document.querySelector('#heatmap').dataset.zoom === '1');
  g = await geometry(page);
  assert.equal(await level(page), '1×');
  assert.deepEqual([g.cell, g.panX, g.panY, g.width, g.height], [fit.cell, 0, 0, fit.width, fit.height]);
  // And the plain wheel over a whole map scrolls the page as ever (not prevented).
  const prevented = await page.locator('#heatmap').evaluate((c) => {
    const ev = new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true, clientX: 1, clientY: 1 });
    c.dispatchEvent(ev);
    return ev.defaultPrevented;
  });
  assert.equal(prevented, false, 'a whole map leaves the wheel to the page');
  // The zoom buttons: + then 0 on the keyboard.
  await page.locator('#heatmap-zoom .zoom-in').click();
  await page.waitForFunction(() => document.querySelector('#heatmap').dataset.zoom === '1.5');
  await page.locator('#heatmap').focus();
  await page.keyboard.press('0');
  await page.waitForFunction(() => document.querySelector('#heatmap').dataset.zoom === '1');

  // The dot grids zoom together, and a hovered dot is read right.
  await page.locator('#tab-grid').click();
  await page.waitForFunction(() => document.querySelector('#grid-causal')?.dataset.cell);
  await page.locator('#grid-causal-zoom').waitFor({ state: 'visible' });
  await page.locator('#grid-causal-zoom .zoom-in').click();
  await page.locator('#grid-unmasked-zoom .zoom-in').click();
  await page.locator('#grid-causal-zoom .zoom-in').click();
  await page.waitForFunction(() => ['#grid-unmasked', '#grid-causal'].every((q) => Number(document.querySelector(q).dataset.zoom) > 3));
  assert.equal(await level(page, '#grid-causal-zoom'), '3.4×');
  assert.equal(await level(page, '#grid-unmasked-zoom'), '3.4×', 'the two grids zoom together');
  g = await geometry(page, '#grid-causal');
  w = windowOf(g);
  [i, j] = cellAt(g, w.x0 + 0.4 * (w.x1 - w.x0), w.y0 + 0.8 * (w.y1 - w.y0));
  mid = middleOf(g, i, j);
  await page.mouse.move(mid.x, mid.y);
  await assertNames(page, tokens, i, j, 'hovered dot, zoomed');
  await page.screenshot({ path: join(SHOTS, 'desktop-1280-grids-zoomed.png') });
  await scan('dot grids zoomed in');
  await context.close();
  assert.deepEqual(problems, []);
});

// A phone: pinch to zoom, drag to pan, tap to read.
test('a long text on a phone: a pinch zooms, a drag pans, a tap reads the cell under the finger', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}?text=${encodeURIComponent(LONG_TEXT)}`);
  await page.waitForFunction((n) => document.querySelectorAll('#tokens .token').length === n && document.querySelector('#heatmap')?.dataset.cell, WORDS.length, { timeout: 60_000 });
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await settled(page);
  const tokens = await page.locator('#tokens .token').allTextContents();
  let g = await geometry(page);
  let w = windowOf(g);
  assert.ok(g.x + g.width <= 390, 'the map fits the phone');
  // Two fingers apart from the middle: a pinch (CDP touch events, as a finger sends them).
  const cdp = await context.newCDPSession(page);
  const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
  const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }],
  });
  await touch('touchStart', 20);
  for (let d = 30; d <= 110; d += 10) await touch('touchMove', d);
  await touch('touchEnd', 0);
  await page.waitForFunction(() => Number(document.querySelector('#heatmap').dataset.zoom) > 3);
  assert.notEqual(await level(page), '1×');
  // One finger drags the zoomed map.
  g = await geometry(page);
  const drag = async (dx) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: cx, y: cy, id: 3 }] });
    for (let k = 1; k <= 5; k++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: cx + (dx * k) / 5, y: cy, id: 3 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  await drag(-80);
  await page.waitForFunction((x) => Number(document.querySelector('#heatmap').dataset.panX) > x + 40, g.panX);
  // A tap reads the cell under it.
  g = await geometry(page);
  w = windowOf(g);
  const spot = { x: w.x0 + 0.35 * (w.x1 - w.x0), y: w.y0 + 0.55 * (w.y1 - w.y0) };
  const [i, j] = cellAt(g, spot.x, spot.y);
  const mid = middleOf(g, i, j);
  await page.touchscreen.tap(mid.x, mid.y);
  await assertNames(page, tokens, i, j, 'a tapped cell on a zoomed phone map');
  await page.screenshot({ path: join(SHOTS, 'phone-zoomed.png') });
  await context.close();
  assert.deepEqual(problems, []);
});
