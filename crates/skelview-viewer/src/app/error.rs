//! What went wrong in the viewer, by what the user was doing: the error window's title says
//! which (opening, exporting, saving the settings), its text says why. Each variant keeps the
//! typed error it reports (shared, so that the error can travel in a command and be shown).

use std::sync::Arc;

use thiserror::Error;

use super::host::PictureError;
use super::jobs::ExportError;
use super::settings_store::SettingsError;
use crate::tasks::TaskError;
use skelview_core::core::NoJoint;
use skelview_core::formats::LoadError;

/// A failure the viewer reports in its error window.
#[derive(Clone, Debug, Error)]
pub enum AppError {
    /// A file could not be opened (its loader's `file:line:col` message).
    #[error(transparent)]
    Open(Arc<LoadError>),
    /// The page could not hand a file in (a `?file=` address it could not fetch).
    #[error(transparent)]
    Fetch(FetchError),
    /// A command-line viewer option (`--select`, `--measure`) names what the file lacks.
    #[error("--{option}: {source} in {clip}")]
    StartOption {
        /// The option, without its dashes.
        option: &'static str,
        /// The clip it was applied to.
        clip: String,
        /// The joint it named.
        source: NoJoint,
    },
    /// An export, screenshot or video could not be written.
    #[error(transparent)]
    Export(Arc<ExportFailure>),
    /// The settings could not be written.
    #[error(transparent)]
    Settings(Arc<TaskError<SettingsError>>),
    /// A name map could not be read.
    #[error(transparent)]
    NameMap(Arc<TaskError<LoadError>>),
    /// A recipe file could not be read.
    #[error(transparent)]
    Recipe(Arc<TaskError<RecipeFileError>>),
    /// A humanoid bone map file could not be read or used.
    #[error(transparent)]
    BoneMap(Arc<TaskError<BoneMapFileError>>),
    /// A motion could not be put on another skeleton.
    #[error(transparent)]
    Retarget(Arc<TaskError<skelview_core::retarget::RetargetError>>),
    /// No file dialog could be shown.
    #[error(transparent)]
    NoDialog(DialogError),
    /// A background thread could not be started.
    #[error("cannot start the {what} thread: {source}")]
    Thread {
        /// Which work.
        what: &'static str,
        /// The system's reason.
        source: Arc<std::io::Error>,
    },
}

/// A file the page could not fetch (a `?file=` address): the browser's reason (`URL: HTTP 404
/// Not Found`, a network error), which only the page knows.
#[derive(Clone, Debug, Error)]
#[error("cannot fetch {reason}")]
pub struct FetchError {
    /// As the browser gave it.
    pub reason: String,
}

/// A recipe file that could not be read: the file and why.
#[derive(Debug, Error)]
pub enum RecipeFileError {
    /// Not readable.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// Not a recipe.
    #[error("{}: {source}", path.display())]
    Recipe {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it (the step and the key).
        source: skelview_core::edit::RecipeError,
    },
}

/// Why a bone map file could not be put over a clip's bones.
#[derive(Debug, Error)]
pub enum BoneMapFileError {
    /// Not readable.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// An MNM that cannot be read (the reader's message names the place).
    #[error(transparent)]
    NameMap(LoadError),
    /// A TOML map that does not fit (a bone that is not VRM's, a joint the clip lacks).
    #[error("{}: {source}", path.display())]
    Map {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it.
        source: skelview_core::retarget::MapError,
    },
    /// No clip is open to take it.
    #[error("open a clip first: a bone map names its joints")]
    NoClip,
}

/// Why no file dialog was shown.
#[derive(Clone, Debug, Error)]
pub enum DialogError {
    /// The viewer runs without a host that shows dialogs (a test, a tool).
    #[error("no file dialog in this build")]
    NoHost,
    /// The desktop has neither an xdg-desktop-portal nor zenity.
    #[error(
        "No file dialog is available (needs an xdg-desktop-portal or zenity). Drop a file on the window or use the command line (skelview positions / render --range)."
    )]
    NoPortal,
    /// The browser build offers no such dialog.
    #[error("{0:?} is not in the browser build (see the README)")]
    NotInBrowser(super::Dialog),
    /// The page refused to show its file picker.
    #[cfg(target_arch = "wasm32")]
    #[error(transparent)]
    Page(crate::browser::PageError),
}

