//! The format table: every file format skelview knows, of two kinds: motion formats
//! ([`FileFormat`], in [`FORMATS`]) and joint-name maps ([`NameMapFormat`], in
//! [`NAME_MAPS`]), both described by [`FormatInfo`], and beside them the formats skelview
//! writes (`export::files::WRITERS`, joined to a reader by its name: [`writer_of`]).
//! Detection (by extension first, then by content), the open dialog's filters, the desktop
//! MIME types, `--help`, `convert` and `skelview formats` all read this table; adding a
//! format means its own folder plus one line here (and one in `WRITERS` if it is written).

use std::path::Path;

use super::file_format::{FileFormat, FormatInfo, NameMapFormat};
use crate::export::files::{WRITERS, Writer, writer_named};

/// Every motion format, in the order listings show them and content sniffing tries them.
pub static FORMATS: [&dyn FileFormat; 11] = [
    &super::bvh::Bvh,
    &super::acclaim::Acclaim,
    &super::htr::Htr,
    &super::hanim::HAnim,
    &super::acl::Acl,
    &super::fbx::Fbx,
    &super::gltf::Gltf,
    &super::c3d::C3d,
    &super::trc::Trc,
    &super::mot::Mot,
    &super::npz::Npz,
];

/// Every joint-name map format.
pub static NAME_MAPS: [&dyn NameMapFormat; 1] = [&super::mnm::Mnm];

/// One entry of the table, of either kind.
#[derive(Clone, Copy)]
pub enum Entry {
    /// A motion format.
    Motion(&'static dyn FileFormat),
    /// A joint-name map format.
    NameMap(&'static dyn NameMapFormat),
}

impl Entry {
    /// What it tells about itself.
    pub fn info(self) -> &'static dyn FormatInfo {
        match self {
            Self::Motion(f) => f,
            Self::NameMap(f) => f,
        }
    }

    /// What its files hold, for listings.
    pub fn holds(self) -> &'static str {
        match self {
            Self::Motion(_) => "motion",
            Self::NameMap(_) => "name map",
        }
    }
}

/// Every entry: the motion formats, then the name maps.
pub fn entries() -> impl Iterator<Item = Entry> {
    FORMATS.iter().map(|f| Entry::Motion(*f)).chain(NAME_MAPS.iter().map(|f| Entry::NameMap(*f)))
}

/// The writer of a format that skelview reads (`BVH`), if skelview also writes it.
pub fn writer_of(format: &dyn FormatInfo) -> Option<&'static dyn Writer> {
    writer_named(format.name())
}

/// The formats skelview writes but does not read (`MOT`), in table order.
pub fn write_only() -> impl Iterator<Item = &'static dyn Writer> {
    WRITERS.iter().copied().filter(|w| !entries().any(|e| e.info().name().eq_ignore_ascii_case(w.name())))
}

/// The name-map format a name ends in (`pairs.MNM`).
pub fn name_map_by_name(path: &Path) -> Option<&'static dyn NameMapFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    NAME_MAPS.iter().copied().find(|f| f.extensions().iter().any(|e| name.len() > e.len() && name.ends_with(&format!(".{e}"))))
}

/// Reads the joint-name map at `path` with the name-map format its name ends in (a file of
/// another name is read as the first, MNM, as `--mnm` promises); errors name `file:line:col`.
pub fn read_name_map(path: &Path) -> Result<super::file_format::NameMap, super::LoadError> {
    let bytes = std::fs::read(path).map_err(|source| super::LoadError::Io { path: path.to_owned(), source })?;
    read_name_map_bytes(path, &bytes)
}

/// [`read_name_map`] of bytes already read (`path` names them in errors).
pub fn read_name_map_bytes(path: &Path, bytes: &[u8]) -> Result<super::file_format::NameMap, super::LoadError> {
    let format = name_map_by_name(path).unwrap_or(NAME_MAPS[0]);
    format.read(bytes).map_err(|e| super::LoadError::from_parse(path, &mut &bytes[..], e))
}

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

/// Every option every format declares.
pub fn all_options() -> impl Iterator<Item = &'static super::options::FormatOption> {
    FORMATS.iter().flat_map(|f| f.options().iter())
}

