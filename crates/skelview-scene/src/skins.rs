//! A clip's meshes as draw data: geometry converted once per clip, and per frame each mesh's
//! palette (display space, placed) and morph weights, as rows for the GPU. Nothing here
//! touches a vertex per frame except [`mesh_bounds`], which frames the view from a sample.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use skelview_core::core::mesh::{AlphaMode, Mesh, MeshSet};
use skelview_core::core::mesh_frames::MeshPoser;
use skelview_draw::skins::pack_joints;
use skelview_draw::{Alpha, DrawData, SkinDraw, SkinGeometry, SkinInstance, SkinVertex, Texture};

/// What a clip shows of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// Bones and joints only.
    Skeleton,
    /// The meshes only.
    Mesh,
    /// Bones over a translucent mesh.
    Both,
}

impl Body {
    /// Every choice, in menu order.
    pub const ALL: [Self; 3] = [Self::Both, Self::Mesh, Self::Skeleton];

    /// Label in the UI.
    pub fn name(self) -> &'static str {
        match self {
            Self::Skeleton => "skeleton",
            Self::Mesh => "mesh",
            Self::Both => "both",
        }
    }

    /// Bones and joints are drawn.
    pub fn skeleton(self) -> bool {
        self != Self::Mesh
    }

    /// Meshes are drawn.
    pub fn mesh(self) -> bool {
        self != Self::Skeleton
    }
}

/// How much of the mesh's colour shows when bones are drawn over it.
pub const UNDER_BONES_ALPHA: f32 = 0.4;

/// The GPU geometry of each mesh of `set`, in its order.
pub fn geometries(set: &MeshSet) -> Arc<[Arc<SkinGeometry>]> {
    let textures: Vec<Arc<Texture>> =
        set.images.iter().map(|i| Arc::new(Texture { width: i.width, height: i.height, rgba8: i.rgba8.clone() })).collect();
    set.meshes.iter().map(|m| Arc::new(geometry(m, &textures))).collect()
}

