//! The MOTION rows: one frame per line, one number per channel. This is the hot loop.

use crate::formats::error::ParseError;
use crate::formats::text::{describe, is_blank, parse_number_at, parse_number_at_slow, parse_short_number_at, token_end};

/// Parses rows of a fixed number of channels, scaling each column (degrees → radians).
#[derive(Clone, Debug)]
pub struct RowParser {
    /// Multiplier per column; its length is the number of values per row. Each is at most
    /// 10³⁰ in magnitude (degrees to radians, or 1), so a short number times it stays finite.
    pub scales: Vec<f32>,
}

/// What a call to [`RowParser::parse`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowStats {
    /// Complete rows appended.
    pub rows: usize,
    /// Offset of an incomplete last row that was dropped (only at the end of the file).
    pub dropped_partial_row: Option<u64>,
    /// Values written as `nan` or `inf` (exporters write them when tracking is lost).
    pub missing: u64,
    /// Offset of the first of them.
    pub first_missing: Option<u64>,
}

/// True for the words exporters write for a missing value: `nan`, `inf`, `infinity` with an
/// optional sign, any case, and MSVC's `1.#QNAN`, `-1.#IND`, `1.#INF`.
fn is_missing_word(token: &[u8]) -> bool {
    let t = token.strip_prefix(b"-").or_else(|| token.strip_prefix(b"+")).unwrap_or(token);
    [&b"nan"[..], b"inf", b"infinity", b"1.#qnan", b"1.#ind", b"1.#inf", b"nan(ind)"].iter().any(|w| t.eq_ignore_ascii_case(w))
}

impl RowParser {
    /// Appends the rows in `bytes` (whole lines; `base` is the file offset of `bytes[0]`) to `out`.
    ///
    /// With `at_eof`, a last line with too few values is dropped and reported instead of
    /// failing: a truncated download still shows every complete frame.
    pub fn parse(&self, bytes: &[u8], base: u64, at_eof: bool, out: &mut Vec<f32>) -> Result<RowStats, ParseError> {
        let start = out.len();
        let n = self.scales.len();
        out.resize(start + row_room(max_rows(bytes), bytes.len(), n) * n, 0.0);
        let result = self.parse_into(bytes, base, at_eof, &mut out[start..]);
        out.truncate(start + result.as_ref().map_or(0, |s| s.rows * self.scales.len()));
        result
    }

    /// Writes the rows in `bytes` to the front of `out`, which holds at least
    /// [`row_room`] rows: the parallel parse gives each part of a block its own
    /// piece of the clip's buffer, so nothing is copied afterwards.
    pub fn parse_into(&self, bytes: &[u8], base: u64, at_eof: bool, out: &mut [f32]) -> Result<RowStats, ParseError> {
        self.parse_rows(bytes, base, at_eof, out, true)
    }

    /// [`RowParser::parse_into`], with or without the plain-rows loop (the tests compare them).
    fn parse_rows(&self, bytes: &[u8], base: u64, at_eof: bool, out: &mut [f32], plain: bool) -> Result<RowStats, ParseError> {
        let n = self.scales.len();
        let len = bytes.len();
        let mut stats = RowStats::default();
        let mut w = 0;
        let mut i = 0;
        while i < len {
            while i < len && is_blank(bytes[i]) {
                i += 1;
            }
            if i == len {
                break;
            }
            if bytes[i] == b'\n' {
                i += 1;
                continue;
            }
            if n > 0 && plain {
                // Whole rows of plain numbers in one tight loop; it stops before anything else
                // (blank lines, missing words, errors, the last bytes), which the loop below reads.
                let (end, rows) = self.plain_rows(bytes, i, &mut out[w..]);
                if rows > 0 {
                    stats.rows += rows;
                    w += rows * n;
                    i = end;
                    continue;
                }
            }
            if n == 0 {
                return Err(no_channels_error(bytes, base, i));
            }
            let row_start = i;
            for (k, &scale) in self.scales.iter().enumerate() {
                while i < len && is_blank(bytes[i]) {
                    i += 1;
                }
                if i == len || bytes[i] == b'\n' {
                    if i == len && at_eof {
                        // The caller keeps `stats.rows` rows: this one's values are left out.
                        stats.dropped_partial_row = Some(base + row_start as u64);
                        return Ok(stats);
                    }
                    return Err(ParseError::expected(base + i as u64, format!("{n} values in this motion row"), format!("{k}")));
                }
                let parsed = parse_number_at(bytes, i);
                let Some((value, end)) = parsed.filter(|&(_, end)| end == len || is_blank(bytes[end]) || bytes[end] == b'\n') else {
                    let end = token_end(bytes, i);
                    if is_missing_word(&bytes[i..end]) {
                        stats.missing += 1;
                        stats.first_missing.get_or_insert(base + i as u64);
                        out[w] = f32::NAN;
                        w += 1;
                        i = end;
                        continue;
                    }
                    return Err(ParseError::expected(base + i as u64, "a number", describe(&bytes[i..end])));
                };
                let used = end - i;
                let v = value as f32 * scale;
                if !v.is_finite() {
                    return Err(ParseError::invalid(base + i as u64, format!("number out of range: {}", describe(&bytes[i..i + used]))));
                }
                out[w] = v;
                w += 1;
                i += used;
            }
            i = end_of_row(bytes, i, base, n)?;
            stats.rows += 1;
        }
        debug_assert_eq!(w, stats.rows * n);
        Ok(stats)
    }
}

