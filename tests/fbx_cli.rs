//! The command line on FBX files: a damaged file exits 2 naming the file, `convert` writes a
//! take's positions to BVH unchanged, `info --json` lists takes, units and axes. The reader
//! itself is tested in skelview-core (tests/fbx_format.rs).

use glam::Vec3;
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::formats::{self, LoadOptions, Sequential};
use std::path::Path;

mod common;

fn load_with(path: &Path, take: Option<&str>) -> Motion {
    let options = LoadOptions { take: take.map(str::to_owned), ..Default::default() };
    formats::open_one(path, &options, &Sequential).unwrap_or_else(|e| panic!("{e}"))
}

fn positions(m: &Motion, frame: usize) -> Vec<Vec3> {
    Sampler::default().positions(m, PoseAt::Frame(frame), Interpolation::Nearest, m.display_from_file()).to_vec()
}

#[test]
fn a_damaged_fbx_exits_2_with_the_file_and_ufbx_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.fbx");
    // A binary FBX 7.4 header and nothing after it.
    let mut bytes = b"Kaydara FBX Binary  \x00\x1a\x00".to_vec();
    bytes.extend_from_slice(&7400u32.to_le_bytes());
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(["info", path.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("short.fbx") && stderr.contains("FBX"), "{stderr}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn corpus_fbx_converts_to_bvh_with_the_same_positions() {
    let Some(corpus) = common::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let source = corpus.join("fbx/ozz_pab_locomotions.fbx");
    let out = dir.path().join("walk.bvh");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["convert", source.to_str().unwrap(), out.to_str().unwrap(), "--take", "walk"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let a = load_with(&source, Some("walk"));
    let b = load_with(&out, None);
    assert_eq!(a.clip.num_frames(), b.clip.num_frames());
    for f in [0, 20, a.clip.num_frames() - 1] {
        let (pa, pb) = (positions(&a, f), positions(&b, f));
        for (j, joint) in a.skeleton.joints().iter().enumerate() {
            let k = b.skeleton.find(&joint.name).unwrap_or_else(|| panic!("{} missing in the BVH", joint.name));
            assert!((pa[j] - pb[k]).length() < 1e-4, "frame {f} {}: {} against {}", joint.name, pa[j], pb[k]);
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn info_json_lists_the_takes_and_the_declared_units_and_axes() {
    let Some(corpus) = common::corpus() else { return };
    let run = |file: &str| {
        let path = corpus.join("fbx").join(file);
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(["info", "--json", path.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let v = run("ozz_pab_locomotions.fbx");
    let takes: Vec<&str> = v["takes"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(takes, ["jog", "run", "walk"]);
    assert_eq!((v["unit"].as_str(), v["unit_detected"].as_bool()), (Some("cm"), Some(false)));
    // 3ds Max: Z up, declared, and shown as such.
    let v = run("ufbx_max_transformed_skin_6100_binary.fbx");
    assert_eq!((v["up_axis"].as_str(), v["up_detected"].as_bool()), (Some("Z"), Some(false)), "{v}");
    let details = v["details"].to_string();
    assert!(details.contains("up +Z, front -Y, right +X (right-handed)"), "{details}");
}
