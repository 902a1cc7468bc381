//! Force platforms out as an OpenSim `.mot` table (`skelview convert capture.c3d
//! forces.mot`): per platform `N_ground_force_v{x,y,z}` (force), `N_ground_force_p{x,y,z}`
//! (centre of pressure) and `N_ground_torque_{x,y,z}` (free moment), one row per analog
//! sample, in the lab's axes, SI units (N, m, N·m) as OpenSim expects. Where the vertical
//! force is below `threshold_n` the centre of pressure and torque are written as 0 (OpenSim
//! reads no gaps); the force is written as measured.

use std::io::Write;

use crate::core::capture::Capture;
use crate::core::units::LengthUnit;

/// Why forces could not be written.
#[derive(Debug, thiserror::Error)]
pub enum MotError {
    /// The capture has no platforms (or none that can be computed).
    #[error("{0}")]
    NoPlatforms(String),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Vertical force (N) below which a platform is unloaded.
pub const DEFAULT_THRESHOLD_N: f32 = 10.0;

/// Writes every platform of `capture`.
pub fn write_mot(capture: &Capture, name: &str, threshold_n: f32, out: &mut dyn Write) -> Result<(), MotError> {
    if capture.plates.is_empty() {
        return Err(MotError::NoPlatforms("the capture has no force platforms (FORCE_PLATFORM:USED is 0 or missing)".into()));
    }
    let samples: Vec<_> = crate::core::force_plates::samples(capture)
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.map_err(|e| MotError::NoPlatforms(format!("platform {}: {e}", i + 1))))
        .collect::<Result<_, _>>()?;
    let metres = f64::from(LengthUnit::parse(&capture.unit).map_or(0.001, LengthUnit::metres));
    let rows = samples.first().map_or(0, Vec::len);
    let rate = capture.analog.rate_hz;
    let mut columns = vec!["time".to_owned()];
    for p in 1..=samples.len() {
        for kind in ["ground_force_v", "ground_force_p"] {
            columns.extend(["x", "y", "z"].map(|a| format!("{p}_{kind}{a}")));
        }
    }
    for p in 1..=samples.len() {
        columns.extend(["x", "y", "z"].map(|a| format!("{p}_ground_torque_{a}")));
    }
    writeln!(out, "{name}\nversion=1\nnRows={rows}\nnColumns={}\ninDegrees=yes\nendheader", columns.len())?;
    writeln!(out, "{}", columns.join("\t"))?;
    let mut line = String::new();
    for r in 0..rows {
        use std::fmt::Write as _;
        line.clear();
        let _ = write!(line, "{:.6}", r as f64 / rate);
        let loaded = |s: &crate::core::capture::PlateSample| s.force.z.abs() >= threshold_n && s.cop.is_finite();
        for plate in &samples {
            let s = &plate[r];
            let f = s.force;
            let c = if loaded(s) { s.cop.as_dvec3() * metres } else { glam::DVec3::ZERO };
            let _ = write!(line, "\t{}\t{}\t{}\t{}\t{}\t{}", f.x, f.y, f.z, c.x, c.y, c.z);
        }
        for plate in &samples {
            let s = &plate[r];
            let t = if loaded(s) { s.free_moment.as_dvec3() * metres } else { glam::DVec3::ZERO };
            let _ = write!(line, "\t{}\t{}\t{}", t.x, t.y, t.z);
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
