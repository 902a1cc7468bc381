//! `skelview positions`: global joint positions as CSV or a NumPy array.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use skelview_core::export::positions::{PositionsFormat, write_csv, write_npy};

use super::args::FrameList;
use super::{Args, ExitCode, fail, load_all_with};

/// Resolves the requested frames against a clip of `n` frames (a rest-pose-only motion has
/// one frame, 0).
pub(super) fn resolve(frames: &FrameList, n: usize) -> Result<Vec<usize>, skelview_core::core::FrameOutOfRange> {
    let n = n.max(1);
    match frames {
        FrameList::All => Ok((0..n).collect()),
        FrameList::Some(list) => skelview_core::core::frame_indices(list, n),
    }
}

/// Why writing stopped: a message already printed (with its exit code), or the output failed.
enum Stop {
    Said(ExitCode),
    Io(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        Stop::Io(e)
    }
}

/// `(raw, vertices)`: file space; mesh vertices instead of joints. `output`: a file to write
/// (`.npy` or CSV) instead of `out`.
pub(super) fn run(
    args: &Args,
    files: &[PathBuf],
    frames: &FrameList,
    (raw, vertices): (bool, bool),
    output: Option<&Path>,
    out: &mut dyn Write,
) -> ExitCode {
    let format = output.map_or(PositionsFormat::Csv, PositionsFormat::of);
    if format == PositionsFormat::Npy && (vertices || files.len() > 1) {
        eprintln!("positions -o FILE.npy writes one file's joints (for --vertices or several files, write CSV)");
        return 2;
    }
    // Joints need no meshes: a body's model is then read for its joints alone.
    let options = skelview_core::formats::LoadOptions { skip_meshes: !vertices, ..args.options.clone() };
    let motions = match load_all_with(&options, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let write = |w: &mut dyn Write| -> Result<(), Stop> {
        match (vertices, format) {
            (true, _) => write_vertices(&motions, frames, raw, w),
            (false, PositionsFormat::Npy) => {
                let m = &motions[0];
                let list = frames_of(m, frames)?;
                Ok(write_npy(m, &list, raw, w, &mut |_, _| ControlFlow::Continue(()))?)
            }
            (false, PositionsFormat::Csv) => write_joints(&motions, frames, raw, w),
        }
    };
    let Some(path) = output else {
        // Broken pipe (e.g. `| head`): stop quietly.
        return match write(out) {
            Err(Stop::Said(code)) => code,
            _ => 0,
        };
    };
    let mut said = None;
    let written = skelview_core::export::write_atomically(path, |w| match write(w) {
        Ok(()) => Ok(()),
        Err(Stop::Io(e)) => Err(e),
        Err(Stop::Said(code)) => {
            said = Some(code);
            Err(std::io::Error::other("stopped"))
        }
    });
    match (said, written) {
        (Some(code), _) => code,
        (None, Ok(())) => 0,
        (None, Err(e)) => {
            eprintln!("{}: {e}", path.display());
            1
        }
    }
}

/// The frames asked for of `m`, or the message said.
fn frames_of(m: &skelview_core::core::Motion, frames: &FrameList) -> Result<Vec<usize>, Stop> {
    resolve(frames, m.clip.num_frames()).map_err(|e| {
        eprintln!("{}: {e}", m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default());
        Stop::Said(2)
    })
}

/// `joint,frame,x,y,z` rows of every motion (with a `file` column for several).
fn write_joints(motions: &[skelview_core::core::Motion], frames: &FrameList, raw: bool, out: &mut dyn Write) -> Result<(), Stop> {
    let many = motions.len() > 1;
    writeln!(out, "{}joint,frame,x,y,z", if many { "file," } else { "" })?;
    for m in motions {
        let list = frames_of(m, frames)?;
        write_csv(m, &list, raw, many, out, &mut |_, _| ControlFlow::Continue(()))?;
    }
    Ok(())
}

/// `positions --vertices`: the meshes' vertices of one file.
fn write_vertices(motions: &[skelview_core::core::Motion], frames: &FrameList, raw: bool, out: &mut dyn Write) -> Result<(), Stop> {
    let [m] = motions else {
        eprintln!("positions --vertices reads one file at a time");
        return Err(Stop::Said(2));
    };
    let name = m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default();
    if m.meshes.is_none() {
        eprintln!("{name}: no meshes (info lists a file's meshes)");
        return Err(Stop::Said(1));
    }
    let list = frames_of(m, frames)?;
    writeln!(out, "mesh,vertex,frame,x,y,z")?;
    Ok(skelview_core::export::vertices::write_csv(m, &list, raw, out)?)
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
    }
}
