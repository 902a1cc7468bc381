//! ACL raw clips (`.acl.sjson`, `.acl.zip`): the Animation Compression Library's text format
//! for an uncompressed clip (`tools/format_reference.acl.sjson`, versions 1–5).
//!
//! A file holds `version`, then `clip = { … }`, optional `settings`, `bones = [ … ]` (name,
//! parent name, bind pose) and `tracks = [ … ]` (per bone: optional rotation, translation and
//! scale samples), matched to bones by name. Version 4 added track lists (`track_list` with
//! scalar `tracks`), which hold no skeleton and are refused. The reading is in `document`, the
//! mapping onto joints and the clip in `build`, the SJSON cursor in `sjson`.

mod build;
mod document;
mod format;
mod sjson;

pub use format::{Acl, FORMAT};

use std::io::Read;

use super::error::{ParseError, RawWarning};
use crate::core::{Clip, Skeleton};

/// A parsed ACL raw clip.
pub struct ParsedAcl {
    /// One joint per bone, parents first, with the bind pose as rest values.
    pub skeleton: Skeleton,
    /// One row per sample: every bone's translation, quaternion and scale.
    pub clip: Clip,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
    /// Header facts (version, name, sample rate, additive base, settings) as label/value pairs.
    pub details: Vec<(String, String)>,
}

/// Parses `.acl.sjson` text.
pub fn parse_acl(bytes: &[u8]) -> Result<ParsedAcl, ParseError> {
    let doc = document::read(bytes)?;
    build::build(doc)
}

/// Largest decompressed entry `unzip_clip` accepts: far above any real clip, low enough that a
/// zip bomb cannot exhaust memory.
const MAX_UNZIPPED: u64 = 1 << 30;

/// Reads the one `.acl.sjson` entry of an `.acl.zip` in memory (never extracts to disk): (entry name, decompressed bytes).
pub fn unzip_clip(bytes: &[u8]) -> Result<(String, Vec<u8>), ParseError> {
    let zip_err = |e: zip::result::ZipError| ParseError::invalid(0, format!("not a readable ACL zip archive: {e}"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(zip_err)?;
    let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    let is_sjson = |n: &String| n.to_ascii_lowercase().ends_with(".sjson") && !n.ends_with('/');
    let name = match names.iter().find(|n| is_sjson(n)) {
        Some(n) => n.clone(),
        None => {
            let mut listed: Vec<&str> = names.iter().map(String::as_str).take(5).collect();
            if listed.is_empty() {
                listed.push("none");
            }
            return Err(ParseError::invalid(0, format!("the zip archive holds no .acl.sjson entry (entries: {})", listed.join(", "))));
        }
    };
    let mut entry = archive.by_name(&name).map_err(zip_err)?;
    let declared = entry.size();
    if declared > MAX_UNZIPPED {
        return Err(ParseError::invalid(0, format!("zip entry '{name}' declares {declared} bytes, over the {MAX_UNZIPPED}-byte limit")));
    }
    // The declared size may lie: read at most one byte past the limit whatever it says.
    let mut out = Vec::with_capacity(declared.min(64 << 20) as usize);
    (&mut entry)
        .take(MAX_UNZIPPED + 1)
        .read_to_end(&mut out)
        .map_err(|e| ParseError::invalid(0, format!("zip entry '{name}' cannot be decompressed: {e}")))?;
    if out.len() as u64 > MAX_UNZIPPED {
        return Err(ParseError::invalid(0, format!("zip entry '{name}' decompresses past the {MAX_UNZIPPED}-byte limit")));
    }
    Ok((name, out))
}
