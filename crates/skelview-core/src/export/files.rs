//! A motion written to a path, the format chosen by the extension (`.bvh`, `.glb`, `.gltf`
//! with its `.bin`, `.trc`, `.mot`): the one place `convert`, the Python package and other
//! front doors write files.

use std::path::Path;

use thiserror::Error;

use super::gltf_writer::{Animation, NonFinite, document, take_names, write_glb};
use super::mot_writer::{DEFAULT_THRESHOLD_N, MotError, write_mot};
use super::{BvhWriteOptions, write_atomically, write_bvh};
use crate::core::Motion;

/// Why a file was not written.
#[derive(Debug, Error)]
pub enum WriteError {
    /// The extension names no format skelview writes.
    #[error("writes .bvh, .glb, .gltf, .trc or .mot, not '{0}'")]
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
pub fn write_file(m: &Motion, path: &Path, bvh: &BvhWriteOptions) -> Result<(), WriteError> {
    match extension(path).as_str() {
        "bvh" => Ok(write_atomically(path, |out| write_bvh(m, bvh, out))?),
        "trc" => Ok(write_atomically(path, |out| super::trc_writer::write_trc(m, &file_name(path), out))?),
        "mot" => {
            let capture = m.capture.as_deref().ok_or(WriteError::NotACapture)?;
            // Written to memory first: a capture that cannot be written leaves no file.
            let mut text = Vec::new();
            write_mot(capture, &file_name(path), DEFAULT_THRESHOLD_N, &mut text).map_err(|e| match e {
                MotError::Io(io) => WriteError::Io(io),
                other => WriteError::Mot(other),
            })?;
            Ok(write_atomically(path, |out| out.write_all(&text))?)
        }
        "glb" | "gltf" => {
            let names = take_names(m);
            let name = names.get(m.source.take.unwrap_or(0)).or(names.first()).cloned().unwrap_or_default();
            write_gltf(path, &[Animation { name, motion: m }])
        }
        other => Err(WriteError::Extension(other.to_owned())),
    }
}
