//! The window in a browser tab: winit's web backend on the page's canvas. The graphics device
//! arrives asynchronously (a promise), so the window waits for it in [`Starting`]; files the
//! page hands in are taken once a frame; milestones are marked on the page's performance
//! timeline (`skelview:first-pose` and the others) for the page and its tests.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use wasm_bindgen::JsCast;
use winit::event_loop::EventLoopProxy;
use winit::platform::web::{EventLoopExtWebSys, WindowAttributesExtWebSys};
use winit::window::Window;

use super::{App, Wake};
use crate::app::trace::Milestone;
use crate::app::{AppError, Command, FilesCommand, Viewer};
use crate::browser::{self, Inbound};
use skelview_core::formats::LoadOptions;

/// The id of the page's canvas.
pub const CANVAS_ID: &str = "skelview-canvas";

type Ready = Result<(Arc<Window>, egui::Context, egui_wgpu::winit::Painter), String>;

/// The window and egui while the browser sets up the graphics device.
pub(super) struct Starting {
    ready: Rc<RefCell<Option<Ready>>>,
}

impl Starting {
    /// Asks the browser for a device on `window`'s canvas; `proxy` wakes the loop when done.
    pub(super) fn new(window: Arc<Window>, ctx: egui::Context, proxy: Arc<Mutex<EventLoopProxy<Wake>>>) -> Self {
        let ready = Rc::new(RefCell::new(None));
        let slot = ready.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let config = egui_wgpu::WgpuConfiguration::default();
            let outcome = super::painter(ctx.clone(), window.clone(), config).await.map(|p| (window, ctx, p));
            *slot.borrow_mut() = Some(outcome);
            if let Ok(p) = proxy.lock() {
                let _ = p.send_event(Wake::Repaint);
            }
        });
        Self { ready }
    }

    /// The device, once the browser has given it.
    pub(super) fn take(&mut self) -> Option<Ready> {
        self.ready.borrow_mut().take()
    }
}

impl App {
    pub(super) fn window_attributes(&self) -> winit::window::WindowAttributes {
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(CANVAS_ID))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        // The page sizes the canvas (CSS); without one winit appends its own to the body.
        Window::default_attributes()
            .with_title("skelview")
            .with_canvas(canvas.clone())
            .with_append(canvas.is_none())
            .with_prevent_default(true)
    }
}

/// Starts the viewer on the page's canvas (`#skelview-canvas`) and returns at once: the
/// browser drives the loop. `open_sample`: show the bundled sample (false when the page is
/// about to hand in a file of its own).
pub fn run_web(open_sample: bool) -> Result<(), String> {
    let (event_loop, mut app) = super::prepare(Vec::new(), LoadOptions::default(), crate::app::Start::default())?;
    app.sample_when_empty = open_sample;
    let proxy = app.proxy.clone();
    browser::set_waker(move || {
        if let Ok(p) = proxy.lock() {
            let _ = p.send_event(Wake::Repaint);
        }
    });
    event_loop.spawn_app(app);
    Ok(())
}

/// Turns what the page handed in into commands.
pub(super) fn take_inbox(viewer: &mut Viewer) {
    for item in browser::take_inbox() {
        match item {
            Inbound::Files { files, add } => viewer.send(Command::Files(FilesCommand::OpenBytes { files, add })),
            Inbound::Failed(message) => viewer.send(Command::ShowError(AppError::Open(message))),
        }
    }
}

/// Publishes what a page (or its tests) may want to know of the viewer after a frame: the
/// clips and their joint and frame counts, the time, whether it plays, the viewport's place
/// in the canvas (physical pixels), loads under way and the error shown.
pub(super) fn publish(viewer: &Viewer) {
    let p = &viewer.session.playback;
    let clips: Vec<serde_json::Value> = viewer
        .session
        .clips()
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.motion.source.paths.last().map(|p| p.display().to_string()),
                "joints": c.motion.skeleton.joints().len(),
                "frames": c.motion.clip.num_frames(),
            })
        })
        .collect();
    let (x, y) = viewer.view.viewport_origin_px;
    let (w, h) = viewer.view.viewport_px;
    let state = serde_json::json!({
        "clips": clips,
        "frame": p.frame(),
        "time_secs": p.time_secs,
        "playing": p.playing,
        "loading": viewer.loading(),
        "working": viewer.working(),
        "pose_shown": viewer.pose_shown(),
        "viewport": [x, y, w, h],
        // As `skelview render --camera` takes it: target and distance in metres, degrees.
        "camera": {
            "target": viewer.view.camera.target.to_array(),
            "distance": viewer.view.camera.distance,
            "yaw_deg": viewer.view.camera.yaw.to_degrees(),
            "pitch_deg": viewer.view.camera.pitch.to_degrees(),
            "orthographic": viewer.view.camera.orthographic,
        },
        "error": viewer.messages.error,
    });
    browser::publish_state(state.to_string());
}

/// Saves the viewport as the canvas shows it right now (called in the frame that drew it,
/// while the drawing buffer is still there) as a PNG download; the notice, or why not.
pub(super) fn save_viewport(window: &Window, viewer: &Viewer, name: &std::path::Path) -> Result<String, String> {
    use winit::platform::web::WindowExtWebSys;
    let canvas = window.canvas().ok_or("the window has no canvas")?;
    let fail = |e: wasm_bindgen::JsValue| format!("cannot save the screenshot: {e:?}");
    let (x, y) = viewer.view.viewport_origin_px;
    let (w, h) = viewer.view.viewport_px;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let copy: web_sys::HtmlCanvasElement = document.create_element("canvas").map_err(fail)?.unchecked_into();
    copy.set_width(w);
    copy.set_height(h);
    let context: web_sys::CanvasRenderingContext2d = copy.get_context("2d").map_err(fail)?.ok_or("no 2D context")?.unchecked_into();
    let (x, y, w, h) = (f64::from(x), f64::from(y), f64::from(w), f64::from(h));
    context
        .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(&canvas, x, y, w, h, 0.0, 0.0, w, h)
        .map_err(fail)?;
    let url = copy.to_data_url_with_type("image/png").map_err(fail)?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").map_err(fail)?.unchecked_into();
    a.set_href(&url);
    let file = name.file_name().map_or("skelview.png".into(), |n| n.to_string_lossy());
    a.set_download(&file);
    a.click();
    Ok(format!("saved {file} ({w}x{h})"))
}

thread_local! {
    static MARKED: RefCell<u32> = const { RefCell::new(0) };
}

/// Marks a milestone on the page's performance timeline, once.
pub(super) fn milestone(m: Milestone) {
    let bit = 1u32 << (m as u32);
    let first = MARKED.with(|marked| {
        let mut marked = marked.borrow_mut();
        let first = *marked & bit == 0;
        *marked |= bit;
        first
    });
    if first && let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(&format!("skelview:{}", m.label().replace(' ', "-")));
    }
}

/// Shows an error that stops the viewer (no graphics device) on the page.
pub(super) fn show_fatal(message: &str) {
    web_sys::console::error_1(&message.into());
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("skelview-fatal")) {
        el.set_text_content(Some(message));
        let _ = el.set_attribute("style", "display:block");
    }
}
