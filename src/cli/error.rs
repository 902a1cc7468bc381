//! What the command line refuses or fails at, typed: values it cannot read (its value
//! parsers'), and each command's failures with the engine's own errors inside. The text a
//! user reads is each variant's message; the path is added once, where the command has it.

use std::path::PathBuf;

use thiserror::Error;

/// A value on the command line that is not what the option takes.
#[derive(Debug, Error)]
pub enum ArgError {
    /// Not of the expected shape.
    #[error("expected {expected}, not '{given}'")]
    Expected {
        /// What the option takes.
        expected: &'static str,
        /// What was given.
        given: String,
    },
    /// A picture size outside what the renderer draws.
    #[error("the size must be between 1x1 and 8192x8192, not '{0}'")]
    Size(String),
    /// A format option no format has, or a value it refuses.
    #[error(transparent)]
    FormatOption(#[from] skelview_core::formats::OptionError),
    /// An option's value not of its shape.
    #[error("{option} '{given}': expected {expected}")]
    Option {
        /// The option.
        option: &'static str,
        /// What was given.
        given: String,
        /// Its shape, with an example.
        expected: &'static str,
    },
    /// An edit operation's value not of its shape, or one the operation refuses.
    #[error("{option} '{given}': expected {expected}")]
    Operation {
        /// The operation's flag.
        option: String,
        /// What was given.
        given: String,
        /// Its shape (`butterworth:CUTOFF_HZ[:ORDER]`), or why it was refused.
        expected: String,
    },
    /// A value an option refuses, with the reason its reader gives (`--trim 'x': expected
    /// FIRST:LAST…`).
    #[error("{option} {reason}")]
    Refused {
        /// The option.
        option: String,
        /// Why, naming the value.
        reason: String,
    },
    /// `edit` without an operation.
    #[error("edit needs at least one operation ({operations}, --recipe)")]
    NoOperation {
        /// The operations' flags.
        operations: String,
    },
    /// `edit` with nowhere to write.
    #[error("edit writes --out OUTPUT (or only a recipe, with --save-recipe FILE.toml)")]
    NoOutput,
}

impl ArgError {
    pub(super) fn expected(expected: &'static str, given: &str) -> Self {
        Self::Expected { expected, given: given.to_owned() }
    }
}

/// Why `edit` wrote nothing for an input (or at all).
#[derive(Debug, Error)]
pub enum EditFailure<'a> {
    /// A recipe file that cannot be read.
    #[error("{}: {source}", path.display())]
    RecipeFile {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A recipe file that is not a recipe.
    #[error("{}: {source}", path.display())]
    Recipe {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        source: skelview_core::edit::RecipeError,
    },
    /// The input was refused before loading (no format reads it, an AMC without its ASF).
    #[error(transparent)]
    Request(&'a skelview_core::formats::LoadError),
    /// The input could not be loaded.
    #[error(transparent)]
    Load(skelview_core::formats::LoadError),
    /// No writer for the output's extension.
    #[error("{input}: cannot write '{}': {source} (skelview formats lists the writers)", output.display())]
    NoWriter {
        /// The input.
        input: String,
        /// The output asked for.
        output: PathBuf,
        /// The extension's refusal.
        source: skelview_core::export::files::WriteError,
    },
    /// `--out` is the input itself.
    #[error("{input}: --out names the source; edits never write over it")]
    Overwrite {
        /// The input.
        input: String,
    },
    /// A step could not be applied.
    #[error("{input}: {source}")]
    Edit {
        /// The input.
        input: String,
        /// The step and why.
        source: skelview_core::edit::EditError,
    },
    /// The result could not be written.
    #[error("{}: {source}", output.display())]
    Write {
        /// The output.
        output: PathBuf,
        /// Why.
        source: skelview_core::export::files::WriteError,
    },
}

/// Why a command could not do what it was asked.
#[derive(Debug, Error)]
pub enum CliError {
    /// A frame number outside the clip.
    #[error(transparent)]
    Frame(#[from] skelview_core::core::FrameOutOfRange),
    /// `--range` names frames outside the clip.
    #[error("--range {start}:{end} is outside the clip's frames 0..{last}")]
    Range {
        /// As given.
        start: i64,
        /// As given.
        end: i64,
        /// The clip's last frame.
        last: usize,
    },
    /// A joint name the skeleton lacks (with `hint` where nothing is close).
    #[error("{joint}{hint}")]
    Joint {
        /// The engine's error, with its suggestions.
        joint: skelview_core::core::NoJoint,
        /// Where to find the names, when there is no suggestion.
        hint: &'static str,
    },
    /// A measure given the wrong number of joints.
    #[error("{0} takes another number of joints")]
    JointCount(String),
    /// A measure that cannot be taken.
    #[error(transparent)]
    Measure(#[from] skelview_core::core::measure::MeasureError),
    /// A file could not be read or parsed.
    #[error(transparent)]
    Load(#[from] skelview_core::formats::LoadError),
    /// A thresholds file could not be read.
    #[error("{}: {source}", path.display())]
    ThresholdsFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A thresholds file with values the checks refuse.
    #[error("{}: {source}", path.display())]
    Thresholds {
        /// The file.
        path: PathBuf,
        /// Why.
        source: skelview_core::qa::ThresholdError,
    },
    /// Rendering or writing the pictures failed.
    #[error(transparent)]
    Render(#[from] skelview_render::offscreen::RenderError),
    /// Writing a sequence or video failed.
    #[error(transparent)]
    Sequence(#[from] skelview_video::SequenceError),
    /// Writing the PNG failed.
    #[error(transparent)]
    Png(#[from] skelview_video::PngError),
    /// No data folder for the desktop files.
    #[error("neither XDG_DATA_HOME nor HOME is set")]
    NoDataHome,
    /// The Windows registry refused a change (what, and Windows' error code).
    #[error("cannot register the file types: {0}")]
    Registry(String),
    /// The program's own path is unknown.
    #[error("cannot find the skelview executable: {0}")]
    Executable(std::io::Error),
    /// A desktop file could not be written or removed.
    #[error("{}: {source}", path.display())]
    File {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
