//! FBX takes, sampled into frames.
//!
//! Every animation stack is a take. The chosen one is sampled at the file's frame rate (its
//! time mode), frame 0 at the stack's own start and the last frame at its stop, both
//! included. Each frame is what ufbx evaluates the scene to at that time (pre- and
//! post-rotations, pivots, rotation orders and inherit modes as the authoring tool shows
//! them), stored per joint as its local translation, rotation quaternion and scale relative
//! to its parent joint. Sampled frames rather than the curves: FBX curves carry tangents,
//! weights, layers and extrapolation that no other format here has, and mocap takes hold a
//! key per frame anyway.

use std::collections::HashSet;

use glam::{DMat4, DQuat, DVec3, Vec3};
use ufbx::{Scene, SceneRoot};

use super::nodes::Nodes;
use crate::core::{ChannelKind, Clip, Joint, PositionRule, Skeleton, Take};
use crate::formats::Parallel;
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::finish::Parsed;

const CHANNELS: [ChannelKind; 10] = ChannelKind::TRANSLATION_QUATERNION_SCALE;

/// Most values a clip may hold (512 MiB of f32): refuses absurd joints × frames products.
const MAX_VALUES: u64 = 1 << 27;

/// The frame rate used when the file states none that makes sense.
pub const FALLBACK_FPS: f64 = 30.0;

/// A ufbx matrix (3 × 4, columns of an affine map) as glam's.
pub(super) fn matrix_from(m: &ufbx::Matrix) -> DMat4 {
    DMat4::from_cols(
        glam::DVec4::new(m.m00, m.m10, m.m20, 0.0),
        glam::DVec4::new(m.m01, m.m11, m.m21, 0.0),
        glam::DVec4::new(m.m02, m.m12, m.m22, 0.0),
        glam::DVec4::new(m.m03, m.m13, m.m23, 1.0),
    )
}

/// A joint's ten values: translation, rotation (x y z w) and scale.
fn values_of(m: &DMat4, out: &mut [f32]) {
    let (s, r, t) = m.to_scale_rotation_translation();
    write_trs(&(t, r, s), out);
}

/// A joint's ten values from a translation, rotation and scale.
fn write_trs((t, r, s): &Trs, out: &mut [f32]) {
    let r = r.normalize();
    out.copy_from_slice(&[t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z].map(|v| v as f32));
}

/// Local transforms of every joint, given the world transform of every chain node.
fn joint_values(nodes: &Nodes, worlds: &[DMat4], locals: &[DMat4], row: &mut [f32]) {
    for (j, joint) in nodes.joints.iter().enumerate() {
        let out = &mut row[j * CHANNELS.len()..(j + 1) * CHANNELS.len()];
        match joint.parent {
            _ if joint.direct => values_of(&locals[joint.slot], out),
            Some(p) => values_of(&(worlds[nodes.joints[p].slot].inverse() * worlds[joint.slot]), out),
            None => values_of(&worlds[joint.slot], out),
        }
    }
}

/// The rest pose: each node's bind pose where the file has one, else its default transform
/// under its parent's rest transform. Returns the values and how many joints had a bind pose.
fn rest_values(scene: &Scene, nodes: &Nodes) -> (Vec<f32>, usize) {
    let mut worlds: Vec<DMat4> = Vec::with_capacity(nodes.chain.len());
    let joint_node: HashSet<usize> = nodes.joints.iter().map(|j| nodes.chain[j.slot].node).collect();
    let mut bound = 0;
    for c in &nodes.chain {
        let node = &scene.nodes[c.node];
        let bind = node.bind_pose.as_ref().and_then(|pose| {
            pose.bone_poses
                .iter()
                .find(|b| b.bone_node.element.typed_id as usize == c.node)
                .map(|b| matrix_from(&b.bone_to_world))
                .filter(|m| m.is_finite() && m.determinant().abs() > 1e-12)
        });
        if bind.is_some() && joint_node.contains(&c.node) {
            bound += 1;
        }
        let local = matrix_from(&node.node_to_parent);
        worlds.push(bind.unwrap_or_else(|| c.parent.map_or(local, |p| worlds[p] * local)));
    }
    let locals: Vec<DMat4> =
        nodes.chain.iter().enumerate().map(|(slot, c)| c.parent.map_or(worlds[slot], |p| worlds[p].inverse() * worlds[slot])).collect();
    let mut row = vec![0.0; nodes.joints.len() * CHANNELS.len()];
    joint_values(nodes, &worlds, &locals, &mut row);
    (row, bound)
}

