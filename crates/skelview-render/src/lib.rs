//! skelview's pictures, for every front door that draws: the scene composer turns clips,
//! their layout, colours and overlays into draw data ([`scene`]), the wgpu renderer turns
//! draw data into pixels on screen or offscreen ([`render`]), and [`video`] encodes rendered
//! frames as GIF or (through ffmpeg) MP4. Knows nothing of egui or windows.
//!
//! Layers, bottom to top: `scene`, `video` ← `render`; all of them over `skelview_core`.

pub mod render;
pub mod scene;
pub mod video;
