//! Measurements over time as CSV (`frame,time,<one column per measure>`), shared by
//! `skelview measure` and the viewer's Measure tool.

use std::io::Write;

use super::positions::csv_field;
use crate::core::Motion;
use crate::core::measure::Measure;

/// Writes the CSV: a header, then one row per frame of `frames` (`columns[k][i]` is measure
/// `k` at `frames[i]`); NaN (missing data) as an empty cell.
pub fn write_measures(
    m: &Motion,
    measures: &[Measure],
    frames: &[usize],
    columns: &[Vec<f64>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let name = |i: usize| m.skeleton.joints()[i].name.clone();
    let header: Vec<String> = measures.iter().map(|x| csv_field(&x.label(&name))).collect();
    writeln!(out, "frame,time,{}", header.join(","))?;
    let mut line = String::new();
    for (k, &f) in frames.iter().enumerate() {
        use std::fmt::Write as _;
        line.clear();
        let _ = write!(line, "{f},{}", f as f64 * m.clip.frame_time_secs);
        for c in columns {
            let v = c[k];
            if v.is_finite() {
                let _ = write!(line, ",{v}");
            } else {
                line.push(',');
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
