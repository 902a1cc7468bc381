//! The desktop program as the viewer's host: native file dialogs (rfd) and pictures of the
//! scene rendered off screen (the wgpu renderer, PNG sequences and videos). The viewer's
//! state names neither; the window hands it this.

use std::ops::ControlFlow;
use std::path::PathBuf;

use skelview_render::offscreen;
use skelview_video::{Offscreen, render_sequence, render_video};

use crate::app::{
    AppError, ClipEdit, Command, Dialog, DialogError, Export, FilesCommand, Host, JobCommand, PictureError, Shot, ShotOutput,
};

/// Native dialogs and the offscreen renderer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Desktop;

impl Host for Desktop {
    fn ask(&self, dialog: Dialog) -> Option<Command> {
        ask(dialog)
    }

    fn picture(&self, shot: Shot) -> Result<Vec<u8>, PictureError> {
        let Shot { mut scene, frame, camera, size } = shot;
        let gpu = offscreen::headless().map_err(PictureError::new)?;
        Offscreen::new(&gpu, size, 4).picture(&gpu, &mut scene, &frame, &camera).map_err(PictureError::new)
    }

    fn write(
        &self,
        shot: Shot,
        output: ShotOutput,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<usize, PictureError> {
        let Shot { mut scene, frame, camera, size } = shot;
        let gpu = offscreen::headless().map_err(PictureError::new)?;
        let mut target = Offscreen::new(&gpu, size, 4);
        match output {
            ShotOutput::Png(path) => {
                let pixels = target.picture(&gpu, &mut scene, &frame, &camera).map_err(PictureError::new)?;
                skelview_video::write_png(&path, size, &pixels).map_err(PictureError::new)?;
                Ok(1)
            }
            ShotOutput::Frames { dir, frames } => {
                render_sequence(&gpu, &mut scene, &frame, &frames, &camera, &mut target, &dir, progress).map_err(PictureError::new)
            }
            ShotOutput::Video { path, frames, fps } => {
                render_video(&gpu, &mut scene, &frame, &frames, &camera, &mut target, &path, fps, progress).map_err(PictureError::new)
            }
        }
    }
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file()))
}

fn export(e: Export) -> Command {
    Command::Job(JobCommand::Export(e))
}

/// Asks for a file (or folder) to read with a native dialog: a name map, a recipe, a bone
/// map, a character to retarget onto, a body model.
fn ask_to_read(dialog: Dialog, motion: &[&str]) -> Option<Command> {
    match dialog {
        Dialog::NameMap => rfd::FileDialog::new()
            .add_filter("Name map", &["mnm"])
            .add_filter("All files", &["*"])
            .pick_file()
            .map(|p| Command::Job(JobCommand::ReadNameMap(p))),
        Dialog::OpenRecipe => rfd::FileDialog::new()
            .add_filter("Recipe (TOML)", &["toml"])
            .add_filter("All files", &["*"])
            .pick_file()
            .map(|p| Command::Job(JobCommand::ReadRecipe(p))),
        Dialog::RetargetOntoFile { source, keep_feet } => rfd::FileDialog::new()
            .add_filter("Motion or character", motion)
            .add_filter("All files", &["*"])
            .set_title("Put the motion on the skeleton of")
            .pick_file()
            .map(|path| Command::Clip(source, ClipEdit::RetargetOntoFile { path, keep_feet })),
        Dialog::OptionPath { clip, key, folder } => {
            let d = rfd::FileDialog::new().set_title(if folder { "Folder of body models" } else { "Body model" });
            let picked = if folder { d.pick_folder() } else { d.add_filter("NumPy", &["npz"]).add_filter("All files", &["*"]).pick_file() };
            picked.map(|p| Command::Clip(clip, ClipEdit::FormatOption { key, value: p.display().to_string() }))
        }
        Dialog::OpenBoneMap => rfd::FileDialog::new()
            .add_filter("Bone map (TOML, MNM)", &["toml", "mnm"])
            .add_filter("All files", &["*"])
            .pick_file()
            .map(|p| Command::Job(JobCommand::ReadBoneMap(p))),
        _ => None,
    }
}

/// Asks `dialog` with a native dialog and turns the answer into a command (`None`: cancelled).
fn ask(dialog: Dialog) -> Option<Command> {
    let motion = skelview_core::formats::table::dialog_extensions();
    let answer = match dialog {
        Dialog::Open | Dialog::Add => {
            let title = if dialog == Dialog::Open { "Open motion" } else { "Add motion" };
            let picked =
                rfd::FileDialog::new().add_filter("Motion capture", &motion).add_filter("All files", &["*"]).set_title(title).pick_files();
            picked.map(|p| Command::Files(if dialog == Dialog::Open { FilesCommand::Open(p) } else { FilesCommand::Add(p) }))
        }
        Dialog::SaveMotion => {
            let mut d = rfd::FileDialog::new().set_title("Save the motion as").set_file_name("motion.bvh");
            for w in skelview_core::export::files::WRITERS {
                d = d.add_filter(w.name(), w.extensions());
            }
            d.save_file().map(|p| export(Export::Motion(p)))
        }
        Dialog::ExportPositions => rfd::FileDialog::new()
            .add_filter("CSV", &["csv"])
            .add_filter("NumPy array (frames × joints × 3)", &["npy"])
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
        Dialog::SaveRecipe => rfd::FileDialog::new()
            .add_filter("Recipe (TOML)", &["toml"])
            .set_file_name("recipe.toml")
            .save_file()
            .map(|p| export(Export::Recipe(p))),
        Dialog::SaveBoneMap => rfd::FileDialog::new()
            .add_filter("Bone map (TOML)", &["toml"])
            .set_file_name("bone_map.toml")
            .save_file()
            .map(|p| export(Export::BoneMap(p))),
        Dialog::NameMap | Dialog::OpenRecipe | Dialog::OpenBoneMap | Dialog::RetargetOntoFile { .. } | Dialog::OptionPath { .. } => {
            ask_to_read(dialog, &motion)
        }
    };
    // rfd answers None both for "cancelled" and "no dialog could be shown": say which.
    if answer.is_none() && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() && which("zenity").is_none() {
        return Some(Command::ShowError(AppError::NoDialog(DialogError::NoPortal)));
    }
    answer
}
