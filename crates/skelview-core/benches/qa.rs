//! Capture checks (every kind) on corpus clips, loaded once: the cost of `qa` and of the
//! viewer's background check after the load.
//!
//! Run: `cargo bench -p skelview-core --bench qa`. Results: see benches/RESULTS.md and the README.

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};
use skelview_core::qa::{self, Kind, Thresholds};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("qa");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(5));
    for rel in ["bvh/cmu_cgspeed_01_03.bvh", "bvh/mocapnet_05_01_165joints_mixedorder.bvh", "asfamc/cmu_lambada.amc"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
        let request = LoadRequest::from_paths(std::slice::from_ref(&path)).pop().expect("one request").unwrap_or_else(|e| panic!("{e}"));
        let m = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet)
            .unwrap_or_else(|e| panic!("the corpus (../shared/corpus) is needed: {e}"));
        g.throughput(Throughput::Elements(m.clip.num_frames() as u64));
        g.bench_function(rel.rsplit('/').next().unwrap_or(rel), |b| {
            b.iter(|| qa::analyse(&m, &Thresholds::default(), &Kind::ALL, &|_| {}))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
