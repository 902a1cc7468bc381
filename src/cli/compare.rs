//! `skelview compare A B [--mnm MAP | --humanoid] [--align none|roots|roots+heading] [--offset SECS] [--csv]`;
//! a capture against a skeleton measures each marker's distance to the nearest joint.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use skelview_core::compare::{Align, compare_pairs, compare_with_map, humanoid_pairs, marker_fit};
use skelview_core::core::Motion;
use skelview_core::export::positions::csv_field;

/// How the joints of A and B are paired.
pub(super) enum Pairing<'a> {
    /// By name, with an MNM name map as the last stage.
    Names(Option<&'a Path>),
    /// By humanoid bone.
    Humanoid,
}

pub(super) fn run(
    args: &Args,
    files: &[PathBuf],
    align: Align,
    offset_secs: f64,
    csv: bool,
    pairing: Pairing,
    out: &mut dyn Write,
) -> ExitCode {
    let mnm = match pairing {
        Pairing::Names(mnm) => mnm,
        Pairing::Humanoid => None,
    };
    let map = match mnm.map(super::read_name_map).transpose() {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let motions = match load_all(args, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let [a, b] = motions.as_slice() else {
        eprintln!("skelview: compare takes two motions (an ASF with its AMC counts as one), got {}", motions.len());
        return 2;
    };
    // A capture against a skeleton (either order): each marker to the nearest joint.
    match (&a.capture, &b.capture) {
        (Some(_), None) => return markers(a, b, offset_secs, csv, out),
        (None, Some(_)) => return markers(b, a, -offset_secs, csv, out),
        _ => {}
    }
    let c = match pairing {
        Pairing::Humanoid => compare_pairs(a, b, align, offset_secs, humanoid_pairs(a, b)),
        Pairing::Names(_) => compare_with_map(a, b, align, offset_secs, map.as_deref()),
    };
    let name = |m: &skelview_core::core::Motion, i: usize| m.skeleton.joints()[i].name.clone();
    let result = (|| -> std::io::Result<()> {
        if csv {
            writeln!(out, "frame,time,joint_a,joint_b,error_m")?;
            for (row, &(f, t)) in c.errors.iter().zip(&c.frames) {
                for (e, &(i, k, _)) in row.iter().zip(&c.pairs) {
                    writeln!(out, "{f},{t},{},{},{e}", csv_field(&name(a, i)), csv_field(&name(b, k)))?;
                }
            }
            return Ok(());
        }
        writeln!(out, "MPJPE mean {} max {} m", c.mpjpe(), c.max())?;
        writeln!(out, "frames compared: {} (offset {offset_secs} s, align {align:?})", c.frames.len())?;
        writeln!(out, "matched joints: {} of {} / {}", c.pairs.len(), a.skeleton.len(), b.skeleton.len())?;
        for &(i, k, kind) in &c.pairs {
            writeln!(out, "  {} = {} ({})", name(a, i), name(b, k), kind.name())?;
        }
        let mut worst: Vec<(usize, (f32, f32))> = c.per_pair().into_iter().enumerate().collect();
        worst.sort_by(|x, y| y.1.0.total_cmp(&x.1.0));
        writeln!(out, "worst joints (mean, max in m):")?;
        for (p, (mean, max)) in worst.into_iter().take(10) {
            writeln!(out, "  {} {mean} {max}", name(a, c.pairs[p].0))?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => 0,
        Err(_) => 0, // broken pipe: stop quietly
    }
}

/// `compare CAPTURE SKELETON`: every marker's distance to the skeleton's nearest joint.
fn markers(capture: &Motion, skeleton: &Motion, offset_secs: f64, csv: bool, out: &mut dyn Write) -> ExitCode {
    let Some(fit) = marker_fit(capture, skeleton, offset_secs) else { return 2 };
    let marker = |j: usize| capture.skeleton.joints()[j].name.clone();
    let joint = |k: usize| skeleton.skeleton.joints().get(k).map_or(String::new(), |j| j.name.clone());
    let result = (|| -> std::io::Result<()> {
        if csv {
            writeln!(out, "frame,time,marker,nearest_joint,distance_m")?;
            for ((row, near), &(f, t)) in fit.distances.iter().zip(&fit.nearest).zip(&fit.frames) {
                for (j, (d, k)) in row.iter().zip(near).enumerate() {
                    let (d, k) =
                        if d.is_finite() { (d.to_string(), csv_field(&joint(*k as usize))) } else { (String::new(), String::new()) };
                    writeln!(out, "{f},{t},{},{k},{d}", csv_field(&marker(j)))?;
                }
            }
            return Ok(());
        }
        writeln!(out, "marker to nearest joint: mean {} m", fit.mean())?;
        writeln!(out, "frames compared: {} (offset {offset_secs} s)", fit.frames.len())?;
        let mut rows: Vec<(usize, (f32, f32, usize))> =
            fit.per_marker().into_iter().enumerate().filter_map(|(j, r)| Some((j, r?))).collect();
        rows.sort_by(|x, y| y.1.0.total_cmp(&x.1.0));
        writeln!(out, "markers (mean, max in m, nearest joint), farthest first:")?;
        for (j, (mean, max, k)) in rows {
            writeln!(out, "  {} {mean} {max} {}", marker(j), joint(k))?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => 0,
        Err(_) => 0,
    }
}
