// The page's side of skelview: starts the WebAssembly viewer on the canvas and hands it files
// (the file input that File > Open clicks, files dropped on the page, a ?file=URL). Everything
// else (the viewer, the panels, the loaders) is the Rust code of the desktop viewer.
import init, { start, stage_file, open_staged, report_error, state, set_suspendable, action } from './pkg/skelview_web.js';
import { install, jspi } from './pkg/jspi.js';

const fatal = (message) => {
  const el = document.getElementById('skelview-fatal');
  el.textContent = message;
  el.style.display = 'block';
};

// Hands a batch of File objects to the viewer (read as bytes; an ASF and its AMC dropped
// together pair up).
async function openFiles(files, add) {
  const list = Array.from(files);
  if (list.length === 0) return;
  // Everything is read before anything is staged, and staged and opened with no await in
  // between: batches that overlap (two drops, a drop during a fetch) stay apart.
  const read = await Promise.all(list.map(async (file) => [file.name, new Uint8Array(await file.arrayBuffer())]));
  stageAndOpen(read, add);
}

function stageAndOpen(read, add) {
  for (const [name, bytes] of read) stage_file(name, bytes);
  open_staged(add);
}

// ?file=URL (one or several), opened together: fetched by the browser, so from the page's
// origin or a server that allows cross-origin requests.
async function openFromUrl(urls) {
  try {
    const read = await Promise.all(urls.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
      const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() || url);
      return [name, new Uint8Array(await response.arrayBuffer())];
    }));
    stageAndOpen(read, false);
  } catch (e) {
    report_error(`${e.message ?? e}`);
  }
}

// Headless Chromium's virtual clock (`--screenshot --virtual-time-budget`, how pages are
// thumbnailed and archived) runs on while the page only waits (for the module to compile, the
// GPU to answer), and may run out before the first frame: a blank picture. Tasks posted
// through a MessageChannel keep the page busy without moving that clock, until the first pose
// is drawn or the page shows an error: a few seconds of one core, in headless Chromium only.
function holdVirtualClock() {
  if (!/HeadlessChrome/.test(navigator.userAgent)) return;
  const channel = new MessageChannel();
  const drawn = () => performance.getEntriesByName('skelview:first-pose-drawn').length > 0;
  const failed = () => document.getElementById('skelview-fatal').style.display === 'block'
    || JSON.parse(window.skelview?.state?.() || 'null')?.error != null;
  let n = 0;
  channel.port1.onmessage = () => {
    // Checked every 256 turns; given up after some 10^7 (a minute or more).
    if ((++n % 256 === 0 && (drawn() || failed())) || n > 2e7) {
      channel.port1.close();
      return;
    }
    channel.port2.postMessage(0);
  };
  channel.port2.postMessage(0);
}

async function main() {
  holdVirtualClock();
  if (!('WebAssembly' in window)) {
    fatal('This browser has no WebAssembly: skelview cannot run here.');
    return;
  }
  // Whether the browser has a WebGPU adapter, asked while the module downloads: the viewer
  // then asks only for what is there (without one, WebGL2 straight away, not after a second
  // round trip to the GPU process).
  const webgpu = navigator.gpu
    ? navigator.gpu.requestAdapter().then((adapter) => adapter !== null, () => false)
    : Promise.resolve(false);
  const [wasm, hasWebgpu] = await Promise.all([init(), webgpu]);
  // Background work runs through promising where the browser has JSPI, so that it can pause
  // for frames (see jspi.js).
  install(jspi ? WebAssembly.promising(wasm.run_tasks) : wasm.run_tasks);
  set_suspendable(jspi);
  const urls = new URLSearchParams(location.search).getAll('file');
  start(urls.length === 0, hasWebgpu);
  // For a page that embeds the viewer, and for its tests: the viewer's state after the last
  // frame (clips, frame, time, viewport, error, frames presented), a way to hand it files, and
  // the menus' actions by name (`action('ExportVideo')`; false for an unknown name).
  window.skelview = { state: () => state(), openFiles, action: (name) => action(name) };
  document.getElementById('skelview-loading').remove();
  document.getElementById('skelview-canvas').focus();

  const input = document.getElementById('skelview-files');
  input.addEventListener('change', async () => {
    await openFiles(input.files, input.dataset.add === '1');
    input.value = '';
  });

  const overlay = document.getElementById('skelview-drop');
  let depth = 0;
  window.addEventListener('dragenter', (e) => { e.preventDefault(); depth++; overlay.style.display = 'flex'; });
  window.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; overlay.style.display = 'none'; } });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', async (e) => {
    e.preventDefault();
    depth = 0;
    overlay.style.display = 'none';
    if (e.dataTransfer?.files?.length) await openFiles(e.dataTransfer.files, e.shiftKey || e.ctrlKey);
  });

  if (urls.length > 0) await openFromUrl(urls);
}

main().catch((e) => fatal(`skelview could not start: ${e?.message ?? e}`));
