//! `skelview check`: validate files and folders, several files at once.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::inputs::{Input, inputs};
use super::{Args, ExitCode};
use skelview_core::formats::{self, LoadError, Quiet, Sequential, table};

/// One line of the report.
enum Outcome {
    Ok(String),
    Warnings(String),
    Failed(String),
    Skipped(String),
}

fn describe_ok(path: &Path, m: &skelview_core::core::Motion) -> String {
    format!("{}: {} joints, {} frames @ {:.4} fps", path.display(), m.skeleton.len(), m.clip.num_frames(), m.clip.fps())
}

fn check_one(input: &Input, args: &Args) -> Outcome {
    let path = &input.path;
    if input.explicit && !path.exists() {
        return Outcome::Failed(format!("{}: no such file or folder", path.display()));
    }
    // Whether it is a kind of file skelview does not read, and the message.
    let failed = |e: &LoadError| (matches!(e, LoadError::Unsupported { .. }), e.to_string());
    let result = match &input.request {
        Ok(r) => formats::load(r, &args.options, &Sequential, &mut Quiet).map_err(|e| failed(&e)),
        Err(e) => Err(failed(e)),
    };
    match result {
        Ok(m) if m.warnings.is_empty() => Outcome::Ok(describe_ok(path, &m)),
        Ok(m) => {
            let more = if m.warnings.len() > 1 { format!(" (+{} more)", m.warnings.len() - 1) } else { String::new() };
            Outcome::Warnings(format!("{}{more}; {}", m.warnings[0], describe_ok(path, &m)))
        }
        Err((true, message)) if !input.explicit && table::by_name(path).is_none() => Outcome::Skipped(message),
        Err((_, message)) => Outcome::Failed(message),
    }
}

pub(super) fn run(args: &Args, paths: &[PathBuf], out: &mut dyn Write) -> ExitCode {
    // In a folder, only files named as a format are checked; a file given by name is also
    // recognised by its content, and paired with the skeleton given beside it.
    let files = inputs(paths, &|f, _| table::by_name(f).is_some());
    // Files are checked in parallel (rayon's pool, one thread per core); each file is parsed
    // on one thread, so memory stays bounded by the files in flight, not the folder.
    let started = std::time::Instant::now();
    let progress = super::progress::bar(files.len() as u64, "checking");
    let results: Vec<(Option<Outcome>, u64)> = files
        .par_iter()
        .map(|input| {
            let outcome = check_one(input, args);
            progress.inc(1);
            (Some(outcome), input.bytes())
        })
        .collect();
    progress.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let bytes: u64 = results.iter().map(|r| r.1).sum();
    let (mut ok, mut warned, mut failed, mut skipped) = (0, 0, 0, 0);
    for outcome in results.into_iter().filter_map(|r| r.0) {
        let line = match outcome {
            Outcome::Ok(s) => {
                ok += 1;
                format!("ok       {s}")
            }
            Outcome::Warnings(s) => {
                warned += 1;
                format!("warning  {s}")
            }
            Outcome::Failed(s) => {
                failed += 1;
                format!("error    {s}")
            }
            Outcome::Skipped(s) => {
                skipped += 1;
                format!("skipped  {s}")
            }
        };
        let _ = writeln!(out, "{line}");
    }
    let n = ok + warned + failed + skipped;
    let _ = writeln!(
        out,
        "checked {n} files: {ok} ok, {warned} with warnings, {failed} failed, {skipped} skipped ({:.1} MB in {secs:.2} s: {:.0} files/s, {:.0} MB/s)",
        bytes as f64 / 1e6,
        n as f64 / secs,
        bytes as f64 / 1e6 / secs
    );
    if failed > 0 { 1 } else { 0 }
}
