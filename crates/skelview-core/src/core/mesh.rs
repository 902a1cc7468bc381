//! Meshes bound to a skeleton: a character's skin (glTF, VRM, FBX), in the file's own space.
//!
//! Every mesh is skinned, rigid ones too: a mesh that hangs on one node has one bone, the
//! joint at or above its node, and every vertex follows it with weight 1. A vertex in the
//! file's space is then, for a pose's `world_from_joint`,
//! `Σ wᵢ · world_from_joint[bone.joint] · bone.joint_from_mesh · (p + Σ mₖ·Δₖ)`:
//! the palette (`world_from_joint · joint_from_mesh` per bone) is the CPU's work per frame;
//! the sum is the GPU's ([`skin_vertices`] does it here for `positions --vertices`, Python
//! and the tests).

use glam::{Affine3A, Mat3, Mat3A, Mat4, Vec2, Vec3, Vec4};

use super::pose::GlobalPose;

/// Why a mesh, or an image it uses, is left out (the reader warns with it and goes on).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// What the reader found, naming the mesh's accessor or element where it can.
    #[error("{0}")]
    Unreadable(String),
}

impl From<String> for MeshError {
    fn from(what: String) -> Self {
        Self::Unreadable(what)
    }
}

impl From<&str> for MeshError {
    fn from(what: &str) -> Self {
        Self::Unreadable(what.to_owned())
    }
}

/// Most influences a vertex keeps (glTF's `JOINTS_0` and `JOINTS_1`).
pub const MAX_INFLUENCES: usize = 8;

/// The meshes of a file and the images their materials use.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshSet {
    /// One per drawn primitive (a node that uses a mesh × each primitive), in the file's order.
    pub meshes: Vec<Mesh>,
    /// Decoded base colour images, indexed by [`Material::texture`].
    pub images: Vec<Image>,
    /// The file's own extensions for its character (a VRM avatar's), kept for writers.
    pub extensions: Option<std::sync::Arc<super::character_extensions::CharacterExtensions>>,
}

/// A decoded image: 8-bit sRGB RGBA, rows top first.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Name or URI as the file gives it.
    pub name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba8: Vec<u8>,
}

/// How a material's alpha is used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaMode {
    /// Alpha ignored.
    Opaque,
    /// Pixels below the cutoff are not drawn.
    Mask(f32),
    /// Blended over what is behind.
    Blend,
}

/// What a mesh looks like.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Linear RGBA multiplied with the texture and vertex colours.
    pub base_color: [f32; 4],
    /// Index in [`MeshSet::images`].
    pub texture: Option<usize>,
    /// How alpha is used.
    pub alpha: AlphaMode,
    /// Both faces drawn (else back faces are culled).
    pub double_sided: bool,
}

impl Default for Material {
    fn default() -> Self {
        Self { base_color: [0.8, 0.8, 0.8, 1.0], texture: None, alpha: AlphaMode::Opaque, double_sided: false }
    }
}

/// One entry of a mesh's palette: the joint it follows and where the mesh sits in that joint's
/// space (a skin's inverse bind matrix; a rigid mesh's offset from its joint).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bone {
    /// The skeleton's joint; `None`: the scene's root (a rigid mesh above every joint).
    pub joint: Option<usize>,
    /// `joint_from_mesh`.
    pub joint_from_mesh: Mat4,
}

/// One morph target: displacements added to the vertices, scaled by its weight.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTarget {
    /// Name as the file gives it (glTF `extras.targetNames`), else `target N`.
    pub name: String,
    /// Position displacement per vertex.
    pub positions: Vec<Vec3>,
    /// Normal displacement per vertex (empty when the file gives none).
    pub normals: Vec<Vec3>,
}

/// Morph targets the pose drives, not the take: SMPL's pose blend shapes. Target
/// `first_target + 9·k + 3·r + c` weighs `(R − I)[r][c]`, `R` the rotation of `joints[k]`
/// relative to its parent (rows first, as the models flatten it).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseBlend {
    /// The first of the `9 × joints.len()` targets.
    pub first_target: usize,
    /// Each driving joint with its parent (`None`: a root).
    pub joints: Vec<(usize, Option<usize>)>,
}

impl PoseBlend {
    /// Writes the weights `pose` gives into `weights` (the mesh's, one per target).
    pub fn weights(&self, pose: &GlobalPose, weights: &mut [f32]) {
        let rotation = |j: Option<usize>| j.and_then(|j| pose.world_from_joint.get(j)).map_or(Mat3A::IDENTITY, |w| w.matrix3);
        for (k, &(joint, parent)) in self.joints.iter().enumerate() {
            let local = rotation(parent).inverse() * rotation(Some(joint));
            self.write(k, local.into(), weights);
        }
    }

