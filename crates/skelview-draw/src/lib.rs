//! Draw data: what the renderer draws, as plain data. Vertex, instance and uniform types laid
//! out exactly as the shaders read them, the lists of one frame ([`DrawData`]) and the orbit
//! camera that gives the view and projection. The scene composer writes these; the renderer
//! reads them. No wgpu and no motion model, so both sides build and test without the other.

pub mod camera;
pub mod gpu_types;
pub mod skins;

pub use camera::{OrbitCamera, ViewPreset};
pub use gpu_types::{Globals, LineVertex, MeshInstance, MeshVertex};
pub use skins::{Alpha, SkinDraw, SkinDraws, SkinGeometry, SkinInstance, SkinVertex, Texture};

/// Background of the viewport and of renders (a dark blue-grey, linear RGBA).
pub const BACKGROUND: [f64; 4] = [0.018, 0.020, 0.026, 1.0];

/// Everything one frame draws: instanced bones, joints and shadows, one line list, and the
/// skinned meshes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawData {
    /// Bones (unit octahedron from y=0 to y=1).
    pub bones: Vec<MeshInstance>,
    /// Joints (unit sphere).
    pub joints: Vec<MeshInstance>,
    /// Shadow discs (unit disc in the XZ plane).
    pub shadows: Vec<MeshInstance>,
    /// Line segments, two vertices each.
    pub lines: Vec<LineVertex>,
    /// Skinned meshes (characters).
    pub skins: SkinDraws,
}

impl DrawData {
    /// Empties every list, keeping capacity (no allocation per frame once warm).
    pub fn clear(&mut self) {
        self.bones.clear();
        self.joints.clear();
        self.shadows.clear();
        self.lines.clear();
        self.skins.clear();
    }
}
