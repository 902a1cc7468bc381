//! Posed mesh vertices as CSV (`mesh,vertex,frame,x,y,z`), for `skelview positions --vertices`.

use std::io::Write;

use crate::core::Motion;
use crate::core::mesh_frames::vertices;

/// Frames posed together (in parallel) before they are written.
const BATCH: usize = 32;

/// Writes rows for `frames` (no header); `mesh` numbers meshes as `info` lists them. `raw`:
/// file units and axes, else metres Y-up (as the joints' positions).
pub fn write_csv(m: &Motion, frames: &[usize], raw: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(set) = m.meshes.as_deref() else { return Ok(()) };
    let space_from_file = if raw { glam::Mat4::IDENTITY } else { m.display_from_file() };
    let all: Vec<usize> = (0..set.meshes.len()).collect();
    let per_frame = set.vertex_count();
    let mut line = String::new();
    for batch in frames.chunks(BATCH) {
        let posed = vertices(m, &all, batch, space_from_file);
        for (&f, frame) in batch.iter().zip(posed.chunks(per_frame.max(1))) {
            let mut at = 0;
            for (k, mesh) in set.meshes.iter().enumerate() {
                for (v, p) in frame[at..at + mesh.positions.len()].iter().enumerate() {
                    use std::fmt::Write as _;
                    line.clear();
                    let _ = writeln!(line, "{k},{v},{f},{},{},{}", p.x, p.y, p.z);
                    out.write_all(line.as_bytes())?;
                }
                at += mesh.positions.len();
            }
        }
    }
    Ok(())
}
