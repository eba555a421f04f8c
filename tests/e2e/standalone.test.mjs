// attnscope.to_html: the attnscope page and a trace in one HTML file (the
// page's wasm and the trace's bytes inlined), opened in headless Chromium
// from a plain static server: the page opens the trace, draws a head with
// the file's weights, reads another head's on demand, shows a vision trace's
// Image tab, fits a phone, and asks for nothing but its own file.
//
// Needs the Python package's test venv (scripts/test.sh makes it:
// .tools/python-venv, or $PYTHON_TEST_VENV) and the page's files in the
// package (the web build copies them: python/src/attnscope/static/page/).
// Run: node --test --test-reporter=spec tests/e2e/standalone.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { launch, serve, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ARTIFACTS = join(HERE, 'artifacts');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'tracefile');
const VENV = process.env.PYTHON_TEST_VENV ?? join(ROOT, '.tools', 'python-venv');
const PYTHON = join(VENV, 'bin', 'python');

// Two committed traces exported with to_html; prints the weights the page must show.
const MAKE = String.raw`
import json, sys
import attnscope
out, fixtures = sys.argv[1], sys.argv[2]
text = f"{fixtures}/tiny_llama.safetensors"
attnscope.to_html(text, f"{out}/text.html", layer=1, head=2)
attnscope.to_html(f"{fixtures}/tiny_vit.safetensors", f"{out}/vision.html", view="image")
t = attnscope.TraceFile(text)
print(json.dumps({"tokens": t.tokens, "layers": t.n_layers, "heads": t.n_heads,
                  "a": t.head(1, 2).tolist(), "b": t.head(0, 1).tolist()}))
`;

let server, browser, baseUrl, scratch, expected;

before(async () => {
  assert.ok(existsSync(PYTHON), `no Python test venv at ${VENV}: scripts/test.sh makes it (scripts/lib/install.sh ensure_python_test_deps)`);
  scratch = mkdtempSync(join(tmpdir(), 'attnscope-standalone-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const out = execFileSync(PYTHON, ['-c', MAKE, scratch, FIXTURES], {
    encoding: 'utf8',
    // The package as it is in this checkout (with the page the build copied into it).
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
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const problems = watch(page, { failedRequests: true });
  await page.goto(baseUrl + file);
  await page.locator('#trace-info').filter({ hasText: /layers ×/ }).waitFor({ timeout: 60_000 });
  return { context, page, requests, problems };
}

const table = (page) => page.locator('#weights-table tbody tr').evaluateAll((rows) =>
  rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.textContent))));

// Waits until the weights table shows `want` (3 decimals, as the page prints them).
async function shows(page, want, what) {
  for (let tries = 0; ; tries++) {
    const shown = await table(page);
    if (shown.length === want.length && want.every((row, i) => row.every((v, j) => Math.abs(shown[i][j] - v) <= 5e-4 + 1e-9))) return;
    if (tries > 150) assert.fail(`${what}: the page shows ${JSON.stringify(shown.at(-1))}, the file ${JSON.stringify(want.at(-1))}`);
    await page.waitForTimeout(100);
  }
}

test('a text trace in one HTML file: the trace opens at the head asked for, another head is read on demand, no request but the file', async () => {
  const { context, page, requests, problems } = await open('text.html', { width: 1280, height: 720 });
  const { tokens, layers, heads } = expected;
  assert.match(await page.locator('#trace-info').textContent(), new RegExp(`${layers} layers × ${heads} heads.* · ${tokens.length} tokens · tiny_llama\\.safetensors`));
  assert.equal(await page.locator('#tokens .token').count(), tokens.length);
  // Only the trace: no model to choose, no file to open, no class to hold.
  assert.equal(await page.locator('select#model, #open-trace, #open-model').count(), 0);
  assert.equal(await page.locator('select#layer').inputValue(), '1');
  assert.equal(await page.locator('select#head').inputValue(), '2');
  await shows(page, expected.a, 'layer 1, head 2');
  await page.locator('select#layer').selectOption('0');
  await page.locator('select#head').selectOption('1');
  await shows(page, expected.b, 'layer 0, head 1');
  await page.locator('#tab-overview').click();
  await page.locator('#overview').waitFor();
  // The catalog compares every head with every other, read from the trace.
  await page.locator('#tab-catalog').click();
  await page.locator('#catalog').waitFor();
  await page.locator('#similar-map').waitFor({ timeout: 30_000 });
  assert.equal((await page.locator('#error').textContent()).trim(), '');
  await page.locator('#present').check();
  await page.screenshot({ path: join(ARTIFACTS, 'standalone-1280x720-presentation.png') });
  assert.deepEqual(requests.filter((u) => !/^(data|blob):/.test(u)), [`${baseUrl}text.html`], 'the page asked for something other than its own file');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a vision trace in one HTML file: the Image tab draws the overlay; on a phone nothing is wider than the screen', async () => {
  for (const [w, h] of [[390, 844], [1920, 1080]]) {
    const { context, page, requests, problems } = await open('vision.html', { width: w, height: h });
    await page.locator('#image-overlay').waitFor();
    assert.equal(await page.locator('#tab-image').getAttribute('aria-selected'), 'true');
    await page.waitForFunction(() => document.querySelector('#image-overlay')?.dataset.rows);
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, w), 'the page scrolls sideways');
    await page.screenshot({ path: join(ARTIFACTS, `standalone-vision-${w}x${h}.png`) });
    // The heatmap labels each patch with its square of the picture: token 1 is patch (0, 0).
    await page.locator('#tab-head').click();
    await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.cell);
    const [thumb, plain] = await page.locator('#heatmap').evaluate((c) => {
      const dpr = c.width / c.getBoundingClientRect().width;
      const { left, top, cell, labelPx } = c.dataset;
      const y = Math.floor((Number(top) + 1.5 * Number(cell)) * dpr);
      const at = (x) => [...c.getContext('2d').getImageData(Math.floor(x * dpr), y, 1, 1).data];
      // Just left of the row's cells, where the picture stands in for "0,0"; and the far left edge.
      return [at(Number(left) - 0.4 * Number(labelPx) - Number(labelPx)), at(1)];
    });
    assert.notDeepEqual(thumb, plain, 'no picture beside the row of patch (0, 0)');
    await page.screenshot({ path: join(ARTIFACTS, `standalone-vision-heatmap-${w}x${h}.png`) });
    assert.deepEqual(requests.filter((u) => !/^(data|blob):/.test(u)), [`${baseUrl}vision.html`]);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
