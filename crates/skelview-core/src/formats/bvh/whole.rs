//! A file read whole by the workers, a piece each, with each piece's newlines counted while
//! it is in cache: on two cores the read and the count then take half the time they take on
//! the calling thread, and the parse's parts need no second pass to count their rows.

use std::fs::File;
use std::io;

use super::Plan;
use crate::formats::Parallel;
use crate::formats::error::ParseError;
use crate::par::{PieceJob, extend_in_pieces};

/// A file's bytes with the newlines counted per piece.
pub(super) struct Whole {
    pub bytes: Vec<u8>,
    /// Length of each piece (the last may be shorter).
    piece_len: usize,
    /// Newlines before the start of each piece, and one more entry for the end.
    newlines_before: Vec<usize>,
}

/// Reads all `size` bytes of `file` in pieces on `parallel`. `None` when the file is not
/// `size` bytes long any more (it changed since its size was asked): the caller streams it.
pub(super) fn read(file: &File, size: usize, parallel: &dyn Parallel) -> Result<Option<Whole>, ParseError> {
    let piece_len = size.div_ceil(parallel.width().max(1) * 4).max(1);
    let count = size.div_ceil(piece_len);
    let mut found: Vec<Option<io::Result<Option<usize>>>> = (0..count).map(|_| None).collect();
    let pieces: Vec<(usize, PieceJob<'_, u8>)> = found
        .iter_mut()
        .enumerate()
        .map(|(k, slot)| {
            let offset = k * piece_len;
            let job = move |piece: &mut [u8]| {
                *slot = Some(read_exact_at(file, piece, offset as u64).map(|full| full.then(|| memchr::memchr_iter(b'\n', piece).count())));
            };
            (piece_len.min(size - offset), Box::new(job) as PieceJob<'_, u8>)
        })
        .collect();
    let mut bytes = Vec::new();
    extend_in_pieces(parallel, &mut bytes, None, pieces);
    let mut newlines_before = Vec::with_capacity(count + 1);
    newlines_before.push(0);
    for slot in found {
        match slot.expect("every job ran") {
            Ok(Some(newlines)) => newlines_before.push(newlines_before.last().copied().unwrap_or(0) + newlines),
            Ok(None) => return Ok(None),
            Err(e) => return Err(ParseError::invalid(0, format!("read error: {e}"))),
        }
    }
    // A byte past the size: the file grew.
    match read_exact_at(file, &mut [0], size as u64) {
        Ok(false) => Ok(Some(Whole { bytes, piece_len, newlines_before })),
        Ok(true) => Ok(None),
        Err(e) => Err(ParseError::invalid(size as u64, format!("read error: {e}"))),
    }
}

impl Whole {
    /// Newlines in `bytes[..at]`, from the piece counts and a count of the piece's bytes
    /// before `at` (short when `at` is near a piece's start).
    fn newlines_to(&self, at: usize) -> usize {
        let k = at / self.piece_len;
        let start = k * self.piece_len;
        self.newlines_before[k] + memchr::memchr_iter(b'\n', &self.bytes[start..at]).count()
    }

    /// The rows from `start` cut into one part per piece: each part from the line after a
    /// piece's start to the line after the next one's, so its rows are counted from the
    /// piece counts and a line or so at each end. The same parts as [`Plan::split`] would
    /// give for as many parts, with the same row counts.
    pub fn plan(&self, start: usize) -> Plan<'_> {
        let len = self.bytes.len();
        let mut cuts = vec![start];
        for k in 1..self.newlines_before.len() - 1 {
            let at = k * self.piece_len;
            if at <= *cuts.last().unwrap_or(&start) {
                continue;
            }
            match memchr::memchr(b'\n', &self.bytes[at..]) {
                Some(p) if at + p + 1 < len => cuts.push(at + p + 1),
                _ => break,
            }
        }
        cuts.push(len);
        let mut parts = Vec::with_capacity(cuts.len() - 1);
        let mut rows = Vec::with_capacity(cuts.len() - 1);
        let mut before = self.newlines_to(start);
        for pair in cuts.windows(2) {
            let [from, to] = [pair[0], pair[1]];
            let through = if to == len { *self.newlines_before.last().unwrap_or(&0) } else { self.newlines_to(to) };
            let unfinished = to == len && from < to && self.bytes[len - 1] != b'\n';
            parts.push((from - start, &self.bytes[from..to]));
            rows.push(through - before + usize::from(unfinished));
            before = through;
        }
        Plan { parts, rows }
    }
}

/// Fills `buf` from `offset`; false if the file ended first.
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<bool> {
    while !buf.is_empty() {
        match read_at(file, buf, offset) {
            Ok(0) => return Ok(false),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::bvh::{MIN_PARALLEL_BYTES, max_rows, parse_slice};
    use crate::formats::{Quiet, Sequential};

    /// Runs jobs one after the other but asks for parts as if it had `0` cores.
    struct Wide(usize);

    impl Parallel for Wide {
        fn width(&self) -> usize {
            self.0
        }
        fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
            jobs.into_iter().for_each(|job| job());
        }
    }

    fn file_of(text: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, text).unwrap();
        f
    }

    /// Every part's row count is the one counting its own bytes gives, whatever the line
    /// lengths, blank lines, and whether the file ends with a newline.
    #[test]
    fn plan_counts_rows_as_the_parts_hold_them() {
        for (lines, width, end) in [(1usize, 1usize, "\n"), (7, 2, ""), (500, 2, "\n"), (500, 3, ""), (2000, 4, "\r\n"), (40, 16, "")] {
            let mut text = String::from("HEADER\nMOTION\n");
            let start = text.len();
            for i in 0..lines {
                text.push_str(&"1 ".repeat(i % 13));
                text.push_str(if i % 17 == 3 { "\n\n" } else { "\n" });
            }
            text.push_str(&"9".repeat(lines % 5));
            text.push_str(end);
            let f = file_of(text.as_bytes());
            let whole = read(f.as_file(), text.len(), &Wide(width)).unwrap().expect("same size");
            assert_eq!(whole.bytes, text.as_bytes());
            let plan = whole.plan(start);
            let joined: Vec<u8> = plan.parts.iter().flat_map(|(_, p)| p.iter().copied()).collect();
            assert_eq!(joined, text.as_bytes()[start..]);
            for ((at, part), rows) in plan.parts.iter().zip(&plan.rows) {
                assert_eq!(&text.as_bytes()[start + at..start + at + part.len()], *part);
                assert_eq!(*rows, max_rows(part), "{lines} lines, width {width}");
            }
        }
    }

    proptest::proptest! {
        /// The same on any bytes: runs of newlines, CRs, no final newline, a header longer
        /// than a piece.
        #[test]
        fn plan_agrees_with_counting_the_parts(text in "[0-9 \r\n]{0,3000}", start in 0usize..3000, width in 1usize..9) {
            let start = start.min(text.len());
            let f = file_of(text.as_bytes());
            let whole = read(f.as_file(), text.len(), &Wide(width)).unwrap().expect("same size");
            let plan = whole.plan(start);
            let joined: Vec<u8> = plan.parts.iter().flat_map(|(_, p)| p.iter().copied()).collect();
            proptest::prop_assert_eq!(&joined[..], &text.as_bytes()[start..]);
            for ((at, part), rows) in plan.parts.iter().zip(&plan.rows) {
                proptest::prop_assert_eq!(&text.as_bytes()[start + at..start + at + part.len()], *part);
                proptest::prop_assert_eq!(*rows, max_rows(part));
            }
        }
    }

    /// A size given wrong (the file grew or shrank since) gives `None`, not a wrong read.
    #[test]
    fn a_file_of_another_size_is_not_read_whole() {
        let text = b"0123456789\n".repeat(1000);
        let f = file_of(&text);
        assert!(read(f.as_file(), text.len(), &Wide(2)).unwrap().is_some());
        assert!(read(f.as_file(), text.len() - 5, &Wide(2)).unwrap().is_none());
        assert!(read(f.as_file(), text.len() + 5, &Wide(2)).unwrap().is_none());
    }

    /// Messy rows (blank lines, CRLF, `nan`s, a bad value, a last row cut short or without
    /// a newline) read whole on a real pool of four threads give what the same bytes give in
    /// memory on one thread: the values, the warnings, or the same error at the same offset.
    #[cfg(feature = "parallel")]
    #[test]
    fn messy_whole_reads_on_threads_parse_as_in_memory() {
        let rule = crate::core::PositionRule::Replace;
        for (bad_row, tail) in [(None, ""), (None, "1 2"), (None, "1 2 3"), (Some(19_990), ""), (Some(7_001), "1 2 3\n")] {
            let mut text = String::from(
                "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Zrotation Yrotation\n}\nMOTION\nFrames: 20000\nFrame Time: 0.01\n",
            );
            for i in 0..20_000 {
                let end = if i % 3 == 0 { "\r\n" } else { "\n" };
                match i % 997 {
                    _ if Some(i) == bad_row => text.push_str("1 2x 3\n"),
                    5 => text.push_str(&format!("nan {i} 0{end}")),
                    9 => text.push_str(&format!("\n\n{i} 0 0{end}")),
                    _ => text.push_str(&format!("{i}.5 0 -{}.25{end}", i % 360)),
                }
            }
            text.push_str(tail);
            assert!(text.len() > MIN_PARALLEL_BYTES);
            let want = parse_slice(text.as_bytes(), rule, &Sequential, &mut Quiet);
            let f = file_of(text.as_bytes());
            let got = crate::par::in_test_pool(4, || crate::formats::bvh::load_file(f.as_file(), rule, &crate::par::Rayon, &mut Quiet));
            match (got, want) {
                (Ok(got), Ok(want)) => {
                    assert_eq!(got.clip, want.clip, "{bad_row:?} {tail:?}");
                    assert_eq!(got.warnings, want.warnings, "{bad_row:?} {tail:?}");
                    assert!(got.clip.num_frames() >= 20_000);
                }
                (Err(got), Err(want)) => assert_eq!(got, want, "{bad_row:?} {tail:?}"),
                (got, want) => panic!("{bad_row:?} {tail:?}: {:?} against {:?}", got.err(), want.err()),
            }
        }
    }

    /// A file read whole by parts parses as the same bytes in memory.
    #[test]
    fn whole_reads_parse_as_in_memory() {
        let mut text = String::from(
            "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Zrotation\n}\nMOTION\nFrames: 30000\nFrame Time: 0.01\n",
        );
        for i in 0..30000 {
            text.push_str(&format!("{i}.5 -{}.25\n", i % 360));
        }
        let want = parse_slice(text.as_bytes(), crate::core::PositionRule::Replace, &Sequential, &mut Quiet).unwrap();
        let f = file_of(text.as_bytes());
        let got = crate::formats::bvh::load_file(f.as_file(), crate::core::PositionRule::Replace, &Wide(3), &mut Quiet).unwrap();
        assert_eq!(got.clip, want.clip);
        assert_eq!(got.clip.num_frames(), 30000);
    }
}
