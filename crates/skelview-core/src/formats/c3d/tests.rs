//! Small C3D files built byte by byte: every processor and storage, gaps, bad sections.

use super::params::Processor;
use super::*;

/// A minimal C3D writer for tests: header, one parameter section, data.
pub(crate) struct Build {
    pub proc: Processor,
    pub float: bool,
    pub labels: Vec<&'static str>,
    /// frames × points × (x, y, z, word)
    pub samples: Vec<Vec<[f32; 4]>>,
    pub analog: Vec<Vec<f32>>,
    pub extra: Vec<(&'static str, &'static str, Vec<u8>)>,
    pub scale: f32,
}

impl Build {
    pub fn new(proc: Processor, float: bool) -> Self {
        Self {
            proc,
            float,
            labels: vec!["A", "B"],
            samples: vec![
                vec![[10.0, 20.0, 30.0, 0.0], [1.0, 2.0, 3.0, 0.0]],
                vec![[11.0, 21.0, 31.0, 0.0], [0.0, 0.0, 0.0, -1.0]],
                vec![[12.0, 22.0, 32.0, 0.0], [5.0, 6.0, 7.0, 0.0]],
            ],
            analog: Vec::new(),
            extra: Vec::new(),
            scale: 0.5,
        }
    }

    fn i16(&self, v: i16) -> [u8; 2] {
        if self.proc == Processor::Mips { v.to_be_bytes() } else { v.to_le_bytes() }
    }

    fn f32(&self, v: f32) -> [u8; 4] {
        match self.proc {
            Processor::Intel => v.to_le_bytes(),
            Processor::Mips => v.to_be_bytes(),
            Processor::Dec => {
                if v == 0.0 {
                    return [0; 4];
                }
                let le = (v.to_bits() + (2 << 23)).to_le_bytes();
                [le[2], le[3], le[0], le[1]]
            }
        }
    }

    fn param(&self, out: &mut Vec<u8>, group: i8, name: &str, kind: i8, dims: &[u8], data: &[u8]) {
        out.push(name.len() as u8);
        out.push(group as u8);
        out.extend(name.as_bytes());
        let next = 2 + 1 + 1 + dims.len() + data.len() + 1;
        out.extend(self.i16(next as i16));
        out.push(kind as u8);
        out.push(dims.len() as u8);
        out.extend(dims);
        out.extend(data);
        out.push(0);
    }

    pub fn bytes(&self) -> Vec<u8> {
        let points = self.labels.len();
        let frames = self.samples.len();
        let channels = self.analog.first().map_or(0, Vec::len);
        let scale = if self.float { -self.scale } else { self.scale };
        let mut p = vec![1u8, 0x50, 1, self.proc_byte()];
        // Groups POINT (1) and ANALOG (2).
        for (id, name) in [(1i8, "POINT"), (2, "ANALOG"), (3, "TRIAL")] {
            p.push(name.len() as u8);
            p.push((-id) as u8);
            p.extend(name.as_bytes());
            p.extend(self.i16(3));
            p.push(0);
        }
        self.param(&mut p, 1, "USED", 2, &[], &self.i16(points as i16));
        self.param(&mut p, 1, "SCALE", 4, &[], &self.f32(scale));
        self.param(&mut p, 1, "RATE", 4, &[], &self.f32(100.0));
        self.param(&mut p, 1, "FRAMES", 2, &[], &self.i16(frames as i16));
        self.param(&mut p, 1, "DATA_START", 2, &[], &self.i16(3));
        self.param(&mut p, 1, "UNITS", -1, &[2], b"mm");
        self.param(&mut p, 1, "Y_SCREEN", -1, &[2], b"+Z");
        let labels: Vec<u8> = self.labels.iter().flat_map(|l| format!("{l:<4}").into_bytes()).collect();
        self.param(&mut p, 1, "LABELS", -1, &[4, points as u8], &labels);
        self.param(&mut p, 2, "USED", 2, &[], &self.i16(channels as i16));
        if channels > 0 {
            let scales: Vec<u8> = (0..channels).flat_map(|_| self.f32(2.0)).collect();
            self.param(&mut p, 2, "SCALE", 4, &[channels as u8], &scales);
            let offsets: Vec<u8> = (0..channels).flat_map(|_| self.i16(1)).collect();
            self.param(&mut p, 2, "OFFSET", 2, &[channels as u8], &offsets);
            self.param(&mut p, 2, "RATE", 4, &[], &self.f32(200.0));
        }
        for (group, name, data) in &self.extra {
            let id = if *group == "POINT" {
                1
            } else if *group == "ANALOG" {
                2
            } else {
                3
            };
            self.param(&mut p, id, name, -1, &[data.len() as u8], data);
        }
        p.extend([0, 0]);
        p.resize(512, 0);
        let mut h = vec![0u8; 512];
        h[0] = 2;
        h[1] = 0x50;
        let mut put = |at: usize, b: &[u8]| h[at..at + b.len()].copy_from_slice(b);
        put(2, &self.i16(points as i16));
        put(4, &self.i16((channels * 2) as i16));
        put(6, &self.i16(1));
        put(8, &self.i16(frames as i16));
        put(12, &self.f32(scale));
        put(16, &self.i16(3));
        put(18, &self.i16(2));
        put(20, &self.f32(100.0));
        let mut data = Vec::new();
        for (f, frame) in self.samples.iter().enumerate() {
            for s in frame {
                if self.float {
                    for v in s {
                        data.extend(self.f32(*v));
                    }
                } else {
                    for v in &s[..3] {
                        data.extend(self.i16((v / self.scale).round() as i16));
                    }
                    data.extend(self.i16(s[3] as i16));
                }
            }
            for _ in 0..2 {
                for c in 0..channels {
                    let v = self.analog[f][c];
                    if self.float { data.extend(self.f32(v)) } else { data.extend(self.i16(v as i16)) }
                }
            }
        }
        [h, p, data].concat()
    }