/// The error for a row in a file whose skeleton has no channels (its rows must be empty).
#[cold]
fn no_channels_error(bytes: &[u8], base: u64, i: usize) -> ParseError {
    ParseError::expected(base + i as u64, "an empty motion row (the skeleton has no channels)", describe(&bytes[i..token_end(bytes, i)]))
}

/// Skips the blanks after a row's `n` values at `i` and returns where they end: only the end
/// of the line (or of the bytes) may follow.
#[inline]
fn end_of_row(bytes: &[u8], mut i: usize, base: u64, n: usize) -> Result<usize, ParseError> {
    let len = bytes.len();
    while i < len && is_blank(bytes[i]) {
        i += 1;
    }
    if i < len && bytes[i] != b'\n' {
        return Err(ParseError::expected(
            base + i as u64,
            format!("end of row after {n} values"),
            describe(&bytes[i..token_end(bytes, i)]),
        ));
    }
    Ok(i)
}

impl RowParser {
    /// Reads rows from `bytes[i..]` into `out` while each is plain: values that
    /// [`parse_number_at`] reads, finite once scaled, separated by spaces or tabs, the row ended
    /// by `\n` (or `\r\n`), at least [`PLAIN_MARGIN`] bytes from the end. Returns where it
    /// stopped (the start of the first row it did not take) and the rows taken. The general
    /// loop gives the same values for these rows: this one only leaves out its checks.
    ///
    /// Long runs are read as two halves in step, a value of each at a time: reading one value
    /// waits on where the one before ended (a chain of dependent loads and bit tricks that set
    /// the pace), and two independent chains keep the processor twice as busy.
    ///
    /// Rows where most values are a lone `0` (unused finger channels, a held pose) take a
    /// loop that tests for it first: twice as fast on those, 7% slower on rows of decimals,
    /// so a row from the middle of each window decides.
    fn plain_rows(&self, bytes: &[u8], i: usize, out: &mut [f32]) -> (usize, usize) {
        let n = self.scales.len();
        // A first stretch a row at a time: a run that stops soon (rows the general loop must
        // read, such as a `nan` on every frame) costs no more than its rows. The counting and
        // sampling of the windows below are paid for by runs that go on.
        let (mut k, mut rows) = self.single_rows::<false>(bytes, i, i + PAIRED_BYTES, out, 0);
        if k < i + PAIRED_BYTES {
            return (k, rows);
        }
        loop {
            let (end, got, goes_on) = self.plain_window(bytes, k, &mut out[rows * n..]);
            (k, rows) = (end, rows + got);
            if !goes_on {
                return (k, rows);
            }
        }
    }

