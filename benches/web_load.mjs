// Page loads of skelview's browser build in headless Chromium (benches/web.sh runs it):
//   node benches/web_load.mjs URL RUNS BIG_BVH
// Prints the median (min-max) milliseconds from navigation to each milestone the page marks
// (adapter ready, first frame, first pose), then the time to load BIG_BVH in the page.
import { createRequire } from 'node:module';
const require = createRequire(new URL('../tests/web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [url, runsText, big] = process.argv.slice(2);
const runs = Number(runsText);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});
const marks = ['adapter-ready', 'first-frame-presented', 'first-pose-drawn'];
const got = Object.fromEntries(marks.map((m) => [m, []]));
const state = (page) => page.evaluate(() => JSON.parse(window.skelview?.state?.() || 'null'));
let page;
for (let k = 0; k < runs; k++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('skelview:first-pose-drawn').length > 0, null, { timeout: 60000 });
  for (const m of marks) got[m].push(await page.evaluate((n) => performance.getEntriesByName(`skelview:${n}`)[0]?.startTime, m));
  if (k + 1 < runs) await context.close();
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const m of marks) {
  console.log(`${m.padEnd(24)} median ${median(got[m]).toFixed(0)} ms (${Math.min(...got[m]).toFixed(0)}-${Math.max(...got[m]).toFixed(0)}) over ${runs} page loads`);
}
// Every animation frame during the load: how long the page went without presenting one.
await page.evaluate(() => {
  window.__ticks = [];
  const tick = (t) => {
    window.__ticks.push([t, !!JSON.parse(window.skelview.state() || 'null')?.loading]);
    if (window.__ticks.length < 100000) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
const t0 = Date.now();
await page.setInputFiles('#skelview-files', big);
for (;;) {
  const s = await state(page);
  if (s && !s.loading && (s.clips[0]?.name ?? '').endsWith('big20.bvh')) break;
  if (s?.error) throw new Error(s.error);
  if (Date.now() - t0 > 300000) throw new Error('the 20 MB BVH did not load in 5 minutes');
  await page.waitForTimeout(20);
}
console.log(`20 MB BVH in the page       ${Date.now() - t0} ms (file input to the clip shown)`);
const gaps = await page.evaluate(() => {
  const f = window.__ticks;
  const first = f.findIndex(([, l]) => l);
  const last = f.findIndex(([, l], k) => k > first && !l);
  let longest = 0;
  for (let k = Math.max(first, 1); first >= 0 && k <= (last < 0 ? f.length - 1 : last); k++) longest = Math.max(longest, f[k][0] - f[k - 1][0]);
  return { frames: f.filter(([, l]) => l).length, longest };
});
console.log(`frames drawn while loading  ${gaps.frames}, longest pause ${gaps.longest.toFixed(0)} ms`);
await browser.close();
