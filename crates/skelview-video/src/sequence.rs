//! Pictures of a [`Scene`] without a window: one image, or a numbered PNG sequence seen by
//! one camera, composed exactly as the viewer composes its frames.

use std::ops::ControlFlow;
use std::path::Path;

use skelview_render::offscreen::{self, Gpu, RenderError};
use skelview_render::{RenderTarget, SkeletonRenderer};
use skelview_scene::{BACKGROUND, DrawData, FrameSpec, OrbitCamera, Scene};
use thiserror::Error;

use crate::encode::{self, PngError, VideoError};

/// Why a sequence or a video of a scene could not be made.
#[derive(Debug, Error)]
pub enum SequenceError {
    /// Rendering or writing a picture failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The video could not be written.
    #[error(transparent)]
    Video(#[from] VideoError),
    /// A picture could not be written.
    #[error(transparent)]
    Png(#[from] PngError),
    /// A folder for the frames could not be made.
    #[error("{}: {source}", path.display())]
    Folder {
        /// The folder.
        path: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// Stopped before the last frame.
    #[error("cancelled after {done} of {total} frames")]
    Cancelled {
        /// Frames written.
        done: usize,
        /// Frames asked for.
        total: usize,
    },
}

/// A renderer and a target of one size, reused for every picture of a sequence.
pub struct Offscreen {
    renderer: SkeletonRenderer,
    target: RenderTarget,
    size: (u32, u32),
    draw: DrawData,
}

impl Offscreen {
    /// Pipelines and a target of `size` pixels with `samples` (1 or 4) MSAA samples.
    pub fn new(gpu: &Gpu, size: (u32, u32), samples: u32) -> Self {
        let renderer = SkeletonRenderer::new(&gpu.device, skelview_render::wgpu::TextureFormat::Rgba8UnormSrgb, samples);
        // Without VIEW_FORMATS (OpenGL when no Vulkan driver is installed) the target's
        // gamma view must be a copy, or creating it fails.
        let renderer = if gpu.view_formats { renderer } else { renderer.with_gamma_copy(&gpu.device) };
        let target = RenderTarget::new(&gpu.device, &renderer, size);
        Self { renderer, target, size, draw: DrawData::default() }
    }

    /// The scene composed for `frame`, grid around the camera's target, as RGBA8 pixels.
    pub fn picture(&mut self, gpu: &Gpu, scene: &mut Scene, frame: &FrameSpec, camera: &OrbitCamera) -> Result<Vec<u8>, RenderError> {
        self.draw.clear();
        scene.compose(frame, &mut self.draw);
        scene.grid(frame, camera.target, &mut self.draw);
        let globals = offscreen::globals(camera, self.size.0 as f32 / self.size.1 as f32);
        offscreen::render_rgba(gpu, &mut self.renderer, &self.target, &globals, &self.draw, BACKGROUND)
    }
}

/// Renders the scene at each `(frame number, shared time)` of `frames` to
/// `dir/frame_NNNNNN.png` with one camera. `progress(done, total)` may stop it. Returns the
/// number of files written.
pub fn render_sequence(
    gpu: &Gpu,
    scene: &mut Scene,
    frame: &FrameSpec,
    frames: &[(usize, f64)],
    camera: &OrbitCamera,
    offscreen: &mut Offscreen,
    dir: &Path,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<usize, SequenceError> {
    std::fs::create_dir_all(dir).map_err(|source| SequenceError::Folder { path: dir.to_owned(), source })?;
    let size = offscreen.size;
    render_each(gpu, scene, frame, frames, camera, offscreen, progress, &mut |number, pixels| {
        Ok(encode::write_png(&dir.join(format!("frame_{number:06}.png")), size, pixels)?)
    })
}

/// Renders the frames as [`render_sequence`] does into a video (`.gif` or `.mp4`) playing
/// at `fps`; returns the number of frames.
#[allow(clippy::too_many_arguments)]
pub fn render_video(
    gpu: &Gpu,
    scene: &mut Scene,
    frame: &FrameSpec,
    frames: &[(usize, f64)],
    camera: &OrbitCamera,
    offscreen: &mut Offscreen,
    path: &Path,
    fps: f64,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<usize, SequenceError> {
    let mut sink = encode::open(path, offscreen.size, fps)?;
    let n = render_each(gpu, scene, frame, frames, camera, offscreen, progress, &mut |_, pixels| Ok(sink.push(pixels)?))?;
    sink.finish()?;
    Ok(n)
}

/// Renders each frame and hands its pixels to `put(frame number, rgba)`.
#[allow(clippy::too_many_arguments)]
fn render_each(
    gpu: &Gpu,
    scene: &mut Scene,
    frame: &FrameSpec,
    frames: &[(usize, f64)],
    camera: &OrbitCamera,
    offscreen: &mut Offscreen,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    put: &mut dyn FnMut(usize, &[u8]) -> Result<(), SequenceError>,
) -> Result<usize, SequenceError> {
    for (k, &(number, time_secs)) in frames.iter().enumerate() {
        if progress(k, frames.len()).is_break() {
            return Err(SequenceError::Cancelled { done: k, total: frames.len() });
        }
        let pixels = offscreen.picture(gpu, scene, &FrameSpec { time_secs, ..*frame }, camera)?;
        put(number, &pixels)?;
    }
    let _ = progress(frames.len(), frames.len());
    Ok(frames.len())
}
