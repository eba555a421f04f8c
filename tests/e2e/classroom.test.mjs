// A class in Chromium against the real `attnscope classroom` (the test build of the CLI,
// serving dist/ on 127.0.0.1): a teacher's context and two students'. The students follow a
// change of text, view, head and lesson step; one explores on their own and comes back; a
// student's page reloaded mid-class rejoins, and every page rejoins a server that restarted; a question is answered by both and counted on the
// teacher's screen; a student's attempt to drive is refused. The teacher's SmolLM2 writes
// (sampled, seeded): a student's page writes the same tokens itself, with the same
// distributions, and shows the step of the timeline the teacher shows.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watch } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.env.DIST ?? join(root, 'dist');
const cli = join(root, 'target', 'debug', 'attnscope');
let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), `no ${dist}/index.html: run \`trunk build --release\` first`);
  assert.ok(existsSync(cli), `no ${cli}: run \`cargo build --bin attnscope\` first`);
  server = await startServer(['--port', '0']);
  browser = await launch();
});

// `attnscope classroom` on dist/, once it says where it listens (`url`).
async function startServer(args) {
  const child = spawn(cli, ['classroom', '--dist', dist, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`attnscope classroom exited (${code})`)));
  });
  child.stdout.resume();
  url = first.match(/http:\/\/\S+\//)[0];
  return child;
}

after(async () => {
  await browser?.close();
  server?.kill();
});

// A page in a context of its own (a phone, a laptop), watched for errors.
async function open(address) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(address);
  await page.waitForSelector('.tabs');
  return { page, problems };
}

const textOf = (page) => page.locator('textarea#text').inputValue();
const viewOf = (page) => page.locator('.shell').getAttribute('data-view');
const followed = (page, expected, read) => waitFor(async () => (await read(page)) === expected, `${expected}`);

