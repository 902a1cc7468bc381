//! The wgpu renderer: bones, joints, axes, grid and shadow from global poses. Knows nothing of
//! the UI; the window shows its target as an image, `skelview render` reads it back to PNG.

pub mod camera;
pub mod gpu_types;
pub mod meshes;
pub mod offscreen;
pub mod renderer;
pub mod scene;

pub use camera::{OrbitCamera, ViewPreset};
pub use renderer::{RenderTarget, SkeletonRenderer};
pub use scene::{DrawData, Style};
