//! Measurements over time: the distance between two joints, the angle at the middle of three,
//! and a joint's speed and acceleration, in metres, degrees, m/s and m/s² from positions in
//! metres. Shared by `skelview measure` and the viewer's Measure tool, so both print the same
//! numbers.

use glam::{Mat4, Vec3};

use super::Motion;
use super::batch::{FramePoser, Gaps, Unknown};

/// Why a measure cannot be taken on a skeleton.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeasureError {
    /// A joint index past the skeleton's joints.
    #[error("{kind}: joint {joint} does not exist (the skeleton has {joints})")]
    NoJoint {
        /// The measure's kind.
        kind: &'static str,
        /// The index given.
        joint: usize,
        /// Joints in the skeleton.
        joints: usize,
    },
    /// The same joint given twice.
    #[error("{kind}: a joint is given twice")]
    Twice {
        /// The measure's kind.
        kind: &'static str,
    },
}

/// One quantity measured at every frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    /// Distance between two joints (m).
    Distance(usize, usize),
    /// Angle at the middle joint between the bones to the other two (degrees).
    Angle(usize, usize, usize),
    /// Speed of a joint (m/s), by central differences.
    Speed(usize),
    /// Magnitude of a joint's acceleration (m/s²), by second differences.
    Acceleration(usize),
}

impl Measure {
    /// The joints it reads, in order.
    pub fn joints(&self) -> Vec<usize> {
        match *self {
            Self::Distance(a, b) => vec![a, b],
            Self::Angle(a, b, c) => vec![a, b, c],
            Self::Speed(j) | Self::Acceleration(j) => vec![j],
        }
    }

    /// `distance`, `angle`, `speed` or `acceleration`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Distance(..) => "distance",
            Self::Angle(..) => "angle",
            Self::Speed(_) => "speed",
            Self::Acceleration(_) => "acceleration",
        }
    }

    /// Unit of the values: `m`, `deg`, `m/s` or `m/s^2`.
    pub fn unit(&self) -> &'static str {
        match self {
            Self::Distance(..) => "m",
            Self::Angle(..) => "deg",
            Self::Speed(_) => "m/s",
            Self::Acceleration(_) => "m/s^2",
        }
    }

    /// `distance LeftHand RightHand [m]`: the kind, the joints' names and the unit.
    pub fn label(&self, names: &dyn Fn(usize) -> String) -> String {
        let joints: Vec<String> = self.joints().into_iter().map(names).collect();
        format!("{} {} [{}]", self.kind(), joints.join(" "), self.unit())
    }

    /// Whether it needs the frames before and after (speed, acceleration).
    fn needs_neighbours(&self) -> bool {
        matches!(self, Self::Speed(_) | Self::Acceleration(_))
    }

    /// An error when a joint is out of range or named twice.
    pub fn check(&self, joints: usize) -> Result<(), MeasureError> {
        let j = self.joints();
        if let Some(&joint) = j.iter().find(|&&i| i >= joints) {
            return Err(MeasureError::NoJoint { kind: self.kind(), joint, joints });
        }
        if (1..j.len()).any(|k| j[..k].contains(&j[k])) {
            return Err(MeasureError::Twice { kind: self.kind() });
        }
        Ok(())
    }
}

/// Positions (metres) of one frame, and which joints rest on missing values.
#[derive(Default)]
struct Posed {
    frame: Option<usize>,
    positions: Vec<Vec3>,
    unknown: Unknown,
}

/// Poses frames on demand, keeping the last four so that a run of consecutive frames costs
/// one pose per frame although speed and acceleration read three.
struct Poser<'a> {
    motion: &'a Motion,
    space_from_file: Mat4,
    poser: FramePoser,
    gaps: Gaps,
    slots: [Posed; 4],
    next_slot: usize,
}

impl<'a> Poser<'a> {
    fn new(motion: &'a Motion, space_from_file: Mat4) -> Self {
        Self {
            motion,
            space_from_file,
            poser: FramePoser::new(motion),
            gaps: Gaps::new(&motion.skeleton, &motion.clip),
            slots: Default::default(),
            next_slot: 0,
        }
    }

    fn at(&mut self, f: usize) -> usize {
        if let Some(k) = self.slots.iter().position(|s| s.frame == Some(f)) {
            return k;
        }
        let k = self.next_slot;
        self.next_slot = (k + 1) % self.slots.len();
        let m = self.motion;
        let pose = self.poser.pose(m, f);
        let slot = &mut self.slots[k];
        slot.positions.clear();
        slot.positions.extend(pose.world_position.iter().map(|&p| self.space_from_file.transform_point3(p)));
        self.gaps.unknown_at(&m.skeleton, f, &mut slot.unknown);
        slot.frame = Some(f);
        k
    }

