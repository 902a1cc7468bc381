//! `skelview convert INPUT... OUTPUT.bvh|.glb|.gltf|.trc|.mot [--order ZXY]`: any loaded
//! motion as BVH, as glTF 2.0 with every take of the file, or as TRC markers; a capture's
//! force platforms as an OpenSim MOT.

use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use skelview_core::export::BvhWriteOptions;
use skelview_core::export::files::{WriteError, write_file, write_gltf};

pub(super) fn run(args: &Args, inputs: &[PathBuf], output: &Path, options: &BvhWriteOptions) -> ExitCode {
    let motions = match load_all(args, inputs) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let [motion] = motions.as_slice() else {
        eprintln!("skelview: convert takes one motion (an ASF with its AMC counts as one), got {}", motions.len());
        return 2;
    };
    if output.extension().is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf")) {
        return gltf(args, inputs, output, motion);
    }
    match write_file(motion, output, options) {
        Ok(()) => {
            let frames = motion.clip.num_frames().max(1);
            let what = match output.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).as_deref() {
                Some("trc") if motion.capture.is_some() => format!("{} markers, {frames} frames", motion.skeleton.len()),
                Some("trc") => format!("{} joints as virtual markers, metres, Y up, {frames} frames", motion.skeleton.len()),
                Some("mot") => {
                    let c = motion.capture.as_deref();
                    let (plates, samples, rate) = c.map_or((0, 0, 0.0), |c| (c.plates.len(), c.analog.samples(), c.analog.rate_hz));
                    format!("{plates} force platforms, {samples} samples at {rate} Hz")
                }
                _ => format!("{} joints, {frames} frames, rotations {}", motion.skeleton.len(), options.order.iter().collect::<String>()),
            };
            eprintln!("wrote {} ({what})", output.display());
            0
        }
        Err(e @ WriteError::Io(_)) => {
            eprintln!("{}: {e}", output.display());
            2
        }
        Err(e) => {
            eprintln!("skelview: {}: {e}", motion.source.paths.last().map_or(String::new(), |p| p.display().to_string()));
            2
        }
    }
}

/// Writes every take of the input (or the one `--take` names) as one glTF animation each.
#[allow(clippy::needless_range_loop)] // `i` is the take's index, not only a position in `names`
fn gltf(args: &Args, inputs: &[PathBuf], output: &Path, first: &skelview_core::core::Motion) -> ExitCode {
    use skelview_core::export::gltf_writer::{Animation, take_names};
    let names = take_names(first);
    let mut others = Vec::new();
    if args.options.take.is_none() && first.source.takes.len() > 1 {
        for i in 0..first.source.takes.len() {
            if Some(i) == first.source.take {
                continue;
            }
            let mut one = args.clone();
            one.options.take = Some(i.to_string());
            match load_all(&one, inputs) {
                Ok(mut m) if m.len() == 1 && m[0].skeleton.len() == first.skeleton.len() => others.push((i, m.remove(0))),
                Ok(_) => eprintln!("skelview: take {} has another skeleton; left out", names[i]),
                Err(e) => return fail(&e),
            }
        }
    }
    let chosen = first.source.take.unwrap_or(0);
    let mut animations = vec![Animation { name: names.get(chosen).cloned().unwrap_or_else(|| names[0].clone()), motion: first }];
    animations.extend(others.iter().map(|(i, m)| Animation { name: names[*i].clone(), motion: m }));
    let written = write_gltf(output, &animations);
    match written {
        Ok(()) => {
            let takes: Vec<&str> = animations.iter().map(|a| a.name.as_str()).collect();
            eprintln!("wrote {} ({} joints, takes: {})", output.display(), first.skeleton.len(), takes.join(", "));
            0
        }
        Err(e @ WriteError::Gltf(_)) => {
            eprintln!("skelview: {}: {e}", output.display());
            1
        }
        Err(e) => {
            eprintln!("{}: {e}", output.display());
            2
        }
    }
}
