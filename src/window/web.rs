//! The window in a browser tab: winit's web backend on the page's canvas. The graphics device
//! arrives asynchronously (a promise), so the window waits for it in [`Starting`]; files the
//! page hands in are taken once a frame; milestones are marked on the page's performance
//! timeline (`skelview:first-pose-drawn` and the others) for the page and its tests.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use wasm_bindgen::JsCast;
use winit::event_loop::EventLoopProxy;
use winit::platform::web::{EventLoopExtWebSys, WindowAttributesExtWebSys};
use winit::window::Window;

use super::{App, Wake};
use crate::app::trace::Milestone;
use crate::app::{AppError, Command, Effect, ExportFailure, FetchError, FilesCommand, RangeCapture, Viewer};
use crate::browser::{self, Inbound, PageError};
use skelview_core::core::PlaybackCommand;
use skelview_core::formats::LoadOptions;

/// The id of the page's canvas.
pub const CANVAS_ID: &str = "skelview-canvas";

type Ready = Result<(Arc<Window>, egui::Context, egui_wgpu::winit::Painter), super::WindowError>;

/// The window and egui while the browser sets up the graphics device.
pub(super) struct Starting {
    ready: Rc<RefCell<Option<Ready>>>,
}

impl Starting {
    /// Asks the browser for a device on `window`'s canvas; `proxy` wakes the loop when done.
    /// `webgpu`: the page found a WebGPU adapter; without one only WebGL2 is asked for.
    pub(super) fn new(window: Arc<Window>, ctx: egui::Context, proxy: Arc<Mutex<EventLoopProxy<Wake>>>, webgpu: bool) -> Self {
        let ready = Rc::new(RefCell::new(None));
        let slot = ready.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let mut config = egui_wgpu::WgpuConfiguration::default();
            // Asking WebGPU for an adapter the browser does not have waits on the GPU
            // process; the page asked already, and WebGL2 alone answers at once.
            if let (false, egui_wgpu::WgpuSetup::CreateNew(setup)) = (webgpu, &mut config.wgpu_setup) {
                setup.instance_descriptor.backends.remove(wgpu::Backends::BROWSER_WEBGPU);
            }
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

/// What the browser keeps between frames.
#[derive(Default)]
pub(super) struct Platform {
    /// The window and egui, waiting for the graphics device.
    starting: Option<Starting>,
    /// A GIF being recorded from the canvas.
    recording: Option<Recording>,
    /// The viewer's canvas captures, done once the frame is drawn.
    canvas_effects: Vec<Effect>,
    /// Frames drawn so far: a page (or its test) waits for frames, not for a while.
    presented: u64,
    /// The page found a WebGPU adapter (it asks while the module downloads).
    webgpu: bool,
}

impl Platform {
    /// Keeps a capture of the canvas for when the frame is drawn.
    pub(super) fn keep(&mut self, effect: Effect) {
        self.canvas_effects.push(effect);
    }
}

/// A web page always reports its milestones (to the page, for its load-time figure).
pub(super) const ALWAYS_TRACE: bool = true;

/// The page's host ([`crate::app::Page`]) is the viewer's default in this build.
pub(super) fn set_host(_: &mut Viewer) {}

impl App {
    /// Asks the browser for a device on `window`'s canvas; the loop goes on meanwhile.
    pub(super) fn start_graphics(
        &mut self,
        _: &winit::event_loop::ActiveEventLoop,
        window: Arc<Window>,
        ctx: egui::Context,
    ) -> Result<(), super::WindowError> {
        self.platform.starting = Some(Starting::new(window, ctx, self.proxy.clone(), self.platform.webgpu));
        Ok(())
    }

    /// Takes what the page handed in, and moves a GIF being recorded to its next frame.
    pub(super) fn before_update(&mut self) {
        take_inbox(&mut self.viewer);
        if let Some(recording) = &self.platform.recording {
            recording.seek(&mut self.viewer);
        }
    }

    /// Captures what was asked of the drawn canvas and tells the page the viewer's state.
    pub(super) fn after_frame(&mut self, why: &super::NextFrame) {
        self.capture_web();
        self.platform.presented += 1;
        // What asked egui for a frame during this one (`file:line reason`): read only here, where
        // it is published.
        let causes: Vec<String> =
            self.running.as_ref().map(|r| r.ctx.repaint_causes().iter().map(ToString::to_string).collect()).unwrap_or_default();
        publish(&self.viewer, self.platform.presented, why, &causes);
    }

    /// The graphics device may have arrived.
    pub(super) fn on_wake(&mut self) {
        if let Some(ready) = self.platform.starting.as_mut().and_then(Starting::take) {
            self.platform.starting = None;
            match ready {
                Ok((window, ctx, painter)) => self.started(window, ctx, painter),
                Err(e) => self.error = Some(e),
            }
            if let Some(e) = &self.error {
                show_fatal(&e.to_string());
            }
        }
    }

    /// After a frame is drawn (in the same turn, while the canvas still holds it): the
    /// screenshot asked for, and the next frame of a GIF being recorded.
    fn capture_web(&mut self) {
        let Some(window) = self.running.as_ref().map(|r| r.window.clone()) else { return };
        // What the page did is told to the viewer as commands, applied at its next update.
        let viewer = &mut self.viewer;
        let failed = |e: PageError| Command::ShowError(ExportFailure::Page(e).into());
        let effects = std::mem::take(&mut self.platform.canvas_effects);
        for effect in &effects {
            if let Effect::SaveViewport(name) = effect {
                let done = match save_viewport(&window, viewer, name) {
                    Ok(notice) => Command::Notify(notice),
                    Err(e) => failed(e),
                };
                viewer.send(done);
            }
        }
        if let Some(recording) = &mut self.platform.recording {
            match recording.capture(&window, viewer) {
                Ok(false) => viewer.send(Command::Notify(recording.progress())),
                Ok(true) => match self.platform.recording.take().map(Recording::finish) {
                    Some(Ok(notice)) => viewer.send(Command::Notify(notice)),
                    Some(Err(e)) => viewer.send(failed(e)),
                    None => {}
                },
                Err(e) => {
                    self.platform.recording = None;
                    viewer.send(failed(e));
                }
            }
        }
        for effect in effects {
            if let Effect::RecordRange(capture) = effect {
                match (&self.platform.recording, Recording::start(capture, viewer.view.viewport_px)) {
                    (Some(_), _) => viewer.send(failed(PageError::new("a GIF is already being recorded"))),
                    (None, Ok(recording)) => self.platform.recording = Some(recording),
                    (None, Err(e)) => viewer.send(failed(e)),
                }
            }
        }
        if self.platform.recording.is_some() {
            window.request_redraw();
        }
    }

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

/// The canvas's size as the page laid it out, in device pixels (`None` before layout):
/// winit learns it from a resize observer whose first report may come late.
pub(super) fn laid_out_size(window: &Window) -> Option<winit::dpi::PhysicalSize<u32>> {
    use winit::platform::web::WindowExtWebSys;
    let canvas = window.canvas()?;
    let scale = window.scale_factor();
    let (w, h) = (f64::from(canvas.client_width()) * scale, f64::from(canvas.client_height()) * scale);
    (w >= 1.0 && h >= 1.0).then(|| winit::dpi::PhysicalSize::new(w.round() as u32, h.round() as u32))
}

/// Starts the viewer on the page's canvas (`#skelview-canvas`) and returns at once: the
/// browser drives the loop. `open_sample`: show the bundled sample (false when the page is
/// about to hand in a file of its own); `webgpu`: the browser has a WebGPU adapter.
pub fn run_web(open_sample: bool, webgpu: bool) -> Result<(), super::WindowError> {
    let (event_loop, mut app) = super::prepare(Vec::new(), LoadOptions::default(), crate::app::Start::default())?;
    app.sample_when_empty = open_sample;
    app.platform.webgpu = webgpu;
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
            Inbound::Failed(reason) => viewer.send(Command::ShowError(AppError::Fetch(FetchError { reason }))),
            Inbound::Action(name) => {
                if let Some(id) = crate::app::actions::ActionId::named(&name) {
                    let command = id.command(viewer);
                    viewer.send(command);
                }
            }
        }
    }
}

/// Publishes what a page (or its tests) may want to know of the viewer after a frame: the
/// clips and their joint, frame and mesh counts and what each shows of a character, the time,
/// whether it plays, the viewport's place in the canvas (physical pixels), loads under way,
/// the error shown and the skinned-mesh draws of the frame.
pub(super) fn publish(viewer: &Viewer, presented: u64, why: &super::NextFrame, egui_causes: &[String]) {
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
                "meshes": c.motion.meshes.as_ref().map_or(0, |m| m.meshes.len()),
                "body": c.body.name(),
                // A new one for every file opened: the same file opened again is told apart.
                "serial": c.serial,
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
        // Skinned-mesh draws of the frame last drawn.
        "skins": viewer.frame.draw.skins.draws.len(),
        "presented": presented,
        // What asks for the next frame (a test that waits for the drawing to stop says it).
        "next_frame": {
            "animating": why.animating,
            "egui_delay_ms": why.egui_delay.map(|d| d.as_secs_f64() * 1000.0),
            "egui_causes": egui_causes,
            "wakes": why.wakes,
        },
    });
    browser::publish_state(state.to_string());
}

