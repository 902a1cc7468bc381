// skelview's page in headless Chromium (Debian's, driven by playwright-core): the sample is
// drawn on a WebGL2 canvas, files given through the page's file input load, characters'
// meshes are drawn, scrubbing changes the picture, a truncated file shows the command line's
// message and the page keeps working, and a 20 MB BVH loads while frames keep being
// presented. Then, in a browser with WebGPU (SwiftShader's Vulkan), the sample and the
// characters again on a WebGPU canvas.
// Run by tests/web_page.rs, which serves the built page and checks what this writes:
//   node page.test.mjs BASE_URL OUT_DIR FILES_JSON
// FILES_JSON: {"bvh": path, "asf": path, "amc": path, "fbx": path, "glb": path (a character),
//              "character": path (another one), "truncated": path, "big": path,
//              "served": name of a BVH beside index.html}
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const [base, out, filesJson] = process.argv.slice(2);
// Waits are for states and events, never for a while. Their one limit only turns a hang into
// a failure: generous, scaled to the work, and stretched by SKELVIEW_TEST_PATIENCE on a slow
// machine.
const PATIENCE = Number(process.env.SKELVIEW_TEST_PATIENCE ?? 1) || 1;
const limit = (ms) => ms * PATIENCE;
const files = JSON.parse(fs.readFileSync(filesJson, 'utf8'));
const results = { steps: [] };
const step = (name, data) => { results.steps.push({ name, ...data }); console.log(name, JSON.stringify(data)); };

// Chromium on SwiftShader: WebGL2 through ANGLE; `extra` flags add more (WebGPU).
const launch = (extra = []) => chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', ...extra],
});
// WebGPU on SwiftShader's Vulkan (with Vulkan the canvas can present: without it the
// WebGPU canvas stays blank in headless Chromium).
const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader'];
const consoleLines = [];
const newPage = async (browser, tag) => {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  p.on('console', (m) => consoleLines.push(`${tag}${m.type()}: ${m.text()}`));
  p.on('pageerror', (e) => consoleLines.push(`${tag}pageerror: ${e.message}`));
  return p;
};
const browser = await launch();
let gpuBrowser = null;
// The page the helpers below drive: the WebGL2 one, then the WebGPU one.
let page = await newPage(browser, '');

const state = async () => JSON.parse((await page.evaluate(() => window.skelview?.state?.() ?? '')) || 'null');
async function until(what, predicate, timeoutMs = 600000) {
  const start = Date.now();
  for (;;) {
    const s = await state();
    if (s && predicate(s)) return s;
    if (Date.now() - start > limit(timeoutMs)) throw new Error(`gave up waiting for ${what} (it looks stuck); last state ${JSON.stringify(s)}`);
    // Polls between animation frames: the page goes on drawing meanwhile.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
}
// Waits for `n` of the browser's animation frames, however long each takes: the state is
// published after the viewer draws, so once it says so the canvas holds that picture, and
// these frames let the page composite it before a screenshot. (The viewer itself draws only
// when something changes: a paused clip presents no new frames.)
async function frames(n) {
  for (let k = 0; k < n; k++) await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
}
const fatal = async () => page.evaluate(() => {
  const el = document.getElementById('skelview-fatal');
  return el && el.style.display === 'block' ? el.textContent : null;
});
async function viewport(name) {
  const s = await state();
  const [x, y, w, h] = s.viewport;
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file, clip: { x, y, width: w, height: h } });
  return { file, viewport: s.viewport, frame: s.frame, camera: s.camera };
}
// Gives files to the page's file input, as File > Open does. Returns a test of a state: does
// it show a clip opened since (a serial not shown before)? A file opened again has the name of
// the clip already shown, and that clip may still be paused while the new one loads.
async function open(paths, add = false) {
  const before = new Set(((await state())?.clips ?? []).map((c) => c.serial));
  await page.evaluate((a) => { document.getElementById('skelview-files').dataset.add = a ? '1' : '0'; }, add);
  await page.setInputFiles('#skelview-files', paths);
  return (s) => s.clips.some((c) => !before.has(c.serial));
}
// The one clip shown, opened since `fresh` was made, from the file `file`, all loaded.
const shows = (fresh, file) => (s) =>
  !s.loading && s.clips.length === 1 && fresh(s) && (s.clips[0].name ?? '').endsWith(path.basename(file));
