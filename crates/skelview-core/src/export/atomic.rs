//! Atomic file writes: the bytes go to a temporary file in the target's folder, which then
//! replaces the target in one rename. A failed or cancelled write leaves the old file (or no
//! file) and no partial output. Every file skelview writes goes through here.
//!
//! When a file is made durable (`fsync`) follows GLib's `g_file_set_contents`: a file that
//! replaces another is on disk before the rename, since a crash between the two could
//! otherwise lose the old contents as well as the new; a new file is left to the system to
//! write back, as NumPy, ezc3d and most tools leave theirs, since a crash can then lose only
//! the new file, never anything that was there. The wait is the disk's: 0.8–1.2 s for a
//! 350 MB C3D on the test machine, 10–80 ms for a small file. `SKELVIEW_FSYNC=always` makes
//! new files durable too.

use std::io::Write;
use std::path::Path;

/// Writes `path` through `write`, atomically. The temporary file lives beside the target so
/// that the final rename never crosses file systems.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>) -> std::io::Result<()> {
    let tmp = temp_beside(path)?;
    let durable = durable(path, std::env::var("SKELVIEW_FSYNC").ok().as_deref());
    let mut out = std::io::BufWriter::new(Writeback::new(tmp.as_file(), durable));
    write(&mut out)?;
    out.into_inner().map_err(|e| e.into_error())?;
    if durable {
        tmp.as_file().sync_data().ok();
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether the file written at `path` is made durable before it is put in place: when it
/// replaces one, or when the `SKELVIEW_FSYNC` `setting` asks it for every file (`always`,
/// `1`; anything else leaves the default).
fn durable(path: &Path, setting: Option<&str>) -> bool {
    std::fs::symlink_metadata(path).is_ok() || matches!(setting.map(str::trim), Some("always" | "1"))
}

/// A file whose bytes are handed to the disk in stretches as they are written (Linux's
/// `sync_file_range`, which starts the writing and does not wait), so that the `fsync` that
/// makes a save durable waits for the last stretch, not for the whole file: a 350 MB C3D's
/// `fsync` took 0.45 s of its write.
struct Writeback<'a> {
    file: &'a std::fs::File,
    written: u64,
    handed: u64,
    /// Whether the file will be made durable: the stretches are handed over only then.
    durable: bool,
}

impl<'a> Writeback<'a> {
    /// Bytes written between two hand-overs.
    const STRETCH: u64 = 8 << 20;

    fn new(file: &'a std::fs::File, durable: bool) -> Self {
        Self { file, written: 0, handed: 0, durable }
    }
}

impl Write for Writeback<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.durable && self.written - self.handed >= Self::STRETCH {
            #[cfg(target_os = "linux")]
            {
                use std::os::fd::AsRawFd;
                // SAFETY: a plain call on an open descriptor, no pointers. Only advice: a
                // refusal (a file system without it) leaves the work to the `fsync`.
                unsafe {
                    libc::sync_file_range(
                        self.file.as_raw_fd(),
                        self.handed as libc::off64_t,
                        (self.written - self.handed) as libc::off64_t,
                        libc::SYNC_FILE_RANGE_WRITE,
                    )
                };
            }
            self.handed = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// A temporary file beside `path` (`.NAME.<random>.tmp`, 0666 less the umask) for output written
/// over time; `persist(path)` puts it in place, dropping it removes it.
pub fn temp_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Outputs are ordinary files (0666 less the umask), not private temporaries (0600).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The process umask, read from /proc (0o022 when unknown).
    #[cfg(unix)]
    fn umask() -> u32 {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Umask:").and_then(|v| u32::from_str_radix(v.trim(), 8).ok())))
            .unwrap_or(0o022)
    }

    #[test]
    fn new_files_are_made_durable_only_when_asked_and_replacing_ones_always() {
        let dir = tempfile::tempdir().unwrap();
        let (new, old) = (dir.path().join("new.c3d"), dir.path().join("old.c3d"));
        std::fs::write(&old, b"there").unwrap();
        for setting in [None, Some(""), Some("never"), Some("0")] {
            assert!(!durable(&new, setting), "{setting:?}");
            assert!(durable(&old, setting), "{setting:?}");
        }
        for setting in ["always", "1", " always\n"] {
            assert!(durable(&new, Some(setting)), "{setting:?}");
        }
    }

    #[test]
    fn replaces_the_file_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |w| w.write_all(b"first")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let failed = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("cancelled"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"first", "the old file stays");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
        assert!(write_atomically(&dir.path().join("no/such/dir/x"), |w| w.write_all(b"x")).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode & 0o044, 0o044 & !umask(), "readable by others as the umask allows: {mode:o}");
        }
    }
}
