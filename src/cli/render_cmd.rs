//! `skelview render` and `thumbnail`: the viewer's scene and renderer, offscreen, to PNG.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::CliError;
use super::{Args, ExitCode, fail, load_all};
use skelview_core::core::Motion;
use skelview_render::offscreen::{self, Gpu, RenderError};
use skelview_scene::{FrameSpec, Layout, OrbitCamera, Scene, Style, ViewPreset, framing, shared_end_secs};
use skelview_video::VideoFormat;
use skelview_video::{Offscreen, render_sequence, render_video};

/// Options of `render`.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Frame to show (default: 0), or a time.
    pub at: At,
    /// Image size in pixels.
    pub size: (u32, u32),
    /// Camera preset.
    pub view: ViewPreset,
    /// Orthographic projection.
    pub ortho: bool,
    /// Draw joint axes.
    pub axes: bool,
    /// Output PNG (a folder with `range`).
    pub out: PathBuf,
    /// Frames `start:end:step` for a PNG sequence or a video (negative counts from the end).
    pub range: Option<(i64, i64, usize)>,
    /// Frame rate of a video (`None`: the clip's divided by the step).
    pub fps: Option<f64>,
    /// How several clips are placed.
    pub layout: Layout,
    /// Colour the second clip's bones by their distance to the first's.
    pub heat_map: bool,
    /// A camera given as is (the viewer's, to reproduce its view) instead of framing.
    pub camera: Option<OrbitCamera>,
    /// What is drawn.
    pub drawn: Drawn,
    /// Where to write the camera used, as JSON.
    pub camera_json: Option<PathBuf>,
}

/// What a picture draws of the clips and around them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The meshes of files that have them.
    pub mesh: bool,
    /// Bones and joints.
    pub skeleton: bool,
    /// The ground grid and world axes.
    pub grid: bool,
}

impl Default for Drawn {
    fn default() -> Self {
        Self { mesh: true, skeleton: true, grid: true }
    }
}

impl Drawn {
    /// The style of the picture.
    fn style(self, axes: bool) -> Style {
        Style { axes, grid: self.grid, gizmo: self.grid, bones: self.skeleton, joints: self.skeleton, ..Style::default() }
    }

    /// What each clip shows of a character.
    fn body(self) -> skelview_scene::Body {
        match (self.mesh, self.skeleton) {
            (true, true) => skelview_scene::Body::Both,
            (true, false) => skelview_scene::Body::Mesh,
            (false, _) => skelview_scene::Body::Skeleton,
        }
    }
}

/// The camera of a picture as `--camera-json` writes it: row-major 4×4 matrices.
fn camera_json(camera: &OrbitCamera, size: (u32, u32)) -> String {
    let rows = |m: glam::Mat4| -> Vec<[f32; 4]> { (0..4).map(|r| m.row(r).to_array()).collect() };
    let aspect = size.0 as f32 / size.1 as f32;
    serde_json::json!({
        "view": rows(camera.view_from_world()),
        "projection": rows(camera.clip_from_view(aspect)),
        "width": size.0,
        "height": size.1,
    })
    .to_string()
}

/// `--camera X,Y,Z,DISTANCE,YAW,PITCH`: the orbit target in metres (Y up), the distance in
/// metres and the angles in degrees, as the viewer's inspector shows its camera.
pub fn parse_camera(s: &str) -> Result<OrbitCamera, super::error::ArgError> {
    let bad = || super::error::ArgError::expected("X,Y,Z,DISTANCE,YAW,PITCH (metres and degrees)", s);
    let v: Vec<f32> = s.split(',').map(|p| p.trim().parse::<f32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let [x, y, z, distance, yaw, pitch] = v[..] else { return Err(bad()) };
    if v.iter().any(|x| !x.is_finite()) || !(distance > 0.0) {
        return Err(bad());
    }
    Ok(OrbitCamera {
        target: glam::Vec3::new(x, y, z),
        distance,
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        ..OrbitCamera::default()
    })
}

/// The camera: the one given, else framing `bounds`.
fn camera_for(options: &RenderOptions, bounds: Option<(glam::Vec3, glam::Vec3)>, aspect: f32) -> OrbitCamera {
    match options.camera {
        Some(c) => OrbitCamera { orthographic: options.ortho, ..c },
        None => framing(bounds, options.view, aspect, options.ortho),
    }
}

/// Which instant to render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// A frame (negative: from the end).
    Frame(i64),
    /// A time in seconds.
    Time(f64),
}

