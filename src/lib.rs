//! skelview, the application: the desktop viewer and the command line over one engine.
//!
//! The engine lives in two library crates: `skelview_core` (model, formats, sampler, checks,
//! measurements, comparison, writers) and `skelview_render` (scene composer and wgpu
//! renderer). This crate adds the viewer's state and commands ([`app`]), its egui panels
//! ([`ui`]), the native window ([`window`]) and the command line ([`cli`]).
//!
//! Layers, bottom to top; a module imports only from layers below it (a test enforces it):
//! `tasks` ← `app` ← `ui` ← `window`, `cli`.

pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod tasks;
pub mod ui;
pub mod window;