/// The viewport as the canvas shows it right now, copied (scaled to `size`) into a 2D
/// canvas: called in the frame that drew it, while the drawing buffer is still there.
fn copy_viewport(
    window: &Window,
    viewer: &Viewer,
    size: (u32, u32),
) -> Result<(web_sys::HtmlCanvasElement, web_sys::CanvasRenderingContext2d), PageError> {
    use winit::platform::web::WindowExtWebSys;
    let canvas = window.canvas().ok_or_else(|| PageError::new("the window has no canvas"))?;
    let fail = |e: wasm_bindgen::JsValue| PageError(format!("cannot copy the viewport: {e:?}"));
    let (x, y) = viewer.view.viewport_origin_px;
    let (w, h) = viewer.view.viewport_px;
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| PageError::new("no document"))?;
    let copy: web_sys::HtmlCanvasElement = document.create_element("canvas").map_err(fail)?.unchecked_into();
    copy.set_width(size.0);
    copy.set_height(size.1);
    let context: web_sys::CanvasRenderingContext2d =
        copy.get_context("2d").map_err(fail)?.ok_or_else(|| PageError::new("no 2D context"))?.unchecked_into();
    let (x, y, w, h) = (f64::from(x), f64::from(y), f64::from(w), f64::from(h));
    let (dw, dh) = (f64::from(size.0), f64::from(size.1));
    context
        .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(&canvas, x, y, w, h, 0.0, 0.0, dw, dh)
        .map_err(fail)?;
    Ok((copy, context))
}

