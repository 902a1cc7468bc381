//! World positions of every frame of a clip (what `skelview positions` and the Python
//! package's `Motion.positions()` compute): the batch poser on one core and on all, against
//! the viewer's sampler frame by frame. Run: `cargo bench -p skelview-core --bench batch`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview_core::core::batch::{PositionSpace, joint_positions};
use skelview_core::core::{Interpolation, PoseAt, Sampler};
use skelview_core::formats::{self, Rayon, Sequential};

fn batch_bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bvh/cmu_cgspeed_01_01.bvh");
    let m = formats::load_paths(&[path]).expect("corpus file loads").remove(0);
    let frames: Vec<usize> = (0..m.clip.num_frames()).collect();
    let space = m.display_from_file();
    let name = format!("{}_frames_{}_joints", frames.len(), m.skeleton.len());
    let mut group = c.benchmark_group("world_positions");
    group.bench_function(format!("sampler_{name}"), |b| {
        let mut s = Sampler::default();
        b.iter(|| {
            let mut out = Vec::with_capacity(frames.len() * m.skeleton.len() * 3);
            for &f in &frames {
                out.extend(s.positions(&m, PoseAt::Frame(f), Interpolation::Nearest, space).iter().flat_map(|p| p.to_array()));
            }
            black_box(out)
        })
    });
    group.bench_function(format!("batch_one_core_{name}"), |b| {
        b.iter(|| black_box(joint_positions(&m, &frames, PositionSpace::World, space, &Sequential)))
    });
    group.bench_function(format!("batch_all_cores_{name}"), |b| {
        b.iter(|| black_box(joint_positions(&m, &frames, PositionSpace::World, space, &Rayon)))
    });
    group.finish();
}

criterion_group!(benches, batch_bench);
criterion_main!(benches);
