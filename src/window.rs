//! The window: winit events in, egui + wgpu frames out. The event loop sleeps until input,
//! a repaint request from egui, or a wake-up from the loader thread; it runs continuously
//! only while playing or loading. The same code runs in a browser tab (winit's web backend
//! on the page's canvas, wgpu on WebGL2 or WebGPU): there the graphics device arrives
//! asynchronously and files come in through the page ([`crate::browser`]).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};

use crate::app::trace::{Milestone, Phase, Trace};
use crate::app::{Effect, Viewer};
use crate::ui::{self, ViewportGpu};
use skelview_core::formats::LoadOptions;

/// Wakes the event loop from another thread.
#[derive(Debug, Clone, Copy)]
enum Wake {
    Repaint,
}

struct Running {
    window: Arc<Window>,
    ctx: egui::Context,
    egui_state: egui_winit::State,
    painter: egui_wgpu::winit::Painter,
    gpu: ViewportGpu,
    last_frame: Instant,
    frame_ms: f32,
    /// Frames drawn since every file was in and the background work on it was done.
    frames: u64,
}

struct App {
    proxy: Arc<Mutex<EventLoopProxy<Wake>>>,
    files: Vec<PathBuf>,
    viewer: Viewer,
    running: Option<Running>,
    /// Exit after this many frames once every file is in and checked (tests and benchmarks
    /// under Xvfb).
    quit_after_frames: Option<u64>,
    error: Option<WindowError>,
    /// Shift/Ctrl held: a dropped file is added instead of replacing.
    modifiers: winit::keyboard::ModifiersState,
    /// A file was dropped since the last frame: further files of the same drop are added.
    dropped_since_frame: bool,
    /// `SKELVIEW_TRACE`: start milestones and frame times.
    trace: Trace,
    /// Open the bundled sample when no file is given (a web page that fetches `?file=` says no).
    sample_when_empty: bool,
    /// What the platform keeps between frames (in a browser: the device on its way, the
    /// canvas captures asked for, a GIF being recorded).
    platform: platform::Platform,
    /// Wake-ups (a load's or a task's progress, egui asking for a frame) since the last frame.
    wakes: u32,
}

/// Why the window draws again after a frame: a page's test that waits for the viewer to stop
/// drawing says what kept it going.
#[cfg_attr(not(target_arch = "wasm32"), expect(dead_code, reason = "only a page publishes why it draws"))]
pub(crate) struct NextFrame {
    /// A clip plays or a job runs: the next frame comes at once.
    animating: bool,
    /// egui's delay before the next frame (`None`: none asked for).
    egui_delay: Option<Duration>,
    /// Wake-ups from other threads since the frame before.
    wakes: u32,
}

impl NextFrame {
    fn of(viewer: &Viewer, delay: Duration, wakes: u32) -> Self {
        let egui_delay = (delay < Duration::from_secs(3600)).then_some(delay);
        NextFrame { animating: viewer.animating(), egui_delay, wakes }
    }
}

/// The event loop and the viewer it drives, before it runs.
fn prepare(files: Vec<PathBuf>, options: LoadOptions, start: crate::app::Start) -> Result<(EventLoop<Wake>, App), WindowError> {
    crate::tasks::background_pool();
    let event_loop = EventLoop::<Wake>::with_user_event().build().map_err(WindowError::EventLoop)?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let proxy = Arc::new(Mutex::new(event_loop.create_proxy()));
    let waker_proxy = proxy.clone();
    let waker: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
        if let Ok(p) = waker_proxy.lock() {
            let _ = p.send_event(Wake::Repaint);
        }
    });
    let quit_after_frames = std::env::var("SKELVIEW_QUIT_AFTER_FRAMES").ok().and_then(|v| v.parse().ok());
    let mut viewer = Viewer::new(options, waker);
    platform::set_host(&mut viewer);
    viewer.start_with(start);
    let app = App {
        proxy,
        files,
        viewer,
        running: None,
        quit_after_frames,
        error: None,
        modifiers: Default::default(),
        dropped_since_frame: false,
        trace: Trace::from_env(),
        sample_when_empty: true,
        platform: platform::Platform::default(),
        wakes: 0,
    };
    Ok((event_loop, app))
}

