//! The processor type (byte order and float format) and the parameter section: groups of
//! typed, dimensioned parameters, each kept with its byte offset for messages.

use std::collections::HashMap;

use crate::formats::error::{ParseError, RawWarning};

/// How numbers are stored: Intel (little-endian IEEE), DEC (little-endian words, VAX
/// F-floats) or MIPS (big-endian IEEE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processor {
    /// Type 84.
    Intel,
    /// Type 85.
    Dec,
    /// Type 86.
    Mips,
}

impl Processor {
    /// From the parameter section's fourth byte.
    pub fn from_byte(b: u8) -> Option<Self> {
        match b {
            84 => Some(Self::Intel),
            85 => Some(Self::Dec),
            86 => Some(Self::Mips),
            _ => None,
        }
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Intel => "Intel",
            Self::Dec => "DEC",
            Self::Mips => "MIPS",
        }
    }

    /// A 16-bit signed integer.
    #[inline]
    pub fn i16(self, b: [u8; 2]) -> i16 {
        match self {
            Self::Mips => i16::from_be_bytes(b),
            _ => i16::from_le_bytes(b),
        }
    }

    /// A 16-bit unsigned integer.
    #[inline]
    pub fn u16(self, b: [u8; 2]) -> u16 {
        self.i16(b) as u16
    }

    /// A 32-bit float.
    #[inline]
    pub fn f32(self, b: [u8; 4]) -> f32 {
        match self {
            Self::Intel => f32::from_le_bytes(b),
            Self::Mips => f32::from_be_bytes(b),
            Self::Dec => dec_f32(b),
        }
    }
}

/// A VAX F-float: two little-endian 16-bit words, most significant first; exponent bias 128
/// with the hidden bit before the binary point, so the IEEE reading of the same bits is 4×
/// too large. Exponent 0 is zero.
#[inline]
pub fn dec_f32(b: [u8; 4]) -> f32 {
    let bits = u32::from_le_bytes([b[2], b[3], b[0], b[1]]);
    let exponent = (bits >> 23) & 0xFF;
    if exponent == 0 {
        return 0.0;
    }
    if exponent > 2 {
        return f32::from_bits(bits - (2 << 23));
    }
    // Results below the normal range: work it out in f64.
    let sign = if bits >> 31 == 1 { -1.0 } else { 1.0 };
    let fraction = 1.0 + f64::from(bits & 0x7F_FFFF) / f64::from(1u32 << 23);
    (sign * fraction * 2f64.powi(exponent as i32 - 129)) as f32
}

/// A parameter's values (the capture keeps them as they are for a writer).
pub use crate::core::capture::KeptValue as Values;

/// One parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Dimensions (empty for a scalar).
    pub dims: Vec<usize>,
    /// The values.
    pub values: Values,
    /// Byte offset of the parameter's entry.
    pub offset: usize,
    /// Its description.
    pub description: String,
}

impl Param {
    /// Values as numbers (integers as signed).
    pub fn numbers(&self) -> Vec<f64> {
        match &self.values {
            Values::Ints(v) => v.iter().map(|&x| f64::from(x)).collect(),
            Values::Floats(v) => v.iter().map(|&x| f64::from(x)).collect(),
            Values::Bytes(v) => v.iter().map(|&x| f64::from(x)).collect(),
            Values::Chars(_) => Vec::new(),
        }
    }

    /// Values as counts: integers read as unsigned (writers store counts above 32,767 in
    /// the same 16 bits).
    pub fn counts(&self) -> Vec<f64> {
        match &self.values {
            Values::Ints(v) => v.iter().map(|&x| f64::from(x as u16)).collect(),
            _ => self.numbers(),
        }
    }

    /// The first value as a count.
    pub fn count(&self) -> Option<f64> {
        self.counts().first().copied()
    }

    /// The first value as a number.
    pub fn number(&self) -> Option<f64> {
        self.numbers().first().copied()
    }

    /// Values as strings, trailing blanks and NULs trimmed.
    pub fn strings(&self) -> Vec<String> {
        let Values::Chars(bytes) = &self.values else { return Vec::new() };
        let width = self.dims.first().copied().unwrap_or(bytes.len()).max(1);
        if self.dims.is_empty() {
            return vec![trim(bytes)];
        }
        bytes.chunks(width).map(trim).collect()
    }

