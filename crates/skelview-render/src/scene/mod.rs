//! What is drawn, for any number of clips: clips + layout + palette + per-joint colours (heat
//! map) + trails and onion skin + bounds → the renderer's draw data. The viewer, `render`,
//! `thumbnail` and the viewer's exports all compose their pictures here and nowhere else.
//! No GPU calls, so everything here is testable without an adapter.

pub mod camera;
mod clips;
mod comparison;
mod compose;
pub mod draw;
pub mod gpu_types;
pub mod markers;
mod overlays;

pub use camera::{OrbitCamera, ViewPreset};
pub use clips::{ClipId, ClipView, Layout, PALETTE, apply_layout, first_free, match_start, shared_end_secs};
pub use comparison::{CompareMode, CompareView, OverlapCurve, OverlapInput, auto_partners, heat_color, overlap_curve};
pub use compose::{FrameSpec, PoseMode, Scene, framing, preview};
pub use draw::{DrawData, MARKER_COLOR, Style};
pub use overlays::{OverlayScratch, Overlays, onion_skin, trails};
pub use skelview_core::core::bounds::robust_bounds;

/// Background of the viewport and of renders (a dark blue-grey, linear RGBA).
pub const BACKGROUND: [f64; 4] = [0.018, 0.020, 0.026, 1.0];
