//! The target's channel rows from each frame's display rotations: Euler angles (or
//! quaternions) in each joint's own channels, nearest the frame before so that curves do not
//! jump by turns, and the hips' travel through whichever joint carries translation. Pieces of
//! frames are written on every core and stitched to what one pass, frame after frame, gives.

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::core::clip_fk::{LANES, Lanes};
use crate::core::euler_lanes::euler_lanes;
use crate::core::pose::joint_local;
use crate::core::rotation_channels::RotationChannels;
use crate::core::{ChannelKind, Motion, Skeleton};
use crate::par::*;

/// Frames written together between two looks at the cancel flag (with a piece's start
/// stitched to the one before).
pub(super) const PIECE_FRAMES: usize = 1024;
/// Pieces worked on at once between two looks at the cancel flag.
const GROUP_PIECES: usize = 4;

/// Rotation part of `display_from_file` (the axes; the scale is the unit).
pub(super) fn axes(m: &Motion) -> Quat {
    let d = m.display_from_file();
    Quat::from_mat3(&Mat3::from_cols(d.x_axis.truncate().normalize(), d.y_axis.truncate().normalize(), d.z_axis.truncate().normalize()))
        .normalize()
}

/// Moves joint `j` by `delta` (in its parent's frame) through its translation channels (both
/// position rules take a channel's change as the translation's).
fn move_by(s: &Skeleton, j: usize, delta: Vec3, row: &mut [f32]) {
    if let Some(t) = translation(s, j) {
        for (i, d) in t.into_iter().zip(delta.to_array()) {
            row[i] += d;
        }
    }
}

/// A mapped joint that does not hang from the bone before it (an IK rig's foot, a child of
/// the root): each frame moved to where that bone's end is.
pub(super) struct Follower {
    /// The joint.
    joint: usize,
    /// Root to the bone before, and root to the joint.
    to_bone: Vec<usize>,
    to_joint: Vec<usize>,
    /// Where the joint rests in the bone before's frame (file space).
    offset: Vec3,
}

impl Follower {
    /// `joint` following the joint `bone` of `s`, whose rest pose is `rest` (their rest
    /// places give the offset).
    pub(super) fn new(s: &Skeleton, rest: &crate::core::pose::GlobalPose, joint: usize, bone: usize) -> Option<Self> {
        translation(s, joint)?;
        let path = |j: usize| -> Vec<usize> {
            let mut p: Vec<usize> = std::iter::successors(Some(j), |&k| s.joints()[k].parent).collect();
            p.reverse();
            p
        };
        let offset = rest.world_from_joint[bone].inverse().transform_point3(rest.position(joint));
        Some(Self { joint, to_bone: path(bone), to_joint: path(joint), offset })
    }
}

/// Joint `j`'s translation channels, when it has all three.
fn translation(s: &Skeleton, j: usize) -> Option<[usize; 3]> {
    crate::core::rotation_channels::translation_channels(&s.joints()[j])
}

/// The target's rest row: every channel at its rest value (rotations zero, scale one, and
/// positions that replace the offset at the offset: Bandai-Namco's and Perception Neuron's
/// BVH carry them on every joint).
fn rest_row(s: &Skeleton) -> Vec<f32> {
    if let Some(r) = s.rest_values() {
        return r.to_vec();
    }
    let replace = s.position_rule == crate::core::PositionRule::Replace;
    let mut row = vec![0.0; s.channels_per_frame()];
    for j in s.joints() {
        for (i, c) in j.channels.iter().enumerate() {
            row[j.first_channel + i] = match c {
                ChannelKind::QuatW | ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ => 1.0,
                ChannelKind::TranslateX if replace => j.offset.x,
                ChannelKind::TranslateY if replace => j.offset.y,
                ChannelKind::TranslateZ if replace => j.offset.z,
                _ => 0.0,
            };
        }
    }
    row
}

/// Where each frame's target rotations and hips place come from.
pub(super) trait Frames: Sync {
    /// Buffers one task reuses frame after frame.
    type Scratch: Send;
    /// A task's buffers.
    fn scratch(&self) -> Self::Scratch;
    /// Frame `f`'s display rotation of every target joint into `rot`; returns where the hips
    /// go (display metres).
    fn frame(&self, f: usize, scratch: &mut Self::Scratch, rot: &mut [Quat]) -> Vec3;
}

/// Frames worked out before (all of them: the feet were planted looking ahead).
pub(super) struct Stored<'a> {
    /// Every frame's rotations, a frame after another.
    pub(super) rots: &'a [Quat],
    /// Every frame's hips place.
    pub(super) hips_at: &'a [Vec3],
}

