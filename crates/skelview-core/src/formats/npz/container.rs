//! The arrays of a `.npz` (a zip of `.npy` members, stored or deflated) or of one `.npy`,
//! read in memory; members not asked for, and pickled objects, are listed but not read.

use std::io::{Read, Seek};
use std::path::Path;

use super::NpzError;
use super::npy::{self, Array, Data};
use super::pickle;

/// Largest member accepted, after decompression.
const MAX_MEMBER: u64 = 2 << 30;

/// The arrays of a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arrays {
    /// In the file's order.
    pub arrays: Vec<Array>,
    /// True for a `.npz` archive, false for one `.npy` array.
    pub archive: bool,
}

impl Arrays {
    /// The array named `name`.
    pub fn get(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }

    /// The numbers of the array named `name`, with its shape.
    pub fn numbers(&self, name: &str) -> Option<(&[f64], &[usize])> {
        self.get(name).and_then(|a| Some((a.numbers()?, a.shape.as_slice())))
    }

    /// The numbers of the array named `name`, taken out (it keeps its shape, no numbers).
    pub fn take_numbers(&mut self, name: &str) -> Vec<f64> {
        match self.arrays.iter_mut().find(|a| a.name == name).map(|a| &mut a.data) {
            Some(Data::Numbers(v)) => std::mem::take(v),
            _ => Vec::new(),
        }
    }

    /// The first string of the array named `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(Array::text)
    }

    /// Every array with its shape and dtype, for messages.
    pub fn describe(&self) -> String {
        if self.arrays.is_empty() {
            return "no arrays".into();
        }
        self.arrays.iter().map(Array::describe).collect::<Vec<_>>().join(", ")
    }
}

/// Reads `bytes` as a `.npz` or a `.npy` (named `stem`); with `wanted`, only those arrays'
/// data is read (the others keep their shape).
pub fn read(bytes: &[u8], stem: &str, wanted: Option<&[&str]>) -> Result<Arrays, NpzError> {
    if bytes.starts_with(b"\x93NUMPY") {
        return Ok(Arrays { arrays: vec![npy::read(stem, bytes)?], archive: false });
    }
    if !bytes.starts_with(b"PK") {
        return Err(NpzError::NotNumpy);
    }
    read_archive(std::io::Cursor::new(bytes), wanted, Some(bytes))
}

/// Reads the file at `path` as [`read`] does, reading from disk only the members `wanted`
/// (a body model's joints need 100 of its 230 MB).
pub fn read_file(path: &Path, stem: &str, wanted: Option<&[&str]>) -> Result<Arrays, NpzError> {
    let unreadable = |e: std::io::Error| NpzError::Read(e.to_string());
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let mut magic = Vec::with_capacity(6);
    file.by_ref().take(6).read_to_end(&mut magic).map_err(unreadable)?;
    if !magic.starts_with(b"PK") {
        let bytes = std::fs::read(path).map_err(unreadable)?;
        return read(&bytes, stem, wanted);
    }
    file.rewind().map_err(unreadable)?;
    read_archive(std::io::BufReader::new(file), wanted, None)
}

/// Rows `rows` (indices along the first axis) of the array `name` of the `.npz` at `path`, and
/// the array's shape, read by seeking to each: a joint regressor's few vertices of a model's
/// 100 MB of shape directions. `None` when the member cannot be sought (deflated, Fortran
/// order, not numbers): read it whole then.
pub fn read_rows(path: &Path, name: &str, rows: &[usize]) -> Result<Option<(Vec<f64>, Vec<usize>)>, NpzError> {
    let unreadable =
        |e: std::io::Error| NpzError::Array { array: name.to_owned(), message: format!("cannot be read from the archive: {e}") };
    let file = std::fs::File::open(path).map_err(|e| NpzError::Read(e.to_string()))?;
    let mut archive = zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(|e| NpzError::Zip(e.to_string()))?;
    let Ok(mut member) = archive.by_name_seek(&format!("{name}.npy")) else { return Ok(None) };
    let mut head = Vec::with_capacity(12);
    member.by_ref().take(12).read_to_end(&mut head).map_err(unreadable)?;
    let (len, start) = npy::preamble(name, &head)?;
    member.by_ref().take((start + len).saturating_sub(head.len()) as u64).read_to_end(&mut head).map_err(unreadable)?;
    let header = npy::parse_header(name, &head)?;
    let numbers = npy::is_readable(&header.descr) && !header.descr.trim_start_matches(['<', '>', '|', '=']).starts_with(['U', 'S']);
    if header.fortran_order || !numbers || header.shape.is_empty() {
        return Ok(None);
    }
    npy::data_len(name, &header)?;
    let row = npy::Header { shape: header.shape[1..].to_vec(), data_start: 0, ..header.clone() };
    let mut bytes = vec![0u8; npy::data_len(name, &row)?];
    let mut out = Vec::with_capacity(rows.len() * bytes.len() / 4);
    for &r in rows {
        if r >= header.shape[0] {
            return Err(NpzError::Array { array: name.to_owned(), message: format!("has no row {r} (shape {:?})", header.shape) });
        }
        member.seek(std::io::SeekFrom::Start((start + len + r * bytes.len()) as u64)).map_err(unreadable)?;
        member.read_exact(&mut bytes).map_err(unreadable)?;
        out.extend_from_slice(npy::decode(name, &row, &bytes)?.numbers().unwrap_or_default());
    }
    Ok(Some((out, header.shape)))
}

