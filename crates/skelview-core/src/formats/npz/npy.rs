//! One NumPy `.npy` array: the header (versions 1.0, 2.0 and 3.0) and its data as numbers or
//! text. Object arrays (pickled Python objects) are never unpickled: only the strings their
//! pickle holds are listed.

use super::NpzError;

/// Most elements one array may hold (a body model's largest, `posedirs`, has 15 million).
pub const MAX_ELEMENTS: u64 = 1 << 27;
/// Longest header accepted.
const MAX_HEADER: usize = 1 << 20;

/// An array's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Floats, integers and booleans, as `f64`, in C order.
    Numbers(Vec<f64>),
    /// Unicode (`<U`) or byte (`|S`) strings, trailing NULs dropped.
    Text(Vec<String>),
    /// An object array (pickled Python objects), never unpickled: the strings its pickle
    /// holds ([`super::pickle::strings`]).
    Pickled(Vec<String>),
    /// Not read: a member the caller did not ask for, or values of a kind no motion uses.
    Skipped,
}

/// One array as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Its name (the `.npz` member without `.npy`).
    pub name: String,
    /// Its dtype as the header writes it (`<f8`).
    pub descr: String,
    /// Its shape, in C order.
    pub shape: Vec<usize>,
    /// Its values.
    pub data: Data,
}

impl Array {
    /// The numbers, when it holds numbers.
    pub fn numbers(&self) -> Option<&[f64]> {
        match &self.data {
            Data::Numbers(v) => Some(v),
            _ => None,
        }
    }

    /// The first string, when it holds text.
    pub fn text(&self) -> Option<&str> {
        match &self.data {
            Data::Text(v) => v.first().map(String::as_str),
            _ => None,
        }
    }

    /// `name (10, 156) <f8`, for messages.
    pub fn describe(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(usize::to_string).collect();
        let comma = if dims.len() == 1 { "," } else { "" };
        format!("{} ({}{comma}) {}", self.name, dims.join(", "), self.descr)
    }
}

/// An element type this reader decodes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Float,
    Int,
    Unsigned,
    Bool,
    Unicode,
    Bytes,
    Object,
}

/// A parsed dtype: kind, byte size of one element, big-endian.
#[derive(Clone, Copy, Debug)]
struct Dtype {
    kind: Kind,
    size: usize,
    big: bool,
}

/// A parsed header: dtype text, Fortran order, shape, and where the data starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The dtype as written.
    pub descr: String,
    /// Column-major data.
    pub fortran_order: bool,
    /// The shape as written.
    pub shape: Vec<usize>,
    /// Byte offset of the data from the start of the array.
    pub data_start: usize,
}

/// The magic, version and length of the header, from the array's first bytes: (header length,
/// bytes before the header). Needs 12 bytes (10 for version 1.0).
pub fn preamble(name: &str, b: &[u8]) -> Result<(usize, usize), NpzError> {
    let bad = |message: String| NpzError::Array { array: name.to_owned(), message };
    if !b.starts_with(b"\x93NUMPY") || b.len() < 10 {
        return Err(bad("not a .npy array (no \\x93NUMPY magic)".into()));
    }
    let (len, start) = match b[6] {
        1 => (usize::from(u16::from_le_bytes([b[8], b[9]])), 10),
        2 | 3 if b.len() >= 12 => (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12),
        2 | 3 => return Err(bad("truncated .npy header".into())),
        v => return Err(bad(format!("npy format version {v}.{} (1.0, 2.0 and 3.0 are read)", b[7]))),
    };
    if len > MAX_HEADER {
        return Err(bad(format!("a header of {len} bytes, over the {MAX_HEADER}-byte limit")));
    }
    Ok((len, start))
}

