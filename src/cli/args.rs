//! The command line's grammar, with clap (derive): subcommands with their own `--help`,
//! value validation, usage errors with exit code 2, completions and a man page from the
//! same definition. [`parse_args`] turns it into the plain [`Args`] the commands read.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub use super::command::{Args, Command, FrameList, MeasureByName, MeasureKind, Shell};
use super::error::ArgError;
use super::qa::QaOptions;
use super::values::{finite, has_ext};
use skelview_core::compare::Align;
use skelview_core::export::BvhWriteOptions;
use skelview_core::export::files::{WriteOptions, writer_for, written_extensions};
use skelview_core::formats::LoadOptions;
use skelview_core::qa::Kind;

/// The version and the commit it was built from (`skelview --version`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SKELVIEW_COMMIT"), ")");

/// The whole command line.
#[derive(Parser, Debug)]
#[command(
    name = "skelview",
    version = VERSION,
    about = "A real-time 3D skeleton viewer for motion-capture files",
    long_about = "A real-time 3D skeleton viewer for motion-capture files.\n\nWithout a subcommand, opens the viewer on FILE... (the bundled sample when none is given).",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    /// Files to open in the viewer (an ASF/AMC pair counts as one clip).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    load: LoadArgs,
    /// Register skelview for double-click and thumbnails (desktop entry, MIME types, icon).
    #[arg(long, conflicts_with_all = ["files", "uninstall_desktop"])]
    install_desktop: bool,
    /// Remove what --install-desktop wrote.
    #[arg(long, conflicts_with = "files")]
    uninstall_desktop: bool,
    /// Viewer: select this joint (a name as `positions` prints it) once the first file is in.
    #[arg(long, value_name = "JOINT")]
    select: Option<String>,
    /// Viewer: open the channel-curves window (of the selected joint).
    #[arg(long)]
    curves: bool,
    /// Viewer: open the Measure tool on one joint (speed), two (distance) or three (angle).
    #[arg(long, num_args = 1..=3, value_name = "JOINT")]
    measure: Vec<String>,
}

