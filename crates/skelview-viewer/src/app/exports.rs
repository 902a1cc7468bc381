//! The export commands: positions and measurements as CSV, PNG frames, videos and
//! screenshots of what the viewport shows, each handed to a background job.

use super::{Export, Viewer};

/// Height in pixels of exported videos: GIFs are kept small, MP4s are HD.
#[cfg(not(target_arch = "wasm32"))]
fn video_size(path: &std::path::Path, aspect: f32) -> (u32, u32) {
    let gif = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    let height = if gif { 480 } else { 720 };
    let width = ((height as f32 * aspect.clamp(0.25, 4.0)) / 2.0).round() as u32 * 2;
    (width.max(2), height)
}

/// In a browser: the in/out range to record from the canvas into a GIF download.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeCapture {
    /// The download's name.
    pub name: std::path::PathBuf,
    /// `(frame, shared-clock time)` of each frame of the range.
    pub frames: Vec<(usize, f64)>,
    /// The GIF's frame rate (the clip's).
    pub fps: f64,
}

impl Viewer {
    /// Starts `export` on a background job.
    pub(super) fn export(&mut self, export: Export) {
        let tasks = self.tasks.clone();
        let started = match export {
            Export::Positions(path) => match self.motion().cloned() {
                Some(m) => self.jobs.export_positions(m, path, &tasks),
                None => Ok(()),
            },
            Export::Motion(path) => match self.motion().cloned() {
                Some(m) => self.jobs.save_motion(m, path, &tasks),
                None => Ok(()),
            },
            Export::Recipe(path) => {
                let recipe = self.session.active_clip().and_then(|c| self.session.document.edits(c.id())).map(|e| e.recipe.clone());
                self.jobs.save_recipe(recipe.unwrap_or_default(), path, &tasks)
            }
            Export::BoneMap(path) => match self.session.active_clip().filter(|c| c.motion.capture.is_none()) {
                Some(c) => {
                    let text = c.humanoid.to_toml(&c.motion.skeleton);
                    self.jobs.save_bone_map(text, c.humanoid.entries.len(), path, &tasks)
                }
                None => Ok(()),
            },
            Export::Frames(dir, size) => {
                let (spec, frames, scene) = (self.frame_spec(), self.session.range_frames(), self.session.scene.clone());
                self.jobs.export_frames(scene, spec, frames, self.view.camera, dir, size, &tasks)
            }
            Export::Measures(path) => match (self.motion().cloned(), self.whole.measures.result().cloned()) {
                (Some(m), Some(curves)) => self.jobs.export_measures(m, curves, path, &tasks),
                _ => Err(super::ExportFailure::NothingMeasured.into()),
            },
            #[cfg(not(target_arch = "wasm32"))]
            Export::Video(path) => {
                let (spec, frames, scene) = (self.frame_spec(), self.session.range_frames(), self.session.scene.clone());
                // The clips play at their own rate: one video frame per frame of the range.
                let fps = 1.0 / self.session.playback.frame_time_secs();
                let size = video_size(&path, self.view.aspect);
                self.jobs.export_video(scene, spec, frames, self.view.camera, path, size, fps, &tasks)
            }
            // In a browser the window records the range from the canvas, a frame per frame
            // it draws (its own offscreen device would come asynchronously).
            #[cfg(target_arch = "wasm32")]
            Export::Video(name) => {
                self.session.playback.playing = false;
                let fps = 1.0 / self.session.playback.frame_time_secs();
                self.frame.effects.push(super::Effect::RecordRange(RangeCapture { name, frames: self.session.range_frames(), fps }));
                Ok(())
            }
            // In a browser the window copies the viewport out of the canvas it just drew.
            #[cfg(target_arch = "wasm32")]
            Export::Screenshot(Some(to)) => {
                self.frame.effects.push(super::Effect::SaveViewport(to));
                Ok(())
            }
            Export::Screenshot(to) => {
                let (spec, scene) = (self.frame_spec(), self.session.scene.clone());
                self.jobs.screenshot(scene, spec, self.view.camera, self.view.viewport_px, to, &tasks)
            }
        };
        if let Err(e) = started {
            self.messages.fail(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn videos_keep_the_viewport_shape_in_even_pixels() {
        assert_eq!(video_size(std::path::Path::new("a.gif"), 16.0 / 9.0), (854, 480));
        assert_eq!(video_size(std::path::Path::new("a.mp4"), 1.5), (1080, 720));
    }
}