/// A stack's time span: its own start and stop, or, where it states none (stop not after
/// start), the span of its keys; the flag says which.
pub(super) fn span(stack: &ufbx::AnimStack) -> (f64, f64, bool) {
    if stack.time_end > stack.time_begin {
        return (stack.time_begin, stack.time_end, false);
    }
    let curves = stack.layers.iter().flat_map(|l| l.anim_values.iter()).flat_map(|v| v.curves.iter().flatten());
    let (lo, hi) = curves
        .filter(|c| !c.keyframes.is_empty())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| (lo.min(c.min_time), hi.max(c.max_time)));
    if lo.is_finite() && hi > lo { (lo, hi, true) } else { (stack.time_begin, stack.time_begin, false) }
}

/// The takes: one per animation stack, with what each animates.
fn takes(scene: &Scene, nodes: &Nodes) -> Vec<Take> {
    let slot_node: HashSet<usize> = nodes.chain.iter().map(|c| c.node).collect();
    let joint_node: HashSet<usize> = nodes.joints.iter().map(|j| nodes.chain[j.slot].node).collect();
    scene
        .anim_stacks
        .iter()
        .enumerate()
        .map(|(i, stack)| {
            let mut joints = HashSet::new();
            let mut moving = false;
            for (n, prop) in super::nodes::node_props(&stack.layers) {
                if joint_node.contains(&n) {
                    joints.insert(n);
                }
                if slot_node.contains(&n) {
                    moving |= prop.anim_value.curves.iter().flatten().any(|c| c.max_value > c.min_value);
                }
            }
            let name = if stack.element.name.is_empty() { format!("take {i}") } else { stack.element.name.to_string() };
            let (begin, end, _) = span(stack);
            Take { name, duration_secs: end - begin, joints: joints.len(), moving }
        })
        .collect()
}

/// Which take is sampled, over what span and at what rate.
struct Sampling {
    chosen: Option<usize>,
    begin: f64,
    end: f64,
    fps: f64,
    frames: usize,
}

/// Builds the skeleton and the clip of the take `choice` (a name or an index; by the take
/// list's rule when `None`), at `fps` when given.
pub fn build(
    root: &SceneRoot,
    nodes: &Nodes,
    choice: Option<&str>,
    fps: Option<f64>,
    parallel: &dyn Parallel,
) -> Result<(Parsed, Vec<RawWarning>), ParseError> {
    let bad = |m: String| ParseError::invalid(0, m);
    let scene: &Scene = root;
    let mut warnings = Vec::new();
    let takes = takes(scene, nodes);
    let chosen = crate::formats::takes::choose(&takes, choice).map_err(|e| bad(e.to_string()))?;
    if let Some(message) = chosen.and_then(|c| crate::formats::takes::several(&takes, c)) {
        warnings.push(RawWarning { offset: 0, message });
    }
    let (fps, rate_note) = frame_rate(scene, fps, &mut warnings)?;
    let (begin, end, from_keys) = chosen.map_or((0.0, 0.0, false), |c| span(&scene.anim_stacks[c]));
    if from_keys {
        warnings.push(RawWarning {
            offset: 0,
            message: format!("the take states no start and stop: its keys' span {begin:.3}–{end:.3} s is used"),
        });
    }
    if !(begin.is_finite() && end.is_finite()) {
        return Err(bad(format!("take times {begin}..{end} are not finite")));
    }
    let frames = ((end - begin) * fps - 1e-6).ceil().max(0.0) as u64 + 1;
    let width = nodes.joints.len() * CHANNELS.len();
    if frames.saturating_mul(width.max(nodes.chain.len()) as u64) > MAX_VALUES {
        return Err(bad(format!("take too long to sample: {} joints × {frames} frames", nodes.joints.len())));
    }
    let frames = frames as usize;

    let (rest, bound) = rest_values(scene, nodes);
    let values = sample_take(root, nodes, &Sampling { chosen, begin, end, fps, frames }, parallel);
    let mut joints = Vec::with_capacity(nodes.joints.len());
    for (j, n) in nodes.joints.iter().enumerate() {
        let r = &rest[j * CHANNELS.len()..];
        let mut joint = Joint::new(n.name.clone(), n.parent, Vec3::new(r[0], r[1], r[2]));
        joint.channels = CHANNELS.to_vec();
        joint.details = n.details.clone();
        joints.push(joint);
    }
    let skeleton = Skeleton::new(joints, PositionRule::Replace).and_then(|s| s.with_rest_values(rest)).map_err(|e| bad(e.to_string()))?;
    let mut clip = Clip::new(1.0 / fps, width, frames, values);
    let missing = clip.hold_missing();
    if missing > 0 {
        warnings.push(RawWarning {
            offset: 0,
            message: format!(
                "{missing} sampled values are not finite (NaN or infinite in the file); each is held from the last valid frame and marked"
            ),
        });
    }

    let mut details = Vec::new();
    if let Some(c) = chosen {
        details.push(("Take".into(), format!("{} ({begin:.3}–{end:.3} s in the file)", takes[c].name)));
    }
    details.push(("Frame rate".into(), format!("{fps} fps ({rate_note})")));
    details.push(("Stacks".into(), takes.len().to_string()));
    details.push((
        "Rest pose".into(),
        match bound {
            0 => "the nodes' default transforms (no bind pose)".to_owned(),
            b => format!("bind pose ({b} of {} joints; the others their default transforms)", nodes.joints.len()),
        },
    ));
    let mut parsed = Parsed::new(skeleton, clip, "quaternion");
    parsed.details = details;
    parsed.takes = (takes, chosen);
    Ok((parsed, warnings))
}

