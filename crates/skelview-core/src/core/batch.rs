//! Poses of many frames at once for the batch front doors (the command line's `positions`, the
//! Python package): frames posed through [`ClipFk`] in chunks on the caller's runner, written
//! straight into one flat buffer, with positions that rest on missing values set to NaN.

use glam::{Mat4, Quat, Vec3};

use super::clip::{Clip, Interpolation};
pub use super::clip_fk::FramePose;
use super::clip_fk::{ClipFk, LANES, LanePose, Lanes, lanes};
use super::motion::Motion;
use super::sampler::{PoseAt, Sampler};
use super::skeleton::Skeleton;
use crate::par::{Parallel, PieceJob, extend_in_pieces};

/// Which joint positions [`joint_positions`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionSpace {
    /// Joint origins, mapped as points.
    World,
    /// Each joint's translation from its parent in the parent's frame, mapped as vectors.
    Local,
}

/// Which joint rotations [`joint_rotations`] gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RotationSpace {
    /// Relative to the parent, in the file's axes.
    Local,
    /// Relative to the world, turned by a fixed rotation (the display's axes).
    World(Quat),
}

/// Work per job, in joint poses (a frame counts two more for its own set-up): enough to
/// outweigh handing a job to another thread (tens of µs), few enough to share out.
const MIN_WORK_PER_JOB: usize = 4096;

/// Joint positions at `frames` (each below the clip's frame count; frame 0 of a clip without
/// frames is the rest pose), `frames.len() × joints × 3` values mapped by `space_from_file`.
/// NaN where a position rests on a value the file left missing.
pub fn joint_positions(m: &Motion, frames: &[usize], space: PositionSpace, space_from_file: Mat4, parallel: &dyn Parallel) -> Vec<f32> {
    per_frame(m, frames, Output::Positions(space, space_from_file), parallel)
}

/// One frame's row of [`joint_positions`] (x, y, z per joint) from its pose.
fn positions_row(pose: &FramePose, unknown: &Unknown, space: PositionSpace, space_from_file: Mat4, row: &mut [f32]) {
    for (k, xyz) in row.chunks_exact_mut(3).enumerate() {
        let p = if unknown.get(k) {
            Vec3::NAN
        } else {
            match space {
                PositionSpace::World => space_from_file.transform_point3(pose.world_position[k]),
                PositionSpace::Local => space_from_file.transform_vector3(pose.local_translation[k]),
            }
        };
        xyz.copy_from_slice(&p.to_array());
    }
}

/// Joint rotations at `frames` as unit quaternions (x, y, z, w), `frames.len() × joints × 4`.
pub fn joint_rotations(m: &Motion, frames: &[usize], space: RotationSpace, parallel: &dyn Parallel) -> Vec<f32> {
    per_frame(m, frames, Output::Rotations(space), parallel)
}

/// What [`per_frame`] writes for each joint of each frame.
#[derive(Clone, Copy, Debug)]
enum Output {
    Positions(PositionSpace, Mat4),
    Rotations(RotationSpace),
}

impl Output {
    fn per_joint(self) -> usize {
        match self {
            Self::Positions(..) => 3,
            Self::Rotations(_) => 4,
        }
    }

    /// One frame's row, from a frame's pose.
    fn frame(self, pose: &FramePose, unknown: &Unknown, row: &mut [f32]) {
        match self {
            Self::Positions(space, space_from_file) => positions_row(pose, unknown, space, space_from_file, row),
            Self::Rotations(space) => {
                for (k, xyzw) in row.chunks_exact_mut(4).enumerate() {
                    let q = match space {
                        RotationSpace::Local => pose.local_rotation[k],
                        RotationSpace::World(display) => display * pose.world_rotation[k],
                    };
                    xyzw.copy_from_slice(&q.normalize().to_array());
                }
            }
        }
    }

