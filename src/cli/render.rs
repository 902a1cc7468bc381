//! `skelview render`: the viewer's renderer, offscreen, to a PNG.

use std::path::{Path, PathBuf};

use glam::Vec3;

use super::{Args, ExitCode, fail, load_all};
use crate::core::pose::{self, GlobalPose, LocalPose};
use crate::core::{Interpolation, Motion};
use crate::render::offscreen::{self, Gpu};
use crate::render::scene::{self, DrawData, Style};
use crate::render::{OrbitCamera, RenderTarget, SkeletonRenderer, ViewPreset};

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
    /// Frames `start:end:step` for a PNG sequence (negative counts from the end).
    pub range: Option<(i64, i64, usize)>,
}

/// Which instant to render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// A frame (negative: from the end).
    Frame(i64),
    /// A time in seconds.
    Time(f64),
}

/// Distinct colours for overlaid clips.
pub const CLIP_COLORS: [[f32; 4]; 8] = [
    [0.78, 0.80, 0.86, 1.0],
    [0.95, 0.45, 0.35, 1.0],
    [0.40, 0.75, 0.95, 1.0],
    [0.55, 0.85, 0.45, 1.0],
    [0.90, 0.75, 0.30, 1.0],
    [0.75, 0.50, 0.90, 1.0],
    [0.35, 0.85, 0.80, 1.0],
    [0.95, 0.55, 0.75, 1.0],
];

/// Appends the draw data of `motions` at one instant; returns the bounds of their joints and
/// the largest body size (metres).
pub fn draw_at(motions: &[Motion], at: At, style: &Style, draw: &mut DrawData) -> (Vec3, Vec3, f32) {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let mut size = 0f32;
    let mut positions = Vec::new();
    for (k, m) in motions.iter().enumerate() {
        match at {
            At::Frame(f) => {
                let n = m.clip.num_frames().max(1) as i64;
                pose::frame_pose(&m.skeleton, &m.clip, (if f < 0 { n + f } else { f }).clamp(0, n - 1) as usize, &mut local);
            }
            At::Time(t) => pose::sample_pose(&m.skeleton, &m.clip, t, Interpolation::Linear, &mut local),
        }
        pose::global_pose(&m.skeleton, &local, &mut global);
        let display = scene::display_from_file(m);
        let body = scene::body_size_m(m);
        size = size.max(body);
        let clip_style = Style { bone_color: CLIP_COLORS[k % CLIP_COLORS.len()], ..*style };
        scene::build(&m.skeleton, &global, display, body, &clip_style, None, draw);
        scene::joint_positions(&global, display, &mut positions);
        for p in &positions {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
    }
    (lo, hi, size.max(0.1))
}

/// A camera for `view` framing the box `lo`–`hi`.
pub fn framing(lo: Vec3, hi: Vec3, view: ViewPreset, aspect: f32, ortho: bool) -> OrbitCamera {
    let mut camera = OrbitCamera { orthographic: ortho, ..OrbitCamera::default() };
    camera.set_preset(view);
    if lo.x <= hi.x {
        camera.frame_bounds(lo, hi, aspect);
    }
    camera
}

/// Builds the draw data of `motions` at one instant and a camera framing them.
pub fn compose(motions: &[Motion], at: At, style: &Style, view: ViewPreset, aspect: f32, ortho: bool) -> (DrawData, OrbitCamera) {
    let mut draw = DrawData::default();
    let (lo, hi, size) = draw_at(motions, at, style, &mut draw);
    let camera = framing(lo, hi, view, aspect, ortho);
    scene::grid(Vec3::new(camera.target.x, 0.0, camera.target.z), size, style, &mut draw.lines);
    (draw, camera)
}

/// Renders frames `start..=end` every `step` to `dir/frame_NNNNNN.png`, with one camera
/// framing the whole range (so the sequence does not jump). Returns the number written.
pub fn render_sequence(
    gpu: &Gpu,
    motions: &[Motion],
    options: &RenderOptions,
    range: (i64, i64, usize),
    samples: u32,
    camera: Option<OrbitCamera>,
    progress: &mut dyn FnMut(usize, usize) -> std::ops::ControlFlow<()>,
) -> Result<usize, String> {
    let n = motions.iter().map(|m| m.clip.num_frames().max(1)).max().unwrap_or(1) as i64;
    let resolve = |f: i64| if f < 0 { n + f } else { f };
    let (start, end, step) = (resolve(range.0), resolve(range.1), range.2.max(1));
    if start < 0 || end >= n || start > end {
        return Err(format!("--range {}:{} is outside the clip's frames 0..{}", range.0, range.1, n - 1));
    }
    let frames: Vec<i64> = (start..=end).step_by(step).collect();
    let style = Style { axes: options.axes, ..Style::default() };
    let aspect = options.size.0 as f32 / options.size.1 as f32;
    let mut draw = DrawData::default();
    let (mut lo, mut hi, mut size) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY), 0.1f32);
    for &f in frames.iter().step_by((frames.len() / 64).max(1)).chain(frames.last()) {
        draw.clear();
        let (a, b, s) = draw_at(motions, At::Frame(f), &style, &mut draw);
        (lo, hi, size) = (lo.min(a), hi.max(b), size.max(s));
    }
    let camera = camera.unwrap_or_else(|| framing(lo, hi, options.view, aspect, options.ortho));
    let mut renderer = SkeletonRenderer::new(&gpu.device, wgpu::TextureFormat::Rgba8UnormSrgb, samples);
    let target = RenderTarget::new(&gpu.device, &renderer, options.size);
    let globals = offscreen::globals(&camera, aspect);
    std::fs::create_dir_all(&options.out).map_err(|e| format!("{}: {e}", options.out.display()))?;
    for (k, &f) in frames.iter().enumerate() {
        if progress(k, frames.len()).is_break() {
            return Err(format!("cancelled after {k} of {} frames", frames.len()));
        }
        draw.clear();
        draw_at(motions, At::Frame(f), &style, &mut draw);
        scene::grid(Vec3::new(camera.target.x, 0.0, camera.target.z), size, &style, &mut draw.lines);
        let pixels = offscreen::render_rgba(gpu, &mut renderer, &target, &globals, &draw, BACKGROUND).map_err(|e| e.to_string())?;
        offscreen::write_png(&options.out.join(format!("frame_{f:06}.png")), options.size, &pixels).map_err(|e| e.to_string())?;
        if k % 25 == 24 || k + 1 == frames.len() {
            eprintln!("  {}/{} frames", k + 1, frames.len());
        }
    }
    Ok(frames.len())
}

