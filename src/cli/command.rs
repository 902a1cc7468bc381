//! The parsed command line as the commands read it: plain data (only [`Shell`] is also
//! clap's value list, so that the grammar in `args.rs` can name it without a circle).

use std::path::PathBuf;

use super::qa::QaOptions;
use super::render_cmd::RenderOptions;
use skelview_core::compare::Align;
use skelview_core::export::files::WriteOptions;
use skelview_core::formats::LoadOptions;

/// A parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// What to do.
    pub command: Command,
    /// How to read files.
    pub options: LoadOptions,
}

/// Frames requested from `positions`.
#[derive(Clone, Debug, PartialEq)]
pub enum FrameList {
    /// Every frame.
    All,
    /// These frames; negative counts from the end (-1 is the last).
    Some(Vec<i64>),
}

/// The subcommands, as the commands read them.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Open the viewer window.
    View {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
        /// Joint to select once the first file is in.
        select: Option<String>,
        /// Open the channel-curves window.
        curves: bool,
        /// Joints for the Measure tool.
        measure: Vec<String>,
    },
    /// Describe files.
    Info {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
        /// JSON instead of text.
        json: bool,
        /// MNM name map whose standard names are shown beside the joints.
        mnm: Option<PathBuf>,
        /// Show the humanoid bone map.
        humanoid: bool,
        /// A bone map file over the one found.
        map: Option<PathBuf>,
        /// Where to write the bone map as TOML.
        save_map: Option<PathBuf>,
        /// Say which graphics adapter draws pictures.
        gpu: bool,
    },
    /// Print joint positions as CSV.
    Positions {
        /// Files.
        files: Vec<PathBuf>,
        /// Frames to print.
        frames: FrameList,
        /// File units and axes.
        raw: bool,
        /// Mesh vertices instead of joints.
        vertices: bool,
        /// Where to write (CSV, or `.npy`); standard output when not given.
        output: Option<PathBuf>,
    },
    /// Print measurements over time as CSV.
    Measure {
        /// The file (one motion).
        files: Vec<PathBuf>,
        /// The columns, in order.
        measures: Vec<MeasureByName>,
        /// Frames to print.
        frames: FrameList,
    },
    /// Render to a PNG.
    Render {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
        /// What and how to render.
        options: RenderOptions,
    },
    /// A thumbnail of the middle frame.
    Thumbnail {
        /// Input files (one motion).
        inputs: Vec<PathBuf>,
        /// The PNG to write.
        output: PathBuf,
        /// Width and height in pixels.
        size: u32,
    },
    /// Compare two motions.
    Compare {
        /// The two inputs (an ASF/AMC pair counts as one).
        files: Vec<PathBuf>,
        /// Alignment of B onto A.
        align: Align,
        /// B starts this many seconds later.
        offset_secs: f64,
        /// Per-frame, per-joint CSV instead of the summary.
        csv: bool,
        /// MNM name map used as the last matching stage.
        mnm: Option<PathBuf>,
        /// Pair joints by humanoid bone (the two bone maps) instead of by name.
        humanoid: bool,
    },
    /// Register with the desktop (true) or remove the registration (false).
    Desktop(bool),
    /// Check captures for artifacts.
    Qa {
        /// Files or folders.
        paths: Vec<PathBuf>,
        /// What to look for and report.
        options: QaOptions,
        /// Print the thresholds instead.
        print_thresholds: bool,
    },
    /// Apply edits and write the result.
    Edit(super::edit::EditCommand),
    /// Put a motion on another skeleton.
    Retarget(Box<super::retarget::RetargetArgs>),
    /// Write a motion as BVH.
    Convert {
        /// Input files (one motion).
        inputs: Vec<PathBuf>,
        /// The `.bvh` to write.
        output: PathBuf,
        /// Rotation order.
        options: WriteOptions,
    },
    /// Validate files and folders.
    Check {
        /// Files or folders.
        paths: Vec<PathBuf>,
    },
    /// List the formats.
    Formats {
        /// As JSON.
        json: bool,
    },
    /// Print a completion script.
    Completions(Shell),
    /// Print the man page.
    Manpage,
    /// Write the desktop files for a system package into `dir`, starting `exe`.
    DesktopFiles {
        /// The folder (`/usr/share` in the package).
        dir: PathBuf,
        /// The program's installed path.
        exe: PathBuf,
    },
}

/// What `measure` prints in one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasureKind {
    /// `--distance A B`.
    Distance,
    /// `--angle A B C`.
    Angle,
    /// `--speed J`.
    Speed,
    /// `--accel J`.
    Acceleration,
}

/// One column of `measure`, with joints as the user named them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasureByName {
    /// The quantity.
    pub kind: MeasureKind,
    /// Joint names (2, 3 or 1 by kind).
    pub joints: Vec<String>,
}

/// Shells `completions` writes scripts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// Elvish.
    Elvish,
    /// PowerShell.
    Powershell,
}
