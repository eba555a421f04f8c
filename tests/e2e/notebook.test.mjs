// The notebook viewer in a real JupyterLab (and Notebook 7 and marimo): a notebook calls attnscope.show
// on a committed trace (SmolLM2, written by the Python package) and the
// attnscope page itself renders inside the output cell, its views drawn from
// bytes the kernel sends as they are asked for; a path that does not exist
// and a damaged file each get a sentence in their cell. Every request to
// another host is refused, and the page's frame makes none. "Open in a new
// tab" opens the same page as one self-contained file.
//
// Needs $JUPYTER_VENV: a venv with JupyterLab, Notebook 7, marimo and attnscope installed from
// the built wheel (scripts/test.sh makes it: ensure_jupyter, then the wheel).
// Run: JUPYTER_VENV=.tools/jupyter-venv node --test --test-reporter=spec tests/e2e/notebook.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { launch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ARTIFACTS = join(HERE, 'artifacts');
const TRACE = join(ROOT, 'tests', 'fixtures', 'tracefile', 'smollm2_capital.safetensors');
const VENV = process.env.JUPYTER_VENV;
const TOKEN = 'attnscope-test';

// matplotlib's viridis at 0, 0.1, …, 1, as the page colours a weight (src/draw/colormap.rs).
const VIRIDIS = [
  [68, 1, 84], [72, 36, 117], [65, 68, 135], [53, 95, 141], [42, 120, 142], [33, 145, 140],
  [34, 168, 132], [68, 191, 112], [122, 209, 81], [189, 223, 38], [253, 231, 37],
];
function viridis(t) {
  const x = Math.min(Math.max(t, 0), 1) * 10;
  const i = Math.min(Math.floor(x), 9);
  return VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * (x - i)));
}

const cell = (source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source });
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
  cells: [
    cell('import attnscope\nattnscope.show("smollm2_capital.safetensors", layer=2, head=4)'),
    cell('attnscope.show("not-there.safetensors")'),
    cell('attnscope.show("damaged.safetensors")'),
  ],
};

// The same call in a marimo notebook, through marimo's anywidget support.
const MARIMO = `import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import attnscope

    viewer = mo.ui.anywidget(attnscope.show("smollm2_capital.safetensors", layer=2, head=4))
    viewer
    return


if __name__ == "__main__":
    app.run()
`;

let dir, browser, expected;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
}

before(async () => {
  assert.ok(VENV && existsSync(join(VENV, 'bin', 'jupyter')),
    'set JUPYTER_VENV to a venv with JupyterLab and the attnscope wheel (scripts/test.sh makes it)');
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'attnscope-jupyter-'));
  copyFileSync(TRACE, join(dir, 'smollm2_capital.safetensors'));
  const bytes = readFileSync(TRACE);
  writeFileSync(join(dir, 'damaged.safetensors'), bytes.subarray(0, 40));
  writeFileSync(join(dir, 'attnscope.ipynb'), JSON.stringify(NOTEBOOK));
  writeFileSync(join(dir, 'attnscope_marimo.py'), MARIMO);
  // What the page must show: two heads' weights as the installed package reads them.
  expected = JSON.parse(execFileSync(join(VENV, 'bin', 'python'), ['-c', `
import json, attnscope
t = attnscope.TraceFile("${TRACE}")
print(json.dumps({"tokens": t.tokens, "a": t.head(2, 4).tolist(), "b": t.head(5, 1).tolist()}))`], { encoding: 'utf8' }));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// `jupyter lab` or `jupyter notebook` (Notebook 7) on the notebook's folder, on a free port.
async function startJupyter(app) {
  const port = await freePort();
  const env = { ...process.env, JUPYTER_CONFIG_DIR: join(dir, '.c'), JUPYTER_DATA_DIR: join(dir, '.d'), JUPYTER_RUNTIME_DIR: join(dir, '.r'), IPYTHONDIR: join(dir, '.i') };
  const server = spawn(join(VENV, 'bin', 'jupyter'), [app, '--allow-root', '--no-browser', `--port=${port}`, '--ip=127.0.0.1',
    `--ServerApp.token=${TOKEN}`, `--ServerApp.root_dir=${dir}`, '--LabApp.news_url=None', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
  { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  for (const s of [server.stdout, server.stderr]) s.on('data', (d) => log.push(d.toString()));
  const stop = async () => {
    server.kill();
    await new Promise((ok) => (server.exitCode !== null ? ok() : server.once('exit', ok)));
  };
  return { port, log, stop };
}

// The notebook opened in `app` at `path` and run, every request to another host refused
// (and kept in `refused`, with the frame that made it); the page's frame once it is ready.
async function runNotebook(app, path, viewport) {
  const jupyter = await startJupyter(app);
  const context = await browser.newContext({ viewport });
  const refused = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`http://127.0.0.1:${jupyter.port}/`)) return route.continue();
    refused.push({ url, frame: route.request().frame()?.url() });
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => pageError(e, errors));
  const close = async () => {
    await context.close();
    await jupyter.stop();
  };
  try {
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${jupyter.port}${path}?token=${TOKEN}`);
        break;
      } catch (e) {
        if (i > 90) throw new Error(`${app} did not start: ${e.message}\n${jupyter.log.join('')}`);
        await page.waitForTimeout(1000);
      }
    }
    await page.waitForSelector('.jp-Notebook-ExecutionIndicator[data-status="idle"], .jp-Notebook', { state: 'attached', timeout: 120_000 });
    // A fresh Jupyter may ask which kernel to start: the notebook's own.
    await page.locator('.jp-Dialog button:has-text("Select")').click({ timeout: 3000 }).catch(() => {});
    await page.getByRole('menuitem', { name: 'Run' }).first().click();
    const t0 = Date.now();
    await page.getByText('Run All Cells').first().click();
    // Jupyter's own question about its news, out of the screenshots.
    await page.locator('.jp-Notification-Toast-Close, .jp-toast-button:has-text("No")').first().click({ timeout: 3000 }).catch(() => {});
    await page.locator('.attnscope-notebook[data-state="ready"]').waitFor({ timeout: 120_000 });
    const frame = page.frameLocator('iframe.attnscope-frame').first();
    await frame.locator('#trace-info').filter({ hasText: /30 layers × 9 heads over 3 key\/value heads/ }).waitFor({ timeout: 120_000 });
    console.log(`${app}: the page showed the trace ${((Date.now() - t0) / 1000).toFixed(1)} s after Run All Cells (kernel start, the page's files by message, the trace's header)`);
    return { context, page, frame, frameEl: page.locator('iframe.attnscope-frame').first(), refused, errors, close };
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, `notebook-${app}-failed.png`) }).catch(() => {});
    await close();
    throw e;
  }
}

// An uncaught error on the page, unless it is thrown by the notebook app's own bundle (Notebook
// 7's settings throw one on a fresh profile), which is logged instead.
function pageError(e, errors) {
  const where = (e.stack || '').split('\n').slice(1, 3).join(' | ');
  if (/\/static\/(notebook|lab)\//.test(where)) console.log(`the notebook app's own error: ${e.message} @ ${where}`);
  else errors.push(`${e.message} @ ${where}`);
}

// Requests to other hosts made by the attnscope page (its frame, its blob: documents).
const fromPage = (refused, mine) => refused.filter((r) => mine.has(r.frame) || r.frame?.startsWith('blob:') || r.frame === 'about:srcdoc');

// The frame's weights table: one row of numbers per query.
const table = (frame) => frame.locator('#weights-table tbody tr').evaluateAll((rows) =>
  rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.textContent))));