async function waitFor(check, what, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('a teacher leads, students follow, explore on their own and come back', async () => {
  const teacher = await open(`${url}?text=the+animal+was+tired`);
  await teacher.page.click('#class-open');
  await teacher.page.click('#class-start');
  await waitFor(async () => /^[0-9A-Z]{10}$/.test(await teacher.page.locator('#class-code').textContent()), 'a code');
  const code = await teacher.page.locator('#class-code').textContent();

  // The join code, large, with its QR code drawn.
  await teacher.page.click('#class-show');
  const qr = teacher.page.locator('#join-code img');
  await waitFor(() => qr.evaluate((img) => img.complete && img.naturalWidth > 0), 'the QR code');
  assert.match(await teacher.page.locator('.join-link').textContent(), new RegExp(`\\?class=${code}$`));
  await teacher.page.click('#join-close');

  const students = [await open(`${url}?class=${code}`), await open(`${url}?class=${code.toLowerCase()}`)];
  for (const s of students) await followed(s.page, 'the animal was tired', textOf);
  await waitFor(async () => (await teacher.page.locator('#class-followers').textContent()) === '2 students follow', 'two followers');
  for (const s of students) assert.equal(await s.page.locator('#class-status').textContent(), 'Following the teacher');

  // Text, view and head.
  await teacher.page.fill('textarea#text', 'the cat sat on the mat because it was warm');
  await teacher.page.click('#tab-grid');
  await teacher.page.selectOption('select#head', '1');
  for (const s of students) {
    await followed(s.page, 'the cat sat on the mat because it was warm', textOf);
    await followed(s.page, 'grid', viewOf);
    await followed(s.page, '1', (p) => p.locator('select#head').inputValue());
  }

  // One explores on their own; the other keeps following.
  const [alone, other] = students;
  await alone.page.click('#class-detach');
  assert.equal(await alone.page.locator('#class-status').textContent(), 'Exploring on your own');
  await teacher.page.click('#tab-lesson');
  await teacher.page.click('#lesson-next');
  const step = (p) => p.locator('.shell').getAttribute('data-lesson-step');
  await followed(other.page, '2', step);
  await new Promise((ok) => setTimeout(ok, 500));
  assert.equal(await viewOf(alone.page), 'grid');
  await alone.page.click('#class-rejoin');
  await followed(alone.page, '2', step);
  assert.equal(await alone.page.locator('#class-status').textContent(), 'Following the teacher');

  // A student's page reloaded rejoins, at the teacher's state now.
  await teacher.page.click('#lesson-next');
  await other.page.reload();
  await followed(other.page, '3', step);
  await waitFor(async () => (await teacher.page.locator('#class-followers').textContent()) === '2 students follow', 'two followers again');

  // A teacher's reload keeps the class: same code, students still follow.
  await teacher.page.reload();
  await waitFor(async () => (await teacher.page.locator('#class-code').textContent()) === code, 'the same code');
  await teacher.page.click('#tab-head');
  for (const s of students) await followed(s.page, 'head', viewOf);

  // A question to the room: both answer (one changes their mind), the teacher sees the count
  // and reveals the model's own answer.
  await teacher.page.click('#ask-room summary');
  await teacher.page.click('#ask-send');
  for (const s of students) await s.page.waitForSelector('#class-question');
  await alone.page.click('#class-question [data-option="0"]');
  await alone.page.click('#class-question [data-option="2"]');
  await other.page.click('#class-question [data-option="2"]');
  await waitFor(async () => (await teacher.page.locator('#class-answered').textContent()) === '2 answers', 'two answers');
  assert.equal(await teacher.page.locator('.tally-bars li[data-option="2"] .tally-count').textContent(), '2');
  assert.equal(await teacher.page.locator('.tally-bars li[data-option="0"] .tally-count').textContent(), '0');
  await teacher.page.click('#class-reveal');
  assert.match(await teacher.page.locator('#class-model-answer').textContent(), /^The model: “.+”/);
  await teacher.page.click('#class-end-question');
  for (const s of students) await waitFor(async () => (await s.page.locator('#class-question').count()) === 0, 'the question closed');

  // The lesson step's ready question: √d_k, three choices, the right one revealed.
  await teacher.page.click('#tab-lesson');
  await teacher.page.click('#lesson-next');
  await followed(other.page, '4', step);
  await teacher.page.click('#ask-lesson');
  await teacher.page.click('#ask-send');
  await other.page.click('#class-question [data-option="2"]');
  await waitFor(async () => (await teacher.page.locator('#class-answered').textContent()) === '1 answer', 'one answer');
  await teacher.page.click('#class-reveal');
  assert.equal(await teacher.page.locator('#class-model-answer').textContent(), 'The answer: “sharper: nearly all on one key”');
  await teacher.page.click('#class-end-question');

  // A student's page that tries to lead is refused, and the class goes on.
  const reply = await alone.page.evaluate((code) => new Promise((done) => {
    const heard = [];
    const socket = new WebSocket(new URL('classroom/ws', location.href).href.replace(/^http/, 'ws'));
    socket.onopen = () => socket.send(JSON.stringify({ join: { code, student: 'a-student-who-tries' } }));
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      heard.push(Object.keys(m)[0]);
      // Joined: now it tries to lead.
      if (m.joined) socket.send(JSON.stringify({ state: { state: '?text=taken+over' } }));
      if (m.refused) done(m.refused.reason);
    };
    socket.onclose = (e) => heard.push(`closed ${e.code}`);
    setTimeout(() => done(`no refusal in 15 s; heard: ${heard.join(', ')}`), 15000);
  }), code);
  assert.equal(reply, 'only the teacher leads the class');
  await new Promise((ok) => setTimeout(ok, 300));
  for (const s of students) assert.equal(await textOf(s.page), 'the cat sat on the mat because it was warm');

  for (const p of [teacher, ...students]) assert.deepEqual(p.problems, []);

  // The server stops and starts again on the same port: the pages come back by themselves,
  // the teacher's with the class's secret and the state it holds.
  const port = new URL(url).port;
  server.kill();
  await new Promise((ok) => server.once('exit', ok));
  await waitFor(async () => /Reconnecting/.test(await other.page.locator('#class-status').textContent()), 'the lost connection shown');
  server = await startServer(['--port', port]);
  for (const s of students) {
    await waitFor(async () => (await s.page.locator('#class-status').textContent()) === 'Following the teacher', 'following again');
  }
  await teacher.page.fill('textarea#text', 'after the server came back');
  for (const s of students) await followed(s.page, 'after the server came back', textOf);
  await waitFor(async () => (await teacher.page.locator('#class-followers').textContent()) === '2 students follow', 'two followers after the restart');
});

