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

impl App {
    pub(super) fn window_attributes(&self) -> winit::window::WindowAttributes {
        let (w, h) = self.viewer.settings.window_size;
        Window::default_attributes().with_title("skelview").with_inner_size(winit::dpi::LogicalSize::new(w as f64, h as f64))
    }

    /// Sets up the graphics device on `window` and waits for it.
    pub(super) fn start_graphics(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        ctx: egui::Context,
    ) -> Result<(), WindowError> {
        let config = egui_wgpu::WgpuConfiguration {
            wgpu_setup: egui_wgpu::WgpuSetup::from_display_handle(event_loop.owned_display_handle()),
            ..Default::default()
        };
        let painter = pollster::block_on(super::painter(ctx.clone(), window.clone(), config))?;
        self.started(window, ctx, painter);
        self.error.take().map_or(Ok(()), Err)
    }

    /// Nothing arrives from outside between frames.
    pub(super) fn before_update(&mut self) {}

    /// Nothing to do once a frame is drawn.
    pub(super) fn after_frame(&mut self) {}

    /// A wake-up only asks for a frame.
    pub(super) fn on_wake(&mut self) {}
}
