//! glTF export round trips: every corpus file of every format → `.glb` → loaded back gives
//! the same joint names, the same takes, and the same positions (metres, Y up) within 1e-5 of
//! the body's height at frames 0, 1, the middle and the last; `convert` writes `.gltf` + `.bin`
//! too, and refuses other endings.

use std::path::{Path, PathBuf};

use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::export::gltf_writer::{Animation, document, write_glb};
use skelview_core::formats;

mod common;

fn positions(m: &Motion, frame: usize) -> Vec<glam::Vec3> {
    Sampler::default().positions(m, PoseAt::Frame(frame), Interpolation::Nearest, m.display_from_file()).to_vec()
}

/// Writes `m` (one take) as GLB into `dir` and loads it back.
fn round_trip(m: &Motion, dir: &Path, name: &str) -> Motion {
    let (doc, bin) = document(&[Animation { name: "take".into(), motion: m }]).unwrap();
    let path = dir.join(format!("{name}.glb"));
    let mut bytes = Vec::new();
    write_glb(&doc, &bin, &mut bytes).unwrap();
    std::fs::write(&path, bytes).unwrap();
    formats::load_paths(&[path]).unwrap_or_else(|e| panic!("{name}: {e}")).remove(0)
}

fn same_positions(a: &Motion, b: &Motion, what: &str) {
    let names = |m: &Motion| m.skeleton.joints().iter().map(|j| j.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(a), names(b), "{what}: joint names");
    let n = a.clip.num_frames().max(1);
    assert_eq!(n, b.clip.num_frames().max(1), "{what}: frames");
    let height = (a.source.body_height * a.metres_per_raw_unit()).max(0.1);
    for f in [0, 1.min(n - 1), n / 2, n - 1] {
        let (pa, pb) = (positions(a, f), positions(b, f));
        for (j, (x, y)) in pa.iter().zip(&pb).enumerate() {
            if !x.is_finite() {
                continue;
            }
            let d = (*x - *y).abs().max_element();
            assert!(
                d <= 1e-5 * height.max(1.0) + 2e-6 * x.abs().max_element(),
                "{what} frame {f} joint {}: {x} against {y} ({d} m)",
                a.skeleton.joints()[j].name
            );
        }
    }
}

fn corpus_motions(corpus: &Path) -> Vec<(PathBuf, Motion)> {
    let mut out = Vec::new();
    for (dir, ext) in [
        ("bvh", "bvh"),
        ("asfamc", "amc"),
        ("htr", "htr"),
        ("htr", "gtr"),
        ("acl", "sjson"),
        ("acl", "zip"),
        ("hanim", "x3d"),
        ("hanim", "x3dv"),
        ("hanim", "wrl"),
        ("gltf", "gltf"),
        ("gltf", "glb"),
        ("fbx", "fbx"),
    ] {
        let d = corpus.join(dir);
        if !d.is_dir() {
            continue;
        }
        for path in common::files(&d, ext) {
            // Files that hold no skeleton animation (two ACL files) are errors elsewhere.
            if let Ok(mut m) = formats::load_paths(std::slice::from_ref(&path)) {
                out.push((path, m.remove(0)));
            }
        }
    }
    out
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_file_round_trips_through_glb() {
    let Some(corpus) = common::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let motions = corpus_motions(&corpus);
    assert!(motions.len() >= 40, "{} files", motions.len());
    for (k, (path, m)) in motions.iter().enumerate() {
        let back = round_trip(m, dir.path(), &format!("f{k}"));
        same_positions(m, &back, &path.display().to_string());
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn convert_keeps_every_take_and_writes_gltf_with_a_bin() {
    let Some(corpus) = common::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let skelview = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).output().unwrap();
    let fox = corpus.join("gltf/Fox.glb");
    let out = dir.path().join("fox.glb");
    let o = skelview(&["convert", fox.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let back = formats::load_paths(std::slice::from_ref(&out)).unwrap().remove(0);
    let takes: Vec<&str> = back.source.takes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(takes, ["Survey", "Walk", "Run"]);
    // Each take plays the same as the source's.
    for take in ["Walk", "Run"] {
        let options = formats::LoadOptions { take: Some(take.into()), ..Default::default() };
        let load = |p: &Path| {
            let r = formats::LoadRequest::from_paths(&[p.to_owned()]).remove(0).unwrap();
            formats::load(&r, &options, &formats::Sequential, &mut formats::Quiet).unwrap()
        };
        same_positions(&load(&fox), &load(&out), take);
    }
    // .gltf writes its buffer beside it; the BVH sample comes back the same.
    let gltf = dir.path().join("walk.gltf");
    let o = skelview(&["convert", "assets/walk01.bvh", gltf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.path().join("walk.bin").is_file());
    let a = formats::load_paths(&[PathBuf::from("assets/walk01.bvh")]).unwrap().remove(0);
    let b = formats::load_paths(&[gltf]).unwrap().remove(0);
    same_positions(&a, &b, "walk01 as .gltf");
    assert_eq!(skelview(&["convert", "assets/walk01.bvh", "x.obj"]).status.code(), Some(2));
}

/// The Khronos validator, when `tests/validator` has it installed (`npm install` there;
/// `.ci/run` does it): `None` with a note outside CI when it is missing.
fn validator() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validator");
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if node && dir.join("node_modules/gltf-validator").is_dir() {
        return Some(dir.join("validate.js"));
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("CI needs Node.js and the glTF validator (cd tests/validator && npm install)");
    }
    eprintln!("skipping: no glTF validator (install Node.js, then: cd tests/validator && npm install)");
    None
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn exports_pass_the_khronos_validator_with_no_error_or_warning() {
    let Some(corpus) = common::corpus() else { return };
    let Some(script) = validator() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for (k, (path, m)) in corpus_motions(&corpus).iter().enumerate() {
        let (doc, bin) = document(&[Animation { name: "take".into(), motion: m }]).unwrap();
        let out = dir.path().join(format!("{k}_{}.glb", path.file_name().unwrap().to_string_lossy()));
        let mut bytes = Vec::new();
        write_glb(&doc, &bin, &mut bytes).unwrap();
        std::fs::write(&out, bytes).unwrap();
        outputs.push(out);
    }
    // A .gltf with its .bin and every take of the Fox, through the command line.
    let gltf = dir.path().join("fox.gltf");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["convert", corpus.join("gltf/Fox.glb").to_str().unwrap(), gltf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    outputs.push(gltf);
    // A capture put on characters: their meshes, skins, materials and textures written too.
    for character in
        ["tests/data/avatars/RiggedFigure.glb", "tests/data/avatars/Godette_vrm_v4.vrm", "tests/data/avatars/RobotExpressive.glb"]
    {
        let out = dir.path().join(format!("on_{}.glb", Path::new(character).file_stem().unwrap().to_string_lossy()));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
            .args(["retarget", "assets/walk01.bvh", "--onto", character, "-o", out.to_str().unwrap()])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outputs.push(out);
    }
    let o = std::process::Command::new("node").arg(&script).args(&outputs).output().unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "the validator found errors or warnings:\n{report}{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(report.lines().filter(|l| l.contains(": 0 errors, 0 warnings")).count(), outputs.len(), "{report}");
}
