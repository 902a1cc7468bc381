//! Per-frame CPU cost of posing: sample (linear) + forward kinematics, for the 165-joint
//! corpus file, one skeleton and sixteen. Run: `cargo bench --bench pose`.

use skelview::app::ClipEdit;
use skelview_scene::ClipId;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skelview_core::core::Interpolation;
use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::formats;
use skelview_scene::draw as scene;
use skelview_scene::{DrawData, Style};

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

/// The viewer's per-frame CPU work before the GPU upload: for 16 skeletons of the 165-joint
/// file, sample + FK + instance/line data (bones, joints, axes, shadow) + grid, into buffers
/// reused from frame to frame.
fn frame_bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bvh/mocapnet_05_01_165joints_mixedorder.bvh");
    let motion = formats::load_paths(&[path]).expect("corpus file loads").remove(0);
    let (mut local, mut global, mut draw) = (LocalPose::default(), GlobalPose::default(), DrawData::default());
    let display = motion.display_from_file();
    let size = motion.body_size_m();
    let style = Style { axes: true, ..Style::default() };
    let duration = motion.clip.last_frame_time_secs();
    let mut t = 0.0;
    c.bench_function("frame_cpu_16_skeletons_165_joints_with_axes", |b| {
        b.iter(|| {
            t = (t + 0.0123) % duration;
            draw.clear();
            for k in 0..16 {
                pose::sample_pose(&motion.skeleton, &motion.clip, t + k as f64 * 0.01, Interpolation::Linear, &mut local);
                pose::global_pose(&motion.skeleton, &local, &mut global);
                scene::build(&motion.skeleton, &global, display, size, &style, None, &mut draw);
            }
            scene::grid(glam::Vec3::ZERO, size, &style, &mut draw.lines);
            black_box(&draw);
        })
    });
}

/// The viewer's whole per-frame update with 8 clips of the 165-joint file open (issue 5's
/// budget): clock, sampling of every clip at its offset, FK, per-clip draw data, the live
/// comparison of two clips; then again with trails and onion skin on.
fn viewer_8_clips_bench(c: &mut Criterion) {
    use skelview::app::{Command, Viewer};
    use skelview_core::formats::{LoadRequest, Source};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bvh/mocapnet_05_01_165joints_mixedorder.bvh");
    let mut v =
        Viewer::with_settings(formats::LoadOptions::default(), std::sync::Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.open(LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone())));
    for _ in 1..8 {
        v.add(LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone())));
    }
    let start = std::time::Instant::now();
    while v.session.scene.clips.len() < 8 {
        assert!(start.elapsed().as_secs() < 60, "clips did not load: {:?}", v.messages.error);
        v.update(0.0);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    for k in 0..8 {
        v.commands.push(Command::Clip(ClipId(k), ClipEdit::Offset(k as f64 * 0.1)));
    }
    v.update(0.0);
    c.bench_function("viewer_update_8_clips_165_joints", |b| b.iter(|| v.update(1.0 / 60.0)));
    v.session.scene.overlays.trails = true;
    v.session.scene.overlays.onion = 3;
    c.bench_function("viewer_update_8_clips_165_joints_trails_onion", |b| b.iter(|| v.update(1.0 / 60.0)));
}

criterion_group!(benches, pose_bench, frame_bench, viewer_8_clips_bench);
criterion_main!(benches);