impl Frames for Stored<'_> {
    type Scratch = ();
    fn scratch(&self) {}
    fn frame(&self, f: usize, _: &mut (), rot: &mut [Quat]) -> Vec3 {
        let n = rot.len();
        rot.copy_from_slice(&self.rots[f * n..(f + 1) * n]);
        self.hips_at[f]
    }
}

/// Writes the target's channel rows from the display rotations of each frame.
pub(super) struct Rows<'a> {
    target: &'a Skeleton,
    channels: &'a [Option<RotationChannels>],
    /// The target's axes and display transform.
    ta: Quat,
    t_display: Mat4,
    /// The joint whose translation channels carry the hips' travel: the hips or an ancestor.
    mover: Option<usize>,
    /// The hips' ancestors, root first (only they place the hips), the hips last.
    chain: Vec<usize>,
    /// Whether each joint turns from its parent over the frames: the others (twist bones,
    /// fingers the source lacks) keep one rotation, written once into `base`.
    moving: Vec<bool>,
    /// The moving joints with rotation channels: what each frame writes.
    written: Vec<usize>,
    /// Mapped joints placed at the end of the bone before them.
    followers: Vec<Follower>,
    base: Vec<f32>,
}

impl<'a> Rows<'a> {
    /// The writer for `target` (its rotation `channels`), the hips' travel carried by the
    /// joint `hips` or an ancestor; `moving` says which joints turn from their parent at all,
    /// the others written once from `first` (a frame's rotations).
    pub(super) fn new(
        target: &'a Motion,
        channels: &'a [Option<RotationChannels>],
        moving: Vec<bool>,
        followers: Vec<Follower>,
        hips: usize,
        first: &[Quat],
    ) -> Self {
        let ts = &target.skeleton;
        let mut chain: Vec<usize> = std::iter::successors(Some(hips), |&j| ts.joints()[j].parent).collect();
        chain.reverse();
        let mut rows = Rows {
            target: ts,
            channels,
            ta: axes(target),
            t_display: target.display_from_file(),
            mover: std::iter::successors(Some(hips), |&j| ts.joints()[j].parent).find(|&j| translation(ts, j).is_some()),
            chain,
            written: (0..ts.len()).filter(|&j| moving[j] && channels[j].is_some()).collect(),
            moving,
            followers,
            base: rest_row(ts),
        };
        let mut base = std::mem::take(&mut rows.base);
        for j in (0..ts.len()).filter(|&j| !rows.moving[j]) {
            if let Some(ch) = &channels[j] {
                ch.write(&mut base, rows.channel_rotation(first, j), None);
            }
        }
        rows.base = base;
        rows
    }

    /// Joint `j`'s rotation in its own channels' terms for the frame's display rotations `rot`.
    fn channel_rotation(&self, rot: &[Quat], j: usize) -> Quat {
        let joint = &self.target.joints()[j];
        let local_display = joint.parent.map_or(rot[j], |p| rot[p].inverse() * rot[j]);
        // Most skeletons are Y-up with no pre- or post-rotations: those products skipped.
        let local_file = if self.ta == Quat::IDENTITY { local_display } else { self.ta.inverse() * local_display * self.ta };
        let pre = if joint.pre_rotation == Quat::IDENTITY { local_file } else { joint.pre_rotation.inverse() * local_file };
        let post = if joint.post_rotation == Quat::IDENTITY { pre } else { pre * joint.post_rotation.inverse() };
        post.normalize()
    }

    /// Lane `k`'s row of `group` into `row`, Euler angles nearest `near` (the previous
    /// frame's row), the hips at `hips_at`.
    fn write(&self, group: &Group, k: usize, hips_at: Vec3, near: Option<&[f32]>, row: &mut [f32], worlds: &mut Vec<glam::Affine3A>) {
        row.copy_from_slice(&self.base);
        for (i, &j) in self.written.iter().enumerate() {
            match &self.channels[j] {
                Some(ch @ RotationChannels::Euler { .. }) => {
                    let [a, b, c] = &group.angles[i];
                    ch.write_euler(row, (a[k], b[k], c[k]), near);
                }
                Some(ch) => ch.write(row, group.local[i * LANES + k], near),
                None => {}
            }
        }
        self.place(hips_at, row, worlds);
    }

