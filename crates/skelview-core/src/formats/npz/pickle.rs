//! The strings a pickle holds, found by their opcodes and never unpickled: no code of the file
//! runs, nothing is built. An object array's `gender` (`np.array('male', dtype=object)`, or a
//! Python 2 `str`) is a pickle whose payload strings include the word.

/// Most bytes of an object array's pickle that are looked at: a string is a few bytes, a
/// pickle that large is not one.
pub const MAX_PICKLE: usize = 64 << 10;

/// The string literals of `pickle`, in the order they appear: unicode and byte strings of
/// protocols 0 to 5 (`SHORT_BINUNICODE`, `BINUNICODE`, `BINUNICODE8`, `SHORT_BINBYTES`,
/// `BINBYTES`, `SHORT_BINSTRING`, `BINSTRING`, and protocol 0's `V` and `S` lines). The scan
/// reads every byte as a possible opcode: a literal that lies inside another one's payload may
/// be listed too, so callers look for a word they know, not for the n-th string.
pub fn strings(pickle: &[u8]) -> Vec<String> {
    let b = &pickle[..pickle.len().min(MAX_PICKLE)];
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (payload, next) = match b[i] {
            // 1-byte length: SHORT_BINUNICODE, SHORT_BINBYTES, SHORT_BINSTRING.
            0x8c | b'C' | b'U' => sized(b, i + 1, 1),
            // 4-byte length: BINUNICODE, BINBYTES, BINSTRING.
            b'X' | b'B' | b'T' => sized(b, i + 1, 4),
            // 8-byte length: BINUNICODE8.
            0x8d => sized(b, i + 1, 8),
            // Protocol 0: `Vtext\n` (raw-unicode-escaped) and `S'text'\n`.
            b'V' => line(b, i + 1).map_or((None, i + 1), |(s, n)| (Some(s), n)),
            b'S' => match line(b, i + 1) {
                Some((s, n)) if s.len() >= 2 && (s.starts_with('\'') && s.ends_with('\'') || s.starts_with('"') && s.ends_with('"')) => {
                    (Some(s[1..s.len() - 1].to_owned()), n)
                }
                _ => (None, i + 1),
            },
            _ => (None, i + 1),
        };
        if let Some(s) = payload {
            out.push(s);
        }
        i = next.max(i + 1);
    }
    out
}

/// A literal of `width` length bytes (little-endian) at `at`, as text when it is UTF-8 (or
/// Latin-1, as Python 2 strings were read): the text and where the next opcode starts.
fn sized(b: &[u8], at: usize, width: usize) -> (Option<String>, usize) {
    let Some(len_bytes) = b.get(at..at + width) else { return (None, at) };
    let mut len = [0u8; 8];
    len[..width].copy_from_slice(len_bytes);
    let len = u64::from_le_bytes(len);
    let start = at + width;
    let Some(payload) = usize::try_from(len).ok().and_then(|n| b.get(start..start.checked_add(n)?)) else { return (None, at) };
    let text = match std::str::from_utf8(payload) {
        Ok(s) => s.to_owned(),
        Err(_) => payload.iter().map(|&c| char::from(c)).collect(),
    };
    (Some(text), start + payload.len())
}

/// The line at `at` (to its `\n`), when it is text, and where the next opcode starts.
fn line(b: &[u8], at: usize) -> Option<(String, usize)> {
    let end = at + b.get(at..)?.iter().take(256).position(|&c| c == b'\n')?;
    let s = std::str::from_utf8(&b[at..end]).ok()?;
    Some((s.to_owned(), end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocols_strings_are_found_and_nothing_is_run() {
        // `pickle.dumps(np.array('male', dtype=object), protocol=4)`'s shape: a global, then
        // the payload.
        let p4 =
            b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x15numpy.core.multiarray\x94\x8c\x0c_reconstruct\x94\x93\x8c\x04male\x94.";
        assert_eq!(strings(p4), ["numpy.core.multiarray", "_reconstruct", "male"]);
        // Protocol 3's BINUNICODE, a Python 2 SHORT_BINSTRING and BINBYTES.
        assert_eq!(strings(b"\x80\x03X\x06\x00\x00\x00female."), ["female"]);
        assert_eq!(strings(b"\x80\x02U\x07neutralq\x00."), ["neutral"]);
        assert_eq!(strings(b"B\x04\x00\x00\x00male."), ["male"]);
        // Protocol 0.
        assert_eq!(strings(b"Vfemale\np0\n."), ["female"]);
        assert_eq!(strings(b"S'male'\np0\n."), ["male"]);
        // Lengths past the end, and junk, give nothing (and no panic).
        assert!(strings(b"\x8c\xffmale").is_empty());
        assert!(strings(b"X\xff\xff\xff\xffmale").is_empty());
        assert!(strings(b"\x8d\xff\xff\xff\xff\xff\xff\xff\xffx").is_empty());
        assert!(strings(b"").is_empty());
        // A `reduce` of os.system is only its strings: the scan builds and calls nothing.
        assert_eq!(strings(b"\x80\x04\x8c\x02os\x8c\x06system\x93\x8c\x02ls\x85R."), ["os", "system", "ls"]);
    }
}