/// How files are read; accepted before or after any subcommand.
#[derive(clap::Args, Debug)]
struct LoadArgs {
    /// A format's own read option, KEY=VALUE (repeatable; `skelview formats` lists them). The
    /// options with a flag of their own (below: --bvh-positions, --amc-fps) take it too.
    #[arg(long = "format-option", global = true, value_name = "KEY=VALUE", value_parser = format_option)]
    format_options: Vec<(String, String)>,
    /// Which animation of a file that holds several (`info` lists them): a name or an index.
    #[arg(long, global = true, value_name = "NAME|INDEX")]
    take: Option<String>,
    /// Frame rate: FBX and glTF takes are sampled at it instead of the file's rate (glTF keys
    /// that share no rate: 30); `render` writes a video at it (default: the clip's, divided
    /// by the range's STEP).
    #[arg(long, global = true, value_name = "FPS", value_parser = positive)]
    fps: Option<f64>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum AlignArg {
    /// As loaded (metres, Y-up).
    None,
    /// Translate B so the first compared frames' roots coincide.
    Roots,
    /// Also turn B about the up axis so the roots face the same way.
    #[value(name = "roots+heading")]
    RootsHeading,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Format, joints, roots, frames, frame time and fps, units and up axis, warnings.
    Info {
        /// Files to describe (the bundled sample when none).
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// One JSON object per file (an array for several).
        #[arg(long)]
        json: bool,
        /// A Character Studio MNM name map: show each joint's standard name.
        #[arg(long, value_name = "MAP")]
        mnm: Option<PathBuf>,
        /// The humanoid bone map: which joint is each VRM humanoid bone (hips … toes, fingers),
        /// found from the file's own map, joint names or the tree's shape, and how.
        #[arg(long)]
        humanoid: bool,
        /// A humanoid bone map file (TOML, `[bones] hips = "Hips"`, or a Character Studio
        /// `.mnm` name map) over the one found (implies --humanoid).
        #[arg(long, value_name = "MAP.toml|MAP.mnm")]
        map: Option<PathBuf>,
        /// Write the humanoid bone map as TOML (implies --humanoid).
        #[arg(long, value_name = "MAP.toml")]
        save_map: Option<PathBuf>,
        /// The graphics adapter and backend pictures are drawn with (render, thumbnails), and
        /// those tried first that gave no device; alone, without files, only that.
        #[arg(long)]
        gpu: bool,
    },
    /// CSV `joint,frame,x,y,z` of global joint positions (metres, Y-up unless --raw), or a
    /// NumPy array (frames x joints x 3, float32) with `-o FILE.npy`.
    Positions {
        /// Files (a `file` column is added for several).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Frames like 0,1,50,-1 (negative counts from the end) or `all`.
        #[arg(long, value_name = "LIST", value_parser = parse_frames, allow_hyphen_values = true)]
        frames: Option<FrameList>,
        /// File units and axes instead of metres, Y-up.
        #[arg(long)]
        raw: bool,
        /// The meshes' posed vertices (`mesh,vertex,frame,x,y,z`; mesh numbered as `info`
        /// lists them) instead of the joints.
        #[arg(long)]
        vertices: bool,
        /// Write to FILE instead of printing: `.npy` gives a NumPy array of frames x joints x 3
        /// (float32, NaN where a position rests on a missing value; one file), anything else CSV.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// CSV `frame,time,<one column per measure>`: distances (m), angles (degrees), speeds
    /// (m/s) and accelerations (m/s^2) of joints named as `positions` prints them.
    #[command(
        after_help = "Columns follow the order of the options. Positions are metres, Y-up; speed and acceleration use the frames before and after (one-sided at the clip's ends).\nAn empty cell: a joint rests on a missing value at that frame.\nExample: skelview measure walk.bvh --distance LeftHand RightHand --angle LeftUpLeg LeftLeg LeftFoot --speed Hips"
    )]
    Measure {
        /// The file (an ASF with its AMC counts as one).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Distance between two joints, metres.
        #[arg(long, num_args = 2, value_names = ["A", "B"], action = clap::ArgAction::Append)]
        distance: Vec<String>,
        /// Angle at B between the bones to A and C, degrees.
        #[arg(long, num_args = 3, value_names = ["A", "B", "C"], action = clap::ArgAction::Append)]
        angle: Vec<String>,
        /// Speed of a joint, m/s.
        #[arg(long, value_name = "J", action = clap::ArgAction::Append)]
        speed: Vec<String>,
        /// Magnitude of a joint's acceleration, m/s^2.
        #[arg(long, value_name = "J", action = clap::ArgAction::Append)]
        accel: Vec<String>,
        /// Frames like 0,1,50,-1 (negative counts from the end) or `all` (default).
        #[arg(long, value_name = "LIST", value_parser = parse_frames, allow_hyphen_values = true)]
        frames: Option<FrameList>,
    },
    /// Validate files or whole folders in parallel; exit 1 if any fails.
    Check {
        /// Files or folders (searched recursively).
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
    },
    /// Look for capture artifacts (pops, jitter, foot slide, floor, frozen, flips, limits,
    /// bone lengths, neutral pose) in files or folders; exit 1 if a --fail-on kind is found.
    #[command(
        after_help = "Kinds: pop, jitter, foot_slide, floor, frozen, flip, limit, bone_length, neutral_pose (or all).\nExit codes: 0 nothing of the --fail-on kinds found, 1 something was, 2 an unreadable file or thresholds file.\nThresholds are in metres, seconds and degrees; --print-thresholds shows every key with its default."
    )]
    Qa {
        /// Files or folders (searched recursively).
        #[arg(value_name = "PATH", required_unless_present = "print_thresholds")]
        paths: Vec<PathBuf>,
        /// JSON lines: one object per finding, then one summary object per file.
        #[arg(long)]
        json: bool,
        /// Kinds to look for, comma-separated (default: all).
        #[arg(long, value_name = "KINDS", value_parser = parse_kinds)]
        kinds: Option<KindList>,
        /// Kinds that make the exit code 1 when found (default: none).
        #[arg(long, value_name = "KINDS", value_parser = parse_kinds)]
        fail_on: Option<KindList>,
        /// A TOML file of thresholds (only the keys it changes).
        #[arg(long, value_name = "FILE.toml")]
        thresholds: Option<PathBuf>,
        /// Print the thresholds in effect as TOML and exit.
        #[arg(long)]
        print_thresholds: bool,
    },
    /// Fix what the checks find: apply operations (gap filling, filtering, despiking, unrolling,
    /// trimming, resampling, looping, grounding, renaming, events) in the order given, and write
    /// the result through the writers' table; over folders in parallel.
    Edit(Box<super::edit_args::EditArgs>),
    /// Put a motion on another character (BVH, FBX, glTF, VRM): bone by bone through the
    /// humanoid bone maps, rest poses aligned by bone directions, hips scaled by the legs.
    Retarget(Box<super::retarget::RetargetArgs>),
    /// Write a loaded motion in the format OUTPUT's extension names: INPUT... OUTPUT
    /// (`skelview formats` lists the writers).
    Convert {
        /// Input files (one motion; an ASF with its AMC counts as one), then the file to write;
        /// its extension chooses the writer (`skelview formats` lists them and what each holds).
        #[arg(value_name = "FILE", required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// Rotation order of the written channels, first listed outermost.
        #[arg(long, value_name = "ORDER", default_value = "ZXY", value_parser = parse_order)]
        order: [char; 3],
    },
    /// Draw with the viewer's renderer, without a window, to a PNG, a numbered PNG sequence,
    /// an animated GIF or an MP4 (through ffmpeg).
    Render(super::render_args::RenderArgs),
    /// A square thumbnail of the middle frame: INPUT... OUTPUT.png.
    Thumbnail {
        /// Input files (one motion), then the PNG to write.
        #[arg(value_name = "FILE", required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// Width and height in pixels.
        #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(8..=4096))]
        size: u32,
    },
    /// Joint matching and position errors (MPJPE) of B against A.
    Compare {
        /// A and B (an ASF/AMC pair counts as one).
        #[arg(value_name = "FILE", required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// A Character Studio MNM name map as the last matching stage.
        #[arg(long, value_name = "MAP", conflicts_with = "humanoid")]
        mnm: Option<PathBuf>,
        /// Pair joints by humanoid bone (each skeleton's bone map, as info --humanoid prints
        /// it) instead of by name: a Mixamo take against a CMU one, an ASF against a BVH.
        #[arg(long)]
        humanoid: bool,
        /// How B is moved onto A before measuring.
        #[arg(long, value_enum, default_value = "none")]
        align: AlignArg,
        /// B starts this many seconds after A.
        #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = finite, default_value_t = 0.0)]
        offset: f64,
        /// Per-frame, per-joint CSV instead of the summary.
        #[arg(long)]
        csv: bool,
    },
    /// The formats skelview reads and writes: name, extensions, MIME types.
    Formats {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// A shell completion script on standard output.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
    /// The man page (roff) on standard output.
    Manpage,
    /// Write the desktop entry, MIME types, icon and thumbnailer into a folder, as a system
    /// package installs them under /usr/share (what --install-desktop writes for one user).
    DesktopFiles {
        /// The folder (`DIR/applications/skelview.desktop`, `DIR/mime/packages/…`).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// The program's path the entries start.
        #[arg(long, value_name = "PATH", default_value = "/usr/bin/skelview")]
        exe: PathBuf,
    },
}

