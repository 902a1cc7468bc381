//! Acclaim ASF (skeleton) + AMC (motion), and finding the ASF that goes with an AMC.
//!
//! Conventions (both CMU reference players agree): `axis a b c XYZ` gives C = Rz·Ry·Rx;
//! dof rotations are evaluated in listed order (`rx ry rz` gives M = Rz·Ry·Rx); a bone's local
//! rotation is C·M·C⁻¹; a bone starts where its parent ends and extends by
//! `direction × length` (global ASF axes at rest). Each bone becomes a joint at its far end.

pub mod amc;
pub mod asf;
mod format;
pub mod pairing;

pub use format::{Acclaim, FORMAT, FRAME_RATE};

pub use amc::{Amc, parse_amc};
pub use asf::{Asf, parse_asf};

/// Frame time assumed for AMC files, which carry none (CMU and HDM05 capture at 120 Hz).
pub const DEFAULT_AMC_FRAME_TIME_SECS: f64 = 1.0 / 120.0;
