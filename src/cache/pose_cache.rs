//! Global poses on demand, with a small bounded cache of whole frames.

use std::sync::Arc;

use crate::core::pose::{self, GlobalPose, LocalPose};
use crate::core::{Interpolation, Motion};

/// Computes global poses of one motion, caching up to `capacity` whole frames.
///
/// Memory is bounded by `capacity × joints`, whatever the clip length; seeking costs
/// O(joints) on a miss.
pub struct PoseCache {
    motion: Arc<Motion>,
    capacity: usize,
    /// (frame, pose), most recently used last.
    frames: Vec<(usize, GlobalPose)>,
    local: LocalPose,
    scratch: GlobalPose,
}

impl PoseCache {
    /// A cache for `motion` holding at most `capacity` frames.
    pub fn new(motion: Arc<Motion>, capacity: usize) -> Self {
        Self { motion, capacity: capacity.max(1), frames: Vec::new(), local: LocalPose::default(), scratch: GlobalPose::default() }
    }

    /// The motion this cache poses.
    pub fn motion(&self) -> &Arc<Motion> {
        &self.motion
    }

    /// Number of frames cached now.
    pub fn cached_frames(&self) -> usize {
        self.frames.len()
    }

    /// The global pose of a whole frame (the rest pose for a clip without frames).
    pub fn frame(&mut self, frame: usize) -> &GlobalPose {
        if let Some(i) = self.frames.iter().position(|(f, _)| *f == frame) {
            let entry = self.frames.remove(i);
            self.frames.push(entry);
        } else {
            let m = &self.motion;
            pose::frame_pose(&m.skeleton, &m.clip, frame, &mut self.local);
            let mut global = if self.frames.len() >= self.capacity { self.frames.remove(0).1 } else { GlobalPose::default() };
            pose::global_pose(&m.skeleton, &self.local, &mut global);
            self.frames.push((frame, global));
        }
        &self.frames.last().expect("just pushed").1
    }

    /// The global pose at a time; whole frames come from the cache, in-between times are
    /// computed into a scratch pose.
    pub fn sample(&mut self, time_secs: f64, interp: Interpolation) -> &GlobalPose {
        let clip = &self.motion.clip;
        match clip.locate(time_secs) {
            Some((a, b, t)) if interp == Interpolation::Linear && a != b && t > 0.0 => {
                let m = &self.motion;
                pose::sample_pose(&m.skeleton, &m.clip, time_secs, interp, &mut self.local);
                pose::global_pose(&m.skeleton, &self.local, &mut self.scratch);
                &self.scratch
            }
            Some((a, b, t)) => self.frame(if t < 0.5 { a } else { b }),
            None => self.frame(0),
        }
    }
}
