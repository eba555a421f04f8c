// Benchmark (a report, not a test) of writing in the page (issue 56) in
// headless Chromium on the page as it ships (dist/): SmolLM2 writes 64
// greedy tokens after benches/generate.rs's prompt (its native figure's
// peer; after "The capital of France is" SmolLM2 ends its text at 30) with
// the heatmap shown, the heatmap and the next-token distribution redrawn at
// every token; the figure is tokens per second from the click on Write to
// the write card's `data-state` "done" with `data-steps` 64 (the last token
// drawn; a text ended sooner by an end-of-text token counts its steps). With
// models-extra/ (`python3 scripts/fetch_models.py --extra`) Qwen2.5 0.5B,
// opened from its GGUF as "Open a model…" does, writes the same way.
// Targets: SmolLM2 ≥ 40 tokens/s, Qwen2.5 0.5B ≥ 12 tokens/s. Prints a
// table and writes tests/e2e/artifacts/bench_write.json.
//
// Run: node scripts/bench_write.mjs   (after `trunk build --release`)
// Env: DIST, CHROMIUM, MODELS_EXTRA (default <repo>/models-extra), ROUNDS
// (default 3), WARMUP (default 1), TOKENS (default 64), QWEN=0 leaves Qwen out.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const EXTRA = resolve(process.env.MODELS_EXTRA ?? join(ROOT, 'models-extra'));
const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 1);
const TOKENS = Number(process.env.TOKENS ?? 64);
const PROMPT = 'Once upon a time, there was a little girl';
const QWEN = join(EXTRA, 'qwen2.5-0.5b', 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf');
const WITH_QWEN = process.env.QWEN !== '0' && existsSync(QWEN);

if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? 'unknown CPU';
const results = { cpu, tokens: TOKENS, rounds: ROUNDS };
console.log(`CPU: ${cpu} (${cpus().length} cores); ${TOKENS} greedy tokens after ${JSON.stringify(PROMPT)}, heatmap shown`);
const report = (name, value, unit, target = '') => {
  results[name] = { value: Number(value.toFixed(2)), unit, target };
  console.log(`${name.padEnd(64)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(8)} ${target && `(target ${target})`}`);
};

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
mkdirSync(ARTIFACTS, { recursive: true });

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const status = () => page.locator('#status').textContent();
  const memory = async () => Number((await status()).match(/worker memory ([\d.]+) MB/)?.[1]);
  // Puts `text` in the text box and waits for the worker's run of it.
  const type = async (text) => {
    const before = await page.locator('#status').getAttribute('data-run');
    await page.locator('textarea#text').fill(text);
    await page.waitForFunction((b) => {
      const s = document.querySelector('#status');
      return s.dataset.run !== b && /computed in/.test(s.textContent);
    }, before, { timeout: 120_000 });
  };
  // The prompt anew (writing leaves its text in the box, or not: a word
  // typed first makes sure the prompt is a new run), then greedy settings.
  const ready = async () => {
    await type('Hello');
    await type(PROMPT);
    await page.locator('#write-mode').selectOption('greedy');
    const count = page.locator('#write-count');
    await count.fill(String(TOKENS));
    await count.dispatchEvent('change');
  };
  // One generation: Write clicked in the page, then the write card watched
  // until it says `done` with TOKENS steps, after having said `writing`
  // (so a card left done by the previous round does not count). Resolves
  // with the time, each step's time and the heatmap's redraws meanwhile.
  const write = () => page.evaluate((tokens) => new Promise((done, fail) => {
    const card = document.querySelector('#write-card');
    const heatmap = document.querySelector('#heatmap');
    if (!card || !heatmap) return fail(new Error(`no ${card ? '#heatmap' : '#write-card'} in the page`));
    let writing = false;
    let redraws = 0;
    const stepsAt = [];
    // The worker's own time for each step, as the status line says it.
    const computed = [];
    const status = document.querySelector('#status');
    const ran = new MutationObserver(() => {
      const ms = Number(status.textContent.match(/computed in ([\d.]+) ms/)?.[1]);
      if (writing && status.dataset.run !== lastRun && Number.isFinite(ms)) computed.push(ms);
      lastRun = status.dataset.run;
    });
    let lastRun = status.dataset.run;
    const t0 = performance.now();
    const timer = setTimeout(() => finish(new Error(`not done after 300 s: ${card.dataset.state}, ${card.dataset.steps} steps`)), 300_000);
    const seen = new MutationObserver(() => {
      const { state, steps } = card.dataset;
      if (state === 'writing') writing = true;
      const n = Number(steps);
      if (writing && n > stepsAt.length && n <= tokens) stepsAt.push(performance.now());
      if (writing && state === 'done') {
        if (n === 0) return finish(new Error('done without a token written'));
        // The last token's drawing lands in the next frame.
        requestAnimationFrame(() => finish(null, performance.now() - t0, n));
      }
    });
    const drawn = new MutationObserver(() => { if (writing) redraws += 1; });
    function finish(error, ms, steps) {
      clearTimeout(timer);
      seen.disconnect();
      drawn.disconnect();
      ran.disconnect();
      if (error) return fail(error);
      const gaps = stepsAt.slice(1).map((t, i) => t - stepsAt[i]);
      done({ ms, steps, first: stepsAt[0] - t0, gaps, redraws, computed });
    }
    seen.observe(card, { attributes: true, attributeFilter: ['data-state', 'data-steps'] });
    drawn.observe(heatmap, { attributes: true, childList: true, subtree: true });
    ran.observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
    document.querySelector('#write-go').click();
  }), TOKENS);
  // WARMUP generations not counted, then ROUNDS timed; reported by their median.
  const measure = async (name, target) => {
    await ready();
    const before = await memory();
    for (let i = 0; i < WARMUP; i++) {
      await write();
      await ready();
    }
    const runs = [];
    for (let i = 0; i < ROUNDS; i++) {
      runs.push(await write());
      if (i + 1 < ROUNDS) await ready();
    }
    const after = await memory();
    const steps = runs[0].steps;
    if (runs.some((r) => r.steps !== steps)) throw new Error(`${name}: the runs wrote ${runs.map((r) => r.steps)} tokens`);
    if (steps < TOKENS) console.log(`${name} ends its text after ${steps} tokens (an end-of-text token): the figures are of those`);
    report(`${name}: ${steps} greedy tokens written, heatmap shown`, median(runs.map((r) => (r.steps * 1000) / r.ms)), 'tokens/s', target);
    report(`${name}: the click to the first token written`, median(runs.map((r) => r.first)), 'ms');
    report(`${name}: one step (median time between tokens)`, median(runs.flatMap((r) => r.gaps)), 'ms');
    report(`${name}: the worker's compute per step (the status line's)`, median(runs.flatMap((r) => r.computed)), 'ms');
    report(`${name}: heatmap redraws per token written`, median(runs.map((r) => r.redraws / r.steps)), '×');
    if (before && after) report(`${name}: worker memory after the prompt → after ${steps} tokens`, after - before, 'MB more');
    const bars = await page.locator('#write-bars > *').count();
    if (bars === 0) throw new Error(`${name}: the distribution (#write-bars) is empty after writing`);
  };

  await page.goto(`${base}?model=smollm2&view=head&text=${encodeURIComponent(PROMPT)}`);
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
  await page.locator('#write-go').waitFor({ timeout: 60_000 });
  await measure('SmolLM2-135M', '≥ 40');

  if (WITH_QWEN) {
    // Opened from its GGUF as a visitor does (scripts/bench_open_model.mjs).
    await page.locator('#open-files').setInputFiles(QWEN);
    await page.locator('#preflight-load').waitFor({ timeout: 120_000 });
    const before = await page.locator('#status').getAttribute('data-run');
    await page.locator('#preflight-load').click();
    await page.waitForFunction((before) => document.querySelector('select#model').value === 'custom'
      && document.querySelector('#status')?.dataset.run !== before
      && /computed in .* · worker memory/.test(document.querySelector('#status')?.textContent ?? ''), before, { timeout: 300_000 });
    await measure('Qwen2.5 0.5B (GGUF opened)', '≥ 12');
  } else {
    console.log(`Qwen2.5 0.5B left out: ${process.env.QWEN === '0' ? 'QWEN=0' : `no ${QWEN} (python3 scripts/fetch_models.py --extra)`}`);
  }
  writeFileSync(join(ARTIFACTS, 'bench_write.json'), JSON.stringify(results, null, 2));
} finally {
  await browser.close();
  server.close();
}