/// The sampling rate (`--fps`, else the file's time mode, else 30 fps with a warning) and
/// where it came from.
fn frame_rate(scene: &Scene, fps: Option<f64>, warnings: &mut Vec<RawWarning>) -> Result<(f64, String), ParseError> {
    let file_fps = scene.settings.frames_per_second;
    Ok(match fps {
        Some(f) if f.is_finite() && f > 0.0 => (f, "--fps".to_owned()),
        Some(f) => return Err(ParseError::invalid(0, format!("--fps {f}: expected a rate above 0"))),
        None if file_fps.is_finite() && file_fps > 0.0 && file_fps <= 1e4 => {
            (file_fps, format!("time mode {:?}", scene.settings.time_mode))
        }
        None => {
            warnings.push(RawWarning { offset: 0, message: format!("frame rate {file_fps} makes no sense: sampled at 30 fps") });
            (FALLBACK_FPS, "assumed".to_owned())
        }
    })
}

/// Evaluates the scene at every frame of `s`, in parallel blocks of frames (each job with its
/// own scratch buffers), then keeps consecutive quaternions on one side.
fn sample_take(root: &SceneRoot, nodes: &Nodes, s: &Sampling, parallel: &dyn Parallel) -> Vec<f32> {
    let Sampling { chosen, begin, end, fps, frames } = *s;
    let scene: &Scene = root;
    let width = nodes.joints.len() * CHANNELS.len();
    let mut values = vec![0.0f32; frames * width];
    let plan = FramePlan::new(scene, nodes, chosen, begin);
    let plan = &plan;
    let per_job = frames.div_ceil(parallel.width().max(1) * 4).max(16);
    let jobs: Vec<Box<dyn FnOnce() + Send + '_>> = values
        .chunks_mut(per_job * width.max(1))
        .enumerate()
        .map(|(k, chunk)| {
            Box::new(move || {
                let scene: &Scene = root;
                let anim = chosen.map_or(&scene.anim, |c| &scene.anim_stacks[c].anim);
                let mut trs = vec![IDENTITY_TRS; nodes.chain.len()];
                let mut worlds = vec![DMat4::IDENTITY; nodes.chain.len()];
                for (i, row) in chunk.chunks_mut(width.max(1)).enumerate() {
                    let t = (begin + (k * per_job + i) as f64 / fps).min(end);
                    plan.frame(scene, anim, nodes, t, &mut trs, &mut worlds, row);
                }
            }) as Box<dyn FnOnce() + Send + '_>
        })
        .collect();
    parallel.run(jobs);
    keep_quaternions_near(&mut values, width, nodes.joints.len());
    values
}

/// Translation, rotation, scale.
type Trs = (DVec3, DQuat, DVec3);

const IDENTITY_TRS: Trs = (DVec3::ZERO, DQuat::IDENTITY, DVec3::ONE);

fn trs_of(t: &ufbx::Transform) -> Trs {
    (
        DVec3::new(t.translation.x, t.translation.y, t.translation.z),
        DQuat::from_xyzw(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w),
        DVec3::new(t.scale.x, t.scale.y, t.scale.z),
    )
}

