//! `skelview qa`: check captures for artifacts, as a table or JSON lines, with an exit code
//! a capture-ingestion pipeline can gate on.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::json;

use super::error::CliError;
use super::inputs::{Input, inputs};
use super::{Args, ExitCode};
use skelview_core::core::Motion;
use skelview_core::formats::file_format::Role;
use skelview_core::formats::{self, LoadError, Quiet, Sequential, table};
use skelview_core::qa::{self, Kind, Report, Thresholds};

/// What `qa` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct QaOptions {
    /// Kinds looked for.
    pub kinds: Vec<Kind>,
    /// Kinds that make the exit code 1.
    pub fail_on: Vec<Kind>,
    /// A TOML file of thresholds.
    pub thresholds: Option<PathBuf>,
    /// JSON lines instead of a table.
    pub json: bool,
}

/// Whether a file found in a folder is checked: files named as a motion format, except an
/// `.asf` that the `.amc` files beside it will load.
pub(super) fn keep_in_folder(f: &Path, found: &[PathBuf]) -> bool {
    let role = |f: &Path| table::by_name(f).map(|fmt| fmt.role(f));
    match role(f) {
        Some(Role::Skeleton) => !found.iter().any(|g| g.parent() == f.parent() && role(g) == Some(Role::NeedsSkeleton)),
        Some(_) => true,
        None => false,
    }
}

/// What is kept of a checked file: its printed report and its counts. The clip itself is
/// dropped as soon as it is checked, so memory is bounded by the files in flight (one per
/// core), not by the folder.
struct Checked<'a> {
    bytes: u64,
    result: Result<Printed, Unread<'a>>,
}

/// Why a file was not checked: its request was refused before loading (kept by the input), or
/// its load failed.
enum Unread<'a> {
    Request(&'a LoadError),
    Load(LoadError),
}

impl std::fmt::Display for Unread<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Request(e) => e.fmt(f),
            Self::Load(e) => e.fmt(f),
        }
    }
}

struct Printed {
    text: Vec<u8>,
    kinds: Vec<Kind>,
    failing: bool,
}

fn check_file<'a>(input: &'a Input, args: &Args, options: &QaOptions, thresholds: &Thresholds, parallel_parse: bool) -> Checked<'a> {
    let path = &input.path;
    let Analysed { bytes, result } = analyse_file(input, args, options, thresholds, parallel_parse);
    let result = result.map(|(m, r)| {
        let mut text = Vec::new();
        if options.json {
            write_json(&mut text, path, &m, &r);
        } else {
            write_table(&mut text, path, &m, &r);
        }
        let failing = r.findings.iter().any(|f| options.fail_on.contains(&f.kind));
        Printed { text, kinds: r.findings.iter().map(|f| f.kind).collect(), failing }
    });
    Checked { bytes, result }
}

/// The loaded clip and its report.
struct Analysed<'a> {
    bytes: u64,
    result: Result<(Motion, Report), Unread<'a>>,
}

fn analyse_file<'a>(input: &'a Input, args: &Args, options: &QaOptions, thresholds: &Thresholds, parallel_parse: bool) -> Analysed<'a> {
    let bytes = input.bytes();
    let loaded = match &input.request {
        Ok(r) if parallel_parse => formats::load(r, &args.options, &skelview_core::formats::Rayon, &mut Quiet).map_err(Unread::Load),
        Ok(r) => formats::load(r, &args.options, &Sequential, &mut Quiet).map_err(Unread::Load),
        Err(e) => Err(Unread::Request(e)),
    };
    let result = loaded.map(|m| {
        let report = qa::analyse(&m, thresholds, &options.kinds, &|_| {});
        (m, report)
    });
    Analysed { bytes, result }
}

fn take_name(m: &Motion) -> Option<&str> {
    m.source.take.and_then(|i| m.source.takes.get(i)).map(|t| t.name.as_str())
}

