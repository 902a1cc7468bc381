//! Global joint positions as CSV (`joint,frame,x,y,z`) or as a NumPy `.npy` array (frames ×
//! joints × 3, float32), shared by `skelview positions` and the viewer's File > Export
//! positions.

use std::io::Write;
use std::ops::ControlFlow;

use crate::core::Motion;
use crate::core::batch::{FramePoser, Gaps, PositionSpace, positions_group};
use crate::core::clip_fk::LANES;
use crate::export::decimal::push_f32;
use crate::par::*;

/// Quotes a CSV field when it needs it.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() }
}

/// Frames formatted as one piece of text, on one core.
const PIECE_FRAMES: usize = 64;
/// Pieces formatted at the same time before they are written (the text held at once).
const PIECES_PER_WRITE: usize = 32;

/// Writes rows for `frames` (no header). `raw`: file units and axes, else metres Y-up.
/// `progress(done, total)` is called every 2,048 frames; `Break` stops with `Interrupted`.
/// Pieces of frames are posed and formatted on every core (formatting numbers is most of
/// the time), and written in order.
pub fn write_csv(
    m: &Motion,
    frames: &[usize],
    raw: bool,
    with_file: bool,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> std::io::Result<()> {
    let space_from_file = if raw { glam::Mat4::IDENTITY } else { m.display_from_file() };
    let file = m.source.paths.last().map(|p| csv_field(&p.display().to_string()) + ",").unwrap_or_default();
    let prefix = if with_file { file.as_str() } else { "" };
    let names: Vec<String> = m.skeleton.joints().iter().map(|j| format!("{prefix}{}", csv_field(&j.name))).collect();
    let gaps = Gaps::new(&m.skeleton, &m.clip);
    let pieces: Vec<&[usize]> = frames.chunks(PIECE_FRAMES).collect();
    for (b, batch) in pieces.chunks(PIECES_PER_WRITE).enumerate() {
        if progress(b * PIECES_PER_WRITE * PIECE_FRAMES, frames.len()).is_break() {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "cancelled"));
        }
        let texts: Vec<Vec<u8>> =
            batch.to_vec().into_par_iter().map(|piece| piece_text(m, &gaps, piece, &names, space_from_file)).collect();
        for text in &texts {
            out.write_all(text)?;
        }
    }
    Ok(())
}

/// The rows of `frames`, posed a group at a time as `joint_positions` poses them (the same
/// numbers).
fn piece_text(m: &Motion, gaps: &Gaps, frames: &[usize], names: &[String], space_from_file: glam::Mat4) -> Vec<u8> {
    let mut text = Vec::with_capacity(frames.len() * names.len() * 40);
    for_each_row(m, gaps, frames, space_from_file, |f, row| {
        let frame = f.to_string();
        for (name, p) in names.iter().zip(row.chunks_exact(3)) {
            text.extend_from_slice(name.as_bytes());
            text.push(b',');
            text.extend_from_slice(frame.as_bytes());
            // Held values are for drawing; a position that rests on a missing value is not
            // data (NaN here): an empty field.
            if p[0].is_nan() {
                text.extend_from_slice(b",,,");
            } else {
                for &x in p {
                    text.push(b',');
                    push_f32(&mut text, x);
                }
            }
            text.push(b'\n');
        }
    });
    text
}

/// Poses `frames` a lane group at a time, as `joint_positions` poses them (the same numbers),
/// and hands each frame's row of joint positions (x, y, z per joint) to `each`.
fn for_each_row(m: &Motion, gaps: &Gaps, frames: &[usize], space_from_file: glam::Mat4, mut each: impl FnMut(usize, &[f32])) {
    let mut poser = FramePoser::new(m);
    let width = m.skeleton.len() * 3;
    let mut rows = vec![0f32; width * LANES];
    for group in frames.chunks(LANES) {
        let rows = &mut rows[..group.len() * width];
        positions_group(m, &mut poser, gaps, group, PositionSpace::World, space_from_file, rows);
        for (&f, row) in group.iter().zip(rows.chunks_exact(width.max(1))) {
            each(f, row);
        }
    }
}