/// Parses `argv` (program name first). `Err` carries clap's error: print it and exit with
/// its code (2 for usage errors, 0 for `--help` and `--version`).
pub fn parse_args(argv: Vec<String>) -> Result<Args, clap::Error> {
    let matches = cli_command().try_get_matches_from(argv)?;
    let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches)?;
    let options = load_options(&matches, cli.load.format_options, cli.load.take, cli.load.fps)?;
    let command = match cli.command {
        _ if cli.install_desktop => Command::Desktop(true),
        _ if cli.uninstall_desktop => Command::Desktop(false),
        None => Command::View { files: cli.files, select: cli.select, curves: cli.curves, measure: cli.measure },
        Some(Sub::Info { files, json, mnm, humanoid, map, save_map, gpu }) => {
            Command::Info { files, json, mnm, humanoid: humanoid || map.is_some() || save_map.is_some(), map, save_map, gpu }
        }
        Some(Sub::Positions { files, frames, raw, vertices, output }) => {
            Command::Positions { files, frames: frames.unwrap_or(FrameList::All), raw, vertices, output }
        }
        Some(Sub::Check { paths }) => Command::Check { paths },
        Some(Sub::Measure { files, distance, angle, speed, accel, frames }) => {
            let measures = measures_in_order(matches.subcommand_matches("measure"), distance, angle, speed, accel);
            if measures.is_empty() {
                return Err(usage("measure needs at least one of --distance A B, --angle A B C, --speed J, --accel J".into()));
            }
            Command::Measure { files, measures, frames: frames.unwrap_or(FrameList::All) }
        }
        Some(Sub::Qa { paths, json, kinds, fail_on, thresholds, print_thresholds }) => Command::Qa {
            paths,
            options: QaOptions {
                kinds: kinds.map_or_else(|| Kind::ALL.to_vec(), |k| k.0),
                fail_on: fail_on.map_or_else(Vec::new, |k| k.0),
                thresholds,
                json,
            },
            print_thresholds,
        },
        Some(Sub::Convert { mut files, order }) => {
            let output = files.pop().unwrap_or_default();
            if writer_for(&output).is_none() {
                return Err(usage(format!(
                    "convert writes INPUT... OUTPUT{}; '{}' is none of those",
                    written_extensions("|", "|"),
                    output.display()
                )));
            }
            Command::Convert { inputs: files, output, options: WriteOptions { bvh: BvhWriteOptions { order } } }
        }
        Some(Sub::Retarget(a)) => Command::Retarget(a),
        Some(Sub::Edit(a)) => super::edit::command(&a, matches.subcommand_matches("edit")).map_err(|e| usage(e.to_string()))?,
        Some(Sub::Thumbnail { mut files, size }) => {
            let output = files.pop().unwrap_or_default();
            if !has_ext(&output, "png") {
                return Err(usage(format!("thumbnail writes INPUT... OUTPUT.png; '{}' is not a .png", output.display())));
            }
            Command::Thumbnail { inputs: files, output, size }
        }
        Some(Sub::Compare { files, mnm, humanoid, align, offset, csv }) => {
            if files.len() > 2 && !files.iter().any(|f| has_ext(f, "asf")) {
                return Err(usage(format!("compare takes two motions A B, not {} files", files.len())));
            }
            Command::Compare { files, align: compare_align(align), offset_secs: offset, csv, mnm, humanoid }
        }
        Some(Sub::Render(r)) => r.command(cli.load.fps).map_err(|e| usage(e.to_string()))?,
        Some(Sub::Formats { json }) => Command::Formats { json },
        Some(Sub::Completions { shell }) => Command::Completions(shell),
        Some(Sub::Manpage) => Command::Manpage,
        Some(Sub::DesktopFiles { dir, exe }) => Command::DesktopFiles { dir, exe },
    };
    Ok(Args { command, options })
}

