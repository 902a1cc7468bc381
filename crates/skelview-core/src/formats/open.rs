//! The one way every front door opens files: the command line, Python, the viewer's loader
//! and the tests. Paths or bytes in, with read options, motions out, each file's format found
//! through the format table (by name, then content), an ASF paired with its AMC.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{LoadError, LoadOptions, LoadRequest, Parallel, Quiet, Sequential, load, unknown};
use crate::core::Motion;

/// Opens `paths` with `options` (an ASF with its AMC counts as one motion; each other file
/// is one), in order; the first failure is the error.
pub fn open(paths: &[PathBuf], options: &LoadOptions, parallel: &dyn Parallel) -> Result<Vec<Motion>, LoadError> {
    LoadRequest::from_paths(paths).into_iter().map(|r| load(&r?, options, parallel, &mut Quiet)).collect()
}

/// Opens one file (an `.amc` finds its `.asf` beside it).
pub fn open_one(path: &Path, options: &LoadOptions, parallel: &dyn Parallel) -> Result<Motion, LoadError> {
    let paths = [path.to_owned()];
    let request = LoadRequest::from_paths(&paths).into_iter().next().unwrap_or_else(|| Err(unknown(path)))?;
    load(&request, options, parallel, &mut Quiet)
}

/// Opens a file held in memory, named `name` in messages and for detection, on the calling
/// thread.
pub fn open_bytes(name: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>, options: &LoadOptions) -> Result<Motion, LoadError> {
    load(&LoadRequest::memory(name, bytes)?, options, &Sequential, &mut Quiet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_bytes_open_the_same_motion() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("walk.bvh");
        std::fs::write(&path, super::super::SAMPLE_BVH).unwrap();
        let options = LoadOptions::default();
        let from_path = open_one(&path, &options, &Sequential).unwrap();
        let from_bytes = open_bytes("walk.bvh", super::super::SAMPLE_BVH, &options).unwrap();
        assert_eq!(from_path.clip.num_frames(), from_bytes.clip.num_frames());
        assert_eq!(from_path.skeleton.len(), from_bytes.skeleton.len());
        assert_eq!(open(&[path.clone(), path], &options, &Sequential).unwrap().len(), 2);
        let e = open_bytes("notes.txt", &b"just text"[..], &options).unwrap_err().to_string();
        assert!(e.starts_with("notes.txt: not a motion file skelview reads"), "{e}");
        assert!(open_one(Path::new("missing.bvh"), &options, &Sequential).is_err());
    }
}
