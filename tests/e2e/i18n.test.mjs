// The page in six languages (src/web/i18n/, www/i18n/), in headless Chromium on the release
// build, with the teaching model (nothing to download):
// - in Portuguese, Spanish, French, German and Chinese, every tab and every step of the lesson
//   shows no English sentence of the catalogs where the language has its own (text nodes,
//   titles, labels and placeholders), and in every language no message id in place of a text;
// - the language comes from `lang=`, else from the browser's languages, else English; it
//   round-trips through the address; the header's picker switches it and the address follows;
// - German (long words) and Chinese keep the layout: nothing overflows on a phone, and at
//   1280×720 in presentation mode the text box and the whole heatmap are on screen;
// - Chinese text is drawn as glyphs, not boxes, in the heatmap's canvas labels and in the
//   exported PNG and SVG (their pixels are compared with the same picture whose Chinese
//   characters were replaced by one that no font has).
// Screenshots (the lesson on a projector in Portuguese and Chinese, the phone in German) go to
// tests/e2e/artifacts/i18n/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop, watch, settled, overflow } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const SHOTS = join(HERE, 'artifacts', 'i18n');
const LANGS = ['pt', 'es', 'fr', 'de', 'zh'];
const LESSON_STEPS = 14;

// A Fluent catalog's messages without placeables, as id → text (enough to find English
// sentences in the page: a message with variables is never shown as written).
function messages(lang) {
  const out = new Map();
  const dir = join(ROOT, 'www', 'i18n', lang);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ftl'))) {
    let id = null;
    let text = '';
    const flush = () => {
      if (id !== null) out.set(id, text.trim());
      id = null;
    };
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const m = /^([a-zA-Z][\w-]*)\s*=\s?(.*)$/.exec(line);
      if (m) {
        flush();
        [, id, text] = m;
      } else if (id !== null && /^\s+\S/.test(line)) {
        text += ' ' + line.trim();
      } else if (!line.trim() || line.startsWith('#')) {
        flush();
      }
    }
    flush();
  }
  return out;
}

const ENGLISH = messages('en');

// The English sentences a page in `lang` must not show: its own text differs, it has no
// placeable, and it is a word or more of prose (not `QKᵀ`, `PNG` or `MiniLM`).
function untranslated(lang) {
  const own = messages(lang);
  const out = new Set();
  for (const [id, en] of ENGLISH) {
    const there = own.get(id);
    if (en.includes('{') || there === undefined || there === en) continue;
    if (!/[a-z]{3}/.test(en) || en.length < 4) continue;
    out.add(en.replace(/\s+/g, ' '));
  }
  return out;
}

// Every text the page shows a reader: text nodes, and titles, labels and placeholders.
async function shownTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('script, style, noscript, textarea, #tokens, .sr-ignore')) continue;
      const t = n.textContent.replace(/\s+/g, ' ').trim();
      if (t) out.push(t);
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const t = el.getAttribute(a)?.replace(/\s+/g, ' ').trim();
        if (t) out.push(t);
      }
    }
    return out;
  });
}

let server, browser, baseUrl;

before(async () => {
  ({ server, baseUrl, browser } = await start(DIST, SHOTS));
});

after(() => stop(server, browser));