// The writing card as its data attributes say it.
const card = (page) => page.locator('#write-card').evaluate((c) => ({
  state: c.dataset.state,
  steps: Number(c.dataset.steps),
  ids: c.dataset.ids ? c.dataset.ids.split(',').map(Number) : [],
  full: document.querySelector('#text').value,
})).catch(() => null);

const bars = (page) => page.locator('#write-bars').evaluate((b) => ({
  step: b.dataset.step,
  chosen: Number(b.dataset.chosen),
  text: b.querySelector('li.chosen')?.textContent,
})).catch(() => null);

test('a student\'s page writes the teacher\'s tokens itself and shows the teacher\'s step', async () => {
  const prompt = 'The capital of France is';
  const teacher = await open(`${url}?model=smollm2&sample=1&topk=40&seed=11&n=6&text=${encodeURIComponent(prompt)}`);
  await teacher.page.click('#class-open');
  await teacher.page.click('#class-start');
  await waitFor(async () => /^[0-9A-Z]{10}$/.test(await teacher.page.locator('#class-code').textContent()), 'a code');
  const code = await teacher.page.locator('#class-code').textContent();
  const student = await open(`${url}?class=${code}`);
  await followed(student.page, prompt, textOf);
  await teacher.page.locator('#write-go').waitFor({ timeout: 300_000 });
  await teacher.page.waitForFunction(() => document.querySelector('#status').textContent.includes('computed in'), null, { timeout: 300_000 });

  await teacher.page.click('#write-go');
  await teacher.page.waitForFunction(() => document.querySelector('#write-card').dataset.state === 'done', null, { timeout: 300_000 });
  const written = await card(teacher.page);
  assert.equal(written.steps, 6);
  await waitFor(async () => (await card(student.page))?.steps === 6, 'the student\'s six steps', 300_000);
  const mine = await card(student.page);
  assert.deepEqual(mine.ids, written.ids);
  assert.equal(mine.full, written.full);
  assert.deepEqual(await bars(student.page), await bars(teacher.page), 'the last step\'s bars');

  // The teacher shows step 3 of the timeline: so does the student, with the same bars.
  await teacher.page.locator('#write-timeline').evaluate((r) => { r.value = '3'; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await teacher.page.waitForFunction(() => document.querySelector('#write-bars')?.dataset.step === '3', null, { timeout: 60_000 });
  await waitFor(async () => (await bars(student.page))?.step === '3', 'the student at step 3', 60_000);
  const atThree = await bars(student.page);
  assert.equal(atThree.chosen, written.ids[2]);
  assert.deepEqual(atThree, await bars(teacher.page));
  assert.match(await student.page.locator('.write-timeline').textContent(), /step 3 of 6/);

  // Back to now, and one more token (Step): the student writes it too.
  await teacher.page.locator('#write-timeline').evaluate((r) => { r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await waitFor(async () => (await bars(student.page))?.step === '6', 'the student back at now', 60_000);
  await teacher.page.click('#write-step');
  await teacher.page.waitForFunction(() => document.querySelector('#write-card').dataset.steps === '7', null, { timeout: 120_000 });
  await waitFor(async () => (await card(student.page))?.steps === 7, 'the student\'s seventh step', 120_000);
  assert.deepEqual((await card(student.page)).ids, (await card(teacher.page)).ids);

  assert.deepEqual(teacher.problems, []);
  assert.deepEqual(student.problems, []);
  await teacher.page.context().close();
  await student.page.context().close();
});

test('without the class server the page says how to start one', async () => {
  // The same page from a plain static host: the harness's server, no /classroom/.
  const { serve } = await import('./harness.mjs');
  const plain = await serve(dist);
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${plain.address().port}/?class=0123456789`);
    await page.waitForSelector('#class-none');
    assert.equal(await page.locator('#class-open').count(), 0);
    // A visitor who asks for a class there is told how to hold one.
    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(`http://127.0.0.1:${plain.address().port}/`);
    await fresh.click('#class-open');
    await fresh.waitForSelector('#class-none');
    assert.match(await page.locator('#class-none').textContent(), /attnscope classroom/);
    assert.equal(await page.locator('#class-banner').count(), 0);
  } finally {
    await new Promise((ok) => plain.close(ok));
  }
});
