// The notebook viewer (python/src/attnscope/static/widget.js) as
// attnscope.to_html exports it: one HTML file, opened in headless Chromium,
// draws a head, tells the exact weight under the pointer, changes head on a
// thumbnail's click, saves a PNG, fits a phone with a long input, and asks
// for nothing but its own file.
//
// Needs the Python package's test venv (scripts/test.sh makes it:
// .tools/python-venv, or $PYTHON_TEST_VENV); not dist/.
// Run: node --test --test-reporter=spec tests/e2e/widget.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { launch, serve, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ARTIFACTS = join(HERE, 'artifacts');
const VENV = process.env.PYTHON_TEST_VENV ?? join(ROOT, '.tools', 'python-venv');
const PYTHON = join(VENV, 'bin', 'python');

// Two traces written with attnscope.write_trace and exported with to_html:
// a short causal one (3 layers × 4 heads × 12 tokens, f16) and a long one
// (1000 tokens, more than the heatmap has pixels); prints what the page should show.
const MAKE = String.raw`
import json, sys
import numpy as np
import attnscope

out = sys.argv[1]
rng = np.random.default_rng(7)

def layers(n_layers, heads, n, causal):
    for _ in range(n_layers):
        x = rng.normal(scale=2.0, size=(heads, n, n))
        if causal:
            x[:, np.triu(np.ones((n, n), dtype=bool), 1)] = -np.inf
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        yield e / e.sum(axis=-1, keepdims=True)

tokens = ["The", " capital", " of", " France", " is", " Paris", ",", " and", " the", " river", " is", " Seine"]
short = f"{out}/short.trace.safetensors"
attnscope.write_trace(short, layers(3, 4, len(tokens), True), model_name="tiny-demo", architecture="Demo",
                      tokens=tokens, mask="causal", n_layers=3, n_heads=4)
attnscope.to_html(short, f"{out}/short.html")
long_tokens = [f"t{i}" for i in range(1000)]
long = f"{out}/long.trace.safetensors"
attnscope.write_trace(long, layers(1, 2, 1000, False), model_name="long-demo", architecture="Demo",
                      tokens=long_tokens, mask="none", n_layers=1, n_heads=2)
attnscope.to_html(long, f"{out}/long.html")

tf = attnscope.TraceFile(short)
i, j = 9, 4
cells = {}
for layer, head in [(0, 0), (1, 2)]:
    w = np.float16(tf.head(layer, head)[i, j])
    cells[f"{layer}/{head}"] = str(w)
print(json.dumps({"i": i, "j": j, "cells": cells, "query": tokens[i], "key": tokens[j]}))
`;

let server, browser, baseUrl, scratch, expected;

before(async () => {
  assert.ok(existsSync(PYTHON), `no Python test venv at ${VENV}: scripts/test.sh makes it (scripts/lib/install.sh ensure_python_test_deps)`);
  scratch = mkdtempSync(join(tmpdir(), 'attnscope-widget-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const out = execFileSync(PYTHON, ['-c', MAKE, scratch], {
    encoding: 'utf8',
    // The package as it is in this checkout, whatever version the venv holds.
    env: { ...process.env, PYTHONPATH: join(ROOT, 'python', 'src') },
  });
  expected = JSON.parse(out.trim().split('\n').pop());
  server = await serve(scratch, { isolated: false });
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await stop(server, browser);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// A page on `file`, with every request it makes and the problems it logs.
async function open(file, viewport) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const problems = watch(page, { failedRequests: true });
  await page.goto(baseUrl + file);
  await page.locator('.attnscope-widget[data-state="ready"]').waitFor();
  return { context, page, requests, problems };
}

// Pixels of the heatmap's plot that are drawn (opaque), and a hash of them.
function plotPixels(page) {
  return page.locator('.as-heatmap').evaluate((c) => {
    const dpr = c.width / c.clientWidth;
    const [left, top, plot] = [c.dataset.left, c.dataset.top, c.dataset.plot].map((x) => Number(x) * dpr);
    const n = Math.floor(plot) - 2;
    const d = c.getContext('2d').getImageData(Math.ceil(left) + 1, Math.ceil(top) + 1, n, n).data;
    let opaque = 0;
    let hash = 0;
    for (let k = 0; k < d.length; k += 4) {
      if (d[k + 3] === 255) opaque++;
      hash = (hash * 31 + d[k] * 7 + d[k + 1] * 3 + d[k + 2]) | 0;
    }
    return { opaque, total: d.length / 4, hash };
  });
}

// attnscope's weight colours (src/draw/colormap.rs), to check the widget draws with the page's palette.
const VIRIDIS = [
  [68, 1, 84], [72, 36, 117], [65, 68, 135], [53, 95, 141], [42, 120, 142], [33, 145, 140],
  [34, 168, 132], [68, 191, 112], [122, 209, 81], [189, 223, 38], [253, 231, 37],
];
function viridis(t) {
  const x = Math.min(Math.max(t, 0), 1) * 10;
  const i = Math.min(Math.floor(x), 9);
  return VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * (x - i)));
}

