//! Motions written to files: one [`Writer`] per format skelview writes (BVH, glTF, TRC,
//! MOT) in one table, [`WRITERS`], that the format table (`formats::table`), `convert`, the
//! Python package and every other front door find writers through. The format is chosen by
//! the path's extension.

use std::path::Path;

use thiserror::Error;

pub use super::gltf_writer::{Animation, take_names};
use super::gltf_writer::{NonFinite, document, write_glb};
use super::mot_writer::{DEFAULT_THRESHOLD_N, MotError, write_mot};
use super::{BvhWriteOptions, write_atomically, write_bvh};
use crate::core::Motion;

/// Choices for written files, typed per format (only BVH has any today).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// How BVH files are written (the rotation order).
    pub bvh: BvhWriteOptions,
}

/// One format skelview writes.
pub trait Writer: Sync {
    /// The format's name: as the reader table names it (`BVH`), or its own where skelview
    /// only writes it (`MOT`).
    fn name(&self) -> &'static str;
    /// One line on what the written file holds.
    fn description(&self) -> &'static str;
    /// The extensions it writes, without the dot.
    fn extensions(&self) -> &'static [&'static str];
    /// True when a file holds every take of the source (glTF), not only the loaded one.
    fn all_takes(&self) -> bool {
        false
    }
    /// Writes `m` (its loaded take) to `path`, atomically: a failed write leaves no file.
    fn write(&self, m: &Motion, path: &Path, options: &WriteOptions) -> Result<(), WriteError>;
    /// Writes takes sharing the first one's skeleton into one file (writers with
    /// [`Writer::all_takes`]; the others write the first).
    fn write_takes(&self, takes: &[Animation<'_>], path: &Path, options: &WriteOptions) -> Result<(), WriteError> {
        takes.first().map_or(Ok(()), |t| self.write(t.motion, path, options))
    }
    /// What a written file holds, for reports (`31 joints, 120 frames, rotations ZXY`).
    fn summary(&self, m: &Motion, options: &WriteOptions) -> String;
    /// What a file written from `m` cannot keep, one warning each (every front door says them).
    fn losses(&self, _m: &Motion) -> Vec<String> {
        Vec::new()
    }
}

/// Every format skelview writes, in the order listings show them.
pub static WRITERS: [&dyn Writer; 7] = [&BvhFile, &GltfFile, &VrmFile, &VrmaFile, &TrcFile, &MotFile, &C3dFile];

/// The writer for a path's extension (`out.BVH`), if any.
pub fn writer_for(path: &Path) -> Option<&'static dyn Writer> {
    let ext = extension(path);
    WRITERS.iter().copied().find(|w| w.extensions().contains(&ext.as_str()))
}

/// The writer of the format with this name (`BVH`, `glTF`), ignoring case.
pub fn writer_named(name: &str) -> Option<&'static dyn Writer> {
    WRITERS.iter().copied().find(|w| w.name().eq_ignore_ascii_case(name))
}

/// Every written extension with its dot, in table order, joined by `sep` and the last by
/// `last` (`.bvh, .glb, .gltf, .trc or .mot`).
pub fn written_extensions(sep: &str, last: &str) -> String {
    let all: Vec<String> = WRITERS.iter().flat_map(|w| w.extensions().iter().map(|e| format!(".{e}"))).collect();
    match all.split_last() {
        Some((end, [])) => end.clone(),
        Some((end, rest)) => format!("{}{last}{end}", rest.join(sep)),
        None => String::new(),
    }
}

