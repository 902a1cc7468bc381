//! A capture put on a VRM avatar and written as `.vrm`, loaded by three-vrm (the reference VRM
//! loader, `tests/vrma/avatar_out.mjs`): the same meta and licence, every humanoid bone on a
//! node of the same name, every expression reaching as many primitives as in the avatar and
//! moving its morph targets, and the file's animation, played by three.js, putting each
//! humanoid bone where `skelview positions` puts the joint (1e-4 m) at frames over the take.
//! On a VRM 0.x (Godette) and a VRM 1.0 (debug_robot) avatar; the Khronos validator finds no
//! error and no warning but VRM 0.x's own extension name (`VRM` has no vendor prefix).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/vrma` with @pixiv/three-vrm installed, or `None` with a note (a failure in CI).
fn player() -> Option<PathBuf> {
    skelview_test_support::vrma_players("@pixiv/three-vrm")
}

fn run(c: &mut Command) -> String {
    skelview_test_support::output_of(c)
}

fn skelview(args: &[&str]) -> String {
    run(Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")))
}

fn loaded(player: &Path, file: &str, times: &[String]) -> serde_json::Value {
    serde_json::from_str(&run(Command::new("node").arg(player.join("avatar_out.mjs")).arg(file).args(times))).unwrap()
}

/// A node's name as three.js names its object (`PropertyBinding.sanitizeNodeName`).
fn sanitized(name: &str) -> String {
    name.chars().filter(|c| !"[].:/".contains(*c)).map(|c| if c.is_whitespace() { '_' } else { c }).collect()
}

#[test]
fn a_capture_on_a_vrm_avatar_written_as_vrm_keeps_the_avatar_for_three_vrm() {
    let Some(player) = player() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for avatar in ["tests/data/avatars/Godette_vrm_v4.vrm", "tests/data/avatars/debug_robot.vrm"] {
        let out = dir.path().join(format!("{}.vrm", Path::new(avatar).file_stem().unwrap().to_string_lossy()));
        let out = out.display().to_string();
        skelview(&["retarget", "assets/walk01.bvh", "--onto", avatar, "-o", &out]);
        // The sample: 101 frames at 24 fps.
        let frames = [0usize, 33, 67, 100];
        let times: Vec<String> = frames.iter().map(|f| (*f as f64 / 24.0).to_string()).collect();
        let source = loaded(&player, avatar, &[]);
        let written = loaded(&player, &out, &times);
        assert_eq!(source["meta"], written["meta"], "{avatar}: meta");
        assert_eq!(source["bones"], written["bones"], "{avatar}: humanoid bones");
        let expressions = source["expressions"].as_object().unwrap();
        assert_eq!(expressions.len(), written["expressions"].as_object().unwrap().len(), "{avatar}: expressions");
        for (name, e) in expressions {
            let w = &written["expressions"][name];
            assert_eq!((&e["primitives"], &e["changes"]), (&w["primitives"], &w["changes"]), "{avatar}: expression {name}");
        }
        let list = frames.map(|f| f.to_string()).join(",");
        let csv = skelview(&["positions", &out, "--frames", &list]);
        let bones = written["bones"].as_object().unwrap();
        for (k, frame) in frames.iter().enumerate() {
            let mut compared = 0;
            for (bone, node) in bones {
                let theirs: Vec<f64> =
                    written["frames"][k]["bones"][bone].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                let row = csv
                    .lines()
                    .map(|l| l.split(',').collect::<Vec<_>>())
                    .find(|f| sanitized(f[0]) == node.as_str().unwrap() && f[1] == frame.to_string())
                    .unwrap_or_else(|| panic!("{avatar}: no joint {node} at frame {frame}"));
                let ours: Vec<f64> = row[2..5].iter().map(|x| x.parse().unwrap()).collect();
                let d = ours.iter().zip(&theirs).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
                assert!(d < 1e-4, "{avatar}: {bone} ({node}) at frame {frame}: {ours:?} against three.js {theirs:?}");
                compared += 1;
            }
            assert!(compared >= 40, "{avatar}: {compared} bones");
        }
        outputs.push(out);
    }
    let validator = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validator/validate.js");
    let o = Command::new("node").arg(validator).args(&outputs).output().unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(report.lines().filter(|l| l.contains(": 0 errors")).count(), outputs.len(), "{report}");
    let warnings: Vec<&str> = report.lines().filter(|l| l.trim_start().starts_with("warning")).collect();
    assert!(warnings.iter().all(|w| w.contains("INVALID_EXTENSION_NAME_FORMAT /extensionsUsed/")), "{report}");
}

#[test]
fn a_vrm_is_written_only_from_a_vrm_avatar() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.vrm");
    let o = Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["convert", "assets/walk01.bvh", out.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("a .vrm needs a VRM avatar") && err.contains("retarget onto a .vrm"), "{err}");
    assert!(!out.exists());
}
