// A manual check, not part of the test command (JupyterLab is too heavy for
// the test venv): examples/attention.ipynb run in a real JupyterLab and a
// real Notebook 7 in headless Chromium; the widget must draw, answer a hover
// and fetch another head from the kernel on a thumbnail's click, with no
// request off the server's origin. Screenshots go to $OUT (default /tmp).
//
// Run: python3 -m venv /tmp/jl && /tmp/jl/bin/pip install jupyterlab notebook ./python
//      JUPYTER_VENV=/tmp/jl node python/jupyter_check.mjs

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { launch } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VENV = process.env.JUPYTER_VENV ?? assert.fail('set JUPYTER_VENV to a venv with jupyterlab, notebook and attnscope');
const OUT = process.env.OUT ?? tmpdir();
const PORT = 8899;

async function check(browser, app, path) {
  const dir = mkdtempSync(join(tmpdir(), 'attnscope-jupyter-'));
  copyFileSync(join(ROOT, 'examples', 'attention.ipynb'), join(dir, 'attention.ipynb'));
  const env = { ...process.env, JUPYTER_CONFIG_DIR: join(dir, 'c'), JUPYTER_DATA_DIR: join(dir, 'd'), JUPYTER_RUNTIME_DIR: join(dir, 'r') };
  const server = spawn(join(VENV, 'bin', 'jupyter'), [app, '--allow-root', '--no-browser', `--port=${PORT}`,
    '--ServerApp.token=t', `--ServerApp.root_dir=${dir}`], { env, stdio: 'ignore' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const off = [];
    page.on('request', (r) => !/^(data|blob):|^http:\/\/(127\.0\.0\.1|localhost):8899\//.test(r.url()) && off.push(r.url()));
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${PORT}${path}?token=t`);
        break;
      } catch (e) {
        if (i > 60) throw e;
        await page.waitForTimeout(1000);
      }
    }
    await page.waitForSelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', { state: 'attached', timeout: 120000 });
    // A fresh JupyterLab may ask which kernel to start: the notebook's own.
    await page.locator('.jp-Dialog button:has-text("Select")').click({ timeout: 5000 }).catch(() => {});
    await page.getByRole('menuitem', { name: 'Run' }).first().click();
    await page.getByText('Run All Cells').first().click();
    await page.waitForSelector('.attnscope-widget[data-state="ready"]', { timeout: 120000 });
    assert.match(await page.locator('.as-title').textContent(), /10 tokens · 2 layers × 4 heads · causal mask/);
    const map = page.locator('.as-heatmap');
    const box = await map.boundingBox();
    const g = await map.evaluate((c) => ({ left: +c.dataset.left, top: +c.dataset.top, cell: +c.dataset.cell }));
    await page.mouse.move(box.x + g.left + 4.5 * g.cell, box.y + g.top + 7.5 * g.cell);
    assert.match(await page.locator('.as-readout').textContent(), /^query 7 " on" → key 4 " is": 0\.\d+$/);
    const ov = page.locator('.as-overview');
    const ob = await ov.boundingBox();
    const og = await ov.evaluate((c) => ({ left: +c.dataset.left, top: +c.dataset.top, step: +c.dataset.step }));
    await page.mouse.click(ob.x + og.left + 2.5 * og.step, ob.y + og.top + 0.5 * og.step);
    await page.waitForSelector('.attnscope-widget[data-layer="0"][data-head="2"][data-state="ready"]', { timeout: 30000 });
    await page.locator('.attnscope-widget').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, `attnscope-${app}.png`) });
    assert.deepEqual(off, [], 'requests off the server');
    console.log(`${app}: the widget drew, answered a hover and fetched head 2 from the kernel; no request off the server`);
  } catch (e) {
    await page.screenshot({ path: join(OUT, `attnscope-${app}-failed.png`) });
    throw e;
  } finally {
    await page.close();
    server.kill();
    await new Promise((ok) => server.once('exit', ok));
    rmSync(dir, { recursive: true, force: true });
  }
}

const browser = await launch();
try {
  await check(browser, 'lab', '/lab/tree/attention.ipynb');
  await check(browser, 'notebook', '/notebooks/attention.ipynb');
} finally {
  await browser.close();
}
