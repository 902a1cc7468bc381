//! glTF 2.0 output (`.glb`, or `.gltf` with a `.bin` beside it) from any motion: every joint a
//! node with its name and rest transform, a skin per root's tree listing the joints with their
//! inverse bind matrices, a character's meshes ([`super::gltf_meshes`]), and one animation per take with a key per source frame (LINEAR), translation
//! where a joint moves, rotation quaternions (never Euler) where it turns, and scale where it
//! is not 1. Metres, Y up: the motion's units and up axis are folded into every local
//! transform by conjugation (`D · L · D⁻¹` with `D` the file → metres, Y-up similarity), so
//! positions come out exactly as `skelview positions` prints them and no extra node appears.

use std::io::Write;

use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};

use crate::core::mesh::Mesh;
use crate::core::pose::{self, GlobalPose, LocalPose, LocalTransform};
use crate::core::{Motion, Skeleton, Take};

/// One animation to write: its name and the motion sampled for it.
pub struct Animation<'a> {
    /// The take's name.
    pub name: String,
    /// The motion playing that take (all takes share the first one's skeleton).
    pub motion: &'a Motion,
}

/// The file → metres, Y-up similarity of `m`: its rotation and uniform scale.
fn similarity(m: &Motion) -> (Quat, f32) {
    let d = m.display_from_file();
    let s = d.x_axis.truncate().length().max(1e-12);
    (Quat::from_mat4(&(d * Mat4::from_scale(Vec3::splat(1.0 / s)))).normalize(), s)
}

/// `local` in the output space: translation turned and scaled, rotation conjugated, scale
/// axes permuted (`rd` turns by multiples of 90°).
fn conjugate(local: &LocalTransform, rd: Quat, s: f32) -> (Vec3, Quat, Vec3) {
    // The scale's axes follow the turn; their signs (a mirror) stay.
    let m = glam::Mat3::from_quat(rd);
    let from = |i: usize| (0..3).max_by(|&a, &b| m.col(a)[i].abs().total_cmp(&m.col(b)[i].abs())).unwrap_or(i);
    let scale = Vec3::new(local.scale[from(0)], local.scale[from(1)], local.scale[from(2)]);
    (rd * local.translation * s, (rd * local.rotation * rd.conjugate()).normalize(), scale)
}

/// Why nothing was written: the motion holds values that are not finite numbers.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{count} values are not finite numbers (NaN, or beyond a 32-bit float): glTF would hold them as they are, so nothing was written")]
pub struct NonFinite {
    /// How many.
    pub count: usize,
}

use super::gltf_blob::Blob;

/// The glTF JSON document and its binary buffer for `animations` (at least one; the first
/// gives the skeleton and the rest pose); refused when a value is not a finite number.
pub fn document(animations: &[Animation]) -> Result<(Value, Vec<u8>), NonFinite> {
    let first = animations[0].motion;
    let skeleton = &first.skeleton;
    let (rd, s) = similarity(first);
    let mut rest = LocalPose::default();
    pose::rest_pose(skeleton, &mut rest);
    let mut blob = Blob::default();

    let rest_nodes: Vec<Trs> = rest.parent_from_joint.iter().map(|l| conjugate(l, rd, s)).collect();
    blob.non_finite += rest_nodes.iter().filter(|(t, r, sc)| !(t.is_finite() && r.is_finite() && sc.is_finite())).count();
    let mut nodes = joint_nodes(skeleton, &rest_nodes);
    let ibm = inverse_binds(skeleton, &rest, rd, s);
    let mut skins = skeleton_skins(&mut blob, skeleton, &ibm);
    let d = Mat4::from_scale_rotation_translation(Vec3::splat(s), rd, Vec3::ZERO);
    let meshes =
        first.meshes.as_deref().map(|set| super::gltf_meshes::append(&mut blob, set, d, nodes.len(), skins.len())).unwrap_or_default();
    let mut roots: Vec<usize> = skeleton.roots().collect();
    // The node of each mesh, for its animated weights.
    let mut mesh_nodes = Vec::new();
    for (node, parent) in &meshes.nodes {
        if node.get("mesh").is_some() {
            mesh_nodes.push(nodes.len());
        }
        let k = nodes.len();
        nodes.push(node.clone());
        match parent {
            Some(p) => nodes[*p]
                .as_object_mut()
                .expect("a node")
                .entry("children")
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .expect("an array")
                .push(json!(k)),
            None => roots.push(k),
        }
    }
    skins.extend(meshes.skins.iter().cloned());
    let gltf_animations: Vec<Value> =
        animations.iter().map(|a| animation(&mut blob, a, skeleton, &rest_nodes, (&mesh_nodes, &meshes.moving_binds))).collect();
    while !blob.bytes.len().is_multiple_of(4) {
        blob.bytes.push(0);
    }
    let mut doc = json!({
        "asset": { "version": "2.0", "generator": concat!("skelview ", env!("CARGO_PKG_VERSION")) },
        "scene": 0,
        "scenes": [ { "nodes": roots } ],
        "nodes": nodes,
        "skins": skins,
        "animations": gltf_animations,
        "buffers": [ { "byteLength": blob.bytes.len() } ],
        "bufferViews": blob.views,
        "accessors": blob.accessors,
    });
    if !meshes.meshes.is_empty() {
        for (key, list) in
            [("meshes", meshes.meshes), ("materials", meshes.materials), ("images", meshes.images), ("textures", meshes.textures)]
        {
            if !list.is_empty() {
                doc[key] = json!(list);
            }
        }
        if doc.get("textures").is_some() {
            doc["samplers"] = json!([{ "magFilter": 9729, "minFilter": 9729 }]);
        }
    }
    if blob.non_finite > 0 {
        return Err(NonFinite { count: blob.non_finite });
    }
    Ok((doc, blob.bytes))
}

