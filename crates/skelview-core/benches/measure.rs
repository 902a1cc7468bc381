//! Measurements over a whole clip (what the viewer's Measure tool computes in the background
//! and `skelview measure` prints). Run: `cargo bench -p skelview-core --bench measure`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview_core::core::measure::{Measure, series};
use skelview_core::formats;

fn measure_bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bvh/cmu_cgspeed_01_03.bvh");
    let m = formats::load_paths(&[path]).expect("corpus file loads").remove(0);
    let find = |n: &str| m.skeleton.find(n).expect("joint");
    let (hip, knee, foot) = (find("LeftUpLeg"), find("LeftLeg"), find("LeftFoot"));
    let frames: Vec<usize> = (0..m.clip.num_frames()).collect();
    let space = m.display_from_file();
    let measures = [Measure::Distance(hip, foot), Measure::Angle(hip, knee, foot), Measure::Speed(foot), Measure::Acceleration(foot)];
    c.bench_function(&format!("measure_4_series_{}_frames_{}_joints", frames.len(), m.skeleton.len()), |b| {
        b.iter(|| black_box(series(&m, &measures, &frames, space, &|_| true)))
    });
}

criterion_group!(benches, measure_bench);
criterion_main!(benches);
