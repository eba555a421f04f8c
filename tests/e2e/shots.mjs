import { start, stop, keystroke } from './harness.mjs';
const { server, browser, baseUrl } = await start('/tmp/cc/dist', '/tmp/shots');
for (const [name, w, h, q] of [['phone', 390, 844, ''], ['projector', 1280, 720, '?present=1'], ['desktop', 1920, 1080, '']]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(baseUrl + q);
  await page.locator('#heatmap').waitFor();
  await page.locator('textarea#text').fill('');
  await page.locator('textarea#text').type('the teacher asked the class a question');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/${name}.png` });
  console.log(name, await page.locator('#status').textContent());
  await page.close();
}
await stop(server, browser);
