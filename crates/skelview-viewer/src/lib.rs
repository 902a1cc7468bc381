//! skelview's viewer state: the document (each clip's source, read options and overrides),
//! the session (clips, loads, the shared clock), the view, settings, commands and the one
//! background-task mechanism. Everything a front door with a picture shares: the desktop
//! window and the browser page drive it; the panels read it and send commands.
//!
//! No egui, winit, wgpu or rfd: what only the program around it can do (file dialogs,
//! pictures rendered off screen) is asked of its [`app::Host`], so the state builds and
//! tests without a window, a GPU or a dialog service, as helix-view builds without a
//! terminal.
//!
//! Layers, bottom to top: `browser` ← `platform` ← `tasks` ← `app`. What differs in a
//! browser tab is gathered in `platform` (and the page itself in `browser`).

pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod platform;
pub mod tasks;
