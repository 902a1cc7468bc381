//! `skelview positions`: global joint positions as CSV.

use std::io::Write;
use std::path::PathBuf;

use super::args::FrameList;
use super::{Args, ExitCode, fail, load_all};
use crate::core::Motion;
use crate::core::pose::{self, GlobalPose, LocalPose};

/// Resolves the requested frames against a clip of `n` frames (a rest-pose-only motion has
/// one frame, 0).
fn resolve(frames: &FrameList, n: usize) -> Result<Vec<usize>, String> {
    let n = n.max(1);
    match frames {
        FrameList::All => Ok((0..n).collect()),
        FrameList::Some(list) => list
            .iter()
            .map(|&f| {
                let i = if f < 0 { n as i64 + f } else { f };
                if (0..n as i64).contains(&i) {
                    Ok(i as usize)
                } else {
                    Err(format!("frame {f} is out of range (the clip has {n} frames)"))
                }
            })
            .collect(),
    }
}

pub(super) fn run(args: &Args, files: &[PathBuf], frames: &FrameList, raw: bool, out: &mut dyn Write) -> ExitCode {
    let motions = match load_all(args, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let many = motions.len() > 1;
    let _ = writeln!(out, "{}joint,frame,x,y,z", if many { "file," } else { "" });
    for m in &motions {
        let list = match resolve(frames, m.clip.num_frames()) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{}: {e}", m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default());
                return 2;
            }
        };
        if write_rows(m, &list, raw, many, out).is_err() {
            // Broken pipe (e.g. `| head`): stop quietly.
            return 0;
        }
    }
    0
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() }
}

fn write_rows(m: &Motion, frames: &[usize], raw: bool, with_file: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let scale = if raw { 1.0 } else { m.metres_per_raw_unit() };
    let file = m.source.paths.last().map(|p| csv_field(&p.display().to_string()) + ",").unwrap_or_default();
    let names: Vec<String> = m.skeleton.joints().iter().map(|j| csv_field(&j.name)).collect();
    for &f in frames {
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
    fn negative_frames_count_from_the_end() {
        assert_eq!(resolve(&FrameList::Some(vec![0, 1, -1]), 10), Ok(vec![0, 1, 9]));
        assert!(resolve(&FrameList::Some(vec![50]), 10).is_err());
        assert!(resolve(&FrameList::Some(vec![-11]), 10).is_err());
        assert_eq!(resolve(&FrameList::All, 0), Ok(vec![0]));
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