/// A usage error (exit code 2) with `message`, under the command line's usage.
pub(super) fn usage(message: String) -> clap::Error {
    clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{message}\n")).with_cmd(&cli_command())
}

/// The read options: `--format-option` and the options' own flags, the take and the rate.
fn load_options(
    matches: &clap::ArgMatches,
    format_options: Vec<(String, String)>,
    take: Option<String>,
    fps: Option<f64>,
) -> Result<LoadOptions, clap::Error> {
    let mut options = LoadOptions::default();
    // The options' own flags are shorthands for `--format-option`; each value was checked
    // when it was parsed.
    for (key, value) in option_flag_values(matches).into_iter().chain(format_options) {
        options.format.set(&key, &value).map_err(|e| cli_command().error(clap::error::ErrorKind::InvalidValue, e))?;
    }
    options.take = take;
    options.sample_fps = fps;
    Ok(options)
}

/// `measure`'s distances, angles, speeds and accelerations as columns, in the order the
/// options were given (`sub`: the subcommand's matches, which know where each one was).
fn measures_in_order(
    sub: Option<&clap::ArgMatches>,
    distance: Vec<String>,
    angle: Vec<String>,
    speed: Vec<String>,
    accel: Vec<String>,
) -> Vec<MeasureByName> {
    // Columns in the order the options were given, whatever their kind.
    let mut measures: Vec<(usize, MeasureByName)> = Vec::new();
    // clap gives each option's values flat; every occurrence has exactly `per` of them.
    let mut add = |id: &str, kind: MeasureKind, per: usize, values: Vec<String>| {
        let at: Vec<usize> = sub.and_then(|m| m.indices_of(id)).map(|i| i.step_by(per).collect()).unwrap_or_default();
        for (k, joints) in values.chunks(per).enumerate() {
            measures.push((at.get(k).copied().unwrap_or(usize::MAX), MeasureByName { kind, joints: joints.to_vec() }));
        }
    };
    add("distance", MeasureKind::Distance, 2, distance);
    add("angle", MeasureKind::Angle, 3, angle);
    add("speed", MeasureKind::Speed, 1, speed);
    add("accel", MeasureKind::Acceleration, 1, accel);
    measures.sort_by_key(|m| m.0);
    measures.into_iter().map(|m| m.1).collect()
}

