//! Values of the command line's arguments that more than one command takes: sizes, frame
//! ranges, times, file extensions.

use super::error::ArgError;

/// True when `p`'s extension is `ext` (any case).
pub fn has_ext(p: &std::path::Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A time in seconds (finite).
pub fn finite(s: &str) -> Result<f64, ArgError> {
    s.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| ArgError::expected("seconds", s))
}

/// Parses `WxH` (or `N` for a square).
pub fn parse_size(s: &str) -> Result<(u32, u32), ArgError> {
    let bad = || ArgError::expected("WIDTHxHEIGHT like 1280x720 (or N for a square)", s);
    let (w, h) = match s.split_once(['x', 'X']) {
        Some((w, h)) => (w.parse::<u32>().map_err(|_| bad())?, h.parse::<u32>().map_err(|_| bad())?),
        None => {
            let n = s.parse::<u32>().map_err(|_| bad())?;
            (n, n)
        }
    };
    if !(1..=8192).contains(&w) || !(1..=8192).contains(&h) {
        return Err(ArgError::Size(s.to_owned()));
    }
    Ok((w, h))
}

/// Parses `A:B` or `A:B:STEP` (negative frames count from the end).
pub fn parse_range(s: &str) -> Result<(i64, i64, usize), ArgError> {
    let bad = || ArgError::expected("START:END[:STEP] like 0:100:2", s);
    let parts: Vec<&str> = s.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(bad());
    }
    let a = parts[0].parse().map_err(|_| bad())?;
    let b = parts[1].parse().map_err(|_| bad())?;
    let step = if parts.len() == 3 { parts[2].parse::<usize>().map_err(|_| bad())? } else { 1 };
    if step == 0 {
        return Err(bad());
    }
    Ok((a, b, step))
}