/// The scene of `motions` with the options' layout and heat map, as the viewer shows them.
fn scene_of(motions: Vec<Motion>, options: &RenderOptions) -> Scene {
    let mut scene = Scene::arranged(motions.into_iter().map(Arc::new), options.layout, options.view, options.heat_map);
    for c in &mut scene.clips {
        if c.skins.is_some() {
            c.body = options.drawn.body();
        }
    }
    // The heat map's scale over the whole overlap, as the viewer has it once its background
    // comparison is in (the overlap does not depend on the instant).
    scene.settle(&FrameSpec::at(0.0, Style::default()));
    scene
}

/// The shared-clock time of frame `f` of the reference (first) clip; negative frames count
/// from the end of the shared clock.
fn frame_time(scene: &Scene, f: i64) -> (usize, f64) {
    let step = scene.clips.first().map_or(1.0 / 30.0, |c| c.motion.clip.frame_time_secs);
    let step = if step > 0.0 && step.is_finite() { step } else { 1.0 / 30.0 };
    let n = (shared_end_secs(&scene.clips) / step + 1e-3).floor() as i64 + 1;
    let f = skelview_core::core::frame_index_clamped(f, n.max(1) as usize);
    (f, f as f64 * step)
}

/// Renders the scene at the options' instant, framed on it (MSAA `samples`: 1 in tests).
pub fn render_image(gpu: &Gpu, scene: &mut Scene, options: &RenderOptions, samples: u32) -> Result<(Vec<u8>, OrbitCamera), RenderError> {
    let style = options.drawn.style(options.axes);
    let time_secs = match options.at {
        At::Frame(f) => frame_time(scene, f).1,
        At::Time(t) => t,
    };
    let frame = FrameSpec::at(time_secs, style);
    let aspect = options.size.0 as f32 / options.size.1 as f32;
    let bounds = scene.bounds_over_times(&frame, [time_secs]);
    let camera = camera_for(options, bounds, aspect);
    let mut target = Offscreen::new(gpu, options.size, samples);
    let pixels = target.picture(gpu, scene, &frame, &camera)?;
    Ok((pixels, camera))
}

/// Loads the inputs and opens a headless device, or reports why not (exit code 2).
fn motions_and_gpu(args: &Args, files: &[PathBuf]) -> Result<(Vec<Motion>, Gpu), ExitCode> {
    let motions = load_all(args, files).map_err(|e| fail(&e))?;
    let gpu = offscreen::headless().map_err(|e| {
        eprintln!("skelview: {e}");
        2
    })?;
    Ok((motions, gpu))
}

pub(super) fn run(args: &Args, files: &[PathBuf], options: &RenderOptions) -> ExitCode {
    let (motions, gpu) = match motions_and_gpu(args, files) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut scene = scene_of(motions, options);
    if let Some(range) = options.range {
        return match render_range(&gpu, &mut scene, options, range) {
            Ok((n, fps)) => {
                let rate = fps.map(|f| format!(" at {f:.3} fps")).unwrap_or_default();
                println!("wrote {n} frames{rate} to {} ({}x{}, {})", options.out.display(), options.size.0, options.size.1, gpu.adapter);
                0
            }
            Err(e) => {
                eprintln!("skelview: {e}");
                2
            }
        };
    }
    match render_image(&gpu, &mut scene, options, 4).map_err(|e| e.to_string()).and_then(|(pixels, camera)| {
        skelview_video::write_png(&options.out, options.size, &pixels).map_err(|e| e.to_string())?;
        options.camera_json.as_ref().map_or(Ok(()), |path| {
            skelview_core::export::atomic::write_atomically(path, |w| w.write_all(camera_json(&camera, options.size).as_bytes()))
                .map_err(|e| format!("{}: {e}", path.display()))
        })
    }) {
        Ok(()) => {
            println!("wrote {} ({}x{}, {})", options.out.display(), options.size.0, options.size.1, gpu.adapter);
            for f in &gpu.fell_back_from {
                eprintln!("note: no device from {f}: drawn with {}", gpu.adapter);
            }
            0
        }
        Err(e) => {
            eprintln!("skelview: {e}");
            2
        }
    }
}