    fn proc_byte(&self) -> u8 {
        match self.proc {
            Processor::Intel => 84,
            Processor::Dec => 85,
            Processor::Mips => 86,
        }
    }
}

const READ: ReadOptions = ReadOptions { zero_is_gap: true };

#[test]
fn every_processor_and_storage_reads_the_same_positions_and_gaps() {
    for proc in [Processor::Intel, Processor::Dec, Processor::Mips] {
        for float in [false, true] {
            let c = parse_c3d(&Build::new(proc, float).bytes(), READ).unwrap();
            let cap = &c.capture;
            assert_eq!((cap.frames, cap.points.len()), (3, 2), "{proc:?} {float}");
            assert_eq!(cap.points[1].label, "B");
            assert_eq!(cap.position(0, 0), Some(Vec3::new(10.0, 20.0, 30.0)), "{proc:?} float {float}");
            assert_eq!(cap.position(2, 1), Some(Vec3::new(5.0, 6.0, 7.0)));
            assert!(cap.is_gap(1, 1), "{proc:?} {float}: a negative fourth word is a gap");
            assert_eq!(cap.unit, "mm");
            assert_eq!(cap.axes.y_screen.as_deref(), Some("+Z"));
            assert_eq!(c.processor, proc);
        }
    }
}

use glam::Vec3;

#[test]
fn any_negative_word_and_the_float_65535_are_gaps() {
    let mut b = Build::new(Processor::Intel, true);
    b.samples[0][0][3] = -32748.0;
    b.samples[2][0][3] = 65535.0;
    b.samples[2][1] = [f32::NAN, 1.0, 1.0, 0.0];
    let c = parse_c3d(&b.bytes(), READ).unwrap().capture;
    assert!(c.is_gap(0, 0) && c.is_gap(2, 0) && c.is_gap(2, 1));
    assert!(!c.is_gap(1, 0));
    let mut i = Build::new(Processor::Intel, false);
    i.samples[0][0][3] = -32768.0;
    assert!(parse_c3d(&i.bytes(), READ).unwrap().capture.is_gap(0, 0));
}

#[test]
fn points_at_the_origin_are_gaps_unless_asked_to_keep() {
    let mut b = Build::new(Processor::Intel, true);
    b.samples[0][1] = [0.0, 0.0, 0.0, 0.0];
    let gap = parse_c3d(&b.bytes(), READ).unwrap();
    assert!(gap.capture.is_gap(0, 1));
    assert!(gap.warnings.iter().any(|w| w.message.contains("(0, 0, 0)")));
    let kept = parse_c3d(&b.bytes(), ReadOptions { zero_is_gap: false }).unwrap();
    assert_eq!(kept.capture.position(0, 1), Some(Vec3::ZERO));
}

