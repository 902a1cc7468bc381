//! Byte-level helpers shared by the text parsers: numbers, names, whitespace.

/// Powers of ten that are exact in f64.
const POW10: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// True for the bytes that separate tokens on a line (space, tab, CR, form feed, vertical tab).
#[inline]
pub fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// True for any whitespace byte including newline.
#[inline]
pub fn is_space(b: u8) -> bool {
    is_blank(b) || b == b'\n'
}

/// Parses a decimal number (`-12`, `3.5`, `.5`, `1e-5`, `4.2E+03`) at the start of `b`.
///
/// Returns the value and the bytes consumed, or `None` when `b` does not start with a number.
/// `inf` and `nan` are not numbers here. The caller checks what follows the number.
#[inline]
pub fn parse_number(b: &[u8]) -> Option<(f64, usize)> {
    scan_number(b, false)
}

/// [`parse_number`] for values that will be stored as `f32`: mantissas of up to 19 digits
/// (exporters write 17) skip the correctly rounded f64 slow path. The f64 it returns is
/// within about one f64 ulp, so the f32 it rounds to is the correctly rounded one except in
/// ties closer than 2⁻²⁹ of the value.
#[inline]
pub fn parse_number_for_f32(b: &[u8]) -> Option<(f64, usize)> {
    long_decimal(b).or_else(|| scan_number(b, true))
}

/// `-d.ddddddddddddddddd` with up to 19 significant digits and no exponent, eight digits at
/// a time; `None` (the general scan takes over) for anything else or near the end of `b`.
#[inline]
fn long_decimal(b: &[u8]) -> Option<(f64, usize)> {
    let negative = b.first() == Some(&b'-');
    let mut i = negative as usize;
    let (mut mantissa, mut digits, mut scale) = (0u64, 0usize, 0usize);
    // Integer part, then fraction: each a run of SWAR chunks.
    for part in 0..2 {
        if part == 1 {
            if b.get(i) != Some(&b'.') {
                break;
            }
            i += 1;
        }
        loop {
            if i + 8 > b.len() {
                return None;
            }
            let (n, v) = eight_digits(b, i);
            if n == 0 {
                break;
            }
            if digits + n > 19 {
                return None;
            }
            mantissa = mantissa * RUN_SCALE[n] + v;
            // Leading zeros do not count against the 19 digits a u64 holds.
            if mantissa != 0 {
                digits += n;
            }
            if part == 1 {
                scale += n;
            }
            i += n;
            if n < 8 {
                break;
            }
        }
    }
    let first_digit = negative as usize;
    if i == first_digit || (i == first_digit + 1 && b[first_digit] == b'.') || matches!(b.get(i), Some(b'e' | b'E')) || scale > 22 {
        return None;
    }
    let value = mantissa as f64 / POW10[scale];
    Some((if negative { -value } else { value }, i))
}

/// 10ⁿ for a run of n ≤ 8 digits.
const RUN_SCALE: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

#[inline]
fn scan_number(b: &[u8], for_f32: bool) -> Option<(f64, usize)> {
    let (negative, mut i) = sign(b);
    let mut mantissa: u64 = 0;
    let mut digits = 0u32; // significant digits taken into the mantissa
    let mut exponent: i32 = 0;
    let mut any_digit = false;
    let mut exact = true;
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        any_digit = true;
        if digits < 19 {
            mantissa = mantissa * 10 + d as u64;
            if mantissa != 0 {
                digits += 1;
            }
        } else {
            exponent += 1;
            exact = false;
        }
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&c) = b.get(i) {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            any_digit = true;
            if digits < 19 {
                mantissa = mantissa * 10 + d as u64;
                if mantissa != 0 {
                    digits += 1;
                }
                exponent -= 1;
            } else if d != 0 {
                exact = false;
            }
            i += 1;
        }
    }
    if !any_digit {
        return None;
    }
    if let Some((e, end)) = exponent_suffix(b, i) {
        exponent = exponent.saturating_add(e);
        i = end;
    }
    let value = if mantissa == 0 {
        0.0
    } else if (for_f32 || (exact && mantissa < (1u64 << 53))) && (-22..=22).contains(&exponent) {
        // Both operands exact (or, for f32 values, within one rounding each): one operation.
        if exponent >= 0 { mantissa as f64 * POW10[exponent as usize] } else { mantissa as f64 / POW10[(-exponent) as usize] }
    } else {
        correctly_rounded(b, i)?
    };
    Some((if negative { -value } else { value }, i))
}

