//! Retargeting against loading: a 10,000-frame take (CMU 01_01's rows repeated) loaded from
//! memory, then put on the Mixamo skeleton (with and without planted feet), in one run.
//!
//! Run: `cargo bench -p skelview-core --bench retarget`. Results: see benches/RESULTS.md.

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Rayon};
use skelview_core::retarget::{RetargetOptions, bone_map, retarget};

const FRAMES: usize = 10_000;

fn corpus(rel: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("the corpus (../shared/corpus) is needed: {}: {e}", path.display()))
}

/// CMU 01_01 with its motion rows repeated to `FRAMES` frames.
fn long_take() -> Vec<u8> {
    let text = String::from_utf8(corpus("bvh/cmu_cgspeed_01_01.bvh")).unwrap();
    let (head, motion) = text.split_at(text.find("MOTION").unwrap());
    let rows: Vec<&str> = motion.lines().skip(3).filter(|l| !l.trim().is_empty()).collect();
    let mut out = format!("{head}MOTION\nFrames: {FRAMES}\nFrame Time: 0.0083333\n");
    for row in rows.iter().cycle().take(FRAMES) {
        out.push_str(row);
        out.push('\n');
    }
    out.into_bytes()
}

fn bench(c: &mut Criterion) {
    let bytes = long_take();
    let load = || {
        let request = LoadRequest::memory("long.bvh", bytes.clone()).unwrap();
        formats::load(&request, &LoadOptions::default(), &Rayon, &mut Quiet).unwrap()
    };
    let source = load();
    let target_request = LoadRequest::memory("mixamo.bvh", corpus("bvh/mixamo_freebvh_20tab.bvh")).unwrap();
    let target = formats::load(&target_request, &LoadOptions::default(), &Rayon, &mut Quiet).unwrap();
    let map = |m: &skelview_core::core::Motion| bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
    let (sm, tm) = (map(&source), map(&target));
    let mut g = c.benchmark_group("retarget_10000_frames");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(FRAMES as u64));
    g.bench_function("load_bvh_from_memory", |b| b.iter(load));
    g.bench_function("retarget_onto_mixamo", |b| {
        b.iter(|| retarget(&source, &sm, &target, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap())
    });
    let planted = RetargetOptions { keep_feet: true, ..RetargetOptions::default() };
    g.bench_function("retarget_onto_mixamo_keep_feet", |b| {
        b.iter(|| retarget(&source, &sm, &target, &tm, &planted, &|_| true).unwrap().unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
