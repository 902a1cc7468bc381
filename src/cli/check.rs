//! `skelview check`: validate files and folders, several files at once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Args, ExitCode};
use crate::formats::{self, FileKind, LoadError, LoadRequest, Quiet, Sequential};

/// One line of the report.
enum Outcome {
    Ok(String),
    Warnings(String),
    Failed(String),
    Skipped(String),
}

/// Files under `path` (itself if a file), sorted, recursing into folders.
fn walk(path: &Path, explicit: bool, out: &mut Vec<(PathBuf, bool)>) {
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

fn describe_ok(path: &Path, m: &crate::core::Motion) -> String {
    format!("{}: {} joints, {} frames @ {:.4} fps", path.display(), m.skeleton.len(), m.clip.num_frames(), m.clip.fps())
}

fn check_one(path: &Path, explicit: bool, args: &Args) -> Option<Outcome> {
    let kind = FileKind::detect(path, &[]);
    let kind = if kind == FileKind::Unknown && explicit {
        let head = std::fs::read(path).map(|b| b.into_iter().take(4096).collect::<Vec<u8>>()).unwrap_or_default();
        FileKind::detect(path, &head)
    } else {
        kind
    };
    let request = match kind {
        FileKind::Unknown if !explicit => return None,
        _ => LoadRequest::from_paths(&[path.to_owned()]).pop()?,
    };
    let result = request.and_then(|r| formats::load(&r, &args.options, &Sequential, &mut Quiet));
    Some(match result {
        Ok(m) if m.warnings.is_empty() => Outcome::Ok(describe_ok(path, &m)),
        Ok(m) => {
            let more = if m.warnings.len() > 1 { format!(" (+{} more)", m.warnings.len() - 1) } else { String::new() };
            Outcome::Warnings(format!("{}{more}; {}", m.warnings[0], describe_ok(path, &m)))
        }
        Err(e @ LoadError::Unsupported { .. }) if !explicit && kind == FileKind::Unknown => Outcome::Skipped(e.to_string()),
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
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..files.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    std::thread::scope(|s| {
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, explicit)) = files.get(i) else { break };
                let outcome = if path.exists() {
                    check_one(path, *explicit, args)
                } else {
                    Some(Outcome::Failed(format!("{}: no such file or folder", path.display())))
                };
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = outcome;
            }
        };
        for k in 1..workers {
            let _ = std::thread::Builder::new().name(format!("skelview-check-{k}")).spawn_scoped(s, work);
        }
        work();
    });
    let (mut ok, mut warned, mut failed, mut skipped) = (0, 0, 0, 0);
    for outcome in results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten() {
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
    let _ = writeln!(
        out,
        "checked {} files: {ok} ok, {warned} with warnings, {failed} failed, {skipped} skipped",
        ok + warned + failed + skipped
    );
    if failed > 0 { 1 } else { 0 }
}