    /// The rows of the run from `k` that start within [`WINDOW`] bytes, read as two halves in
    /// step; returns where it stopped, the rows taken, and whether the run goes on past the
    /// window. The window bounds the counting of its first half, whatever the run's length.
    fn plain_window(&self, bytes: &[u8], k: usize, out: &mut [f32]) -> (usize, usize, bool) {
        let len = bytes.len();
        let end = (k + WINDOW).min(len);
        let half = k + (end - k) / 2;
        let split = (end - k >= PAIRED_BYTES).then(|| memchr::memchr(b'\n', &bytes[half..end]).map(|p| half + p + 1)).flatten();
        let split = split.filter(|&m| m < len);
        let stop = if end == len { usize::MAX } else { end };
        let (at, rows) = if mostly_zeros(&bytes[split.unwrap_or(k)..]) {
            self.plain_rows_with::<true>(bytes, k, split, stop, out)
        } else {
            self.plain_rows_with::<false>(bytes, k, split, stop, out)
        };
        (at, rows, stop != usize::MAX && at >= stop)
    }

    /// [`RowParser::plain_window`]'s rows that start before `stop`, with the run split at
    /// `split` (when long enough to pair).
    #[inline(never)]
    fn plain_rows_with<const ZEROS: bool>(
        &self,
        bytes: &[u8],
        i: usize,
        split: Option<usize>,
        stop: usize,
        out: &mut [f32],
    ) -> (usize, usize) {
        let n = self.scales.len();
        let Some(m) = split else { return self.single_rows::<ZEROS>(bytes, i, stop, out, 0) };
        // A plain row ends at its one newline, so the first half holds as many rows as it has
        // newlines: the second half's rows go straight to where they belong. Where the first
        // half is not all plain, the general loop takes over there and writes over them.
        let rows_a = memchr::memchr_iter(b'\n', &bytes[i..m]).count();
        if rows_a * n > out.len() {
            return self.single_rows::<ZEROS>(bytes, i, stop, out, 0);
        }
        let (first, second) = out.split_at_mut(rows_a * n);
        let (mut ka, mut kb, mut pairs) = (i, m, 0);
        while ka < m && (pairs + 1) * n <= first.len().min(second.len()) {
            let row = pairs * n..(pairs + 1) * n;
            match self.plain_row_pair::<ZEROS>(bytes, ka, kb, &mut first[row.clone()], &mut second[row]) {
                Some((next_a, next_b)) => (ka, kb, pairs) = (next_a, next_b, pairs + 1),
                None => break,
            }
        }
        let (end_a, rows) = self.single_rows::<ZEROS>(bytes, ka, m, &mut first[pairs * n..], pairs);
        if end_a != m || rows != rows_a {
            return (end_a, rows);
        }
        self.single_rows::<ZEROS>(bytes, kb, stop, &mut second[pairs * n..], rows_a + pairs)
    }

    /// Plain rows from `k` into `out` while they start before `stop`, one after the other;
    /// returns where it stopped and `done` plus the rows taken.
    fn single_rows<const ZEROS: bool>(&self, bytes: &[u8], mut k: usize, stop: usize, out: &mut [f32], done: usize) -> (usize, usize) {
        let n = self.scales.len();
        let mut w = 0;
        while k < stop && w + n <= out.len() {
            let Some(next) = self.plain_row::<ZEROS>(bytes, k, &mut out[w..w + n]) else { break };
            (k, w) = (next, w + n);
        }
        (k, done + w / n.max(1))
    }

    /// One plain row at `k` into `slots`: the offset after its newline, or `None`.
    #[inline(always)]
    fn plain_row<const ZEROS: bool>(&self, bytes: &[u8], mut k: usize, slots: &mut [f32]) -> Option<usize> {
        for (slot, &scale) in slots.iter_mut().zip(&self.scales) {
            (*slot, k) = plain_value::<ZEROS>(bytes, k, scale)?;
        }
        row_end(bytes, k)
    }

    /// Two plain rows at once, a value of each in turn (see [`RowParser::plain_rows`]).
    #[inline(always)]
    fn plain_row_pair<const ZEROS: bool>(
        &self,
        bytes: &[u8],
        mut ka: usize,
        mut kb: usize,
        a: &mut [f32],
        b: &mut [f32],
    ) -> Option<(usize, usize)> {
        for ((sa, sb), &scale) in a.iter_mut().zip(b.iter_mut()).zip(&self.scales) {
            let va = plain_value::<ZEROS>(bytes, ka, scale);
            let vb = plain_value::<ZEROS>(bytes, kb, scale);
            ((*sa, ka), (*sb, kb)) = (va?, vb?);
        }
        Some((row_end(bytes, ka)?, row_end(bytes, kb)?))
    }
}

