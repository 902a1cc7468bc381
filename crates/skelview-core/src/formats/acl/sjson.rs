//! A small cursor over Simplified JSON (SJSON) text, as ACL writes it: unquoted keys, `=` (or
//! `:`) between key and value, `//` and `/* */` comments, commas optional everywhere (they are
//! skipped like blanks), strings in double quotes, decimal numbers, and for binary-exact files
//! floats written as a quoted hexadecimal string of their bits (the ACL docs: "a hexadecimal
//! string of the underlying 64 bit value"; 8 digits are read as 32-bit bits).
//!
//! It never builds a document tree: the ACL reader pulls exactly what it needs, which keeps the
//! per-value cost to one number parse and no allocation.

use crate::formats::error::ParseError;
use crate::formats::text::{decode_name, describe, parse_number_for_f32};

/// Deepest nesting `skip_value` follows; deeper input is junk and is refused, not recursed into.
const MAX_DEPTH: usize = 64;

/// A position in SJSON bytes.
pub struct Cursor<'a> {
    b: &'a [u8],
    /// Byte offset of the next unread byte.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `b`.
    pub fn new(b: &'a [u8]) -> Self {
        Self { b, pos: 0 }
    }

    /// Bytes left after `pos`.
    pub fn remaining(&self) -> usize {
        self.b.len().saturating_sub(self.pos)
    }

    /// `pos` as an error offset.
    pub fn off(&self) -> u64 {
        self.pos as u64
    }

    /// The token at `pos` for messages (`end of file` when there is none).
    pub fn found(&self) -> String {
        self.found_at(self.pos)
    }

    fn found_at(&self, at: usize) -> String {
        let rest = self.b.get(at..).unwrap_or(&[]);
        if rest.is_empty() {
            return "end of file".into();
        }
        let mut end = 1;
        if rest[0].is_ascii_alphanumeric() || rest[0] == b'_' || rest[0] == b'-' || rest[0] == b'.' || rest[0] == b'+' {
            while end < rest.len() && (rest[end].is_ascii_alphanumeric() || matches!(rest[end], b'_' | b'.' | b'-' | b'+')) {
                end += 1;
            }
        }
        describe(&rest[..end])
    }

    /// Skips blanks, commas and comments; fails only on an unterminated `/* */`.
    #[inline]
    pub fn skip_ws(&mut self) -> Result<(), ParseError> {
        while let Some(&c) = self.b.get(self.pos) {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | b',' | 0x0C => self.pos += 1,
                b'/' => match self.b.get(self.pos + 1) {
                    Some(b'/') => {
                        self.pos += 2;
                        while self.b.get(self.pos).is_some_and(|&c| c != b'\n') {
                            self.pos += 1;
                        }
                    }
                    Some(b'*') => {
                        let start = self.pos;
                        self.pos += 2;
                        loop {
                            match self.b.get(self.pos) {
                                None => return Err(ParseError::eof(start as u64, "'*/' closing the comment started here")),
                                Some(b'*') if self.b.get(self.pos + 1) == Some(&b'/') => {
                                    self.pos += 2;
                                    break;
                                }
                                Some(_) => self.pos += 1,
                            }
                        }
                    }
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    /// The next significant byte, after blanks and comments.
    #[inline]
    pub fn peek(&mut self) -> Result<Option<u8>, ParseError> {
        self.skip_ws()?;
        Ok(self.b.get(self.pos).copied())
    }

    /// Consumes `c` (after blanks) or fails naming `what`.
    #[inline]
    pub fn expect(&mut self, c: u8, what: &str) -> Result<(), ParseError> {
        match self.peek()? {
            Some(x) if x == c => {
                self.pos += 1;
                Ok(())
            }
            None => Err(ParseError::eof(self.off(), what)),
            Some(_) => Err(ParseError::expected(self.off(), what, self.found())),
        }
    }

    /// A key (identifier or quoted string) followed by `=` or `:`. Returns the key's bytes and offset.
    pub fn key(&mut self, context: &str) -> Result<(&'a [u8], usize), ParseError> {
        let start = match self.peek()? {
            None => return Err(ParseError::eof(self.off(), format!("a key in {context}"))),
            Some(_) => self.pos,
        };
        let key = if self.b[start] == b'"' {
            self.string()?
        } else {
            let mut end = start;
            while self.b.get(end).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                end += 1;
            }
            if end == start {
                return Err(ParseError::expected(self.off(), format!("a key in {context}"), self.found()));
            }
            self.pos = end;
            &self.b[start..end]
        };
        match self.peek()? {
            Some(b'=' | b':') => {
                self.pos += 1;
                Ok((key, start))
            }
            None => Err(ParseError::eof(self.off(), format!("'=' after key '{}'", decode_name(key)))),
            Some(_) => Err(ParseError::expected(self.off(), format!("'=' after key '{}'", decode_name(key)), self.found())),
        }
    }

    /// A double-quoted string's raw bytes (escapes left as written; ACL names have none).
    pub fn string(&mut self) -> Result<&'a [u8], ParseError> {
        match self.peek()? {
            Some(b'"') => {}
            None => return Err(ParseError::eof(self.off(), "a quoted string")),
            Some(_) => return Err(ParseError::expected(self.off(), "a quoted string", self.found())),
        }
        let start = self.pos;
        let mut i = start + 1;
        loop {
            match self.b.get(i) {
                None => return Err(ParseError::eof(start as u64, "'\"' closing the string started here")),
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(b'\n') => return Err(ParseError::expected(i as u64, "'\"' closing the string before the line ends", "end of line")),
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        Ok(&self.b[start + 1..i])
    }

    /// A bare word (`float3f`, `true`) or a quoted string, as text.
    pub fn word_or_string(&mut self, what: &str) -> Result<&'a [u8], ParseError> {
        if self.peek()? == Some(b'"') {
            return self.string();
        }
        let start = self.pos;
        let mut end = start;
        while self.b.get(end).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+')) {
            end += 1;
        }
        if end == start {
            return match self.b.get(start) {
                None => Err(ParseError::eof(self.off(), what.to_string())),
                Some(_) => Err(ParseError::expected(self.off(), what.to_string(), self.found())),
            };
        }
        self.pos = end;
        Ok(&self.b[start..end])
    }

    /// `true` or `false` (also `1`/`0` and their quoted forms).
    pub fn boolean(&mut self) -> Result<bool, ParseError> {
        let at = self.pos;
        match self.word_or_string("true or false")? {
            b"true" | b"1" => Ok(true),
            b"false" | b"0" => Ok(false),
            other => Err(ParseError::expected(at as u64, "true or false", describe(other))),
        }
    }

    /// A finite number: decimal, or a quoted/`0x` hexadecimal bit pattern (binary-exact files).
    #[inline]
    pub fn number(&mut self) -> Result<f64, ParseError> {
        self.skip_ws()?;
        let at = self.pos;
        let rest = self.b.get(at..).unwrap_or(&[]);
        let (value, used) = match rest.first() {
            None => return Err(ParseError::eof(self.off(), "a number")),
            Some(b'"') => {
                let s = self.string()?;
                let v =
                    hex_float(s).ok_or_else(|| ParseError::expected(at as u64, "a number (or a hexadecimal float string)", describe(s)))?;
                (v, self.pos - at)
            }
            Some(b'0') if matches!(rest.get(1), Some(b'x' | b'X')) => {
                let mut end = 2;
                while rest.get(end).is_some_and(|c| c.is_ascii_hexdigit()) {
                    end += 1;
                }
                let v = hex_float(&rest[..end]).ok_or_else(|| ParseError::expected(at as u64, "a number", self.found()))?;
                (v, end)
            }
            // Clip values are stored as f32.
            Some(_) => parse_number_for_f32(rest).ok_or_else(|| ParseError::expected(at as u64, "a number", self.found()))?,
        };
        self.pos = at + used;
        // A number must end at a delimiter: "1.5x" or "1e" is junk, not 1.5.
        if let Some(&c) = self.b.get(self.pos)
            && !matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b'/' | 0x0C)
        {
            return Err(ParseError::expected(at as u64, "a number", self.found_at(at)));
        }
        if !value.is_finite() {
            return Err(ParseError::invalid(at as u64, format!("number {} is out of range (not a finite float)", self.found_at(at))));
        }
        Ok(value)
    }

    /// A whole number: decimal, or hexadecimal with `0x` (ACL writes `output_index =
    /// 0xFFFFFFFF` for "no output"). Returns the value and its offset.
    pub fn integer(&mut self, what: &str) -> Result<(u64, usize), ParseError> {
        self.skip_ws()?;
        let at = self.pos;
        let rest = self.b.get(at..).unwrap_or(&[]);
        if rest.len() > 1 && rest[0] == b'0' && matches!(rest[1], b'x' | b'X') {
            let digits = rest[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            let text = std::str::from_utf8(&rest[2..2 + digits]).unwrap_or("");
            let value = u64::from_str_radix(text, 16).ok().filter(|_| digits > 0);
            self.pos = at + 2 + digits;
            let ends = self.b.get(self.pos).is_none_or(|&c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b'/' | 0x0C));
            return match value {
                Some(v) if ends => Ok((v, at)),
                _ => Err(ParseError::expected(at as u64, format!("{what} (a whole number)"), self.found_at(at))),
            };
        }
        let v = self.number()?;
        if v < 0.0 || v.fract() != 0.0 || v > u64::MAX as f64 {
            return Err(ParseError::invalid(at as u64 + 1, format!("{what} must be a whole number, found {v}")));
        }
        Ok((v as u64, at))
    }

    /// `[ v0 v1 … ]` with exactly `N` numbers, each a finite f32.
    #[inline]
    pub fn vector<const N: usize>(&mut self, what: &str) -> Result<[f32; N], ParseError> {
        self.expect(b'[', what)?;
        let mut out = [0.0f32; N];
        for (k, slot) in out.iter_mut().enumerate() {
            if self.peek()? == Some(b']') {
                return Err(ParseError::expected(self.off(), format!("{N} numbers in {what}, got {k}"), "']'"));
            }
            let at = self.pos;
            let v = self.number()?;
            let f = v as f32;
            if !f.is_finite() {
                return Err(ParseError::invalid(at as u64, format!("number {} does not fit a 32-bit float", self.found_at(at))));
            }
            *slot = f;
        }
        match self.peek()? {
            Some(b']') => {
                self.pos += 1;
                Ok(out)
            }
            None => Err(ParseError::eof(self.off(), format!("']' closing {what} ({N} numbers)"))),
            Some(_) => Err(ParseError::expected(self.off(), format!("']' closing {what} ({N} numbers)"), self.found())),
        }
    }

    /// Skips one value of any shape (for unknown keys). Returns a short text of a scalar value.
    pub fn skip_value(&mut self) -> Result<Option<String>, ParseError> {
        self.skip_value_at(0)
    }

    fn skip_value_at(&mut self, depth: usize) -> Result<Option<String>, ParseError> {
        if depth > MAX_DEPTH {
            return Err(ParseError::invalid(self.off(), format!("values nested deeper than {MAX_DEPTH} levels")));
        }
        match self.peek()? {
            None => Err(ParseError::eof(self.off(), "a value")),
            Some(b'{') => {
                self.pos += 1;
                while self.peek()? != Some(b'}') {
                    self.key("an object")?;
                    self.skip_value_at(depth + 1)?;
                }
                self.pos += 1;
                Ok(None)
            }
            Some(b'[') => {
                let start = self.pos;
                self.pos += 1;
                loop {
                    match self.peek()? {
                        None => return Err(ParseError::eof(start as u64, "']' closing the array started here")),
                        Some(b']') => break,
                        Some(_) => {
                            self.skip_value_at(depth + 1)?;
                        }
                    }
                }
                self.pos += 1;
                Ok(None)
            }
            Some(b'"') => Ok(Some(decode_name(self.string()?))),
            Some(c) if c == b'-' || c == b'+' || c == b'.' || c.is_ascii_digit() => {
                let start = self.pos;
                // An integer written in hexadecimal (`0xFFFFFFFF`) is a whole number, not the
                // bit pattern of a float: ACL uses it for indices.
                if self.b[start..].starts_with(b"0x") || self.b[start..].starts_with(b"0X") {
                    self.integer("a value")?;
                } else {
                    self.number()?;
                }
                Ok(Some(decode_name(&self.b[start..self.pos])))
            }
            Some(_) => Ok(Some(decode_name(self.word_or_string("a value")?))),
        }
    }
}

