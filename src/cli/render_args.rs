//! `skelview render`'s arguments and what they become: the picture's instant, size, camera,
//! layout and what is drawn (meshes, bones, grid).

use std::path::PathBuf;

use clap::ValueEnum;

use super::command::Command;
use super::render_cmd::{At, Drawn, RenderOptions};
use super::values::{finite, has_ext, parse_range, parse_size};
use skelview_scene::{Layout, OrbitCamera, ViewPreset};

/// What `render`'s arguments cannot mean together (a usage error).
#[derive(Debug, thiserror::Error)]
pub enum RenderArgError {
    /// A video of one frame.
    #[error("a video shows --range A:B[:STEP] (or the whole clip), not one --frame or --time")]
    VideoOfOneInstant,
    /// A range of frames into one PNG.
    #[error("with --range, --out names a folder for the numbered PNGs")]
    RangeIntoOnePng,
    /// An output that is no picture.
    #[error("--out must name a .png, .gif or .mp4 file, not '{}'", .0.display())]
    NotAPicture(PathBuf),
}

/// Draw with the viewer's renderer, without a window.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Files to draw together (the bundled sample when none).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The .png to write; with --range a folder; or a .gif / .mp4 video (of --range, else
    /// of the whole clip).
    #[arg(long, short, value_name = "PATH")]
    pub out: PathBuf,
    /// Frame to draw (negative counts from the end).
    #[arg(long, value_name = "N", allow_negative_numbers = true, conflicts_with = "time")]
    pub frame: Option<i64>,
    /// Time to draw, in seconds.
    #[arg(long, value_name = "SECS", value_parser = finite)]
    pub time: Option<f64>,
    /// Image size: WIDTHxHEIGHT, or N for a square.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "1280x720")]
    pub size: (u32, u32),
    /// Camera direction.
    #[arg(long, value_enum, default_value = "persp")]
    pub view: ViewArg,
    /// Orthographic projection.
    #[arg(long)]
    pub ortho: bool,
    /// Draw each joint's axes.
    #[arg(long)]
    pub axes: bool,
    /// Frames START:END[:STEP] as DIR/frame_NNNNNN.png (negative counts from the end).
    #[arg(long, value_name = "A:B[:STEP]", value_parser = parse_range, allow_hyphen_values = true, conflicts_with_all = ["frame", "time"])]
    pub range: Option<(i64, i64, usize)>,
    /// How several clips are placed, as in the viewer.
    #[arg(long, value_enum, default_value = "overlay")]
    pub layout: LayoutArg,
    /// Colour the second clip's bones by their distance to the first's.
    #[arg(long)]
    pub heat_map: bool,
    /// Camera as X,Y,Z,DISTANCE,YAW,PITCH (target and distance in metres, Y up; angles in
    /// degrees) instead of framing the figure: the viewer's camera, to reproduce its view.
    #[arg(long, value_name = "X,Y,Z,D,YAW,PITCH", value_parser = super::render_cmd::parse_camera, allow_hyphen_values = true)]
    pub camera: Option<OrbitCamera>,
    /// Draw the files' meshes (characters: glTF, VRM, FBX).
    #[arg(long, value_enum, default_value = "on")]
    pub mesh: Switch,
    /// Draw the bones and joints (over a translucent mesh when both are drawn).
    #[arg(long, value_enum, default_value = "on")]
    pub skeleton: Switch,
    /// Draw the ground grid and the world axes.
    #[arg(long, value_enum, default_value = "on")]
    pub grid: Switch,
    /// Write the camera used as JSON: {"view", "projection"} (4×4, row-major; clip space as
    /// wgpu's: x and y in −1..1, z in 0..1; world = metres, Y-up), "width", "height".
    #[arg(long, value_name = "CAM.json")]
    pub camera_json: Option<PathBuf>,
}

impl RenderArgs {
    /// The command, checked (`load_fps`: the shared `--fps`, a video's rate); the error is a
    /// usage message.
    pub fn command(self, load_fps: Option<f64>) -> Result<Command, RenderArgError> {
        let Self { files, out, frame, time, size, view, ortho, axes, range, layout, heat_map, camera, mesh, skeleton, grid, camera_json } =
            self;
        let video = has_ext(&out, "gif") || has_ext(&out, "mp4");
        let range = checked_range(&out, video, frame.is_some() || time.is_some(), range)?;
        let fps = load_fps.filter(|_| video);
        let at = match (frame, time) {
            (_, Some(t)) => At::Time(t),
            (f, None) => At::Frame(f.unwrap_or(0)),
        };
        let (view, layout) = (view_preset(view), scene_layout(layout));
        let drawn = Drawn { mesh: mesh == Switch::On, skeleton: skeleton == Switch::On, grid: grid == Switch::On };
        let options = RenderOptions { at, size, view, ortho, axes, out, range, fps, layout, heat_map, camera, drawn, camera_json };
        Ok(Command::Render { files, options })
    }
}

/// `on` or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// Drawn.
    On,
    /// Not drawn.
    Off,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ViewArg {
    /// Perspective from the front-right.
    Persp,
    /// Front view.
    Front,
    /// Side view.
    Side,
    /// Top view.
    Top,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LayoutArg {
    /// Where each file puts them.
    Overlay,
    /// Spread along the screen's horizontal axis by body size.
    SideBySide,
    /// First-frame roots brought together.
    AlignRoots,
    /// Roots together and facing the same way.
    AlignRootsHeading,
}

/// `render`'s range, checked against what `--out` names (`video`: a .gif or .mp4; `one`:
/// --frame or --time given).
fn checked_range(
    out: &std::path::Path,
    video: bool,
    one: bool,
    range: Option<(i64, i64, usize)>,
) -> Result<Option<(i64, i64, usize)>, RenderArgError> {
    if video && one {
        return Err(RenderArgError::VideoOfOneInstant);
    }
    // A video without a range is the whole clip.
    let range = if video { range.or(Some((0, -1, 1))) } else { range };
    if !video && range.is_some() && has_ext(out, "png") {
        return Err(RenderArgError::RangeIntoOnePng);
    } else if !video && range.is_none() && !has_ext(out, "png") {
        return Err(RenderArgError::NotAPicture(out.to_owned()));
    }
    Ok(range)
}

/// `render --view`'s choice as the camera's preset.
fn view_preset(view: ViewArg) -> ViewPreset {
    match view {
        ViewArg::Persp => ViewPreset::Perspective,
        ViewArg::Front => ViewPreset::Front,
        ViewArg::Side => ViewPreset::Side,
        ViewArg::Top => ViewPreset::Top,
    }
}

/// `render --layout`'s choice as the scene's layout.
fn scene_layout(layout: LayoutArg) -> Layout {
    match layout {
        LayoutArg::Overlay => Layout::Overlay,
        LayoutArg::SideBySide => Layout::SideBySide,
        LayoutArg::AlignRoots => Layout::AlignRoots,
        LayoutArg::AlignRootsHeading => Layout::AlignRootsHeading,
    }
}
