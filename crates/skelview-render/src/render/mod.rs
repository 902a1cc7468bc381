//! The wgpu renderer: draw data → pixels (bones, joints, axes, grid and shadow). Knows
//! nothing of the UI or of files; the window shows its target as an image, the offscreen
//! path reads it back to PNG for `render`, `thumbnail` and the viewer's exports.

pub mod gamma;
pub mod meshes;
pub mod offscreen;
pub mod renderer;
pub mod sequence;

pub use renderer::{RenderTarget, SkeletonRenderer};