    /// Moves the hips of `row` (its rotations written) to `hips_at`, and the followers to the
    /// ends of their bones.
    fn place(&self, hips_at: Vec3, row: &mut [f32], worlds: &mut Vec<glam::Affine3A>) {
        let ts = self.target;
        if let Some(m) = self.mover {
            // Where the hips are with the rotations set and the rest translation; moved to the
            // source's hips place scaled, through the mover's parent's frame.
            self.worlds_along(&self.chain, row, worlds);
            let now = self.t_display.transform_point3(worlds.last().map_or(Vec3::ZERO, |w| w.translation.into()));
            let delta_file = self.t_display.inverse().transform_vector3(hips_at - now);
            let at = self.chain.iter().position(|&j| j == m).unwrap_or(0);
            let parent = if at == 0 { glam::Affine3A::IDENTITY } else { worlds[at - 1] };
            move_by(ts, m, parent.inverse().transform_vector3(delta_file), row);
        }
        for f in &self.followers {
            // Where the bone before puts it, in file space; reached through its own parent.
            self.worlds_along(&f.to_bone, row, worlds);
            let want = worlds.last().map_or(f.offset, |w| w.transform_point3(f.offset));
            self.worlds_along(&f.to_joint, row, worlds);
            let now = worlds.last().map_or(Vec3::ZERO, |w| w.translation.into());
            let parent = if worlds.len() >= 2 { worlds[worlds.len() - 2] } else { glam::Affine3A::IDENTITY };
            move_by(ts, f.joint, parent.inverse().transform_vector3(want - now), row);
        }
    }

    /// File-space `world_from_joint` of each joint of `chain` (root first) as `row` poses it.
    fn worlds_along(&self, chain: &[usize], row: &[f32], worlds: &mut Vec<glam::Affine3A>) {
        let ts = self.target;
        worlds.clear();
        for &j in chain {
            let joint = &ts.joints()[j];
            let local = joint_local(joint, Some(&row[joint.first_channel..joint.first_channel + joint.channels.len()]), ts.position_rule);
            let world = worlds.last().map_or(local.to_affine(), |w| *w * local.to_affine());
            worlds.push(world);
        }
    }

    /// The rows of `range`, the first nearest `near`, each next nearest the one before: eight
    /// frames at a time, their Euler angles worked out together in vector lanes
    /// ([`euler_lanes`]), then written one after another (each nearest the one before).
    fn piece<F: Frames>(&self, frames: &F, range: std::ops::Range<usize>, near: Option<&[f32]>) -> Vec<f32> {
        let cpf = self.base.len();
        let mut out = vec![0.0; range.len() * cpf];
        let mut worlds = Vec::with_capacity(self.chain.len());
        let mut scratch = frames.scratch();
        let mut rot = vec![Quat::IDENTITY; self.target.len()];
        let w = self.written.len();
        let mut group = Group { local: vec![Quat::IDENTITY; w * LANES], angles: vec![[[0.0; LANES]; 3]; w] };
        let mut hips = [Vec3::ZERO; LANES];
        let first = range.start;
        for start in range.clone().step_by(LANES) {
            let end = (start + LANES).min(range.end);
            for (k, f) in (start..end).enumerate() {
                hips[k] = frames.frame(f, &mut scratch, &mut rot);
                for (i, &j) in self.written.iter().enumerate() {
                    group.local[i * LANES + k] = self.channel_rotation(&rot, j);
                }
            }
            // Lanes past the range's end keep the group before's rotations (their angles unused).
            for (i, &j) in self.written.iter().enumerate() {
                if let Some(RotationChannels::Euler { order, .. }) = &self.channels[j] {
                    let qs: &[Quat; LANES] = group.local[i * LANES..(i + 1) * LANES].try_into().expect("a lane group");
                    group.angles[i] = euler_lanes(qs, *order);
                }
            }
            for (k, f) in (start..end).enumerate() {
                let index = f - first;
                let (done, rest) = out.split_at_mut(index * cpf);
                let before = if index == 0 { near } else { Some(&done[(index - 1) * cpf..]) };
                self.write(&group, k, hips[k], before, &mut rest[..cpf], &mut worlds);
            }
        }
        out
    }
}

/// A group of up to [`LANES`] frames' target rotations, for each joint written: its rotation
/// in its channels' terms (joint after joint, a frame in each lane) and, for Euler channels,
/// the angles.
struct Group {
    local: Vec<Quat>,
    angles: Vec<[Lanes; 3]>,
}

