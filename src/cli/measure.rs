//! `skelview measure`: distances, angles, speeds and accelerations over time as CSV.

use std::io::Write;
use std::path::PathBuf;

use super::args::{FrameList, MeasureByName, MeasureKind};
use super::error::CliError;
use super::positions::resolve;
use super::{Args, ExitCode, fail, load_all};
use skelview_core::core::measure::{Measure, series};
use skelview_core::core::{Motion, Skeleton};
use skelview_core::export::measures::write_measures;

/// The joint called `name`, or an error naming the closest names the skeleton has.
fn joint(skeleton: &Skeleton, name: &str) -> Result<usize, CliError> {
    skeleton.joint_named(name).map_err(|joint| {
        let hint = if joint.like.is_empty() { " (`skelview info` lists the joints)" } else { "" };
        CliError::Joint { joint, hint }
    })
}

/// The measures of `names` on `m`'s skeleton.
pub(super) fn resolve_measures(m: &Motion, names: &[MeasureByName]) -> Result<Vec<Measure>, CliError> {
    names
        .iter()
        .map(|n| {
            let j = n.joints.iter().map(|name| joint(&m.skeleton, name)).collect::<Result<Vec<_>, _>>()?;
            let measure = match (n.kind, j.as_slice()) {
                (MeasureKind::Distance, &[a, b]) => Measure::Distance(a, b),
                (MeasureKind::Angle, &[a, b, c]) => Measure::Angle(a, b, c),
                (MeasureKind::Speed, &[a]) => Measure::Speed(a),
                (MeasureKind::Acceleration, &[a]) => Measure::Acceleration(a),
                _ => return Err(CliError::JointCount(format!("{:?}", n.kind))),
            };
            measure.check(m.skeleton.len())?;
            Ok(measure)
        })
        .collect()
}

pub(super) fn run(args: &Args, files: &[PathBuf], names: &[MeasureByName], frames: &FrameList, out: &mut dyn Write) -> ExitCode {
    let motions = match load_all(args, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let [m] = motions.as_slice() else {
        eprintln!("skelview: measure takes one motion (an ASF with its AMC counts as one), got {}", motions.len());
        return 2;
    };
    let path = m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default();
    let (measures, list) = match resolve_measures(m, names).and_then(|x| Ok((x, resolve(frames, m.clip.num_frames())?))) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    let Some(columns) = series(m, &measures, &list, m.display_from_file(), &|_| true) else { return 2 };
    // A broken pipe (`| head`) stops quietly.
    let _ = write_measures(m, &measures, &list, &columns, out);
    0
}
