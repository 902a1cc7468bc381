//! What is drawn, for any number of clips: clips + layout + palette + per-joint colours (heat
//! map) + skinned meshes + trails and onion skin + bounds → the renderer's draw data ([`skelview_draw`]). The
//! viewer, `render`, `thumbnail` and the viewer's exports all compose their pictures here and
//! nowhere else. No GPU calls, so everything here is testable without an adapter.

mod clips;
mod comparison;
mod compose;
pub mod draw;
pub mod markers;
mod overlays;
pub mod skins;

pub use clips::{ClipId, ClipView, Layout, PALETTE, apply_layout, first_free, match_start, shared_end_secs};
pub use comparison::{CompareMode, CompareView, OverlapCurve, OverlapInput, auto_partners, heat_color, overlap_curve};
pub use compose::{FrameSpec, PoseMode, Scene, framing, preview};
pub use draw::{MARKER_COLOR, Style};
pub use overlays::{OverlayScratch, Overlays, onion_skin, trails};
pub use skelview_core::core::bounds::robust_bounds;
pub use skelview_draw::{BACKGROUND, DrawData, OrbitCamera, ViewPreset};
pub use skins::Body;
