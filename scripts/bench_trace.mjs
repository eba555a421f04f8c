// The scale benchmark of issue 34: a synthetic trace of 48 layers × 32 heads
// × 512 tokens in f16 with thumbnails (about 0.8 GB, written once to /tmp,
// never committed) opened in the page as it ships (dist/) in headless
// Chromium: time until the overview is drawn, time to show a selected head,
// and the memory the page and its worker hold. It reports; it asserts nothing.
//
// Run: node scripts/bench_trace.mjs   (after `trunk build --release`)
// Env: DIST (default: <repo>/dist), TRACE (default: /tmp/attnscope-bench-48x32x512.trace.safetensors),
//      ROUNDS (head selections timed, default 9), WRITE_ONLY (only write the trace)

import { closeSync, existsSync, openSync, writeSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(process.env.DIST ?? join(HERE, '..', 'dist'));
const TRACE = process.env.TRACE ?? '/tmp/attnscope-bench-48x32x512.trace.safetensors';
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const [L, H, KV, T, S] = [48, 32, 8, 512, 48];

// f32 → f16 bits for a weight in [0, 1] (round to nearest; subnormals kept).
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function half(x) {
  f32[0] = x;
  const e = (u32[0] >>> 23) & 0xff, m = u32[0] & 0x7fffff;
  if (e < 102) return 0;
  if (e < 113) return Math.round((0x800000 | m) / 2 ** (126 - e));
  return ((e - 112) << 10) + Math.round(m / 8192);
}

// A causal head whose query i weighs key j by exp(−(i − j)/τ) plus a pull to
// the first token, τ and the pull differing from head to head, written layer
// by layer so that only one layer is ever in memory.
function writeTrace(path) {
  const tokens = Array.from({ length: T }, (_, i) => ` w${i}`);
  const description = {
    model: { name: `synthetic ${L}×${H}×${T} (scripts/bench_trace.mjs)`, architecture: 'Synthetic' },
    n_layers: L, n_heads: H, n_kv_heads: KV, mask: { type: 'causal' }, tokens, writer: 'scripts/bench_trace.mjs',
  };
  const layerBytes = H * T * T * 2;
  const header = { __metadata__: { format: 'attnscope-trace', format_version: '1.0', trace: JSON.stringify(description) } };
  for (let l = 0; l < L; l++) header[`layers.${l}.attention`] = { dtype: 'F16', shape: [H, T, T], data_offsets: [l * layerBytes, (l + 1) * layerBytes] };
  header.thumbnails = { dtype: 'U16', shape: [L, H, S, S], data_offsets: [L * layerBytes, L * layerBytes + L * H * S * S * 2] };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const padded = Buffer.concat([json, Buffer.from(' '.repeat((8 - (json.length % 8)) % 8))]);
  const tmp = `${path}.part`;
  const fd = openSync(tmp, 'w');
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(padded.length));
  writeSync(fd, prefix);
  writeSync(fd, padded);
  const thumbs = new Uint16Array(L * H * S * S);
  const layer = new Uint16Array(H * T * T);
  const row = new Float64Array(T);
  const pooled = new Float64Array(S * S);
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const tau = 0.5 + ((h * 7 + l * 3) % 40), pull = ((h + l) % 5) / 5;
      pooled.fill(0);
      for (let i = 0; i < T; i++) {
        let sum = 0;
        for (let j = 0; j <= i; j++) sum += row[j] = Math.exp(-(i - j) / tau) + (j === 0 ? pull * (i + 1) : 0);
        const base = (h * T + i) * T;
        for (let j = 0; j < T; j++) {
          const w = j <= i ? row[j] / sum : 0;
          layer[base + j] = half(w);
          pooled[Math.floor((i * S) / T) * S + Math.floor((j * S) / T)] += w;
        }
      }
      // Each cell averages (T/S)² weights (the mean of the f32 weights, not of their f16 roundings).
      const per = (T / S) ** 2, at = (l * H + h) * S * S;
      for (let c = 0; c < S * S; c++) thumbs[at + c] = Math.round(Math.min(Math.max(pooled[c] / per, 0), 1) * 65535);
    }
    writeSync(fd, Buffer.from(layer.buffer));
  }
  writeSync(fd, Buffer.from(thumbs.buffer));
  closeSync(fd);
  renameSync(tmp, path);
}

if (!existsSync(TRACE)) {
  const t0 = performance.now();
  writeTrace(TRACE);
  console.log(`wrote ${TRACE} (${(statSync(TRACE).size / 1e9).toFixed(3)} GB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`trace: ${TRACE}, ${(statSync(TRACE).size / 1e6).toFixed(0)} MB`);
if (process.env.WRITE_ONLY) process.exit(0);

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${base}?view=overview`);
  await page.locator('#tokens .token').first().waitFor();
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''));
  // The clock starts when the file input reports the file, in the page.
  await page.evaluate(() => document.addEventListener('change', (e) => { if (e.target.id === 'open-trace') window.__opened = performance.now(); }, true));
  await page.locator('#open-trace').setInputFiles(TRACE);
  const overviewMs = await page.waitForFunction(() => {
    const c = document.querySelector('#overview');
    const status = document.querySelector('#status')?.textContent ?? '';
    return window.__opened && /Trace file/.test(status) && c?.dataset.drawMs && performance.now() - window.__opened;
  }, null, { timeout: 120_000, polling: 'raf' }).then((h) => h.jsonValue());
  console.log(`overview of ${L * H} heads drawn after opening: ${overviewMs.toFixed(0)} ms (target ≤ 3000)`);

  // A selected head: from the change of the head picker to the heatmap drawn with its detail.
  await page.locator('#tab-head').click();
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 100);
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [layer, head] = [(r * 17 + 5) % L, (r * 11 + 3) % H];
    await page.locator('select#layer').selectOption(String(layer));
    await page.waitForTimeout(300);
    const ms = await page.evaluate((head) => new Promise((done) => {
      const canvas = document.querySelector('#heatmap');
      const select = document.querySelector('select#head');
      const t0 = performance.now();
      new MutationObserver((_, obs) => { obs.disconnect(); done(performance.now() - t0); })
        .observe(canvas, { attributes: true, attributeFilter: ['data-draw-ms'] });
      select.value = String(head);
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }), head);
    times.push(ms);
  }
  console.log(`a selected head (${T}×${T}) read from the file and drawn: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${ROUNDS} (target ≤ 150); each: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);

  const status = await page.locator('#status').textContent();
  const worker = Number(status.match(/worker memory ([\d.]+) MB/)?.[1] ?? NaN);
  const js = await page.evaluate(() => performance.memory?.usedJSHeapSize / 1e6);
  let total = NaN;
  try {
    const m = await page.evaluate(() => Promise.race([
      performance.measureUserAgentSpecificMemory?.().then((r) => r.bytes / 1e6),
      new Promise((ok) => setTimeout(() => ok(NaN), 60_000)),
    ]));
    total = m ?? NaN;
  } catch { /* not cross-origin isolated */ }
  console.log(`memory: worker wasm ${worker.toFixed(1)} MB, page JS heap ${js.toFixed(1)} MB, page + workers (measureUserAgentSpecificMemory) ${total.toFixed(1)} MB (target ≤ 400)`);
} finally {
  await browser.close();
  server.close();
}
