//! Comparing captures: zero for a file against itself, against a copy renamed with a
//! namespace prefix, rewritten in another Euler order, or shifted in time (with the matching
//! offset); an ASF/AMC take against its BVH conversion matches joints automatically.

mod common;

use skelview_core::compare::{Align, MatchKind, compare};
use skelview_core::core::Motion;
use skelview_core::export::{BvhWriteOptions, write_bvh};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn load_text(name: &str, text: &[u8]) -> Motion {
    skelview_core::formats::open_bytes(name, text, &LoadOptions::default()).unwrap()
}

fn sample() -> (Motion, String) {
    let text = String::from_utf8(skelview_core::formats::SAMPLE_BVH.to_vec()).unwrap();
    (load_text("walk01.bvh", text.as_bytes()), text)
}

#[test]
fn a_file_against_itself_is_exactly_zero() {
    let (a, _) = sample();
    let c = compare(&a, &a, Align::RootsAndHeading, 0.0);
    assert_eq!(c.pairs.len(), a.skeleton.len());
    assert!(c.pairs.iter().all(|p| p.2 == MatchKind::Exact));
    assert_eq!((c.mpjpe(), c.max()), (0.0, 0.0));
    assert_eq!(c.frames.len(), 101);
}

#[test]
fn renamed_with_a_prefix_is_zero() {
    let (a, text) = sample();
    let renamed = text.replace("ROOT ", "ROOT mixamorig:").replace("JOINT ", "JOINT mixamorig:");
    let b = load_text("renamed.bvh", renamed.as_bytes());
    let c = compare(&a, &b, Align::None, 0.0);
    assert_eq!(c.pairs.len(), a.skeleton.len(), "every joint matched");
    assert!(c.pairs.iter().filter(|p| p.2 == MatchKind::Folded).count() >= 19);
    assert!(c.max() < 1e-6, "{}", c.max());
}

#[test]
fn another_euler_order_is_zero_to_float_precision() {
    let (a, _) = sample();
    for order in ["XYZ", "YZX", "ZYX"] {
        let mut out = Vec::new();
        write_bvh(&a, &BvhWriteOptions { order: BvhWriteOptions::parse_order(order).unwrap() }, &mut out).unwrap();
        let b = load_text("reordered.bvh", &out);
        let c = compare(&a, &b, Align::None, 0.0);
        assert_eq!(c.pairs.len(), a.skeleton.len());
        assert!(c.max() < 1e-5, "{order}: max {} m", c.max());
    }
}

