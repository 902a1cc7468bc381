//! Ground reaction force, moment and centre of pressure from a platform's analog channels,
//! for platform types 1–4 (the C3D force-platform conventions).
//!
//! The platform's axes come from its corners (X from corner 2 to 1, Y from corner 4 to 1,
//! Z their cross product), its centre is the corners' mean, and `origin` is the vector from
//! that centre to the transducer's origin in platform axes (below the surface: a positive Z
//! is negated, as most writers store it the other way). This is the computation ezc3d and
//! Mokka do, so their figures and ours can be compared.

use glam::{DMat3, DVec3};

use super::capture::{Analog, Capture, ForcePlate, PlateSample};

/// Every platform's samples of `capture` (one per analog sample), or why a platform has none.
pub fn samples(capture: &Capture) -> Vec<Result<Vec<PlateSample>, PlateError>> {
    capture.plates.iter().map(|p| compute(p, &capture.analog)).collect()
}

/// Inputs a platform type reads.
pub fn channel_count(kind: u16) -> Option<usize> {
    match kind {
        1 | 2 | 4 => Some(6),
        3 => Some(8),
        _ => None,
    }
}

/// What a platform's description lacks for its samples to be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlateError {
    /// A platform type whose channels are not turned into forces here.
    #[error("platform type {0} is not computed (types 1 to 4 are)")]
    Kind(u16),
    /// Fewer channels than the type reads.
    #[error("type {kind} needs {needed} channels, FORCE_PLATFORM:CHANNEL gives {given}")]
    Channels {
        /// The platform type.
        kind: u16,
        /// Channels the type reads.
        needed: usize,
        /// Channels the file lists.
        given: usize,
    },
    /// A channel number past the analog channels.
    #[error("FORCE_PLATFORM:CHANNEL names analog channel {channel} of {count}")]
    NoChannel {
        /// The channel named (from 1).
        channel: usize,
        /// Analog channels in the file.
        count: usize,
    },
}

/// The platform's samples, one per analog sample; an error names what the description lacks.
pub fn compute(plate: &ForcePlate, analog: &Analog) -> Result<Vec<PlateSample>, PlateError> {
    let Some(needed) = channel_count(plate.kind) else {
        return Err(PlateError::Kind(plate.kind));
    };
    if plate.channels.len() < needed {
        return Err(PlateError::Channels { kind: plate.kind, needed, given: plate.channels.len() });
    }
    let n = analog.channels.len();
    if let Some(&c) = plate.channels[..needed].iter().find(|&&c| c >= n) {
        return Err(PlateError::NoChannel { channel: c + 1, count: n });
    }
    let corners = plate.corners.map(|c| c.as_dvec3());
    let mut x = corners[0] - corners[1];
    let mut y = corners[0] - corners[3];
    let z = x.cross(y);
    y = z.cross(x);
    x = x.normalize_or_zero();
    y = y.normalize_or_zero();
    let lab_from_plate = DMat3::from_cols(x, y, z.normalize_or_zero());
    let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4.0;
    let mut origin = plate.origin.as_dvec3();
    if plate.kind == 1 {
        origin.x = 0.0;
        origin.y = 0.0;
    }
    if origin.z > 0.0 {
        origin = -origin;
    }
    let poly = plate.cop_poly.unwrap_or([0.0; 12]);
    let samples = analog.samples();
    let mut out = Vec::with_capacity(samples);
    let mut ch = [0f64; 8];
    for s in 0..samples {
        let row = &analog.values[s * n..(s + 1) * n];
        for (k, &c) in plate.channels[..needed].iter().enumerate() {
            ch[k] = f64::from(row[c]);
        }
        out.push(sample(plate, &ch, origin, &poly, lab_from_plate, centre));
    }
    Ok(out)
}

