//! Why the window could not open or run.

use thiserror::Error;

/// A failure of the window, its event loop or its graphics device.
#[derive(Debug, Error)]
pub enum WindowError {
    /// No event loop (no display, or a second loop in one process).
    #[error("cannot open a window: {0}")]
    EventLoop(winit::error::EventLoopError),
    /// The event loop stopped with an error.
    #[error("window event loop failed: {0}")]
    Run(winit::error::EventLoopError),
    /// The system refused the window.
    #[error("cannot create a window: {0}")]
    Create(winit::error::OsError),
    /// The graphics device could not draw into the window.
    #[error("cannot set up graphics for the window: {0}")]
    Graphics(egui_wgpu::WgpuError),
    /// The painter was set up but gave no device.
    #[error("no graphics device for the window")]
    NoDevice,
}
