//! Global joint positions as CSV (`joint,frame,x,y,z`), shared by `skelview positions` and
//! the viewer's File > Export positions.

use std::io::Write;
use std::ops::ControlFlow;

use crate::core::Motion;
use crate::core::pose::{self, GlobalPose, LocalPose};

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
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let scale = if raw { 1.0 } else { m.metres_per_raw_unit() };
    let file = m.source.paths.last().map(|p| csv_field(&p.display().to_string()) + ",").unwrap_or_default();
    let names: Vec<String> = m.skeleton.joints().iter().map(|j| csv_field(&j.name)).collect();
    for (k, &f) in frames.iter().enumerate() {
        if k % 256 == 0 && progress(k, frames.len()).is_break() {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "cancelled"));
        }
        pose::frame_pose(&m.skeleton, &m.clip, f, &mut local);
        pose::global_pose(&m.skeleton, &local, &mut global);
        for (i, name) in names.iter().enumerate() {
            let mut p = global.position(i);
            if !raw {
                p = m.source.up_axis.to_y_up(p * scale);
            }
            let prefix = if with_file { file.as_str() } else { "" };
            writeln!(out, "{prefix}{name},{f},{},{},{}", p.x, p.y, p.z)?;
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
