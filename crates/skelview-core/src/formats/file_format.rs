//! What a file format is to skelview: one trait that every format implements in its own
//! folder, and the MIME types it registers. The table of formats is `formats::table`.

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

/// What a format says about itself, in one declaration beside its code: every entry of the
/// format table implements [`Declares`] with one, and [`FormatInfo`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    /// Short name (`BVH`).
    pub name: &'static str,
    /// One line on what it is and who writes it.
    pub description: &'static str,
    /// File-name endings without the dot, longest first where they overlap (`acl.sjson`).
    pub extensions: &'static [&'static str],
    /// Desktop MIME types.
    pub mime_types: &'static [MimeType],
    /// True when the first bytes of a file (lower-cased text from the first non-blank byte
    /// in the first argument, raw in the second) are this format.
    pub sniff: fn(&[u8], &[u8]) -> bool,
}

/// A format that describes itself with a [`Declaration`].
pub trait Declares: Sync {
    /// Its declaration.
    const DECLARATION: Declaration;
}

impl<T: Declares> FormatInfo for T {
    fn name(&self) -> &'static str {
        T::DECLARATION.name
    }
    fn description(&self) -> &'static str {
        T::DECLARATION.description
    }
    fn extensions(&self) -> &'static [&'static str] {
        T::DECLARATION.extensions
    }
    fn mime_types(&self) -> &'static [MimeType] {
        T::DECLARATION.mime_types
    }
    fn sniff(&self, text: &[u8], raw: &[u8]) -> bool {
        (T::DECLARATION.sniff)(text, raw)
    }
}

/// What every entry of the format table tells about itself: its name, its files' names and
/// MIME types, and how to recognise its content (each format gives a [`Declaration`]).
pub trait FormatInfo: Sync {
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
}

/// Why no skeleton file was found for a motion that needs one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoSkeleton {
    /// No file of the skeleton's kind beside the motion.
    #[error("no .{extension} skeleton beside {}: give the .{extension} file too", motion.display())]
    None {
        /// The motion file.
        motion: std::path::PathBuf,
        /// The skeleton files' extension.
        extension: &'static str,
    },
    /// Several could be it and nothing tells them apart.
    #[error("cannot tell which skeleton {} belongs to (candidates: {}): give the .{extension} file too", motion.display(), candidates.join(", "))]
    Ambiguous {
        /// The motion file.
        motion: std::path::PathBuf,
        /// The candidates' file names.
        candidates: Vec<String>,
        /// The skeleton files' extension.
        extension: &'static str,
    },
    /// The format has no rule for finding one.
    #[error("{}: no skeleton file rule for {format}", motion.display())]
    NoRule {
        /// The motion file.
        motion: std::path::PathBuf,
        /// The format's name.
        format: &'static str,
    },
}

/// `(standard name, file's own name)` pairs in file order, as a name map gives them.
pub type NameMap = Vec<(String, String)>;

/// A joint-name map format (MNM): the table's second kind of entry, read for the
/// comparison's pairing, never loaded as a motion.
pub trait NameMapFormat: FormatInfo {
    /// The `(left name, right name)` pairs of a file's bytes.
    fn read(&self, bytes: &[u8]) -> Result<NameMap, super::error::ParseError>;
}

/// One motion file format.
pub trait FileFormat: FormatInfo {
    /// The role of a file of this format (by its name).
    fn role(&self, _path: &Path) -> Role {
        Role::Whole
    }
    /// The skeleton file for a motion that needs one, found on disk (`NeedsSkeleton` only).
    fn find_skeleton(&self, path: &Path) -> Result<std::path::PathBuf, NoSkeleton> {
        Err(NoSkeleton::NoRule { motion: path.to_owned(), format: self.name() })
    }
    /// Files that could animate a skeleton opened alone (the `.amc` files beside an `.asf`),
    /// offered by the viewer; read on the loader thread.
    fn companions(&self, _motion: &Motion) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
    /// The choices it offers about how its files are read; a loader reads their values from
    /// [`LoadOptions::format`].
    fn options(&self) -> &'static [super::options::FormatOption] {
        &[]
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

/// True when a line of `text` starts with `keyword`.
pub(crate) fn line_starts_with(text: &[u8], keyword: &[u8]) -> bool {
    text.starts_with(keyword) || text.windows(keyword.len() + 1).any(|w| w[0] == b'\n' && &w[1..] == keyword)
}

/// True when `haystack` contains `needle`.
pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
