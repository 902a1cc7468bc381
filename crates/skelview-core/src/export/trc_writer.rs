//! TRC out (`skelview convert capture.c3d markers.trc`): markers in the file's own units and
//! axes, gaps as empty fields, and the eight header fields OpenSim reads. A motion without
//! markers writes its joints' positions as virtual markers, in metres with Y up.

use std::io::Write;

use crate::core::{Interpolation, Motion, PoseAt, Sampler};

/// Writes `m` as TRC; `name` is the file name written on the first line.
pub fn write_trc(m: &Motion, name: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let rate = m.clip.fps();
    let frames = m.clip.num_frames().max(1);
    let (labels, first_frame): (Vec<String>, u32) = match &m.capture {
        Some(c) => (c.marker_indices().iter().map(|&i| c.points[i].label.clone()).collect(), c.first_frame),
        None => (m.skeleton.joints().iter().map(|j| j.name.clone()).collect(), 1),
    };
    let unit = m.capture.as_ref().map_or_else(|| "m".to_owned(), |c| c.unit.clone());
    let rate = if rate > 0.0 { rate } else { 1.0 };
    writeln!(out, "PathFileType\t4\t(X/Y/Z)\t{name}")?;
    writeln!(out, "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames")?;
    writeln!(out, "{rate}\t{rate}\t{frames}\t{}\t{unit}\t{rate}\t{first_frame}\t{frames}", labels.len())?;
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    write!(out, "Frame#\tTime")?;
    for l in &labels {
        write!(out, "\t{}\t\t", clean(l))?;
    }
    writeln!(out)?;
    write!(out, "\t")?;
    for k in 1..=labels.len() {
        write!(out, "\tX{k}\tY{k}\tZ{k}")?;
    }
    writeln!(out, "\n")?;
    let mut sampler = Sampler::default();
    let markers = m.capture.as_ref().map(|c| c.marker_indices());
    let mut row = String::new();
    for f in 0..frames {
        row.clear();
        use std::fmt::Write as _;
        let _ = write!(row, "{}\t{:.6}", f as u32 + first_frame, f as f64 / rate);
        match (&m.capture, &markers) {
            (Some(c), Some(markers)) => {
                for &p in markers {
                    match c.position(f, p) {
                        Some(v) => {
                            let _ = write!(row, "\t{}\t{}\t{}", v.x, v.y, v.z);
                        }
                        None => row.push_str("\t\t\t"),
                    }
                }
            }
            _ => {
                let at = if m.clip.num_frames() == 0 { PoseAt::Rest } else { PoseAt::Frame(f) };
                for p in sampler.positions(m, at, Interpolation::Nearest, m.display_from_file()) {
                    let _ = write!(row, "\t{}\t{}\t{}", p.x, p.y, p.z);
                }
            }
        }
        writeln!(out, "{row}")?;
    }
    Ok(())
}
