//! Hand-rolled argument parsing (few commands; no need for a parser crate).

use std::path::PathBuf;

use crate::core::PositionRule;
use crate::formats::LoadOptions;

/// Usage text printed by `--help` and on usage errors.
pub const USAGE: &str = "\
usage:
  skelview [FILE...]                      open the viewer (on the bundled sample when no file)
  skelview info FILE... [--json] [--mnm MAP]
                                          format, joints, frames, fps, units, warnings;
                                          with an MNM name map, each joint's standard name
  skelview positions FILE... [--frames LIST] [--raw]
                                          CSV `joint,frame,x,y,z` of global joint positions;
                                          LIST like 0,1,50,-1 (negative from the end) or all;
                                          metres and Y-up unless --raw (file units and axes)
  skelview check PATH...                  validate files or whole folders; exit 1 if any fails
  skelview convert INPUT... OUTPUT.bvh [--order ZXY]
                                          write any loaded motion as BVH (rotations in ORDER,
                                          positions on the root and on moving offsets)
  skelview render FILE... --out FILE.png [--frame N | --time S] [--size WxH]
                  [--view persp|front|side|top] [--ortho] [--axes]
                                          draw with the viewer's renderer, without a window
  skelview render FILE... --range A:B[:STEP] --out DIR/   a numbered PNG sequence
  skelview thumbnail INPUT... OUTPUT.png [--size N]       a square thumbnail of the middle frame

  skelview compare A B [--mnm MAP] [--align none|roots|roots+heading] [--offset SECS] [--csv]
                                          joint matching and position errors (MPJPE) of B vs A
  skelview --install-desktop | --uninstall-desktop
                                          (un)register skelview for double-click and thumbnails

options:
  --bvh-positions replace|add   BVH position channels replace the OFFSET (default) or add to it
  --amc-fps N                   frame rate of AMC files (default 120)
  -h, --help                    this text
  -V, --version                 version

An .amc file finds its .asf (same name, CMU NN_MM -> NN, a name prefix, or matching bones);
give both to choose: skelview info skel.asf take.amc";

/// A parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// What to do.
    pub command: Command,
    /// How to read files.
    pub options: LoadOptions,
}

/// Frames requested from `positions`.
#[derive(Clone, Debug, PartialEq)]
pub enum FrameList {
    /// Every frame.
    All,
    /// These frames; negative counts from the end (-1 is the last).
    Some(Vec<i64>),
}

/// The subcommands.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Print usage.
    Help,
    /// Print the version.
    Version,
    /// Open the viewer window.
    View {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
    },
    /// Describe files.
    Info {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
        /// JSON instead of text.
        json: bool,
        /// MNM name map whose standard names are shown beside the joints.
        mnm: Option<PathBuf>,
    },
    /// Print joint positions as CSV.
    Positions {
        /// Files.
        files: Vec<PathBuf>,
        /// Frames to print.
        frames: FrameList,
        /// File units and axes.
        raw: bool,
    },
    /// Render to a PNG.
    Render {
        /// Files (empty: the bundled sample).
        files: Vec<PathBuf>,
        /// What and how to render.
        options: super::render_cmd::RenderOptions,
    },
    /// A thumbnail of the middle frame.
    Thumbnail {
        /// Input files (one motion).
        inputs: Vec<PathBuf>,
        /// The PNG to write.
        output: PathBuf,
        /// Width and height in pixels.
        size: u32,
    },
    /// Compare two motions.
    Compare {
        /// The two inputs (an ASF/AMC pair counts as one).
        files: Vec<PathBuf>,
        /// Alignment of B onto A.
        align: crate::compare::Align,
        /// B starts this many seconds after A.
        offset_secs: f64,
        /// Per-frame, per-joint CSV instead of the summary.
        csv: bool,
        /// MNM name map used as the last matching stage.
        mnm: Option<PathBuf>,
    },
    /// Register with the desktop (true) or remove the registration (false).
    Desktop(bool),
    /// Write a motion as BVH.
    Convert {
        /// Input files (one motion).
        inputs: Vec<PathBuf>,
        /// The `.bvh` to write.
        output: PathBuf,
        /// Rotation order.
        options: crate::export::BvhWriteOptions,
    },
    /// Validate files and folders.
    Check {
        /// Files or folders.
        paths: Vec<PathBuf>,
    },
}