/// The sign at the start of a number: whether it is negative, and where its digits start.
#[inline]
fn sign(b: &[u8]) -> (bool, usize) {
    match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    }
}

/// The exponent written at `b[i..]` (`e`/`E`, an optional sign, digits, saturating) and where it
/// ends; `None` when there is none. "1e" with no digits has none: the number ends before the
/// 'e' and the caller rejects the 'e'.
#[inline]
fn exponent_suffix(b: &[u8], i: usize) -> Option<(i32, usize)> {
    if !matches!(b.get(i), Some(b'e' | b'E')) {
        return None;
    }
    let mut j = i + 1;
    let exp_negative = match b.get(j) {
        Some(b'-') => {
            j += 1;
            true
        }
        Some(b'+') => {
            j += 1;
            false
        }
        _ => false,
    };
    let start = j;
    let mut e: i32 = 0;
    while let Some(&c) = b.get(j) {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        e = e.saturating_mul(10).saturating_add(d as i32);
        j += 1;
    }
    (j > start).then_some((if exp_negative { -e } else { e }, j))
}

/// The unsigned value of the number text `b[..end]`, rounded by the standard library: the rare
/// case (long mantissas, big exponents) the fast path cannot round correctly.
fn correctly_rounded(b: &[u8], end: usize) -> Option<f64> {
    let text = std::str::from_utf8(&b[usize::from(b.first().is_some_and(|c| *c == b'-' || *c == b'+'))..end]).ok()?;
    text.parse::<f64>().ok()
}

/// Digit count and value of the run of up to 8 ASCII digits at `b[i..i + 8]` (which must
/// exist), using SWAR: one 8-byte load, no branch per digit.
#[inline]
fn eight_digits(b: &[u8], i: usize) -> (usize, u64) {
    let chunk: [u8; 8] = b[i..i + 8].try_into().unwrap_or([0; 8]);
    let v = u64::from_le_bytes(chunk);
    let n = leading_digits(v);
    (n, digits_value(v, n))
}