// The colour near the top-left corner of cell (i, j) of the frame's heatmap (away from a printed number).
const heatmapColour = (frame, i, j) => frame.locator('#heatmap').evaluate((c, [i, j]) => {
  const dpr = c.width / c.getBoundingClientRect().width;
  const { left, top, cell } = c.dataset;
  const x = Math.floor((Number(left) + (j + 0.15) * Number(cell)) * dpr);
  const y = Math.floor((Number(top) + (i + 0.15) * Number(cell)) * dpr);
  return [...c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3)];
}, [i, j]);

// A heatmap cell's colour is its weight's (the last query's row, key 1).
async function sameColour(frame, a) {
  const [qi, kj] = [a.length - 1, 1];
  const want = viridis(a[qi][kj]);
  const got = await heatmapColour(frame, qi, kj);
  assert.ok(got.every((c, k) => Math.abs(c - want[k]) <= 2), `cell (${qi}, ${kj}) is ${got}, the weight ${a[qi][kj]} is ${want}`);
}

async function sameWeights(frame, want, what) {
  await frame.locator('#weights-table tbody tr').nth(want.length - 1).waitFor({ state: 'attached' });
  await assert.doesNotReject(async () => {
    for (let tries = 0; ; tries++) {
      const shown = await table(frame);
      const close = shown.length === want.length && want.every((row, i) => row.every((v, j) => Math.abs(shown[i][j] - v) <= 5e-4 + 1e-9));
      if (close) return;
      if (tries > 100) throw new Error(`${what}: the page shows ${JSON.stringify(shown[want.length - 1])} for ${JSON.stringify(want[want.length - 1])}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
  });
}

test('JupyterLab: attnscope.show renders the attnscope page in the cell, its views read from the kernel, nothing from another host', { timeout: 300_000 }, async () => {
  const { context, page, frame, frameEl, refused, errors, close } = await runNotebook('lab', '/lab/tree/attnscope.ipynb', { width: 1920, height: 1080 });
  const mine = new Set();
  try {
    // The two bad paths: a sentence in their cells, no frame.
    const outputs = page.locator('.attnscope-notebook');
    await outputs.nth(2).waitFor({ timeout: 120_000 });
    assert.match(await outputs.nth(1).locator('.attnscope-error').textContent(), /attnscope cannot show this trace: cannot read not-there\.safetensors/);
    assert.match(await outputs.nth(2).locator('.attnscope-error').textContent(), /damaged\.safetensors is cut short/);
    assert.equal(await outputs.nth(1).locator('iframe').count(), 0);

    // The page itself in the first cell, at the head the call asked for.
    mine.add(await frameEl.evaluate((f) => f.contentWindow.location.href));
    const n = expected.tokens.length;
    assert.equal(await frame.locator('#tokens .token').count(), n);
    assert.equal(await frame.locator('select#layer').inputValue(), '2');
    assert.equal(await frame.locator('select#head').inputValue(), '4');
    // The model is the trace and only the trace: no picker of models that would need downloads.
    assert.equal(await frame.locator('select#model').count(), 0);
    await sameWeights(frame, expected.a, 'layer 2, head 4');
    await sameColour(frame, expected.a);
    await page.screenshot({ path: join(ARTIFACTS, 'notebook-1920x1080.png') });

    // Another head: its bytes come from the kernel now.
    await frame.locator('select#layer').selectOption('5');
    await frame.locator('select#head').selectOption('1');
    await sameWeights(frame, expected.b, 'layer 5, head 1');

    // The other views a trace supports draw in the cell too, the catalog's similar heads included.
    for (const [tab, drawn] of [['grid', '#stage canvas'], ['overview', '#overview'], ['catalog', '#similar-map']]) {
      await frame.locator(`#tab-${tab}`).click();
      await frame.locator(drawn).first().waitFor({ timeout: 30_000 });
    }
    assert.equal((await frame.locator('#error').textContent()).trim(), '');

    // On a projector, in presentation mode.
    await page.setViewportSize({ width: 1280, height: 720 });
    await frame.locator('#tab-head').click();
    await frame.locator('#present').check();
    await frame.locator('#heatmap').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'notebook-1280x720-presentation.png') });

    // "Open in a new tab": the same page as one self-contained file.
    const [tab] = await Promise.all([context.waitForEvent('page'), page.locator('.attnscope-open').first().click()]);
    await tab.waitForLoadState();
    await tab.locator('#trace-info').filter({ hasText: /30 layers × 9 heads/ }).waitFor({ timeout: 60_000 });
    mine.add(tab.url());
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.screenshot({ path: join(ARTIFACTS, 'notebook-new-tab-390x844.png') });

    assert.deepEqual(fromPage(refused, mine), [], 'the attnscope page asked another host for something');
    assert.deepEqual(errors, []);
    if (refused.length) console.log(`JupyterLab's own requests refused: ${refused.map((r) => r.url).join(', ')}`);
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, 'notebook-failed.png') }).catch(() => {});
    throw e;
  } finally {
    await close();
  }
});

