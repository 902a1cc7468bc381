//! Finding the skeleton (`.asf`) that an `.amc` motion belongs to.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::asf::parse_asf;
use crate::formats::file_format::NoSkeleton;
use crate::formats::text::{is_blank, token_end};

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `.asf` files in `dir`, sorted by name.
fn asf_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && has_ext(p, "asf")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Bone names on the lines of the first frame of an AMC file (lower-case).
fn first_frame_bones(amc: &Path) -> HashSet<String> {
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(amc) {
        let _ = f.take(256 << 10).read_to_end(&mut head);
    }
    let mut names = HashSet::new();
    let mut frames_seen = 0;
    for line in head.split(|&c| c == b'\n') {
        let i = line.iter().position(|&c| !is_blank(c)).unwrap_or(line.len());
        let t = &line[i..token_end(line, i)];
        if t.is_empty() || t[0] == b'#' || t[0] == b':' {
            continue;
        }
        if t.iter().all(|c| c.is_ascii_digit()) {
            frames_seen += 1;
            if frames_seen > 1 {
                break;
            }
            continue;
        }
        if frames_seen == 1 {
            names.insert(String::from_utf8_lossy(t).to_ascii_lowercase());
        }
    }
    names
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x.eq_ignore_ascii_case(y)).count()
}

/// Finds the `.asf` for `amc`: the same stem; CMU `NN_MM.amc` → `NN.asf`; the longest ASF
/// stem that starts the AMC stem (HDM05 `HDM_dg_06-03_03_120.amc` → `HDM_dg.asf`); the ASF
/// files whose bones cover the AMC's bone names (nearest name first); the only ASF beside it.
pub fn find_asf(amc: &Path) -> Result<PathBuf, NoSkeleton> {
    let dir = amc.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let amc_stem = stem(amc);
    let candidates = asf_files(dir);
    if candidates.is_empty() {
        return Err(NoSkeleton::None { motion: amc.to_owned(), extension: "asf" });
    }
    if let Some(p) = candidates.iter().find(|p| stem(p).eq_ignore_ascii_case(&amc_stem)) {
        return Ok(p.clone());
    }
    if let Some((subject, take)) = amc_stem.split_once('_')
        && !subject.is_empty()
        && subject.bytes().all(|c| c.is_ascii_digit())
        && take.bytes().all(|c| c.is_ascii_digit())
        && let Some(p) = candidates.iter().find(|p| stem(p).eq_ignore_ascii_case(subject))
    {
        return Ok(p.clone());
    }
    let lower = amc_stem.to_ascii_lowercase();
    if let Some(p) = candidates
        .iter()
        .filter(|p| {
            let s = stem(p).to_ascii_lowercase();
            !s.is_empty() && lower.starts_with(&s)
        })
        .max_by_key(|p| stem(p).len())
    {
        return Ok(p.clone());
    }
    if candidates.len() == 1 {
        return Ok(candidates[0].clone());
    }
    let bones = first_frame_bones(amc);
    let fitting: Vec<&PathBuf> = candidates
        .iter()
        .filter(|p| {
            let Ok(bytes) = std::fs::read(p) else { return false };
            let Ok(asf) = parse_asf(&bytes) else { return false };
            let names: HashSet<String> = asf.skeleton.joints().iter().map(|j| j.name.to_ascii_lowercase()).collect();
            !bones.is_empty() && bones.iter().all(|b| names.contains(b))
        })
        .collect();
    let best = fitting.iter().map(|p| common_prefix(&stem(p), &amc_stem)).max();
    let top: Vec<&&PathBuf> = fitting.iter().filter(|p| Some(common_prefix(&stem(p), &amc_stem)) == best).collect();
    if top.len() == 1 {
        return Ok((*top[0]).clone());
    }
    let names: Vec<String> = candidates.iter().map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
    Err(NoSkeleton::Ambiguous { motion: amc.to_owned(), candidates: names, extension: "asf" })
}