/// Why a file was not written.
#[derive(Debug, Error)]
pub enum WriteError {
    /// The extension names no format skelview writes.
    #[error("writes {list}, not '{0}'", list = written_extensions(", ", " or "))]
    Extension(String),
    /// A `.mot` asked of a motion that is no capture with force platforms.
    #[error("a .mot holds force platforms, and this motion is not a capture with any")]
    NotACapture,
    /// The force platforms cannot be written.
    #[error(transparent)]
    Mot(MotError),
    /// glTF refuses values that are not finite.
    #[error(transparent)]
    Gltf(#[from] NonFinite),
    /// The capture cannot be held by a C3D.
    #[error(transparent)]
    C3d(super::c3d_writer::C3dError),
    /// A VRM avatar needs a character read from one.
    #[error(transparent)]
    Vrm(#[from] super::vrm_writer::VrmError),
    /// A VRM animation needs a humanoid the motion's skeleton does not map.
    #[error("a VRM animation: {0}")]
    Vrma(#[from] super::vrma_writer::VrmaError),
    /// Writing failed.
    #[error("cannot write: {0}")]
    Io(#[from] std::io::Error),
}

/// The file's extension, lower case.
fn extension(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default()
}

/// The file name written inside TRC and MOT headers.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Writes `animations` (takes sharing the first one's skeleton) as binary glTF (`.glb`) or
/// as JSON with its buffer beside it (`.gltf` + `.bin`).
pub fn write_gltf(path: &Path, animations: &[Animation<'_>]) -> Result<(), WriteError> {
    let (mut doc, bin) = document(animations)?;
    if extension(path) == "glb" {
        return Ok(write_atomically(path, |out| write_glb(&doc, &bin, out))?);
    }
    let bin_path = path.with_extension("bin");
    doc["buffers"][0]["uri"] = serde_json::json!(file_name(&bin_path));
    write_atomically(&bin_path, |out| out.write_all(&bin))?;
    Ok(write_atomically(path, |out| serde_json::to_writer_pretty(out, &doc).map_err(std::io::Error::other))?)
}

/// Writes `m` (its loaded take) in the format `path`'s extension names.
pub fn write_file(m: &Motion, path: &Path, options: &WriteOptions) -> Result<(), WriteError> {
    writer_for(path).ok_or_else(|| WriteError::Extension(extension(path)))?.write(m, path, options)
}

/// Biovision hierarchy: any motion's skeleton and rotations.
struct BvhFile;

impl Writer for BvhFile {
    fn name(&self) -> &'static str {
        "BVH"
    }
    fn description(&self) -> &'static str {
        "any motion as rotations in a chosen Euler order (--order), positions where offsets move"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["bvh"]
    }
    fn write(&self, m: &Motion, path: &Path, options: &WriteOptions) -> Result<(), WriteError> {
        Ok(write_atomically(path, |out| write_bvh(m, &options.bvh, out))?)
    }
    fn summary(&self, m: &Motion, options: &WriteOptions) -> String {
        let order: String = options.bvh.order.iter().collect();
        format!("{} joints, {} frames, rotations {order}", m.skeleton.len(), m.clip.num_frames().max(1))
    }
}

/// glTF 2.0, binary or JSON with its buffer beside it.
struct GltfFile;

impl Writer for GltfFile {
    fn name(&self) -> &'static str {
        "glTF"
    }
    fn description(&self) -> &'static str {
        "a skin and an animation per take, metres, Y up (.gltf with its .bin beside it)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["glb", "gltf"]
    }
    fn all_takes(&self) -> bool {
        true
    }
    fn write(&self, m: &Motion, path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        let names = take_names(m);
        let name = names.get(m.source.take.unwrap_or(0)).or(names.first()).cloned().unwrap_or_default();
        write_gltf(path, &[Animation { name, motion: m }])
    }
    fn write_takes(&self, takes: &[Animation<'_>], path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        write_gltf(path, takes)
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        format!("{} joints, {} frames", m.skeleton.len(), m.clip.num_frames().max(1))
    }
}

/// VRM avatar: a character read from a VRM, with its VRM extensions, playing the motion.
struct VrmFile;

impl Writer for VrmFile {
    fn name(&self) -> &'static str {
        "VRM"
    }
    fn description(&self) -> &'static str {
        "a VRM avatar (0.x or 1.0, as read) playing the motion: the character's meshes, humanoid, expressions and licence, an animation per take"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["vrm"]
    }
    fn all_takes(&self) -> bool {
        true
    }
    fn write(&self, m: &Motion, path: &Path, o: &WriteOptions) -> Result<(), WriteError> {
        let names = take_names(m);
        let name = names.get(m.source.take.unwrap_or(0)).or(names.first()).cloned().unwrap_or_default();
        self.write_takes(&[Animation { name, motion: m }], path, o)
    }
    fn write_takes(&self, takes: &[Animation<'_>], path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        let (doc, bin) = super::vrm_writer::document(takes)?;
        Ok(write_atomically(path, |out| write_glb(&doc, &bin, out))?)
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        let meshes = m.meshes.as_deref().map_or(0, |s| s.meshes.len());
        format!("{} joints, {meshes} meshes, {} frames", m.skeleton.len(), m.clip.num_frames().max(1))
    }
}

/// VRM animation (`VRMC_vrm_animation` 1.0): the motion on VRM's normalized humanoid.
struct VrmaFile;

impl Writer for VrmaFile {
    fn name(&self) -> &'static str {
        "VRMA"
    }
    fn description(&self) -> &'static str {
        "a VRM animation: the humanoid bones' turns from a T-pose and the hips' travel, for VRM avatars (three-vrm)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["vrma"]
    }
    fn write(&self, m: &Motion, path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        let (doc, bin) = super::vrma_writer::document(m)?;
        Ok(write_atomically(path, |out| write_glb(&doc, &bin, out))?)
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        let map = crate::retarget::bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
        format!("{} humanoid bones, {} frames", map.entries.len(), m.clip.num_frames().max(1))
    }
}

/// Track row column markers: a capture's markers, or a skeleton's joints as virtual markers.
struct TrcFile;

