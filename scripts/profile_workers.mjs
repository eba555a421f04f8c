// Where the workers' time goes: the page's worker and its helper profiled
// (the DevTools protocol's sampling Profiler, on each worker target) while
// the page computes a text again and again, then each worker's functions by
// their own time and by the time spent under them. A tool for speed work,
// not a test: it prints and asserts nothing.
//
// The shipped wasm has lost its function names to wasm-opt. Build with
// them kept, into another folder (the same code; only the names differ):
//   sed 's/data-wasm-opt-params="/data-wasm-opt-params="-g /' index.html > index-names.html
//   trunk build --release --dist /tmp/dist-names index-names.html
// then: DIST=/tmp/dist-names node scripts/profile_workers.mjs
//
// Env: DIST (default <repo>/dist), MODEL (smollm2 or minilm, default smollm2),
// GGUF (a .gguf file to open instead of a built-in model), WORK (what is
// computed: `full` a 16-token text edited at its start, `append` a word
// typed at its end and taken away, `long` a paragraph of about 1,000
// tokens, `longappend` a word typed at the end of that paragraph and taken away, `m128` MiniLM's 128-token text, `write` SmolLM2 writing TOKENS
// greedy tokens (default 64) with the heatmap shown, the page's own thread
// profiled too; default full), ROUNDS (default
// 20), TOP (functions listed, default 25), INTERVAL (µs between samples,
// default 50), ISO=0 (serve without cross-origin isolation: one thread).

import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve, keystroke as harnessKeystroke } from '../tests/e2e/harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// playwright-core carries a WebSocket client; the protocol's flat sessions reach the workers.
const { ws: WebSocket } = createRequire(join(ROOT, 'tests', 'e2e', 'harness.mjs'))('playwright-core/lib/utilsBundle');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const MODEL = process.env.MODEL ?? 'smollm2';
const WORK = process.env.WORK ?? 'full';
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const TOP = Number(process.env.TOP ?? 25);

const SIXTEEN = MODEL === 'smollm2' || process.env.GGUF
  ? 'the quick brown fox jumps over the lazy dog while the cat sleeps nearby today'
  : 'the quick brown fox jumps over the lazy dog while the cat sleeps nearby';
const LONG128 = Array.from({ length: 9 }, () => 'a fluffy blue creature roamed the verdant forest and sang').join(' ') + ' a fluffy blue creature roamed the blue sky';
const subjects = ['The old lighthouse keeper', 'A fluffy blue creature', 'Her younger brother', 'The committee', 'Nobody in the village'];
const objects = ['the verdant forest', 'a letter from Lisbon', 'the broken clock', 'seven red apples', 'the storm over the harbour'];
const PARAGRAPH = Array.from({ length: 70 }, (_, i) => `${subjects[i % 5]} watched ${objects[(i * 3 + 1) % 5]} on day ${i + 1}.`).join(' ');
const TEXTS = {
  full: [SIXTEEN, SIXTEEN.replace('the quick', 'a quick')],
  append: [SIXTEEN, `${SIXTEEN} and`],
  long: [PARAGRAPH, PARAGRAPH.replace('day 1.', 'day 2.')],
  longappend: [PARAGRAPH, `${PARAGRAPH} And`],
  m128: [LONG128, LONG128.replace('forest', 'wood')],
  write: ['Once upon a time, there was a little girl', 'Hello'],
}[WORK];
const TOKENS = Number(process.env.TOKENS ?? 64);
if (!TEXTS) throw new Error(`WORK=${WORK}: full, append, long, longappend, m128 or write`);