    /// Writes the weights of local rotations (`local(joint)`) into `weights`.
    pub fn weights_from_local(&self, local: impl Fn(usize) -> Mat3, weights: &mut [f32]) {
        for (k, &(joint, _)) in self.joints.iter().enumerate() {
            self.write(k, local(joint), weights);
        }
    }

    fn write(&self, k: usize, r: Mat3, weights: &mut [f32]) {
        for row in 0..3 {
            for col in 0..3 {
                let identity = if row == col { 1.0 } else { 0.0 };
                if let Some(w) = weights.get_mut(self.first_target + 9 * k + 3 * row + col) {
                    *w = r.col(col)[row] - identity;
                }
            }
        }
    }
}

/// Morph weights sampled at the clip's frames.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphAnimation {
    /// Seconds between samples (the clip's frame time).
    pub frame_time_secs: f64,
    /// How many targets it animates: the mesh's first ones (the others keep their defaults,
    /// or the pose drives them).
    pub targets: usize,
    /// Frames × `targets`.
    pub values: Vec<f32>,
}

/// Bones whose bind moves over the take: a body model's rest joints, which its expressions
/// shift (SMPL-X regresses the jaw and eyes from the face the expression moves). At time `t`
/// bone `bones[k]`'s palette entry is `world_from_joint · translation(−shift) · joint_from_mesh`,
/// the shift (joint space) sampled like the morph weights.
#[derive(Clone, Debug, PartialEq)]
pub struct BindMotion {
    /// Seconds between samples (the clip's frame time).
    pub frame_time_secs: f64,
    /// The bones that move (indices into the mesh's bones).
    pub bones: Vec<usize>,
    /// Frames × `bones.len()` shifts.
    pub shifts: Vec<Vec3>,
}

impl BindMotion {
    /// Each moving bone's shift at `time_secs` (the nearest earlier sample blended with the next).
    pub fn at(&self, time_secs: f64) -> impl Iterator<Item = (usize, Vec3)> + '_ {
        let n = self.bones.len();
        let frames = self.shifts.len().checked_div(n).unwrap_or(0);
        let (f0, f1, t) = between(time_secs, self.frame_time_secs, frames);
        self.bones
            .iter()
            .enumerate()
            .filter(move |_| frames > 0)
            .map(move |(k, &b)| (b, self.shifts[f0 * n + k].lerp(self.shifts[f1 * n + k], t)))
    }
}

/// The samples either side of `time_secs` (`frames` ≥ 1 of them, `frame_time_secs` apart) and
/// how far between them it falls.
fn between(time_secs: f64, frame_time_secs: f64, frames: usize) -> (usize, usize, f32) {
    let x = (time_secs / frame_time_secs.max(1e-12)).clamp(0.0, frames.saturating_sub(1) as f64);
    let f0 = x.floor() as usize;
    (f0, (f0 + 1).min(frames.saturating_sub(1)), (x - f0 as f64) as f32)
}

/// One drawn primitive.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// The mesh's name (with the primitive's number when it has several).
    pub name: String,
    /// Vertex positions (mesh space).
    pub positions: Vec<Vec3>,
    /// Unit normals, computed from the faces where the file gives none.
    pub normals: Vec<Vec3>,
    /// Texture coordinates (empty when none).
    pub uvs: Vec<Vec2>,
    /// Linear RGBA vertex colours (empty when none).
    pub colors: Vec<Vec4>,
    /// Triangles, three indices each.
    pub indices: Vec<u32>,
    /// Per vertex: indices into `bones`.
    pub joints: Vec<[u16; MAX_INFLUENCES]>,
    /// Per vertex: weights, summing to 1.
    pub weights: Vec<[f32; MAX_INFLUENCES]>,
    /// The palette's entries.
    pub bones: Vec<Bone>,
    /// Bound to a skin (else rigid, on one node).
    pub skinned: bool,
    /// Morph targets.
    pub morph_targets: Vec<MorphTarget>,
    /// Weights when nothing animates them.
    pub morph_weights: Vec<f32>,
    /// Weights over the take, where it animates them.
    pub morph_animation: Option<MorphAnimation>,
    /// Targets the pose drives (a body model's pose blend shapes).
    pub pose_blend: Option<PoseBlend>,
    /// Bones whose bind moves over the take (a body model's expressions).
    pub bind_motion: Option<BindMotion>,
    /// How it looks.
    pub material: Material,
}