/// Saves the viewport as the canvas shows it right now as a PNG download; the notice, or why
/// not.
pub(super) fn save_viewport(window: &Window, viewer: &Viewer, name: &std::path::Path) -> Result<String, PageError> {
    let (w, h) = viewer.view.viewport_px;
    let (copy, _) = copy_viewport(window, viewer, (w, h))?;
    let url = copy.to_data_url_with_type("image/png").map_err(|e| PageError(format!("cannot encode the screenshot: {e:?}")))?;
    let file = name.file_name().map_or("skelview.png".into(), |n| n.to_string_lossy().into_owned());
    browser::download_url(&url, &file)?;
    Ok(format!("saved {file} ({w}x{h})"))
}

/// A GIF recorded from the canvas: each frame of the range is shown, drawn, then copied out
/// (480 pixels high at most, as the desktop's GIFs) and encoded, one per drawn frame.
pub(super) struct Recording {
    name: String,
    frames: Vec<(usize, f64)>,
    next: usize,
    fps: f64,
    size: (u16, u16),
    encoder: gif::Encoder<Vec<u8>>,
}

impl Recording {
    /// Starts recording `capture` of a viewport of `viewport` pixels.
    pub(super) fn start(capture: RangeCapture, viewport: (u32, u32)) -> Result<Self, PageError> {
        let h = viewport.1.clamp(2, 480);
        let w = ((viewport.0 as f64 * h as f64 / viewport.1.max(1) as f64 / 2.0).round() as u32 * 2).clamp(2, 4096);
        let size = (w as u16, h as u16);
        let fail = |e: gif::EncodingError| PageError(format!("cannot record the GIF: {e}"));
        let mut encoder = gif::Encoder::new(Vec::new(), size.0, size.1, &[]).map_err(fail)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
        let name = capture.name.file_name().map_or("skelview.gif".into(), |n| n.to_string_lossy().into_owned());
        Ok(Self { name, frames: capture.frames, next: 0, fps: capture.fps, size, encoder })
    }

    /// Before the frame is composed: show the next frame of the range.
    pub(super) fn seek(&self, viewer: &mut Viewer) {
        if let Some(&(_, time_secs)) = self.frames.get(self.next) {
            viewer.send(Command::Playback(PlaybackCommand::Seek(time_secs)));
        }
    }

    /// After the frame is drawn: encodes it. `Ok(true)` once every frame is in.
    pub(super) fn capture(&mut self, window: &Window, viewer: &Viewer) -> Result<bool, PageError> {
        let (w, h) = (u32::from(self.size.0), u32::from(self.size.1));
        let (_, context) = copy_viewport(window, viewer, (w, h))?;
        let data = context
            .get_image_data(0.0, 0.0, f64::from(w), f64::from(h))
            .map_err(|e| PageError(format!("cannot read the viewport: {e:?}")))?;
        let mut pixels = data.data().0;
        let mut frame = gif::Frame::from_rgba_speed(self.size.0, self.size.1, &mut pixels, 10);
        frame.delay = skelview_video::gif_delay_cs(self.next, self.fps);
        self.encoder.write_frame(&frame).map_err(|e| PageError(format!("cannot record the GIF: {e}")))?;
        self.next += 1;
        Ok(self.next >= self.frames.len())
    }

    /// "recording NAME: k / n frames", for the status bar.
    pub(super) fn progress(&self) -> String {
        format!("recording {}: {} / {} frames", self.name, self.next, self.frames.len())
    }

    /// Offers the GIF as a download; the notice.
    pub(super) fn finish(self) -> Result<String, PageError> {
        let (name, frames, size) = (self.name.clone(), self.next, self.size);
        let bytes = self.encoder.into_inner().map_err(|e| PageError(format!("cannot finish the GIF: {e}")))?;
        browser::download(&name, &bytes, "image/gif")?;
        Ok(format!("saved {name} ({frames} frames, {}x{}, {} kB)", size.0, size.1, bytes.len() / 1024))
    }
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