async function open(query, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}${query}`);
  await ready(page, new URLSearchParams(query).get('lang') in TAG ? new URLSearchParams(query).get('lang') : null);
  return { context, page, problems };
}

const TAG = { en: 'en', pt: 'pt', es: 'es', fr: 'fr', de: 'de', zh: 'zh-Hans' };

// The page has shown a run (the status's words depend on the language; its run id does not)
// and, with `lang`, is drawn in that language (its catalogs fetched).
async function ready(page, lang = null) {
  await page.waitForFunction((tag) => document.querySelector('#status')?.dataset.run && (!tag || document.documentElement.lang === tag), lang && TAG[lang], { timeout: 60_000 });
  await settled(page);
}

// What a page in `lang` shows that it should not: English sentences of the catalogs that
// `lang` translates, and message ids.
function foreign(texts, lang) {
  const english = lang === 'en' ? new Set() : untranslated(lang);
  const found = new Set();
  for (const t of texts) {
    if (english.has(t)) found.add(`English: ${JSON.stringify(t)}`);
    if (ENGLISH.has(t)) found.add(`a message id: ${t}`);
  }
  return [...found];
}

// Every tab of the page and every step of the lesson, in `lang`.
async function everyTabAndStep(lang) {
  const { context, page, problems } = await open(`?lang=${lang}&model=teaching`);
  const seen = [];
  const tabs = await page.locator('[id^="tab-"]:visible').evaluateAll((els) => els.map((e) => e.id));
  assert.ok(tabs.length >= 6, `${lang}: tabs ${tabs}`);
  for (const tab of tabs) {
    await page.locator(`#${tab}`).click();
    await settled(page);
    for (const f of foreign(await shownTexts(page), lang)) seen.push(`${tab}: ${f}`);
  }
  for (let step = 1; step <= LESSON_STEPS; step++) {
    await page.goto(`${baseUrl}?lang=${lang}&model=teaching&view=lesson&step=${step}`);
    await ready(page, lang);
    for (const f of foreign(await shownTexts(page), lang)) seen.push(`lesson step ${step}: ${f}`);
  }
  await context.close();
  assert.deepEqual([...new Set(seen)], [], `${lang}: what the page shows in English or as an id`);
  assert.deepEqual(problems, [], `${lang}: the page logged errors`);
}

for (const lang of ['en', ...LANGS]) {
  test(`i18n: every tab and lesson step in ${lang}`, () => everyTabAndStep(lang));
}

test('i18n: the language from the address, the browser, the picker; an unknown one is English', async () => {
  // The browser's languages choose when the address does not; the address then keeps it.
  let { context, page, problems } = await open('?model=teaching', { locale: 'de-DE' });
  await page.waitForFunction(() => document.documentElement.lang === 'de', null, { timeout: 10_000 });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'de', null, { timeout: 5000 });
  assert.equal(await page.locator('#lang').inputValue(), 'de');
  // The picker switches, and the address follows; a reload keeps it.
  await page.locator('#lang').selectOption('fr');
  await page.waitForFunction(() => document.documentElement.lang === 'fr' && new URLSearchParams(location.search).get('lang') === 'fr', null, { timeout: 10_000 });
  await page.reload();
  await ready(page, 'fr');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  // English chosen where the browser is German is said in the address too.
  await page.locator('#lang').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en' && new URLSearchParams(location.search).get('lang') === 'en', null, { timeout: 10_000 });
  await context.close();
  assert.deepEqual(problems, []);
  // An unknown language, or an empty browser list, is English, with no error; English in an
  // English browser leaves the address alone.
  for (const [query, locale] of [['?lang=xx&model=teaching', 'en-US'], ['?lang=%3Cb%3E&model=teaching', 'en-US'], ['?model=teaching', 'ko-KR']]) {
    ({ context, page, problems } = await open(query, { locale }));
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', query);
    assert.equal(await page.locator('#lang').inputValue(), 'en');
    await settled(page);
    // The address is left as it came until something changes; a change drops what it cannot use.
    await page.locator('#tab-grid').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('view') === 'grid');
    assert.equal(new URL(page.url()).searchParams.get('lang'), null, `${query} ${locale}`);
    await context.close();
    assert.deepEqual(problems, [], query);
  }
});

test('i18n: German and Chinese keep the layout; screenshots of the lesson and the phone', async () => {
  for (const lang of ['de', 'zh', 'pt']) {
    const { context, page, problems } = await open(`?lang=${lang}&model=teaching`);
    for (const view of ['head', 'grid', 'overview', 'explain', 'catalog', 'worked', 'lesson']) {
      await page.locator(`#tab-${view}`).click();
      await page.setViewportSize({ width: 390, height: 844 });
      await settled(page);
      assert.deepEqual(await overflow(page), [], `${lang}, phone, ${view}`);
      if (lang === 'de') await page.screenshot({ path: join(SHOTS, `de-phone-${view}.png`), fullPage: view === 'lesson' });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.locator('#present').setChecked(true);
      await settled(page);
      assert.deepEqual(await overflow(page), [], `${lang}, projector, ${view}`);
      if (view === 'head') {
        const fits = await page.evaluate(() => ['#text', '#heatmap'].map((q) => {
          const b = document.querySelector(q).getBoundingClientRect();
          return b.width > 0 && b.top >= 0 && b.bottom <= innerHeight + 0.5 && b.right <= innerWidth + 0.5;
        }));
        assert.deepEqual(fits, [true, true], `${lang}: the text box and the heatmap on a projector`);
      }
      if (view === 'lesson' && lang !== 'de') await page.screenshot({ path: join(SHOTS, `${lang}-projector-lesson.png`) });
      await page.locator('#present').setChecked(false);
    }
    await context.close();
    assert.deepEqual(problems, [], lang);
  }
});