// The colour at (i + f, j + f) in cells of the heatmap (f = 0.5: the centre of cell (i, j)).
function cellColour(page, i, j, f = 0.5) {
  return page.locator('.as-heatmap').evaluate((c, [i, j, f]) => {
    const dpr = c.width / c.clientWidth;
    const { left, top, cell } = c.dataset;
    const x = Math.floor((Number(left) + (j + f) * Number(cell)) * dpr);
    const y = Math.floor((Number(top) + (i + f) * Number(cell)) * dpr);
    return [...c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3)];
  }, [i, j, f]);
}

// The pointer on cell (i, j) of the heatmap.
async function hoverCell(page, i, j) {
  const canvas = page.locator('.as-heatmap');
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((c) => ({ left: +c.dataset.left, top: +c.dataset.top, cell: +c.dataset.cell }));
  await page.mouse.move(box.x + g.left + (j + 0.5) * g.cell, box.y + g.top + (i + 0.5) * g.cell);
  return (await page.locator('.as-readout').textContent()).trim();
}

test('the exported viewer draws a head, shows exact weights, changes head on a click, saves a PNG, and asks nothing of the network', async () => {
  const { context, page, requests, problems } = await open('short.html', { width: 1280, height: 720 });
  const { i, j, cells, query, key } = expected;
  const title = await page.locator('.as-title').textContent();
  assert.match(title, /tiny-demo · 12 tokens · 3 layers × 4 heads · causal mask/);

  const first = await plotPixels(page);
  assert.ok(first.opaque > 0.95 * first.total, `the heatmap drew ${first.opaque} of ${first.total} pixels`);
  assert.equal(await hoverCell(page, i, j), `query ${i} ${JSON.stringify(query)} → key ${j} ${JSON.stringify(key)}: ${cells['0/0']}`);
  assert.deepEqual(await cellColour(page, i, j), viridis(Number(cells['0/0'])));
  assert.match(await hoverCell(page, 2, 7), /hidden by the causal mask/);
  // Off the hatch line, which runs corner to corner.
  assert.deepEqual(await cellColour(page, 2, 7, 0.2), [150, 150, 150], 'a hidden cell is not grey');

  // Layer 1, head 2 in the overview.
  const overview = page.locator('.as-overview');
  const box = await overview.boundingBox();
  const g = await overview.evaluate((c) => ({ left: +c.dataset.left, top: +c.dataset.top, step: +c.dataset.step }));
  await page.mouse.click(box.x + g.left + 2.5 * g.step, box.y + g.top + 1.5 * g.step);
  await page.locator('.attnscope-widget[data-layer="1"][data-head="2"][data-state="ready"]').waitFor();
  assert.equal(await page.locator('.as-layer').inputValue(), '1');
  assert.equal(await page.locator('.as-head').inputValue(), '2');
  const second = await plotPixels(page);
  assert.notEqual(second.hash, first.hash, 'the heatmap did not change with the head');
  assert.equal((await hoverCell(page, i, j)).split(': ').pop(), cells['1/2']);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-1280x720.png') });

  // The selectors too, and a bad request answered with a sentence.
  await page.locator('.as-layer').selectOption('2');
  await page.locator('.attnscope-widget[data-layer="2"][data-head="2"][data-state="ready"]').waitFor();

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.as-save').click()]);
  assert.equal(download.suggestedFilename(), 'attnscope-tiny-demo-layer2-head2.png');
  const png = readFileSync(await download.path());
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);

  const own = requests.filter((u) => !/^(data|blob):/.test(u));
  assert.deepEqual(own, [`${baseUrl}short.html`], 'the page asked for something other than its own file');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a long input on a phone: the heatmap fits the width, every k-th token labelled, nothing wider than the screen', async () => {
  const { context, page, requests, problems } = await open('long.html', { width: 390, height: 844 });
  const canvas = await page.locator('.as-heatmap').boundingBox();
  assert.ok(canvas.x + canvas.width <= 390, `the heatmap ends at ${canvas.x + canvas.width} px on a 390 px screen`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the page scrolls sideways');
  const drawn = await plotPixels(page);
  assert.ok(drawn.opaque > 0.95 * drawn.total);
  // A cell is under a pixel wide here: whichever cell the pointer lands on, its own weight.
  assert.match(await hoverCell(page, 500, 20), /^query (\d+) "t\1" → key (\d+) "t\2": \d\.\d+(e-\d+)?$/);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-390x844-long.png'), fullPage: true });
  await context.close();

  const short = await open('short.html', { width: 390, height: 844 });
  await short.page.screenshot({ path: join(ARTIFACTS, 'widget-390x844.png'), fullPage: true });
  await short.context.close();
  assert.deepEqual(requests.filter((u) => !/^(data|blob):/.test(u)), [`${baseUrl}long.html`]);
  assert.deepEqual([...problems, ...short.problems], []);
});
