//! Length units and up axis: declared by some formats, detected from body size otherwise.

use glam::{Mat4, Vec3};

use super::clip::Clip;
use super::clip_fk::{ClipFk, FramePose, LANES, LanePose};
use super::pose::{self, GlobalPose, LocalPose};
use super::skeleton::Skeleton;

/// The world's up direction as the file uses it: an axis and its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// +Y up (BVH from most tools, ASF/AMC, X3D).
    Y,
    /// −Y up: camera and image space (Kinect, MediaPipe, Azure Kinect exports).
    NegY,
    /// +Z up (Character Studio Biped, many Max exports).
    Z,
    /// −Z up.
    NegZ,
    /// +X up.
    X,
    /// −X up.
    NegX,
}

impl UpAxis {
    /// Every direction, in menu order.
    pub const ALL: [Self; 6] = [Self::Y, Self::NegY, Self::Z, Self::NegZ, Self::X, Self::NegX];

    /// `Y`, `-Y`, `Z`, `-Z`, `X` or `-X`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Y => "Y",
            Self::NegY => "-Y",
            Self::Z => "Z",
            Self::NegZ => "-Z",
            Self::X => "X",
            Self::NegX => "-X",
        }
    }

    /// `+Y`, `-Z`: the name with its sign always written.
    pub fn signed_name(self) -> String {
        let name = self.name();
        if name.starts_with('-') { name.to_owned() } else { format!("+{name}") }
    }

    /// Parses a name (`+Y`, `-z`, `X`…).
    pub fn parse(s: &str) -> Option<Self> {
        let t = s.trim().trim_start_matches('+').to_ascii_uppercase();
        Self::ALL.into_iter().find(|u| u.name() == t)
    }

    /// The up direction in the file's axes.
    pub fn vector(self) -> Vec3 {
        match self {
            Self::Y => Vec3::Y,
            Self::NegY => Vec3::NEG_Y,
            Self::Z => Vec3::Z,
            Self::NegZ => Vec3::NEG_Z,
            Self::X => Vec3::X,
            Self::NegX => Vec3::NEG_X,
        }
    }

    /// The direction closest to `v` (`None` for a zero or non-finite vector).
    pub fn nearest(v: Vec3) -> Option<Self> {
        if !v.is_finite() || v.length_squared() < 1e-20 {
            return None;
        }
        Self::ALL.into_iter().max_by(|a, b| a.vector().dot(v).total_cmp(&b.vector().dot(v)))
    }

    /// Maps a point from this convention to Y-up right-handed.
    pub fn to_y_up(self, p: Vec3) -> Vec3 {
        display_transform(1.0, self).transform_point3(p)
    }
}

/// `display_from_file`: raw file units to metres (`metres_per_raw_unit`) and `up` to Y-up.
/// The one place where units and axes are converted; everything shown or printed in metres
/// goes through it. Each rotation is written as an exact permutation of the axes (a computed
/// cos(π/2) is not 0) and keeps the axes right-handed.
pub fn display_transform(metres_per_raw_unit: f32, up: UpAxis) -> Mat4 {
    use glam::Vec4;
    let scale = Mat4::from_scale(Vec3::splat(metres_per_raw_unit));
    // Columns: where the file's X, Y and Z axes go.
    let rotate = match up {
        UpAxis::Y => Mat4::IDENTITY,
        // (x, y, z) → (x, −y, −z): 180° about X.
        UpAxis::NegY => Mat4::from_cols(Vec4::X, -Vec4::Y, -Vec4::Z, Vec4::W),
        // (x, y, z) → (x, z, −y): −90° about X.
        UpAxis::Z => Mat4::from_cols(Vec4::X, -Vec4::Z, Vec4::Y, Vec4::W),
        // (x, y, z) → (x, −z, y): +90° about X.
        UpAxis::NegZ => Mat4::from_cols(Vec4::X, Vec4::Z, -Vec4::Y, Vec4::W),
        // (x, y, z) → (−y, x, z): +90° about Z.
        UpAxis::X => Mat4::from_cols(Vec4::Y, -Vec4::X, Vec4::Z, Vec4::W),
        // (x, y, z) → (y, −x, z): −90° about Z.
        UpAxis::NegX => Mat4::from_cols(-Vec4::Y, Vec4::X, Vec4::Z, Vec4::W),
    };
    rotate * scale
}

