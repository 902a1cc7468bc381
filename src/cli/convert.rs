//! `skelview convert INPUT... OUTPUT.bvh [--order ZXY]`: any loaded motion as BVH.

use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use crate::export::{BvhWriteOptions, write_atomically, write_bvh};

pub(super) fn run(args: &Args, inputs: &[PathBuf], output: &Path, options: &BvhWriteOptions) -> ExitCode {
    let motions = match load_all(args, inputs) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let [motion] = motions.as_slice() else {
        eprintln!("skelview: convert takes one motion (an ASF with its AMC counts as one), got {}", motions.len());
        return 2;
    };
    match write_atomically(output, |out| write_bvh(motion, options, out)) {
        Ok(()) => {
            eprintln!(
                "wrote {} ({} joints, {} frames, rotations {})",
                output.display(),
                motion.skeleton.len(),
                motion.clip.num_frames().max(1),
                options.order.iter().collect::<String>()
            );
            0
        }
        Err(e) => {
            eprintln!("{}: cannot write: {e}", output.display());
            2
        }
    }
}
