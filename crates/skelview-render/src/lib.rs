//! skelview's renderer: draw data ([`skelview_draw`]) → pixels with wgpu (bones, joints,
//! axes, grid, shadow and skinned meshes), on screen or offscreen with read-back to RGBA and PNG. Knows no
//! motion model, no UI and no files but the PNG it is asked to write, as rerun's
//! `re_renderer` knows no data model: the window shows its target as an image, the
//! offscreen path serves `render`, `thumbnail` and the viewer's exports.
//!
//! Layers, bottom to top: `depth`, `gamma`, `meshes`, `skins` ← `renderer` ← `offscreen`.

pub mod depth;
pub mod gamma;
pub mod meshes;
pub mod offscreen;
pub mod renderer;
pub mod skins;

pub use renderer::{RenderTarget, SkeletonRenderer};
pub use skelview_draw as draw;
pub use wgpu;
