//! `skelview check`: validate files and folders, several files at once.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Args, ExitCode};
use skelview_core::formats::{self, LoadError, LoadRequest, Quiet, Sequential, table};

/// One line of the report.
enum Outcome {
    Ok(String),
    Warnings(String),
    Failed(String),
    Skipped(String),
}

/// Files under `path` (itself if a file), sorted, recursing into folders.
pub(super) fn walk(path: &Path, explicit: bool, out: &mut Vec<(PathBuf, bool)>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path).map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, false, out);
        }
    } else {
        out.push((path.to_owned(), explicit));
    }
}

fn describe_ok(path: &Path, m: &skelview_core::core::Motion) -> String {
    format!("{}: {} joints, {} frames @ {:.4} fps", path.display(), m.skeleton.len(), m.clip.num_frames(), m.clip.fps())
}

fn check_one(path: &Path, explicit: bool, args: &Args) -> Option<Outcome> {
    // In a folder, only files named as a format are checked; a file given by name is
    // also recognised by its content.
    let known = table::by_name(path).is_some() || (explicit && table::by_content(&formats::read_head(path)).is_some());
    if !known && !explicit {
        return None;
    }
    let request = LoadRequest::from_paths(&[path.to_owned()]).pop()?;
    let result = request.and_then(|r| formats::load(&r, &args.options, &Sequential, &mut Quiet));
    Some(match result {
        Ok(m) if m.warnings.is_empty() => Outcome::Ok(describe_ok(path, &m)),
        Ok(m) => {
            let more = if m.warnings.len() > 1 { format!(" (+{} more)", m.warnings.len() - 1) } else { String::new() };
            Outcome::Warnings(format!("{}{more}; {}", m.warnings[0], describe_ok(path, &m)))
        }
        Err(e @ LoadError::Unsupported { .. }) if !explicit && !known => Outcome::Skipped(e.to_string()),
        Err(e) => Outcome::Failed(e.to_string()),
    })
}

pub(super) fn run(args: &Args, paths: &[PathBuf], out: &mut dyn Write) -> ExitCode {
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            files.push((p.clone(), true));
            continue;
        }
        walk(p, true, &mut files);
    }
    // Files are checked in parallel (rayon's pool, one thread per core); each file is parsed
    // on one thread, so memory stays bounded by the files in flight, not the folder.
    let started = std::time::Instant::now();
    let progress = super::progress::bar(files.len() as u64, "checking");
    let results: Vec<(Option<Outcome>, u64)> = files
        .par_iter()
        .map(|(path, explicit)| {
            let outcome = if path.exists() {
                check_one(path, *explicit, args)
            } else {
                Some(Outcome::Failed(format!("{}: no such file or folder", path.display())))
            };
            progress.inc(1);
            let bytes = if outcome.is_some() { std::fs::metadata(path).map_or(0, |m| m.len()) } else { 0 };
            (outcome, bytes)
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