/// The `.npy` members of a zip archive; `in_memory` is the whole archive when it is in memory,
/// so that a stored member's data is decoded where it lies instead of copied out first.
fn read_archive(reader: impl Read + Seek, wanted: Option<&[&str]>, in_memory: Option<&[u8]>) -> Result<Arrays, NpzError> {
    let zip_err = |e: zip::result::ZipError| NpzError::Zip(e.to_string());
    let mut archive = zip::ZipArchive::new(reader).map_err(zip_err)?;
    let mut arrays = Vec::new();
    for i in 0..archive.len() {
        if let Some(bytes) = in_memory {
            let member = archive.by_index_raw(i).map_err(zip_err)?;
            if let Some(whole) = stored_in_place(&member, bytes) {
                // `np.savez` writes only `.npy` members: anything else is not an array of it.
                let Some(name) = member.name().strip_suffix(".npy").map(str::to_owned) else { continue };
                let want = wanted.is_none_or(|w| w.contains(&name.as_str()));
                // Checked where its data is read, as the zip reader does: a member not wanted
                // is read for its header alone.
                if want && crc32fast::hash(whole) != member.crc32() {
                    return Err(NpzError::Zip(format!("{}: its checksum does not match its data (a damaged archive)", member.name())));
                }
                arrays.push(member_in_place(whole, &name, want)?);
                continue;
            }
        }
        let mut member = archive.by_index(i).map_err(zip_err)?;
        let file = member.name().to_owned();
        let Some(name) = file.strip_suffix(".npy").map(str::to_owned) else { continue };
        if member.size() > MAX_MEMBER {
            return Err(NpzError::TooLarge { array: name, shape: format!("{} bytes", member.size()) });
        }
        let want = wanted.is_none_or(|w| w.contains(&name.as_str()));
        arrays.push(read_member(&mut member, &name, want)?);
    }
    Ok(Arrays { arrays, archive: true })
}

/// A stored (not compressed, not encrypted) member's bytes within the archive `bytes`, when
/// they lie whole inside it.
fn stored_in_place<'a, R: Read>(member: &zip::read::ZipFile<'_, R>, bytes: &'a [u8]) -> Option<&'a [u8]> {
    if member.compression() != zip::CompressionMethod::Stored || member.encrypted() || member.size() != member.compressed_size() {
        return None;
    }
    let start = usize::try_from(member.data_start()?).ok()?;
    bytes.get(start..start.checked_add(usize::try_from(member.size()).ok()?)?)
}

/// A member held whole in memory: as [`read_member`], its data decoded where it lies.
fn member_in_place(whole: &[u8], name: &str, want: bool) -> Result<Array, NpzError> {
    let header = npy::parse_header(name, whole)?;
    let data = &whole[header.data_start.min(whole.len())..];
    let header = npy::Header { data_start: 0, ..header };
    if want && npy::is_object(&header.descr) {
        let pickle = pickle::strings(&data[..data.len().min(pickle::MAX_PICKLE)]);
        return Ok(Array { name: name.to_owned(), descr: header.descr, shape: header.shape, data: Data::Pickled(pickle) });
    }
    if !want || !npy::is_readable(&header.descr) {
        return Ok(Array { name: name.to_owned(), descr: header.descr, shape: header.shape, data: Data::Skipped });
    }
    npy::decode(name, &header, data)
}