/// `compare --align`'s choice as the comparison's.
fn compare_align(align: AlignArg) -> Align {
    match align {
        AlignArg::None => Align::None,
        AlignArg::Roots => Align::Roots,
        AlignArg::RootsHeading => Align::RootsAndHeading,
    }
}

/// The clap command (for parsing, completions, the man page and usage errors), its help
/// ending with the formats of the format table.
pub fn cli_command() -> clap::Command {
    let formats: Vec<String> = skelview_core::formats::FORMATS
        .iter()
        .map(|f| format!("  {:<8} {}", f.name(), f.extensions().iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(" ")))
        .collect();
    let after = format!(
        "Formats (extension first, then content; `skelview formats` for more):\n{}\n\nAn .amc file finds its .asf (same name, CMU NN_MM -> NN, a name prefix, or matching bones);\ngive both to choose: skelview info skel.asf take.amc",
        formats.join("\n")
    );
    <Cli as clap::CommandFactory>::command()
        .after_help(after)
        .args(option_flags())
        .mut_subcommand("edit", |edit| edit.args(super::edit_args::operation_flags()))
}

/// A flag for each format option that declares an alias (`--bvh-positions`), made from the
/// format table: its help, values and checks are the option's own.
fn option_flags() -> Vec<clap::Arg> {
    use skelview_core::formats::{OptionValues, table::all_options};
    let flag = |o: &'static skelview_core::formats::FormatOption| {
        let alias = o.alias?;
        let help = super::edit_args::capitalised(o.help);
        let arg = clap::Arg::new(alias).long(alias).global(true).help(format!("{help} (the format option {})", o.key));
        Some(match &o.values {
            OptionValues::Choice { choices, default } => {
                arg.value_name("VALUE").value_parser(clap::builder::PossibleValuesParser::new(choices.iter().map(|c| {
                    let label =
                        if c.value == *default { format!("{} (default)", c.label.trim_end_matches(" (default)")) } else { c.label.into() };
                    clap::builder::PossibleValue::new(c.value).help(label)
                })))
            }
            OptionValues::Number { unit, default, .. } => arg
                .value_name(unit.to_uppercase())
                .value_parser(move |s: &str| o.check(s))
                .help(format!("{help} (the format option {}; default {default} {unit})", o.key)),
            OptionValues::Path { hint } => arg.value_name(*hint).value_parser(move |s: &str| o.check(s)),
        })
    };
    all_options().filter_map(flag).collect()
}

/// The values given to the flags of [`option_flags`], by option key.
fn option_flag_values(matches: &clap::ArgMatches) -> Vec<(String, String)> {
    let given = |o: &'static skelview_core::formats::FormatOption| Some((o.key.to_owned(), matches.get_one::<String>(o.alias?)?.clone()));
    skelview_core::formats::table::all_options().filter_map(given).collect()
}

/// `KEY=VALUE` for an option some format declares, with a value it takes.
fn format_option(s: &str) -> Result<(String, String), ArgError> {
    let (key, value) = s.split_once('=').ok_or_else(|| ArgError::expected("KEY=VALUE", s))?;
    let mut check = skelview_core::formats::FormatOptions::default();
    check.set(key.trim(), value)?;
    Ok((key.trim().to_owned(), value.trim().to_owned()))
}

fn positive(s: &str) -> Result<f64, ArgError> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(ArgError::expected("a positive number", s)),
    }
}

/// A comma-separated list of finding kinds.
#[derive(Clone, Debug)]
struct KindList(Vec<Kind>);

fn parse_kinds(s: &str) -> Result<KindList, skelview_core::qa::UnknownKind> {
    Kind::parse_list(s).map(KindList)
}

fn parse_order(s: &str) -> Result<[char; 3], ArgError> {
    BvhWriteOptions::parse_order(s).ok_or_else(|| ArgError::expected("a rotation order like ZXY", s))
}

/// Parses `0,1,50,-1` or `all`.
pub fn parse_frames(s: &str) -> Result<FrameList, ArgError> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(FrameList::All);
    }
    s.split(',')
        .map(|p| p.trim().parse::<i64>().map_err(|_| ArgError::expected("frame numbers like 0,1,50,-1 or 'all'", p)))
        .collect::<Result<Vec<_>, _>>()
        .map(FrameList::Some)
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
