//! What counts as a finding: every threshold in metres, seconds or degrees (never raw file
//! units), with defaults chosen on the corpus (the README lists what they find there), read
//! from TOML as one table per kind.

use serde::{Deserialize, Serialize};

/// `pop`: a frame-to-frame change far beyond what the neighbouring frames predict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PopThresholds {
    /// How many robust standard deviations (1.4826 × MAD) of the joint's own prediction error
    /// a change must exceed.
    pub factor: f32,
    /// Smallest translation jump reported, metres.
    pub min_m: f32,
    /// Smallest rotation jump reported, degrees.
    pub min_deg: f32,
}

impl Default for PopThresholds {
    fn default() -> Self {
        Self { factor: 15.0, min_m: 0.05, min_deg: 30.0 }
    }
}

/// `jitter`: high-frequency noise on a joint's position.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JitterThresholds {
    /// Estimated RMS noise per axis above which a window is noisy, millimetres.
    pub rms_mm: f32,
    /// Window the noise is averaged over, seconds.
    pub window_secs: f32,
}

impl Default for JitterThresholds {
    fn default() -> Self {
        Self { rms_mm: 4.0, window_secs: 0.25 }
    }
}

/// `foot_slide`: a foot in contact with the ground that drifts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FootSlideThresholds {
    /// A foot is in contact within this height above its own lowest level, metres.
    pub contact_height_m: f32,
    /// A foot is in contact only while slower than this, metres per second.
    pub contact_speed_m_s: f32,
    /// Shortest contact examined, seconds.
    pub min_contact_secs: f32,
    /// Horizontal drift during one contact above which the foot slides, metres.
    pub drift_m: f32,
}

impl Default for FootSlideThresholds {
    fn default() -> Self {
        Self { contact_height_m: 0.03, contact_speed_m_s: 0.6, min_contact_secs: 0.15, drift_m: 0.05 }
    }
}

/// `floor`: a joint below the floor.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FloorThresholds {
    /// Depth below the floor reported, metres.
    pub depth_m: f32,
}

impl Default for FloorThresholds {
    fn default() -> Self {
        Self { depth_m: 0.03 }
    }
}

/// `frozen`: values repeated exactly while the clip moves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrozenThresholds {
    /// Shortest held stretch reported, seconds (and at least 3 frames).
    pub min_secs: f32,
}

impl Default for FrozenThresholds {
    fn default() -> Self {
        Self { min_secs: 0.25 }
    }
}

/// Marker checks of a capture (C3D, TRC): gaps, jumps and label swaps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MarkerThresholds {
    /// Shortest gap reported, seconds (shorter ones are routinely filled).
    pub gap_secs: f32,
    /// A marker that leaves the path its neighbouring frames draw by more than this…
    pub jump_m: f32,
    /// …and by more than this many times its median is a jump.
    pub jump_factor: f32,
    /// Two markers closer than this may swap labels.
    pub swap_near_m: f32,
}

impl Default for MarkerThresholds {
    fn default() -> Self {
        Self { gap_secs: 0.2, jump_m: 0.02, jump_factor: 10.0, swap_near_m: 0.2 }
    }
}

/// `flip`: an Euler channel that wraps while the rotation barely changes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlipThresholds {
    /// Smallest channel jump between two frames, degrees.
    pub jump_deg: f32,
    /// Largest change of the joint's actual rotation for the jump to be a flip, degrees.
    pub max_turn_deg: f32,
}

impl Default for FlipThresholds {
    fn default() -> Self {
        Self { jump_deg: 150.0, max_turn_deg: 30.0 }
    }
}

/// `limit`: a channel outside the limits the file declares.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitThresholds {
    /// Excess tolerated beyond a declared limit, degrees.
    pub tolerance_deg: f32,
}

impl Default for LimitThresholds {
    fn default() -> Self {
        Self { tolerance_deg: 1.0 }
    }
}

/// `bone_length`: a bone whose length changes over the clip.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoneLengthThresholds {
    /// Change from the bone's median length, percent.
    pub percent: f32,
}

impl Default for BoneLengthThresholds {
    fn default() -> Self {
        Self { percent: 5.0 }
    }
}

/// `neutral_pose`: limbs of the rest pose and first frame against the ideal neutral pose.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NeutralThresholds {
    /// Deviation of a limb from the ideal pose, degrees.
    pub limb_deg: f32,
}

impl Default for NeutralThresholds {
    fn default() -> Self {
        Self { limb_deg: 25.0 }
    }
}

