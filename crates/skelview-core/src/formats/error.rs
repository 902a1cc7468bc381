//! Errors of the parsing layer (byte offsets) and of loading a file (path, line, column).

use std::path::{Path, PathBuf};

use thiserror::Error;

/// What went wrong while parsing, without location.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParseErrorKind {
    /// A token or value other than the one the grammar needs here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the parser needed.
        expected: String,
        /// What it saw (quoted, shortened).
        found: String,
    },
    /// The file ended where more was needed.
    #[error("unexpected end of file: expected {0}")]
    Eof(String),
    /// A value that parses but makes no sense (NaN, out of range, inconsistent counts).
    #[error("{0}")]
    Invalid(String),
    /// The caller asked the load to stop.
    #[error("loading cancelled")]
    Cancelled,
}

/// A parse error at a byte offset of one file.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("at byte {offset}: {kind}")]
pub struct ParseError {
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// `expected X, found Y` at `offset`.
    pub fn expected(offset: u64, expected: impl Into<String>, found: impl Into<String>) -> Self {
        Self { offset, kind: ParseErrorKind::Expected { expected: expected.into(), found: found.into() } }
    }

    /// End of file where `expected` was needed.
    pub fn eof(offset: u64, expected: impl Into<String>) -> Self {
        Self { offset, kind: ParseErrorKind::Eof(expected.into()) }
    }

    /// Any other problem at `offset`.
    pub fn invalid(offset: u64, message: impl Into<String>) -> Self {
        Self { offset, kind: ParseErrorKind::Invalid(message.into()) }
    }
}

/// A warning at a byte offset, turned into line:col when the load finishes.
#[derive(Clone, Debug, PartialEq)]
pub struct RawWarning {
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// What was found and what was done about it.
    pub message: String,
}

/// Failure to load a motion, with the file it is about.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file's contents do not parse.
    #[error("{}:{line}:{col}: {kind}", path.display())]
    Parse {
        /// File with the problem.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column (bytes).
        col: usize,
        /// What went wrong.
        kind: ParseErrorKind,
    },
    /// A binary file's contents do not parse (C3D): located by byte offset.
    #[error("{}: at byte {offset}: {kind}", path.display())]
    Binary {
        /// File with the problem.
        path: PathBuf,
        /// Byte offset from the start of the file.
        offset: u64,
        /// What went wrong.
        kind: ParseErrorKind,
    },
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// File that failed.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is of a kind skelview does not read (or cannot pair).
    #[error("{}: {message}", path.display())]
    Unsupported {
        /// File concerned.
        path: PathBuf,
        /// Why, and what would work.
        message: String,
    },
    /// The load was cancelled by the caller.
    #[error("{}: loading cancelled", path.display())]
    Cancelled {
        /// File being loaded.
        path: PathBuf,
    },
}

impl LoadError {
    /// Adds the path (and line:col computed from `source`) to a parse error.
    pub fn from_parse(path: &Path, source: &mut dyn LineSource, err: ParseError) -> Self {
        if err.kind == ParseErrorKind::Cancelled {
            return Self::Cancelled { path: path.to_owned() };
        }
        let (line, col) = source.line_col(err.offset);
        Self::Parse { path: path.to_owned(), line, col, kind: err.kind }
    }

    /// Adds the path to a parse error of a binary file (kept as a byte offset).
    pub fn from_binary(path: &Path, err: ParseError) -> Self {
        if err.kind == ParseErrorKind::Cancelled {
            return Self::Cancelled { path: path.to_owned() };
        }
        Self::Binary { path: path.to_owned(), offset: err.offset, kind: err.kind }
    }

    /// The file it is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Parse { path, .. }
            | Self::Binary { path, .. }
            | Self::Io { path, .. }
            | Self::Unsupported { path, .. }
            | Self::Cancelled { path } => path,
        }
    }

    /// True when the load was cancelled rather than failed.
    pub fn is_cancelled(&self) -> bool {
        matches!(self, Self::Cancelled { .. })
    }
}

/// Something that can turn byte offsets into 1-based line and column.
pub trait LineSource {
    /// Line and column of each offset; `offsets` must be sorted ascending.
    fn line_cols(&mut self, offsets: &[u64]) -> Vec<(usize, usize)>;