/// Opens the viewer window on `files` (the bundled sample when empty) and runs until closed;
/// `select` names a joint to select once the first file is in, `curves` opens the
/// channel-curves window.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(files: Vec<PathBuf>, options: LoadOptions, start: crate::app::Start) -> Result<(), WindowError> {
    let (event_loop, mut app) = prepare(files, options, start)?;
    event_loop.run_app(&mut app).map_err(WindowError::Run)?;
    if let Some(summary) = app.trace.summary() {
        eprintln!("{summary}");
    }
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// egui's painter on `window`'s surface (asynchronous: a browser hands out its adapter so).
async fn painter(
    ctx: egui::Context,
    window: Arc<Window>,
    config: egui_wgpu::WgpuConfiguration,
) -> Result<egui_wgpu::winit::Painter, WindowError> {
    let mut painter = egui_wgpu::winit::Painter::new(ctx, config, false, egui_wgpu::RendererOptions::default()).await;
    painter.set_window(egui::ViewportId::ROOT, Some(window)).await.map_err(WindowError::Graphics)?;
    Ok(painter)
}

impl App {
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), WindowError> {
        // The files are read while the window and the graphics device are set up (those take
        // 50-300 ms), so the first frame usually has a pose to show.
        if self.files.is_empty() {
            if self.sample_when_empty {
                self.viewer.open(skelview_core::formats::sample_request());
            }
        } else {
            let files = std::mem::take(&mut self.files);
            self.viewer.open_paths(files, false);
        }
        let window = Arc::new(event_loop.create_window(self.window_attributes()).map_err(WindowError::Create)?);
        self.mark(Milestone::WindowCreated);
        let ctx = egui::Context::default();
        ctx.set_theme(if self.viewer.settings.light_theme { egui::Theme::Light } else { egui::Theme::Dark });
        let proxy = self.proxy.clone();
        // Only a request for a frame now wakes the loop: a later one (a tooltip's delay, a
        // text cursor's blink) asked for during a frame comes back as that frame's repaint
        // delay. Waking for it would draw at once, and the next frame would ask again: frames
        // without end while a text field has the focus.
        ctx.set_request_repaint_callback(move |info| {
            if info.delay.is_zero()
                && let Ok(p) = proxy.lock()
            {
                let _ = p.send_event(Wake::Repaint);
            }
        });
        self.start_graphics(event_loop, window, ctx)
    }

    /// The graphics device is there: the window runs.
    fn started(&mut self, window: Arc<Window>, ctx: egui::Context, mut painter: egui_wgpu::winit::Painter) {
        let Some(state) = painter.render_state() else {
            self.error = Some(WindowError::NoDevice);
            return;
        };
        self.mark(Milestone::AdapterReady);
        let gpu = ViewportGpu::new(&state);
        let egui_state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            painter.max_texture_side(),
        );
        // The first frame's size: a canvas sized by the page has no Resized event to come.
        let size = window.inner_size();
        if let (Some(w), Some(h)) = (std::num::NonZeroU32::new(size.width), std::num::NonZeroU32::new(size.height)) {
            painter.on_window_resized(egui::ViewportId::ROOT, w, h);
        }
        window.request_redraw();
        self.running = Some(Running { window, ctx, egui_state, painter, gpu, last_frame: Instant::now(), frame_ms: 0.0, frames: 0 });
    }

    /// Prints a milestone's line the first time it is reached.
    fn mark(&mut self, m: Milestone) {
        if let Some(line) = self.trace.reach(m, Instant::now()) {
            eprintln!("{line}");
        }
        platform::milestone(m);
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(r) = &mut self.running else { return };
        let started = Instant::now();
        let dt = started.duration_since(r.last_frame).as_secs_f64().min(0.25);
        r.last_frame = started;
        self.dropped_since_frame = false;
        self.before_update();
        self.viewer.update(dt);
        let Some(r) = &mut self.running else { return };
        let mut input = r.egui_state.take_egui_input(&r.window);
        // No size from the window yet. In a browser the canvas may be laid out before winit's
        // resize observer says so (and a page thumbnailed in headless Chromium may never get
        // the event in time): its laid-out size is taken. Otherwise (not laid out, a
        // minimised window) egui would lay out a 10,000-point screen and the viewport ask for
        // a texture past the device's limit: no frame, until the Resized event asks for one.
        if input.screen_rect.is_none() {
            let Some(size) = platform::laid_out_size(&r.window) else { return };
            let (Some(w), Some(h)) = (std::num::NonZeroU32::new(size.width), std::num::NonZeroU32::new(size.height)) else { return };
            r.painter.on_window_resized(egui::ViewportId::ROOT, w, h);
            let points = egui::vec2(size.width as f32, size.height as f32) / r.window.scale_factor() as f32;
            input.screen_rect = Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points));
        }
        let (output, kept, app_time) = Self::frame_ui(r, &mut self.viewer, input, started);
        let frame_time = started.elapsed();
        r.frame_ms = r.frame_ms * 0.9 + frame_time.as_secs_f32() * 1000.0 * 0.1;
        let phase = match (self.viewer.loading(), self.viewer.working()) {
            (true, _) => Phase::Loading,
            (false, true) => Phase::Working,
            (false, false) => Phase::Settled,
        };
        if phase == Phase::Settled {
            r.frames += 1;
        }
        let delay = output.viewport_output.get(&egui::ViewportId::ROOT).map_or(Duration::MAX, |v| v.repaint_delay);
        let why = NextFrame::of(&self.viewer, delay, std::mem::take(&mut self.wakes));
        kept.into_iter().for_each(|e| self.platform.keep(e));
        self.trace_frame(app_time, frame_time, phase);
        self.after_frame(&why);
        let Some(r) = &mut self.running else { return };
        if self.quit_after_frames.is_some_and(|n| r.frames >= n) {
            println!("rendered {} frames after loading and checks, {:.1} ms/frame", r.frames, r.frame_ms);
            event_loop.exit();
            return;
        }
        // While files load, the loader's progress wakes the window; continuous frames would
        // take its cores.
        if why.animating || delay.is_zero() || (self.quit_after_frames.is_some() && phase == Phase::Settled) {
            r.window.request_redraw();
        } else if delay < Duration::from_secs(3600) {
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + delay));
        }
    }

    /// Runs the viewer's UI on `input` and paints it to the window. Returns egui's output, the
    /// viewer's effects other than screenshots for the clipboard (copied here), and the time
    /// from `started` to the end of tessellation.
    fn frame_ui(
        r: &mut Running,
        viewer: &mut Viewer,
        input: egui::RawInput,
        started: Instant,
    ) -> (egui::FullOutput, Vec<Effect>, Duration) {
        let gpu = &mut r.gpu;
        let frame_ms = r.frame_ms;
        // The window is the one consumer of the viewer's effects: a finished screenshot goes
        // to the clipboard now; in a browser, captures of the canvas wait until it is drawn.
        let mut to_clipboard = Vec::new();
        let mut kept = Vec::new();
        for effect in viewer.take_effects() {
            match effect {
                Effect::Clipboard(picture) => to_clipboard.push(picture),
                other => kept.push(other),
            }
        }
        let mut output = r.ctx.run_ui(input, |ui| {
            for ((w, h), pixels) in &to_clipboard {
                ui.ctx().copy_image(egui::ColorImage::from_rgba_unmultiplied([*w as usize, *h as usize], pixels));
            }
            viewer.ui(|v, out| ui::viewer_ui(ui, v, out, gpu, frame_ms))
        });
        r.egui_state.handle_platform_output(&r.window, std::mem::take(&mut output.platform_output));
        let primitives = r.ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
        let app_time = started.elapsed();
        r.painter.paint_and_update_textures(
            egui::ViewportId::ROOT,
            output.pixels_per_point,
            [0.0, 0.0, 0.0, 1.0],
            &primitives,
            &mut output.textures_delta,
            Vec::new(),
            &r.window,
        );
        (output, kept, app_time)
    }

    /// Records the frame's times and marks the milestones reached.
    fn trace_frame(&mut self, app_time: Duration, frame_time: Duration, phase: Phase) {
        // A web page always reports its milestones (to the page, for its load-time figure).
        if self.trace.enabled() || platform::ALWAYS_TRACE {
            self.trace.frame(app_time, frame_time, phase);
            self.mark(Milestone::FirstFrame);
            if self.viewer.pose_shown() {
                self.mark(Milestone::FirstPose);
            }
            if phase != Phase::Loading {
                self.mark(Milestone::FullyLoaded);
            }
            if phase == Phase::Settled {
                self.mark(Milestone::Settled);
            }
        }
    }
}

