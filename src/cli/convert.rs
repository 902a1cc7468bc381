//! `skelview convert INPUT... OUTPUT [--order ZXY]`: any loaded motion in the format the
//! output's extension names, through the writers' table (`skelview formats` lists them); a
//! writer that holds every take (glTF) gets every take of the file.

use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use skelview_core::export::files::{WriteError, WriteOptions, Writer, writer_for};

pub(super) fn run(args: &Args, inputs: &[PathBuf], output: &Path, options: &WriteOptions) -> ExitCode {
    let motions = match load_all(args, inputs) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let [motion] = motions.as_slice() else {
        eprintln!("skelview: convert takes one motion (an ASF with its AMC counts as one), got {}", motions.len());
        return 2;
    };
    let Some(writer) = writer_for(output) else {
        let extension = output.extension().map_or_else(String::new, |e| e.to_string_lossy().into_owned());
        eprintln!("skelview: {}: {}", output.display(), WriteError::Extension(extension));
        return 2;
    };
    if writer.all_takes() {
        return all_takes(args, inputs, output, motion, writer, options);
    }
    match writer.write(motion, output, options) {
        Ok(()) => {
            eprintln!("wrote {} ({})", output.display(), writer.summary(motion, options));
            for loss in writer.losses(motion) {
                eprintln!("warning: {loss}");
            }
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

/// Writes every take of the input (or the one `--take` names) as one animation each.
#[allow(clippy::needless_range_loop)] // `i` is the take's index, not only a position in `names`
fn all_takes(
    args: &Args,
    inputs: &[PathBuf],
    output: &Path,
    first: &skelview_core::core::Motion,
    writer: &dyn Writer,
    options: &WriteOptions,
) -> ExitCode {
    use skelview_core::export::files::{Animation, take_names};
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
    let written = writer.write_takes(&animations, output, options);
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
