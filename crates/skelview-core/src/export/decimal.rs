//! Numbers as text, fast: the shortest digits that read back as the same `f32` (ryu's), laid
//! out as Rust's `{}` lays them out (positional, no exponent), so that faster output is the
//! same text as before. Formatting numbers is most of the time of a positions CSV.

/// Appends `x` as `format!("{x}")` would.
pub fn push_f32(out: &mut Vec<u8>, x: f32) {
    if !x.is_finite() {
        out.extend_from_slice(format!("{x}").as_bytes());
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(x).as_bytes();
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    // ryu writes `I.F` or `I.FeX` / `IeX`: digits, and where the point goes among them.
    let (mantissa, exponent) = match text.iter().position(|&c| c == b'e') {
        Some(e) => (&text[..e], std::str::from_utf8(&text[e + 1..]).ok().and_then(|s| s.parse::<i32>().ok()).unwrap_or(0)),
        None => (text, 0),
    };
    let mut buf = [0u8; 24];
    let mut n = 0usize;
    let mut point = mantissa.len() as i32;
    for (k, &c) in mantissa.iter().enumerate() {
        if c == b'.' {
            point = k as i32;
        } else if n < buf.len() - 1 {
            buf[n] = c;
            n += 1;
        }
    }
    point += exponent;
    // Leading zeros move the point; trailing ones say nothing.
    let lead = buf[..n].iter().take_while(|&&c| c == b'0').count();
    buf.copy_within(lead..n, 0);
    n -= lead;
    point -= lead as i32;
    n -= buf[..n].iter().rev().take_while(|&&c| c == b'0').count();
    // Exactly halfway between two shortest candidates, ryu takes the even one and Rust the
    // larger: take the larger too.
    if n > 0 && halfway_above(&buf[..n], point, x) {
        point += round_up(&mut buf, &mut n);
    }
    let digits = &buf[..n];
    if negative {
        out.push(b'-');
    }
    if digits.is_empty() {
        out.push(b'0');
    } else if point <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-point) as usize, b'0');
        out.extend_from_slice(digits);
    } else if point as usize >= digits.len() {
        out.extend_from_slice(digits);
        out.resize(out.len() + point as usize - digits.len(), b'0');
    } else {
        out.extend_from_slice(&digits[..point as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[point as usize..]);
    }
}

/// Whether `x` is exactly halfway between 0.`digits`·10^`point` and the next number of as
/// many digits. The halfway number, read as an f64 (correctly rounded), is `x` only when it
/// is exactly `x`: `x` is an f32, and f64s are 2^29 times finer.
fn halfway_above(digits: &[u8], point: i32, x: f32) -> bool {
    // Cheap to rule out first: x = m·2^e with m odd has a decimal expansion of about
    // 0.7·(−e) significant digits when e < 0, and halfway takes at most 10 (9 + the 5).
    let bits = x.abs().to_bits();
    let (m, e) = match bits >> 23 {
        0 => (bits & 0x7f_ffff, -149),
        b => ((bits & 0x7f_ffff) | 0x80_0000, b as i32 - 150),
    };
    if m == 0 || e + m.trailing_zeros() as i32 <= -16 {
        return false;
    }
    let mut text = [0u8; 40];
    let mut n = 0;
    for &c in b"0.".iter().chain(digits).chain(b"5e") {
        text[n] = c;
        n += 1;
    }
    let mut exponent = itoa_i32(point);
    let e = exponent.len();
    text[n..n + e].copy_from_slice(exponent.as_mut_slice());
    n += e;
    std::str::from_utf8(&text[..n]).ok().and_then(|t| t.parse::<f64>().ok()).is_some_and(|h| h == f64::from(x.abs()))
}

/// `v` in decimal, in a small buffer.
fn itoa_i32(v: i32) -> Vec<u8> {
    v.to_string().into_bytes()
}

/// Adds one in the last place of the `n` digits of `buf` (trailing zeros then dropped); the
/// point moves right by the value returned when the carry adds a digit in front.
fn round_up(buf: &mut [u8; 24], n: &mut usize) -> i32 {
    let mut k = *n;
    let mut shift = 0;
    loop {
        if k == 0 {
            buf.copy_within(0..*n, 1);
            buf[0] = b'1';
            *n += 1;
            shift = 1;
            break;
        }
        k -= 1;
        if buf[k] == b'9' {
            buf[k] = b'0';
        } else {
            buf[k] += 1;
            break;
        }
    }
    *n -= buf[..*n].iter().rev().take_while(|&&c| c == b'0').count();
    shift
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(x: f32) -> String {
        let mut out = Vec::new();
        push_f32(&mut out, x);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_same_text_as_rusts_display() {
        let edges = [0.0, -0.0, 1.0, -1.0, 0.1, 1e-9, -1.23e-7, 1.5e20, f32::MAX, f32::MIN_POSITIVE, 1e-45, 123456790.0, 0.001, 1e7, 1e8];
        for x in edges.into_iter().chain([f32::NAN, f32::INFINITY, f32::NEG_INFINITY]) {
            assert_eq!(text(x), format!("{x}"), "{x:e}");
        }
        // Bit patterns across the whole range (every exponent, many mantissas).
        let mut state = 0x2545_f491_u32;
        for _ in 0..400_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = f32::from_bits(state);
            if x.is_finite() {
                assert_eq!(text(x), format!("{x}"), "{:#x}", x.to_bits());
            }
        }
    }
}
