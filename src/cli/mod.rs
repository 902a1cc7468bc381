//! The command line: every subcommand, and the choice between them and the viewer (which
//! `main.rs` starts; the command line never imports the window).
//!
//! Exit codes: 0 success, 1 `check` found failures, 2 an error (bad file or usage).

mod args;
mod capture_info;
mod check;
mod command;
mod compare;
mod convert;
mod desktop;
#[cfg(windows)]
mod desktop_windows;
pub mod docs;
mod edit;
mod edit_args;
pub mod error;
mod formats_cmd;
mod info;
mod inputs;
mod measure;
mod positions;
mod progress;
mod qa;
mod render_args;
mod render_cmd;
mod retarget;
mod values;

use std::io::Write;
use std::path::PathBuf;

pub use args::{Args, Command, parse_args};

use skelview_core::core::Motion;
use skelview_core::formats::{self, LoadError, Quiet};

/// Result of a command: the exit code.
pub type ExitCode = i32;

/// What `main` does next: exit with a code, or open the viewer.
#[derive(Debug)]
pub enum Next {
    /// A command ran; exit with this code.
    Exit(ExitCode),
    /// Open the viewer on these files (the bundled sample when empty).
    Viewer(Vec<PathBuf>, skelview_core::formats::LoadOptions, crate::app::Start),
}

/// Runs the command line; returns the exit code, or asks for the viewer.
pub fn run(argv: Vec<String>) -> Next {
    let args = match parse_args(argv) {
        Ok(a) => a,
        Err(e) => {
            // clap's own message: usage errors on stderr (exit 2), --help and --version on stdout.
            let _ = e.print();
            return Next::Exit(e.exit_code());
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let code = match &args.command {
        Command::View { files, select, curves, measure } => {
            let start = crate::app::Start { select: select.clone(), curves: *curves, measure: measure.clone() };
            return Next::Viewer(files.clone(), args.options, start);
        }
        Command::Formats { json } => formats_cmd::run(*json, &mut out),
        Command::Completions(shell) => {
            formats_cmd::completions(*shell, &mut out);
            0
        }
        Command::Manpage => match clap_mangen::Man::new(args::cli_command()).render(&mut out) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skelview: {e}");
                2
            }
        },
        Command::DesktopFiles { dir, exe } => match desktop::write_files(dir, exe) {
            Ok(lines) => {
                for l in lines {
                    let _ = writeln!(out, "{l}");
                }
                0
            }
            Err(e) => {
                eprintln!("skelview: {e}");
                2
            }
        },
        Command::Desktop(install) => match if *install { desktop::install() } else { desktop::uninstall() } {
            Ok(lines) => {
                for l in lines {
                    let _ = writeln!(out, "{l}");
                }
                0
            }
            Err(e) => {
                eprintln!("skelview: {e}");
                2
            }
        },
        Command::Info { files, gpu: true, .. } if files.is_empty() => info::gpu(&mut out),
        Command::Info { files, json, mnm, humanoid, map, save_map, gpu } => {
            if *gpu {
                info::gpu(&mut out);
            }
            let bones = humanoid.then(|| info::Humanoid { map: map.clone(), save: save_map.clone() });
            info::run(&args, files, *json, mnm.as_deref(), bones.as_ref(), &mut out)
        }
        Command::Positions { files, frames, raw, vertices, output } => {
            positions::run(&args, files, frames, (*raw, *vertices), output.as_deref(), &mut out)
        }
        Command::Measure { files, measures, frames } => measure::run(&args, files, measures, frames, &mut out),
        Command::Check { paths } => check::run(&args, paths, &mut out),
        Command::Qa { print_thresholds: true, options, .. } => qa::print_thresholds(options, &mut out),
        Command::Qa { paths, options, .. } => qa::run(&args, paths, options, &mut out),
        Command::Compare { files, align, offset_secs, csv, mnm, humanoid } => {
            let pairing = if *humanoid { compare::Pairing::Humanoid } else { compare::Pairing::Names(mnm.as_deref()) };
            compare::run(&args, files, *align, *offset_secs, *csv, pairing, &mut out)
        }
        Command::Convert { inputs, output, options } => convert::run(&args, inputs, output, options),
        Command::Edit(edit) => edit::run(&args, edit, &mut out),
        Command::Retarget(a) => retarget::run(&args, a),
        Command::Render { files, options } => render_cmd::run(&args, files, options),
        Command::Thumbnail { inputs, output, size } => render_cmd::thumbnail(&args, inputs, output, *size),
    };
    let _ = out.flush();
    Next::Exit(code)
}

/// Loads every motion named by `files` (the bundled sample when empty), reporting the first
/// error on stderr.
fn load_all(args: &Args, files: &[PathBuf]) -> Result<Vec<Motion>, LoadError> {
    load_all_with(&args.options, files)
}

/// [`load_all`] with `options`.
fn load_all_with(options: &formats::LoadOptions, files: &[PathBuf]) -> Result<Vec<Motion>, LoadError> {
    if files.is_empty() {
        return formats::load(&formats::sample_request(), options, &formats::Rayon, &mut Quiet).map(|m| vec![m]);
    }
    formats::open(files, options, &formats::Rayon)
}

/// Reads a joint-name map through the format table, with `file:line:col` on errors.
fn read_name_map(path: &std::path::Path) -> Result<skelview_core::formats::mnm::NameMap, LoadError> {
    skelview_core::formats::table::read_name_map(path)
}

/// Prints a load error as `file:line:col: message` and returns exit code 2.
fn fail(e: &LoadError) -> ExitCode {
    eprintln!("{e}");
    2
}