fn sample(plate: &ForcePlate, ch: &[f64; 8], origin: DVec3, poly: &[f64; 12], lab_from_plate: DMat3, centre: DVec3) -> PlateSample {
    let r = lab_from_plate;
    if plate.kind == 1 {
        let force = r * DVec3::new(ch[0], ch[1], ch[2]);
        let cop = r * DVec3::new(ch[3], ch[4], 0.0);
        let tz = r * DVec3::new(0.0, 0.0, ch[5]);
        let moment = force.cross(cop) - tz;
        return to_sample(force, moment, cop + centre, tz);
    }
    let (f, mut m) = if plate.kind == 3 {
        let f = DVec3::new(ch[0] + ch[1], ch[2] + ch[3], ch[4] + ch[5] + ch[6] + ch[7]);
        let m = DVec3::new(
            origin.y * (ch[4] + ch[5] - ch[6] - ch[7]),
            origin.x * (ch[5] + ch[6] - ch[4] - ch[7]),
            origin.y * (ch[1] - ch[0]) + origin.x * (ch[2] - ch[3]),
        );
        (f, m + f.cross(DVec3::new(0.0, 0.0, origin.z)))
    } else {
        let mut d = [ch[0], ch[1], ch[2], ch[3], ch[4], ch[5]];
        if plate.kind == 4
            && let Some(cal) = &plate.cal_matrix
        {
            d = std::array::from_fn(|i| (0..6).map(|j| cal[i][j] * d[j]).sum());
        }
        (DVec3::new(d[0], d[1], d[2]), DVec3::new(d[3], d[4], d[5]))
    };
    if plate.kind != 3 {
        m += f.cross(origin);
    }
    let mut cop = DVec3::new(-m.y / f.z, m.x / f.z, 0.0);
    if plate.kind == 3 {
        // Kistler's correction, offsets subtracted after the centre is computed.
        let (cx, cy) = (cop.x, cop.y);
        let dx = (poly[0] * cy.powi(4) + poly[1] * cy.powi(2) + poly[2]) * cx.powi(3)
            + (poly[3] * cy.powi(4) + poly[4] * cy.powi(2) + poly[5]) * cx;
        let dy = (poly[6] * cx.powi(4) + poly[7] * cx.powi(2) + poly[8]) * cy.powi(3)
            + (poly[9] * cx.powi(4) + poly[10] * cx.powi(2) + poly[11]) * cy;
        cop.x -= dx;
        cop.y -= dy;
    }
    let free = r * (m - f.cross(-cop));
    to_sample(r * f, r * m, r * cop + centre, free)
}

fn to_sample(force: DVec3, moment: DVec3, cop: DVec3, free: DVec3) -> PlateSample {
    PlateSample { force: force.as_vec3(), moment: moment.as_vec3(), cop: cop.as_vec3(), free_moment: free.as_vec3() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::capture::AnalogChannel;
    use glam::Vec3;

    fn analog(rows: &[[f32; 6]]) -> Analog {
        let channels = (0..6).map(|i| AnalogChannel { label: format!("c{i}"), description: String::new(), unit: "N".into() }).collect();
        Analog { rate_hz: 1000.0, samples_per_frame: 10, channels, values: rows.iter().flatten().copied().collect() }
    }

    fn plate(kind: u16) -> ForcePlate {
        // A 600 × 400 mm plate centred at (300, 200, 0), axes along the lab's.
        ForcePlate {
            kind,
            corners: [Vec3::new(600., 400., 0.), Vec3::new(0., 400., 0.), Vec3::new(0., 0., 0.), Vec3::new(600., 0., 0.)],
            origin: Vec3::new(0., 0., -40.),
            channels: (0..6).collect(),
            cal_matrix: None,
            cop_poly: None,
        }
    }

    #[test]
    fn a_vertical_push_off_centre_puts_the_centre_of_pressure_there() {
        // 800 N down at 100 mm along +X from the centre: My = -Fz·x with the origin at the
        // surface centre (origin z only changes moments of shear forces).
        let s = compute(&plate(2), &analog(&[[0., 0., 800., 0., -80_000., 0.]])).unwrap();
        assert!((s[0].force - Vec3::new(0., 0., 800.)).length() < 1e-3);
        assert!((s[0].cop - Vec3::new(400., 200., 0.)).length() < 1e-3, "{:?}", s[0].cop);
    }

    #[test]
    fn the_calibration_matrix_applies_to_type_4() {
        let mut p = plate(4);
        let mut cal = [[0.0; 6]; 6];
        for (i, row) in cal.iter_mut().enumerate() {
            row[i] = 2.0;
        }
        p.cal_matrix = Some(cal);
        let s = compute(&p, &analog(&[[0., 0., 400., 0., 0., 0.]])).unwrap();
        assert!((s[0].force.z - 800.0).abs() < 1e-3);
    }

    #[test]
    fn missing_channels_and_unknown_types_are_errors() {
        let mut p = plate(2);
        p.channels = vec![0, 1, 2, 3, 4, 9];
        assert!(compute(&p, &analog(&[[0.; 6]])).unwrap_err().to_string().contains("channel 10"));
        assert!(compute(&plate(6), &analog(&[[0.; 6]])).unwrap_err().to_string().contains("type 6"));
    }
}