/// Parses the header dictionary at the start of `b` (the whole header must be there).
pub fn parse_header(name: &str, b: &[u8]) -> Result<Header, NpzError> {
    let (len, start) = preamble(name, b)?;
    let bad = |message: String| NpzError::Array { array: name.to_owned(), message };
    let text = b.get(start..start + len).ok_or_else(|| bad("truncated .npy header".into()))?;
    let text = std::str::from_utf8(text).map_err(|_| bad("a header that is not text".into()))?;
    let descr = match value_after(text, "descr") {
        Some(v) if v.starts_with('[') => return Err(bad("a structured dtype (record array), not a plain array".into())),
        Some(v) => quoted(v).ok_or_else(|| bad(format!("an unreadable dtype in header {text:?}")))?,
        None => return Err(bad(format!("no 'descr' in header {text:?}"))),
    };
    let fortran_order = value_after(text, "fortran_order").is_some_and(|v| v.starts_with("True"));
    let shape_text = value_after(text, "shape").ok_or_else(|| bad(format!("no 'shape' in header {text:?}")))?;
    let shape = parse_shape(shape_text).ok_or_else(|| bad(format!("an unreadable shape in header {text:?}")))?;
    // Its other dimensions past the limit make an array of no elements one too (a width of
    // 10^19 beside a 0): every product of its dimensions then fits.
    let mut others: u64 = 1;
    for &d in &shape {
        others = others
            .checked_mul((d as u64).max(1))
            .filter(|c| *c <= MAX_ELEMENTS)
            .ok_or_else(|| NpzError::TooLarge { array: name.to_owned(), shape: format!("{shape:?}") })?;
    }
    Ok(Header { descr, fortran_order, shape, data_start: start + len })
}

/// The text after `'key':` in a header dictionary, spaces skipped.
fn value_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let at = text.find(&format!("'{key}'")).or_else(|| text.find(&format!("\"{key}\"")))?;
    let rest = &text[at + key.len() + 2..];
    Some(rest.trim_start().strip_prefix(':')?.trim_start())
}

/// The string a value starts with, in single or double quotes.
fn quoted(v: &str) -> Option<String> {
    let q = v.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let end = v[1..].find(q)?;
    Some(v[1..1 + end].to_owned())
}

/// `(3, 4)`, `(5,)` or `()` as dimensions (Python 2's `3L` too).
fn parse_shape(v: &str) -> Option<Vec<usize>> {
    let inner = v.strip_prefix('(')?;
    let inner = &inner[..inner.find(')')?];
    inner.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.trim_end_matches('L').parse().ok()).collect()
}

/// The dtype `descr` names, or why it is not read.
fn dtype(name: &str, descr: &str) -> Result<Dtype, NpzError> {
    let bad =
        || NpzError::Array { array: name.to_owned(), message: format!("dtype {descr} is not read (floats, integers, booleans, text)") };
    let (order, rest) = match descr.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &descr[1..]),
        _ => ('=', descr),
    };
    let mut chars = rest.chars();
    let kind = match chars.next() {
        Some('f') => Kind::Float,
        Some('i') => Kind::Int,
        Some('u') => Kind::Unsigned,
        Some('b') => Kind::Bool,
        Some('U') => Kind::Unicode,
        Some('S') => Kind::Bytes,
        Some('O') => Kind::Object,
        _ => return Err(bad()),
    };
    let count: usize = match chars.as_str() {
        "" if matches!(kind, Kind::Object | Kind::Bool) => 8,
        n => n.parse().map_err(|_| bad())?,
    };
    let size = if kind == Kind::Unicode { count.checked_mul(4).ok_or_else(bad)? } else { count };
    let fits = match kind {
        Kind::Float => matches!(size, 4 | 8),
        Kind::Int | Kind::Unsigned => matches!(size, 1 | 2 | 4 | 8),
        Kind::Bool => size == 1,
        Kind::Object => true,
        Kind::Unicode | Kind::Bytes => size > 0,
    };
    if !fits {
        return Err(bad());
    }
    Ok(Dtype { kind, size, big: order == '>' })
}

/// True when `descr` is an object dtype (pickled data, never read).
pub fn is_object(descr: &str) -> bool {
    descr.trim_start_matches(['<', '>', '|', '=']).starts_with('O')
}

/// True when this reader decodes `descr`'s values (not objects, complex numbers, dates…).
pub fn is_readable(descr: &str) -> bool {
    !is_object(descr) && dtype("", descr).is_ok()
}

/// The number of bytes of data a header announces, checked against [`MAX_ELEMENTS`].
pub fn data_len(name: &str, header: &Header) -> Result<usize, NpzError> {
    let too_big = || NpzError::TooLarge { array: name.to_owned(), shape: format!("{:?}", header.shape) };
    let mut count: u64 = 1;
    for &d in &header.shape {
        count = count.checked_mul(d as u64).filter(|c| *c <= MAX_ELEMENTS).ok_or_else(too_big)?;
    }
    let size = dtype(name, &header.descr)?.size as u64;
    usize::try_from(count.checked_mul(size).ok_or_else(too_big)?).map_err(|_| too_big())
}

