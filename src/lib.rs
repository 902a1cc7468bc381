//! skelview: a real-time 3D skeleton viewer for motion-capture files.
//!
//! Data flows one way: file bytes → [`core::Motion`] (skeleton + clip) → pose cache →
//! global pose at time t → (viewer) draw data → pixels.

pub mod app;
pub mod cache;
pub mod cli;
pub mod compare;
pub mod core;
pub mod export;
pub mod formats;
pub mod render;
pub mod settings;
pub mod ui;
pub mod window;