#[test]
fn analog_values_are_offset_and_scaled() {
    for proc in [Processor::Intel, Processor::Mips] {
        let mut b = Build::new(proc, false);
        b.analog = vec![vec![11.0, -3.0], vec![1.0, 5.0], vec![0.0, 0.0]];
        let c = parse_c3d(&b.bytes(), READ).unwrap().capture;
        assert_eq!(c.analog.channels.len(), 2);
        assert_eq!(c.analog.samples_per_frame, 2);
        assert_eq!(c.analog.rate_hz, 200.0);
        // (raw - 1) × 2
        assert_eq!(&c.analog.values[..4], &[20.0, -8.0, 20.0, -8.0]);
        assert_eq!(c.analog.samples(), 6);
    }
}

#[test]
fn truncated_data_keeps_the_whole_frames_with_a_warning() {
    let bytes = Build::new(Processor::Intel, true).bytes();
    let cut = &bytes[..bytes.len() - 10];
    let c = parse_c3d(cut, READ).unwrap();
    assert_eq!(c.capture.frames, 2);
    assert!(
        c.warnings.iter().any(|w| w.message.contains("holds 2 of the 3 frames")),
        "{:?}",
        c.warnings.iter().map(|w| &w.message).collect::<Vec<_>>()
    );
}

#[test]
fn a_parameter_section_past_the_end_is_an_error_at_its_offset() {
    let mut bytes = Build::new(Processor::Intel, true).bytes();
    bytes[0] = 200;
    let e = parse_c3d(&bytes, READ).err().unwrap();
    assert!(e.to_string().contains("past the end"), "{e}");
    let e = parse_c3d(&bytes[..100], READ).err().unwrap();
    assert!(e.to_string().contains("512-byte"), "{e}");
    let mut junk = Build::new(Processor::Intel, true).bytes();
    junk[512 + 3] = 7;
    assert!(parse_c3d(&junk, READ).err().unwrap().to_string().contains("processor type"));
}

#[test]
fn fewer_labels_than_points_names_the_rest_with_a_warning() {
    let mut b = Build::new(Processor::Intel, true);
    b.labels = vec!["A", "B"];
    let mut bytes = b.bytes();
    // POINT:USED = 3 in the parameters, with two labels: the third point gets a name,
    // and the data is read with 3 points per frame.
    let used = bytes.windows(4).position(|w| w == b"USED").unwrap();
    bytes[used + 4 + 2 + 2] = 3;
    let c = parse_c3d(&bytes, READ).unwrap();
    assert_eq!(c.capture.points.len(), 3);
    assert_eq!(c.capture.points[2].label, "point 3");
    assert!(c.warnings.iter().any(|w| w.message.contains("2 labels for 3 points")));
}

#[test]
fn an_analog_rate_that_is_not_a_multiple_of_the_point_rate_is_warned() {
    let mut b = Build::new(Processor::Intel, true);
    b.analog = vec![vec![1.0], vec![1.0], vec![1.0]];
    let mut bytes = b.bytes();
    let rate = bytes.windows(4).rposition(|w| w == b"RATE").unwrap();
    let v = 250.0f32.to_le_bytes();
    bytes[rate + 4 + 2 + 2..rate + 4 + 2 + 2 + 4].copy_from_slice(&v);
    let c = parse_c3d(&bytes, READ).unwrap();
    assert!(
        c.warnings.iter().any(|w| w.message.contains("not a multiple")),
        "{:?}",
        c.warnings.iter().map(|w| &w.message).collect::<Vec<_>>()
    );
}

#[test]
fn analog_words_in_the_header_with_no_channel_used_are_skipped_with_a_warning() {
    // As a BTS file: the header lays out analog words, ANALOG:USED says 0.
    let mut b = Build::new(Processor::Intel, true);
    b.analog = vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]];
    let mut bytes = b.bytes();
    let used = bytes.windows(4).rposition(|w| w == b"USED").unwrap();
    bytes[used + 4 + 2 + 2] = 0;
    let c = parse_c3d(&bytes, READ).unwrap();
    assert_eq!(c.capture.analog.channels.len(), 0);
    // The markers after the skipped words are where they are.
    assert_eq!(c.capture.position(2, 0), Some(glam::Vec3::new(12.0, 22.0, 32.0)));
    let messages: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("4 analog words per frame but ANALOG:USED is 0")), "{messages:?}");
}