/// Frames `start..=end` every `step` as numbered PNGs or a video (then also its frame rate),
/// with one camera framing the range.
fn render_range(gpu: &Gpu, scene: &mut Scene, options: &RenderOptions, range: (i64, i64, usize)) -> Result<(usize, Option<f64>), CliError> {
    let (last, _) = frame_time(scene, -1);
    let outside = || CliError::Range { start: range.0, end: range.1, last };
    let resolve = |f: i64| skelview_core::core::frame_index(f, last + 1).map_err(|_| outside());
    let (start, end, step) = (resolve(range.0)?, resolve(range.1)?, range.2.max(1));
    if start > end {
        return Err(outside());
    }
    let frames: Vec<(usize, f64)> = (start..=end).step_by(step).map(|f| frame_time(scene, f as i64)).collect();
    let frame = FrameSpec::at(0.0, options.drawn.style(options.axes));
    let aspect = options.size.0 as f32 / options.size.1 as f32;
    let probe = frames.iter().step_by((frames.len() / 64).max(1)).chain(frames.last()).map(|f| f.1);
    let bounds = scene.bounds_over_times(&frame, probe.collect::<Vec<_>>());
    let camera = camera_for(options, bounds, aspect);
    let mut target = Offscreen::new(gpu, options.size, 4);
    let progress = super::progress::bar(frames.len() as u64, "rendering");
    let mut report = |k: usize, _| {
        progress.set_position(k as u64);
        std::ops::ControlFlow::Continue(())
    };
    let result = match VideoFormat::of(&options.out) {
        Some(_) => {
            let clip_fps = scene.clips.first().map_or(30.0, |c| c.motion.clip.fps());
            let fps = options.fps.unwrap_or(clip_fps / step as f64);
            render_video(gpu, scene, &frame, &frames, &camera, &mut target, &options.out, fps, &mut report).map(|n| (n, Some(fps)))
        }
        None => render_sequence(gpu, scene, &frame, &frames, &camera, &mut target, &options.out, &mut report).map(|n| (n, None)),
    };
    progress.finish_and_clear();
    Ok(result?)
}

/// `skelview thumbnail INPUT... OUTPUT.png [--size N]`: the middle frame, framed, square, as
/// the freedesktop thumbnailer spec expects (exit 0 with a PNG, or non-zero and no file).
pub(super) fn thumbnail(args: &Args, inputs: &[PathBuf], output: &Path, size: u32) -> ExitCode {
    let (motions, gpu) = match motions_and_gpu(args, inputs) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let middle = motions.first().map_or(0, |m| m.clip.num_frames() / 2) as i64;
    let options = RenderOptions {
        at: At::Frame(middle),
        size: (size, size),
        view: ViewPreset::Perspective,
        ortho: false,
        axes: false,
        out: output.to_owned(),
        range: None,
        fps: None,
        layout: Layout::Overlay,
        heat_map: false,
        camera: None,
        drawn: Drawn::default(),
        camera_json: None,
    };
    let mut scene = scene_of(motions, &options);
    match render_image(&gpu, &mut scene, &options, 4)
        .map_err(|e| e.to_string())
        .and_then(|(pixels, _)| skelview_video::write_png(output, options.size, &pixels).map_err(|e| e.to_string()))
    {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("skelview: {e}");
            2
        }
    }
}