impl ApplicationHandler<Wake> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_none()
            && let Err(e) = self.start(event_loop)
        {
            self.error = Some(e);
            event_loop.exit();
        }
    }

    fn user_event(&mut self, _event_loop: &ActiveEventLoop, _event: Wake) {
        self.wakes = self.wakes.saturating_add(1);
        self.on_wake();
        if let Some(r) = &self.running {
            r.window.request_redraw();
        }
    }

    fn new_events(&mut self, event_loop: &ActiveEventLoop, cause: winit::event::StartCause) {
        if let winit::event::StartCause::ResumeTimeReached { .. } = cause {
            event_loop.set_control_flow(ControlFlow::Wait);
            if let Some(r) = &self.running {
                r.window.request_redraw();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = &mut self.running else { return };
        let response = r.egui_state.on_window_event(&r.window, &event);
        match event {
            WindowEvent::CloseRequested => {
                if self.quit_after_frames.is_none() {
                    self.viewer.shutdown();
                }
                event_loop.exit()
            }
            WindowEvent::Resized(size) => {
                // A minimised window (or a canvas not laid out yet) is 0×0: not a size to keep.
                if let (Some(w), Some(h)) = (std::num::NonZeroU32::new(size.width), std::num::NonZeroU32::new(size.height)) {
                    let logical = size.to_logical::<f64>(r.window.scale_factor());
                    let (lw, lh) = (logical.width.round() as u32, logical.height.round() as u32);
                    self.viewer.send(crate::app::Command::Setting(crate::app::SettingEdit::WindowSize(lw, lh)));
                    r.painter.on_window_resized(egui::ViewportId::ROOT, w, h);
                }
                r.window.request_redraw();
            }
            WindowEvent::ModifiersChanged(m) => {
                self.modifiers = m.state();
                if response.repaint {
                    r.window.request_redraw();
                }
            }
            WindowEvent::DroppedFile(path) => {
                let add = self.modifiers.shift_key() || self.modifiers.control_key() || self.dropped_since_frame;
                self.dropped_since_frame = true;
                self.viewer.send(crate::app::actions::dropped(vec![path], add));
                r.window.request_redraw();
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {
                if response.repaint {
                    r.window.request_redraw();
                }
            }
        }
    }
}

mod error;
pub use error::WindowError;
// The one seam between the desktop and the browser: the same names on both sides.
#[cfg(not(target_arch = "wasm32"))]
mod desktop;
#[cfg(not(target_arch = "wasm32"))]
use desktop as platform;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
use web as platform;
#[cfg(target_arch = "wasm32")]
pub use web::run_web;