/// The float whose bits a hexadecimal string spells: 16 digits for f64, 8 for f32 (`0x` optional).
fn hex_float(s: &[u8]) -> Option<f64> {
    let digits = s.strip_prefix(b"0x").or_else(|| s.strip_prefix(b"0X")).unwrap_or(s);
    if digits.is_empty() || digits.len() > 16 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let bits = u64::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()?;
    match digits.len() {
        16 => Some(f64::from_bits(bits)),
        8 => Some(f32::from_bits(bits as u32) as f64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_hex() {
        let mut c = Cursor::new(b" 1.5, \"3FF8000000000000\" \"3fc00000\" 0x3FF8000000000000 -2e3 ]");
        assert_eq!(c.number().unwrap(), 1.5);
        assert_eq!(c.number().unwrap(), 1.5);
        assert_eq!(c.number().unwrap(), 1.5);
        assert_eq!(c.number().unwrap(), 1.5);
        assert_eq!(c.number().unwrap(), -2000.0);
        assert!(c.number().is_err());
    }

    #[test]
    fn rejects_junk_numbers() {
        for bad in ["1e999", "nan", "1.5x", "\"zz\"", "inf"] {
            let e = Cursor::new(bad.as_bytes()).number().unwrap_err();
            assert!(e.to_string().contains("number"), "{bad}: {e}");
        }
    }

    #[test]
    fn comments_keys_and_skips() {
        let text = b"/* a */ key = { x = [1 [2, 3] \"s\"] y: true } // tail\n k2 = 1";
        let mut c = Cursor::new(text);
        assert_eq!(c.key("top").unwrap().0, b"key");
        assert_eq!(c.skip_value().unwrap(), None);
        assert_eq!(c.key("top").unwrap().0, b"k2");
        assert_eq!(c.skip_value().unwrap().as_deref(), Some("1"));
        assert_eq!(c.peek().unwrap(), None);
    }

    #[test]
    fn errors_name_what_was_expected() {
        let e = Cursor::new(b"name \"x\"").key("the file").unwrap_err();
        assert!(e.to_string().contains("'=' after key 'name'"), "{e}");
        let e = Cursor::new(b"\"abc").string().unwrap_err();
        assert!(e.to_string().contains("closing the string"), "{e}");
        let e = Cursor::new(b"[1 2]").vector::<3>("a translation").unwrap_err();
        assert!(e.to_string().contains("3 numbers in a translation"), "{e}");
        let e = Cursor::new(b"/* open").skip_ws().unwrap_err();
        assert!(e.to_string().contains("*/"), "{e}");
        let deep = vec![b'['; 500];
        assert!(Cursor::new(&deep).skip_value().is_err());
    }
}