test('Notebook 7: the same page in the cell, its numbers and colours from the kernel', { timeout: 300_000 }, async () => {
  const { page, frame, frameEl, refused, errors, close } = await runNotebook('notebook', '/notebooks/attnscope.ipynb', { width: 1280, height: 900 });
  try {
    assert.equal(await frame.locator('select#layer').inputValue(), '2');
    await sameWeights(frame, expected.a, 'layer 2, head 4');
    await sameColour(frame, expected.a);
    await page.locator('.attnscope-notebook .attnscope-error').nth(1).waitFor();
    await frameEl.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'notebook7-1280x900.png') });
    const mine = new Set([await frameEl.evaluate((f) => f.contentWindow.location.href)]);
    assert.deepEqual(fromPage(refused, mine), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('marimo: the same page through mo.ui.anywidget, its numbers and colours from the kernel', { timeout: 240_000 }, async () => {
  const port = await freePort();
  const server = spawn(join(VENV, 'bin', 'marimo'), ['run', 'attnscope_marimo.py', '--headless', '--host', '127.0.0.1', `--port=${port}`],
    { cwd: dir, env: { ...process.env, HOME: join(dir, '.home') }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  for (const s of [server.stdout, server.stderr]) s.on('data', (d) => log.push(d.toString()));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const refused = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`http://127.0.0.1:${port}/`)) return route.continue();
    refused.push({ url, frame: route.request().frame()?.url() });
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => pageError(e, errors));
  try {
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/`);
        break;
      } catch (e) {
        if (i > 60) throw new Error(`marimo did not start: ${e.message}\n${log.join('')}`);
        await page.waitForTimeout(1000);
      }
    }
    const frame = page.frameLocator('iframe.attnscope-frame').first();
    await frame.locator('#trace-info').filter({ hasText: /30 layers × 9 heads/ }).waitFor({ timeout: 120_000 });
    assert.equal(await frame.locator('select#layer').inputValue(), '2');
    await sameWeights(frame, expected.a, 'layer 2, head 4');
    await sameColour(frame, expected.a);
    await page.screenshot({ path: join(ARTIFACTS, 'notebook-marimo-1280x900.png') });
    const frameEl = page.locator('iframe.attnscope-frame').first();
    const mine = new Set([await frameEl.evaluate((f) => f.contentWindow.location.href)]);
    assert.deepEqual(fromPage(refused, mine), []);
    assert.deepEqual(errors, []);
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, 'notebook-marimo-failed.png') }).catch(() => {});
    throw e;
  } finally {
    await context.close();
    server.kill();
    await new Promise((ok) => (server.exitCode !== null ? ok() : server.once('exit', ok)));
  }
});
