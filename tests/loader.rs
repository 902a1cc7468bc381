//! The loader thread and the pose cache.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use skelview::cache::{LoadEvent, PoseCache, spawn_load};
use skelview::core::Interpolation;
use skelview::core::pose::{self, GlobalPose, LocalPose};
use skelview::formats::{self, LoadObserver, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn sample() -> LoadRequest {
    LoadRequest::Bvh(Source::Memory { name: "sample.bvh".into(), bytes: Arc::from(skelview::cli::SAMPLE_BVH) })
}

#[test]
fn events_arrive_skeleton_first_then_done_and_wake_the_ui() {
    let wakes = Arc::new(AtomicUsize::new(0));
    let w = wakes.clone();
    let handle = spawn_load(
        sample(),
        LoadOptions::default(),
        Arc::new(move || {
            w.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .unwrap();
    let events: Vec<LoadEvent> = handle.events.iter().collect();
    assert!(
        matches!(&events[0], LoadEvent::Skeleton { skeleton, first_frames } if skeleton.len() == 24 && first_frames.num_frames() == 101)
    );
    assert!(matches!(events.last(), Some(LoadEvent::Done(m)) if m.clip.num_frames() == 101));
    assert!(events[1..events.len() - 1].iter().all(|e| matches!(e, LoadEvent::Progress { .. })));
    assert!(wakes.load(Ordering::SeqCst) >= 2);
    handle.join();
}

#[test]
fn errors_come_back_as_failed_events() {
    let request = LoadRequest::Bvh(Source::Memory { name: "bad.bvh".into(), bytes: Arc::from(&b"HIERARCHY\nROOT\n"[..]) });
    let handle = spawn_load(request, LoadOptions::default(), Arc::new(|| {})).unwrap();
    let last = handle.events.iter().last().unwrap();
    assert!(matches!(&last, LoadEvent::Failed(e) if e.to_string() == "bad.bvh:2:5: expected a joint name, found end of line"), "{last:?}");
}

struct CancelAtFirstProgress;
impl LoadObserver for CancelAtFirstProgress {
    fn progress(&mut self, _: u64, _: Option<u64>) -> std::ops::ControlFlow<()> {
        std::ops::ControlFlow::Break(())
    }
}

#[test]
fn a_load_can_be_cancelled() {
    let e = formats::load(&sample(), &LoadOptions::default(), &Sequential, &mut CancelAtFirstProgress).unwrap_err();
    assert!(e.is_cancelled(), "{e}");
    assert_eq!(e.to_string(), "sample.bvh: loading cancelled");
}

#[test]
fn pose_cache_is_bounded_and_matches_direct_posing() {
    let motion = Arc::new(formats::load(&sample(), &LoadOptions::default(), &Sequential, &mut Quiet).unwrap());
    let mut cache = PoseCache::new(motion.clone(), 4);
    let (mut local, mut direct) = (LocalPose::default(), GlobalPose::default());
    for f in [0, 5, 99, 5, 50, 3, 7, 100, 0] {
        let cached = cache.frame(f).clone();
        pose::frame_pose(&motion.skeleton, &motion.clip, f, &mut local);
        pose::global_pose(&motion.skeleton, &local, &mut direct);
        assert_eq!(cached, direct, "frame {f}");
        assert!(cache.cached_frames() <= 4);
    }
    // Between frames, linear sampling differs from both neighbours; nearest snaps.
    let t = 10.5 * motion.clip.frame_time_secs;
    let between = cache.sample(t, Interpolation::Linear).clone();
    assert_ne!(&between, cache.frame(10));
    assert_ne!(&between, cache.frame(11));
    let nearest = cache.sample(10.4 * motion.clip.frame_time_secs, Interpolation::Nearest).clone();
    assert_eq!(&nearest, cache.frame(10));
}
