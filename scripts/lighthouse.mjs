// Serves dist/ as the tests do (cross-origin isolated) and runs Lighthouse on
// it with the desktop preset; prints the category scores (scripts/lighthouse.sh).

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/e2e/harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const OUT = join(ROOT, 'tests', 'e2e', 'artifacts');
mkdirSync(OUT, { recursive: true });

const server = await serve(DIST);
const url = `http://127.0.0.1:${server.address().port}/`;
try {
  // Not spawnSync: this process serves the page meanwhile.
  const run = spawn(process.env.LIGHTHOUSE, [
    url,
    '--preset=desktop',
    '--only-categories=performance,accessibility,best-practices,seo',
    '--output=json', '--output=html', '--quiet',
    `--output-path=${join(OUT, 'lighthouse')}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
  ], { stdio: 'inherit', env: { ...process.env, CHROME_PATH: process.env.CHROMIUM ?? 'chromium' } });
  const status = await new Promise((done) => run.on('exit', done));
  if (status !== 0) throw new Error(`lighthouse exited with ${status}`);
  const report = JSON.parse(readFileSync(join(OUT, 'lighthouse.report.json'), 'utf8'));
  console.log(`Lighthouse ${report.lighthouseVersion}, desktop preset, ${report.finalDisplayedUrl}`);
  for (const [id, c] of Object.entries(report.categories)) console.log(`  ${c.title.padEnd(16)} ${Math.round(c.score * 100)}`);
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
    const a = report.audits[id];
    if (a) console.log(`  ${a.title.padEnd(26)} ${a.displayValue}`);
  }
  const failed = Object.values(report.categories.accessibility.auditRefs)
    .map((r) => report.audits[r.id]).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary');
  for (const a of failed) console.log(`  accessibility: ${a.id}: ${a.title}`);
} finally {
  server.close();
}