/// The option with this key, whichever format declares it.
pub fn option(key: &str) -> Option<&'static super::options::FormatOption> {
    all_options().find(|o| o.key == key)
}

/// The option with this alias (`bvh-positions`; `_` for `-` too, as Python spells it).
pub fn option_by_alias(alias: &str) -> Option<&'static super::options::FormatOption> {
    let alias = alias.replace('_', "-");
    all_options().find(|o| o.alias == Some(alias.as_str()))
}

// Setting an option by key needs the table of every format's options: it lives here, so that
// the options module needs nothing above it.
impl super::options::FormatOptions {
    /// Sets `key` to `value` after the option that declares it (whichever format) checked it.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), super::options::OptionError> {
        let option = option(key).ok_or_else(|| super::options::OptionError::Unknown {
            key: key.to_owned(),
            known: all_options().map(|o| o.key).collect::<Vec<_>>().join(", "),
        })?;
        self.set_checked(option, value)
    }

    /// `set` from `KEY=VALUE`.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), super::options::OptionError> {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        self.set(key.trim(), value)
    }
}

/// Every extension of every motion format, for file dialogs (`acl.sjson` filters as
/// `sjson`: dialogs match the last extension only).
pub fn dialog_extensions() -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        FORMATS.iter().flat_map(|f| f.extensions().iter().map(|e| e.rsplit('.').next().unwrap_or(e))).collect();
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
        for entry in entries() {
            let f = entry.info();
            assert!(!f.description().is_empty() && !f.extensions().is_empty(), "{}", f.name());
            for e in f.extensions() {
                assert!(seen.insert(*e), "extension {e} claimed twice");
                let path = format!("x.{e}");
                match entry {
                    Entry::Motion(_) => assert_eq!(by_name(Path::new(&path)).map(|g| g.name()), Some(f.name())),
                    Entry::NameMap(_) => assert_eq!(name_map_by_name(Path::new(&path)).map(|g| g.name()), Some(f.name())),
                }
            }
        }
        assert!(dialog_extensions().contains(&"sjson") && !dialog_extensions().contains(&"mnm"));
        assert!(by_name(Path::new("pairs.mnm")).is_none(), "a name map is not a motion");
        // Every writer is a reader's, found by name, or listed as written only.
        let written: Vec<&str> = FORMATS.iter().filter(|f| writer_of(**f).is_some()).map(|f| f.name()).collect();
        assert_eq!(written, ["BVH", "glTF", "C3D", "TRC", "MOT"]);
        assert_eq!(write_only().map(|w| w.name()).collect::<Vec<_>>(), ["VRM", "VRMA"], "MOT is read too; a VRM or VRMA is read as glTF");
    }

    #[test]
    fn every_option_key_is_unique_and_names_its_format() {
        let mut seen = std::collections::HashSet::new();
        for f in FORMATS {
            for o in f.options() {
                assert!(seen.insert(o.key), "option {} declared twice", o.key);
                let prefix = o.key.split('.').next().unwrap_or_default();
                assert!(f.extensions().contains(&prefix), "{} is not prefixed by an extension of {}", o.key, f.name());
                assert!(std::ptr::eq(option(o.key).unwrap(), o));
            }
        }
        let mut options = super::super::FormatOptions::default();
        options.set("bvh.positions", "ADD").unwrap();
        options.set_pair("amc.fps=60").unwrap();
        assert_eq!(options.get("bvh.positions"), Some("add"));
        assert_eq!(super::super::acclaim::FRAME_RATE.number(&options), 60.0);
        let e = options.set("bvh.position", "add").unwrap_err().to_string();
        assert!(e.contains("no format has an option 'bvh.position'") && e.contains("bvh.positions"), "{e}");
        let e = options.set("amc.fps", "0").unwrap_err().to_string();
        assert_eq!(e, "option 'amc.fps': expected a number of fps from 0.001 to 100000, found '0'");
        assert!(options.set("amc.fps", "NaN").is_err() && options.set("bvh.positions", "both").is_err());
        assert_eq!(super::super::acclaim::FRAME_RATE.number(&options), 60.0, "a refused value changes nothing");
    }
}
