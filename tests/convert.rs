//! `convert` round trips: every corpus file of every format written as BVH and loaded again gives
//! the same global positions (frames 0, 1, 50 and last; every original joint by name).

mod common;

use skelview_core::core::Motion;
use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::export::{BvhWriteOptions, write_bvh};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn positions(m: &Motion, frame: usize) -> Vec<(String, glam::Vec3)> {
    let (mut l, mut g) = (LocalPose::default(), GlobalPose::default());
    pose::frame_pose(&m.skeleton, &m.clip, frame, &mut l);
    pose::global_pose(&m.skeleton, &l, &mut g);
    m.skeleton.joints().iter().enumerate().map(|(i, j)| (j.name.clone(), g.position(i))).collect()
}

fn round_trip(original: &Motion, order: &str, what: &str) {
    let mut text = Vec::new();
    write_bvh(original, &BvhWriteOptions { order: BvhWriteOptions::parse_order(order).unwrap() }, &mut text).unwrap();
    let back = skelview_core::formats::open_bytes("converted.bvh", text, &LoadOptions::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(back.clip.num_frames(), original.clip.num_frames().max(1), "{what}");
    assert_eq!(back.clip.frame_time_secs, original.clip.frame_time_secs, "{what}");
    let n = original.clip.num_frames().max(1);
    let tolerance = 1e-4 * original.source.body_height.max(1.0);
    for f in [0, 1, 50, n - 1].into_iter().filter(|&f| f < n) {
        let ours = positions(original, f);
        let theirs: std::collections::HashMap<String, glam::Vec3> = positions(&back, f).into_iter().collect();
        for (i, (name, p)) in ours.into_iter().enumerate() {
            // BVH end sites are nameless: they come back as `<parent>/EndSite`.
            let joint = &original.skeleton.joints()[i];
            let end_name = joint.parent.map(|p| format!("{}/EndSite", original.skeleton.joints()[p].name)).unwrap_or_default();
            let q = theirs
                .get(&name)
                .or_else(|| joint.is_end_site.then(|| theirs.get(&end_name)).flatten())
                .unwrap_or_else(|| panic!("{what}: joint '{name}' missing after conversion"));
            assert!((p - *q).abs().max_element() <= tolerance, "{what} frame {f} joint {name}: {p:?} vs {q:?}");
        }
    }
}

#[test]
fn the_sample_round_trips_in_every_rotation_order() {
    let request = LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk01.bvh".into(), bytes: skelview_core::formats::SAMPLE_BVH.into() },
    );
    let m = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap();
    for order in ["ZXY", "XYZ", "XZY", "YXZ", "YZX", "ZYX"] {
        round_trip(&m, order, &format!("sample {order}"));
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_file_round_trips() {
    let Some(corpus) = common::corpus() else { return };
    for path in common::files(&corpus.join("bvh"), "bvh") {
        let m = formats::load(
            &LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone())),
            &LoadOptions::default(),
            &Sequential,
            &mut Quiet,
        )
        .unwrap();
        round_trip(&m, "ZXY", &path.display().to_string());
    }
    for (amc, asf) in common::ACCLAIM_PAIRS {
        let dir = corpus.join("asfamc");
        let request = LoadRequest {
            format: &skelview_core::formats::acclaim::Acclaim,
            sources: vec![Source::File(dir.join(asf)), Source::File(dir.join(amc))],
        };
        let m = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap();
        round_trip(&m, "ZXY", amc);
        let rest = LoadRequest::single(&skelview_core::formats::acclaim::Acclaim, Source::File(dir.join(asf)));
        round_trip(&formats::load(&rest, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap(), "XYZ", asf);
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn other_formats_round_trip() {
    let Some(corpus) = common::corpus() else { return };
    for dir in ["htr", "acl", "hanim"] {
        for entry in std::fs::read_dir(corpus.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let Ok(mut motions) = formats::load_paths(std::slice::from_ref(&path)) else { continue };
            round_trip(&motions.remove(0), "ZXY", &path.display().to_string());
        }
    }
}

#[test]
fn scaled_bones_keep_their_positions() {
    // An HTR whose hip scales its bone axis by 2 on frame 1: BVH has no scale, so the writer
    // moves the children with position channels instead.
    let text = "[Header]\nFileType htr\nDataType HTRS\nNumSegments 2\nNumFrames 2\nDataFrameRate 10\n\
                EulerRotationOrder ZYX\nCalibrationUnits cm\nRotationUnits Degrees\nBoneLengthAxis Y\n\
                [SegmentNames&Hierarchy]\nhip GLOBAL\nleg hip\n[BasePosition]\nhip 1 2 3 0 0 90 10\nleg 0 10 0 0 0 0 5\n\
                [hip]\n0 0 0 0 0 0 0 1\n1 1 0 0 90 90 0 2\n[leg]\n0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 -1\n[EndOfFile]\n";
    let source = Source::Memory { name: "scaled.htr".into(), bytes: text.as_bytes().into() };
    let m =
        formats::load(&LoadRequest::single(&skelview_core::formats::htr::Htr, source), &LoadOptions::default(), &Sequential, &mut Quiet)
            .unwrap();
    round_trip(&m, "ZXY", "scaled.htr");
    round_trip(&m, "XYZ", "scaled.htr");
}

#[test]
fn the_command_writes_a_file_or_nothing() {
    let dir = std::env::temp_dir().join(format!("skelview-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.bvh");
    std::fs::write(&input, skelview_core::formats::SAMPLE_BVH).unwrap();
    let out = dir.join("out.bvh");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["convert", input.to_str().unwrap(), out.to_str().unwrap(), "--order", "XYZ"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation"));
    std::fs::write(&input, "HIERARCHY\nROOT\n").unwrap();
    let bad_out = dir.join("bad.bvh");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["convert", input.to_str().unwrap(), bad_out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!bad_out.exists());
    std::fs::remove_dir_all(&dir).ok();
}