impl Mesh {
    /// A rigid mesh following `bone`, with nothing but positions and triangles.
    pub fn rigid(name: impl Into<String>, positions: Vec<Vec3>, indices: Vec<u32>, bone: Bone) -> Self {
        let n = positions.len();
        let mut one = [0.0; MAX_INFLUENCES];
        one[0] = 1.0;
        let mut mesh = Self {
            name: name.into(),
            normals: Vec::new(),
            positions,
            uvs: Vec::new(),
            colors: Vec::new(),
            indices,
            joints: vec![[0; MAX_INFLUENCES]; n],
            weights: vec![one; n],
            bones: vec![bone],
            skinned: false,
            morph_targets: Vec::new(),
            morph_weights: Vec::new(),
            morph_animation: None,
            pose_blend: None,
            bind_motion: None,
            material: Material::default(),
        };
        mesh.normals = face_normals(&mesh.positions, &mesh.indices);
        mesh
    }

    /// Number of triangles.
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }

    /// Largest number of non-zero influences of any vertex.
    pub fn influences(&self) -> usize {
        self.weights.iter().map(|w| w.iter().filter(|&&x| x != 0.0).count()).max().unwrap_or(0)
    }

    /// `world_from_mesh` of each bone for `pose` at `time_secs` (file space): the palette.
    pub fn palette(&self, pose: &GlobalPose, time_secs: f64, out: &mut Vec<Mat4>) {
        out.clear();
        out.extend(self.palette_iter(pose, time_secs));
    }

    /// The palette without a buffer (the scene writes it straight into the frame's rows).
    pub fn palette_iter<'a>(&'a self, pose: &'a GlobalPose, time_secs: f64) -> impl Iterator<Item = Mat4> + 'a {
        // Allocates only for a mesh whose binds move (a few bones of a body's face).
        let shifts: Vec<(usize, Vec3)> = self.bind_motion.as_ref().map(|b| b.at(time_secs).collect()).unwrap_or_default();
        self.bones.iter().enumerate().map(move |(k, b)| {
            let world = Mat4::from(b.joint.and_then(|j| pose.world_from_joint.get(j)).copied().unwrap_or(Affine3A::IDENTITY));
            match shifts.iter().find(|(bone, _)| *bone == k) {
                Some((_, shift)) => world * Mat4::from_translation(-*shift) * b.joint_from_mesh,
                None => world * b.joint_from_mesh,
            }
        })
    }

    /// The morph weights at `time_secs` for `pose`: the take's (or the defaults), then those
    /// the pose drives.
    pub fn posed_weights(&self, time_secs: f64, pose: &GlobalPose, out: &mut Vec<f32>) {
        self.morph_weights_at(time_secs, out);
        if let Some(p) = &self.pose_blend {
            p.weights(pose, out);
        }
    }

    /// The morph weights at `time_secs` (the nearest earlier sample blended with the next).
    pub fn morph_weights_at(&self, time_secs: f64, out: &mut Vec<f32>) {
        out.clear();
        let targets = self.morph_targets.len();
        out.extend(self.morph_weights.iter().copied().chain(std::iter::repeat(0.0)).take(targets));
        let Some(a) = self.morph_animation.as_ref().filter(|a| a.targets > 0 && a.targets <= targets && a.values.len() >= a.targets) else {
            return;
        };
        let n = a.targets;
        let (f0, f1, t) = between(time_secs, a.frame_time_secs, a.values.len() / n);
        for (k, w) in out.iter_mut().enumerate().take(n) {
            *w = a.values[f0 * n + k] * (1.0 - t) + a.values[f1 * n + k] * t;
        }
    }
}

/// Vertices of `mesh` in the palette's space: morph targets with `weights`, then linear blend
/// skinning (the GPU's sum, on the CPU).
pub fn skin_vertices(mesh: &Mesh, palette: &[Mat4], weights: &[f32], out: &mut Vec<Vec3>) {
    out.clear();
    out.reserve(mesh.positions.len());
    let morphs: Vec<(&MorphTarget, f32)> =
        mesh.morph_targets.iter().zip(weights).filter(|(_, w)| **w != 0.0).map(|(m, &w)| (m, w)).collect();
    for (v, &p) in mesh.positions.iter().enumerate() {
        let mut p = p;
        for (m, w) in &morphs {
            p += m.positions.get(v).copied().unwrap_or(Vec3::ZERO) * *w;
        }
        let mut sum = Vec3::ZERO;
        for (&j, &w) in mesh.joints[v].iter().zip(&mesh.weights[v]) {
            if w != 0.0
                && let Some(m) = palette.get(usize::from(j))
            {
                sum += m.transform_point3(p) * w;
            }
        }
        out.push(sum);
    }
}

