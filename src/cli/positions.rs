//! `skelview positions`: global joint positions as CSV.

use std::io::Write;
use std::path::PathBuf;

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

/// `(raw, vertices)`: file space; mesh vertices instead of joints.
pub(super) fn run(args: &Args, files: &[PathBuf], frames: &FrameList, (raw, vertices): (bool, bool), out: &mut dyn Write) -> ExitCode {
    // Joints need no meshes: a body's model is then read for its joints alone.
    let options = skelview_core::formats::LoadOptions { skip_meshes: !vertices, ..args.options.clone() };
    let motions = match load_all_with(&options, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    if vertices {
        return run_vertices(&motions, frames, raw, out);
    }
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
        if skelview_core::export::positions::write_csv(m, &list, raw, many, out, &mut |_, _| std::ops::ControlFlow::Continue(())).is_err() {
            // Broken pipe (e.g. `| head`): stop quietly.
            return 0;
        }
    }
    0
}

/// `positions --vertices`: the meshes' vertices of one file.
fn run_vertices(motions: &[skelview_core::core::Motion], frames: &FrameList, raw: bool, out: &mut dyn Write) -> ExitCode {
    let [m] = motions else {
        eprintln!("positions --vertices reads one file at a time");
        return 2;
    };
    let name = m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default();
    if m.meshes.is_none() {
        eprintln!("{name}: no meshes (info lists a file's meshes)");
        return 1;
    }
    let list = match resolve(frames, m.clip.num_frames()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{name}: {e}");
            return 2;
        }
    };
    let _ = writeln!(out, "mesh,vertex,frame,x,y,z");
    // A broken pipe (`| head`) stops quietly.
    let _ = skelview_core::export::vertices::write_csv(m, &list, raw, out);
    0
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