    /// Position of joint `j` at frame `f`, `None` where it rests on a missing value.
    fn point(&mut self, f: usize, j: usize) -> Option<Vec3> {
        let k = self.at(f);
        let s = &self.slots[k];
        if s.unknown.get(j) {
            return None;
        }
        s.positions.get(j).copied().filter(|p| p.is_finite())
    }
}

/// Three frames around `f` for differences: centred where the clip allows, else the first or
/// last three (one-sided at the ends). `None` for a clip of fewer than 2 (speed) or 3
/// (acceleration) frames.
fn stencil(f: usize, n: usize, width: usize) -> Option<[usize; 3]> {
    if n < width {
        return None;
    }
    let centre = f.clamp(1, n.saturating_sub(2).max(1));
    Some([centre.saturating_sub(1), centre, (centre + 1).min(n - 1)])
}

/// The value of `measure` at frame `f` of a clip of `n` frames `dt` seconds apart; NaN where
/// a joint it reads rests on a missing value or the clip is too short.
fn value(poser: &mut Poser, measure: &Measure, f: usize, n: usize, dt: f64) -> f64 {
    let nan = f64::NAN;
    match *measure {
        Measure::Distance(a, b) => match (poser.point(f, a), poser.point(f, b)) {
            (Some(pa), Some(pb)) => pa.as_dvec3().distance(pb.as_dvec3()),
            _ => nan,
        },
        Measure::Angle(a, b, c) => match (poser.point(f, a), poser.point(f, b), poser.point(f, c)) {
            (Some(pa), Some(pb), Some(pc)) => {
                let (u, v) = ((pa - pb).as_dvec3(), (pc - pb).as_dvec3());
                let d = u.length() * v.length();
                if d > 0.0 { (u.dot(v) / d).clamp(-1.0, 1.0).acos().to_degrees() } else { nan }
            }
            _ => nan,
        },
        Measure::Speed(j) => {
            if n < 2 || dt.is_nan() || dt <= 0.0 {
                return nan;
            }
            // Central difference inside the clip; one-sided at its first and last frames.
            let (lo, hi) = (f.saturating_sub(1), (f + 1).min(n - 1));
            match (poser.point(lo, j), poser.point(hi, j)) {
                (Some(p0), Some(p1)) => p1.as_dvec3().distance(p0.as_dvec3()) / ((hi - lo) as f64 * dt),
                _ => nan,
            }
        }
        Measure::Acceleration(j) => {
            let Some([f0, f1, f2]) = stencil(f, n, 3).filter(|_| dt > 0.0) else { return nan };
            match (poser.point(f0, j), poser.point(f1, j), poser.point(f2, j)) {
                (Some(p0), Some(p1), Some(p2)) => (p2.as_dvec3() - 2.0 * p1.as_dvec3() + p0.as_dvec3()).length() / (dt * dt),
                _ => nan,
            }
        }
    }
}

/// Every measure at each of `frames` (columns: one `Vec` per measure, one value per frame),
/// from positions in `space_from_file` (the motion's metres, Y up). NaN marks a value that
/// rests on missing data. `keep_going(fraction)` returns false to stop (then `None`).
pub fn series(
    m: &Motion,
    measures: &[Measure],
    frames: &[usize],
    space_from_file: Mat4,
    keep_going: &dyn Fn(f64) -> bool,
) -> Option<Vec<Vec<f64>>> {
    let n = m.clip.num_frames().max(1);
    let dt = m.clip.frame_time_secs;
    let mut poser = Poser::new(m, space_from_file);
    let mut columns: Vec<Vec<f64>> = measures.iter().map(|_| Vec::with_capacity(frames.len())).collect();
    let neighbours = measures.iter().any(Measure::needs_neighbours);
    for (k, &f) in frames.iter().enumerate() {
        if k % 4096 == 0 && !keep_going(k as f64 / frames.len().max(1) as f64) {
            return None;
        }
        if neighbours {
            // Pose the frame after first, so that the next frame finds it and this one cached.
            let _ = poser.at((f + 1).min(n - 1));
        }
        for (measure, column) in measures.iter().zip(&mut columns) {
            column.push(value(&mut poser, measure, f, n, dt));
        }
    }
    Some(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencils_labels_and_checks() {
        assert_eq!(stencil(0, 2, 3), None);
        assert_eq!(stencil(0, 5, 3), Some([0, 1, 2]));
        assert_eq!(stencil(2, 5, 3), Some([1, 2, 3]));
        assert_eq!(stencil(4, 5, 3), Some([2, 3, 4]));
        assert!(
            Measure::Angle(0, 0, 1).check(4).is_err() && Measure::Speed(9).check(4).is_err() && Measure::Distance(0, 1).check(4).is_ok()
        );
        assert_eq!(Measure::Speed(0).label(&|_| "Hips".into()), "speed Hips [m/s]");
        assert_eq!(Measure::Angle(0, 1, 2).label(&|i| format!("j{i}")), "angle j0 j1 j2 [deg]");
    }
}