/// The skins that list the skeleton's joints: one per root's tree (glTF wants a skin's joints
/// under one root), each with the joints' inverse bind matrices (`ibm`, 16 per joint).
fn skeleton_skins(blob: &mut Blob, skeleton: &Skeleton, ibm: &[f32]) -> Vec<Value> {
    let joints = skeleton.joints();
    let mut root_of: Vec<usize> = (0..joints.len()).collect();
    for (i, j) in joints.iter().enumerate() {
        if let Some(p) = j.parent {
            root_of[i] = root_of[p];
        }
    }
    skeleton
        .roots()
        .map(|r| {
            let tree: Vec<usize> = (0..joints.len()).filter(|&i| root_of[i] == r).collect();
            let matrices: Vec<f32> = tree.iter().flat_map(|&i| ibm[i * 16..i * 16 + 16].to_vec()).collect();
            let accessor = blob.floats(&matrices, "MAT4", tree.len(), false);
            json!({ "joints": tree, "inverseBindMatrices": accessor })
        })
        .collect()
}

/// One node per joint with its name and rest transform (scale only when not 1), children listed.
fn joint_nodes(skeleton: &Skeleton, rest_nodes: &[Trs]) -> Vec<Value> {
    let joints = skeleton.joints();
    let mut nodes: Vec<Value> = joints
        .iter()
        .zip(rest_nodes)
        .map(|(j, &(t, r, sc))| {
            let mut node = json!({ "name": j.name, "translation": t.to_array(), "rotation": r.to_array() });
            if (sc - Vec3::ONE).abs().max_element() > 1e-7 {
                node["scale"] = json!(sc.to_array());
            }
            node
        })
        .collect();
    for (i, j) in joints.iter().enumerate() {
        if let Some(p) = j.parent {
            let children = nodes[p].as_object_mut().expect("a node").entry("children").or_insert_with(|| json!([]));
            children.as_array_mut().expect("an array").push(json!(i));
        }
    }
    nodes
}

/// Inverse bind matrices of the rest pose in the output space, column-major, one per joint.
fn inverse_binds(skeleton: &Skeleton, rest: &LocalPose, rd: Quat, s: f32) -> Vec<f32> {
    let mut global = GlobalPose::default();
    pose::global_pose(skeleton, rest, &mut global);
    let conj = Mat4::from_scale_rotation_translation(Vec3::splat(s), rd, Vec3::ZERO);
    global
        .world_from_joint
        .iter()
        .flat_map(|w| {
            let w = conj * Mat4::from(*w) * conj.inverse();
            let inv = w.inverse();
            let mut m = if inv.is_finite() { inv.to_cols_array() } else { Mat4::IDENTITY.to_cols_array() };
            // An affine matrix: the validator wants the last row exactly 0 0 0 1.
            (m[3], m[7], m[11], m[15]) = (0.0, 0.0, 0.0, 1.0);
            m
        })
        .collect()
}