/// Every detector's thresholds; a TOML file names only those it changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// Pops.
    pub pop: PopThresholds,
    /// Jitter.
    pub jitter: JitterThresholds,
    /// Foot slide.
    pub foot_slide: FootSlideThresholds,
    /// Floor penetration.
    pub floor: FloorThresholds,
    /// Frozen stretches.
    pub frozen: FrozenThresholds,
    /// Euler flips.
    pub flip: FlipThresholds,
    /// Declared limits.
    pub limit: LimitThresholds,
    /// Bone lengths.
    pub bone_length: BoneLengthThresholds,
    /// Neutral pose.
    pub neutral_pose: NeutralThresholds,
    /// Markers (gaps, jumps, label swaps).
    pub markers: MarkerThresholds,
}

/// Why thresholds were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ThresholdError {
    /// Not TOML of this shape (the message names the line and column).
    #[error("{0}")]
    Toml(String),
    /// A threshold that must be a finite number ≥ 0 is not.
    #[error("{name} = {value}: expected a finite number ≥ 0")]
    Negative {
        /// `table.key`.
        name: &'static str,
        /// The value given.
        value: f32,
    },
    /// `pop.factor` must be above 0.
    #[error("pop.factor = 0: expected a number > 0")]
    ZeroFactor,
}

impl Thresholds {
    /// Reads thresholds from TOML text; the error names the line and column.
    pub fn from_toml(text: &str) -> Result<Self, ThresholdError> {
        let t: Self = toml::from_str(text).map_err(|e| ThresholdError::Toml(e.to_string().trim_end().to_owned()))?;
        t.check()?;
        Ok(t)
    }

    /// The defaults as TOML, every key with its value (a starting point for a file).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Every threshold must be a finite number ≥ 0 (a factor > 0).
    pub fn check(&self) -> Result<(), ThresholdError> {
        let values = [
            ("pop.factor", self.pop.factor),
            ("pop.min_m", self.pop.min_m),
            ("pop.min_deg", self.pop.min_deg),
            ("jitter.rms_mm", self.jitter.rms_mm),
            ("jitter.window_secs", self.jitter.window_secs),
            ("foot_slide.contact_height_m", self.foot_slide.contact_height_m),
            ("foot_slide.contact_speed_m_s", self.foot_slide.contact_speed_m_s),
            ("foot_slide.min_contact_secs", self.foot_slide.min_contact_secs),
            ("foot_slide.drift_m", self.foot_slide.drift_m),
            ("floor.depth_m", self.floor.depth_m),
            ("frozen.min_secs", self.frozen.min_secs),
            ("flip.jump_deg", self.flip.jump_deg),
            ("flip.max_turn_deg", self.flip.max_turn_deg),
            ("limit.tolerance_deg", self.limit.tolerance_deg),
            ("bone_length.percent", self.bone_length.percent),
            ("neutral_pose.limb_deg", self.neutral_pose.limb_deg),
            ("markers.gap_secs", self.markers.gap_secs),
            ("markers.jump_m", self.markers.jump_m),
            ("markers.jump_factor", self.markers.jump_factor),
            ("markers.swap_near_m", self.markers.swap_near_m),
        ];
        for (name, v) in values {
            if !v.is_finite() || v < 0.0 {
                return Err(ThresholdError::Negative { name, value: v });
            }
        }
        if self.pop.factor == 0.0 {
            return Err(ThresholdError::ZeroFactor);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_names_only_what_it_changes() {
        let t = Thresholds::from_toml("[pop]\nmin_m = 0.1\n\n[floor]\ndepth_m = 0.05\n").unwrap();
        assert_eq!(t.pop.min_m, 0.1);
        assert_eq!(t.pop.factor, PopThresholds::default().factor);
        assert_eq!(t.floor.depth_m, 0.05);
        assert_eq!(t.jitter, JitterThresholds::default());
        assert_eq!(Thresholds::from_toml(&Thresholds::default().to_toml()).unwrap(), Thresholds::default());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors_with_a_place() {
        let e = Thresholds::from_toml("[pop]\nmin_mm = 3\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("min_mm"), "{e}");
        let e = Thresholds::from_toml("[jitter]\nrms_mm = -1.0\n").unwrap_err();
        assert_eq!(e, ThresholdError::Negative { name: "jitter.rms_mm", value: -1.0 });
        assert_eq!(e.to_string(), "jitter.rms_mm = -1: expected a finite number ≥ 0");
        assert!(Thresholds::from_toml("[flip]\njump_deg = \"big\"\n").unwrap_err().to_string().contains("line 2"));
    }
}
