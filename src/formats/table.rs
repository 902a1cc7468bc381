//! The format table: every file format skelview knows, behind one trait. Detection (by
//! extension first, then by content), the open dialog's filters, the desktop MIME types,
//! `--help` and `skelview formats` all read this table; adding a format means its own folder
//! plus one line in [`FORMATS`].

use std::path::Path;

use super::error::LoadError;
use super::{LoadObserver, LoadOptions, Parallel, Source};
use crate::core::Motion;

/// A MIME type a format registers on the desktop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimeType {
    /// The type (`application/x-bvh`).
    pub name: &'static str,
    /// What the file manager shows.
    pub comment: &'static str,
    /// File-name patterns (`*.bvh`).
    pub globs: &'static [&'static str],
    /// The type it refines (`text/plain`).
    pub parent: &'static str,
    /// Weight of the globs: below 50 leaves files to other types unless the content matches.
    pub glob_weight: u32,
    /// Strings that identify the content, with their offset range (`0:64`).
    pub magic: &'static [(&'static str, &'static str)],
}

/// What role a file plays when several are opened together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Loads on its own.
    Whole,
    /// A skeleton that motions of the same format may pair with (`.asf`).
    Skeleton,
    /// A motion that needs a skeleton file of the same format (`.amc`).
    NeedsSkeleton,
}

/// One file format.
pub trait FileFormat: Sync {
    /// Short name (`BVH`).
    fn name(&self) -> &'static str;
    /// One line on what it is and who writes it.
    fn description(&self) -> &'static str;
    /// File-name endings without the dot, longest first where they overlap (`acl.sjson`).
    fn extensions(&self) -> &'static [&'static str];
    /// Desktop MIME types.
    fn mime_types(&self) -> &'static [MimeType];
    /// True when the first bytes of a file (lower-cased text from the first non-blank byte
    /// in `text`, raw in `raw`) are this format.
    fn sniff(&self, text: &[u8], raw: &[u8]) -> bool;
    /// True when its files hold motions (an MNM map does not).
    fn is_motion(&self) -> bool {
        true
    }
    /// True when `skelview convert` writes it.
    fn writes(&self) -> bool {
        false
    }
    /// The role of a file of this format (by its name).
    fn role(&self, _path: &Path) -> Role {
        Role::Whole
    }
    /// The skeleton file for a motion that needs one, found on disk (`NeedsSkeleton` only).
    fn find_skeleton(&self, path: &Path) -> Result<std::path::PathBuf, String> {
        Err(format!("{}: no skeleton file rule for {}", path.display(), self.name()))
    }
    /// Loads a motion from its sources (a skeleton file first where it has two).
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError>;
}

/// Every format, in the order listings show them and content sniffing tries them.
pub static FORMATS: [&dyn FileFormat; 6] =
    [&super::bvh::Bvh, &super::acclaim::Acclaim, &super::htr::Htr, &super::hanim::HAnim, &super::acl::Acl, &super::mnm::Mnm];

/// The format a name ends in (`walk.BVH`, `x.acl.zip`), longest ending first.
pub fn by_name(path: &Path) -> Option<&'static dyn FileFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    FORMATS
        .iter()
        .flat_map(|f| f.extensions().iter().map(move |e| (*f, *e)))
        .filter(|(_, e)| name.len() > e.len() && name.ends_with(e) && name.as_bytes()[name.len() - e.len() - 1] == b'.')
        .max_by_key(|(_, e)| e.len())
        .map(|(f, _)| f)
}

/// The format of `head`, the first bytes of a file, by content alone.
pub fn by_content(head: &[u8]) -> Option<&'static dyn FileFormat> {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(head);
    let start = head.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(head.len());
    let text = head[start..head.len().min(start + 4096)].to_ascii_lowercase();
    FORMATS.iter().copied().find(|f| f.sniff(&text, head))
}

/// The format of a file: by extension, else by its first bytes.
pub fn detect(path: &Path, head: &[u8]) -> Option<&'static dyn FileFormat> {
    by_name(path).or_else(|| by_content(head))
}

/// The format with this name (`BVH`, `ASF/AMC`…), ignoring case.
pub fn by_format_name(name: &str) -> Option<&'static dyn FileFormat> {
    FORMATS.iter().copied().find(|f| f.name().eq_ignore_ascii_case(name))
}

/// Every extension of every motion format, for file dialogs (`acl.sjson` filters as
/// `sjson`: dialogs match the last extension only).
pub fn dialog_extensions() -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        FORMATS.iter().filter(|f| f.is_motion()).flat_map(|f| f.extensions().iter().map(|e| e.rsplit('.').next().unwrap_or(e))).collect();
    out.dedup();
    out
}

/// True when a line of `text` starts with `keyword`.
pub(crate) fn line_starts_with(text: &[u8], keyword: &[u8]) -> bool {
    text.starts_with(keyword) || text.windows(keyword.len() + 1).any(|w| w[0] == b'\n' && &w[1..] == keyword)
}

/// True when `haystack` contains `needle`.
pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_by_extension_then_content() {
        let name = |p: &str| by_name(Path::new(p)).map(|f| f.name());
        assert_eq!(name("a/Walk.BVH"), Some("BVH"));
        assert_eq!(name("x.acl.zip"), Some("ACL"));
        assert_eq!(name("x.zip"), None, "only ACL zips are ours");
        assert_eq!(name("take.amc"), Some("ASF/AMC"));
        assert_eq!(name("h.wrl"), Some("H-Anim"));
        assert_eq!(name("bvh"), None, "an extension needs a name before it");
        let content = |b: &[u8]| by_content(b).map(|f| f.name());
        assert_eq!(content(b"\xEF\xBB\xBF  HIERARCHY\nROOT"), Some("BVH"));
        assert_eq!(content(b"PK\x03\x04rest"), Some("ACL"));
        assert_eq!(content(b"[Header]\nFileType htr\n"), Some("HTR"));
        assert_eq!(content(b"#X3D V3.3 utf8\n"), Some("H-Anim"));
        assert_eq!(content(b"version = 5\nclip = {"), Some("ACL"));
        assert_eq!(content(b"# comment\n:version 1.10\n:name x\n:root\n"), Some("ASF/AMC"));
        assert_eq!(content(b":FULLY-SPECIFIED\n:DEGREES\n1\n"), Some("ASF/AMC"));
        assert_eq!(content(b"just text"), None);
        assert_eq!(detect(Path::new("noext"), b"HIERARCHY").map(|f| f.name()), Some("BVH"));
        assert_eq!(detect(Path::new("x.bvh"), b"[Header]\nFileType htr").map(|f| f.name()), Some("BVH"), "extension first");
    }

    #[test]
    fn the_table_is_consistent() {
        let mut seen = std::collections::HashSet::new();
        for f in FORMATS {
            assert!(!f.description().is_empty() && !f.extensions().is_empty(), "{}", f.name());
            for e in f.extensions() {
                assert!(seen.insert(*e), "extension {e} claimed twice");
                assert_eq!(by_name(Path::new(&format!("x.{e}"))).map(|g| g.name()), Some(f.name()));
            }
        }
        assert!(dialog_extensions().contains(&"sjson") && !dialog_extensions().contains(&"mnm"));
    }
}
