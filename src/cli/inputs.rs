//! What a command that goes over many files works on (`check`, `qa`): the files given by
//! name, paired as every command pairs them ([`LoadRequest::from_paths`]: an `.amc` with the
//! `.asf` given beside it), and the files found in folders, one by one.

use std::path::{Path, PathBuf};

use skelview_core::formats::{self, LoadError, LoadRequest};

/// One thing to load: a request, or why there is none.
pub(super) struct Input {
    /// The file named in the report (the `.amc` of a pair).
    pub path: PathBuf,
    /// Given by name rather than found in a folder.
    pub explicit: bool,
    /// Its files, paired.
    pub request: Result<LoadRequest, LoadError>,
}

impl Input {
    /// Bytes of the files it reads (both files of a pair).
    pub fn bytes(&self) -> u64 {
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        match &self.request {
            Ok(r) => r.sources.iter().map(|s| size(s.path())).sum(),
            Err(_) => size(&self.path),
        }
    }
}

/// Files under `path` (itself if a file), sorted, recursing into folders.
pub(super) fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path).map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, out);
        }
    } else {
        out.push(path.to_owned());
    }
}

/// The inputs of `paths` in their order: the named files of a run of names are paired
/// together; a folder's files are those `keep(file, files of the folder)` accepts, each
/// loaded alone (an `.amc` then finds its `.asf` on disk).
pub(super) fn inputs(paths: &[PathBuf], keep: &dyn Fn(&Path, &[PathBuf]) -> bool) -> Vec<Input> {
    let mut out = Vec::new();
    let mut named: Vec<PathBuf> = Vec::new();
    let flush = |named: &mut Vec<PathBuf>, out: &mut Vec<Input>| {
        for request in LoadRequest::from_paths(named) {
            let path = match &request {
                Ok(r) => r.main_path().to_owned(),
                Err(e) => e.path().to_owned(),
            };
            out.push(Input { path, explicit: true, request });
        }
        named.clear();
    };
    for p in paths {
        if !p.is_dir() {
            named.push(p.clone());
            continue;
        }
        flush(&mut named, &mut out);
        let mut found = Vec::new();
        walk(p, &mut found);
        for f in found.iter().filter(|f| keep(f, &found)) {
            let request = LoadRequest::from_paths(std::slice::from_ref(f)).pop().unwrap_or_else(|| Err(formats::unknown(f)));
            out.push(Input { path: f.clone(), explicit: false, request });
        }
    }
    flush(&mut named, &mut out);
    out
}
