//! Poses of many frames at once for the batch front doors (the command line's `positions`, the
//! Python package): frames posed through [`ClipFk`] in chunks on the caller's runner, written
//! straight into one flat buffer, with positions that rest on missing values set to NaN.

use glam::{Mat4, Quat, Vec3};

use super::clip::{Clip, Interpolation};
use super::clip_fk::ClipFk;
pub use super::clip_fk::FramePose;
use super::motion::Motion;
use super::sampler::{PoseAt, Sampler};
use super::skeleton::Skeleton;
use crate::par::Parallel;

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

/// Frames per job: enough to outweigh a job's set-up, few enough to share out.
const MIN_FRAMES_PER_JOB: usize = 64;

/// Joint positions at `frames` (each below the clip's frame count; frame 0 of a clip without
/// frames is the rest pose), `frames.len() × joints × 3` values mapped by `space_from_file`.
/// NaN where a position rests on a value the file left missing.
pub fn joint_positions(m: &Motion, frames: &[usize], space: PositionSpace, space_from_file: Mat4, parallel: &dyn Parallel) -> Vec<f32> {
    per_frame(m, frames, m.skeleton.len() * 3, parallel, |pose, unknown, row| positions_row(pose, unknown, space, space_from_file, row))
}

/// One frame's row of [`joint_positions`] (x, y, z per joint), for callers that pose frames
/// one at a time with a [`FramePoser`].
pub fn positions_row(pose: &FramePose, unknown: &Unknown, space: PositionSpace, space_from_file: Mat4, row: &mut [f32]) {
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
    let joints = m.skeleton.len();
    per_frame(m, frames, joints * 4, parallel, |pose, _, row| {
        for k in 0..joints {
            let q = match space {
                RotationSpace::Local => pose.local_rotation[k],
                RotationSpace::World(display) => display * pose.world_rotation[k],
            };
            row[k * 4..k * 4 + 4].copy_from_slice(&q.normalize().to_array());
        }
    })
}

/// Poses each of `frames` and lets `write` fill its row of `width` values in the result.
fn per_frame(
    m: &Motion,
    frames: &[usize],
    width: usize,
    parallel: &dyn Parallel,
    write: impl Fn(&FramePose, &Unknown, &mut [f32]) + Sync,
) -> Vec<f32> {
    let mut out = vec![0f32; frames.len() * width];
    if width == 0 || frames.is_empty() {
        return out;
    }
    let poser = FramePoser::new(m);
    let gaps = Gaps::new(&m.skeleton, &m.clip);
    let per_job = frames.len().div_ceil(parallel.width().max(1) * 4).max(MIN_FRAMES_PER_JOB);
    let (write, poser, gaps) = (&write, &poser, &gaps);
    let jobs: Vec<Box<dyn FnOnce() + Send + '_>> = out
        .chunks_mut(per_job * width)
        .zip(frames.chunks(per_job))
        .map(|(rows, frames)| {
            Box::new(move || {
                let (mut poser, mut unknown) = (poser.clone(), Unknown::default());
                for (row, &f) in rows.chunks_mut(width).zip(frames) {
                    gaps.unknown_at(&m.skeleton, f, &mut unknown);
                    write(poser.pose(m, f), &unknown, row);
                }
            }) as Box<dyn FnOnce() + Send + '_>
        })
        .collect();
    parallel.run(jobs);
    out
}

/// Poses single frames of one motion the way [`joint_positions`] does (for callers that
/// need frames one at a time, such as the measurements), so both give the same numbers.
#[derive(Clone, Debug)]
pub struct FramePoser {
    fk: ClipFk,
    pose: FramePose,
}

impl FramePoser {
    /// A poser for `m`'s skeleton.
    pub fn new(m: &Motion) -> Self {
        Self { fk: ClipFk::new(&m.skeleton), pose: FramePose::default() }
    }

    /// Frame `frame` of `m` (clamped to the clip; the rest pose when it has no frames).
    pub fn pose(&mut self, m: &Motion, frame: usize) -> &FramePose {
        let n = m.clip.num_frames();
        if n > 0 {
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
