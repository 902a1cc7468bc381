//! Posed mesh vertices against three.js, the reference player (`tests/vrma/vertices.mjs`: its
//! GLTFLoader, an AnimationMixer on the take skelview plays, then each mesh's morph targets
//! and skin as three.js applies them, in world space). `skelview positions --vertices --raw`
//! must put every vertex of every drawn primitive where three.js does, within 1e-4 of the
//! model's size, at frames over the whole take: skinned (Fox, RiggedSimple, RiggedFigure,
//! Godette), rigid on joints with morph targets (RobotExpressive), rigid on a VRM 1.0's nodes
//! (debug_robot) and a hand-written skin (SimpleSkin).

use std::path::PathBuf;
use std::process::Command;

/// `tests/vrma` with three installed, or `None` with a note (a failure in CI).
fn player() -> Option<PathBuf> {
    skelview_test_support::vrma_players("three")
}

/// A corpus file's path, or `None` (skipped) without the corpus.
fn corpus(name: &str) -> Option<String> {
    skelview_test_support::corpus::corpus().map(|d| d.join(name).display().to_string())
}

fn run(c: &mut Command) -> String {
    skelview_test_support::output_of(c)
}

fn skelview(args: &[&str]) -> String {
    run(Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")))
}

/// Compares every vertex at four frames over the take; `tolerance` is relative to the size.
fn matches_three(file: &str, tolerance: f64) {
    let Some(player) = player() else { return };
    let info: serde_json::Value = serde_json::from_str(&skelview(&["info", "--json", file])).unwrap();
    let frames = info["frames"].as_u64().unwrap().max(1) as usize;
    let fps = info["fps"].as_f64().unwrap();
    // The take skelview plays, by its number (unnamed animations have no other name).
    let takes = info["takes"].as_array().unwrap();
    let take = takes.iter().position(|t| t["name"] == info["take"]).map_or_else(|| "-".to_owned(), |k| format!("#{k}"));
    let mut list: Vec<usize> = vec![0, frames / 3, 2 * frames / 3, frames - 1];
    list.dedup();
    let times: Vec<String> = list.iter().map(|&f| (f as f64 / fps).to_string()).collect();
    let three: serde_json::Value = serde_json::from_str(&run(Command::new("node")
        .arg(player.join("vertices.mjs"))
        .arg(file)
        .arg(&take)
        .args(&times)
        .current_dir(env!("CARGO_MANIFEST_DIR"))))
    .unwrap();
    let ours_meshes = info["meshes"].as_array().unwrap();
    let theirs_meshes = three["meshes"].as_array().unwrap();
    assert!(!ours_meshes.is_empty(), "{file}: no meshes read");
    assert_eq!(ours_meshes.len(), theirs_meshes.len(), "{file}: meshes");
    for (a, b) in ours_meshes.iter().zip(theirs_meshes) {
        assert_eq!(a["vertices"], b["vertices"], "{file}: vertices of {} / {}", a["name"], b["name"]);
    }
    let frame_list = list.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    let csv = skelview(&["positions", "--vertices", "--raw", "--frames", &frame_list, file]);
    // (frame, mesh) → vertices, from `mesh,vertex,frame,x,y,z`.
    let mut ours: std::collections::HashMap<(usize, usize), Vec<[f64; 3]>> = Default::default();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (mesh, frame) = (f[0].parse().unwrap(), f[2].parse().unwrap());
        ours.entry((frame, mesh)).or_default().push([f[3].parse().unwrap(), f[4].parse().unwrap(), f[5].parse().unwrap()]);
    }
    let all: Vec<f64> = three["frames"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["meshes"].as_array().unwrap().iter())
        .flat_map(|m| m.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()))
        .collect();
    let size = (0..3)
        .map(|c| {
            let axis = all.iter().skip(c).step_by(3);
            axis.clone().fold(f64::MIN, |a, &b| a.max(b)) - axis.fold(f64::MAX, |a, &b| a.min(b))
        })
        .fold(0.0, f64::max);
    let mut worst = (0.0, String::new());
    for (k, (&frame, theirs)) in list.iter().zip(three["frames"].as_array().unwrap()).enumerate() {
        for (mesh, m) in theirs["meshes"].as_array().unwrap().iter().enumerate() {
            let theirs: Vec<f64> = m.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            let ours = &ours[&(frame, mesh)];
            assert_eq!(ours.len() * 3, theirs.len(), "{file}: mesh {mesh} frame {frame}");
            for (v, (a, b)) in ours.iter().zip(theirs.chunks(3)).enumerate() {
                let d = (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max);
                if d > worst.0 {
                    worst = (d, format!("mesh {mesh} vertex {v} at frame {frame} (time {}): skelview {a:?}, three.js {b:?}", times[k]));
                }
            }
        }
    }
    assert!(worst.0 <= tolerance * size, "{file}: {} off ({:.2e} of the size {size}): {}", worst.0, worst.0 / size, worst.1);
}

#[test]
fn skinned_fox_matches_three_js() {
    if let Some(f) = corpus("gltf/Fox.glb") {
        matches_three(&f, 1e-4);
    }
}

#[test]
fn rigged_simple_under_matrix_nodes_matches_three_js() {
    if let Some(f) = corpus("gltf/RiggedSimple_embedded.gltf") {
        matches_three(&f, 1e-4);
    }
}

/// The file's quaternions are not of unit length (0.707, 0.707): three.js uses them as they
/// are, which scales the bone by up to 0.03 %; skelview makes them unit, as glTF says they are.
#[test]
fn hand_written_simple_skin_matches_three_js_up_to_its_unnormalised_quaternions() {
    if let Some(f) = corpus("gltf/SimpleSkin_embedded.gltf") {
        matches_three(&f, 5e-4);
    }
}

#[test]
fn rigged_figure_matches_three_js() {
    matches_three("tests/data/avatars/RiggedFigure.glb", 1e-4);
}

#[test]
fn robot_with_rigid_parts_and_morph_targets_matches_three_js() {
    matches_three("tests/data/avatars/RobotExpressive.glb", 1e-4);
}

/// A capture retargeted onto a character is written with the character's meshes: three.js
/// plays it on them as skelview shows it (skinned, rigid parts and morph targets).
#[test]
fn a_capture_retargeted_onto_characters_plays_on_their_meshes_in_three_js() {
    let dir = tempfile::tempdir().unwrap();
    for character in
        ["tests/data/avatars/RiggedFigure.glb", "tests/data/avatars/RobotExpressive.glb", "tests/data/avatars/Godette_vrm_v4.vrm"]
    {
        let out = dir.path().join("on.glb");
        let out = out.to_str().unwrap();
        skelview(&["retarget", "assets/walk01.bvh", "--onto", character, "-o", out]);
        let theirs: serde_json::Value = serde_json::from_str(&skelview(&["info", "--json", character])).unwrap();
        let ours: serde_json::Value = serde_json::from_str(&skelview(&["info", "--json", out])).unwrap();
        assert_eq!(ours["meshes"], theirs["meshes"], "{character}: the same meshes written");
        matches_three(out, 1e-4);
    }
}

#[test]
fn vrm_avatars_match_three_js() {
    matches_three("tests/data/avatars/Godette_vrm_v4.vrm", 1e-4);
    matches_three("tests/data/avatars/debug_robot.vrm", 1e-4);
}
