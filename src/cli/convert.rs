//! `skelview convert INPUT... OUTPUT.bvh|.glb|.gltf|.trc|.mot [--order ZXY]`: any loaded
//! motion as BVH, as glTF 2.0 with every take of the file, or as TRC markers; a capture's
//! force platforms as an OpenSim MOT.

use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use skelview_core::export::{BvhWriteOptions, write_atomically, write_bvh};

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
    let ext = output.extension().map(|e| e.to_ascii_lowercase());
    if ext.as_deref() == Some(std::ffi::OsStr::new("trc")) {
        return trc(output, motion);
    }
    if ext.as_deref() == Some(std::ffi::OsStr::new("mot")) {
        return mot(output, motion);
    }
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

/// Writes every take of the input (or the one `--take` names) as one glTF animation each.
#[allow(clippy::needless_range_loop)] // `i` is the take's index, not only a position in `names`
fn gltf(args: &Args, inputs: &[PathBuf], output: &Path, first: &skelview_core::core::Motion) -> ExitCode {
    use skelview_core::export::gltf_writer::{Animation, document, take_names, write_glb};
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
    let (mut doc, bin) = match document(&animations) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skelview: {}: {e}", output.display());
            return 1;
        }
    };
    let written = if output.extension().is_some_and(|e| e.eq_ignore_ascii_case("glb")) {
        write_atomically(output, |out| write_glb(&doc, &bin, out))
    } else {
        let bin_path = output.with_extension("bin");
        let uri = bin_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        doc["buffers"][0]["uri"] = serde_json::json!(uri);
        write_atomically(&bin_path, |out| out.write_all(&bin))
            .and_then(|()| write_atomically(output, |out| serde_json::to_writer_pretty(out, &doc).map_err(std::io::Error::other)))
    };
    match written {
        Ok(()) => {
            let takes: Vec<&str> = animations.iter().map(|a| a.name.as_str()).collect();
            eprintln!("wrote {} ({} joints, takes: {})", output.display(), first.skeleton.len(), takes.join(", "));
            0
        }
        Err(e) => {
            eprintln!("{}: cannot write: {e}", output.display());
            2
        }
    }
}

fn file_name(output: &Path) -> String {
    output.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

fn trc(output: &Path, motion: &skelview_core::core::Motion) -> ExitCode {
    use skelview_core::export::trc_writer::write_trc;
    match write_atomically(output, |out| write_trc(motion, &file_name(output), out)) {
        Ok(()) => {
            let what = if motion.capture.is_some() { "markers" } else { "joints as virtual markers, metres, Y up" };
            eprintln!("wrote {} ({} {what}, {} frames)", output.display(), motion.skeleton.len(), motion.clip.num_frames().max(1));
            0
        }
        Err(e) => {
            eprintln!("{}: cannot write: {e}", output.display());
            2
        }
    }
}

fn mot(output: &Path, motion: &skelview_core::core::Motion) -> ExitCode {
    use skelview_core::export::mot_writer::{DEFAULT_THRESHOLD_N, MotError, write_mot};
    let Some(capture) = &motion.capture else {
        eprintln!(
            "skelview: {}: a .mot holds force platforms, and this motion is not a capture with any",
            motion.source.paths.last().map_or(String::new(), |p| p.display().to_string())
        );
        return 2;
    };
    let mut failure = None;
    let written = write_atomically(output, |out| {
        write_mot(capture, &file_name(output), DEFAULT_THRESHOLD_N, out).map_err(|e| match e {
            MotError::Io(io) => io,
            other => {
                let message = other.to_string();
                failure = Some(message.clone());
                std::io::Error::other(message)
            }
        })
    });
    match (written, failure) {
        (Ok(()), _) => {
            eprintln!(
                "wrote {} ({} force platforms, {} samples at {} Hz)",
                output.display(),
                capture.plates.len(),
                capture.analog.samples(),
                capture.analog.rate_hz
            );
            0
        }
        (Err(_), Some(message)) => {
            eprintln!("skelview: {}: {message}", motion.source.paths.last().map_or(String::new(), |p| p.display().to_string()));
            2
        }
        (Err(e), None) => {
            eprintln!("{}: cannot write: {e}", output.display());
            2
        }
    }
}