/// The samplers and channels of one animation, sharing one time input.
struct Channels {
    input: usize,
    frames: usize,
    samplers: Vec<Value>,
    channels: Vec<Value>,
}

impl Channels {
    /// Adds one LINEAR sampler over `values` and a channel driving `path` of node `j`.
    fn add(&mut self, blob: &mut Blob, j: usize, path: &str, values: Vec<f32>, kind: &str) {
        let output = blob.floats(&values, kind, self.frames, false);
        self.samplers.push(json!({ "input": self.input, "output": output, "interpolation": "LINEAR" }));
        self.channels.push(json!({ "sampler": self.samplers.len() - 1, "target": { "node": j, "path": path } }));
    }

    /// Adds the channels joint `j` needs: one wherever a frame leaves the node's rest value
    /// (a joint held away from its rest pose needs one as much as a moving one).
    fn joint(&mut self, blob: &mut Blob, j: usize, keys: &mut [Trs], at_rest: &Trs) {
        // Consecutive quaternions on the same side, so that LINEAR takes the short way.
        for k in 1..keys.len() {
            if keys[k].1.dot(keys[k - 1].1) < 0.0 {
                keys[k].1 = -keys[k].1;
            }
        }
        let differs = |get: &dyn Fn(&Trs) -> [f32; 4]| {
            let a = get(at_rest);
            keys.iter().any(|k| get(k).iter().zip(a).any(|(x, y)| (x - y).abs() > 1e-6))
        };
        let t_moves = differs(&|k| k.0.extend(0.0).to_array());
        // q and -q are the same rotation.
        let r_moves = keys.iter().any(|k| k.1.dot(at_rest.1).abs() < 1.0 - 1e-7);
        let s_moves = differs(&|k| k.2.extend(0.0).to_array());
        if t_moves {
            self.add(blob, j, "translation", keys.iter().flat_map(|k| k.0.to_array()).collect(), "VEC3");
        }
        if r_moves {
            self.add(blob, j, "rotation", keys.iter().flat_map(|k| k.1.to_array()).collect(), "VEC4");
        }
        if s_moves {
            self.add(blob, j, "scale", keys.iter().flat_map(|k| k.2.to_array()).collect(), "VEC3");
        }
    }
}

impl Channels {
    /// Adds a `weights` channel per mesh: its node and its weights at every key, targets
    /// after targets.
    fn morph_weights(&mut self, blob: &mut Blob, weights: Vec<(usize, Vec<f32>)>) {
        for (node, values) in weights {
            // One key holds every target's weight: the accessor counts keys × targets scalars.
            let output = blob.floats(&values, "SCALAR", values.len(), false);
            self.samplers.push(json!({ "input": self.input, "output": output, "interpolation": "LINEAR" }));
            self.channels.push(json!({ "sampler": self.samplers.len() - 1, "target": { "node": node, "path": "weights" } }));
        }
    }
}

/// The meshes of `m` whose weights move (the take animates them, or the pose drives them),
/// each with its node (`mesh_nodes`) and room for its keys.
fn moving_weights<'m>(m: &'m Motion, mesh_nodes: &[usize]) -> Vec<(&'m Mesh, usize, Vec<f32>)> {
    let Some(set) = m.meshes.as_deref() else { return Vec::new() };
    set.meshes
        .iter()
        .zip(mesh_nodes)
        .filter(|(mesh, _)| !mesh.morph_targets.is_empty() && (mesh.morph_animation.is_some() || mesh.pose_blend.is_some()))
        .map(|(mesh, &node)| (mesh, node, Vec::new()))
        .collect()
}

/// Appends each moving mesh's weights at `time_secs` for the file-space `local` pose.
fn key_weights(moving: &mut [(&Mesh, usize, Vec<f32>)], time_secs: f64, local: &LocalPose, w: &mut Vec<f32>) {
    for (mesh, _, values) in moving {
        mesh.morph_weights_at(time_secs, w);
        if let Some(p) = &mesh.pose_blend {
            let rotation = |j: usize| local.parent_from_joint.get(j).map_or(glam::Mat3::IDENTITY, |l| glam::Mat3::from_quat(l.rotation));
            p.weights_from_local(rotation, w);
        }
        values.extend_from_slice(w);
    }
}