// Draws `svg` (markup) as the page's PNG export does (twice its size, on white); the pixels'
// data URL.
const rasterise = (page, svg) => page.evaluate(async (svg) => {
  const img = new Image();
  img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  await img.decode();
  const c = document.createElement('canvas');
  [c.width, c.height] = [2 * img.naturalWidth, 2 * img.naturalHeight];
  const g = c.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, c.width, c.height);
  g.drawImage(img, 0, 0, c.width, c.height);
  return c.toDataURL();
}, svg);

// How many pixels of two same-sized images (data URLs) differ.
const differing = (page, a, b) => page.evaluate(async ([a, b]) => {
  const data = async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data;
  };
  const [x, y] = [await data(a), await data(b)];
  if (x.length !== y.length) return -1;
  let n = 0;
  for (let i = 0; i < x.length; i += 4) if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) n++;
  return n;
}, [a, b]);

const HAN = /[\u4e00-\u9fff]/g;
// A private-use character: no font has it, so every one is drawn as the same box.
const NO_GLYPH = '\ue000';

test('i18n: Chinese is drawn as glyphs in the canvas and in the exported PNG and SVG', async () => {
  const text = '毛茸茸的蓝色小动物在森林里漫步';
  const { context, page, problems } = await open(`?lang=zh&model=teaching&text=${encodeURIComponent(text)}`);
  // The canvas labels: each token's characters, in the canvas's own font, are not drawn as the
  // box a missing glyph gets.
  const boxes = await page.evaluate((noGlyph) => {
    const canvas = document.querySelector('#heatmap');
    const font = canvas.getContext('2d').font;
    const draw = (s) => {
      const c = document.createElement('canvas');
      [c.width, c.height] = [64, 64];
      const g = c.getContext('2d');
      g.font = font.replace(/\d+(\.\d+)?px/, '40px');
      g.fillText(s, 4, 48);
      return Array.from(g.getImageData(0, 0, 64, 64).data).join();
    };
    const box = draw(noGlyph);
    const tokens = [...document.querySelectorAll('#tokens .token')].map((t) => t.textContent).join('');
    return [...new Set(tokens.match(/[\u4e00-\u9fff]/g) ?? [])].filter((ch) => draw(ch) === box);
  }, NO_GLYPH);
  assert.deepEqual(boxes, [], 'Chinese characters drawn as boxes in the canvas');
  const grab = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks);
  };
  const svg = (await grab('#export-svg')).toString();
  assert.ok((svg.match(HAN) ?? []).length >= 6, 'the SVG holds the Chinese tokens as text');
  const png = 'data:image/png;base64,' + (await grab('#export-png')).toString('base64');
  const drawn = await rasterise(page, svg);
  const boxed = await rasterise(page, svg.replace(HAN, NO_GLYPH));
  // The SVG drawn with its Chinese differs from the SVG drawn with boxes in its labels...
  assert.ok((await differing(page, drawn, boxed)) > 200, 'the SVG\'s Chinese is drawn as boxes');
  // ... and the page's PNG is the former, not the latter.
  const [toDrawn, toBoxed] = [await differing(page, png, drawn), await differing(page, png, boxed)];
  assert.ok(toDrawn >= 0 && toDrawn < toBoxed, `PNG: ${toDrawn} pixels from the glyphs, ${toBoxed} from the boxes`);
  await page.screenshot({ path: join(SHOTS, 'zh-heatmap.png') });
  await context.close();
  assert.deepEqual(problems, []);
});