    /// Line and column of one offset.
    fn line_col(&mut self, offset: u64) -> (usize, usize) {
        self.line_cols(&[offset])[0]
    }
}

impl LineSource for &[u8] {
    fn line_cols(&mut self, offsets: &[u64]) -> Vec<(usize, usize)> {
        offsets.iter().map(|&o| line_col(self, o)).collect()
    }
}

/// Line and column (1-based) of a byte offset in `bytes`.
pub fn line_col(bytes: &[u8], offset: u64) -> (usize, usize) {
    let offset = (offset as usize).min(bytes.len());
    let before = &bytes[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// Reads a file again from the start to locate offsets (only on the error/warning path),
/// in one pass however many offsets there are.
pub struct FileLines<'a>(pub &'a Path);

impl LineSource for FileLines<'_> {
    fn line_cols(&mut self, offsets: &[u64]) -> Vec<(usize, usize)> {
        use std::io::Read;
        let mut out = Vec::with_capacity(offsets.len());
        if offsets.is_empty() {
            // Nothing to locate (most loads): no file to open, no buffer to clear.
            return out;
        }
        let Ok(mut file) = std::fs::File::open(self.0) else {
            return vec![(0, 0); offsets.len()];
        };
        let mut buf = vec![0u8; 64 << 10];
        // Position of the start of `buf` in the file, current line, and where that line starts.
        let (mut base, mut line, mut line_start) = (0u64, 1usize, 0u64);
        let mut n = 0usize;
        let mut pending = offsets.iter().copied().peekable();
        while let Some(&target) = pending.peek() {
            // Advance whole chunks that end before the target.
            while target >= base + n as u64 {
                for p in memchr::memchr_iter(b'\n', &buf[..n]) {
                    line += 1;
                    line_start = base + p as u64 + 1;
                }
                base += n as u64;
                n = match file.read(&mut buf) {
                    Ok(0) | Err(_) => {
                        // Past the end: report the end position for what is left.
                        let col = (base - line_start) as usize + 1;
                        out.extend(pending.map(|_| (line, col)));
                        return out;
                    }
                    Ok(k) => k,
                };
            }
            let within = (target - base) as usize;
            let before = &buf[..within];
            let extra = memchr::memchr_iter(b'\n', before).count();
            let start = memchr::memrchr(b'\n', before).map_or(line_start, |p| base + p as u64 + 1);
            out.push((line + extra, (target - start) as usize + 1));
            pending.next();
        }
        out
    }
}

/// Turns raw warnings into located ones, sorted by position.
pub fn locate_warnings(path: &Path, source: &mut dyn LineSource, mut raw: Vec<RawWarning>) -> Vec<crate::core::Warning> {
    raw.sort_by_key(|w| w.offset);
    let offsets: Vec<u64> = raw.iter().map(|w| w.offset).collect();
    let places = source.line_cols(&offsets);
    raw.into_iter()
        .zip(places)
        .map(|(w, (line, col))| crate::core::Warning { path: path.to_owned(), line, col, message: w.message })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_line_and_column() {
        let text = b"ab\ncd\n\nxyz";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 4), (2, 2));
        assert_eq!(line_col(text, 7), (4, 1));
        assert_eq!(line_col(text, 99), (4, 4));
    }

    #[test]
    fn display_names_file_line_col() {
        let e = LoadError::from_parse(Path::new("a.bvh"), &mut &b"x\ny"[..], ParseError::expected(2, "a number", "'y'"));
        assert_eq!(e.to_string(), "a.bvh:2:1: expected a number, found 'y'");
    }

    #[test]
    fn file_lines_match_in_memory_lines() {
        // Longer than the read buffer, so that offsets fall in later chunks and on their edges.
        let text: Vec<u8> = (0..200_000).map(|i| if i % 7 == 0 { b'\n' } else { b'a' }).collect();
        let path = std::env::temp_dir().join(format!("skelview-lines-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let offsets = [0u64, 1, 7, 8, 999, 4999, 65_535, 65_536, 65_537, 131_072, 199_999, 200_000, 260_000];
        assert!(FileLines(&path).line_cols(&[]).is_empty());
        let from_file = FileLines(&path).line_cols(&offsets);
        std::fs::remove_file(&path).ok();
        let expected: Vec<_> = offsets.iter().map(|&o| line_col(&text, o)).collect();
        assert_eq!(from_file, expected);
    }
}
