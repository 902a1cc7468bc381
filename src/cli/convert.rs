//! `skelview convert INPUT... OUTPUT.bvh|.glb|.gltf [--order ZXY]`: any loaded motion as BVH,
//! or as glTF 2.0 with every take of the file.

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
