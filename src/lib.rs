//! skelview: a real-time 3D skeleton viewer for motion-capture files.
//!
//! Data flows one way: file bytes → [`core::Motion`] (skeleton + clip) → [`core::Sampler`]
//! (local → global pose at a time) → [`scene::Scene`] (draw data of every clip) →
//! [`render`] (pixels).
//!
//! Layers, bottom to top; a module imports only from layers below it (a test enforces it):
//! `core` ← `formats` ← `cache`, `compare`, `export`, `qa` ← `scene` ← `render` ← `app` ← `ui` ←
//! `window`, `cli`.

pub mod app;
pub mod cache;
pub mod cli;
pub mod compare;
pub mod core;
pub mod export;
pub mod formats;
pub mod qa;
pub mod render;
pub mod scene;
pub mod ui;
pub mod window;