/// Smooth unit normals from the triangles, each face weighted by its area.
pub fn face_normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let (Some(&pa), Some(&pb), Some(&pc)) = (positions.get(a), positions.get(b), positions.get(c)) else { continue };
        let n = (pb - pa).cross(pc - pa);
        for i in [a, b, c] {
            normals[i] += n;
        }
    }
    normals.iter().map(|n| n.try_normalize().unwrap_or(Vec3::Y)).collect()
}

impl MeshSet {
    /// Total vertices of every mesh.
    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(|m| m.positions.len()).sum()
    }

    /// Total triangles of every mesh.
    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(Mesh::triangles).sum()
    }

    /// The same meshes on a skeleton whose joints were renumbered: `joint_of(old)` is the
    /// joint's new index; `None` (a bone's joint is gone) when a mesh follows a removed joint.
    pub fn remapped(&self, joint_of: impl Fn(usize) -> Option<usize>) -> Option<Self> {
        let mut set = self.clone();
        for b in set.meshes.iter_mut().flat_map(|m| &mut m.bones) {
            if let Some(j) = b.joint {
                b.joint = Some(joint_of(j)?);
            }
        }
        set.extensions = set.extensions.map(|e| std::sync::Arc::new(e.remapped(&joint_of)));
        Some(set)
    }

    /// The same meshes with their morph weights held at their defaults and their binds at
    /// rest (for another motion).
    pub fn still(&self) -> Self {
        let mut set = self.clone();
        set.meshes.iter_mut().for_each(|m| (m.morph_animation, m.bind_motion) = (None, None));
        set
    }

    /// The same meshes with each bone's `joint_from_mesh` replaced by `f(joint, it)`: for edits
    /// that change what a joint's frame is (a new rest pose, lengths scaled).
    pub fn rebound(&self, f: impl Fn(Option<usize>, Mat4) -> Mat4) -> Self {
        let mut set = self.clone();
        for m in &mut set.meshes {
            let before: Vec<Mat4> = m.bones.iter().map(|b| b.joint_from_mesh).collect();
            for b in &mut m.bones {
                b.joint_from_mesh = f(b.joint, b.joint_from_mesh);
            }
            // A moving bind's shift lies in its joint's frame: it turns and scales with it.
            if let Some(moving) = &mut m.bind_motion {
                let n = moving.bones.len();
                for (k, &bone) in moving.bones.iter().enumerate() {
                    let (Some(now), Some(was)) = (m.bones.get(bone), before.get(bone)) else { continue };
                    let x = now.joint_from_mesh * was.inverse();
                    moving.shifts.iter_mut().skip(k).step_by(n).for_each(|s| *s = x.transform_vector3(*s));
                }
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn a_vertex_between_two_joints_moves_by_their_weighted_transforms() {
        let bones = vec![
            Bone { joint: Some(0), joint_from_mesh: Mat4::IDENTITY },
            Bone { joint: Some(1), joint_from_mesh: Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)) },
        ];
        let mut mesh = Mesh::rigid("m", vec![Vec3::new(1.0, 1.0, 0.0)], vec![], bones[0]);
        mesh.bones = bones;
        mesh.joints[0] = [0, 1, 0, 0, 0, 0, 0, 0];
        mesh.weights[0] = [0.25, 0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        mesh.skinned = true;
        let pose = GlobalPose {
            world_from_joint: vec![
                Affine3A::IDENTITY,
                Affine3A::from_rotation_translation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), Vec3::new(0.0, 1.0, 0.0)),
            ],
        };
        let mut palette = Vec::new();
        mesh.palette(&pose, 0.0, &mut palette);
        let mut out = Vec::new();
        skin_vertices(&mesh, &palette, &[], &mut out);
        // Joint 1 turns the vertex (1, 0) in its space to (0, 1), then lifts it by 1.
        let expected = Vec3::new(1.0, 1.0, 0.0) * 0.25 + Vec3::new(0.0, 2.0, 0.0) * 0.75;
        assert!((out[0] - expected).length() < 1e-6, "{:?}", out[0]);
    }

    #[test]
    fn pose_blend_weights_are_each_joints_turn_from_its_parent_less_identity_rows_first() {
        let mut mesh = Mesh::rigid("m", vec![Vec3::ZERO], vec![], Bone { joint: None, joint_from_mesh: Mat4::IDENTITY });
        let target = MorphTarget { name: "t".into(), positions: vec![Vec3::ZERO], normals: vec![] };
        mesh.morph_targets = vec![target; 10];
        // Target 0 is the file's own; 1..10 are joint 1's nine.
        mesh.pose_blend = Some(PoseBlend { first_target: 1, joints: vec![(1, Some(0))] });
        let parent = Quat::from_rotation_y(0.7);
        let turn = Quat::from_rotation_z(0.3);
        let pose = GlobalPose {
            world_from_joint: vec![
                Affine3A::from_quat(parent),
                Affine3A::from_rotation_translation(parent * turn, Vec3::new(0.0, 1.0, 0.0)),
            ],
        };
        let mut w = Vec::new();
        mesh.posed_weights(0.0, &pose, &mut w);
        let (c, s) = (0.3f32.cos(), 0.3f32.sin());
        // R − I of a turn about z, rows first: [[c − 1, −s, 0], [s, c − 1, 0], [0, 0, 0]].
        let expected = [0.0, c - 1.0, -s, 0.0, s, c - 1.0, 0.0, 0.0, 0.0, 0.0];
        assert!(w.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6), "{w:?}");
    }

    #[test]
    fn a_moving_bind_shifts_the_palette_and_turns_and_scales_with_its_joints_frame() {
        let bone = Bone { joint: Some(0), joint_from_mesh: Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)) };
        let mut mesh = Mesh::rigid("m", vec![Vec3::X], vec![], bone);
        let shifts = vec![Vec3::new(0.1, 0.2, 0.3), Vec3::new(0.3, 0.0, -0.1)];
        mesh.bind_motion = Some(BindMotion { frame_time_secs: 1.0, bones: vec![0], shifts });
        let world = Mat4::from_rotation_translation(Quat::from_rotation_y(0.4), Vec3::new(1.0, 2.0, 3.0));
        let palette = |mesh: &Mesh, world: Mat4, t: f64| {
            let mut out = Vec::new();
            mesh.palette(&GlobalPose { world_from_joint: vec![Affine3A::from_mat4(world)] }, t, &mut out);
            out[0]
        };
        // Half-way between the two samples: the bind moved by the mean shift.
        let want = world * Mat4::from_translation(-Vec3::new(0.2, 0.1, 0.1)) * bone.joint_from_mesh;
        assert!(palette(&mesh, world, 0.5).abs_diff_eq(want, 1e-6));
        // An edit that turns and scales the joint's frame (a new rest pose, lengths scaled):
        // the joint's world is then world · x⁻¹, and the palette is what it was.
        let x = Mat4::from_scale_rotation_translation(Vec3::splat(1.5), Quat::from_rotation_z(0.7), Vec3::ZERO);
        let set = MeshSet { meshes: vec![mesh], ..Default::default() };
        let rebound = set.rebound(|_, m| x * m);
        for t in [0.0, 0.5, 1.0] {
            let (a, b) = (palette(&set.meshes[0], world, t), palette(&rebound.meshes[0], world * x.inverse(), t));
            assert!(a.abs_diff_eq(b, 1e-5), "{t}: {a} vs {b}");
        }
    }

    #[test]
    fn morph_weights_blend_between_samples_and_hold_at_the_ends() {
        let mut mesh = Mesh::rigid("m", vec![Vec3::ZERO], vec![], Bone { joint: None, joint_from_mesh: Mat4::IDENTITY });
        mesh.morph_targets = vec![MorphTarget { name: "up".into(), positions: vec![Vec3::Y], normals: vec![] }];
        mesh.morph_animation = Some(MorphAnimation { frame_time_secs: 0.5, targets: 1, values: vec![0.0, 1.0] });
        let mut w = Vec::new();
        mesh.morph_weights_at(0.25, &mut w);
        assert_eq!(w, [0.5]);
        mesh.morph_weights_at(9.0, &mut w);
        assert_eq!(w, [1.0]);
        let mut out = Vec::new();
        skin_vertices(&mesh, &[Mat4::IDENTITY], &w, &mut out);
        assert_eq!(out, [Vec3::Y]);
    }
}