/// Makes `piece` (rows of `cpf` channels) start with `first`, the row the frame-by-frame pass
/// gives there, by mapping each joint's channels as the pass would have: Euler angles by whole
/// turns and, where the pass is on the other branch (a+π, π−b, c+π), by that branch (the
/// nearest-triple choice commutes with both, so the rest of the piece follows); a quaternion
/// by its sign. False when some difference is none of these (the piece is then written again).
fn restitch(channels: &[Option<RotationChannels>], first: &[f32], piece: &mut [f32], cpf: usize) -> bool {
    use std::f32::consts::{PI, TAU};
    let turns = |d: f32| {
        let k = (d / TAU).round();
        ((d - k * TAU).abs() < 1e-3).then_some(k * TAU)
    };
    let mut maps: Vec<Box<dyn Fn(&mut [f32])>> = Vec::new();
    let mut covered = vec![false; cpf];
    for ch in channels.iter().flatten() {
        match *ch {
            RotationChannels::Euler { at, .. } => {
                let (want, got) = (at.map(|i| first[i]), at.map(|i| piece[i]));
                let branch = [got[0] + PI, PI - got[1], got[2] + PI];
                let same: Option<Vec<f32>> = (0..3).map(|k| turns(want[k] - got[k])).collect();
                let other: Option<Vec<f32>> = (0..3).map(|k| turns(want[k] - branch[k])).collect();
                match (same, other) {
                    // Already the same: nothing to map (most joints, most pieces).
                    (Some(t), _) if t.iter().all(|&k| k == 0.0) => {}
                    (Some(t), _) => maps.push(Box::new(move |row: &mut [f32]| (0..3).for_each(|k| row[at[k]] += t[k]))),
                    (None, Some(t)) => maps.push(Box::new(move |row: &mut [f32]| {
                        let v = at.map(|i| row[i]);
                        let mapped = [v[0] + PI + t[0], PI - v[1] + t[1], v[2] + PI + t[2]];
                        (0..3).for_each(|k| row[at[k]] = mapped[k]);
                    })),
                    (None, None) => return false,
                }
                at.iter().for_each(|&i| covered[i] = true);
            }
            RotationChannels::Quaternion(at) => {
                let flip = at.iter().all(|&i| (first[i] + piece[i]).abs() < 1e-5) && at.iter().any(|&i| first[i] != piece[i]);
                if flip {
                    maps.push(Box::new(move |row: &mut [f32]| at.iter().for_each(|&i| row[i] = -row[i])));
                } else if at.iter().any(|&i| first[i] != piece[i]) {
                    return false;
                }
                at.iter().for_each(|&i| covered[i] = true);
            }
        }
    }
    // Translations and other channels come from the rotations: they must already agree.
    if (0..cpf).any(|i| !covered[i] && (first[i] - piece[i]).abs() > 1e-5) {
        return false;
    }
    for row in piece.chunks_exact_mut(cpf) {
        maps.iter().for_each(|m| m(row));
    }
    true
}

/// The target's channel rows of `total` frames from `frames`: pieces of frames on every core,
/// each piece's Euler angles nearest the frame before it; a piece whose first frame would have
/// come out otherwise after the piece before (a wrap or the other Euler branch) is mapped onto
/// it ([`restitch`]) or written again after it, so the rows are the ones a frame-by-frame pass
/// gives. `keep_going(fraction)` between groups of pieces; false stops (`None`).
pub(super) fn channel_values<F: Frames>(rows: &Rows, frames: &F, total: usize, keep_going: &dyn Fn(f32) -> bool) -> Option<Vec<f32>> {
    let cpf = rows.base.len();
    let starts: Vec<usize> = (0..total).step_by(PIECE_FRAMES).collect();
    let mut values: Vec<f32> = Vec::with_capacity(total * cpf);
    for group in starts.chunks(GROUP_PIECES) {
        if !keep_going(group[0] as f32 / total as f32) {
            return None;
        }
        let pieces: Vec<Vec<f32>> = group
            .par_iter()
            .map(|&start| {
                let end = (start + PIECE_FRAMES).min(total);
                // Nearest the frame before, as it comes out alone: mostly what the pass gives.
                let before = start.checked_sub(1).map(|p| rows.piece(frames, p..start, None));
                rows.piece(frames, start..end, before.as_deref())
            })
            .collect();
        for (mut piece, &start) in pieces.into_iter().zip(group) {
            if let Some(p) = start.checked_sub(1) {
                let near = values[p * cpf..(p + 1) * cpf].to_vec();
                let first = rows.piece(frames, start..start + 1, Some(&near));
                if first[..] != piece[..cpf] && !restitch(rows.channels, &first, &mut piece, cpf) {
                    // Not a joint's turns or its other Euler branch: written again after the piece before.
                    piece = rows.piece(frames, start..(start + PIECE_FRAMES).min(total), Some(&near));
                }
            }
            values.extend(piece);
        }
    }
    Some(values)
}
