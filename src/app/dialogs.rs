//! File dialogs: a native dialog blocks until the user answers, so it runs as a task (see
//! `jobs`) and must not freeze the window. The answer comes back as the command it stands for.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

#[cfg(not(target_arch = "wasm32"))]
use super::FilesCommand;
use super::{AppError, Command, Export, JobCommand};

/// Which question a dialog asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// Files to open, replacing what is shown.
    Open,
    /// Files to add beside the clips shown.
    Add,
    /// Where to write the positions CSV.
    ExportPositions,
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
}

/// In a browser: Open and Add click the page's file input (its files arrive through the
/// page's inbox); a save "dialog" names the download; what needs a folder or a file read
/// from disk is not offered.
#[cfg(target_arch = "wasm32")]
pub(super) fn ask(dialog: Dialog) -> Option<Command> {
    let picked = |add| match crate::browser::pick_files(add) {
        Ok(()) => None,
        Err(e) => Some(Command::ShowError(AppError::NoDialog(e))),
    };
    match dialog {
        Dialog::Open => picked(false),
        Dialog::Add => picked(true),
        Dialog::ExportPositions => Some(export(Export::Positions("positions.csv".into()))),
        Dialog::ExportMeasures => Some(export(Export::Measures("measurements.csv".into()))),
        Dialog::SaveScreenshot => Some(export(Export::Screenshot(Some("skelview.png".into())))),
        Dialog::ExportVideo => Some(export(Export::Video("skelview.gif".into()))),
        Dialog::ExportFrames | Dialog::NameMap => {
            Some(Command::ShowError(AppError::NoDialog(format!("{dialog:?} is not in the browser build (see the README)"))))
        }
    }
}

/// Message when no dialog can be shown at all.
#[cfg(not(target_arch = "wasm32"))]
const NO_DIALOG: &str = "No file dialog is available (needs an xdg-desktop-portal or zenity). Drop a file on the window or use the command line (skelview positions / render --range).";

#[cfg(not(target_arch = "wasm32"))]
fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file()))
}

fn export(e: Export) -> Command {
    Command::Job(JobCommand::Export(e))
}

/// Asks `dialog` and turns the answer into a command (`None`: cancelled).
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn ask(dialog: Dialog) -> Option<Command> {
    let motion = skelview_core::formats::table::dialog_extensions();
    let answer = match dialog {
        Dialog::Open | Dialog::Add => {
            let title = if dialog == Dialog::Open { "Open motion" } else { "Add motion" };
            let picked =
                rfd::FileDialog::new().add_filter("Motion capture", &motion).add_filter("All files", &["*"]).set_title(title).pick_files();
            picked.map(|p| Command::Files(if dialog == Dialog::Open { FilesCommand::Open(p) } else { FilesCommand::Add(p) }))
        }
        Dialog::ExportPositions => rfd::FileDialog::new()
            .add_filter("CSV", &["csv"])
            .set_file_name("positions.csv")
            .save_file()
            .map(|p| export(Export::Positions(p))),
        Dialog::ExportMeasures => rfd::FileDialog::new()
            .add_filter("CSV", &["csv"])
            .set_file_name("measurements.csv")
            .save_file()
            .map(|p| export(Export::Measures(p))),
        Dialog::ExportVideo => rfd::FileDialog::new()
            .add_filter("Animated GIF", &["gif"])
            .add_filter("MP4 video (needs ffmpeg)", &["mp4"])
            .set_file_name("skelview.gif")
            .save_file()
            .map(|p| export(Export::Video(p))),
        Dialog::SaveScreenshot => rfd::FileDialog::new()
            .add_filter("PNG", &["png"])
            .set_file_name("skelview.png")
            .save_file()
            .map(|p| export(Export::Screenshot(Some(p)))),
        Dialog::ExportFrames => {
            rfd::FileDialog::new().set_title("Folder for the PNG frames").pick_folder().map(|d| export(Export::Frames(d, (1280, 720))))
        }
        Dialog::NameMap => rfd::FileDialog::new()
            .add_filter("Name map", &["mnm"])
            .add_filter("All files", &["*"])
            .pick_file()
            .map(|p| Command::Job(JobCommand::ReadNameMap(p))),
    };
    // rfd answers None both for "cancelled" and "no dialog could be shown": say which.
    if answer.is_none() && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() && which("zenity").is_none() {
        return Some(Command::ShowError(AppError::NoDialog(NO_DIALOG.into())));
    }
    answer
}
