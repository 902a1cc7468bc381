//! Global joint positions as CSV (`joint,frame,x,y,z`), shared by `skelview positions` and
//! the viewer's File > Export positions.

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
    let mut poser = FramePoser::new(m);
    let width = names.len() * 3;
    let mut rows = vec![0f32; width * LANES];
    let mut text = Vec::with_capacity(frames.len() * names.len() * 40);
    for group in frames.chunks(LANES) {
        let rows = &mut rows[..group.len() * width];
        positions_group(m, &mut poser, gaps, group, PositionSpace::World, space_from_file, rows);
        for (&f, row) in group.iter().zip(rows.chunks_exact(width.max(1))) {
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
        }
    }
    text
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
}