#[test]
fn a_time_shifted_copy_is_zero_after_the_matching_offset() {
    let (a, text) = sample();
    // Drop the first 12 motion rows: the copy starts 12 frames later.
    let (head, rows) = text.split_at(text.find("Frame Time").unwrap());
    let (time_line, rows) = rows.split_at(rows.find('\n').unwrap() + 1);
    let kept: Vec<&str> = rows.lines().filter(|l| !l.trim().is_empty()).skip(12).collect();
    let shifted = format!("{}{}{}\n", head.replace("Frames: 101", &format!("Frames: {}", kept.len())), time_line, kept.join("\n"));
    let b = load_text("shifted.bvh", shifted.as_bytes());
    let offset = 12.0 * a.clip.frame_time_secs;
    let unaligned = compare(&a, &b, Align::None, 0.0);
    assert!(unaligned.max() > 0.05, "without the offset the poses differ");
    let c = compare(&a, &b, Align::None, offset);
    assert_eq!(c.frames.len(), 101 - 12);
    assert!(c.max() < 1e-5, "{}", c.max());
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn an_asf_amc_take_and_its_bvh_conversion_match_automatically() {
    let Some(corpus) = common::corpus() else { return };
    let dir = corpus.join("asfamc");
    let request = LoadRequest {
        format: &skelview_core::formats::acclaim::Acclaim,
        sources: vec![Source::File(dir.join("cmu_backflip.asf")), Source::File(dir.join("cmu_backflip.amc"))],
    };
    let asf = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap();
    let mut out = Vec::new();
    write_bvh(&asf, &BvhWriteOptions::default(), &mut out).unwrap();
    let bvh = load_text("backflip.bvh", &out);
    let c = compare(&asf, &bvh, Align::None, 0.0);
    assert!(c.pairs.len() >= 17, "{:?}", c.pairs);
    assert!(c.max() < 1e-4, "{}", c.max());
}

#[test]
fn the_command_prints_mpjpe_first_and_csv_on_request() {
    let dir = std::env::temp_dir().join(format!("skelview-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.bvh");
    std::fs::write(&a, skelview_core::formats::SAMPLE_BVH).unwrap();
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).arg("compare").arg(&a).arg(&a).args(extra).output().unwrap()
    };
    let o = run(&["--align", "roots"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().next(), Some("MPJPE mean 0 max 0 m"));
    let o = run(&["--csv"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().next(), Some("frame,time,joint_a,joint_b,error_m"));
    assert_eq!(out.lines().count(), 1 + 101 * 24);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_mnm_map_matches_renamed_joints() {
    let (_, text) = sample();
    let renamed = text
        .replace("JOINT Spine1", "JOINT torso_upper")
        .replace("JOINT Spine\n", "JOINT abdomen\n")
        .replace("JOINT Spine\r\n", "JOINT abdomen\r\n");
    let b = load_text("renamed.bvh", renamed.as_bytes());
    let dir = std::env::temp_dir().join(format!("skelview-mnm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pa, pb, map) = (dir.join("a.bvh"), dir.join("b.bvh"), dir.join("map.mnm"));
    std::fs::write(&pa, &text).unwrap();
    std::fs::write(&pb, &renamed).unwrap();
    std::fs::write(&map, "Hips\nSpine abdomen\nSpine1 torso_upper\n").unwrap();
    assert!(b.skeleton.find("torso_upper").is_some() && b.skeleton.find("abdomen").is_some());
    let run = |extra: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).arg("compare").arg(&pa).arg(&pb).args(extra).output().unwrap()
    };
    let without = String::from_utf8_lossy(&run(&[]).stdout).into_owned();
    let with = String::from_utf8_lossy(&run(&["--mnm".as_ref(), map.as_os_str()]).stdout).into_owned();
    assert!(!without.contains("Spine1 = torso_upper"), "{without}");
    assert!(with.contains("Spine1 = torso_upper (name map)") && with.contains("Spine = abdomen (name map)"), "{with}");
    assert!(with.starts_with("MPJPE mean 0 max 0 m"), "{with}");
    std::fs::write(&map, "\n# empty\n").unwrap();
    let o = run(&["--mnm".as_ref(), map.as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("map.mnm:1:1: expected at least one line"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// CMU 01_01's markers against the skeleton solved from them: with the capture's X_SCREEN
/// turned to +Y (the cgspeed BVH's axes) the markers sit on the skeleton, as read they do not.
#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn a_capture_against_its_solved_skeleton_fits_once_its_axes_agree() {
    use skelview_core::compare::marker_fit;
    let Some(corpus) = common::corpus() else { return };
    let load = |rel: &str, options: &LoadOptions| {
        formats::load(&LoadRequest::file(corpus.join(rel)).unwrap(), options, &Sequential, &mut Quiet).unwrap()
    };
    let skeleton = load("bvh/cmu_cgspeed_01_01.bvh", &LoadOptions::default());
    let as_read = load("c3d/cmu_01_01_float.c3d", &LoadOptions::default());
    let mut turned = LoadOptions::default();
    turned.format.set("c3d.x_screen", "+Y").unwrap();
    let aligned = load("c3d/cmu_01_01_float.c3d", &turned);
    let fit = marker_fit(&aligned, &skeleton, 0.0).unwrap();
    let off = marker_fit(&as_read, &skeleton, 0.0).unwrap();
    assert!(fit.frames.len() > 2700);
    assert!(fit.mean() < 0.12, "markers sit on the skeleton: {} m", fit.mean());
    assert!(off.mean() > 3.0 * fit.mean(), "turned 90° they do not: {} vs {}", off.mean(), fit.mean());
    // The head markers are nearest the head.
    let per = fit.per_marker();
    let lfhd = aligned.skeleton.joints().iter().position(|j| j.name == "LFHD").unwrap();
    let (_, _, joint) = per[lfhd].unwrap();
    assert!(skeleton.skeleton.joints()[joint].name.to_lowercase().contains("head"), "{}", skeleton.skeleton.joints()[joint].name);
    // And the command line says the same.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["compare", "--format-option", "c3d.x_screen=+Y"])
        .arg(corpus.join("c3d/cmu_01_01_float.c3d"))
        .arg(corpus.join("bvh/cmu_cgspeed_01_01.bvh"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("marker to nearest joint: mean "), "{text}");
}