/// Runs shorter than this are read as one (the split costs more than it gives); the unit
/// tests pair short texts too.
const PAIRED_BYTES: usize = if cfg!(test) { 64 } else { 16 << 10 };
/// Bytes of a run read per window of two halves (see [`RowParser::plain_window`]).
const WINDOW: usize = if cfg!(test) { 256 } else { 256 << 10 };

/// The plain value after the blanks at `k`, scaled, and where it ends; `None` for anything
/// else (the general loop reads it). With `ZEROS`, a lone `0` is tested for first.
#[inline(always)]
fn plain_value<const ZEROS: bool>(bytes: &[u8], mut k: usize, scale: f32) -> Option<(f32, usize)> {
    let len = bytes.len();
    while k < len && matches!(bytes[k], b' ' | b'\t') {
        k += 1;
    }
    // Near the end (a long run of blanks, a long number) the general loop reads on.
    if k + PLAIN_MARGIN > len {
        return None;
    }
    let gap = |end: usize| matches!(bytes[end], b' ' | b'\t' | b'\r' | b'\n');
    if ZEROS && bytes[k] == b'0' && gap(k + 1) {
        return Some((0.0, k + 1));
    }
    // The short shapes give values below 10⁸: finite once scaled (scales are 1 or π/180).
    if let Some((value, end)) = parse_short_number_at(bytes, k) {
        return gap(end).then_some((value as f32 * scale, end));
    }
    let (value, end) = parse_number_at_slow(bytes, k)?;
    let v = value as f32 * scale;
    (end < len && gap(end) && v.is_finite()).then_some((v, end))
}

/// True when at least a quarter of the values on the first line of `bytes` (its first 8 KiB)
/// are a lone `0`.
fn mostly_zeros(bytes: &[u8]) -> bool {
    let line = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len()).min(8 << 10)];
    let (mut values, mut zeros, mut after_blank) = (0usize, 0usize, true);
    for (k, &c) in line.iter().enumerate() {
        let blank = matches!(c, b' ' | b'\t' | b'\r');
        if after_blank && !blank {
            values += 1;
            zeros += usize::from(c == b'0' && line.get(k + 1).is_none_or(|&d| matches!(d, b' ' | b'\t' | b'\r')));
        }
        after_blank = blank;
    }
    zeros * 4 >= values.max(1)
}

/// After a row's last value at `k`: the offset after its newline (trailing blanks and a CR
/// allowed), or `None`.
#[inline(always)]
fn row_end(bytes: &[u8], mut k: usize) -> Option<usize> {
    while k < bytes.len() && matches!(bytes[k], b' ' | b'\t' | b'\r') {
        k += 1;
    }
    (bytes.get(k) == Some(&b'\n')).then_some(k + 1)
}

/// Bytes kept after a value that [`RowParser::plain_rows`] reads: the number parser's fast
/// paths read 17 bytes ahead.
const PLAIN_MARGIN: usize = 32;