/// What each frame of a take needs evaluated, worked out once: most skeletons are bones
/// under bones, whose values are their own evaluated transforms (no matrices), and nodes no
/// key of the take moves are evaluated once.
struct FramePlan {
    /// Per chain slot: its local transform is needed.
    local: Vec<bool>,
    /// Per chain slot: its world transform is needed (a joint with nodes between it and its
    /// parent joint, that parent, and their ancestors).
    world: Vec<bool>,
    /// Per chain slot: its transform, when the take does not move it.
    constant: Vec<Option<Trs>>,
    /// Per joint: its values are its node's own local transform.
    direct: Vec<bool>,
}

impl FramePlan {
    fn new(scene: &Scene, nodes: &Nodes, chosen: Option<usize>, begin: f64) -> Self {
        let anim = chosen.map_or(&scene.anim, |c| &scene.anim_stacks[c].anim);
        let animated: HashSet<usize> =
            chosen.map(|c| super::nodes::node_props(&scene.anim_stacks[c].layers).map(|(n, _)| n).collect()).unwrap_or_default();
        let chain = &nodes.chain;
        // A joint right under an untransformed scene root is its own world transform.
        let under_plain_root = |slot: usize| {
            chain[slot].parent.is_some_and(|p| {
                let root = &scene.nodes[chain[p].node];
                root.is_root && chain[p].parent.is_none() && trs_of(&root.local_transform) == IDENTITY_TRS
            })
        };
        let direct: Vec<bool> = nodes.joints.iter().map(|j| j.direct || (j.parent.is_none() && under_plain_root(j.slot))).collect();
        let mut world = vec![false; chain.len()];
        let mut mark = |mut slot: Option<usize>| {
            while let Some(s) = slot {
                if std::mem::replace(&mut world[s], true) {
                    break;
                }
                slot = chain[s].parent;
            }
        };
        for (j, joint) in nodes.joints.iter().enumerate() {
            if !direct[j] {
                mark(Some(joint.slot));
                mark(joint.parent.map(|p| nodes.joints[p].slot));
            }
        }
        let mut local = world.clone();
        for (j, joint) in nodes.joints.iter().enumerate() {
            local[joint.slot] |= direct[j];
        }
        let constant = chain
            .iter()
            .map(|c| {
                let node = &scene.nodes[c.node];
                // A parent's scale helper or componentwise scale feeds into the evaluation.
                let plain_parent = node.parent.as_ref().is_none_or(|p| p.scale_helper.is_none() && p.inherit_scale_node.is_none());
                (!animated.contains(&c.node) && plain_parent).then(|| trs_of(&ufbx::evaluate_transform(anim, node, begin)))
            })
            .collect();
        Self { local, world, constant, direct }
    }

    /// One frame's values at time `t` into `row` (`trs` and `worlds` are scratch).
    #[allow(clippy::too_many_arguments)]
    fn frame(&self, scene: &Scene, anim: &ufbx::Anim, nodes: &Nodes, t: f64, trs: &mut [Trs], worlds: &mut [DMat4], row: &mut [f32]) {
        for (s, c) in nodes.chain.iter().enumerate() {
            if self.local[s] {
                trs[s] = self.constant[s].unwrap_or_else(|| trs_of(&ufbx::evaluate_transform(anim, &scene.nodes[c.node], t)));
            }
            if self.world[s] {
                let m = DMat4::from_scale_rotation_translation(trs[s].2, trs[s].1, trs[s].0);
                worlds[s] = c.parent.map_or(m, |p| worlds[p] * m);
            }
        }
        for (j, joint) in nodes.joints.iter().enumerate() {
            let out = &mut row[j * CHANNELS.len()..(j + 1) * CHANNELS.len()];
            if self.direct[j] {
                write_trs(&trs[joint.slot], out);
            } else {
                let parent_world = joint.parent.map_or(DMat4::IDENTITY, |p| worlds[nodes.joints[p].slot]);
                values_of(&(parent_world.inverse() * worlds[joint.slot]), out);
            }
        }
    }
}

/// Flips each joint's quaternion to the side of the previous frame's, so that blending
/// between frames takes the short way.
fn keep_quaternions_near(values: &mut [f32], width: usize, joints: usize) {
    if width == 0 {
        return;
    }
    for j in 0..joints {
        let at = j * CHANNELS.len() + 3;
        let mut previous: Option<[f32; 4]> = None;
        for row in values.chunks_mut(width) {
            let q = &mut row[at..at + 4];
            if let Some(p) = previous
                && p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0
            {
                q.iter_mut().for_each(|v| *v = -*v);
            }
            previous = Some([q[0], q[1], q[2], q[3]]);
        }
    }
}
