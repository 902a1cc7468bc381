//! Length units and up axis: declared by some formats, detected from body size otherwise.

use glam::{Mat4, Vec3};

use super::clip::Clip;
use super::pose::{self, GlobalPose, LocalPose};
use super::skeleton::Skeleton;

/// The world's up axis as the file uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpAxis {
    /// +Y up (BVH from most tools, ASF/AMC).
    Y,
    /// +Z up (Character Studio Biped, many Max exports).
    Z,
}

impl UpAxis {
    /// `"Y"` or `"Z"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Y => "Y",
            Self::Z => "Z",
        }
    }

    /// Maps a point from this convention to Y-up right-handed (Z-up: (x, y, z) → (x, z, −y)).
    pub fn to_y_up(self, p: Vec3) -> Vec3 {
        display_transform(1.0, self).transform_point3(p)
    }
}

/// `display_from_file`: raw file units to metres (`metres_per_raw_unit`) and `up` to Y-up.
/// The one place where units and axes are converted; everything shown or printed in metres
/// goes through it.
pub fn display_transform(metres_per_raw_unit: f32, up: UpAxis) -> Mat4 {
    let scale = Mat4::from_scale(Vec3::splat(metres_per_raw_unit));
    match up {
        UpAxis::Y => scale,
        // (x, y, z) → (x, z, −y): −90° about X, written exactly (a computed cos(π/2) is not 0).
        UpAxis::Z => Mat4::from_cols(glam::Vec4::X, -glam::Vec4::Z, glam::Vec4::Y, glam::Vec4::W) * scale,
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

/// A length unit with its size in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LengthUnit {
    /// Millimetres.
    Millimetre,
    /// Centimetres.
    Centimetre,
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
            "m" | "meter" | "meters" | "metre" | "metres" => Self::Metre,
            "in" | "inch" | "inches" => Self::Inch,
            "ft" | "foot" | "feet" => Self::Foot,
            _ => return None,
        })
    }

    /// Guesses the unit from the standing height of a body in file units.
    ///
    /// A pose of a person spans about 0.8–2.3 m: under 4 units that is metres, 4–10 feet,
    /// 10–35 CMU ASF units (CMU-derived BVH keeps them), 35–95 inches, 95–400 centimetres,
    /// more millimetres. Rigs that are not people (a hand, an object) may need an override.
    pub fn from_height(height: f32) -> Self {
        match height {
            h if !(h > 0.0) || h < 4.0 => Self::Metre,
            h if h < 10.0 => Self::Foot,
            h if h < 35.0 => Self::CmuAsf,
            h if h < 95.0 => Self::Inch,
            h if h < 400.0 => Self::Centimetre,
            _ => Self::Millimetre,
        }
    }
}

/// Up axis and height detected from a motion's poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySize {
    /// Typical extent of a pose along the detected up axis, in raw file units.
    pub height: f32,
    /// The axis along which poses are taller (Y unless Z clearly is).
    pub up: UpAxis,
    /// Largest side of the box around every sampled pose together, in raw file units: how
    /// far the body travels, for bodies without height.
    pub extent: f32,
}

/// Frames sampled (evenly, first and last included) to detect size and up axis.
const SAMPLED_FRAMES: usize = 16;

/// Detects the up axis and height from up to 16 frames spread over the clip (the rest pose
/// when there are none). A standing, walking or T-posed body is taller along its up axis
/// than it is deep; each sampled pose votes, and the height is the median up extent, so a
/// flip or a fall in a few frames does not decide. The rest pose alone misleads: some
/// exporters (Bandai-Namco) lay the rest skeleton on its side and stand it up with channels.
pub fn detect_body_size(skeleton: &Skeleton, clip: &Clip) -> BodySize {
    let mut local = LocalPose::default();
    let mut global = GlobalPose::default();
    let n = clip.num_frames();
    let frames: Vec<Option<usize>> = if n == 0 {
        vec![None]
    } else {
        let k = n.min(SAMPLED_FRAMES);
        (0..k).map(|i| Some(if k == 1 { 0 } else { i * (n - 1) / (k - 1) })).collect()
    };
    let mut extents = Vec::with_capacity(frames.len());
    let (mut all_lo, mut all_hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for f in frames {
        match f {
            Some(f) => pose::frame_pose(skeleton, clip, f, &mut local),
            None => pose::rest_pose(skeleton, &mut local),
        }
        pose::global_pose(skeleton, &local, &mut global);
        // Roots are left out when there is more: exporters park a root at the world origin
        // while the hips travel (Bandai-Namco), which would measure the walk, not the body.
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        let skip_roots = skeleton.joints().iter().any(|j| j.parent.is_some());
        for (j, m) in skeleton.joints().iter().zip(&global.world_from_joint) {
            if skip_roots && j.parent.is_none() {
                continue;
            }
            let p: Vec3 = m.translation.into();
            // A NaN or an absurd sample (1e25) must not decide the body's size.
            if p.is_finite() && p.abs().max_element() < 1e12 {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        (all_lo, all_hi) = (all_lo.min(lo), all_hi.max(hi));
        if lo.x <= hi.x {
            extents.push(hi - lo);
        }
    }
    let extent = if all_lo.x <= all_hi.x { (all_hi - all_lo).max_element() } else { 0.0 };
    if extents.is_empty() {
        return BodySize { height: 0.0, up: UpAxis::Y, extent };
    }
    let z_votes = extents.iter().filter(|e| e.z > e.y * 1.2).count();
    let up = if z_votes * 2 > extents.len() { UpAxis::Z } else { UpAxis::Y };
    let mut heights: Vec<f32> = extents.iter().map(|e| if up == UpAxis::Z { e.z } else { e.y }).collect();
    heights.sort_by(f32::total_cmp);
    BodySize { height: heights[heights.len() / 2], up, extent }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heights_map_to_plausible_units() {
        assert_eq!(LengthUnit::from_height(1.7), LengthUnit::Metre);
        assert_eq!(LengthUnit::from_height(67.0), LengthUnit::Inch);
        assert_eq!(LengthUnit::from_height(170.0), LengthUnit::Centimetre);
        assert_eq!(LengthUnit::from_height(1700.0), LengthUnit::Millimetre);
        assert_eq!(LengthUnit::from_height(f32::NAN), LengthUnit::Metre);
        assert_eq!(LengthUnit::from_height(25.6), LengthUnit::CmuAsf);
        assert!((LengthUnit::CmuAsf.metres() * 28.0 - 1.58).abs() < 0.01);
        assert_eq!(LengthUnit::parse("Millimeters"), Some(LengthUnit::Millimetre));
    }

    #[test]
    fn z_up_maps_to_y_up() {
        assert_eq!(UpAxis::Z.to_y_up(Vec3::new(1.0, 2.0, 3.0)), Vec3::new(1.0, 3.0, -2.0));
        let m = display_transform(0.01, UpAxis::Z).transform_point3(Vec3::new(100.0, 200.0, 300.0));
        assert!((m - Vec3::new(1.0, 3.0, -2.0)).length() < 1e-5, "{m}");
    }
}
