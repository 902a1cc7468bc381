//! skelview in a browser tab: the desktop viewer's code (`skelview::window`, `app`, `ui`)
//! compiled to WebAssembly, plus the few entry points the page (`web/index.html`) calls.
//! `web/build.sh` builds it into a folder of static files.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;

/// Starts the viewer on the page's `#skelview-canvas`; `open_sample`: show the bundled sample
/// (false when the page is fetching a `?file=` of its own); `webgpu`: the browser gave the
/// page a WebGPU adapter (otherwise WebGL2 is used without asking WebGPU again).
#[wasm_bindgen]
pub fn start(open_sample: bool, webgpu: bool) -> Result<(), JsValue> {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("skelview stopped: {info}");
        web_sys::console::error_1(&message.clone().into());
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("skelview-fatal")) {
            el.set_text_content(Some(&message));
            let _ = el.set_attribute("style", "display:block");
        }
    }));
    skelview::window::run_web(open_sample, webgpu).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Runs the background work queued since the last call (the page calls it through
/// `WebAssembly.promising` where the browser has JSPI, so that the work can pause for frames).
#[wasm_bindgen]
pub fn run_tasks() {
    skelview::browser::run_tasks();
}

/// Whether `run_tasks` is called through `WebAssembly.promising` (the work may suspend).
#[wasm_bindgen]
pub fn set_suspendable(on: bool) {
    skelview::browser::set_suspendable(on);
}

/// One file of a batch the page hands in (picked, dropped or fetched).
#[wasm_bindgen]
pub fn stage_file(name: String, bytes: Vec<u8>) {
    skelview::browser::stage_file(name, bytes);
}

/// The staged files, opened together (an ASF with its AMC pairs); `add`: beside the clips
/// shown instead of replacing them.
#[wasm_bindgen]
pub fn open_staged(add: bool) {
    skelview::browser::deliver_staged(add);
}

/// The page could not get a file (a `?file=` fetch that failed, `reason` as the browser gives
/// it): shown as an open error.
#[wasm_bindgen]
pub fn report_error(reason: String) {
    skelview::browser::push(skelview::browser::Inbound::Failed(reason));
}

/// Runs the viewer's action named `name` (as `ActionId` spells it: `ExportVideo`,
/// `SaveScreenshot`, `LightTheme`…) at its next frame, as its menu entry or key would; false
/// for a name the table does not have.
#[wasm_bindgen]
pub fn action(name: String) -> bool {
    let known = skelview::app::actions::ActionId::named(&name).is_some();
    if known {
        skelview::browser::push(skelview::browser::Inbound::Action(name));
    }
    known
}

/// The viewer's state after the last frame, as JSON: `clips` (name, joints, frames, meshes,
/// body: `skeleton`, `mesh` or `both`), `frame`, `time_secs`, `playing`, `loading`, `working`,
/// `pose_shown`, `viewport` (x, y, width, height in canvas pixels), `camera`, `error` (the
/// message shown, or null), `skins` (skinned-mesh draws of the frame) and `presented` (frames
/// drawn so far: wait for frames, not for a while).
#[wasm_bindgen]
pub fn state() -> String {
    skelview::browser::state()
}
