// Benchmark (a report, not a test) of "Open a model…" in headless Chromium
// on the page as it ships (dist/): opening the real Qwen2.5 Coder 0.5B GGUF
// (491 MB) from local files to its first attention, the worker's memory
// with it (its helper's included), and the forward at 16 tokens and one
// token typed at the end of them, of Gemma 3 270M and Qwen2.5 0.5B next to
// SmolLM2's in the same run; then each opened model on a pasted paragraph
// of about a thousand tokens (LONG=0 leaves it out; SENTENCES sets its length): the full run, one word
// typed at its end, and the workers' memory after them. Needs models-extra/ (`python3
// scripts/fetch_models.py --extra`). Prints a table and writes
// tests/e2e/artifacts/bench_open_model.json.
//
// Run: node scripts/bench_open_model.mjs   (after `trunk build --release`)
// Env: DIST, CHROMIUM, MODELS_EXTRA (default <repo>/models-extra), ROUNDS (default 8), WARMUP (default 3).

import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const EXTRA = resolve(process.env.MODELS_EXTRA ?? join(ROOT, 'models-extra'));
const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const WARMUP = Number(process.env.WARMUP ?? 3);
const QWEN = join(EXTRA, 'qwen2.5-0.5b', 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf');
const GEMMA = join(EXTRA, 'gemma3-270m', 'gemma-3-270m-q4_k_m.gguf');
// About 1,000 tokens of varied sentences, as in tests/e2e/bench.mjs
// (SENTENCES=150 makes about 2,100, which each model cuts to its limit).
const subjects = ['The old lighthouse keeper', 'A fluffy blue creature', 'Her younger brother', 'The committee', 'Nobody in the village'];
const verbs = ['watched', 'remembered', 'painted', 'argued about', 'carried'];
const objects = ['the verdant forest', 'a letter from Lisbon', 'the broken clock', 'seven red apples', 'the storm over the harbour'];
const PARAGRAPH = Array.from({ length: Number(process.env.SENTENCES ?? 70) }, (_, i) => `${subjects[i % 5]} ${verbs[Math.floor(i / 5) % 5]} ${objects[(i * 3 + 1) % 5]} on day ${i + 1}.`).join(' ');
const LONG = process.env.LONG !== '0';
const WORDS = 'the quick brown fox jumps over the lazy dog while the cat sleeps nearby today and then'.split(' ');

for (const f of [QWEN, GEMMA]) if (!existsSync(f)) throw new Error(`${f} is missing: run python3 scripts/fetch_models.py --extra`);

const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? 'unknown CPU';
const results = { cpu };
console.log(`CPU: ${cpu} (${cpus().length} cores)`);
const report = (name, value, unit, target) => {
  results[name] = { value: Number(value.toFixed(2)), unit, target };
  console.log(`${name.padEnd(62)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(3)} (target ${target})`);
};

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
mkdirSync(ARTIFACTS, { recursive: true });

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const status = () => page.locator('#status').textContent();
  const tokenCount = async () => Number((await status()).match(/^(\d+) tokens/)?.[1]);
  const computeMs = async () => Number((await status()).match(/computed in ([\d.]+) ms/)[1]);
  // Types `text` and waits for the status of a new run.
  const run = async (text) => {
    const before = await page.locator('#status').getAttribute('data-run');
    await page.locator('textarea#text').fill(text);
    await page.waitForFunction((b) => {
      const s = document.querySelector('#status');
      return s.dataset.run !== b && /computed in/.test(s.textContent);
    }, before, { timeout: 120_000 });
  };
  // The first words of WORDS that make 16 tokens for the model shown.
  const sixteen = async () => {
    for (let n = 10; n <= WORDS.length; n++) {
      const text = WORDS.slice(0, n).join(' ');
      await run(text);
      if ((await tokenCount()) === 16) return text;
    }
    throw new Error('no prefix of the sentence makes 16 tokens');
  };
  // Full forwards at 16 tokens, the first word changed each time.
  const forwards = async () => {
    const text = await sixteen();
    const other = text.replace(/^the/, 'a');
    for (let i = 0; i < WARMUP; i++) await run(i % 2 ? text : other);
    const xs = [];
    for (let i = 0; i < ROUNDS; i++) {
      await run(i % 2 ? text : other);
      if ((await tokenCount()) !== 16) throw new Error(`not 16 tokens: ${await status()}`);
      xs.push(await computeMs());
    }
    return median(xs);
  };
  // One token typed at the end of the 16 (and taken away again: the cache
  // then recomputes the last token), each from the key/value cache.
  const appends = async () => {
    const text = await sixteen();
    const longer = `${text} now`;
    for (let i = 0; i < WARMUP; i++) await run(i % 2 ? text : longer);
    const xs = [];
    for (let i = 0; i < ROUNDS; i++) {
      await run(i % 2 ? text : longer);
      if ((await tokenCount()) !== (i % 2 ? 16 : 17)) throw new Error(`not one token more: ${await status()}`);
      xs.push(await computeMs());
    }
    return median(xs);
  };
  const open = async (file) => {
    await page.goto(`${base}?text=${encodeURIComponent('The capital of France is')}`);
    await page.locator('#tokens .token').first().waitFor();
    await page.waitForTimeout(1500); // the worker's wasm compiled
    const t0 = Date.now();
    await page.locator('#open-files').setInputFiles(file);
    await page.locator('#preflight-load').waitFor({ timeout: 120_000 });
    const preflight = Date.now() - t0;
    // The status shown until then is the teaching model's (computed in the
    // page, without a worker memory): wait for a new run from the worker.
    const before = await page.locator('#status').getAttribute('data-run');
    const t1 = Date.now();
    await page.locator('#preflight-load').click();
    await page.waitForFunction((before) => document.querySelector('select#model').value === 'custom'
      && document.querySelector('#status')?.dataset.run !== before
      && /computed in .* · worker memory/.test(document.querySelector('#status')?.textContent ?? ''), before, { timeout: 300_000 });
    return { preflight, load: Date.now() - t1 };
  };
  // The paragraph, then one word typed at its end: each run's time, its tokens, and the memory after.
  const long = async (name) => {
    if (!LONG) return;
    await run(PARAGRAPH);
    const n = await tokenCount();
    const cut = /cut/.test(await status()) ? ' (the text cut to the limit)' : '';
    report(`${name}, ${n} tokens${cut}: full run in the worker`, await computeMs(), 'ms', '');
    await run(`${PARAGRAPH} And`);
    report(`${name}, one word typed at the end of ${n}`, await computeMs(), 'ms', '');
    report(`${name}: worker memory after ${n} tokens`, Number((await status()).match(/worker memory ([\d.]+) MB/)?.[1]), 'MB', '');
  };

  // SmolLM2 first, as the peer.
  await page.goto(`${base}?model=smollm2&view=head&text=${encodeURIComponent('The capital of France is')}`);
  await page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
  const smol = await forwards();
  report('SmolLM2, 16 tokens: full forward in the worker', smol, 'ms', 'peer');
  const smolAppend = await appends();
  report('SmolLM2, one token typed at the end of 16', smolAppend, 'ms', 'peer');

  const qwen = await open(QWEN);
  report('Qwen2.5 0.5B GGUF: files chosen → summary shown', qwen.preflight, 'ms', '');
  report('Qwen2.5 0.5B GGUF: Load → first attention', qwen.load, 'ms', '');
  report('Qwen2.5 0.5B GGUF: opening to first attention (sum)', qwen.preflight + qwen.load, 'ms', '≤ 3000');
  const shown = await status();
  if (process.env.SHOW_STATUS) console.log(shown);
  const mem = Number(shown.match(/worker memory ([\d.]+) MB/)?.[1]);
  report('Qwen2.5 0.5B: worker wasm memory with the model loaded', mem, 'MB', '≤ 900');
  const q = await forwards();
  report('Qwen2.5 0.5B, 16 tokens: forward in the worker', q, 'ms', '');
  report('Qwen2.5 0.5B / SmolLM2 forward', q / smol, '×', '≤ 4');
  const qa = await appends();
  report('Qwen2.5 0.5B, one token typed at the end of 16', qa, 'ms', '');
  report('Qwen2.5 0.5B / SmolLM2, one token typed', qa / smolAppend, '×', '≤ 2');
  await long('Qwen2.5 0.5B');

  const gemma = await open(GEMMA);
  report('Gemma 3 270M GGUF: opening to first attention (sum)', gemma.preflight + gemma.load, 'ms', '');
  const g = await forwards();
  report('Gemma 3 270M, 16 tokens: forward in the worker', g, 'ms', '');
  report('Gemma 3 270M / SmolLM2 forward', g / smol, '×', '≤ 1.2');
  const ga = await appends();
  report('Gemma 3 270M, one token typed at the end of 16', ga, 'ms', '');
  report('Gemma 3 270M / SmolLM2, one token typed', ga / smolAppend, '×', '≤ 2');
  await long('Gemma 3 270M');
  writeFileSync(join(ARTIFACTS, 'bench_open_model.json'), JSON.stringify(results, null, 2));
} finally {
  await browser.close();
  server.close();
}
