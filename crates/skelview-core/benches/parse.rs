//! Parse throughput on a ~100 MB BVH made by repeating the motion rows of
//! `../shared/corpus/bvh/cmu_cgspeed_01_03.bvh`, side by side with the `bvh_anim` crate.
//!
//! Run: `cargo bench -p skelview-core --bench parse`. Results: see benches/RESULTS.md and the README.

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skelview_core::core::PositionRule;
use skelview_core::formats::{self, LoadOptions, LoadRequest, Parallel, Quiet, Rayon, Sequential, Source, bvh};
use std::sync::Mutex;

const TARGET_BYTES: usize = 100 << 20;

fn corpus_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bvh/cmu_cgspeed_01_03.bvh")
}

/// Writes (once) the big file: the corpus header, then its rows repeated to ~100 MB.
fn big_bvh() -> PathBuf {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-data/cmu_01_03_100mb.bvh");
    if out.exists() {
        return out;
    }
    let src = std::fs::read(corpus_file()).expect("the corpus (../shared/corpus) is needed for this benchmark");
    let find = |needle: &[u8], from: usize| {
        src[from..].windows(needle.len()).position(|w| w == needle).map(|p| p + from).expect("corpus BVH layout")
    };
    let motion = find(b"MOTION", 0);
    let time_line = find(b"Frame Time", motion);
    let rows_start = find(b"\n", time_line) + 1;
    let mut rows = src[rows_start..].to_vec();
    if rows.last() != Some(&b'\n') {
        rows.push(b'\n');
    }
    let per_copy = rows.iter().filter(|&&c| c == b'\n').count();
    let copies = TARGET_BYTES / rows.len() + 1;
    let mut data = src[..motion].to_vec();
    data.extend_from_slice(format!("MOTION\nFrames: {}\nFrame Time: 0.0083333\n", per_copy * copies).as_bytes());
    for _ in 0..copies {
        data.extend_from_slice(&rows);
    }
    std::fs::create_dir_all(out.parent().expect("has a parent")).expect("create target/bench-data");
    std::fs::write(&out, data).expect("write bench data");
    out
}

fn parse(c: &mut Criterion) {
    let path = big_bvh();
    let bytes = std::fs::read(&path).expect("read bench data");
    let mut g = c.benchmark_group("parse_bvh_100mb");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(12));
    g.bench_function("skelview_all_cores_from_memory", |b| {
        b.iter(|| bvh::parse_slice(&bytes, PositionRule::Replace, &ScopedThreads::per_core(), &mut Quiet).expect("parses"))
    });
    // The same halves on rayon's pool, which the loader and the command line use.
    g.bench_function("skelview_all_cores_from_memory_rayon", |b| {
        b.iter(|| bvh::parse_slice(&bytes, PositionRule::Replace, &Rayon, &mut Quiet).expect("parses"))
    });
    g.bench_function("skelview_one_core_from_memory", |b| {
        b.iter(|| bvh::parse_slice(&bytes, PositionRule::Replace, &Sequential, &mut Quiet).expect("parses"))
    });
    g.bench_function("skelview_all_cores_from_file", |b| {
        let request = LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone()));
        b.iter(|| formats::load(&request, &LoadOptions::default(), &ScopedThreads::per_core(), &mut Quiet).expect("parses"))
    });
    g.bench_function("skelview_all_cores_from_file_rayon", |b| {
        let request = LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone()));
        b.iter(|| formats::load(&request, &LoadOptions::default(), &Rayon, &mut Quiet).expect("parses"))
    });
    g.bench_function("bvh_anim_0_4_from_memory", |b| b.iter(|| bvh_anim::from_bytes(&bytes[..]).expect("bvh_anim parses")));
    g.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);

/// A runner on scoped threads of our own, kept to compare with rayon's pool.
#[derive(Clone, Copy, Debug)]
struct ScopedThreads {
    width: usize,
}

impl ScopedThreads {
    /// One thread per available core.
    fn per_core() -> Self {
        Self { width: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }
}

impl Parallel for ScopedThreads {
    fn width(&self) -> usize {
        self.width
    }

    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        // Workers pull jobs from a shared queue; the calling thread pulls too, so every job
        // runs even if no extra thread can be started.
        let helpers = self.width.min(jobs.len()).saturating_sub(1);
        let queue = Mutex::new(jobs.into_iter());
        let work = || {
            loop {
                let job = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                match job {
                    Some(job) => job(),
                    None => break,
                }
            }
        };
        std::thread::scope(|s| {
            for k in 0..helpers {
                // A failed spawn only means less parallelism.
                let _ = std::thread::Builder::new().name(format!("skelview-parse-{}", k + 1)).spawn_scoped(s, work);
            }
            work();
        });
    }
}