/// The array of a header and its data bytes (exactly [`data_len`] of them).
pub fn decode(name: &str, header: &Header, data: &[u8]) -> Result<Array, NpzError> {
    let t = dtype(name, &header.descr)?;
    let need = data_len(name, header)?;
    if data.len() < need {
        return Err(NpzError::Array {
            array: name.to_owned(),
            message: format!("truncated: {} bytes of data where shape {:?} of {} needs {need}", data.len(), header.shape, header.descr),
        });
    }
    let data = &data[..need];
    let values = match t.kind {
        Kind::Object => Data::Pickled(super::pickle::strings(data)),
        Kind::Unicode | Kind::Bytes => Data::Text(data.chunks_exact(t.size).map(|c| text(c, t)).collect()),
        _ => Data::Numbers(numbers(data, t)),
    };
    let (shape, values) = if header.fortran_order && header.shape.len() > 1 {
        (header.shape.clone(), in_c_order(values, &header.shape))
    } else {
        (header.shape.clone(), values)
    };
    Ok(Array { name: name.to_owned(), descr: header.descr.clone(), shape, data: values })
}

/// A whole `.npy` file's array, named `name`.
pub fn read(name: &str, bytes: &[u8]) -> Result<Array, NpzError> {
    let header = parse_header(name, bytes)?;
    if is_object(&header.descr) {
        let pickle = super::pickle::strings(bytes.get(header.data_start..).unwrap_or_default());
        return Ok(Array { name: name.to_owned(), descr: header.descr, shape: header.shape, data: Data::Pickled(pickle) });
    }
    decode(name, &header, &bytes[header.data_start.min(bytes.len())..])
}

/// Every element as a number; little-endian floats (nearly every array a body file holds)
/// without the general case's per-element branches.
fn numbers(data: &[u8], t: Dtype) -> Vec<f64> {
    match (t.kind, t.size, t.big) {
        (Kind::Float, 8, false) => data.chunks_exact(8).map(|c| f64::from_le_bytes(std::array::from_fn(|i| c[i]))).collect(),
        (Kind::Float, 4, false) => data.chunks_exact(4).map(|c| f64::from(f32::from_le_bytes(std::array::from_fn(|i| c[i])))).collect(),
        _ => data.chunks_exact(t.size).map(|c| number(c, t)).collect(),
    }
}

/// One element as a number.
fn number(c: &[u8], t: Dtype) -> f64 {
    let mut b = [0u8; 8];
    b[..c.len()].copy_from_slice(c);
    if t.big {
        b[..c.len()].reverse();
    }
    let n = c.len();
    match t.kind {
        Kind::Float if n == 4 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Kind::Float => f64::from_le_bytes(b),
        Kind::Int => {
            // Sign-extend from the element's width.
            let shift = 64 - 8 * n as u32;
            ((i64::from_le_bytes(b) << shift) >> shift) as f64
        }
        _ => u64::from_le_bytes(b) as f64,
    }
}

/// One element as text: UTF-32 for `U`, Latin-1 for `S`, trailing NULs dropped.
fn text(c: &[u8], t: Dtype) -> String {
    let s: String = if t.kind == Kind::Unicode {
        c.chunks_exact(4)
            .map(|u| if t.big { u32::from_be_bytes([u[0], u[1], u[2], u[3]]) } else { u32::from_le_bytes([u[0], u[1], u[2], u[3]]) })
            .map(|u| char::from_u32(u).unwrap_or('\u{FFFD}'))
            .collect()
    } else {
        c.iter().map(|&b| char::from(b)).collect()
    };
    s.trim_end_matches('\0').to_owned()
}