/// Parses `argv` (program name first).
pub fn parse_args(argv: Vec<String>) -> Result<Args, String> {
    let mut it = argv.into_iter().skip(1).peekable();
    let mut options = LoadOptions::default();
    let sub = match it.peek().map(String::as_str) {
        Some("info" | "positions" | "check" | "render" | "convert" | "thumbnail" | "compare" | "help") => it.next(),
        _ => None,
    };
    let mut files = Vec::new();
    let (mut json, mut raw, mut frames) = (false, false, None);
    let mut write = crate::export::BvhWriteOptions::default();
    let mut render = super::render_cmd::RenderOptions {
        at: super::render_cmd::At::Frame(0),
        size: (1280, 720),
        view: crate::scene::ViewPreset::Perspective,
        ortho: false,
        axes: false,
        out: PathBuf::new(),
        range: None,
        layout: crate::scene::Layout::Overlay,
        heat_map: false,
    };
    let mut thumb_size: Option<u32> = None;
    let (mut align, mut offset_secs, mut csv) = (crate::compare::Align::None, 0.0f64, false);
    let mut mnm = None;
    let mut only_files = false;
    while let Some(a) = it.next() {
        if only_files || !a.starts_with('-') || a == "-" {
            files.push(PathBuf::from(a));
            continue;
        }
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--" => only_files = true,
            "-h" | "--help" => return Ok(Args { command: Command::Help, options }),
            "-V" | "--version" => return Ok(Args { command: Command::Version, options }),
            "--install-desktop" => return Ok(Args { command: Command::Desktop(true), options }),
            "--uninstall-desktop" => return Ok(Args { command: Command::Desktop(false), options }),
            "--json" => json = true,
            "--raw" => raw = true,
            "--frames" => frames = Some(parse_frames(&value("--frames")?)?),
            "--frame" => {
                let v = value("--frame")?;
                render.at = super::render_cmd::At::Frame(v.parse().map_err(|_| format!("--frame takes a frame number, not '{v}'"))?);
            }
            "--time" => {
                let v = value("--time")?;
                let t: f64 = v.parse().map_err(|_| format!("--time takes seconds, not '{v}'"))?;
                if !t.is_finite() {
                    return Err(format!("--time takes seconds, not '{v}'"));
                }
                render.at = super::render_cmd::At::Time(t);
            }
            "--size" => {
                let v = value("--size")?;
                match v.parse::<u32>() {
                    Ok(n) if (8..=4096).contains(&n) => thumb_size = Some(n),
                    _ if v.contains(['x', 'X']) => render.size = super::render_cmd::parse_size(&v)?,
                    _ => return Err(format!("--size takes N (8 to 4096) or WIDTHxHEIGHT, not '{v}'")),
                }
            }
            "--range" => render.range = Some(super::render_cmd::parse_range(&value("--range")?)?),
            "--view" => {
                let v = value("--view")?;
                render.view =
                    crate::scene::ViewPreset::parse(&v).ok_or_else(|| format!("--view takes persp, front, side or top, not '{v}'"))?;
            }
            "--ortho" => render.ortho = true,
            "--heat-map" => render.heat_map = true,
            "--layout" => {
                let v = value("--layout")?;
                render.layout = crate::scene::Layout::parse(&v)
                    .ok_or_else(|| format!("--layout takes overlay, side-by-side, align-roots or align-roots-heading, not '{v}'"))?;
            }
            "--csv" => csv = true,
            "--mnm" => mnm = Some(PathBuf::from(value("--mnm")?)),
            "--align" => {
                let v = value("--align")?;
                align = crate::compare::Align::parse(&v).ok_or_else(|| format!("--align takes none, roots or roots+heading, not '{v}'"))?;
            }
            "--offset" => {
                let v = value("--offset")?;
                offset_secs =
                    v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| format!("--offset takes seconds, not '{v}'"))?;
            }
            "--order" => {
                let v = value("--order")?;
                write.order = crate::export::BvhWriteOptions::parse_order(&v)
                    .ok_or_else(|| format!("--order takes a rotation order like ZXY, not '{v}'"))?;
            }
            "--axes" => render.axes = true,
            "--out" | "-o" => render.out = PathBuf::from(value("--out")?),
            "--bvh-positions" => {
                options.bvh_positions = match value("--bvh-positions")?.as_str() {
                    "replace" => PositionRule::Replace,
                    "add" => PositionRule::Add,
                    other => return Err(format!("--bvh-positions takes replace or add, not '{other}'")),
                }
            }
            "--amc-fps" => {
                let v = value("--amc-fps")?;
                let fps: f64 = v.parse().map_err(|_| format!("--amc-fps takes a number, not '{v}'"))?;
                if !(fps > 0.0 && fps.is_finite()) {
                    return Err(format!("--amc-fps must be positive, not '{v}'"));
                }
                options.amc_frame_time_secs = 1.0 / fps;
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let command = match sub.as_deref() {
        Some("help") => Command::Help,
        Some("positions") => {
            if files.is_empty() {
                return Err("positions needs at least one FILE".into());
            }
            Command::Positions { files, frames: frames.unwrap_or(FrameList::All), raw }
        }
        Some("compare") => {
            if files.len() < 2 {
                return Err("compare needs two files (A B)".into());
            }
            Command::Compare { files, align, offset_secs, csv, mnm }
        }
        Some("thumbnail") => {
            let Some(output) = files.pop().filter(|o| super::render_cmd::is_png(o)) else {
                return Err("thumbnail needs INPUT... OUTPUT.png".into());
            };
            if files.is_empty() {
                return Err("thumbnail needs an input file before OUTPUT.png".into());
            }
            Command::Thumbnail { inputs: files, output, size: thumb_size.unwrap_or(256) }
        }
        Some("render") => {
            if let Some(n) = thumb_size {
                render.size = (n, n);
            }
            if render.out.as_os_str().is_empty() {
                return Err("render needs --out FILE.png (or --out DIR/ with --range)".into());
            }
            if render.range.is_some() {
                if super::render_cmd::is_png(&render.out) {
                    return Err("with --range, --out names a folder for the numbered PNGs".into());
                }
                return Ok(Args { command: Command::Render { files, options: render }, options });
            }
            if !super::render_cmd::is_png(&render.out) {
                return Err(format!("--out must name a .png file, not '{}'", render.out.display()));
            }
            Command::Render { files, options: render }
        }
        Some("convert") => {
            let Some(output) = files.pop().filter(|o| o.extension().is_some_and(|e| e.eq_ignore_ascii_case("bvh"))) else {
                return Err("convert needs INPUT... OUTPUT.bvh".into());
            };
            if files.is_empty() {
                return Err("convert needs an input file before OUTPUT.bvh".into());
            }
            Command::Convert { inputs: files, output, options: write }
        }
        Some("check") => {
            if files.is_empty() {
                return Err("check needs at least one PATH".into());
            }
            Command::Check { paths: files }
        }
        Some("info") => Command::Info { files, json, mnm },
        _ => Command::View { files },
    };
    Ok(Args { command, options })
}

/// Parses `0,1,50,-1` or `all`.
pub fn parse_frames(s: &str) -> Result<FrameList, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(FrameList::All);
    }
    s.split(',')
        .map(|p| p.trim().parse::<i64>().map_err(|_| format!("--frames takes numbers like 0,1,50,-1 or 'all', not '{p}'")))
        .collect::<Result<Vec<_>, _>>()
        .map(FrameList::Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<Args, String> {
        parse_args(std::iter::once("skelview").chain(s.split_whitespace()).map(String::from).collect())
    }

    #[test]
    fn parses_commands_and_options() {
        let a = args("positions a.bvh --frames 0,1,-1 --raw --bvh-positions add").unwrap();
        assert_eq!(a.command, Command::Positions { files: vec!["a.bvh".into()], frames: FrameList::Some(vec![0, 1, -1]), raw: true });
        assert_eq!(a.options.bvh_positions, PositionRule::Add);
        assert_eq!(args("").unwrap().command, Command::View { files: vec![] });
        assert_eq!(args("x.bvh").unwrap().command, Command::View { files: vec!["x.bvh".into()] });
        assert_eq!(args("info").unwrap().command, Command::Info { files: vec![], json: false, mnm: None });
        assert!(args("check").is_err());
        assert!(args("info --bogus").is_err());
        assert!(args("--amc-fps 0").is_err());
        assert_eq!(parse_frames("all"), Ok(FrameList::All));
        assert!(parse_frames("1,x").is_err());
    }
}