    /// The rows of a group's frames (back to back in `rows`, lane k's first), from their
    /// poses in lanes: the same arithmetic as [`Output::frame`], eight frames at a time.
    fn lanes(self, pose: &LanePose, rows: &mut [f32]) {
        let per_joint = self.per_joint();
        let width = pose.world_position.len() * per_joint;
        for j in 0..pose.world_position.len() {
            let values: [Lanes; 4] = match self {
                Self::Positions(space, m) => {
                    let (v, w) = match space {
                        PositionSpace::World => (&pose.world_position[j], 1.0),
                        PositionSpace::Local => (&pose.local_translation[j], 0.0),
                    };
                    let (c0, c1, c2, c3) = (m.x_axis, m.y_axis, m.z_axis, m.w_axis * w);
                    let mut out = [[0.0; LANES]; 4];
                    for k in 0..LANES {
                        let (x, y, z) = (v[0][k], v[1][k], v[2][k]);
                        out[0][k] = c0.x * x + c1.x * y + c2.x * z + c3.x;
                        out[1][k] = c0.y * x + c1.y * y + c2.y * z + c3.y;
                        out[2][k] = c0.z * x + c1.z * y + c2.z * z + c3.z;
                    }
                    out
                }
                Self::Rotations(space) => {
                    let q = match space {
                        RotationSpace::Local => pose.local_rotation[j],
                        RotationSpace::World(display) => {
                            lanes::multiply(&[display.x, display.y, display.z, display.w].map(|v| [v; LANES]), &pose.world_rotation[j])
                        }
                    };
                    let mut out = [[0.0; LANES]; 4];
                    for k in 0..LANES {
                        let recip = 1.0 / (q[0][k] * q[0][k] + q[1][k] * q[1][k] + q[2][k] * q[2][k] + q[3][k] * q[3][k]).sqrt();
                        (0..4).for_each(|i| out[i][k] = q[i][k] * recip);
                    }
                    out
                }
            };
            for (k, row) in rows.chunks_exact_mut(width).enumerate() {
                for (i, slot) in row[j * per_joint..(j + 1) * per_joint].iter_mut().enumerate() {
                    *slot = values[i][k];
                }
            }
        }
    }
}

