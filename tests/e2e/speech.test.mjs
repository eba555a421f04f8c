// End-to-end test of the Speech tab (issue #57) in the built page: Whisper
// tiny.en downloaded into the extra worker and run there on a clip from
// Chromium's fake microphone (a committed clip played as the capture
// device), from a file, and from an example; the transcript compared with
// the reference's (transformers, tests/fixtures/whisper/transcribe.json),
// a chosen word's attention drawn over the spectrogram, and bad input
// answered with a message while the rest of the page keeps working.
//
// Run: node --test --test-reporter=spec tests/e2e/speech.test.mjs
// Env: DIST (default: <repo>/dist), CHROMIUM (default: chromium on PATH).

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const ARTIFACTS = join(HERE, 'artifacts');
const CLIPS = join(ROOT, 'tests', 'fixtures', 'whisper');
const DOWNLOAD = { timeout: 240_000 };
const reference = Object.fromEntries(
  JSON.parse(readFileSync(join(CLIPS, 'transcribe.json'), 'utf8')).clips.map((c) => [c.file, c.text.trim()]),
);

let server, browser, baseUrl;
let page, problems;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, ARTIFACTS, [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    // listen.wav with a second of silence around it: a recording may miss the device's first moments.
    `--use-file-for-fake-audio-capture=${join(CLIPS, 'listen_pause.wav')}%noloop`,
    '--autoplay-policy=no-user-gesture-required',
  ]));
});

after(async () => {
  await stop(server, browser);
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  problems = watch(page, { failedRequests: true });
  await page.goto(`${baseUrl}?view=speech`);
  await page.locator('#view-speech').waitFor();
});

