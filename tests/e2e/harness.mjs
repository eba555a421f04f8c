// What the end-to-end test and the browser benchmark share: a static server
// for dist/ and headless Chromium from the system (Debian's package; nothing
// is downloaded).

import { createServer } from 'node:http';
import { createReadStream, mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// Paths the server answers with damaged bytes (same length, one byte
// flipped in the middle), as a flaky network or a bad mirror would.
export const corrupted = new Set();
// Paths the server answers with a megabyte more than the file, or with the
// first half of it and then nothing (a connection that hangs).
export const oversized = new Set();
export const stalled = new Set();

const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

// A static file server for `root` (a folder, or a function naming the folder
// to serve from now: a new deployment), as any static host would be; with
// `isolated` it sends the cross-origin isolation headers.
export function serve(dir, { isolated = true } = {}) {
  const server = createServer(async (req, res) => {
    const root = typeof dir === 'function' ? dir() : dir;
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const { size } = await stat(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': size + (oversized.has(path) ? 1 << 20 : 0),
        // Cross-origin isolation, as scripts/serve.sh sends it: SmolLM2's
        // second thread needs SharedArrayBuffer (src/worker/helper.rs).
        ...(isolated ? ISOLATION : {}),
      });
      if (oversized.has(path) || stalled.has(path)) {
        const bytes = await readFile(file);
        if (oversized.has(path)) {
          res.end(Buffer.concat([bytes, Buffer.alloc(1 << 20)]));
        } else {
          res.write(bytes.subarray(0, bytes.length >> 1));
          res.on('close', () => res.destroy());
        }
        return;
      }
      if (corrupted.has(path)) {
        const bytes = await readFile(file);
        bytes[bytes.length >> 1] ^= 0xff;
        res.end(bytes);
        return;
      }
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
}

export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Playwright already gives each run a fresh profile and --no-sandbox;
    // the rest keeps Chromium from calling home on a closed network.
    args: [
      '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extraArgs,
    ],
  });
}

// The median of `xs` (the mean of the two middle ones for an even count; NaN for none).
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};

// A test file's `before`: dist/ served and Chromium launched.
// Types `text` into the page's text box and resolves with the time from the
// input event to the heatmap redrawn after the run's new status (a new run,
// not new text: two runs can read the same to 0.1 ms): every view then
// shows the new text.
export const keystroke = (page, text) => page.evaluate((text) => new Promise((done) => {
  const box = document.querySelector('#text');
  const status = document.querySelector('#status');
  const before = status.dataset.run;
  let statusChanged = false;
  const t0 = performance.now();
  const obs = new MutationObserver(() => {
    if (!statusChanged && status.dataset.run !== before && /computed in/.test(status.textContent)) statusChanged = true;
  });
  const drawn = new MutationObserver(() => {
    if (statusChanged) {
      obs.disconnect();
      drawn.disconnect();
      requestAnimationFrame(() => done(performance.now() - t0));
    }
  });
  obs.observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
  drawn.observe(document.querySelector('#heatmap'), { attributes: true });
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
}), text);

// `args`: more Chromium switches (the Speech test's fake microphone).
export async function start(dist, artifacts, args = []) {
  await stat(join(dist, 'index.html')).catch(() => {
    throw new Error(`no ${dist}/index.html: run \`trunk build --release\` first`);
  });
  mkdirSync(artifacts, { recursive: true });
  const server = await serve(dist);
  return { server, baseUrl: `http://127.0.0.1:${server.address().port}/`, browser: await launch(args) };
}

// A test file's `after`: even when an assertion failed, the browser and the server go away.
export async function stop(server, browser) {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
}

// What a test fails on, collected as sentences: console errors, page errors
// and HTTP errors; with `failedRequests`, requests that failed (ERR_ABORTED
// is the browser cancelling a download itself, because the test navigated
// or closed the page; a broken build shows up as an HTTP or console error
// instead); with `origin`, any request off it (the page must work offline
// from its own origin: no CDN, font or analytics) in `context`. `origin` may
// be a function, read at each request, for a test that serves the page twice.
export function watch(page, { failedRequests = false, origin = null, context = page.context() } = {}) {
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  if (failedRequests) {
    page.on('requestfailed', (r) => {
      const why = r.failure()?.errorText;
      if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} (${why})`);
    });
  }
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  if (origin) {
    context.on('request', (r) => {
      const url = r.url();
      const allowed = typeof origin === 'function' ? origin() : origin;
      if (!url.startsWith(allowed) && !/^(data|blob):/.test(url)) problems.push(`request outside the origin: ${url}`);
    });
  }
  return problems;
}

// A head's CSV (export::head_csv): the key tokens, then a row of weights per query.
export function parseCsv(text) {
  const lines = text.trim().split('\n');
  const tokens = [...lines[0].matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]);
  const rows = lines.slice(1).map((line) => line.match(/^"(?:[^"]|"")*",(.*)$/)[1].split(',').map(Number));
  return { tokens, rows };
}

// The head the page shows, exported as CSV (#export-csv), and the debug
// CLI's CSV of `cliArgs` (`attention … --layer L --head H`), both parsed.
export async function shownAndCliCsv(page, root, cliArgs) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-csv').click()]);
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  const cli = execFileSync(join(root, 'target', 'debug', 'attnscope'), [...cliArgs, '--csv', '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { shown: parseCsv(Buffer.concat(chunks).toString()), cli: parseCsv(cli) };
}

// Lets the page lay itself out and redraw: ResizeObservers, effects, frames.
export async function settled(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 60)))));
}

// What sticks out: the page's scroll width, every element whose visible box
// (its box cut by the ancestors that clip it) passes the viewport's right
// edge, and every drawn canvas larger than the box it is drawn in.
export async function overflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      let right = r.right;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.clip !== 'auto') right = Math.min(right, a.getBoundingClientRect().right);
      }
      if (right > width + 1 && !el.closest('.sr-only')) out.push(`${name(el)} reaches ${Math.round(right)} px of ${width}`);
    }
    for (const c of document.querySelectorAll('.canvas-box canvas')) {
      if (c.width === 0) continue;
      const box = c.closest('.canvas-box').getBoundingClientRect();
      const r = c.getBoundingClientRect();
      if (r.width > box.width + 1 || r.height > box.height + 1) out.push(`canvas#${c.id} is ${Math.round(r.width)}×${Math.round(r.height)} in a box of ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return out.slice(0, 12);
  });
}