/// The most rows `bytes` can hold: its lines (a last one without a newline counts).
pub fn max_rows(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count() + usize::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

/// The rows of `n` values to make room for in `len` bytes of `lines` lines: no more than
/// the lines, nor than the bytes hold (a value and the blank or newline after it take two
/// bytes each). Counting lines alone, a file of blank lines under a wide header would ask
/// for gigabytes.
pub fn row_room(lines: usize, len: usize, n: usize) -> usize {
    if n == 0 { lines } else { lines.min(len / (2 * n) + 1) }
}

/// Splits `bytes` into at most `parts` pieces of similar size, each ending after a newline
/// (the last may end without one).
pub fn split_lines(bytes: &[u8], parts: usize) -> Vec<(usize, &[u8])> {
    let mut out = Vec::with_capacity(parts.max(1));
    let mut start = 0;
    for k in 1..parts.max(1) {
        let target = bytes.len() * k / parts;
        if target <= start {
            continue;
        }
        match memchr::memchr(b'\n', &bytes[target..]) {
            Some(p) => {
                let end = target + p + 1;
                out.push((start, &bytes[start..end]));
                start = end;
            }
            None => break,
        }
    }
    if start < bytes.len() || out.is_empty() {
        out.push((start, &bytes[start..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser(n: usize) -> RowParser {
        RowParser { scales: vec![1.0; n] }
    }

    #[test]
    fn parses_rows_with_tabs_crlf_and_blank_lines() {
        let mut out = Vec::new();
        let s = parser(3).parse(b"\n1 2 3\r\n\t4\t5 6 \n\n7 8 9", 0, true, &mut out).unwrap();
        assert_eq!(s.rows, 3);
        assert_eq!(out, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    }

    /// Blank lines take no room: 64 KiB of them under 1,000 channels asked for 65 million values.
    #[test]
    fn blank_lines_ask_for_no_room() {
        let mut out = Vec::new();
        let mut text = vec![b'\n'; 64 << 10];
        text.extend_from_slice(b"1 2 3\n");
        let p = parser(1000);
        assert!(p.parse(&text, 0, true, &mut out).is_err());
        assert!(out.capacity() <= 33 * 1000, "{}", out.capacity());
        let s = parser(3).parse(&text, 0, true, &mut out).unwrap();
        assert_eq!((s.rows, &out[..]), (1, &[1.0, 2.0, 3.0][..]));
        assert_eq!(row_room(10, 7, 2), 2);
        assert_eq!(row_room(10, 1 << 20, 2), 10);
        assert_eq!(row_room(10, 0, 0), 10);
    }

    #[test]
    fn reports_short_and_long_rows_with_offsets() {
        let mut out = Vec::new();
        let e = parser(3).parse(b"1 2 3\n4 5\n", 100, false, &mut out).unwrap_err();
        assert_eq!(e.offset, 109);
        assert!(e.to_string().contains("expected 3 values in this motion row, found 2"), "{e}");
        let e = parser(2).parse(b"1 2 3\n", 0, false, &mut out).unwrap_err();
        assert!(e.to_string().contains("end of row after 2 values"), "{e}");
        let e = parser(2).parse(b"1 nax\n", 0, false, &mut out).unwrap_err();
        assert_eq!(e.offset, 2);
        // Words for a missing value are kept as NaN and counted.
        out.clear();
        let stats = parser(4).parse(b"nan -INF 1.#QNAN infinity\n", 7, false, &mut out).unwrap();
        assert_eq!((stats.missing, stats.first_missing), (4, Some(7)));
        assert!(out.iter().all(|v| v.is_nan()));
        let e = parser(1).parse(b"1e999\n", 0, false, &mut out).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        let e = parser(1).parse(b"1.5.5\n", 0, false, &mut out).unwrap_err();
        assert!(e.to_string().contains("expected a number"), "{e}");
    }

    #[test]
    fn drops_a_truncated_last_row_only_at_eof() {
        let mut out = Vec::new();
        let s = parser(3).parse(b"1 2 3\n4 5", 0, true, &mut out).unwrap();
        assert_eq!((s.rows, s.dropped_partial_row), (1, Some(6)));
        assert_eq!(out, [1.0, 2.0, 3.0]);
    }

    /// `text` gives the same values, counts and errors with the plain-rows loop as without
    /// it, in the room the clip makes for it.
    fn plain_loop_agrees(p: &RowParser, text: &str, at_eof: bool) -> Result<(), proptest::test_runner::TestCaseError> {
        let (bytes, n) = (text.as_bytes(), p.scales.len());
        let size = row_room(max_rows(bytes), bytes.len(), n) * n;
        let (mut a, mut b) = (vec![0.0f32; size], vec![0.0f32; size]);
        let with = p.parse_rows(bytes, 5, at_eof, &mut a, true);
        let without = p.parse_rows(bytes, 5, at_eof, &mut b, false);
        proptest::prop_assert_eq!(with.as_ref().map_err(ToString::to_string), without.as_ref().map_err(ToString::to_string));
        let rows_read = with.map_or(0, |s| s.rows) * n;
        let same = a[..rows_read].iter().zip(&b[..rows_read]).all(|(x, y)| x.to_bits() == y.to_bits());
        proptest::prop_assert!(same, "{:?}", text);
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// Rows of every shape the general loop handles (long and short numbers, exponents,
        /// missing words, tabs, CR, blank lines, runs of blanks, short and long rows, junk)
        /// give the same values, counts and errors with the plain-rows loop as without it.
        #[test]
        fn plain_rows_agree_with_the_general_loop(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::prop_oneof![
                        // Often enough that rows of mostly zeros take the loop that tests for them.
                        6 => proptest::strategy::Just("0".to_owned()),
                        1 => "0[0-9.]{0,3}",
                        1 => "-?[0-9]{1,3}\\.[0-9]{1,6}",
                        1 => "-?[0-9]{1,9}",
                        1 => "-?[0-9]{0,12}\\.[0-9]{0,20}",
                        1 => "-?[0-9]\\.[0-9]{1,4}[eE][-+]?[0-9]{1,3}",
                        1 => proptest::strategy::Just("nan".to_owned()),
                        1 => proptest::strategy::Just("1e999".to_owned()),
                        1 => "[a-z.#]{1,3}",
                    ],
                    3..5,
                ),
                1..40,
            ),
            seps in proptest::collection::vec("[ \t]{1,3}", 1..8),
            ends in proptest::collection::vec(proptest::prop_oneof!["\n", "\r\n", " \n", "\n\n"], 1..5),
            n in 3usize..5,
            at_eof: bool,
        ) {
            let mut text = String::new();
            for (r, values) in rows.iter().enumerate() {
                for (k, v) in values.iter().enumerate() {
                    text.push_str(&seps[(r + k) % seps.len()]);
                    text.push_str(v);
                }
                text.push_str(&ends[r % ends.len()]);
            }
            let p = RowParser { scales: (0..n).map(|k| 1.0 + k as f32 * 0.25).collect() };
            plain_loop_agrees(&p, &text, at_eof)?;
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Long runs of rows of exactly `n` plain values, so that the windows are read as two
        /// halves (the second written in place), with at most a few rows the general loop
        /// must read (a blank line, a `nan`, a short row, junk) anywhere, a half included:
        /// the same values, counts and errors as the general loop.
        #[test]
        fn paired_windows_agree_with_the_general_loop(
            values in proptest::collection::vec(
                proptest::prop_oneof![
                    3 => proptest::strategy::Just("0".to_owned()),
                    2 => "-?[0-9]{1,3}\\.[0-9]{1,4}",
                    1 => "-?[0-9]{1,4}",
                ],
                100..1500,
            ),
            odd in proptest::collection::vec((0usize..400, 0u8..4), 0..3),
            n in 1usize..7,
            sep in "[ \t]{1,2}",
            crlf: bool,
            at_eof: bool,
        ) {
            let mut text = String::new();
            for (r, row) in values.chunks_exact(n).enumerate() {
                let kind = odd.iter().find(|(at, _)| *at == r).map(|&(_, kind)| kind);
                let mut cells: Vec<&str> = row.iter().map(String::as_str).collect();
                match kind {
                    Some(0) => text.push('\n'),
                    Some(1) => cells[0] = "nan",
                    Some(2) => { cells.pop(); }
                    Some(_) => cells[n / 2] = "x1",
                    None => {}
                }
                text.push_str(&cells.join(&sep));
                text.push_str(if crlf { "\r\n" } else { "\n" });
            }
            let p = RowParser { scales: (0..n).map(|k| if k % 2 == 0 { 1.0 } else { 1f32.to_radians() }).collect() };
            plain_loop_agrees(&p, &text, at_eof)?;
        }
    }

    #[test]
    fn mostly_zeros_reads_the_first_line() {
        assert!(mostly_zeros(b"0 0 0 1.5\n1 1 1 1\n"));
        assert!(mostly_zeros(b"\t0\t0\r\n"));
        assert!(!mostly_zeros(b"0.0 00 -0 10 0.5 1\n0 0 0 0 0\n"));
        assert!(!mostly_zeros(b""));
        assert!(mostly_zeros(b"1 2 3 0"));
    }

    #[test]
    fn split_keeps_whole_lines() {
        let text = b"aa\nbbbb\nc\ndddd\ne";
        let parts = split_lines(text, 3);
        let joined: Vec<u8> = parts.iter().flat_map(|(_, p)| p.iter().copied()).collect();
        assert_eq!(joined, text);
        for (start, p) in &parts[..parts.len() - 1] {
            assert_eq!(*p.last().unwrap(), b'\n');
            assert_eq!(&text[*start..*start + p.len()], *p);
        }
        assert_eq!(split_lines(b"", 4).len(), 1);
    }
}
