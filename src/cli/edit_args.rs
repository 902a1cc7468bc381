//! `skelview edit`'s grammar: the operations as options, applied in the order they are given
//! (clap keeps each option's values apart; their positions on the line put them in order).

use std::path::PathBuf;

use super::error::ArgError;
use skelview_core::edit::{FillMethod, FrameRange, Op};

/// Fix what the checks find: apply operations, in the order given, and write the result.
#[derive(clap::Args, Debug)]
pub struct EditArgs {
    /// Input files or folders (an ASF with its AMC counts as one motion).
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where to write: a file, whose extension chooses the writer (`skelview formats` lists
    /// them); with several inputs or a folder, a folder (each file keeps its name; --ext
    /// chooses the format).
    #[arg(long, short, value_name = "OUTPUT")]
    pub out: Option<PathBuf>,
    /// With a folder as --out: the extension (format) of the files written (default: each
    /// input's own).
    #[arg(long, value_name = "EXT")]
    pub ext: Option<String>,
    /// Fill gaps (missing samples): linear, spline (a cubic through 10 samples each side),
    /// rigid (from three or more markers that move rigidly with it), pattern (along a donor
    /// marker's path) or auto (per gap, the best the data allow).
    #[arg(long, value_name = "METHOD", value_parser = ["linear", "spline", "rigid", "pattern", "auto"])]
    pub fill_gaps: Vec<String>,
    /// The joints or markers --fill-gaps, --filter, --despike and --unroll apply to, anywhere on
    /// the line (comma-separated names; all when not given).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub joints: Vec<String>,
    /// The frames --fill-gaps, --filter and --despike apply to, anywhere on the line: A:B
    /// (from 0, negative from the end) or seconds, 1.5s:3s (all when not given).
    #[arg(long, value_name = "A:B", allow_hyphen_values = true)]
    pub range: Option<String>,
    /// The longest gap any fill of this run fills, in frames (longer gaps stay gaps). Default:
    /// half a second of frames.
    #[arg(long, value_name = "FRAMES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_gap: Option<u64>,
    /// Zero-lag Butterworth low-pass, forward and backward (as SciPy's filtfilt): cutoff in
    /// Hz, order 4 unless given.
    #[arg(long, value_name = "butterworth:CUTOFF_HZ[:ORDER]")]
    pub filter: Vec<String>,
    /// Replace the samples the checks call pops (jumps, for markers) from their neighbours.
    #[arg(long, action = clap::ArgAction::Count)]
    pub despike: u8,
    /// Make every Euler channel continuous (no ±360° steps) and quaternions
    /// hemisphere-continuous; the pose does not move.
    #[arg(long, action = clap::ArgAction::Count)]
    pub unroll: u8,
    /// Keep frames A to B inclusive, numbered from 0 as `positions` numbers them (negative
    /// from the end), or seconds: 1.5s:3s.
    #[arg(long, value_name = "A:B", allow_hyphen_values = true)]
    pub trim: Vec<String>,
    /// Resample to this many frames per second (rotations slerped).
    #[arg(long, value_name = "FPS", allow_negative_numbers = true)]
    pub resample: Vec<f64>,
    /// Blend the end into the start over FRAMES frames so that the clip loops (same frame
    /// count; the root keeps travelling).
    #[arg(long = "loop", value_name = "FRAMES")]
    pub loop_frames: Vec<usize>,
    /// Move the clip so that its lowest point over all frames is at height 0.
    #[arg(long, action = clap::ArgAction::Count)]
    pub ground: u8,
    /// Add the rest pose (a T-pose in most BVH files) as a new first frame, where the clip
    /// starts.
    #[arg(long, action = clap::ArgAction::Count)]
    pub add_tpose: u8,
    /// Make frame N (from 0) the rest pose: offsets from where it puts the joints, every
    /// frame's rotations re-expressed from it (frame N reads all zeros); the motion stays.
    #[arg(long, value_name = "N")]
    pub rest_from_frame: Vec<usize>,
    /// Turn the clip about the up axis, through the root, so that at its first frame the body
    /// faces this way: +x, -x, +y, -y, +z or -z (the file's axes; not the up axis).
    #[arg(long, value_name = "DIRECTION", allow_hyphen_values = true)]
    pub face: Vec<String>,
    /// Scale every length by FACTOR.
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub scale: Vec<f64>,
    /// Rename a joint or marker.
    #[arg(long, value_name = "OLD=NEW")]
    pub rename: Vec<String>,
    /// Remove a joint (and every joint below it) or a marker.
    #[arg(long, value_name = "NAME")]
    pub remove_joint: Vec<String>,
    /// Add an event to a capture: label, Left/Right/General, seconds (as `info` lists events).
    #[arg(long, value_name = "LABEL:CONTEXT:SECONDS")]
    pub add_event: Vec<String>,
    /// Remove a capture's event: label and seconds (as `info` lists events).
    #[arg(long, value_name = "LABEL:SECONDS")]
    pub remove_event: Vec<String>,
    /// The operations of a recipe file (TOML), in its place among the others.
    #[arg(long, value_name = "FILE.toml")]
    pub recipe: Vec<PathBuf>,
    /// Write the operations given as a recipe file (with or without --out).
    #[arg(long, value_name = "FILE.toml")]
    pub save_recipe: Option<PathBuf>,
    /// Rotation order of a written BVH, first listed outermost (default: the source's, when
    /// every joint shares one).
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,
    /// One JSON object per file: what each step did and the capture checks' counts before
    /// and after.
    #[arg(long)]
    pub json: bool,
}

/// One step as given on the command line: an operation, or a recipe file's operations.
#[derive(Clone, Debug, PartialEq)]
pub enum EditStep {
    /// An operation.
    Op(Op),
    /// The steps of a recipe file.
    Recipe(PathBuf),
}

/// The steps in the order they were given; `Err` names the option and what it expects.
pub fn steps(a: &EditArgs, matches: Option<&clap::ArgMatches>) -> Result<Vec<EditStep>, ArgError> {
    let mut out: Vec<(usize, EditStep)> = Vec::new();
    let at = |id: &str| -> Vec<usize> { matches.and_then(|m| m.indices_of(id)).map(Iterator::collect).unwrap_or_default() };
    let mut add = |id: &str, steps: Vec<EditStep>| {
        let places = at(id);
        for (k, s) in steps.into_iter().enumerate() {
            out.push((places.get(k).copied().unwrap_or(usize::MAX), s));
        }
    };
    let max_gap = a.max_gap.map(|g| g as usize);
    let range = a.range.as_deref().map(str::parse::<FrameRange>).transpose().map_err(ArgError::Range)?;
    let joints = || a.joints.iter().map(|j| j.trim().to_owned()).filter(|j| !j.is_empty()).collect::<Vec<_>>();
    let op = EditStep::Op;
    let fills = a.fill_gaps.iter().map(|m| {
        let method = FillMethod::parse(m).unwrap_or(FillMethod::Auto);
        op(Op::FillGaps { method, max_gap, donors: Vec::new(), joints: joints(), range })
    });
    add("fill_gaps", fills.collect());
    let filters = a.filter.iter().map(|f| {
        parse_filter(f).map(|o| match o {
            Op::Filter { cutoff_hz, order, .. } => op(Op::Filter { cutoff_hz, order, joints: joints(), range }),
            other => op(other),
        })
    });
    add("filter", filters.collect::<Result<_, _>>()?);
    add("despike", (0..a.despike).map(|_| op(Op::Despike { joints: joints(), range })).collect());
    add("unroll", (0..a.unroll).map(|_| op(Op::Unroll { joints: joints() })).collect());
    let trims = a.trim.iter().map(|t| t.parse::<FrameRange>().map(|range| op(Op::Trim { range })).map_err(ArgError::Trim));
    add("trim", trims.collect::<Result<_, _>>()?);
    add("resample", a.resample.iter().map(|&fps| op(Op::Resample { fps })).collect());
    add("loop_frames", a.loop_frames.iter().map(|&frames| op(Op::Loop { frames })).collect());
    add("ground", (0..a.ground).map(|_| op(Op::Ground)).collect());
    add("add_tpose", (0..a.add_tpose).map(|_| op(Op::AddTpose)).collect());
    add("rest_from_frame", a.rest_from_frame.iter().map(|&frame| op(Op::RestFromFrame { frame })).collect());
    add("face", a.face.iter().map(|toward| op(Op::Face { toward: toward.clone() })).collect());
    add("scale", a.scale.iter().map(|&factor| op(Op::Scale { factor })).collect());
    let renames = a.rename.iter().map(|r| match r.split_once('=') {
        Some((from, to)) if !from.is_empty() && !to.is_empty() => Ok(op(Op::Rename { from: from.into(), to: to.into() })),
        _ => Err(ArgError::Option { option: "--rename", given: r.clone(), expected: "OLD=NEW" }),
    });
    add("rename", renames.collect::<Result<_, _>>()?);
    add("remove_joint", a.remove_joint.iter().map(|name| op(Op::RemoveJoint { name: name.clone() })).collect());
    add("add_event", a.add_event.iter().map(|e| parse_add_event(e).map(op)).collect::<Result<_, _>>()?);
    add("remove_event", a.remove_event.iter().map(|e| parse_remove_event(e).map(op)).collect::<Result<_, _>>()?);
    add("recipe", a.recipe.iter().map(|p| EditStep::Recipe(p.clone())).collect());
    out.sort_by_key(|s| s.0);
    Ok(out.into_iter().map(|s| s.1).collect())
}

/// `butterworth:CUTOFF_HZ[:ORDER]`.
fn parse_filter(s: &str) -> Result<Op, ArgError> {
    let bad = || ArgError::Option {
        option: "--filter",
        given: s.to_owned(),
        expected: "butterworth:CUTOFF_HZ[:ORDER] (butterworth:6 or butterworth:6:2)",
    };
    let mut parts = s.split(':');
    if parts.next() != Some("butterworth") {
        return Err(bad());
    }
    let cutoff_hz: f64 = parts.next().and_then(|c| c.parse().ok()).ok_or_else(bad)?;
    let order = match parts.next() {
        Some(o) => o.parse().map_err(|_| bad())?,
        None => 4,
    };
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(Op::Filter { cutoff_hz, order, joints: Vec::new(), range: None })
}

/// Seconds written as `1.25` (as `info` lists event times).
fn seconds(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `LABEL:CONTEXT:SECONDS` (the label may hold colons).
fn parse_add_event(s: &str) -> Result<Op, ArgError> {
    let bad = || ArgError::Option { option: "--add-event", given: s.to_owned(), expected: "LABEL:CONTEXT:SECONDS (Foot Strike:Left:1.25)" };
    let mut parts = s.rsplitn(3, ':');
    let (Some(t), Some(context), Some(label)) = (parts.next(), parts.next(), parts.next()) else { return Err(bad()) };
    Ok(Op::AddEvent { label: label.to_owned(), context: context.to_owned(), time_secs: seconds(t).ok_or_else(bad)? })
}

/// `LABEL:SECONDS`.
fn parse_remove_event(s: &str) -> Result<Op, ArgError> {
    let bad = || ArgError::Option { option: "--remove-event", given: s.to_owned(), expected: "LABEL:SECONDS (Foot Strike:1.25)" };
    let (label, t) = s.rsplit_once(':').ok_or_else(bad)?;
    Ok(Op::RemoveEvent { label: label.to_owned(), time_secs: seconds(t).ok_or_else(bad)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_and_events_read_or_say_why() {
        assert!(matches!(parse_filter("butterworth:6"), Ok(Op::Filter { order: 4, .. })));
        assert!(matches!(parse_filter("butterworth:6:2"), Ok(Op::Filter { order: 2, .. })));
        assert!(parse_filter("bessel:6").unwrap_err().to_string().contains("butterworth:CUTOFF_HZ"));
        assert!(matches!(parse_add_event("Foot Strike:Left:1.25"), Ok(Op::AddEvent { time_secs: 1.25, .. })));
        assert!(parse_add_event("Foot Strike:1.25").is_err());
        assert_eq!(
            parse_remove_event("Foot Strike:x").unwrap_err().to_string(),
            "--remove-event 'Foot Strike:x': expected LABEL:SECONDS (Foot Strike:1.25)"
        );
    }
}