const server = await serve(DIST, { isolated: process.env.ISO !== '0' });
const base = `http://127.0.0.1:${server.address().port}/`;
const port = 9300 + Math.floor(Math.random() * 600);
const browser = await launch([`--remote-debugging-port=${port}`]);
const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
const socket = new WebSocket(webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
await new Promise((ok) => socket.on('open', ok));
let nextId = 1;
const waiting = new Map();
const workers = new Map(); // session → title
const send = (method, params = {}, sessionId) => new Promise((ok, fail) => {
  const id = nextId++;
  waiting.set(id, { ok, fail });
  socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
});
socket.on('message', (data) => {
  const m = JSON.parse(data.toString());
  if (m.id && waiting.has(m.id)) {
    const { ok, fail } = waiting.get(m.id);
    waiting.delete(m.id);
    m.error ? fail(new Error(JSON.stringify(m.error))) : ok(m.result);
  } else if (m.method === 'Target.attachedToTarget') {
    // Every target as it comes, and the workers it starts in turn (the helper is a worker's worker).
    const { sessionId, targetInfo } = m.params;
    if (targetInfo.type === 'worker') workers.set(sessionId, targetInfo.title || targetInfo.url);
    if (targetInfo.type === 'page' && WORK === 'write') workers.set(sessionId, `the page (${targetInfo.url.split('?')[0]})`);
    send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId).catch(() => {});
  }
});
await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });

try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const keystroke = (text) => harnessKeystroke(page, text);
  const computed = () => page.waitForFunction(() => /computed in/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
  if (process.env.GGUF) {
    await page.goto(`${base}?view=head&text=${encodeURIComponent('The capital of France is')}`);
    await page.locator('#tokens .token').first().waitFor();
    await page.locator('#open-files').setInputFiles(resolve(process.env.GGUF));
    await page.locator('#preflight-load').click({ timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('select#model').value === 'custom' && /worker memory/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 300_000 });
  } else {
    await page.goto(`${base}?model=${MODEL}&view=head&text=${encodeURIComponent(TEXTS[0])}`);
    await computed();
  }
  for (let i = 0; i < 6; i++) await keystroke(TEXTS[i % 2]);
  for (const s of workers.keys()) {
    await send('Profiler.enable', {}, s);
    await send('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 50) }, s);
    await send('Profiler.start', {}, s);
  }
  if (WORK === 'write') {
    await keystroke(TEXTS[0]);
    await page.locator('#write-mode').selectOption('greedy');
    await page.locator('#write-count').fill(String(TOKENS));
    await page.locator('#write-count').dispatchEvent('change');
    const t0 = Date.now();
    await page.locator('#write-go').click();
    await page.waitForFunction((n) => {
      const c = document.querySelector('#write-card');
      return c?.dataset.state === 'done' && Number(c.dataset.steps) >= n;
    }, TOKENS, { timeout: 300_000 });
    const ms = Date.now() - t0;
    console.log(`write: ${TOKENS} greedy tokens in ${ms} ms while profiled (${((TOKENS * 1000) / ms).toFixed(1)} tokens/s; the sampling slows it)`);
  } else {
    const times = [];
    for (let i = 0; i < ROUNDS; i++) {
      await keystroke(TEXTS[i % 2]);
      times.push(Number((await page.locator('#status').textContent()).match(/computed in ([\d.]+) ms/)[1]));
    }
    console.log(`${WORK}, ${ROUNDS} runs; the worker's times while profiled (the sampling slows it): ${times.join(' ')} ms`);
  }
  for (const [s, title] of workers) {
    const { profile } = await send('Profiler.stop', {}, s);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'anonymous'})`;
    const own = new Map(), under = new Map();
    let all = 0;
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      all += dt;
      own.set(name(byId.get(id)), (own.get(name(byId.get(id))) ?? 0) + dt);
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) seen.add(name(byId.get(at)));
      for (const n of seen) under.set(n, (under.get(n) ?? 0) + dt);
    });
    const idle = own.get('(idle)') ?? 0;
    const busy = all - idle;
    const list = (map, label) => [...map].filter(([n]) => !['(idle)', '(root)', '(program)'].includes(n)).sort((a, b) => b[1] - a[1]).slice(0, TOP)
      .forEach(([n, t]) => console.log(`  ${label} ${(t / 1000).toFixed(1).padStart(8)} ms ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${n.slice(0, 110)}`));
    console.log(`\n${title}: ${(all / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy`);
    list(own, 'own  ');
    list(under, 'under');
  }
} finally {
  socket.close();
  await browser.close();
  server.close();
}