/// Renders motions to an RGBA image with the given options (sample count 1: tests use this).
pub fn render_image(
    gpu: &Gpu,
    motions: &[Motion],
    options: &RenderOptions,
    samples: u32,
) -> Result<(Vec<u8>, OrbitCamera), offscreen::RenderError> {
    let style = Style { axes: options.axes, ..Style::default() };
    let aspect = options.size.0 as f32 / options.size.1 as f32;
    let (draw, camera) = compose(motions, options.at, &style, options.view, aspect, options.ortho);
    let mut renderer = SkeletonRenderer::new(&gpu.device, wgpu::TextureFormat::Rgba8UnormSrgb, samples);
    let target = RenderTarget::new(&gpu.device, &renderer, options.size);
    let globals = offscreen::globals(&camera, aspect);
    let pixels = offscreen::render_rgba(gpu, &mut renderer, &target, &globals, &draw, BACKGROUND)?;
    Ok((pixels, camera))
}

/// Background of renders (a dark blue-grey, linear).
pub const BACKGROUND: [f64; 4] = [0.018, 0.020, 0.026, 1.0];

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
    if let Some(range) = options.range {
        return match render_sequence(&gpu, &motions, options, range, 4, None, &mut |_, _| std::ops::ControlFlow::Continue(())) {
            Ok(n) => {
                eprintln!("wrote {n} frames to {} ({}x{}, {})", options.out.display(), options.size.0, options.size.1, gpu.adapter);
                0
            }
            Err(e) => {
                eprintln!("skelview: {e}");
                2
            }
        };
    }
    match render_image(&gpu, &motions, options, 4).and_then(|(pixels, _)| offscreen::write_png(&options.out, options.size, &pixels)) {
        Ok(()) => {
            eprintln!("wrote {} ({}x{}, {})", options.out.display(), options.size.0, options.size.1, gpu.adapter);
            0
        }
        Err(e) => {
            eprintln!("skelview: {e}");
            2
        }
    }
}

/// Parses `WxH`.
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size takes WIDTHxHEIGHT like 1280x720, not '{s}'");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(1..=8192).contains(&w) || !(1..=8192).contains(&h) {
        return Err(format!("--size must be between 1x1 and 8192x8192, not '{s}'"));
    }
    Ok((w, h))
}

/// True when `path` names a PNG file.
pub fn is_png(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
}

/// Parses `A:B` or `A:B:STEP` (negative frames count from the end).
pub fn parse_range(s: &str) -> Result<(i64, i64, usize), String> {
    let bad = || format!("--range takes START:END[:STEP] like 0:100:2, not '{s}'");
    let parts: Vec<&str> = s.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(bad());
    }
    let a = parts[0].parse().map_err(|_| bad())?;
    let b = parts[1].parse().map_err(|_| bad())?;
    let step = if parts.len() == 3 { parts[2].parse::<usize>().map_err(|_| bad())? } else { 1 };
    if step == 0 {
        return Err(bad());
    }
    Ok((a, b, step))
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
    };
    match render_image(&gpu, &motions, &options, 4).and_then(|(pixels, _)| offscreen::write_png(output, options.size, &pixels)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("skelview: {e}");
            2
        }
    }
}
