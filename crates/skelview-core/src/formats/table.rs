//! The format table: every file format skelview knows, behind one trait ([`FileFormat`]).
//! Detection (by extension first, then by content), the open dialog's filters, the desktop
//! MIME types, `--help` and `skelview formats` all read this table; adding a format means its
//! own folder plus one line in [`FORMATS`].

use std::path::Path;

use super::file_format::FileFormat;

/// Every format, in the order listings show them and content sniffing tries them.
pub static FORMATS: [&dyn FileFormat; 8] = [
    &super::bvh::Bvh,
    &super::acclaim::Acclaim,
    &super::htr::Htr,
    &super::hanim::HAnim,
    &super::acl::Acl,
    &super::fbx::Fbx,
    &super::gltf::Gltf,
    &super::mnm::Mnm,
];

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
        assert_eq!(content(b"glTF\x02\0\0\0"), Some("glTF"));
        assert_eq!(content(b"{\n  \"asset\": {\"version\": \"2.0\"}"), Some("glTF"));
        assert_eq!(name("Fox.GLB"), Some("glTF"));
        assert_eq!(name("take.FBX"), Some("FBX"));
        assert_eq!(content(b"Kaydara FBX Binary  \0\x1a\0"), Some("FBX"));
        assert_eq!(content(b"; FBX 7.4.0 project file\n"), Some("FBX"));
        assert_eq!(content(b"FBXHeaderExtension:  {\n"), Some("FBX"));
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