/// Poses each of `frames` and writes its row of `output` in the result: eight frames at a
/// time in vector lanes where the skeleton allows, else one by one.
fn per_frame(m: &Motion, frames: &[usize], output: Output, parallel: &dyn Parallel) -> Vec<f32> {
    let width = m.skeleton.len() * output.per_joint();
    let len = frames.len() * width;
    if width == 0 || frames.is_empty() {
        return vec![0.0; len];
    }
    let poser = FramePoser::new(m);
    let gaps = Gaps::new(&m.skeleton, &m.clip);
    // Jobs: a multiple of the workers, so that none is left with one more than the others;
    // each whole groups of lanes, as a group cut short costs as much as a full one.
    let workers = parallel.width().max(1);
    let jobs = match frames.len() * (m.skeleton.len() + 2) / MIN_WORK_PER_JOB {
        0 | 1 => 1,
        k => k.next_multiple_of(workers).min(workers * 4),
    };
    let per_job = frames.len().div_ceil(jobs).next_multiple_of(LANES);
    let mut out = Vec::new();
    let (poser, gaps) = (&poser, &gaps);
    let pieces = frames
        .chunks(per_job)
        .map(|frames| {
            let job = move |rows: &mut [f32]| {
                let (mut poser, mut unknown) = (poser.clone(), Unknown::default());
                for (rows, group) in rows.chunks_mut(width * LANES).zip(frames.chunks(LANES)) {
                    write_group(m, &mut poser, gaps, &mut unknown, group, output, rows);
                }
            };
            (frames.len() * width, Box::new(job) as PieceJob<'_>)
        })
        .collect();
    extend_in_pieces(parallel, &mut out, None, pieces);
    out
}

/// Rows of [`joint_positions`] for `frames` (at most [`LANES`]), written back to back into
/// `rows`, by a caller that holds its own poser (the CSV export goes a group at a time).
pub fn positions_group(
    m: &Motion,
    poser: &mut FramePoser,
    gaps: &Gaps,
    frames: &[usize],
    space: PositionSpace,
    space_from_file: Mat4,
    rows: &mut [f32],
) {
    write_group(m, poser, gaps, &mut Unknown::default(), frames, Output::Positions(space, space_from_file), rows);
}

/// Poses a group of frames (at most [`LANES`]) and writes their rows of `output`.
fn write_group(m: &Motion, poser: &mut FramePoser, gaps: &Gaps, unknown: &mut Unknown, group: &[usize], output: Output, rows: &mut [f32]) {
    let width = m.skeleton.len() * output.per_joint();
    if let Some(lanes) = poser.pose_group(m, group) {
        output.lanes(lanes, rows);
        if matches!(output, Output::Positions(..)) && !gaps.is_empty() {
            for (row, &f) in rows.chunks_mut(width).zip(group) {
                gaps.unknown_at(&m.skeleton, f, unknown);
                (0..m.skeleton.len()).filter(|&j| unknown.get(j)).for_each(|j| row[j * 3..j * 3 + 3].fill(f32::NAN));
            }
        }
        return;
    }
    for (row, &f) in rows.chunks_mut(width).zip(group) {
        gaps.unknown_at(&m.skeleton, f, unknown);
        output.frame(poser.pose(m, f), unknown, row);
    }
}

/// Poses single frames of one motion the way [`joint_positions`] does (for callers that
/// need frames one at a time, such as the measurements), so both give the same numbers.
#[derive(Clone, Debug)]
pub struct FramePoser {
    fk: ClipFk,
    pose: FramePose,
    lanes: LanePose,
    /// The first frame of the group in `lanes` when [`FramePoser::pose`] posed it.
    lanes_from: Option<usize>,
}

impl FramePoser {
    /// A poser for `m`'s skeleton.
    pub fn new(m: &Motion) -> Self {
        Self { fk: ClipFk::new(&m.skeleton), pose: FramePose::default(), lanes: LanePose::default(), lanes_from: None }
    }

    /// Up to [`LANES`] frames of `m` posed together in vector lanes (lane k for `frames[k]`;
    /// lanes past the group repeat its last frame), or `None` when the skeleton or clip does
    /// not allow it (scale channels, no frames): then [`FramePoser::pose`] each.
    pub fn pose_group(&mut self, m: &Motion, frames: &[usize]) -> Option<&LanePose> {
        let n = m.clip.num_frames();
        if n == 0 || frames.is_empty() || frames.len() > LANES || !self.fk.poses_lanes() {
            return None;
        }
        let row = |k: usize| m.clip.frame(frames[k.min(frames.len() - 1)].min(n - 1));
        self.fk.pose_lanes(std::array::from_fn(row), &mut self.lanes);
        self.lanes_from = None;
        Some(&self.lanes)
    }

    /// The group of eight frames that holds frame `frame` of `m` (clamped to the clip), posed
    /// in vector lanes, and the frame's lane; the group kept for the next call (frames asked
    /// for in order are posed once per eight). `None` where the skeleton or clip does not
    /// allow lanes ([`FramePoser::pose_group`]).
    pub fn lanes_at(&mut self, m: &Motion, frame: usize) -> Option<(&LanePose, usize)> {
        let k = self.group_of(m, frame)?;
        Some((&self.lanes, k))
    }

    /// [`FramePoser::lanes_at`]'s lane, the group posed into `self.lanes`.
    fn group_of(&mut self, m: &Motion, frame: usize) -> Option<usize> {
        let n = m.clip.num_frames();
        if n == 0 || !self.fk.poses_lanes() {
            return None;
        }
        let frame = frame.min(n - 1);
        let from = frame - frame % LANES;
        if self.lanes_from != Some(from) {
            let group: [usize; LANES] = std::array::from_fn(|k| from + k);
            self.pose_group(m, &group[..LANES.min(n - from)])?;
            self.lanes_from = Some(from);
        }
        Some(frame - from)
    }

    /// Frame `frame` of `m` (clamped to the clip; the rest pose when it has no frames). Where
    /// the skeleton allows, frames are posed eight at a time as [`FramePoser::pose_group`]
    /// does (the same numbers as [`joint_positions`]), and the group kept for the next call:
    /// callers that walk frames in order (the measurements) pose each group once.
    pub fn pose(&mut self, m: &Motion, frame: usize) -> &FramePose {
        let n = m.clip.num_frames();
        if n > 0 {
            if let Some(k) = self.group_of(m, frame) {
                self.lanes.lane_into(k, &mut self.pose);
                return &self.pose;
            }
            self.fk.pose_frame(&m.skeleton, m.clip.frame(frame.min(n - 1)), &mut self.pose);
            return &self.pose;
        }
        let mut s = Sampler::default();
        s.pose(&m.skeleton, &m.clip, PoseAt::Rest, Interpolation::Nearest);
        let out = &mut self.pose;
        out.local_rotation = s.local.parent_from_joint.iter().map(|l| l.rotation).collect();
        out.local_translation = s.local.parent_from_joint.iter().map(|l| l.translation).collect();
        out.world_rotation.clear();
        for (j, joint) in m.skeleton.joints().iter().enumerate() {
            let parent = joint.parent.map_or(Quat::IDENTITY, |p| out.world_rotation[p]);
            out.world_rotation.push(parent * out.local_rotation[j]);
        }
        out.world_position = s.global.world_from_joint.iter().map(|w| w.translation.into()).collect();
        out
    }
}

/// Which joints of one frame rest on missing values ([`Gaps::unknown_at`]).
#[derive(Clone, Debug, Default)]
pub struct Unknown {
    joints: Vec<bool>,
    /// Joints with any channel missing (their children inherit it).
    moved: Vec<bool>,
}

impl Unknown {
    /// True when joint `j`'s position rests on a missing value.
    pub fn get(&self, j: usize) -> bool {
        self.joints.get(j).copied().unwrap_or(false)
    }
}

/// A clip's missing runs by joint, for asking which joints a frame leaves unknown without
/// walking every run: runs sorted by their first frame, with the longest end seen so far.
pub struct Gaps {
    /// Per joint: (first, last, whether a translation is missing), sorted by `first`.
    runs: Vec<Vec<(u32, u32, bool)>>,
    /// Per joint, per run: the largest `last` of that run and those before it.
    reach: Vec<Vec<u32>>,
}

impl Gaps {
    /// Indexes `clip`'s missing runs by the joint that owns each channel.
    pub fn new(skeleton: &Skeleton, clip: &Clip) -> Self {
        let mut owner = vec![(usize::MAX, false); clip.channels_per_frame()];
        for (j, joint) in skeleton.joints().iter().enumerate() {
            for (i, kind) in joint.channels.iter().enumerate() {
                if let Some(slot) = owner.get_mut(joint.first_channel + i) {
                    *slot = (j, kind.is_translation());
                }
            }
        }
        let mut runs = vec![Vec::new(); if clip.missing().is_empty() { 0 } else { skeleton.len() }];
        for r in clip.missing() {
            if let Some(&(j, translation)) = owner.get(r.channel as usize).filter(|o| o.0 != usize::MAX) {
                runs[j].push((r.first, r.last, translation));
            }
        }
        let reach = runs
            .iter_mut()
            .map(|list: &mut Vec<(u32, u32, bool)>| {
                list.sort_unstable();
                list.iter()
                    .scan(0u32, |top, r| {
                        *top = (*top).max(r.1);
                        Some(*top)
                    })
                    .collect()
            })
            .collect();
        Self { runs, reach }
    }

    /// True when the clip misses no value.
    pub fn is_empty(&self) -> bool {
        self.runs.iter().all(Vec::is_empty)
    }

    /// Fills `out` with the joints whose position at `frame` rests on a missing value: a
    /// joint whose own translation is missing, or one under a joint with any missing channel.
    pub fn unknown_at(&self, skeleton: &Skeleton, frame: usize, out: &mut Unknown) {
        out.joints.clear();
        out.moved.clear();
        if self.runs.is_empty() {
            return;
        }
        let f = u32::try_from(frame).unwrap_or(u32::MAX);
        for (j, joint) in skeleton.joints().iter().enumerate() {
            let (own, moved) = self.at(j, f);
            let inherited = joint.parent.is_some_and(|p| out.joints[p] || out.moved[p]);
            out.joints.push(own || inherited);
            out.moved.push(moved);
        }
    }

    /// (a translation of joint `j` is missing at `f`, any channel of `j` is).
    fn at(&self, j: usize, f: u32) -> (bool, bool) {
        let (runs, reach) = (&self.runs[j], &self.reach[j]);
        // Runs that start at or before `f`; among them, walk back while one may still reach it.
        let mut k = runs.partition_point(|r| r.0 <= f);
        let (mut translation, mut any) = (false, false);
        while k > 0 && reach[k - 1] >= f {
            k -= 1;
            if runs[k].1 >= f {
                any = true;
                translation |= runs[k].2;
                if translation {
                    break;
                }
            }
        }
        (translation, any)
    }
}
