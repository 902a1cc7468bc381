//! File dialogs: which questions the viewer asks, and (in a browser) how the page answers
//! them. A desktop dialog blocks until the user answers, so the desktop's [`Host`] answers on
//! a task (see `jobs`); the answer comes back as the command it stands for.

#[cfg(target_arch = "wasm32")]
use super::{AppError, Command, DialogError, Export, JobCommand};

/// Which question a dialog asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// Files to open, replacing what is shown.
    Open,
    /// Files to add beside the clips shown.
    Add,
    /// Where to write the positions CSV.
    ExportPositions,
    /// Where to save the active clip, in any format skelview writes.
    SaveMotion,
    /// Where to write the Measure tool's CSV.
    ExportMeasures,
    /// Where to write a video of the in/out range (`.gif` or `.mp4`).
    ExportVideo,
    /// Where to save a screenshot of the viewport.
    SaveScreenshot,
    /// A folder for the PNG frames of the in/out range.
    ExportFrames,
    /// An MNM name map for the comparison.
    NameMap,
    /// Where to save the active clip's recipe (TOML).
    SaveRecipe,
    /// A recipe (TOML) for the active clip.
    OpenRecipe,
    /// Where to save the active clip's humanoid bone map (TOML).
    SaveBoneMap,
    /// A bone map (TOML or MNM) for the active clip.
    OpenBoneMap,
    /// A motion file whose skeleton takes this clip's motion.
    RetargetOntoFile {
        /// The clip whose motion moves.
        source: skelview_scene::ClipId,
        /// Keep the feet planted.
        keep_feet: bool,
    },
    /// A file or folder for a clip's path read option (a body model), which reloads the clip.
    OptionPath {
        /// The clip read with it.
        clip: skelview_scene::ClipId,
        /// The option's key (`npz.body_model`).
        key: &'static str,
        /// A folder rather than a file.
        folder: bool,
    },
}

/// The host a viewer starts with: the page in a browser; elsewhere none (the program around
/// the viewer sets its own, or dialogs and pictures are refused with a message).
pub(super) fn default_host() -> std::sync::Arc<dyn super::Host> {
    #[cfg(target_arch = "wasm32")]
    return std::sync::Arc::new(Page);
    #[cfg(not(target_arch = "wasm32"))]
    return std::sync::Arc::new(super::NoHost);
}

/// The browser page as the viewer's host: Open and Add click the page's file input (its
/// files arrive through the page's inbox); a save "dialog" names the download; what needs a
/// folder or a file read from disk is not offered, nor are pictures made off screen (a
/// browser hands out a second device only asynchronously; the window records the canvas).
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Page;

#[cfg(target_arch = "wasm32")]
impl super::Host for Page {
    fn ask(&self, dialog: Dialog) -> Option<Command> {
        ask(dialog)
    }

    fn picture(&self, shot: super::Shot) -> Result<Vec<u8>, super::PictureError> {
        super::NoHost.picture(shot)
    }

    fn write(
        &self,
        shot: super::Shot,
        output: super::ShotOutput,
        progress: &mut dyn FnMut(usize, usize) -> std::ops::ControlFlow<()>,
    ) -> Result<usize, super::PictureError> {
        super::NoHost.write(shot, output, progress)
    }
}

#[cfg(target_arch = "wasm32")]
fn ask(dialog: Dialog) -> Option<Command> {
    let picked = |add| match crate::browser::pick_files(add) {
        Ok(()) => None,
        Err(e) => Some(Command::ShowError(AppError::NoDialog(DialogError::Page(e)))),
    };
    let export = |e| Command::Job(JobCommand::Export(e));
    match dialog {
        Dialog::Open => picked(false),
        Dialog::Add => picked(true),
        Dialog::ExportPositions => Some(export(Export::Positions("positions.csv".into()))),
        Dialog::ExportMeasures => Some(export(Export::Measures("measurements.csv".into()))),
        Dialog::SaveScreenshot => Some(export(Export::Screenshot(Some("skelview.png".into())))),
        Dialog::ExportVideo => Some(export(Export::Video("skelview.gif".into()))),
        Dialog::SaveRecipe => Some(export(Export::Recipe("recipe.toml".into()))),
        Dialog::SaveBoneMap => Some(export(Export::BoneMap("bone_map.toml".into()))),
        Dialog::ExportFrames
        | Dialog::NameMap
        | Dialog::SaveMotion
        | Dialog::OpenRecipe
        | Dialog::OpenBoneMap
        | Dialog::RetargetOntoFile { .. }
        | Dialog::OptionPath { .. } => Some(Command::ShowError(AppError::NoDialog(DialogError::NotInBrowser(dialog)))),
    }
}