// Runs a menu entry through the page's API (`skelview.action`, by the action's name: not by
// where egui draws the menu) and waits for `done`, a promise made before the call.
async function act(name, waitDone) {
  const done = waitDone();
  const known = await page.evaluate((n) => window.skelview.action(n), name);
  if (!known) throw new Error(`the page does not know the action ${name}`);
  return done;
}
const storedTheme = (theme) => async () => {
  const start = Date.now();
  for (;;) {
    const t = await page.evaluate(() => localStorage.getItem('skelview.settings.toml'));
    if (t && t.includes(`theme = "${theme}"`)) return t;
    if (Date.now() - start > limit(600000)) throw new Error(`the ${theme} theme was never stored (it looks stuck)`);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
};
// A download, waited for in proportion to the work: a minute, plus five seconds a frame for
// one recorded frame by frame.
const download = (frames = 0) => () => page.waitForEvent('download', { timeout: limit(60000 + 5000 * frames) });

const pause = async () => {
  if ((await state()).playing) await page.keyboard.press('Space');
  await until('paused', (s) => !s.playing);
};
// The canvas's context: a canvas holding a WebGPU context gives no WebGL2 one.
const canvasContext = () => page.evaluate(() => {
  const c = document.getElementById('skelview-canvas');
  return c.getContext('webgl2') ? 'webgl2' : (navigator.gpu ? 'webgpu' : 'unknown');
});
// Waits until the viewer stops drawing by itself (its layout settling once the checks are in):
// no frame presented over two animation frames.
async function settled(what) {
  const start = Date.now();
  let s = await state();
  let last = s.presented;
  for (let still = 0; still < 2;) {
    // The state says what asked for each frame (`next_frame`).
    if (Date.now() - start > limit(600000)) throw new Error(`${what} never stopped drawing (it looks stuck); last state ${JSON.stringify(s)}`);
    await frames(1);
    s = await state();
    still = s.presented === last ? still + 1 : 0;
    last = s.presented;
  }
}
// The shown clip paused at its first frame with its checks done, drawn, and its viewport
// saved as `name`.png.
async function firstFrame(name) {
  await page.focus('#skelview-canvas');
  await pause();
  await page.keyboard.press('Home');
  await until(`${name} at frame 0`, (s) => s.frame === 0 && !s.playing && !s.loading && !s.working);
  await settled(name);
  const s = await state();
  step(name, { ...(await viewport(name)), clips: s.clips, skins: s.skins, error: s.error, next_frame: s.next_frame });
}
// A character through the file input, at its first frame: the state counts its skinned-mesh
// draws (`skins`), and tests/web_page.rs compares the viewport with `skelview render`.
async function character(name, file) {
  const fresh = await open([file]);
  const s = await until(`${name} loaded`, (s) => shows(fresh, file)(s) || !!s.error);
  if (s.error) throw new Error(`${name}: ${s.error}`);
  await firstFrame(name);
}

try {
  // 1. The page loads and draws the sample.
  await page.goto(base);
  const first = await until('the sample', (s) => s.pose_shown && s.clips.length === 1 && !s.loading);
  const timing = await page.evaluate(() => {
    const mark = (n) => performance.getEntriesByName(`skelview:${n}`)[0]?.startTime ?? null;
    return { adapter_ms: mark('adapter-ready'), first_frame_ms: mark('first-frame-presented'), first_pose_ms: mark('first-pose-drawn') };
  });
  const context = await canvasContext();
  step('sample', { clips: first.clips, context, ...timing });
  await page.focus('#skelview-canvas');
  await pause();
  await page.keyboard.press('Home');
  await until('frame 0', (s) => s.frame === 0);
  await frames(2);
  step('sample_frame0', await viewport('sample_frame0'));
  await page.screenshot({ path: path.join(out, 'page.png') });

  // View > Save screenshot...: the viewport as a PNG download.
  const shot = await act('SaveScreenshot', download());
  const saved = path.join(out, 'downloaded_screenshot.png');
  await shot.saveAs(saved);
  step('screenshot_download', { file: saved, suggested: shot.suggestedFilename() });

  // File > Export positions CSV: a download.
  const csv = await act('ExportPositions', download());
  const csvFile = path.join(out, 'downloaded_positions.csv');
  await csv.saveAs(csvFile);
  step('csv_download', { file: csvFile, suggested: csv.suggestedFilename() });

  // File > Export GIF (in/out range): recorded from the canvas, a download.
  const gifStart = Date.now();
  // A GIF takes a drawn frame per GIF frame: waited for in proportion to its frames.
  const gif = await act('ExportVideo', download(first.clips[0].frames));
  const gifFile = path.join(out, 'downloaded.gif');
  await gif.saveAs(gifFile);
  step('gif_download', { file: gifFile, suggested: gif.suggestedFilename(), ms: Date.now() - gifStart, notice: (await state()).error });

  // Settings persist in local storage: View > Light theme, then a reload.
  const stored = await act('LightTheme', storedTheme('light'));
  await page.reload();
  await until('the sample after a reload', (s) => s.pose_shown && !s.loading);
  await frames(2);
  step('settings', { stored, after_reload: await page.evaluate(() => localStorage.getItem('skelview.settings.toml')) });
  await page.screenshot({ path: path.join(out, 'light.png') });
  // Back to the dark theme for the rest.
  step('dark_again', { stored: await act('LightTheme', storedTheme('dark')) });
  await page.focus('#skelview-canvas');
  await pause();
  await page.keyboard.press('Home');
  await until('frame 0', (s) => s.frame === 0);

  // 2. Scrubbing changes the picture.
  await page.keyboard.press('End');
  const scrubbed = await until('the last frame', (s) => s.frame > 0);
  await frames(2);
  step('scrubbed', { ...(await viewport('sample_scrubbed')), frame: scrubbed.frame });

  // 3. Files through the file input: a BVH, an ASF + AMC pair, an FBX and a glb.
  for (const [name, paths] of [['bvh', [files.bvh]], ['asfamc', [files.asf, files.amc]], ['fbx', [files.fbx]], ['glb', [files.glb]]]) {
    const fresh = await open(paths);
    const s = await until(`${name} loaded`, (s) => shows(fresh, paths[paths.length - 1])(s) || !!s.error);
    step(`open_${name}`, { clips: s.clips, error: s.error });
    if (s.error) break;
  }
  // Characters' meshes drawn: the glb skinned and textured, the other rigid parts on joints.
  await character('webgl2_glb', files.glb);
  await character('webgl2_character', files.character);

  // 4. A truncated file: the command line's message, and the page keeps working.
  await open([files.truncated]);
  const broken = await until('the error', (s) => !!s.error && !s.loading);
  step('truncated', { error: broken.error, clips: broken.clips });
  await page.keyboard.press('Escape');
  const freshAfter = await open([files.bvh]);
  const after = await until('a file after the error', shows(freshAfter, files.bvh));
  step('after_error', { clips: after.clips });

  // ?file=URL opens a file fetched from the page's origin; a missing one is an open error.
  await page.goto(`${base}?file=${encodeURIComponent(files.served)}`);
  const fetched = await until('the ?file= take', (s) => !s.loading && s.clips.length === 1 && (s.clips[0].name ?? '').endsWith(files.served) || !!s.error);
  step('url_file', { clips: fetched.clips, error: fetched.error });
  await page.goto(`${base}?file=missing.bvh`);
  const missing = await until('the fetch error', (s) => !!s.error);
  step('url_missing', { error: missing.error, clips: missing.clips });
  // A fresh page (no error shown) for the big file.
  await page.goto(base);
  await until('the sample again', (s) => s.pose_shown && !s.loading && !s.error);
  await page.focus('#skelview-canvas');

  // 5. A 20 MB BVH: frames keep being presented while it loads. Each animation frame
  // records whether the viewer was still loading then.
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (t) => {
      const s = JSON.parse(window.skelview.state() || 'null');
      window.__frames.push([t, !!s?.loading]);
      if (window.__frames.length < 100000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const startMs = await page.evaluate(() => performance.now());
  const presentedBefore = (await state()).presented;
  const freshBig = await open([files.big]);
  const big = await until('the big file', (s) => shows(freshBig, files.big)(s) || !!s.error);
  const gaps = await page.evaluate((t0) => {
    const f = window.__frames.filter(([t]) => t >= t0);
    const loading = f.filter(([, l]) => l);
    // From the first frame that saw the load under way to the first that saw it done.
    const first = f.findIndex(([, l]) => l);
    const last = f.findIndex(([, l], k) => k > first && !l);
    let longest = 0;
    for (let k = Math.max(first, 1); first >= 0 && k <= (last < 0 ? f.length - 1 : last); k++) longest = Math.max(longest, f[k][0] - f[k - 1][0]);
    return { frames_while_loading: loading.length, load_ms: first >= 0 && last >= 0 ? f[last][0] - f[first][0] : null, longest_gap_ms: longest };
  }, startMs);
  await frames(2);
  step('big', { clips: big.clips, error: big.error, ...gaps, presented_before: presentedBefore, presented_after: (await state()).presented });
  results.fatal = await fatal();

  // 6. The page on WebGPU: the sample and the characters again, where Chromium has an adapter.
  gpuBrowser = await launch(WEBGPU_FLAGS);
  page = await newPage(gpuBrowser, 'webgpu ');
  await page.goto(base);
  await until('the sample on WebGPU', (s) => s.pose_shown && s.clips.length === 1 && !s.loading);
  const adapter = await page.evaluate(async () => {
    const a = await navigator.gpu?.requestAdapter();
    return a ? `${a.info?.vendor ?? ''} ${a.info?.architecture ?? ''} ${a.info?.description ?? ''}`.trim() : null;
  });
  step('webgpu', { context: await canvasContext(), adapter });
  if ((await canvasContext()) === 'webgpu') {
    await firstFrame('webgpu_sample_frame0');
    await character('webgpu_glb', files.glb);
    await character('webgpu_character', files.character);
  }
  results.fatal ??= await fatal();
} catch (e) {
  results.failure = String(e?.stack ?? e);
  results.fatal = await fatal().catch(() => null);
  await page.screenshot({ path: path.join(out, 'failure.png') }).catch(() => {});
} finally {
  results.console = consoleLines.slice(-200);
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify(results, null, 2));
  await browser.close();
  await gpuBrowser?.close();
}
