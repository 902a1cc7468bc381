//! What the viewer asks of the program around it: file dialogs, and pictures of the scene made
//! off screen. The desktop program answers both (a native dialog, the wgpu renderer); the
//! browser build answers dialogs with the page's file picker and downloads. The viewer names
//! neither, so it builds and tests without a window, a GPU or a dialog service.

use std::ops::ControlFlow;
use std::path::PathBuf;

use skelview_scene::{FrameSpec, OrbitCamera, Scene};

use super::{Command, Dialog};

/// A scene as one camera sees it, in pictures of `size` pixels.
pub struct Shot {
    /// What is drawn.
    pub scene: Scene,
    /// Time and style (the time is replaced per frame for sequences).
    pub frame: FrameSpec,
    /// Where the eye is.
    pub camera: OrbitCamera,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

/// Which files to make of a [`Shot`].
#[derive(Clone, Debug, PartialEq)]
pub enum ShotOutput {
    /// One picture written as a PNG file.
    Png(PathBuf),
    /// `dir/frame_NNNNNN.png` for each `(frame number, shared-clock time)`.
    Frames {
        /// The folder (made when missing).
        dir: PathBuf,
        /// The frames.
        frames: Vec<(usize, f64)>,
    },
    /// A video (`.gif` or `.mp4`) of the frames, playing at `fps`.
    Video {
        /// The file.
        path: PathBuf,
        /// The frames.
        frames: Vec<(usize, f64)>,
        /// Frames per second.
        fps: f64,
    },
}

/// Why no picture was made: the host's own error, its message unchanged.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct PictureError(pub Box<dyn std::error::Error + Send + Sync>);

impl PictureError {
    /// Wraps the host's error.
    pub fn new(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Box::new(e))
    }
}

/// The program around the viewer. Both calls run on background tasks and may block.
pub trait Host: Send + Sync {
    /// Asks `dialog` and turns the answer into the command it stands for (`None`: cancelled).
    fn ask(&self, dialog: Dialog) -> Option<Command>;

    /// Renders one picture of `shot` as RGBA8 pixels.
    fn picture(&self, shot: Shot) -> Result<Vec<u8>, PictureError>;

    /// Renders `shot` into the files of `output` and returns how many frames it wrote;
    /// `progress(done, total)` may stop a sequence.
    fn write(
        &self,
        shot: Shot,
        output: ShotOutput,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<usize, PictureError>;
}

/// A host that offers neither (tests, and a viewer nobody gave a host): each call says so.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHost;

/// Why [`NoHost`] made nothing.
#[derive(Debug, thiserror::Error)]
#[error("pictures are not made in this build (no renderer)")]
pub struct NoRenderer;

impl Host for NoHost {
    fn ask(&self, _: Dialog) -> Option<Command> {
        Some(Command::ShowError(super::AppError::NoDialog(super::DialogError::NoHost)))
    }

    fn picture(&self, _: Shot) -> Result<Vec<u8>, PictureError> {
        Err(PictureError::new(NoRenderer))
    }

    fn write(&self, _: Shot, _: ShotOutput, _: &mut dyn FnMut(usize, usize) -> ControlFlow<()>) -> Result<usize, PictureError> {
        Err(PictureError::new(NoRenderer))
    }
}
