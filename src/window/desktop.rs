//! The window on the desktop: the graphics device is asked for and waited on at start, the
//! viewer's host is the desktop's (file dialogs, offscreen pictures), and nothing is handed in
//! from a page. The browser's side of the same seam is `web.rs`.

use std::sync::Arc;

use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use super::{App, WindowError};
use crate::app::trace::Milestone;
use crate::app::{Effect, Viewer};

/// What only the browser keeps between frames: nothing here.
#[derive(Default)]
pub(super) struct Platform {}

impl Platform {
    /// Captures of the canvas are the browser's: the desktop saves and records off screen.
    pub(super) fn keep(&mut self, effect: Effect) {
        let (Effect::Clipboard(_) | Effect::SaveViewport(_) | Effect::RecordRange(_)) = effect;
    }
}

/// The desktop does not always trace: `SKELVIEW_TRACE` turns it on.
pub(super) const ALWAYS_TRACE: bool = false;

/// The desktop's host answers dialogs and renders pictures.
pub(super) fn set_host(viewer: &mut Viewer) {
    viewer.set_host(Arc::new(crate::host::Desktop));
}

/// Milestones go to the trace only.
pub(super) fn milestone(_: Milestone) {}

/// A desktop window's size is the window's own: nothing laid out apart from it.
pub(super) fn laid_out_size(_: &Window) -> Option<winit::dpi::PhysicalSize<u32>> {
    None
}

impl App {
    pub(super) fn window_attributes(&self) -> winit::window::WindowAttributes {
        let (w, h) = self.viewer.settings.window_size;
        Window::default_attributes().with_title("skelview").with_inner_size(winit::dpi::LogicalSize::new(w as f64, h as f64))
    }

    /// Sets up the graphics device on `window` and waits for it. When the backend wgpu picks
    /// first gives no device (DX12 under Wine: "Parent device is lost"), the others are tried
    /// one by one, Vulkan first, and the status bar says which one draws.
    pub(super) fn start_graphics(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        ctx: egui::Context,
    ) -> Result<(), WindowError> {
        let mut failed: Vec<String> = Vec::new();
        let mut first_error = None;
        for backends in
            [None, Some(wgpu::Backends::VULKAN), Some(wgpu::Backends::GL), Some(wgpu::Backends::DX12), Some(wgpu::Backends::METAL)]
        {
            let mut setup = egui_wgpu::WgpuSetupCreateNew::from_display_handle(event_loop.owned_display_handle());
            if let Some(b) = backends {
                setup.instance_descriptor.backends = b;
            }
            let config = egui_wgpu::WgpuConfiguration { wgpu_setup: egui_wgpu::WgpuSetup::CreateNew(setup), ..Default::default() };
            let tried = backends.map_or_else(|| "the first backend".to_owned(), |b| format!("{b:?}"));
            let painter = match pollster::block_on(super::painter(ctx.clone(), window.clone(), config)) {
                Ok(p) => p,
                Err(e) => {
                    failed.push(format!("{tried}: {e}"));
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let info = painter.render_state().map(|r| r.adapter.get_info());
            // A backend named in SKELVIEW_REFUSE_BACKEND is taken as failing: the fallback,
            // tested on machines whose every backend works.
            let refused = info.as_ref().is_some_and(|i| {
                std::env::var("SKELVIEW_REFUSE_BACKEND").is_ok_and(|b| b.eq_ignore_ascii_case(&format!("{:?}", i.backend)))
            });
            if refused {
                failed.push(format!("{tried}: refused (SKELVIEW_REFUSE_BACKEND)"));
                continue;
            }
            if !failed.is_empty() {
                let used = info.map_or_else(|| "another backend".to_owned(), |i| format!("{} ({:?})", i.name, i.backend));
                self.viewer.messages.notice = Some(format!("graphics: drawing with {used}; failed: {}", failed.join("; ")));
            }
            self.started(window, ctx, painter);
            return self.error.take().map_or(Ok(()), Err);
        }
        Err(first_error.unwrap_or(WindowError::NoDevice))
    }

    /// Nothing arrives from outside between frames.
    pub(super) fn before_update(&mut self) {}

    /// Nothing to do once a frame is drawn.
    pub(super) fn after_frame(&mut self, _: &super::NextFrame) {}

    /// A wake-up only asks for a frame.
    pub(super) fn on_wake(&mut self) {}
}
