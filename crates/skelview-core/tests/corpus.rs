//! Every corpus BVH and ASF/AMC file loads, and its joint positions agree with independent
//! implementations (tests/data/reference, see its README) within 1e-4 × the body's height.
//!
//! Conventions where the references disagree: BVH position channels REPLACE the OFFSET by
//! default (bvhio, Blender, pybvh); three.js ADDS them (the Meredith–Maddock wording), which
//! we offer as `--bvh-positions add`. On files with position channels on every joint
//! (Bandai-Namco, Perception Neuron) only "replace" gives a human-sized body, so it is the
//! default; each rule is checked against the library that uses it.

use skelview_test_support as support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::core::{Motion, PositionRule};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn load(request: LoadRequest, rule: PositionRule) -> Motion {
    let mut options = LoadOptions::default();
    options.format.set("bvh.positions", rule.name()).unwrap();
    formats::load(&request, &options, &Sequential, &mut Quiet).unwrap_or_else(|e| panic!("{e}"))
}

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference")
}

/// (joint, frame) → position, from a reference CSV.
fn read_reference(path: &Path) -> HashMap<(String, usize), [f64; 3]> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("joint,frame,x,y,z"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.rsplitn(5, ',').collect();
            let n = |s: &str| s.parse::<f64>().unwrap();
            ((f[4].to_owned(), f[3].parse().unwrap()), [n(f[2]), n(f[1]), n(f[0])])
        })
        .collect()
}

/// Compares every reference row with our raw global positions; returns the max error.
fn compare(motion: &Motion, reference: &HashMap<(String, usize), [f64; 3]>, what: &str) {
    let mut frames: Vec<usize> = reference.keys().map(|(_, f)| *f).collect();
    frames.sort();
    frames.dedup();
    assert_eq!(*frames.last().unwrap(), motion.clip.num_frames() - 1, "{what}: last frame");
    let height = motion.source.body_height.max(1.0) as f64;
    let tolerance = 1e-4 * height;
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    let mut worst = (0.0f64, String::new());
    let mut compared = 0;
    for &f in &frames {
        pose::frame_pose(&motion.skeleton, &motion.clip, f, &mut local);
        pose::global_pose(&motion.skeleton, &local, &mut global);
        for (i, joint) in motion.skeleton.joints().iter().enumerate() {
            let Some(r) = reference.get(&(joint.name.clone(), f)) else {
                panic!("{what}: reference has no row for joint '{}' frame {f}", joint.name);
            };
            let p = global.position(i);
            let err = (0..3).map(|k| (p[k] as f64 - r[k]).abs()).fold(0.0, f64::max);
            if err > worst.0 {
                worst = (err, format!("{} @ frame {f}: ours {p:?}, reference {r:?}", joint.name));
            }
            compared += 1;
        }
    }
    assert_eq!(compared, reference.len(), "{what}: every reference row matched a joint");
    assert!(worst.0 <= tolerance, "{what}: max error {} > {tolerance} (1e-4 × height {height}); worst {}", worst.0, worst.1);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_bvh_matches_bvhio_with_replace_and_threejs_with_add() {
    let Some(corpus) = support::corpus() else { return };
    let bvhs = support::files(&corpus.join("bvh"), "bvh");
    assert!(bvhs.len() >= 15, "corpus has its BVH files");
    for path in bvhs {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let replace = load(LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone())), PositionRule::Replace);
        let add = load(LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path.clone())), PositionRule::Add);
        compare(&replace, &read_reference(&reference_dir().join(format!("bvh/{stem}.bvhio.csv"))), &format!("{stem} vs bvhio"));
        compare(&add, &read_reference(&reference_dir().join(format!("bvh/{stem}.threejs.csv"))), &format!("{stem} vs three.js"));
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_acclaim_pair_matches_amcparser() {
    let Some(corpus) = support::corpus() else { return };
    for (amc, asf) in support::ACCLAIM_PAIRS {
        let dir = corpus.join("asfamc");
        let motion = load(
            LoadRequest {
                format: &skelview_core::formats::acclaim::Acclaim,
                sources: vec![Source::File(dir.join(asf)), Source::File(dir.join(amc))],
            },
            PositionRule::Replace,
        );
        let stem = amc.trim_end_matches(".amc");
        compare(&motion, &read_reference(&reference_dir().join(format!("asfamc/{stem}.amcparser.csv"))), &format!("{stem} vs AMCParser"));
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn amc_files_find_their_asf_automatically() {
    let Some(corpus) = support::corpus() else { return };
    for (amc, asf) in support::ACCLAIM_PAIRS {
        let path = corpus.join("asfamc").join(amc);
        let found = formats::acclaim::pairing::find_asf(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found.file_name().unwrap().to_string_lossy(), asf, "{amc}");
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn bodies_come_out_human_sized_and_upright_by_default() {
    let Some(corpus) = support::corpus() else { return };
    let mut requests: Vec<(String, LoadRequest)> = support::files(&corpus.join("bvh"), "bvh")
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("manipnet")) // a hand and a cup: not bodies
        .map(|p| (p.display().to_string(), LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(p))))
        .collect();
    for (amc, asf) in support::ACCLAIM_PAIRS {
        let dir = corpus.join("asfamc");
        requests.push((
            amc.into(),
            LoadRequest {
                format: &skelview_core::formats::acclaim::Acclaim,
                sources: vec![Source::File(dir.join(asf)), Source::File(dir.join(amc))],
            },
        ));
    }
    for (name, request) in requests {
        let m = load(request, PositionRule::Replace);
        let metres = m.source.body_height * m.metres_per_raw_unit();
        assert!((1.2..2.1).contains(&metres), "{name}: body height {metres} m");
        assert_eq!(m.source.up_axis, skelview_core::core::UpAxis::Y, "{name}");
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_file_reports_its_own_facts() {
    let Some(corpus) = support::corpus() else { return };
    // Frame counts and joint counts from the corpus's stats.tsv (joints there exclude end sites).
    let stats = std::fs::read_to_string(corpus.join("stats.tsv")).unwrap();
    let mut checked = 0;
    for line in stats.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if !f[0].ends_with(".bvh") {
            continue;
        }
        let m = load(LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(corpus.join(f[0]))), PositionRule::Replace);
        let rows: usize = f[2].parse().unwrap();
        let joints: usize = f[3].parse().unwrap();
        let fps: f64 = f[4].parse().unwrap();
        // stats.tsv counts the header's Frames:, we count rows (Boxing_Toes has one more).
        assert!(m.clip.num_frames() == rows || m.clip.num_frames() == rows + 1, "{}: {} frames", f[0], m.clip.num_frames());
        assert_eq!(m.skeleton.joints().iter().filter(|j| !j.is_end_site).count(), joints, "{}", f[0]);
        assert!((m.clip.fps() - fps).abs() < 0.01, "{}: fps {}", f[0], m.clip.fps());
        checked += 1;
    }
    assert_eq!(checked, 15);
}