/// [`display_transform`], with the file's axis that points right on screen (C3D
/// `POINT:X_SCREEN`) made display +X, so that display +Z is right × up. Without one, or with
/// one along the up axis, the up axis alone decides (as [`display_transform`]).
pub fn display_transform_axes(metres_per_raw_unit: f32, up: UpAxis, right: Option<UpAxis>) -> Mat4 {
    let Some(right) = right.filter(|r| r.vector().dot(up.vector()).abs() < 0.5) else {
        return display_transform(metres_per_raw_unit, up);
    };
    let (r, u) = (right.vector(), up.vector());
    let toward_viewer = r.cross(u);
    // Rows: display X = right, Y = up, Z = right × up (a rotation: the axes are orthonormal).
    let rotate = glam::Mat3::from_cols(r, u, toward_viewer).transpose();
    Mat4::from_mat3(rotate) * Mat4::from_scale(Vec3::splat(metres_per_raw_unit))
}

/// A length unit with its size in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LengthUnit {
    /// Millimetres.
    Millimetre,
    /// Centimetres.
    Centimetre,
    /// Decimetres (MakeHuman's BVH).
    Decimetre,
    /// Metres.
    Metre,
    /// Inches.
    Inch,
    /// Feet.
    Foot,
    /// The unit of CMU's ASF files and of BVH files converted from them (1/0.45 in).
    CmuAsf,
}

impl LengthUnit {
    /// Metres per unit.
    pub fn metres(self) -> f32 {
        match self {
            Self::Millimetre => 0.001,
            Self::Centimetre => 0.01,
            Self::Decimetre => 0.1,
            Self::Metre => 1.0,
            Self::Inch => 0.0254,
            Self::Foot => 0.3048,
            Self::CmuAsf => 0.0254 / 0.45,
        }
    }

    /// Short symbol (`mm`, `cm`, `m`, `in`, `ft`).
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Millimetre => "mm",
            Self::Centimetre => "cm",
            Self::Decimetre => "dm",
            Self::Metre => "m",
            Self::Inch => "in",
            Self::Foot => "ft",
            Self::CmuAsf => "cmu (1/0.45 in)",
        }
    }

    /// Parses a symbol or name as written in files and on the command line.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "mm" | "millimeter" | "millimeters" | "millimetre" | "millimetres" => Self::Millimetre,
            "cm" | "centimeter" | "centimeters" | "centimetre" | "centimetres" => Self::Centimetre,
            "dm" | "decimeter" | "decimeters" | "decimetre" | "decimetres" => Self::Decimetre,
            "m" | "meter" | "meters" | "metre" | "metres" => Self::Metre,
            "in" | "inch" | "inches" => Self::Inch,
            "ft" | "foot" | "feet" => Self::Foot,
            _ => return None,
        })
    }

    /// The unit of a file whose unit is `metres_per_unit` m (declared, as FBX's
    /// `UnitScaleFactor`), and the divisor from file lengths to it: an unusual unit (0.1 m)
    /// reads as centimetres with a divisor (0.1), so that `unit.metres() / divisor` is always
    /// the file's own size. `None` for a size that is not finite and positive.
    pub fn of_metres(metres_per_unit: f64) -> Option<(Self, f32)> {
        if !(metres_per_unit.is_finite() && metres_per_unit > 0.0) {
            return None;
        }
        let usual = [Self::Millimetre, Self::Centimetre, Self::Decimetre, Self::Metre, Self::Inch, Self::Foot];
        Some(match usual.into_iter().find(|u| (metres_per_unit / u.metres() as f64 - 1.0).abs() < 1e-6) {
            Some(u) => (u, 1.0),
            None => (Self::Centimetre, (0.01 / metres_per_unit) as f32),
        })
    }

    /// Guesses the unit from the standing height of a body in file units.
    ///
    /// A pose of a person spans about 0.8–2.3 m: under 4 units that is metres, 4–10 feet,
    /// 10–22 decimetres (MakeHuman), 22–35 CMU ASF units (CMU-derived BVH keeps them), 35–95
    /// inches, 95–400 centimetres, more millimetres. Rigs that are not people (a hand, an object) may need an override.
    pub fn from_height(height: f32) -> Self {
        match height {
            h if !(h > 0.0) || h < 4.0 => Self::Metre,
            h if h < 10.0 => Self::Foot,
            h if h < 22.0 => Self::Decimetre,
            h if h < 35.0 => Self::CmuAsf,
            h if h < 95.0 => Self::Inch,
            h if h < 400.0 => Self::Centimetre,
            _ => Self::Millimetre,
        }
    }
}