fn geometry(m: &Mesh, textures: &[Arc<Texture>]) -> SkinGeometry {
    let n = m.positions.len();
    let vertices = (0..n)
        .map(|v| SkinVertex {
            position: m.positions[v].to_array(),
            normal: m.normals.get(v).map_or([0.0, 1.0, 0.0], |n| n.to_array()),
            uv: m.uvs.get(v).map_or([0.0; 2], |t| t.to_array()),
            color: m.colors.get(v).map_or([1.0; 4], |c| c.to_array()),
            joints: pack_joints(m.joints.get(v).copied().unwrap_or_default()),
            weights: m.weights.get(v).copied().unwrap_or([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        })
        .collect();
    let mut g = SkinGeometry::new(vertices, m.indices.clone());
    g.morph_normals = m.morph_targets.iter().any(|t| !t.normals.is_empty());
    for t in &m.morph_targets {
        for v in 0..n {
            g.morph_rows.push(t.positions.get(v).copied().unwrap_or(Vec3::ZERO).extend(0.0).to_array());
            if g.morph_normals {
                g.morph_rows.push(t.normals.get(v).copied().unwrap_or(Vec3::ZERO).extend(0.0).to_array());
            }
        }
    }
    g.morph_targets = m.morph_targets.len() as u32;
    g.texture = m.material.texture.and_then(|k| textures.get(k).cloned());
    g.base_color = m.material.base_color;
    g.alpha = match m.material.alpha {
        AlphaMode::Opaque => Alpha::Opaque,
        AlphaMode::Mask(c) => Alpha::Mask(c),
        AlphaMode::Blend => Alpha::Blend,
    };
    g.double_sided = m.material.double_sided;
    g
}

/// One clip's meshes to draw this frame.
pub struct SkinFrame<'a> {
    /// The meshes.
    pub set: &'a MeshSet,
    /// Their geometry, in the same order.
    pub geometry: &'a [Arc<SkinGeometry>],
    /// `world_from_joint` of this frame (file space).
    pub pose: &'a skelview_core::core::GlobalPose,
    /// The clip's own time (morph weights).
    pub time_secs: f64,
    /// Display space, placed.
    pub world_from_file: Mat4,
}

/// Appends the draws of one clip's meshes, multiplied by `tint` (translucent when its alpha is
/// below 1, and for blended materials).
pub fn append(frame: &SkinFrame, tint: [f32; 4], out: &mut DrawData) {
    // Palettes go straight into the frame's rows; the weights' buffer allocates only for a
    // mesh with morph targets.
    let mut weights = Vec::new();
    for (mesh, geometry) in frame.set.meshes.iter().zip(frame.geometry) {
        mesh.posed_weights(frame.time_secs, frame.pose, &mut weights);
        let (palette_row, weight_row) =
            out.skins.push_rows(mesh.palette_iter(frame.pose, frame.time_secs).map(|m| frame.world_from_file * m), &weights);
        let instance = SkinInstance {
            rows: [palette_row, weight_row, geometry.morph_word(), geometry.vertices.len() as u32],
            tint,
            base_color: geometry.base_color,
            alpha: [geometry.alpha.cutoff(), 0.0, 0.0, 0.0],
        };
        let translucent = tint[3] < 1.0 || geometry.alpha == Alpha::Blend;
        out.skins.draws.push(SkinDraw { geometry: geometry.clone(), instance, translucent });
    }
}

/// Most vertices of a mesh posed on the CPU to frame the view.
const BOUNDS_SAMPLE: usize = 512;

/// Up to [`BOUNDS_SAMPLE`] vertices of each mesh of `set`, spread over it: posed on the CPU to
/// frame the view ([`mesh_bounds`]).
pub fn bounds_sample(set: &MeshSet) -> MeshSet {
    let meshes =
        set.meshes.iter().filter(|m| !m.positions.is_empty()).map(|m| thinned(m, m.positions.len().div_ceil(BOUNDS_SAMPLE))).collect();
    MeshSet { meshes, images: Vec::new(), extensions: None }
}

/// Bounds of the meshes as posed (display space, placed), from `frame.set` as
/// [`bounds_sample`] made it.
pub fn mesh_bounds(frame: &SkinFrame) -> Option<(Vec3, Vec3)> {
    let mut poser = MeshPoser::default();
    let mut out = Vec::new();
    let mut bounds: Option<(Vec3, Vec3)> = None;
    for mesh in &frame.set.meshes {
        poser.vertices(mesh, frame.pose, frame.time_secs, frame.world_from_file, &mut out);
        for p in out.iter().filter(|p| p.is_finite()) {
            bounds = Some(bounds.map_or((*p, *p), |(lo, hi)| (lo.min(*p), hi.max(*p))));
        }
    }
    bounds
}

/// Every `step`-th vertex of `mesh`, with its influences and morphs (no triangles).
fn thinned(mesh: &Mesh, step: usize) -> Mesh {
    let pick = |k: usize| k.is_multiple_of(step);
    let keep = |v: &Vec<Vec3>| v.iter().enumerate().filter(|(k, _)| pick(*k)).map(|(_, x)| *x).collect::<Vec<_>>();
    let unbound = skelview_core::core::mesh::Bone { joint: None, joint_from_mesh: Mat4::IDENTITY };
    let mut m = Mesh::rigid(mesh.name.clone(), keep(&mesh.positions), Vec::new(), mesh.bones.first().copied().unwrap_or(unbound));
    m.bones = mesh.bones.clone();
    m.joints = mesh.joints.iter().enumerate().filter(|(k, _)| pick(*k)).map(|(_, x)| *x).collect();
    m.weights = mesh.weights.iter().enumerate().filter(|(k, _)| pick(*k)).map(|(_, x)| *x).collect();
    m.morph_targets = mesh
        .morph_targets
        .iter()
        .map(|t| skelview_core::core::mesh::MorphTarget { name: t.name.clone(), positions: keep(&t.positions), normals: Vec::new() })
        .collect();
    m.morph_weights = mesh.morph_weights.clone();
    m.morph_animation = mesh.morph_animation.clone();
    m.bind_motion = mesh.bind_motion.clone();
    m
}
