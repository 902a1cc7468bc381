//! Global joint positions as CSV (`joint,frame,x,y,z`), shared by `skelview positions` and
//! the viewer's File > Export positions.

use std::io::Write;
use std::ops::ControlFlow;

use crate::core::Motion;
use crate::core::batch::{FramePoser, Gaps, PositionSpace, positions_group};
use crate::core::clip_fk::LANES;

/// Quotes a CSV field when it needs it.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() }
}

/// Writes rows for `frames` (no header). `raw`: file units and axes, else metres Y-up.
/// `progress(done, total)` is called every 256 frames; `Break` stops with `Interrupted`.
pub fn write_csv(
    m: &Motion,
    frames: &[usize],
    raw: bool,
    with_file: bool,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> std::io::Result<()> {
    let space_from_file = if raw { glam::Mat4::IDENTITY } else { m.display_from_file() };
    let file = m.source.paths.last().map(|p| csv_field(&p.display().to_string()) + ",").unwrap_or_default();
    let prefix = if with_file { file.as_str() } else { "" };
    let names: Vec<String> = m.skeleton.joints().iter().map(|j| csv_field(&j.name)).collect();
    let (mut poser, gaps) = (FramePoser::new(m), Gaps::new(&m.skeleton, &m.clip));
    let width = names.len() * 3;
    let mut rows = vec![0f32; width * LANES];
    // A group of frames at a time, posed as `joint_positions` poses them (the same numbers).
    for (g, group) in frames.chunks(LANES).enumerate() {
        let k = g * LANES;
        if k.is_multiple_of(256) && progress(k, frames.len()).is_break() {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "cancelled"));
        }
        let rows = &mut rows[..group.len() * width];
        positions_group(m, &mut poser, &gaps, group, PositionSpace::World, space_from_file, rows);
        for (&f, row) in group.iter().zip(rows.chunks_exact(width.max(1))) {
            for (name, p) in names.iter().zip(row.chunks_exact(3)) {
                // Held values are for drawing; a position that rests on a missing value is not
                // data (NaN here): an empty field.
                if p[0].is_nan() {
                    writeln!(out, "{prefix}{name},{f},,,")?;
                } else {
                    writeln!(out, "{prefix}{name},{f},{},{},{}", p[0], p[1], p[2])?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("Hips"), "Hips");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
