//! skelview, the application: the desktop viewer and the command line over one engine.
//!
//! The engine and the viewer live in library crates: `skelview_core` (model, formats,
//! sampler, checks, measurements, comparison, writers), `skelview_scene` (clips as drawn →
//! draw data), `skelview_render` (draw data → pixels), `skelview_video` (pictures and videos
//! of a scene) and `skelview_viewer` (the viewer's state, commands and tasks, re-exported
//! here as [`app`] and [`tasks`]). This crate adds the egui panels ([`ui`]), the desktop host
//! (dialogs and offscreen pictures, `host`), the native window ([`window`]) and the command
//! line (`cli`).
//!
//! Layers, bottom to top; a module imports only from layers below it (a test enforces it):
//! `app` ← `ui`, `host` ← `window`, `cli`.

#[cfg(target_arch = "wasm32")]
pub use skelview_viewer::browser;
pub use skelview_viewer::{app, tasks};
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
pub mod ui;
pub mod window;