/// The formats positions are written in, picked by the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionsFormat {
    /// `joint,frame,x,y,z` rows (the default).
    Csv,
    /// A NumPy array of frames × joints × 3, little-endian float32 (HumanML3D's `new_joints`
    /// layout); NaN where a position rests on a missing value.
    Npy,
}

impl PositionsFormat {
    /// The format a file name asks for: `.npy`, else CSV.
    pub fn of(path: &std::path::Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("npy") => Self::Npy,
            _ => Self::Csv,
        }
    }
}

/// Writes one motion's `frames` in `format`: CSV with its header row, or the `.npy` array.
pub fn write_one(
    m: &Motion,
    frames: &[usize],
    raw: bool,
    format: PositionsFormat,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> std::io::Result<()> {
    match format {
        PositionsFormat::Csv => {
            writeln!(out, "joint,frame,x,y,z")?;
            write_csv(m, frames, raw, false, out, progress)
        }
        PositionsFormat::Npy => write_npy(m, frames, raw, out, progress),
    }
}

/// Writes `frames` as a `.npy` array of `frames.len()` × joints × 3 little-endian float32
/// values (file units and axes with `raw`, else metres Y-up), posed on every core a piece at a
/// time and written in order. `progress` as for [`write_csv`].
pub fn write_npy(
    m: &Motion,
    frames: &[usize],
    raw: bool,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> std::io::Result<()> {
    let space_from_file = if raw { glam::Mat4::IDENTITY } else { m.display_from_file() };
    let joints = m.skeleton.len();
    out.write_all(&npy_header("<f4", &[frames.len(), joints, 3]))?;
    let gaps = Gaps::new(&m.skeleton, &m.clip);
    let width = joints * 3;
    let pieces: Vec<&[usize]> = frames.chunks(PIECE_FRAMES).collect();
    for (b, batch) in pieces.chunks(PIECES_PER_WRITE).enumerate() {
        if progress(b * PIECES_PER_WRITE * PIECE_FRAMES, frames.len()).is_break() {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "cancelled"));
        }
        let parts: Vec<Vec<u8>> = batch
            .to_vec()
            .into_par_iter()
            .map(|piece| {
                let mut bytes = Vec::with_capacity(piece.len() * width * 4);
                for_each_row(m, &gaps, piece, space_from_file, |_, row| bytes.extend(row.iter().flat_map(|v| v.to_le_bytes())));
                bytes
            })
            .collect();
        for part in &parts {
            out.write_all(part)?;
        }
    }
    Ok(())
}

/// A `.npy` version 1.0 header for a C-ordered array of `descr` (`<f4`, …) and `shape`, as
/// `np.save` writes it: room for the first axis to grow to 21 digits, then spaces to a
/// multiple of 64 bytes.
pub fn npy_header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape_text = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_text}, }}");
    dict.push_str(&" ".repeat(dims.first().map_or(0, |d| 21usize.saturating_sub(d.len()))));
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(64 - unpadded % 64));
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("Hips"), "Hips");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn npy_headers_are_numpys() {
        // What np.save writes for np.zeros((2, 22, 3), np.float32): 128 bytes in all.
        let h = npy_header("<f4", &[2, 22, 3]);
        assert_eq!(h.len(), 128);
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert_eq!(text.trim_end(), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 22, 3), }");
        assert!(text.ends_with('\n'));
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        assert!(std::str::from_utf8(&npy_header("<f4", &[5])[10..]).unwrap().contains("'shape': (5,)"));
        assert_eq!(PositionsFormat::of(std::path::Path::new("a/joints.NPY")), PositionsFormat::Npy);
        assert_eq!(PositionsFormat::of(std::path::Path::new("joints.csv")), PositionsFormat::Csv);
    }
}
