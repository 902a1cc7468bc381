//! The loader task: events in order, errors, cancel, and paths grouped on its thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use skelview_core::formats::{self, LoadObserver, LoadOptions, LoadRequest, Sequential, Source};
use skelview_viewer::tasks::{LoadEvent, LoadTask, Shown, TaskEvent, Tasks, spawn_load, spawn_open};

fn sample() -> LoadRequest {
    LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "sample.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    )
}

/// Every message of a load, waiting for each; the task must end without an error.
fn messages(mut task: LoadTask) -> Vec<LoadEvent> {
    let mut out = Vec::new();
    while let Some(event) = task.wait_event() {
        match event {
            TaskEvent::Message(m) => out.push(m),
            TaskEvent::Done(outcome) => assert!(outcome.is_ok()),
        }
    }
    out
}

#[test]
fn events_arrive_skeleton_first_then_done_and_wake_the_ui() {
    let wakes = Arc::new(AtomicUsize::new(0));
    let w = wakes.clone();
    let task = spawn_load(
        sample(),
        LoadOptions::default(),
        &Tasks::new(Arc::new(move || {
            w.fetch_add(1, Ordering::SeqCst);
        })),
        Shown::Waited,
    )
    .unwrap();
    let events = messages(task);
    assert!(
        matches!(&events[0], LoadEvent::Skeleton { skeleton, first_frames } if skeleton.len() == 24 && first_frames.num_frames() == 101)
    );
    assert!(matches!(events.last(), Some(LoadEvent::Done(l)) if l.motion.clip.num_frames() == 101 && l.key.is_none()));
    assert_eq!(events.len(), 2, "skeleton, then the motion");
    assert!(wakes.load(Ordering::SeqCst) >= 2);
}

#[test]
fn errors_come_back_as_failed_events() {
    let request = LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "bad.bvh".into(), bytes: Arc::from(&b"HIERARCHY\nROOT\n"[..]) },
    );
    let task = spawn_load(request, LoadOptions::default(), &Tasks::new(Arc::new(|| {})), Shown::Waited).unwrap();
    let last = messages(task).pop().unwrap();
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

use skelview_test_support as support;

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn paths_are_grouped_and_loaded_on_the_loader_thread_one_after_another() {
    let Some(corpus) = support::corpus() else { return };
    let dir = corpus.join("asfamc");
    let dir_bvh = corpus.join("bvh");
    let run = |paths: Vec<std::path::PathBuf>| {
        let task = spawn_open(paths, Box::new(|_| LoadOptions::default()), &Tasks::new(Arc::new(|| {})), Shown::Waited).unwrap();
        let (mut done, mut failed) = (Vec::new(), Vec::new());
        for e in messages(task) {
            match e {
                LoadEvent::Done(l) => done.push(l),
                LoadEvent::Failed(e) => failed.push(e.to_string()),
                _ => {}
            }
        }
        (done, failed)
    };
    let (mut done, failed) = run(vec![dir.join("cmu_backflip.amc"), dir_bvh.join("cmu_cgspeed_01_01.bvh"), dir.join("missing.bvh")]);
    done.extend(run(vec![dir.join("cmu_pirouette.asf")]).0);
    assert_eq!(done.len(), 3, "{failed:?}");
    // The AMC found its ASF beside it; keys are absolute paths of the file opened.
    assert_eq!(done[0].motion.source.paths.len(), 2);
    assert!(done[0].key.as_ref().is_some_and(|k| k.is_absolute() && k.ends_with("cmu_backflip.amc")));
    assert_eq!(done[1].motion.source.format, skelview_core::formats::bvh::FORMAT);
    // An ASF alone lists the AMC files beside it.
    assert!(done[2].companions.iter().any(|p| p.ends_with("cmu_pirouette.amc")), "{:?}", done[2].companions);
    assert_eq!(failed.len(), 1);
    assert!(failed[0].contains("missing.bvh"), "{failed:?}");
}
