//! The viewer's tools off the render path: measurements over a whole clip (what the Measure
//! tool computes in the background and `skelview measure` prints) and GIF encoding of one
//! rendered frame (what `render --out x.gif` and Export video spend per frame besides
//! rendering). Run: `cargo bench --bench tools`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview::core::measure::{Measure, series};
use skelview::export::video;
use skelview::formats;

fn measure_bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bvh/cmu_cgspeed_01_03.bvh");
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

fn gif_bench(c: &mut Criterion) {
    // A real rendered frame: the golden picture of the sample walk.
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/walk_perspective.png");
    let frame = image::open(&png).expect("golden image").to_rgba8();
    let (w, h) = frame.dimensions();
    let dir = tempfile::tempdir().unwrap();
    let mut sink = video::open(&dir.path().join("bench.gif"), (w, h), 30.0).unwrap();
    c.bench_function(&format!("gif_encode_frame_{w}x{h}"), |b| b.iter(|| sink.push(black_box(frame.as_raw())).unwrap()));
}

criterion_group!(benches, measure_bench, gif_bench);
criterion_main!(benches);