/// A size in metres for joint spheres, bone widths, grid spacing and framing: the body's
/// height; for a body without height (a single joint, a prop, markers) a quarter of how far
/// it travels, at least 0.1 m; 0.1 m when nothing moves either.
pub fn usable_size_m(height_m: f32, extent_m: f32) -> f32 {
    if height_m.is_finite() && height_m > 1e-3 {
        height_m
    } else if extent_m.is_finite() && extent_m > 1e-3 {
        (extent_m * 0.25).max(0.1)
    } else {
        0.1
    }
}

/// Up direction, height and travel detected from a motion's poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySize {
    /// Typical extent of a pose along the detected up axis, in raw file units.
    pub height: f32,
    /// The up direction.
    pub up: UpAxis,
    /// Why that direction (`head above the feet`, …), for `info` and the viewer.
    pub up_reason: &'static str,
    /// Largest side of the box around every sampled pose together, in raw file units: how
    /// far the body travels, for bodies without height.
    pub extent: f32,
    /// The longest path between two joints along the bones, in raw file units: a size that
    /// does not depend on the pose (a crouch, a rest pose lying on its side). For a person it
    /// is about their height (head to toe or hand to hand).
    pub span: f32,
    /// From the feet to the head, summed over the sampled poses, where joints or markers are
    /// named so: how clearly the poses say which way is up.
    pub head_over_feet: Option<Vec3>,
}

impl BodySize {
    /// The size units are judged by: the height, unless the bones say the body is clearly
    /// bigger than it stands (crouching, lying, a rest pose along X). A person's span along
    /// the bones (hand to hand through the collars, fingers included) is 1.0–1.3 times their
    /// height, so 0.7 of it stays below a standing height and only decides when the poses
    /// are much lower than the bones are long.
    pub fn unit_height(&self) -> f32 {
        self.height.max(self.span * 0.7)
    }
}

/// The longest path between two joints along the bones (the tree's diameter, weighted by
/// bone length). `lengths[i]` is the bone from joint `i`'s parent to it.
fn bone_span(skeleton: &Skeleton, lengths: &[f32]) -> f32 {
    // A root with one child is a placement node (a reference at the world origin, the hips
    // wherever the take starts): that first bone says where, not how big.
    let child_counts = skeleton.child_counts();
    let placement = |p: usize| skeleton.joints()[p].parent.is_none() && child_counts[p] < 2;
    let length = |i: usize| skeleton.joints()[i].parent.filter(|&p| !placement(p)).map_or(0.0, |_| lengths[i]);
    // Children come after parents: one pass from the leaves up keeps, per joint, the two
    // deepest chains below it; the longest path bends at the joint where their sum is largest.
    let n = skeleton.len();
    let (mut deepest, mut second, mut best) = (vec![0f32; n], vec![0f32; n], 0f32);
    for i in (0..n).rev() {
        best = best.max(deepest[i] + second[i]);
        if let Some(p) = skeleton.joints()[i].parent {
            let d = deepest[i] + length(i);
            if d > deepest[p] {
                second[p] = deepest[p];
                deepest[p] = d;
            } else if d > second[p] {
                second[p] = d;
            }
        }
    }
    best
}

/// Frames sampled (evenly, first and last included) to detect size and up axis.
const SAMPLED_FRAMES: usize = 16;

/// Joint-name fragments of the top of a body (BVH, ASF, Biped, H-Anim `skullbase`).
pub const HEAD_NAMES: [&str; 3] = ["head", "skull", "neck"];
/// Joint-name fragments of what a body stands on (H-Anim `l_talocrural` is the ankle).
pub const FOOT_NAMES: [&str; 6] = ["foot", "toe", "ankle", "heel", "talocrural", "metatars"];