#[test]
fn a_bts_header_of_18_analog_words_over_used_and_rate_0_is_believed_and_said_so() {
    // As a BTS Elite file: 18 analog words a frame in the header (9 channels, 2 samples),
    // ANALOG:USED 0 and ANALOG:RATE 0. Loaded as a file, as `skelview info` loads it.
    let mut b = Build::new(Processor::Intel, true);
    b.analog = vec![vec![1.0; 9]; 3];
    let mut bytes = b.bytes();
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 18);
    let used = bytes.windows(4).rposition(|w| w == b"USED").unwrap();
    bytes[used + 4 + 2 + 2] = 0;
    let rate = bytes.windows(4).rposition(|w| w == b"RATE").unwrap();
    bytes[rate + 4 + 2 + 2..rate + 4 + 2 + 2 + 4].copy_from_slice(&0f32.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bts_elite.c3d");
    std::fs::write(&path, &bytes).unwrap();
    let m = crate::formats::load_paths(std::slice::from_ref(&path)).unwrap().remove(0);
    let said: Vec<&str> = m.warnings.iter().map(|w| w.message.as_str()).filter(|w| w.contains("analog words")).collect();
    let [w] = said.as_slice() else { panic!("one warning on the analog words: {:?}", m.warnings) };
    for part in ["18 analog words per frame", "ANALOG:USED is 0", "ANALOG:RATE is 0", "the header is believed", "3 frames of 104 bytes"] {
        assert!(w.contains(part), "{part}: {w}");
    }
    // The markers after the skipped words are where they are.
    let c = m.capture.as_ref().unwrap();
    assert_eq!(c.position(2, 0), Some(glam::Vec3::new(12.0, 22.0, 32.0)));
}

#[test]
fn junk_never_panics() {
    let good = Build::new(Processor::Dec, false).bytes();
    let mut seed = 7u64;
    for _ in 0..3000 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut b = good.clone();
        for k in 0..6 {
            let r = seed.rotate_left(k * 9);
            let at = (r as usize >> 3) % b.len();
            b[at] = (r >> 40) as u8;
        }
        b.truncate(((seed >> 20) as usize % (good.len() + 1)).max(b.len() / 2));
        let _ = parse_c3d(&b, READ);
    }
}

/// A file read block by block gives what the same bytes in memory give: every processor and
/// storage, gaps, analog samples, blocks that end inside the frames (a piece of 256 frames
/// each) and a last block cut short.
#[test]
fn frames_read_block_by_block_are_those_read_from_memory() {
    for (proc, float) in [(Processor::Intel, true), (Processor::Dec, true), (Processor::Mips, false), (Processor::Intel, false)] {
        let mut b = Build::new(proc, float);
        let frames = 700;
        b.samples = (0..frames)
            .map(|f| {
                let v = f as f32;
                let gap = if f % 7 == 3 { -1.0 } else { 0.0 };
                vec![[v, 2.0 * v, 3.0, 0.0], [1.0, v, -v, gap]]
            })
            .collect();
        b.analog = (0..frames).map(|f| vec![f as f32 % 50.0, -3.0]).collect();
        let bytes = b.bytes();
        let whole = parse_c3d(&bytes, READ).unwrap();
        let word = [bytes[16], bytes[17]];
        let block = if proc == Processor::Mips { u16::from_be_bytes(word) } else { u16::from_le_bytes(word) };
        let data_start = (usize::from(block) - 1) * 512;
        let mut data = std::io::Cursor::new(&bytes[data_start..]);
        let mut seen = Vec::new();
        let mut progress = |done: u64| {
            seen.push(done);
            ControlFlow::Continue(())
        };
        let frames_from = data::Frames::File { file: &mut data, block_bytes: 1, progress: &mut progress };
        let streamed = parse_from(&bytes[..data_start], bytes.len(), frames_from, READ).unwrap();
        assert_eq!(format!("{:?}", streamed.capture), format!("{:?}", whole.capture), "{proc:?} float {float}");
        assert_eq!(streamed.warnings, whole.warnings);
        assert_eq!(seen.len(), 3, "{proc:?}: 700 frames in blocks of 256");
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        // The data section ends within the last 512-byte block.
        let end = seen.last().copied().unwrap_or(0) as usize;
        assert!(end <= bytes.len() && end + 512 > bytes.len(), "{end} of {}", bytes.len());
    }
}