impl Writer for TrcFile {
    fn name(&self) -> &'static str {
        "TRC"
    }
    fn description(&self) -> &'static str {
        "a capture's markers, or a skeleton's joints as virtual markers (metres, Y up)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["trc"]
    }
    fn write(&self, m: &Motion, path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        Ok(write_atomically(path, |out| super::trc_writer::write_trc(m, &file_name(path), out))?)
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        let frames = m.clip.num_frames().max(1);
        match m.capture {
            Some(_) => format!("{} markers, {frames} frames", m.skeleton.len()),
            None => format!("{} joints as virtual markers, metres, Y up, {frames} frames", m.skeleton.len()),
        }
    }
}

/// OpenSim motion file: a capture's force platforms as ground reactions.
struct MotFile;

impl Writer for MotFile {
    fn name(&self) -> &'static str {
        "MOT"
    }
    fn description(&self) -> &'static str {
        "OpenSim external loads: a capture's force platforms (forces, centres of pressure, free moments)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["mot"]
    }
    fn write(&self, m: &Motion, path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        let capture = m.capture.as_deref().ok_or(WriteError::NotACapture)?;
        // Written to memory first: a capture that cannot be written leaves no file.
        let mut text = Vec::new();
        write_mot(capture, &file_name(path), DEFAULT_THRESHOLD_N, &mut text).map_err(|e| match e {
            MotError::Io(io) => WriteError::Io(io),
            other => WriteError::Mot(other),
        })?;
        Ok(write_atomically(path, |out| out.write_all(&text))?)
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        let c = m.capture.as_deref();
        let (plates, samples, rate) = c.map_or((0, 0, 0.0), |c| (c.plates.len(), c.analog.samples(), c.analog.rate_hz));
        format!("{plates} force platforms, {samples} samples at {rate} Hz")
    }
}

/// C3D: a capture with its points, residuals, analog channels, platforms, events and the
/// source's other parameters; any other motion's joints as virtual markers.
struct C3dFile;

impl Writer for C3dFile {
    fn name(&self) -> &'static str {
        "C3D"
    }
    fn description(&self) -> &'static str {
        "a capture (float storage): every point, residuals, analog channels, force platforms, events and the source's other parameters; any other motion's joints as markers (mm, Y up)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["c3d"]
    }
    fn losses(&self, m: &Motion) -> Vec<String> {
        let unmarked = super::c3d_writer::fills_unmarked(m);
        (unmarked > 0)
            .then(|| format!("{unmarked} filled samples are in markers whose residuals are all 0 (the source keeps none): read back, the written C3D cannot tell them from measured ones"))
            .into_iter()
            .collect()
    }
    fn write(&self, m: &Motion, path: &Path, _: &WriteOptions) -> Result<(), WriteError> {
        let mut failed = None;
        let written = write_atomically(path, |out| {
            super::c3d_writer::write_c3d(m, out).map_err(|e| match e {
                super::c3d_writer::C3dError::Io(io) => io,
                other => {
                    let message = other.to_string();
                    failed = Some(other);
                    std::io::Error::other(message)
                }
            })
        });
        match (written, failed) {
            (_, Some(e)) => Err(WriteError::C3d(e)),
            (r, None) => Ok(r?),
        }
    }
    fn summary(&self, m: &Motion, _: &WriteOptions) -> String {
        match &m.capture {
            Some(c) => format!(
                "{} points, {} frames, {} analog channels, {} events",
                c.points.len(),
                c.frames,
                c.analog.channels.len(),
                c.events.len()
            ),
            None => format!("{} joints as markers, {} frames", m.skeleton.len(), m.clip.num_frames().max(1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_are_found_by_extension_and_name_and_listed_in_order() {
        let name = |p: &str| writer_for(Path::new(p)).map(|w| w.name());
        assert_eq!(name("out.BVH"), Some("BVH"));
        assert_eq!(name("a.glb"), Some("glTF"));
        assert_eq!(name("a.gltf"), Some("glTF"));
        assert_eq!(name("a.trc"), Some("TRC"));
        assert_eq!(name("a.mot"), Some("MOT"));
        assert_eq!(name("a.fbx"), None, "skelview reads FBX but does not write it");
        assert_eq!(name("bvh"), None);
        assert_eq!(writer_named("gltf").map(|w| w.extensions()), Some(&["glb", "gltf"][..]));
        assert_eq!(name("a.c3d"), Some("C3D"));
        assert_eq!(name("a.vrma"), Some("VRMA"));
        assert_eq!(written_extensions(", ", " or "), ".bvh, .glb, .gltf, .vrm, .vrma, .trc, .mot or .c3d");
        assert_eq!(WriteError::Extension("fbx".into()).to_string(), "writes .bvh, .glb, .gltf, .vrm, .vrma, .trc, .mot or .c3d, not 'fbx'");
        let mut seen = std::collections::HashSet::new();
        for w in WRITERS {
            assert!(!w.description().is_empty() && !w.extensions().is_empty(), "{}", w.name());
            assert!(w.extensions().iter().all(|e| seen.insert(*e)), "{} claims an extension twice", w.name());
        }
    }
}