/// Why an export wrote nothing, or could not start.
#[derive(Debug, Error)]
pub enum ExportFailure {
    /// One export runs at a time.
    #[error("an export is already running")]
    Busy,
    /// The Measure tool has nothing to write yet.
    #[error("nothing measured yet: pick joints in the Measure tool")]
    NothingMeasured,
    /// Pictures made off screen are not offered in a browser.
    #[error("screenshots, frames and videos are not in the browser build")]
    NotInBrowser,
    /// The export ran and failed (or stopped).
    #[error(transparent)]
    Failed(TaskError<ExportError>),
    /// The clipboard picture could not be made.
    #[error("screenshot: {0}")]
    Screenshot(TaskError<PictureError>),
    /// The page could not save or record what the canvas shows.
    #[cfg(target_arch = "wasm32")]
    #[error(transparent)]
    Page(crate::browser::PageError),
}

impl From<ExportFailure> for AppError {
    fn from(e: ExportFailure) -> Self {
        Self::Export(Arc::new(e))
    }
}

impl From<LoadError> for AppError {
    fn from(e: LoadError) -> Self {
        Self::Open(Arc::new(e))
    }
}

/// Errors are equal when they are shown the same (title and text): the sources are not
/// comparable themselves (system errors).
impl PartialEq for AppError {
    fn eq(&self, other: &Self) -> bool {
        self.title() == other.title() && self.to_string() == other.to_string()
    }
}

impl AppError {
    /// The error window's title.
    pub fn title(&self) -> &'static str {
        match self {
            Self::Open(_) | Self::Fetch(_) => "Could not open the file",
            Self::StartOption { .. } => "Viewer option not applied",
            Self::Export(_) => "Export failed",
            Self::Settings(_) => "Could not save the settings",
            Self::NameMap(_) => "Could not read the name map",
            Self::Recipe(_) => "Could not read the recipe",
            Self::BoneMap(_) => "Could not use the bone map",
            Self::Retarget(_) => "Could not retarget",
            Self::NoDialog(_) => "No file dialog",
            Self::Thread { .. } => "Could not start background work",
        }
    }

    /// A thread for `what` could not be started.
    pub fn thread(what: &'static str, source: std::io::Error) -> Self {
        Self::Thread { what, source: Arc::new(source) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_errors_read_as_before_and_compare_by_what_is_shown() {
        let missing = LoadError::Io { path: "gone.bvh".into(), source: std::io::Error::from(std::io::ErrorKind::NotFound) };
        let text = missing.to_string();
        let open = AppError::from(missing);
        assert_eq!((open.title(), open.to_string()), ("Could not open the file", text.clone()));
        assert!(matches!(&open, AppError::Open(e) if matches!(**e, LoadError::Io { .. })), "the source stays typed");
        let busy = AppError::from(ExportFailure::Busy);
        assert_eq!((busy.title(), busy.to_string().as_str()), ("Export failed", "an export is already running"));
        let cancelled = AppError::from(ExportFailure::Screenshot(TaskError::Cancelled));
        assert_eq!(cancelled.to_string(), "screenshot: cancelled");
        let joint = NoJoint { name: "Tail".into(), like: vec![] };
        let start = AppError::StartOption { option: "select", clip: "walk.bvh".into(), source: joint };
        assert_eq!(start.to_string(), "--select: no joint named 'Tail' in walk.bvh");
        assert_eq!(busy.clone(), busy);
        assert_ne!(busy, cancelled);
        let thread = AppError::thread("loader", std::io::Error::other("no threads left"));
        assert_eq!(thread.to_string(), "cannot start the loader thread: no threads left");
    }
}
