//! Per-frame CPU cost of posing: sample (linear) + forward kinematics, for the 165-joint
//! corpus file, one skeleton and sixteen. Run: `cargo bench --bench pose`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview::core::Interpolation;
use skelview::core::pose::{self, GlobalPose, LocalPose};
use skelview::formats;

fn pose_bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bvh/mocapnet_05_01_165joints_mixedorder.bvh");
    let motion = formats::load_paths(&[path]).expect("corpus file loads").remove(0);
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let duration = motion.clip.last_frame_time_secs();
    let mut t = 0.0;
    let mut step = move || {
        t = (t + 0.0123) % duration;
        t
    };
    let joints = motion.skeleton.len();
    c.bench_function(&format!("sample_and_fk_{joints}_joints"), |b| {
        b.iter(|| {
            pose::sample_pose(&motion.skeleton, &motion.clip, step(), Interpolation::Linear, &mut local);
            pose::global_pose(&motion.skeleton, &local, &mut global);
            black_box(&global);
        })
    });
    c.bench_function(&format!("sample_and_fk_16_skeletons_{joints}_joints"), |b| {
        b.iter(|| {
            let t = step();
            for k in 0..16 {
                pose::sample_pose(&motion.skeleton, &motion.clip, t + k as f64 * 0.01, Interpolation::Linear, &mut local);
                pose::global_pose(&motion.skeleton, &local, &mut global);
                black_box(&global);
            }
        })
    });
}

criterion_group!(benches, pose_bench);
criterion_main!(benches);