    /// The first string.
    pub fn string(&self) -> Option<String> {
        self.strings().into_iter().next()
    }
}

fn trim(b: &[u8]) -> String {
    let end = b.iter().rposition(|&c| c != b' ' && c != 0).map_or(0, |p| p + 1);
    let start = b[..end].iter().position(|&c| c != b' ').unwrap_or(end);
    String::from_utf8_lossy(&b[start..end]).into_owned()
}

/// The parameter section: `GROUP:NAME` → parameter.
#[derive(Clone, Debug, Default)]
pub struct Params {
    params: HashMap<(String, String), Param>,
    groups: Vec<String>,
    /// Groups in file order with their descriptions.
    described: Vec<(String, String)>,
    /// `(group, name)` of every parameter, in file order.
    order: Vec<(String, String)>,
}

impl Params {
    /// A parameter, by group and name (case-insensitive, as writers vary).
    pub fn get(&self, group: &str, name: &str) -> Option<&Param> {
        self.params.get(&(group.to_ascii_uppercase(), name.to_ascii_uppercase()))
    }

    /// True when the group exists.
    pub fn has_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g.eq_ignore_ascii_case(group))
    }

    /// The strings of `NAME`, `NAME2`, `NAME3`… of a group, joined (labels beyond 255).
    pub fn strings_continued(&self, group: &str, name: &str) -> Vec<String> {
        let mut out = self.get(group, name).map(Param::strings).unwrap_or_default();
        for k in 2.. {
            match self.get(group, &format!("{name}{k}")) {
                Some(p) => out.extend(p.strings()),
                None => break,
            }
        }
        out
    }

    /// Every group and parameter as the file stored them, in file order (for a writer that
    /// keeps what it does not interpret).
    pub fn kept(&self) -> Vec<crate::core::capture::KeptGroup> {
        use crate::core::capture::{KeptGroup, KeptParam};
        self.described
            .iter()
            .map(|(group, description)| KeptGroup {
                name: group.clone(),
                description: description.clone(),
                params: self
                    .order
                    .iter()
                    .filter(|(g, _)| g == group)
                    .filter_map(|key| {
                        let p = self.params.get(key)?;
                        Some(KeptParam {
                            name: key.1.clone(),
                            description: p.description.clone(),
                            dims: p.dims.clone(),
                            value: p.values.clone(),
                        })
                    })
                    .collect(),
            })
            .collect()
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }
}

