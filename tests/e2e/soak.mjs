// Soak test (scripts/soak.sh; not part of scripts/test.sh): SOAK_MINUTES
// (default 10) of typing, pasting, switching models (teaching, MiniLM,
// SmolLM2), views, layers and heads in headless Chromium, on the release
// build in dist/. Memory is sampled every minute — the page's and the
// workers' as Chromium attributes it (performance.measureUserAgentSpecificMemory,
// which the cross-origin isolated page may call), and the wasm memory of the
// worker and of SmolLM2's helper as the page's status reports it — and must not grow
// after the first minute beyond noise. Any console error, page error,
// request off the page's origin, or action the page takes over ten seconds
// to answer fails it. Prints the memory curve as JSON; SOAK_LOG=1 also
// prints every action.

import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', '..', 'dist'));
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
// Growth allowed after the first minute: allocators and caches settle in steps.
const NOISE_BYTES = 24 << 20;
const NOISE_RATIO = 0.15;
const VIEWS = ['head', 'grid', 'overview', 'explain', 'catalog', 'worked', 'lesson'];
const TEXTS = [
  'The animal didn\'t cross the street because it was too tired',
  'a fluffy blue creature roamed the verdant forest',
  'Attention is all you need, said the paper, and everyone listened.',
];

const server = await serve(DIST);
const baseUrl = `http://127.0.0.1:${server.address().port}/`;
// Without this flag Chromium answers performance.measureUserAgentSpecificMemory()
// only at its next garbage collection.
const browser = await launch(['--enable-blink-features=ForceEagerMeasureMemory']);
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const problems = [];
page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.context().on('request', (r) => {
  const url = r.url();
  if (!url.startsWith(baseUrl) && !/^(data|blob):/.test(url)) problems.push(`request outside the origin: ${url}`);
});
let rng = 12345;
const pick = (xs) => xs[(rng = (rng * 1103515245 + 12345) % 2147483648) % xs.length];

async function whenComputed() {
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
}

async function chooseModel(model) {
  await page.locator('select#model').selectOption(model);
  const first = { teaching: null, minilm: '[CLS]', smollm2: null }[model];
  if (first) await page.waitForFunction((t) => document.querySelector('#tokens .token')?.textContent === t, first, { timeout: 300_000 });
  await whenComputed();
}

// Memory: what Chromium attributes to the page and to its workers, and the
// workers' wasm memory (which only grows, so it is also their peak). The
// status shows the wasm memory of both workers after a run of a worker
// model; the last figure read is carried over while the teaching model is
// chosen. Chromium's measurement waits for every worker's event loop, and
// SmolLM2's helper never returns to its own (it waits on shared memory), so
// a measurement can take Chromium's full 60 s time-out: it is started at the
// beginning of each minute and read at its end, while the actions go on.
// (Awaited in place, it ate the minute's actions: that was the "stall" of
// an earlier soak.)
let wasmBytes = null;
const readWasm = (status) => {
  const mb = status.match(/worker memory ([\d.]+) MB/)?.[1];
  if (mb) wasmBytes = Math.round(Number(mb) * 1e6);
};
function measure() {
  const began = Date.now();
  return page.evaluate(async () => {
    const m = await performance.measureUserAgentSpecificMemory();
    let pageBytes = 0, workerBytes = 0;
    for (const b of m.breakdown) {
      const worker = b.attribution.some((a) => a.scope && a.scope !== 'Window');
      if (worker) workerBytes += b.bytes; else pageBytes += b.bytes;
    }
    return { total: m.bytes, pageBytes, workerBytes };
  }).then((m) => ({ ...m, measureMs: Date.now() - began }));
}
async function sample(minute, measuring) {
  const measured = await measuring;
  const status = await page.locator('#status').textContent();
  readWasm(status);
  return { minute, actions, ...measured, wasmBytes, status: status.replace(/\s+/g, ' ').trim() };
}

// A page that stops answering would otherwise pass: its memory stays flat.
// Every action is timed with a round trip to the page after it, and the
// slowest is reported; each minute must also get through several actions.
const SLOW_MS = 10_000;
const MIN_ACTIONS_PER_MINUTE = 10;
let actions = 0;
const soakStart = Date.now();
async function activity(until) {
  actions = 0;
  while (Date.now() < until) {
    const what = pick(['type', 'type', 'paste', 'view', 'head', 'layer', 'model']);
    const began = Date.now();
    const label = await page.locator('#status').textContent();
    if (what === 'type') {
      await page.locator('textarea#text').fill('');
      await page.locator('textarea#text').pressSequentially(pick(TEXTS), { delay: 15 });
    } else if (what === 'paste') {
      await page.locator('textarea#text').fill(pick(TEXTS).repeat(40));
    } else if (what === 'view') {
      await page.locator(`#tab-${pick(VIEWS)}`).click();
    } else if (what === 'head' || what === 'layer') {
      const options = await page.locator(`select#${what} option`).evaluateAll((os) => os.map((o) => o.value));
      if (options.length) await page.locator(`select#${what}`).selectOption(pick(options));
    } else {
      await chooseModel(pick(['teaching', 'minilm', 'smollm2']));
    }
    await page.evaluate(() => 0);
    const took = Date.now() - began;
    if (process.env.SOAK_LOG) console.error(`${((Date.now() - soakStart) / 1000).toFixed(1)} s: ${what} ${took} ms | ${(await page.locator('#status').textContent()).trim().slice(0, 90)}`);
    if (took > SLOW_MS) problems.push(`the page took ${(took / 1000).toFixed(1)} s over "${what}" (${label.trim().slice(0, 60)}…)`);
    actions++;
    await page.waitForTimeout(200);
    readWasm(await page.locator('#status').textContent());
  }
}

const curve = [];
try {
  await page.goto(baseUrl);
  await page.locator('#tokens .token').first().waitFor();
  // Warm-up, not timed: every model downloaded and loaded once.
  for (const m of ['minilm', 'smollm2', 'teaching']) await chooseModel(m);
  curve.push(await sample(0, measure()));
  const start = Date.now();
  for (let minute = 1; minute <= MINUTES; minute++) {
    const measuring = measure();
    await activity(start + minute * 60_000);
    curve.push(await sample(minute, measuring));
    console.error(JSON.stringify(curve.at(-1)));
  }
  assert.deepEqual(problems, [], 'the page logged errors, left its origin or stopped answering');
  for (const s of curve.slice(1)) assert.ok(s.actions >= MIN_ACTIONS_PER_MINUTE, `only ${s.actions} actions in minute ${s.minute}: the page stopped answering`);
  const base = curve[1];
  for (const s of curve.slice(2)) {
    for (const key of ['pageBytes', 'workerBytes', 'wasmBytes']) {
      if (base[key] === null) continue;
      const limit = base[key] * (1 + NOISE_RATIO) + NOISE_BYTES;
      assert.ok(s[key] <= limit, `${key} grew from ${base[key]} at minute 1 to ${s[key]} at minute ${s.minute} (limit ${Math.round(limit)})`);
    }
  }
} finally {
  console.log(JSON.stringify({ minutes: MINUTES, curve, problems }, null, 1));
  await browser.close();
  await new Promise((ok) => server.close(ok));
}
