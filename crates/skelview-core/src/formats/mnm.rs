//! Character Studio marker/joint name maps (`.mnm`): two columns per line, Biped's name on
//! the left, the file's own name on the right (a lone name maps to itself).

use super::error::ParseError;
use super::text::decode_name;

pub use super::file_format::NameMap;

/// Parses MNM text. Blank lines and `#`/`;` comments are skipped; the right column is the rest
/// of the line, so custom names may contain spaces (`Bip01 L Thigh`).
pub fn parse_mnm(b: &[u8]) -> Result<NameMap, ParseError> {
    let mut map = Vec::new();
    let mut offset = 0usize;
    for raw in b.split(|&c| c == b'\n') {
        let start = offset;
        offset += raw.len() + 1;
        let line = decode_name(raw);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.chars().any(|c| c.is_control() && c != '\t') {
            return Err(ParseError::expected(start as u64, "a line of names (BipedName CustomName)", "control characters"));
        }
        let (left, right) = match line.split_once(char::is_whitespace) {
            Some((l, r)) => (l.to_owned(), r.trim().to_owned()),
            None => (line.to_owned(), line.to_owned()),
        };
        map.push((left, right));
    }
    if map.is_empty() {
        return Err(ParseError::expected(0, "at least one line 'BipedName CustomName'", "no names"));
    }
    Ok(map)
}

/// Character Studio MNM maps in the format table: recognised by name, read as name maps.
pub struct Mnm;

impl super::file_format::Declares for Mnm {
    const DECLARATION: super::file_format::Declaration = super::file_format::Declaration {
        name: "MNM",
        description: "a Character Studio joint-name map (MNM): use it with `compare --mnm` or `info --mnm`",
        extensions: &["mnm"],
        mime_types: &[],
        sniff: |_text, _raw| {
            // Two columns of names: nothing in the content sets it apart from other text.
            false
        },
    };
}

impl super::file_format::NameMapFormat for Mnm {
    fn read(&self, bytes: &[u8]) -> Result<NameMap, ParseError> {
        parse_mnm(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pairs_identity_lines_and_spaces() {
        let m = parse_mnm(b"Hips\r\nLeftHip lfemur\n\n# comment\nLeftKnee   Bip01 L Calf\n").unwrap();
        assert_eq!(
            m,
            vec![("Hips".into(), "Hips".into()), ("LeftHip".into(), "lfemur".into()), ("LeftKnee".into(), "Bip01 L Calf".into())]
        );
        assert!(parse_mnm(b"\n# nothing\n").is_err());
        assert_eq!(parse_mnm(b"a b\n\x01x y\n").unwrap_err().offset, 4);
    }
}
