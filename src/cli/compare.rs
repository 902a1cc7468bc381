//! `skelview compare A B [--mnm MAP] [--align none|roots|roots+heading] [--offset SECS] [--csv]`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Args, ExitCode, fail, load_all};
use skelview_core::compare::{Align, compare_with_map};
use skelview_core::export::positions::csv_field;

pub(super) fn run(
    args: &Args,
    files: &[PathBuf],
    align: Align,
    offset_secs: f64,
    csv: bool,
    mnm: Option<&Path>,
    out: &mut dyn Write,
) -> ExitCode {
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
    let c = compare_with_map(a, b, align, offset_secs, map.as_deref());
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