fn write_table(out: &mut dyn Write, path: &Path, m: &Motion, r: &Report) {
    let take = take_name(m).map_or(String::new(), |t| format!(" (take {t})"));
    let _ = writeln!(out, "{}{take}: {} findings, {} frames, {:.2} s", path.display(), r.findings.len(), r.frames, r.duration_secs());
    for v in &r.neutral {
        let _ = writeln!(out, "  {}", v.summary(&m.skeleton));
    }
    if !r.findings.is_empty() {
        let _ = writeln!(out, "  {:<13} {:<22} {:<14} {:>9} {:>10}  message", "kind", "joint", "frames", "value", "threshold");
    }
    for f in &r.findings {
        let frames = if f.start_frame == f.end_frame { f.start_frame.to_string() } else { format!("{}-{}", f.start_frame, f.end_frame) };
        let _ = writeln!(
            out,
            "  {:<13} {:<22} {:<14} {:>9} {:>10}  {}",
            f.kind.name(),
            qa::joint_name(m, f.joint),
            frames,
            qa::shown(f.value, f.unit),
            qa::shown(f.threshold, f.unit),
            f.message
        );
    }
}

fn write_json(out: &mut dyn Write, path: &Path, m: &Motion, r: &Report) {
    for record in qa::json_records(&path.display().to_string(), m, r) {
        let _ = writeln!(out, "{record}");
    }
}

fn read_thresholds(options: &QaOptions) -> Result<Thresholds, CliError> {
    match &options.thresholds {
        None => Ok(Thresholds::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|source| CliError::ThresholdsFile { path: p.clone(), source })?;
            Thresholds::from_toml(&text).map_err(|source| CliError::Thresholds { path: p.clone(), source })
        }
    }
}

/// `--print-thresholds`: the thresholds in effect (defaults, or the file's over them) as TOML.
pub(super) fn print_thresholds(options: &QaOptions, out: &mut dyn Write) -> ExitCode {
    match read_thresholds(options) {
        Ok(t) => {
            let _ = write!(out, "{}", t.to_toml());
            0
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

/// Runs `qa`; exit 0 when no finding of the `fail_on` kinds, 1 when there is one, 2 when a
/// file could not be read (or the thresholds file is bad).
pub(super) fn run(args: &Args, paths: &[PathBuf], options: &QaOptions, out: &mut dyn Write) -> ExitCode {
    let thresholds = match read_thresholds(options) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let started = Instant::now();
    let files = inputs(paths, &keep_in_folder);
    let progress = super::progress::bar(files.len() as u64, "checking");
    // One file: its parse uses every core. Several: one file per core.
    let single = files.len() == 1;
    let checked: Vec<Checked> = files
        .par_iter()
        .map(|input| {
            let c = check_file(input, args, options, &thresholds, single);
            progress.inc(1);
            c
        })
        .collect();
    progress.finish_and_clear();
    let (mut unreadable, mut failing, mut bytes) = (0, 0, 0u64);
    let mut totals: std::collections::BTreeMap<Kind, usize> = options.kinds.iter().map(|&k| (k, 0)).collect();
    for (c, path) in checked.iter().zip(files.iter().map(|i| &i.path)) {
        bytes += c.bytes;
        match &c.result {
            Err(message) => {
                unreadable += 1;
                if options.json {
                    let _ =
                        writeln!(out, "{}", json!({"file": path.display().to_string(), "kind": "error", "message": message.to_string()}));
                } else {
                    let _ = writeln!(out, "{message}");
                }
            }
            Ok(p) => {
                let _ = out.write_all(&p.text);
                for k in &p.kinds {
                    *totals.entry(*k).or_default() += 1;
                }
                failing += usize::from(p.failing);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let counts: Vec<String> = totals.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
    let summary = format!(
        "checked {} files ({:.1} MB) in {secs:.2} s ({:.0} files/s, {:.0} MB/s): {}; {unreadable} unreadable",
        checked.len(),
        bytes as f64 / 1e6,
        checked.len() as f64 / secs,
        bytes as f64 / 1e6 / secs,
        counts.join(", ")
    );
    if options.json {
        eprintln!("{summary}");
    } else {
        let _ = writeln!(out, "{summary}");
    }
    if unreadable > 0 {
        2
    } else if failing > 0 {
        1
    } else {
        0
    }
}