/// Column-major values in row-major order.
fn in_c_order(values: Data, shape: &[usize]) -> Data {
    fn permute<T: Clone>(v: &[T], shape: &[usize]) -> Vec<T> {
        let n = shape.len();
        let mut strides = vec![1usize; n];
        for k in 1..n {
            strides[k] = strides[k - 1] * shape[k - 1];
        }
        let mut index = vec![0usize; n];
        let mut out = Vec::with_capacity(v.len());
        for _ in 0..v.len() {
            out.push(v[index.iter().zip(&strides).map(|(i, s)| i * s).sum::<usize>()].clone());
            for k in (0..n).rev() {
                index[k] += 1;
                if index[k] < shape[k] {
                    break;
                }
                index[k] = 0;
            }
        }
        out
    }
    match values {
        Data::Numbers(v) => Data::Numbers(permute(&v, shape)),
        Data::Text(v) => Data::Text(permute(&v, shape)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.npy` file of `descr`, `shape` and raw data, with a header of `version`.
    pub(crate) fn npy(version: u8, descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let f = if fortran { "True" } else { "False" };
        let mut dict = format!("{{'descr': '{descr}', 'fortran_order': {f}, 'shape': {shape}, }}");
        let pre = if version == 1 { 10 } else { 12 };
        while (pre + dict.len() + 1) % 64 != 0 {
            dict.push(' ');
        }
        dict.push('\n');
        let mut out = b"\x93NUMPY".to_vec();
        out.extend([version, 0]);
        if version == 1 {
            out.extend((dict.len() as u16).to_le_bytes());
        } else {
            out.extend((dict.len() as u32).to_le_bytes());
        }
        out.extend(dict.as_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn floats_of_each_width_and_order_read() {
        let le: Vec<u8> = [1.5f64, -2.0, 3.25].iter().flat_map(|v| v.to_le_bytes()).collect();
        let be: Vec<u8> = [1.5f32, -2.0, 3.25].iter().flat_map(|v| v.to_be_bytes()).collect();
        for (v, descr, data) in [(1, "<f8", &le), (2, ">f4", &be), (3, "<f8", &le)] {
            let a = read("x", &npy(v, descr, false, "(3,)", data)).unwrap();
            assert_eq!(a.numbers().unwrap(), [1.5, -2.0, 3.25], "{descr} v{v}");
            assert_eq!(a.describe(), format!("x (3,) {descr}"));
        }
    }

    #[test]
    fn integers_booleans_and_text_read() {
        let i4: Vec<u8> = [-1i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(read("k", &npy(1, "<i4", false, "(2,)", &i4)).unwrap().numbers().unwrap(), [-1.0, 7.0]);
        let i8: Vec<u8> = [-5i64].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(read("k", &npy(1, "<i8", false, "(1,)", &i8)).unwrap().numbers().unwrap(), [-5.0]);
        let u4 = u32::MAX.to_le_bytes();
        assert_eq!(read("k", &npy(1, "<u4", false, "(1,)", &u4)).unwrap().numbers().unwrap(), [4294967295.0]);
        assert_eq!(read("b", &npy(1, "|b1", false, "(2,)", &[1, 0])).unwrap().numbers().unwrap(), [1.0, 0.0]);
        assert_eq!(read("u", &npy(1, "|u1", false, "(1,)", &[200])).unwrap().numbers().unwrap(), [200.0]);
        let male: Vec<u8> = "male\0\0".chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
        assert_eq!(read("gender", &npy(1, "<U6", false, "()", &male)).unwrap().text(), Some("male"));
        assert_eq!(read("g", &npy(1, "|S6", false, "()", b"female")).unwrap().text(), Some("female"));
    }

    #[test]
    fn fortran_order_is_transposed() {
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        let data: Vec<u8> = [1.0f64, 4.0, 2.0, 5.0, 3.0, 6.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let a = read("m", &npy(1, "<f8", true, "(2, 3)", &data)).unwrap();
        assert_eq!((a.shape.as_slice(), a.numbers().unwrap()), (&[2usize, 3][..], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0][..]));
    }

    #[test]
    fn objects_are_skipped_and_bad_headers_refused() {
        let a = read("joint2num", &npy(1, "|O", false, "()", b"\x80\x04\x8c\x06pickle.")).unwrap();
        assert_eq!(a.data, Data::Pickled(vec!["pickle".into()]));
        let e = read("poses", &npy(1, "<f8", false, "(100000, 100000, 100000)", &[])).unwrap_err().to_string();
        assert!(e.contains("poses") && e.contains("too large"), "{e}");
        let e = read("poses", &npy(1, "<f8", false, "(2, 3)", &[0; 8])).unwrap_err().to_string();
        assert!(e.contains("poses") && e.contains("truncated"), "{e}");
        assert!(read("x", &npy(1, "<c16", false, "(1,)", &[0; 16])).unwrap_err().to_string().contains("<c16"));
        assert!(read("x", b"\x93NUMPY\x09\x00").is_err());
        assert!(read("x", b"hello").is_err());
        let structured = npy(1, "<f8", false, "(1,)", &[0; 8]);
        let s = String::from_utf8_lossy(&structured).replace("'<f8'", "[('a', '<f8')]").into_bytes();
        assert!(read("x", &s).is_err());
    }
}
