// The page's side of skelview's task runner. A browser tab gives the viewer one thread, so its
// background work (loading, checks, curves) runs between frames. Where the browser has JSPI
// (JavaScript Promise Integration: WebAssembly.Suspending and WebAssembly.promising), a task
// suspends itself every frame's worth of work and the page keeps drawing; elsewhere each task
// runs to its end in one go. web/build.sh copies this file beside the generated JS, which
// imports it under this name.

export const jspi = typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function';

let runTasks = null;

// Called once by the page with the export that runs the queue (wrapped in promising with JSPI).
export function install(run) {
  runTasks = run;
}

// The viewer queued work: run the queue after the browser's current turn.
export function skelview_schedule() {
  setTimeout(async () => {
    try {
      await runTasks?.();
    } catch (e) {
      console.error('skelview: background work failed', e);
    }
  }, 0);
}

// Suspends the running task until the browser has drawn a frame (and handled the input that
// came meanwhile): resumed from a timer queued in the next animation frame, so that the
// frame is painted first. A timer alone would let the work starve rendering.
// A hidden tab gets no animation frames: then a timer resumes the work after 100 ms.
const nextFrame = () => new Promise((resolve) => {
  let done = false;
  const go = () => { if (!done) { done = true; resolve(); } };
  requestAnimationFrame(() => setTimeout(go, 0));
  setTimeout(go, 100);
});
export const skelview_suspend = jspi ? new WebAssembly.Suspending(nextFrame) : () => {};
