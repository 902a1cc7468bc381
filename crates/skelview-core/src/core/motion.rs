//! `Motion`: what every loader returns.

use std::path::PathBuf;

use super::clip::Clip;
use super::skeleton::{ChannelKind, Skeleton};
use super::units::{LengthUnit, UpAxis};

/// A motion's format as the rest of the program sees it: its name and the conventions that
/// code outside the format's own folder needs. Each format defines its one value there, so
/// adding a format adds nothing here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    /// Display name (`BVH`).
    pub name: &'static str,
    /// How its channels are named.
    pub channel_names: ChannelNames,
    /// Each joint sits at the far end of its bone (ASF bones), not at the bone's origin.
    pub joints_at_far_end: bool,
    /// How translations combine with offsets, for `info` (formats with a fixed rule).
    pub position_note: &'static str,
    /// Said after the frame rate when the file states none (AMC).
    pub assumed_rate_note: Option<&'static str>,
    /// Quaternion channels hold the file's own numbers (ACL), not ones the loader derived
    /// (H-Anim axis–angle): a sign flip between frames is then the file's.
    pub file_quaternions: bool,
}

impl Format {
    /// Display name.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// A channel's name as this format's files and users name it.
    pub fn channel_name(self, kind: ChannelKind) -> &'static str {
        match self.channel_names {
            ChannelNames::Bvh => kind.bvh_name(),
            ChannelNames::Short => kind.short_name(),
        }
    }
}

/// How a format names its channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelNames {
    /// As BVH does: `Xposition`, `Zrotation`.
    Bvh,
    /// Short: `tx`, `rz`.
    Short,
}

/// One of several animations a file holds (an H-Anim TimeSensor and what it drives).
#[derive(Clone, Debug, PartialEq)]
pub struct Take {
    /// Name as the file gives it (a DEF name), or `take N`.
    pub name: String,
    /// Length in seconds.
    pub duration_secs: f64,
    /// Joints it animates.
    pub joints: usize,
    /// False when its keys never change (a held pose).
    pub moving: bool,
}

/// A problem that did not stop the load, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The file the warning is about.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub col: usize,
    /// What was found and what was done about it.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: warning: {}", self.path.display(), self.line, self.col, self.message)
    }
}

/// Where a motion came from and what the file declared about itself.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceInfo {
    /// Format of the file(s).
    pub format: Format,
    /// Files read (ASF then AMC for Acclaim).
    pub paths: Vec<PathBuf>,
    /// Frame count written in the file, where it states one.
    pub declared_frames: Option<u64>,
    /// Units text as declared (ASF `:units`), if any.
    pub declared_units: Option<String>,
    /// Divisor applied to raw lengths to get file units (ASF `length` multiplier; 1 otherwise).
    pub length_divisor: f32,
    /// Length unit: declared or detected from the body's height.
    pub unit: LengthUnit,
    /// True when `unit` was detected rather than declared.
    pub unit_detected: bool,
    /// Up axis: declared or detected.
    pub up_axis: UpAxis,
    /// True when `up_axis` was detected rather than declared.
    pub up_detected: bool,
    /// What decided a detected up axis (`head above the feet`, `floor plane under the lowest
    /// joints`, `tallest extent of the poses`); empty when declared.
    pub up_reason: &'static str,
    /// Typical height of a pose (median over sampled frames) in raw file units.
    pub body_height: f32,
    /// How far the body travels (largest side of the box around sampled poses), raw units.
    pub motion_extent: f32,
    /// Angle unit of the file's rotation values (`deg` or `rad`).
    pub angle_unit: &'static str,
    /// Format-specific header facts (HTR header, ACL additive mode, H-Anim version), as
    /// label/value pairs for `info` and the viewer.
    pub details: Vec<(String, String)>,
    /// The animations the file holds when there are several ways to play it (else empty).
    pub takes: Vec<Take>,
    /// Index in `takes` of the one loaded.
    pub take: Option<usize>,
    /// The file's axis that points right on screen, where it declares one (C3D
    /// `POINT:X_SCREEN`): it turns the display about the up axis.
    pub screen_right: Option<UpAxis>,
    /// Joints (a capture's points) far outside the body, by its own spread (model outputs
    /// stored as points): drawn, but left out of the body's size, its units and framing.
    pub left_out: Vec<usize>,
}

/// A skeleton, its clip, and what the loader learned on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// Joints, parents first.
    pub skeleton: Skeleton,
    /// Channel values per frame (may have no frames: rest pose only).
    pub clip: Clip,
    /// Provenance and declared/detected units.
    pub source: SourceInfo,
    /// Problems met while loading that did not stop it.
    pub warnings: Vec<Warning>,
    /// The marker capture behind the motion (C3D, TRC): its markers are the joints, and it
    /// holds what joints cannot (gaps, residuals, analog channels, force plates, events).
    pub capture: Option<std::sync::Arc<super::capture::Capture>>,
    /// The file's meshes, bound to the skeleton's joints (glTF, VRM, FBX characters).
    pub meshes: Option<std::sync::Arc<super::mesh::MeshSet>>,
}

impl Motion {
    /// Metres per raw file unit (the ASF length divisor and the unit applied).
    pub fn metres_per_raw_unit(&self) -> f32 {
        self.metres_with(None)
    }

    /// Metres per raw file unit with the user's unit in place of the file's where given.
    pub fn metres_with(&self, unit: Option<LengthUnit>) -> f32 {
        unit.unwrap_or(self.source.unit).metres() / self.source.length_divisor
    }

    /// `display_from_file`: the file's raw units and axes to metres, Y-up, as detected or
    /// declared.
    pub fn display_from_file(&self) -> glam::Mat4 {
        self.display_with(None, None).display_from_file
    }

    /// Body size in metres, for scale-aware sizes (from its travel when it has no height).
    pub fn body_size_m(&self) -> f32 {
        self.display_with(None, None).size_m
    }

    /// `display_from_file` and the body size in metres with the user's unit and up axis in
    /// place of the file's where given: the one place a motion's units and axes are applied.
    pub fn display_with(&self, unit: Option<LengthUnit>, up: Option<UpAxis>) -> DisplayFrame {
        let s = &self.source;
        let metres = self.metres_with(unit);
        DisplayFrame {
            display_from_file: super::units::display_transform_axes(metres, up.unwrap_or(s.up_axis), s.screen_right),
            size_m: super::units::usable_size_m(s.body_height * metres, s.motion_extent * metres),
        }
    }
}

/// How a motion is shown: file space to display space (metres, Y-up), and the body's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayFrame {
    /// File units and axes to metres, Y-up.
    pub display_from_file: glam::Mat4,
    /// Body size in metres, for scale-aware sizes (joint radius, margins, spacing).
    pub size_m: f32,
}
