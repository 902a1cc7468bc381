//! GIF encoding of one rendered frame: what `render --out x.gif` and the viewer's Export
//! video spend per frame besides rendering. Run: `cargo bench -p skelview-video --bench video`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview_video::encode as video;

fn gif_bench(c: &mut Criterion) {
    // A real rendered frame: the golden picture of the sample walk.
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/walk_perspective.png");
    let frame = image::open(&png).expect("golden image").to_rgba8();
    let (w, h) = frame.dimensions();
    let dir = tempfile::tempdir().unwrap();
    let mut sink = video::open(&dir.path().join("bench.gif"), (w, h), 30.0).unwrap();
    c.bench_function(&format!("gif_encode_frame_{w}x{h}"), |b| b.iter(|| sink.push(black_box(frame.as_raw())).unwrap()));
}

criterion_group!(benches, gif_bench);
criterion_main!(benches);