afterEach(async (t) => {
  await page.screenshot({ path: join(ARTIFACTS, `speech-${t.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

const heard = (text) =>
  page.waitForFunction((w) => document.querySelector('#speech-text')?.textContent === w, text, DOWNLOAD);

// Pixels of the page's focus colour in the spectrogram: the chosen token's attention curve.
const focusPixels = () =>
  page.evaluate(() => {
    const c = document.querySelector('#speech-spectrogram');
    const d = c.getContext('2d').getImageData(0, 0, c.width, Math.round(c.height * 0.68)).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 120 && d[i + 2] > 60 && d[i + 2] < 170) n++;
    return n;
  });

// A transcript's words, without case or punctuation (as Whisper's own evaluations compare).
const words = (text) => text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean);

test('the microphone: a clip recorded through the capture device gives the reference transcript\'s words', async () => {
  await page.click('#speech-record');
  await page.waitForFunction(() => document.querySelector('#speech-record').textContent.includes('Stop'));
  // The clip lasts 4.5 s; the fake device then sends silence. Stop once the
  // recording holds 6 s of samples, not after a wall-clock wait: on a loaded
  // machine the audio thread starts late, and a timed wait can cut the clip short.
  await page.waitForFunction(() => {
    const m = document.querySelector('#speech-status')?.textContent.match(/Recording… (\d+\.\d) s/);
    return m && Number(m[1]) >= 6.0;
  }, null, { timeout: 60_000 });
  await page.click('#speech-record');
  // Whatever Whisper heard, then compare: a different transcript fails at once, with the text.
  // Its words, not its case and punctuation: the browser resamples the device's 48 kHz to
  // 16 kHz and the recording starts wherever the audio thread does, and tiny.en's capital
  // and full stop come and go with such differences ("every word listens to the sound" in
  // one run of the test command, the file's "Every word listens to the sound." in others).
  // The file test below compares the exact text, where the samples are the file's.
  await page.waitForFunction(() => document.querySelector('#speech-text')?.textContent.trim().length > 0, null, DOWNLOAD);
  assert.deepEqual(words(await page.locator('#speech-text').textContent()), words(reference['listen_pause.wav']));
  assert.match(await page.locator('#speech-readout').textContent(), /peak at/);
  assert.ok((await focusPixels()) > 50, 'the first word\'s attention is drawn');
  assert.match(await page.locator('.speech-facts').textContent(), /frames of 20 ms/);
});

test('a file: decoded, transcribed as the reference, a chosen token\'s attention drawn over the spectrogram', async () => {
  await page.setInputFiles('#speech-file', join(CLIPS, 'fox.wav'));
  await heard(reference['fox.wav']);
  // Choose the token " lazy" and read where it listened.
  const lazy = page.locator('.speech-token', { hasText: 'lazy' });
  await lazy.click();
  await page.waitForFunction(() => /“lazy”/.test(document.querySelector('#speech-readout').textContent));
  assert.ok((await focusPixels()) > 50);
  const readout = await page.locator('#speech-readout').textContent();
  const [, start, end] = readout.match(/on (\d+\.\d+)–(\d+\.\d+) s/).map(Number);
  assert.ok(end - start > 0.019 && end <= 3.3, readout);
  // One head instead of the alignment heads' mean: the caption and the pictures follow.
  await page.selectOption('#speech-head', '2-3');
  await page.waitForFunction(() => /layer 3, head 4/.test(document.querySelector('.speech-caption').textContent));
  const rows = await page.locator('#speech-heatmap').getAttribute('data-rows');
  assert.equal(Number(rows), await page.locator('.speech-token').count());

  // The encoder's self-attention, layer 2 head 5, in blocks of frames: a hovered cell's value
  // is the CLI's (`transcribe --encoder-attention`), pooled the same way here.
  const cli = JSON.parse(execFileSync(join(ROOT, 'target', 'debug', 'attnscope'),
    ['transcribe', '--audio', join(CLIPS, 'fox.wav'), '--json', '-', '--encoder-attention'],
    { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const a = cli.encoder_attentions[1][4];
  const frames = a.length;
  const map = page.locator('#speech-encoder');
  await page.selectOption('#speech-encoder-layer', { value: '1' });
  await page.selectOption('#speech-encoder-head', { value: '4' });
  const block = Number(await map.getAttribute('data-block'));
  const cells = Number(await map.getAttribute('data-cells'));
  assert.equal(block, Math.ceil(frames / 125));
  assert.equal(cells, Math.ceil(frames / block));
  const box = await map.boundingBox();
  const side = box.height - 40;
  for (const [i, j] of [[3, 3], [Math.floor(cells / 2), 5]]) {
    await map.hover({ position: { x: 44 + (j + 0.5) * side / cells, y: 6 + (i + 0.5) * side / cells } });
    await page.waitForFunction(() => /Queries/.test(document.querySelector('#speech-encoder-readout').textContent));
    const readout = await page.locator('#speech-encoder-readout').textContent();
    const shown = Number(readout.match(/ s (\d\.\d{4}) of their attention/)[1]);
    const queries = [];
    for (let q = i * block; q < Math.min((i + 1) * block, frames); q++) queries.push(q);
    let cell = 0;
    for (const q of queries) for (let k = j * block; k < Math.min((j + 1) * block, frames); k++) cell += a[q][k] / queries.length;
    assert.ok(Math.abs(shown - cell) < 6e-5, `cell (${i}, ${j}): the page shows ${shown}, the CLI's pooled ${cell}: ${readout}`);
  }

  // Step by step through that head for " lazy": its strongest frame's weight is the CLI's largest.
  await page.waitForFunction(() => document.querySelectorAll('#speech-step-table tbody tr').length === 6);
  const lazyAt = cli.tokens.findIndex((t) => t.includes('lazy'));
  const strongest = Math.max(...cli.cross_attentions[2][3][lazyAt].slice(0, cli.speech_frames));
  const first = Number(await page.locator('#speech-step-table tbody tr').first().locator('td.weight').textContent());
  assert.ok(Math.abs(first - strongest) < 1e-4, `the step's strongest weight ${first}, the CLI's ${strongest}`);

  // The decoder's causal self-attention among the transcript's tokens: a row over the
  // tokens before it, the mask's cells read as hidden, not as weights.
  const decoder = page.locator('#speech-decoder');
  await page.selectOption('#speech-decoder-layer', { value: '3' });
  await page.selectOption('#speech-decoder-head', { value: '2' });
  const n = Number(await decoder.getAttribute('data-cells'));
  assert.equal(n, await page.locator('.speech-token').count());
  const geometry = Object.fromEntries(await Promise.all(['cell', 'left', 'top'].map(async (k) => [k, Number(await decoder.getAttribute(`data-${k}`))])));
  const at = (i, j) => ({ x: geometry.left + (j + 0.5) * geometry.cell, y: geometry.top + (i + 0.5) * geometry.cell });
  await decoder.hover({ position: at(n - 1, 0) });
  await page.waitForFunction(() => /→ .*: \d\.\d{4}/.test(document.querySelector('#speech-decoder-readout').textContent));
  await decoder.hover({ position: at(0, n - 1) });
  await page.waitForFunction(() => /hidden by the causal mask/.test(document.querySelector('#speech-decoder-readout').textContent));

  // The lesson's chapter on listening reads this clip, with the token and head chosen here.
  await page.click('#tab-lesson');
  await page.locator('.lesson-dot').nth(12).click();
  await page.locator('#lesson-listen-peak').waitFor();
  const says = await page.locator('.lesson-says').textContent();
  assert.ok(says.includes(`Whisper heard “${reference['fox.wav']}”`) && says.includes('(decoder layer 3, head 4) the query of “lazy”'), says);
  await page.click('#lesson-next');
  await page.locator('#lesson-listen-heads').waitFor();
  assert.equal(await page.locator('.lesson-speech #speech-heatmap').count(), 1);
});

test('an example clip, then bad files: a message, and the tab and the page keep working', async () => {
  await page.click('#speech-example-0');
  await heard(reference['listen.wav']);
  const notSound = join(ARTIFACTS, 'not-sound.wav');
  writeFileSync(notSound, 'this is text, not a WAV file\n'.repeat(50));
  await page.setInputFiles('#speech-file', notSound);
  await page.waitForFunction(() => /not sound the browser can decode/.test(document.querySelector('#speech-status').textContent));
  // The transcript before stays, and another clip still works.
  assert.equal(await page.locator('#speech-text').textContent(), reference['listen.wav']);
  await page.setInputFiles('#speech-file', join(CLIPS, 'attention.wav'));
  await heard(reference['attention.wav']);
  // The other tabs still draw the typed text.
  await page.click('#tab-head');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.width > 0);
});

test('no microphone (a browser without one): recording says why, the file still works', async () => {
  const { launch } = await import('./harness.mjs');
  const plain = await launch();
  try {
    const p = await plain.newPage();
    await p.goto(`${baseUrl}?view=speech`);
    await p.click('#speech-record');
    await p.waitForFunction(() => /microphone/.test(document.querySelector('#speech-status').textContent), null, { timeout: 20_000 });
    assert.match(await p.locator('#speech-status').textContent(), /files and the examples still work/);
    assert.equal(await p.locator('#speech-file').isDisabled(), false);
  } finally {
    await plain.close();
  }
});