/// One member: its header, then its data when `want` (and it holds numbers or text).
fn read_member(r: &mut impl Read, name: &str, want: bool) -> Result<Array, NpzError> {
    let unreadable =
        |e: std::io::Error| NpzError::Array { array: name.to_owned(), message: format!("cannot be read from the archive: {e}") };
    let mut head = Vec::with_capacity(12);
    r.by_ref().take(12).read_to_end(&mut head).map_err(unreadable)?;
    let (len, start) = npy::preamble(name, &head)?;
    let rest = (start + len).saturating_sub(head.len());
    r.by_ref().take(rest as u64).read_to_end(&mut head).map_err(unreadable)?;
    let header = npy::parse_header(name, &head)?;
    // A pickle is never unpickled: its strings are listed (a `gender` saved as an object).
    if want && npy::is_object(&header.descr) {
        let mut pickle = Vec::new();
        r.by_ref().take(pickle::MAX_PICKLE as u64).read_to_end(&mut pickle).map_err(unreadable)?;
        return Ok(Array {
            name: name.to_owned(),
            descr: header.descr,
            shape: header.shape,
            data: Data::Pickled(pickle::strings(&pickle)),
        });
    }
    // Kinds of values no motion or model uses (complex, dates) are listed, not read: the
    // layout decides whether it needed them.
    if !want || !npy::is_readable(&header.descr) {
        return Ok(Array { name: name.to_owned(), descr: header.descr, shape: header.shape, data: Data::Skipped });
    }
    let need = npy::data_len(name, &header)?;
    let mut data = Vec::with_capacity(need.min(64 << 20));
    r.by_ref().take(need as u64).read_to_end(&mut data).map_err(unreadable)?;
    // The zip reader checks a member's checksum when it reaches its end: read to it.
    let _past_the_array = r.read(&mut [0u8; 1]).map_err(unreadable)?;
    npy::decode(name, &npy::Header { data_start: 0, ..header }, &data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn f8(shape: &str, values: &[f64]) -> Vec<u8> {
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut dict = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}");
        while (10 + dict.len() + 1) % 64 != 0 {
            dict.push(' ');
        }
        dict.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((dict.len() as u16).to_le_bytes());
        out.extend(dict.as_bytes());
        out.extend(data);
        out
    }

    fn zip(members: &[(&str, Vec<u8>, bool)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, bytes, deflate) in members {
            let method = if *deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
            w.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn stored_and_deflated_members_read_and_unwanted_ones_are_listed() {
        let bytes = zip(&[("trans.npy", f8("(2, 3)", &[1.0; 6]), false), ("poses.npy", f8("(1, 2)", &[0.5, 2.0]), true)]);
        let a = read(&bytes, "x", None).unwrap();
        assert_eq!(a.numbers("poses").unwrap(), (&[0.5, 2.0][..], &[1usize, 2][..]));
        assert_eq!(a.describe(), "trans (2, 3) <f8, poses (1, 2) <f8");
        // Members of other kinds are listed without their data, and files that are not arrays skipped.
        let mut complex = f8("(1,)", &[0.0, 0.0]);
        let at = complex.windows(7).position(|w| w == b"'<f8', ").unwrap();
        complex[at..at + 7].copy_from_slice(b"'<c16',");
        let odd = zip(&[("poses.npy", f8("(1, 2)", &[0.5, 2.0]), true), ("z.npy", complex, false), ("notes.txt", b"hi".to_vec(), false)]);
        let a = read(&odd, "x", None).unwrap();
        assert_eq!((a.arrays.len(), &a.get("z").unwrap().data), (2, &Data::Skipped));
        let only = read(&bytes, "x", Some(&["poses"])).unwrap();
        assert_eq!(only.get("trans").unwrap().data, Data::Skipped);
        assert_eq!(only.get("trans").unwrap().shape, [2, 3]);
    }

    #[test]
    fn an_object_members_pickle_gives_its_strings_only() {
        // `np.savez(f, gender=np.array('male', dtype=object))`: a `|O` header, then a pickle.
        let mut gender = f8("()", &[]);
        let at = gender.windows(7).position(|w| w == b"'<f8', ").unwrap();
        gender[at..at + 7].copy_from_slice(b"'|O',  ");
        gender.extend(b"\x80\x03cnumpy.core.multiarray\n_reconstruct\nq\x00X\x04\x00\x00\x00maleq\x01.");
        let a = read(&zip(&[("gender.npy", gender, true)]), "x", None).unwrap();
        assert_eq!(a.get("gender").unwrap().data, Data::Pickled(vec!["male".into()]));
    }

    #[test]
    fn truncated_archives_and_members_are_errors() {
        let bytes = zip(&[("poses.npy", f8("(1, 2)", &[0.5, 2.0]), true)]);
        let e = read(&bytes[..bytes.len() - 30], "x", None).unwrap_err();
        assert!(matches!(e, NpzError::Zip(_)), "{e}");
        let short = f8("(4, 2)", &[0.5, 2.0]);
        let e = read(&zip(&[("poses.npy", short, false)]), "x", None).unwrap_err().to_string();
        assert!(e.contains("poses") && e.contains("truncated"), "{e}");
        assert!(matches!(read(b"hello", "x", None), Err(NpzError::NotNumpy)));
    }

    /// A stored member read in place gives what reading it from disk gives; a flipped byte
    /// in its data is a damaged archive either way, never other numbers.
    #[test]
    fn stored_members_in_memory_read_as_from_disk_and_are_checked() {
        let members = [("trans.npy", f8("(2, 3)", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), false), ("poses.npy", f8("(1, 2)", &[0.5, 2.0]), true)];
        let bytes = zip(&members);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.npz");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&bytes, "m", None).unwrap(), read_file(&path, "m", None).unwrap());
        let wanted = Some(&["poses"][..]);
        assert_eq!(read(&bytes, "m", wanted).unwrap(), read_file(&path, "m", wanted).unwrap());
        let at = bytes.windows(8).position(|w| w == 3.0f64.to_le_bytes()).unwrap();
        let mut damaged = bytes.clone();
        damaged[at + 7] ^= 0x40;
        let e = read(&damaged, "m", None).unwrap_err().to_string();
        assert!(e.contains("trans.npy") && e.contains("checksum"), "{e}");
        std::fs::write(&path, &damaged).unwrap();
        assert!(read_file(&path, "m", None).is_err(), "the zip reader checks it too");
    }
}
