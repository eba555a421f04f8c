// The Speech tab's speed in the browser (issue #57), a report that never
// passes or fails: in headless Chromium on the release build in dist/, the
// 5-second clip of benches/transcribe.rs (fox.wav then attention.wav, cut
// at 5 s) opened as a file, timed from the file handed to the page to the
// transcript with its attention drawn, and the worker's own time and memory
// as the tab reports them. scripts/bench.sh speech prints it beside
// CTranslate2's time on the same clip on this machine.
//
// Run: node scripts/bench_speech.mjs
// Env: DIST, CHROMIUM, ROUNDS (default 5).

import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, median, serve } from '../tests/e2e/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const RATE = 16_000;

const cpu = () => (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? 'unknown CPU';

// The 16-bit samples of a committed clip (16 kHz mono PCM: its data chunk).
function samples(name) {
  const b = readFileSync(join(ROOT, 'tests', 'fixtures', 'whisper', name));
  let at = 12;
  while (at + 8 <= b.length) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'data') return new Int16Array(b.buffer.slice(b.byteOffset + at + 8, b.byteOffset + at + 8 + size));
    at += 8 + size + (size & 1);
  }
  throw new Error(`${name} has no data chunk`);
}

function wav(pcm) {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0); h.writeUInt32LE(36 + pcm.length * 2, 4); h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24); h.writeUInt32LE(RATE * 2, 28); h.writeUInt16LE(2, 32); h.writeUInt16LE(16, 34);
  h.write('data', 36); h.writeUInt32LE(pcm.length * 2, 40);
  return Buffer.concat([h, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.length * 2)]);
}

const both = new Int16Array([...samples('fox.wav'), ...samples('attention.wav')]).slice(0, 5 * RATE);
const clip = join(mkdtempSync(join(tmpdir(), 'attnscope-speech-')), 'clip_5s.wav');
writeFileSync(clip, wav(both));

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const result = { cpu: cpu(), clip_seconds: both.length / RATE };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}?view=speech`);
  // The first clip downloads the model: not timed.
  await page.setInputFiles('#speech-file', clip);
  await page.waitForFunction(() => document.querySelector('#speech-text')?.textContent, null, { timeout: 300_000 });
  const wall = [], worker = [];
  let memory = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const before = await page.locator('.speech-facts').textContent();
    const t0 = Date.now();
    await page.setInputFiles('#speech-file', clip);
    // The facts line changes with each clip heard (its time differs); the pictures are drawn with it.
    await page.waitForFunction((b) => {
      const f = document.querySelector('.speech-facts')?.textContent;
      return f && f !== b && document.querySelector('#speech-spectrogram')?.width > 0;
    }, before, { timeout: 120_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    wall.push(Date.now() - t0);
    const facts = await page.locator('.speech-facts').textContent();
    worker.push(Number(facts.match(/heard in ([\d.]+) ms/)[1]));
    memory = Number((facts.match(/worker memory ([\d.]+) MB/) ?? [])[1] ?? 0);
  }
  Object.assign(result, {
    text: await page.locator('#speech-text').textContent(),
    page_transcribe_5s_ms: median(wall),
    worker_transcribe_5s_ms: median(worker),
    worker_memory_mb: memory,
    rounds: ROUNDS,
  });
} finally {
  await browser.close();
  server.close();
}
console.log(JSON.stringify(result, null, 1));