/// Parses the parameter section starting at byte `start` (its 4-byte header included).
pub fn parse(b: &[u8], start: usize, proc: Processor, warnings: &mut Vec<RawWarning>) -> Result<Params, ParseError> {
    let mut pos = start + 4;
    let mut by_id: HashMap<i8, String> = HashMap::new();
    let mut pending: Vec<(i8, String, Param)> = Vec::new();
    let mut groups = Vec::new();
    let mut described = Vec::new();
    loop {
        if pos + 2 > b.len() {
            warnings.push(RawWarning { offset: pos as u64, message: "the parameter section ends without its closing entry".into() });
            break;
        }
        let name_len = (b[pos] as i8).unsigned_abs() as usize;
        let id = b[pos + 1] as i8;
        if name_len == 0 {
            break;
        }
        let entry = pos;
        let name_end = pos + 2 + name_len;
        let Some(name) = b.get(pos + 2..name_end) else {
            return Err(ParseError::eof(pos as u64, "a parameter name"));
        };
        let name = String::from_utf8_lossy(name).trim().to_ascii_uppercase();
        let Some(next) = b.get(name_end..name_end + 2) else {
            return Err(ParseError::eof(name_end as u64, "the offset to the next parameter"));
        };
        let next = proc.i16([next[0], next[1]]);
        let body = name_end + 2;
        if id < 0 {
            // Group -128 has no positive id, so no parameter can name it (ids go to 127).
            if let Some(group_id) = id.checked_neg() {
                by_id.insert(group_id, name.clone());
            }
            described.push((name.clone(), description(b, body)));
            groups.push(name);
        } else {
            match param(b, body, proc) {
                Ok(p) => pending.push((id, name, Param { offset: entry, ..p })),
                Err(e) => {
                    warnings.push(RawWarning {
                        offset: e.offset,
                        message: format!("parameter {name} is cut short ({}): the parameters after it are not read", e.kind),
                    });
                    break;
                }
            }
        }
        if next <= 0 {
            break;
        }
        pos = name_end + next as usize;
    }
    let mut params = HashMap::new();
    let mut order = Vec::new();
    for (id, name, p) in pending {
        let group = by_id.get(&id).cloned().unwrap_or_default();
        if group.is_empty() {
            warnings.push(RawWarning {
                offset: p.offset as u64,
                message: format!("parameter {name} belongs to group {id}, which has no entry"),
            });
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = params.entry((group, name)) {
            order.push(slot.key().clone());
            slot.insert(p);
        }
    }
    Ok(Params { params, groups, described, order })
}

/// The description at `at` (a length byte, then the text); empty when the file ends first.
fn description(b: &[u8], at: usize) -> String {
    let len = b.get(at).copied().unwrap_or(0) as usize;
    b.get(at + 1..at + 1 + len).map(|d| String::from_utf8_lossy(d).trim_end().to_owned()).unwrap_or_default()
}

fn param(b: &[u8], at: usize, proc: Processor) -> Result<Param, ParseError> {
    let eof = |o: usize, what: &str| ParseError::eof(o as u64, what);
    let kind = *b.get(at).ok_or_else(|| eof(at, "a parameter type"))? as i8;
    let ndims = *b.get(at + 1).ok_or_else(|| eof(at + 1, "a dimension count"))? as usize;
    let dims: Vec<usize> =
        b.get(at + 2..at + 2 + ndims).ok_or_else(|| eof(at + 2, "the dimensions"))?.iter().map(|&d| d as usize).collect();
    let count = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).filter(|&c| c <= b.len());
    let data = at + 2 + ndims;
    let size = kind.unsigned_abs() as usize;
    if !matches!(kind, -1 | 1 | 2 | 4) {
        return Err(ParseError::expected(at as u64, "a parameter type of -1, 1, 2 or 4", kind.to_string()));
    }
    let bytes = count.and_then(|c| b.get(data..data + c * size)).ok_or_else(|| eof(data, "the parameter's values"))?;
    let values = match kind {
        -1 => Values::Chars(bytes.to_vec()),
        1 => Values::Bytes(bytes.to_vec()),
        2 => Values::Ints(bytes.chunks_exact(2).map(|c| proc.i16([c[0], c[1]])).collect()),
        _ => Values::Floats(bytes.chunks_exact(4).map(|c| proc.f32([c[0], c[1], c[2], c[3]])).collect()),
    };
    let description = description(b, data + bytes.len());
    Ok(Param { dims, values, offset: at, description })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dec_floats_read_as_their_ieee_values() {
        for v in [1.0f32, -2.5, 1234.5678, 0.001, 65535.0, -32768.0] {
            // The DEC bytes of v: IEEE bits × 4 (exponent + 2), words swapped.
            let bits = v.to_bits() + (2 << 23);
            let le = bits.to_le_bytes();
            let dec = [le[2], le[3], le[0], le[1]];
            assert_eq!(dec_f32(dec), v);
        }
        assert_eq!(dec_f32([0, 0, 0, 0]), 0.0);
    }

    /// A group numbered -128 (the fuzzer's find: negating it overflowed) is listed and owns
    /// no parameter; the parameter after it is read and warned about.
    #[test]
    fn a_group_numbered_minus_128_is_read() {
        let mut b = vec![0u8; 4];
        b.extend_from_slice(&[1, 0x80, b'G', 3, 0, 0]);
        b.extend_from_slice(&[1, 1, b'P', 7, 0, 2, 0, 42, 0, 0]);
        b.extend_from_slice(&[0, 0]);
        let mut warnings = Vec::new();
        let params = parse(&b, 0, Processor::Intel, &mut warnings).unwrap();
        assert_eq!(params.groups, ["G"]);
        assert_eq!(params.len(), 1);
        assert!(warnings[0].message.contains("belongs to group 1, which has no entry"), "{warnings:?}");
    }

    #[test]
    fn strings_split_by_their_width_and_trim() {
        let p = Param { dims: vec![4, 2], values: Values::Chars(b"AB  C\0\0\0".to_vec()), offset: 0, description: String::new() };
        assert_eq!(p.strings(), ["AB", "C"]);
    }
}