/// True when some joint is named like a head and some like a foot: a body that stands.
pub fn has_head_and_feet(skeleton: &Skeleton) -> bool {
    !named(skeleton, &HEAD_NAMES[..2]).is_empty() && !named(skeleton, &FOOT_NAMES).is_empty()
}

/// Joints whose lower-case name contains one of `keys` (`FOOT_NAMES`, `HEAD_NAMES`).
pub fn named(skeleton: &Skeleton, keys: &[&str]) -> Vec<usize> {
    let joints = skeleton.joints().iter().enumerate();
    joints
        .filter(|(_, j)| {
            let name = j.name.to_ascii_lowercase();
            keys.iter().any(|k| name.contains(k))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Every joint's origin (file space) at each of `frames` (`None`: the rest pose), posed as
/// the batch tools pose them: eight frames at a time where the skeleton allows.
fn sampled_positions(skeleton: &Skeleton, clip: &Clip, frames: &[Option<usize>]) -> Vec<Vec<Vec3>> {
    let mut fk = ClipFk::new(skeleton);
    let rows: Vec<usize> = frames.iter().flatten().copied().collect();
    if rows.len() == frames.len() && fk.poses_lanes() {
        let mut lanes = LanePose::default();
        let mut out = Vec::with_capacity(rows.len());
        for group in rows.chunks(LANES) {
            fk.pose_lanes(std::array::from_fn(|k| clip.frame(group[k.min(group.len() - 1)])), &mut lanes);
            out.extend((0..group.len()).map(|k| lanes.world_position.iter().map(|p| Vec3::new(p[0][k], p[1][k], p[2][k])).collect()));
        }
        return out;
    }
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let mut one = FramePose::default();
    frames
        .iter()
        .map(|&f| match f {
            Some(f) => {
                fk.pose_frame(skeleton, clip.frame(f), &mut one);
                one.world_position.clone()
            }
            None => {
                pose::rest_pose(skeleton, &mut local);
                pose::global_pose(skeleton, &local, &mut global);
                (0..skeleton.len()).map(|i| global.position(i)).collect()
            }
        })
        .collect()
}

/// Detects the up direction, the height and the travel from up to 16 frames spread over the
/// clip (the rest pose when there are none), in three steps:
/// 1. Joint names: the direction from the feet (`foot`, `toe`, `ankle`…) to the head (`head`,
///    `neck`…), summed over the frames. Upside-down camera-space files come out `-Y`.
/// 2. The floor: what a body stands on is a plane that many of its leaf joints touch in
///    every frame (feet, paws, a crab's eight legs); along a wrong axis only a few leaves
///    reach the extreme. The direction whose minimum most leaves share wins when it clearly
///    does.
/// 3. The extents: the axis along which the poses are tallest (Y unless Z clearly is), +.
///
/// The height is the median extent of the poses along the chosen axis, so a flip or a fall
/// in a few frames does not decide; roots are left out when there is more, as exporters park
/// a root at the origin while the hips travel. NaN and absurd samples (beyond 1e12) are
/// ignored.
pub fn detect_body_size(skeleton: &Skeleton, clip: &Clip) -> BodySize {
    detect_body_size_without(skeleton, clip, &[], None)
}

/// [`detect_body_size`] without the joints `left_out` (a capture's far points); where head
/// and feet do not decide the up axis, the format's `convention` does (a TRC is +Y up, as
/// OpenSim writes it) instead of the floor and the extents.
pub fn detect_body_size_without(
    skeleton: &Skeleton,
    clip: &Clip,
    left_out: &[usize],
    convention: Option<(UpAxis, &'static str)>,
) -> BodySize {
    let n = clip.num_frames();
    let frames: Vec<Option<usize>> = if n == 0 {
        vec![None]
    } else {
        let k = n.min(SAMPLED_FRAMES);
        (0..k).map(|i| Some(if k == 1 { 0 } else { i * (n - 1) / (k - 1) })).collect()
    };
    let skip_roots = skeleton.joints().iter().any(|j| j.parent.is_some());
    let usable = |p: Vec3| p.is_finite() && p.abs().max_element() < 1e12;
    // Per frame: every counted joint's position (NaN where not counted or unusable).
    let mut poses: Vec<Vec<Vec3>> = Vec::with_capacity(frames.len());
    // Per joint, its bone's length in each sampled pose: rotations do not change lengths, so
    // the median is the bone whatever the poses (a bind pose may be far from the motion).
    let mut lengths: Vec<Vec<f32>> = vec![Vec::new(); skeleton.len()];
    for world in sampled_positions(skeleton, clip, &frames) {
        for (i, j) in skeleton.joints().iter().enumerate() {
            if let Some(p) = j.parent {
                let l = (world[i] - world[p]).length();
                if l.is_finite() && l < 1e12 {
                    lengths[i].push(l);
                }
            }
        }
        let pose = skeleton
            .joints()
            .iter()
            .zip(&world)
            .enumerate()
            .map(|(i, (j, &p))| if (skip_roots && j.parent.is_none()) || !usable(p) || left_out.contains(&i) { Vec3::NAN } else { p });
        poses.push(pose.collect());
    }
    let bounds = |pose: &[Vec3]| {
        let mut it = pose.iter().filter(|p| p.is_finite());
        let first = *it.next()?;
        Some(it.fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))))
    };
    let boxes: Vec<(Vec3, Vec3)> = poses.iter().filter_map(|p| bounds(p)).collect();
    let medians: Vec<f32> = lengths
        .into_iter()
        .map(|mut v| {
            v.sort_by(f32::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(0.0)
        })
        .collect();
    let span = bone_span(skeleton, &medians);
    let all = boxes.iter().copied().reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
    let extent = all.map_or(0.0, |(lo, hi)| (hi - lo).max_element());
    if boxes.is_empty() {
        return BodySize { height: 0.0, up: UpAxis::Y, up_reason: "no joint to measure", extent, span, head_over_feet: None };
    }
    let (up, up_reason) = up_from_names(skeleton, &poses)
        .map(|u| (u, HEAD_ABOVE_FEET))
        .or(convention)
        .or_else(|| up_from_floor(skeleton, &poses, &boxes).map(|u| (u, "floor plane under the lowest joints")))
        .unwrap_or_else(|| (up_from_extents(&boxes), "tallest extent of the poses"));
    let axis = up.vector().abs();
    let mut heights: Vec<f32> = boxes.iter().map(|(lo, hi)| (*hi - *lo).dot(axis)).collect();
    heights.sort_by(f32::total_cmp);
    BodySize { height: heights[heights.len() / 2], up, up_reason, extent, span, head_over_feet: head_over_feet(skeleton, &poses) }
}

/// The up axis came from the joints named as head and feet.
pub const HEAD_ABOVE_FEET: &str = "head above the feet";

/// Why a declared up axis was not used: it put the head below the feet, or level with them.
pub const DECLARED_UP_REFUSED: &str = "the declared up axis puts the head below the feet or level with them; head above the feet";

/// The head above the feet by less than this share of the distance between them (about 14°)
/// is level with them: a body lying down. A quadruped's head is in front of its paws and
/// well above them.
const LEVEL: f32 = 0.25;

/// The up axis the rest pose's head and feet give instead of `declared`, when they contradict
/// it: the head below the feet, or level with them (a robot authored Z-up in a Y-up format).
/// A head above the feet keeps the declared axis, however far in front of them it is (a
/// quadruped, a crawl). `None` without joints named as head and feet.
pub fn declared_up_contradicted(skeleton: &Skeleton, declared: UpAxis) -> Option<UpAxis> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    pose::rest_pose(skeleton, &mut local);
    pose::global_pose(skeleton, &local, &mut global);
    let pose: Vec<Vec3> = (0..skeleton.len()).map(|i| global.position(i)).collect();
    let v = match head_over_feet(skeleton, std::slice::from_ref(&pose)) {
        Some(v) => v,
        None => legs_to_body(skeleton, &pose)?,
    };
    contradicted_by(v, declared)
}

/// For a skeleton whose joints are not named as head and feet (a robot's `RLEG_JOINT5`): from
/// the legs' ends up through the body, when the tree shows which chains are legs (see
/// [`legs`]) and the rest of the body stands above the joint they hang from. Neither the
/// lying pose's thinness nor which axis is its width is needed: a robot authored with Y to
/// its left is as wide along Y as it is deep.
fn legs_to_body(skeleton: &Skeleton, pose: &[Vec3]) -> Option<Vec3> {
    let legs = legs(skeleton, pose)?;
    let hang = (pose[legs.tops[0]] + pose[legs.tops[1]]) / 2.0 - (pose[legs.ends[0]] + pose[legs.ends[1]]) / 2.0;
    let up = hang.try_normalize()?;
    let in_legs = legs.joints(skeleton);
    let body: Vec<Vec3> = (0..skeleton.len()).filter(|&j| !in_legs[j] && j != legs.hips && pose[j].is_finite()).map(|j| pose[j]).collect();
    if body.is_empty() {
        return None;
    }
    let above = (body.iter().sum::<Vec3>() / body.len() as f32 - pose[legs.hips]).dot(up);
    (above > 0.1 * legs.length).then_some(hang)
}

/// Two chains that mirror each other, hanging from one joint.
struct Legs {
    hips: usize,
    tops: [usize; 2],
    ends: [usize; 2],
    length: f32,
}

impl Legs {
    /// Which joints are in the two chains (their tops, ends and all between).
    fn joints(&self, skeleton: &Skeleton) -> Vec<bool> {
        let mut in_legs = vec![false; skeleton.len()];
        for (&top, &end) in self.tops.iter().zip(&self.ends) {
            let mut j = Some(end);
            while let Some(k) = j {
                in_legs[k] = true;
                if k == top {
                    break;
                }
                j = skeleton.joints()[k].parent;
            }
        }
        in_legs
    }
}

/// The legs by the tree's shape: of the joints with two or more chains that do not branch
/// before their end (a foot may fork into toes) and mirror each other (as many joints,
/// lengths within 10%), the one nearest the root; its longest such pair, if it is at least a
/// fifth of the body's size. Arms are such a pair too, but further from the root; a tail has
/// no twin.
fn legs(skeleton: &Skeleton, pose: &[Vec3]) -> Option<Legs> {
    let kids = skeleton.child_lists();
    let (lo, hi) = pose.iter().filter(|p| p.is_finite()).fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = (hi - lo).max_element();
    if !(size > 0.0) {
        return None;
    }
    // A chain from `top` down while it does not branch: (joints, length, end).
    let chain = |top: usize| {
        let (mut end, mut count, mut length) = (top, 1usize, 0.0f32);
        while let [only] = kids[end].as_slice() {
            length += pose[*only].distance(pose[end]);
            (end, count) = (*only, count + 1);
        }
        (count, length, end)
    };
    let mut depth = vec![0usize; skeleton.len()];
    let mut best: Option<(usize, Legs)> = None;
    for j in 0..skeleton.len() {
        if let Some(p) = skeleton.joints()[j].parent {
            depth[j] = depth[p] + 1;
        }
        let chains: Vec<(usize, (usize, f32, usize))> =
            kids[j].iter().map(|&c| (c, chain(c))).filter(|(_, (n, l, _))| *n >= 2 && l.is_finite()).collect();
        for (a, &(top_a, (n_a, len_a, end_a))) in chains.iter().enumerate() {
            for &(top_b, (n_b, len_b, end_b)) in &chains[a + 1..] {
                let length = len_a.min(len_b);
                let mirrored = n_a == n_b && (len_a - len_b).abs() <= 0.1 * len_a.max(len_b);
                if !mirrored || length < 0.2 * size {
                    continue;
                }
                let better = best.as_ref().is_none_or(|(d, b)| depth[j] < *d || (depth[j] == *d && length > b.length));
                if better {
                    best = Some((depth[j], Legs { hips: j, tops: [top_a, top_b], ends: [end_a, end_b], length }));
                }
            }
        }
    }
    best.map(|(_, legs)| legs)
}

/// The axis nearest `head_over_feet` (from the feet to the head) when it contradicts
/// `declared`: the head below the feet or level with them along it.
pub fn contradicted_by(head_over_feet: Vec3, declared: UpAxis) -> Option<UpAxis> {
    let v = head_over_feet;
    if v.dot(declared.vector()) > LEVEL * v.length() {
        return None;
    }
    UpAxis::nearest(v).filter(|&u| u != declared)
}

/// Marker-name fragments of the head in the usual marker sets (Plug-in Gait's `LFHD`,
/// `RBHD`; `HEAD`, `VERTEX`).
const MARKER_HEAD: [&str; 4] = ["fhd", "bhd", "head", "vertex"];
/// Marker-name fragments of the feet (Plug-in Gait's `LANK`, `LHEE`, `LTOE`; `MT1`, `MT5`,
/// `CAL` of the OpenSim and Helen Hayes sets).
const MARKER_FOOT: [&str; 9] = ["ank", "hee", "toe", "heel", "foot", "mt1", "mt5", "mh1", "cal"];

/// The joints named as head and as feet: by marker-set names for a cloud of markers (a
/// capture), by joint names for a skeleton.
fn heads_and_feet(skeleton: &Skeleton) -> (Vec<usize>, Vec<usize>) {
    let cloud = !skeleton.is_empty() && skeleton.joints().iter().all(|j| j.is_marker && j.parent.is_none());
    if cloud {
        (named(skeleton, &MARKER_HEAD), named(skeleton, &MARKER_FOOT))
    } else {
        (named(skeleton, &HEAD_NAMES), named(skeleton, &FOOT_NAMES))
    }
}

/// Feet to head, summed over the poses, when joints are named so.
fn head_over_feet(skeleton: &Skeleton, poses: &[Vec<Vec3>]) -> Option<Vec3> {
    let (heads, feet) = heads_and_feet(skeleton);
    let mean = |pose: &[Vec3], set: &[usize]| {
        let v: Vec<Vec3> = set.iter().map(|&i| pose[i]).filter(|p| p.is_finite()).collect();
        (!v.is_empty()).then(|| v.iter().sum::<Vec3>() / v.len() as f32)
    };
    let sum: Vec3 = poses.iter().filter_map(|p| Some(mean(p, &heads)? - mean(p, &feet)?)).sum();
    (sum.length() > 0.0 && sum.is_finite()).then_some(sum)
}

/// Step 1: feet to head, summed over the frames.
fn up_from_names(skeleton: &Skeleton, poses: &[Vec<Vec3>]) -> Option<UpAxis> {
    UpAxis::nearest(head_over_feet(skeleton, poses)?)
}

/// Step 2: the direction along which most leaf joints (feet, paws, claws: where chains end)
/// rest on the lowest plane, frame after frame, if it clearly wins. Only leaves count, so the
/// knees of a crab, level at the top of its legs, do not look like a floor upside down.
fn up_from_floor(skeleton: &Skeleton, poses: &[Vec<Vec3>], boxes: &[(Vec3, Vec3)]) -> Option<UpAxis> {
    let child_counts = skeleton.child_counts();
    let leaves: Vec<usize> = (0..skeleton.len()).filter(|&i| child_counts[i] == 0).collect();
    let size = boxes.iter().map(|(lo, hi)| (*hi - *lo).max_element()).fold(0.0, f32::max);
    if !(size > 0.0) || leaves.len() < 3 {
        return None;
    }
    let tolerance = size * 0.05;
    let mut scores: Vec<(f32, UpAxis)> = UpAxis::ALL
        .into_iter()
        .map(|up| {
            let d = up.vector();
            let touching: usize = poses
                .iter()
                .map(|pose| {
                    let floor = pose.iter().filter(|p| p.is_finite()).map(|p| p.dot(d)).fold(f32::INFINITY, f32::min);
                    leaves.iter().filter(|&&i| pose[i].is_finite() && pose[i].dot(d) - floor <= tolerance).count()
                })
                .sum();
            (touching as f32 / poses.len() as f32, up)
        })
        .collect();
    scores.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Several leaves on the floor, and clearly more than on any other side.
    (scores[0].0 >= 3.0 && scores[0].0 >= scores[1].0 * 1.5).then_some(scores[0].1)
}

/// Step 3: the tallest axis (Y unless Z clearly is), positive.
fn up_from_extents(boxes: &[(Vec3, Vec3)]) -> UpAxis {
    let z_votes = boxes.iter().map(|(lo, hi)| *hi - *lo).filter(|e| e.z > e.y * 1.2).count();
    if z_votes * 2 > boxes.len() { UpAxis::Z } else { UpAxis::Y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_sizes_map_to_units() {
        assert_eq!(LengthUnit::of_metres(0.01), Some((LengthUnit::Centimetre, 1.0)));
        assert_eq!(LengthUnit::of_metres(1.0), Some((LengthUnit::Metre, 1.0)));
        assert_eq!(LengthUnit::of_metres(0.0254), Some((LengthUnit::Inch, 1.0)));
        assert_eq!(LengthUnit::of_metres(0.1), Some((LengthUnit::Decimetre, 1.0)));
        let (u, d) = LengthUnit::of_metres(0.05).unwrap();
        assert_eq!(u, LengthUnit::Centimetre);
        assert!((u.metres() / d - 0.05).abs() < 1e-7, "an unusual unit reads as centimetres with a divisor");
        assert_eq!(LengthUnit::of_metres(0.0), None);
        assert_eq!(LengthUnit::of_metres(f64::NAN), None);
    }

    #[test]
    fn heights_map_to_plausible_units() {
        assert_eq!(LengthUnit::from_height(1.7), LengthUnit::Metre);
        assert_eq!(LengthUnit::from_height(67.0), LengthUnit::Inch);
        assert_eq!(LengthUnit::from_height(170.0), LengthUnit::Centimetre);
        assert_eq!(LengthUnit::from_height(1700.0), LengthUnit::Millimetre);
        assert_eq!(LengthUnit::from_height(f32::NAN), LengthUnit::Metre);
        assert_eq!(LengthUnit::from_height(25.6), LengthUnit::CmuAsf);
        // MakeHuman writes decimetres: a 1.67 m person is 16.7 units tall.
        assert_eq!(LengthUnit::from_height(16.7), LengthUnit::Decimetre);
        assert_eq!(LengthUnit::parse("decimetres"), Some(LengthUnit::Decimetre));
        assert!((LengthUnit::CmuAsf.metres() * 28.0 - 1.58).abs() < 0.01);
        assert_eq!(LengthUnit::parse("Millimeters"), Some(LengthUnit::Millimetre));
    }

    #[test]
    fn a_rest_pose_lying_flat_gets_its_unit_from_its_bones() {
        use crate::core::{Joint, PositionRule};
        // Ten 17 cm bones along X, no height at all, no frames: 170 cm of bones.
        let joints: Vec<Joint> =
            (0..11usize).map(|i| Joint::new(format!("b{i}"), i.checked_sub(1), if i == 0 { Vec3::ZERO } else { Vec3::X * 17.0 })).collect();
        let s = Skeleton::new(joints, PositionRule::Replace).unwrap();
        let b = detect_body_size(&s, &Clip::empty(0.1, 0));
        assert!((b.span - 153.0).abs() < 1e-3, "the root's one bone places, the other nine measure: {}", b.span);
        assert_eq!(LengthUnit::from_height(b.unit_height()), LengthUnit::Centimetre);
        assert_eq!(LengthUnit::from_height(b.height), LengthUnit::Metre, "the height alone would say metres");
    }

    #[test]
    fn z_up_maps_to_y_up() {
        assert_eq!(UpAxis::Z.to_y_up(Vec3::new(1.0, 2.0, 3.0)), Vec3::new(1.0, 3.0, -2.0));
        let m = display_transform(0.01, UpAxis::Z).transform_point3(Vec3::new(100.0, 200.0, 300.0));
        // X to the right and Z up is what the up axis alone does; Y to the right turns it.
        let same = display_transform_axes(0.01, UpAxis::Z, Some(UpAxis::X)).transform_point3(Vec3::new(100.0, 200.0, 300.0));
        assert!((same - m).length() < 1e-6);
        let turned = display_transform_axes(1.0, UpAxis::Z, Some(UpAxis::Y)).transform_point3(Vec3::new(1.0, 2.0, 3.0));
        assert!((turned - Vec3::new(2.0, 3.0, 1.0)).length() < 1e-6, "{turned}");
        assert_eq!(display_transform_axes(1.0, UpAxis::Z, Some(UpAxis::Z)), display_transform(1.0, UpAxis::Z));
        assert!((m - Vec3::new(1.0, 3.0, -2.0)).length() < 1e-5, "{m}");
    }
}