/// A file read from disk: streamed when its header places the data after the parameters,
/// read whole when it does not (the parameters then say where the data is); the same capture
/// either way; a read stopped by its observer is cancelled.
#[test]
fn a_file_on_disk_is_read_as_its_bytes_are() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new(Processor::Intel, true);
    b.analog = vec![vec![11.0, -3.0], vec![1.0, 5.0], vec![0.0, 0.0]];
    let bytes = b.bytes();
    let mut moved = bytes.clone();
    // The header's data block 0: only POINT:DATA_START places the data.
    moved[16] = 0;
    moved[17] = 0;
    for (name, bytes) in [("streamed.c3d", &bytes), ("whole.c3d", &moved)] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let from_memory = parse_c3d(bytes, READ).unwrap();
        let from_disk = parse_c3d_file(&path, READ, &mut |_, _| ControlFlow::Continue(())).unwrap();
        assert_eq!(format!("{:?}", from_disk.capture), format!("{:?}", from_memory.capture), "{name}");
        assert_eq!(from_disk.warnings, from_memory.warnings, "{name}");
    }
    let path = dir.path().join("streamed.c3d");
    let stopped = parse_c3d_file(&path, READ, &mut |_, _| ControlFlow::Break(()));
    assert!(matches!(stopped, Err(LoadError::Cancelled { .. })), "{:?}", stopped.err());
}

/// A file that gets shorter between taking its length and reading its frames stops with the
/// frame and byte where the data ran out, never a panic or a half-read capture.
#[test]
fn a_file_that_gets_shorter_while_read_is_an_error_at_the_frame() {
    let b = Build::new(Processor::Intel, true);
    let bytes = b.bytes();
    let data_start = (usize::from(u16::from_le_bytes([bytes[16], bytes[17]])) - 1) * 512;
    let mut short = std::io::Cursor::new(&bytes[data_start..data_start + 40]);
    let mut progress = |_| ControlFlow::Continue(());
    let frames_from = data::Frames::File { file: &mut short, block_bytes: 1, progress: &mut progress };
    let e = parse_from(&bytes[..data_start], bytes.len(), frames_from, READ).err().unwrap();
    assert_eq!(e.offset, data_start as u64);
    assert!(e.to_string().contains("frame 0 and on (the file got shorter while it was read)"), "{e}");
}

/// Bytes in memory (a page's dropped file) load through the same blocks as a file: progress
/// from 0 to the end of the frames, and a load stopped after its first block is cancelled.
#[test]
fn bytes_in_memory_load_with_progress_and_cancel() {
    use crate::formats::{self, LoadObserver, LoadOptions, LoadRequest, Sequential};
    struct Heard {
        progress: Vec<(u64, Option<u64>)>,
        stop: bool,
    }
    impl LoadObserver for Heard {
        fn progress(&mut self, done: u64, total: Option<u64>) -> ControlFlow<()> {
            self.progress.push((done, total));
            if self.stop && done > 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }
    }
    let bytes = Build::new(Processor::Intel, true).bytes();
    let len = bytes.len() as u64;
    let request = LoadRequest::memory("dropped.c3d", bytes).unwrap();
    let mut heard = Heard { progress: Vec::new(), stop: false };
    assert!(formats::load(&request, &LoadOptions::default(), &Sequential, &mut heard).is_ok());
    assert_eq!(heard.progress.first(), Some(&(0, Some(len))));
    let (end, total) = *heard.progress.last().unwrap();
    assert!(end > 0 && end <= len && total == Some(len), "{:?}", heard.progress);
    let mut stopping = Heard { progress: Vec::new(), stop: true };
    let stopped = formats::load(&request, &LoadOptions::default(), &Sequential, &mut stopping);
    assert!(matches!(stopped, Err(LoadError::Cancelled { .. })), "{:?}", stopped.err());
}