/// How many of the eight bytes of `v` (little-endian) are ASCII digits before the first
/// other byte.
#[inline(always)]
fn leading_digits(v: u64) -> usize {
    let t = v.wrapping_sub(0x3030_3030_3030_3030);
    // A byte is a digit iff (byte - '0') <= 9. Borrows and carries only move towards later
    // bytes, so the first flagged byte is exact.
    let non_digit = (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080;
    (non_digit.trailing_zeros() / 8) as usize
}

/// The value of the first `n` bytes of `v`, which are ASCII digits.
#[inline(always)]
fn digits_value(v: u64, n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    // Keep the n digit bytes, moved to the top so that missing digits read as leading zeros.
    let t = v.wrapping_sub(0x3030_3030_3030_3030) << (8 * (8 - n));
    let t = t.wrapping_mul(10).wrapping_add(t >> 8);
    ((t & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((t >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32))))
        >> 32
}

/// `ddd.dddd` or `ddd` within the eight bytes at `b[i..]` (sign already taken; `b[i + 8]`
/// must exist): the shapes of nearly every motion-capture value. The point, if there is one,
/// is squeezed out and the digits on both sides are converted in one go; both shapes take
/// the same steps (a choice of two words, not a branch), so rows that mix `0` and `12.34`
/// cost no mispredictions. `None` for any other shape.
#[inline(always)]
fn short_decimal(b: &[u8], i: usize) -> Option<(f64, usize)> {
    let v = u64::from_le_bytes(b[i..i + 8].try_into().ok()?);
    let n_int = leading_digits(v);
    if n_int == 8 {
        return None;
    }
    let point = b[i + n_int] == b'.';
    // Bytes before the point stay; those after move down over it (the top byte becomes 0,
    // which is not a digit, so at most seven digits are read).
    let below = (1u64 << (8 * n_int)) - 1;
    let packed = if point { (v & below) | ((v >> 8) & !below) } else { v };
    let n = leading_digits(packed);
    let end = i + n + usize::from(point);
    if n == 0 || matches!(b[end], b'0'..=b'9' | b'.' | b'e' | b'E') {
        return None;
    }
    Some(((digits_value(packed, n) as i64) as f64 * NEG_POW10[n - n_int], end))
}

/// Like [`parse_number`] at `b[start..]`, for values stored as f32: a fast path handles the
/// plain decimals that fill motion rows (`-12.3456`: at most 7 digits each side of the point,
/// no exponent) when at least 17 bytes follow. Returns the value and the end offset.
///
/// The fast path multiplies by an f64 power of ten instead of dividing (division dominated
/// the parse): the f64 result is within one f64 ulp, so the f32 it rounds to is the
/// correctly rounded one except, at worst, one f32 ulp off in vanishingly rare ties.
#[inline(always)]
pub fn parse_number_at(b: &[u8], start: usize) -> Option<(f64, usize)> {
    parse_short_number_at(b, start).or_else(|| parse_number_at_slow(b, start))
}

/// The fast paths of [`parse_number_at`] alone: `None` for anything else (exponents, more
/// than seven digits on a side of the point, fewer than 17 bytes left). A value it gives is
/// below 10⁸ in magnitude.
#[inline(always)]
pub fn parse_short_number_at(b: &[u8], start: usize) -> Option<(f64, usize)> {
    if start + 17 <= b.len() {
        let mut i = start;
        let negative = b[i] == b'-';
        i += negative as usize;
        if let Some((value, end)) = short_decimal(b, i) {
            return Some((if negative { -value } else { value }, end));
        }
        let (n_int, int_part) = eight_digits(b, i);
        if n_int < 8 {
            i += n_int;
            let (mut n_frac, mut frac) = (0, 0);
            let mut fast = true;
            if b[i] == b'.' {
                (n_frac, frac) = eight_digits(b, i + 1);
                i += 1 + n_frac;
                fast = n_frac < 8;
            }
            if fast && n_int + n_frac > 0 && !matches!(b[i], b'e' | b'E' | b'.') {
                let mantissa = int_part * POW10_U64[n_frac] + frac;
                // Below 2^53: the signed conversion is one instruction, the unsigned one several.
                let value = (mantissa as i64) as f64 * NEG_POW10[n_frac];
                return Some((if negative { -value } else { value }, i));
            }
        }
    }
    None
}

/// The general case of [`parse_number_at`], kept out of line so that the fast path inlines
/// into the row loops.
#[cold]
#[inline(never)]
pub fn parse_number_at_slow(b: &[u8], start: usize) -> Option<(f64, usize)> {
    parse_number(&b[start..]).map(|(v, n)| (v, start + n))
}

const NEG_POW10: [f64; 8] = [1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7];
const POW10_U64: [u64; 8] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Decodes a name: UTF-8 when valid, otherwise each byte as Latin-1 (never fails).
pub fn decode_name(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// A short, printable rendering of a token for error messages.
pub fn describe(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "end of line".to_owned();
    }
    let shown: String = decode_name(&bytes[..bytes.len().min(24)]).chars().map(|c| if c.is_control() { '\u{FFFD}' } else { c }).collect();
    if bytes.len() > 24 { format!("'{shown}…'") } else { format!("'{shown}'") }
}

/// Byte range of the token starting at `i` (up to the next whitespace).
pub fn token_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && !is_space(b[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn f32_variant_agrees_with_the_standard_library(int in 0u64..1_000_000_000, frac in "[0-9]{0,19}", neg: bool, pad: bool) {
            let s = format!("{}{int}{}{frac}", if neg { "-" } else { "" }, if frac.is_empty() { "" } else { "." });
            let text = if pad { format!("{s},            ") } else { s.clone() };
            let (v, n) = parse_number_for_f32(text.as_bytes()).unwrap();
            proptest::prop_assert_eq!(n, s.len());
            proptest::prop_assert_eq!(v as f32, s.parse::<f32>().unwrap(), "{}", s);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        #[test]
        fn row_number_fast_paths_agree_with_the_general_parser(
            sign in "-?",
            int in "[0-9]{0,9}",
            point: bool,
            frac in "[0-9]{0,9}",
            after in "[ \t\r\n.eE0-9x-]",
            at in 0usize..3,
        ) {
            let token = format!("{sign}{int}{}{frac}", if point { "." } else { "" });
            let text = format!("{}{token}{after}0 0000000000000000000", "y".repeat(at));
            let f32s = |r: Option<(f64, usize)>| r.map(|(v, n)| (v as f32, n));
            let general = parse_number(&text.as_bytes()[at..]).map(|(v, n)| (v, n + at));
            proptest::prop_assert_eq!(f32s(parse_number_at(text.as_bytes(), at)), f32s(general), "{:?}", text);
        }
    }

    #[test]
    fn f32_variant_rounds_long_mantissas_like_the_standard_library() {
        for s in [
            "-0.27054829454033996",
            "68.15480676307112",
            "0.6614490658270572",
            "-45.930195503795474",
            "1234567890123456789e-5",
            "3",
            "0.000000000012345678901234567",
            "12345678.87654321",
            "-0.5",
            "7.",
        ] {
            // Padded as in a file, so the eight-digit path can run, and alone, so it cannot.
            let padded = format!("{s} ]            ");
            let (v, n) = parse_number_for_f32(padded.as_bytes()).unwrap();
            let (w, m) = parse_number_for_f32(s.as_bytes()).unwrap();
            assert_eq!((v as f32, n), (w as f32, m), "{s}");
            assert_eq!(n, s.len());
            assert_eq!(v as f32, s.parse::<f32>().unwrap(), "{s}");
            assert!((v - s.parse::<f64>().unwrap()).abs() <= f64::EPSILON * v.abs() * 2.0, "{s}");
        }
    }

    fn num(s: &str) -> Option<(f64, usize)> {
        parse_number(s.as_bytes())
    }

    #[test]
    fn parses_the_forms_real_files_use() {
        assert_eq!(num("12"), Some((12.0, 2)));
        assert_eq!(num("-0.5 "), Some((-0.5, 4)));
        assert_eq!(num(".25"), Some((0.25, 3)));
        assert_eq!(num("3."), Some((3.0, 2)));
        assert_eq!(num("+7"), Some((7.0, 2)));
        assert_eq!(num("1e3"), Some((1000.0, 3)));
        assert_eq!(num("-6.33626e-016"), Some((-6.33626e-16, 13)));
        assert_eq!(num("4.2E+03x"), Some((4200.0, 7)));
        assert_eq!(num("1e"), Some((1.0, 1)));
        assert_eq!(num("0.0083333"), Some((0.0083333, 9)));
        assert_eq!(num("-0"), Some((-0.0, 2)));
    }

    #[test]
    fn rejects_non_numbers() {
        assert_eq!(num("nan"), None);
        assert_eq!(num("inf"), None);
        assert_eq!(num("-"), None);
        assert_eq!(num("."), None);
        assert_eq!(num(""), None);
    }

    #[test]
    fn long_and_huge_numbers_round_like_std() {
        for s in ["123456789012345678901234", "0.1234567890123456789012", "1e400", "1e-400", "9007199254740993", "2.5e-30"] {
            let (v, n) = num(s).unwrap();
            assert_eq!(n, s.len());
            assert_eq!(v, s.parse::<f64>().unwrap(), "{s}");
        }
    }

    #[test]
    fn fast_path_agrees_with_the_general_parser() {
        let cases = [
            "0",
            "-0",
            "12.3456",
            "-12.3456",
            "1234567.1234567",
            "12345678",
            "0.12345678",
            "1.",
            ".5",
            "-.5",
            "1e5",
            "12.5e-3",
            "7",
            "-",
            ".",
            "1.2.3",
            "9999999.9999999",
            "123.4567",
            "-123.4567",
            "123.45678",
            "1234567.",
            "1.2e3",
            "12.34.5",
            "-0.0000",
        ];
        for c in cases {
            let padded = format!("{c} 0000000000000000000");
            // Compared as the f32 the rows store.
            let f32s = |r: Option<(f64, usize)>| r.map(|(v, n)| (v as f32, n));
            let fast = parse_number_at(padded.as_bytes(), 0);
            let slow = parse_number(padded.as_bytes());
            assert_eq!(f32s(fast), f32s(slow), "{c}");
            let shifted = format!("xx{padded}");
            assert_eq!(f32s(parse_number_at(shifted.as_bytes(), 2)), f32s(slow.map(|(v, n)| (v, n + 2))), "{c}");
        }
    }

    #[test]
    fn latin1_names_decode() {
        assert_eq!(decode_name(b"J\xfcrgen"), "Jürgen");
        assert_eq!(decode_name("Jürgen".as_bytes()), "Jürgen");
    }
}