/// One glTF animation for `a`: a key per source frame for each joint that leaves its rest
/// value, for each mesh whose morph weights the take animates (`mesh_nodes`: each mesh's
/// node), and for each node of a moving bind (`moving_binds`, as [`MeshParts`] lists them).
fn animation(
    blob: &mut Blob,
    a: &Animation,
    skeleton: &Skeleton,
    rest_nodes: &[Trs],
    (mesh_nodes, moving_binds): (&[usize], &[(usize, usize, usize)]),
) -> Value {
    let n_joints = skeleton.joints().len();
    let m = a.motion;
    let frames = m.clip.num_frames().max(1);
    let times: Vec<f32> = (0..frames).map(|f| (f as f64 * m.clip.frame_time_secs) as f32).collect();
    let input = blob.floats(&times, "SCALAR", frames, true);
    let (rd, s) = similarity(m);
    // Every frame's local transforms in the output space, joint-major.
    let mut per_joint: Vec<Vec<Trs>> = vec![Vec::with_capacity(frames); n_joints];
    let mut local = LocalPose::default();
    let (mut moving, mut w) = (moving_weights(m, mesh_nodes), Vec::new());
    for (f, &time) in times.iter().enumerate() {
        pose::frame_pose(&m.skeleton, &m.clip, f, &mut local);
        key_weights(&mut moving, f64::from(time), &local, &mut w);
        for (j, l) in local.parent_from_joint.iter().enumerate().take(n_joints) {
            per_joint[j].push(conjugate(l, rd, s));
        }
    }
    let mut out = Channels { input, frames, samplers: Vec::new(), channels: Vec::new() };
    for (j, keys) in per_joint.iter_mut().enumerate() {
        out.joint(blob, j, keys, &rest_nodes[j]);
    }
    out.morph_weights(blob, moving.into_iter().map(|(_, node, values)| (node, values)).collect());
    let d = Mat4::from_scale_rotation_translation(Vec3::splat(s), rd, Vec3::ZERO);
    let meshes = m.meshes.as_deref().map_or(&[][..], |set| &set.meshes[..]);
    for &(node, mesh, bone) in moving_binds {
        let Some(b) = meshes.get(mesh).and_then(|x| x.bind_motion.as_ref()) else { continue };
        let shift = |t: f32| b.at(f64::from(t)).find(|(k, _)| *k == bone).map_or(Vec3::ZERO, |(_, shift)| shift);
        let values = times.iter().flat_map(|&t| d.transform_vector3(-shift(t)).to_array()).collect();
        out.add(blob, node, "translation", values, "VEC3");
    }
    if out.channels.is_empty() {
        // A still take: one channel keeps it an animation (glTF needs at least one).
        let root = skeleton.roots().next().unwrap_or(0);
        let values: Vec<f32> = per_joint[root].iter().flat_map(|k| k.1.to_array()).collect();
        let output = blob.floats(&values, "VEC4", frames, false);
        out.samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
        out.channels.push(json!({ "sampler": 0, "target": { "node": root, "path": "rotation" } }));
    }
    json!({ "name": a.name, "samplers": out.samplers, "channels": out.channels })
}

/// Writes a GLB container: the JSON chunk (padded with spaces) and the binary chunk.
pub fn write_glb(doc: &Value, bin: &[u8], out: &mut dyn Write) -> std::io::Result<()> {
    let mut json = serde_json::to_vec(doc).map_err(std::io::Error::other)?;
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let total = u32::try_from(total).map_err(|_| std::io::Error::other("a GLB is at most 4 GiB"))?;
    out.write_all(b"glTF")?;
    out.write_all(&2u32.to_le_bytes())?;
    out.write_all(&total.to_le_bytes())?;
    out.write_all(&(json.len() as u32).to_le_bytes())?;
    out.write_all(b"JSON")?;
    out.write_all(&json)?;
    out.write_all(&(bin.len() as u32).to_le_bytes())?;
    out.write_all(b"BIN\0")?;
    out.write_all(bin)
}

/// The takes of `m` worth a name in the output (`Take` list, or the clip itself).
pub fn take_names(m: &Motion) -> Vec<String> {
    let takes: &[Take] = &m.source.takes;
    if takes.is_empty() {
        vec![m.source.paths.last().and_then(|p| p.file_stem()).map_or("take".into(), |s| s.to_string_lossy().into_owned())]
    } else {
        takes.iter().map(|t| t.name.clone()).collect()
    }
}

/// A node's translation, rotation and scale.
type Trs = (Vec3, Quat, Vec3);
