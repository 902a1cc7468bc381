//! Skinned meshes as the renderer takes them: geometry uploaded once per mesh ([`SkinGeometry`],
//! shared by `Arc` and told apart by its id), and per frame only what moves: each draw's
//! palette and morph weights as rows of four floats ([`SkinDraws`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytemuck::{Pod, Zeroable};

/// A vertex of a skinned mesh as the shader reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct SkinVertex {
    /// Mesh-space position.
    pub position: [f32; 3],
    /// Mesh-space unit normal.
    pub normal: [f32; 3],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// Linear RGBA vertex colour (white when the mesh has none).
    pub color: [f32; 4],
    /// Eight palette indices, two 16-bit halves per word (low first).
    pub joints: [u32; 4],
    /// Their weights (summing to 1).
    pub weights: [f32; 8],
}

/// What the shader needs of one draw: where its rows are and how it looks.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct SkinInstance {
    /// First palette row, first morph-weight row, morph targets (with
    /// [`MORPH_POSITIONS_ONLY`]), vertices.
    pub rows: [u32; 4],
    /// Multiplies the material's colour (linear RGBA): a clip's tint and opacity.
    pub tint: [f32; 4],
    /// The material's base colour (linear RGBA).
    pub base_color: [f32; 4],
    /// x: alpha cutoff (negative: none); yzw unused.
    pub alpha: [f32; 4],
}

const _: () = assert!(std::mem::size_of::<SkinVertex>() == 96);
const _: () = assert!(std::mem::size_of::<SkinInstance>() == 64);

/// An 8-bit sRGB RGBA image, rows top first.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba8: Vec<u8>,
}

/// How a mesh's alpha is used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Alpha {
    /// Ignored.
    Opaque,
    /// Pixels under the cutoff are not drawn.
    Mask(f32),
    /// Blended over what is behind.
    Blend,
}

impl Alpha {
    /// The cutoff a draw's instance carries (negative: none).
    pub fn cutoff(self) -> f32 {
        match self {
            Self::Mask(c) => c,
            Self::Opaque | Self::Blend => -1.0,
        }
    }
}

/// A mesh's vertices, triangles, morph displacements and material: uploaded once.
#[derive(Debug)]
pub struct SkinGeometry {
    /// Unique in this process: the renderer keeps its buffers by it.
    pub id: u64,
    /// The vertices.
    pub vertices: Vec<SkinVertex>,
    /// Triangles, three indices each.
    pub indices: Vec<u32>,
    /// Per target, per vertex: position then normal displacement (xyz, w unused); the position
    /// alone when no target moves normals ([`Self::morph_normals`] false).
    pub morph_rows: Vec<[f32; 4]>,
    /// Morph targets.
    pub morph_targets: u32,
    /// Whether each target's rows hold normals too (a body's hundreds of pose blend shapes do
    /// not: half the memory).
    pub morph_normals: bool,
    /// Base colour texture (sRGB).
    pub texture: Option<Arc<Texture>>,
    /// Base colour (linear RGBA).
    pub base_color: [f32; 4],
    /// How alpha is used.
    pub alpha: Alpha,
    /// Both faces drawn.
    pub double_sided: bool,
}

impl PartialEq for SkinGeometry {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// The bit of [`SkinInstance::rows`]' third word that says targets have no normal rows.
pub const MORPH_POSITIONS_ONLY: u32 = 1 << 31;

impl SkinGeometry {
    /// The third word of a draw's rows: the targets, with [`MORPH_POSITIONS_ONLY`] when their
    /// rows hold positions alone.
    pub fn morph_word(&self) -> u32 {
        self.morph_targets | if self.morph_normals { 0 } else { MORPH_POSITIONS_ONLY }
    }

    /// A new geometry with a fresh id.
    pub fn new(vertices: Vec<SkinVertex>, indices: Vec<u32>) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            vertices,
            indices,
            morph_rows: Vec::new(),
            morph_targets: 0,
            morph_normals: true,
            texture: None,
            base_color: [1.0; 4],
            alpha: Alpha::Opaque,
            double_sided: false,
        }
    }
}

/// One mesh drawn this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinDraw {
    /// What is drawn.
    pub geometry: Arc<SkinGeometry>,
    /// Where it reads its rows, and its colours.
    pub instance: SkinInstance,
    /// Blended (a translucent mesh under its bones, a ghost, a faded clip): drawn after the
    /// opaque draws without writing depth.
    pub translucent: bool,
}

/// This frame's skinned meshes and their rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinDraws {
    /// The draws.
    pub draws: Vec<SkinDraw>,
    /// Palettes (four rows a matrix, its columns) then morph weights (four a row).
    pub rows: Vec<[f32; 4]>,
}

impl SkinDraws {
    /// Empties the lists, keeping capacity.
    pub fn clear(&mut self) {
        self.draws.clear();
        self.rows.clear();
    }

    /// Appends a palette (`world_from_mesh` per bone) and weights; returns their first rows.
    pub fn push_rows(&mut self, palette: impl Iterator<Item = glam::Mat4>, weights: &[f32]) -> (u32, u32) {
        let palette_row = self.rows.len() as u32;
        for m in palette {
            self.rows.extend(m.to_cols_array_2d());
        }
        let weight_row = self.rows.len() as u32;
        for w in weights.chunks(4) {
            self.rows.push(std::array::from_fn(|k| w.get(k).copied().unwrap_or(0.0)));
        }
        (palette_row, weight_row)
    }
}

/// Packs eight 16-bit indices two to a word, low half first.
pub fn pack_joints(j: [u16; 8]) -> [u32; 4] {
    std::array::from_fn(|k| u32::from(j[2 * k]) | (u32::from(j[2 * k + 1]) << 16))
}
