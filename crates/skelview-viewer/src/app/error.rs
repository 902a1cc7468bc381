//! What went wrong in the viewer, by what the user was doing: the error window's title says
//! which (opening, exporting, saving the settings), its text says why.

use thiserror::Error;

/// A failure the viewer reports in its error window.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum AppError {
    /// A file could not be opened (its loader's `file:line:col` message).
    #[error("{0}")]
    Open(String),
    /// A command-line viewer option (`--select`, `--measure`) names what the file lacks.
    #[error("{0}")]
    StartOption(String),
    /// An export, screenshot or video could not be written.
    #[error("{0}")]
    Export(String),
    /// The settings could not be written.
    #[error("{0}")]
    Settings(String),
    /// A name map could not be read.
    #[error("{0}")]
    NameMap(String),
    /// No file dialog could be shown.
    #[error("{0}")]
    NoDialog(String),
    /// A background thread could not be started.
    #[error("cannot start the {what} thread: {message}")]
    Thread {
        /// Which work.
        what: &'static str,
        /// The system's reason.
        message: String,
    },
}

impl AppError {
    /// The error window's title.
    pub fn title(&self) -> &'static str {
        match self {
            Self::Open(_) => "Could not open the file",
            Self::StartOption(_) => "Viewer option not applied",
            Self::Export(_) => "Export failed",
            Self::Settings(_) => "Could not save the settings",
            Self::NameMap(_) => "Could not read the name map",
            Self::NoDialog(_) => "No file dialog",
            Self::Thread { .. } => "Could not start background work",
        }
    }
}
