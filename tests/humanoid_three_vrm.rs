//! skelview's VRM animations in three-vrm, the reference player (`tests/vrma`: three.js with
//! `@pixiv/three-vrm` and `@pixiv/three-vrm-animation` from npm, run in Node): a walk put on a
//! VRM avatar and written as a VRMA, played by three-vrm on that avatar, moves each humanoid
//! bone where skelview's own retarget onto the avatar puts it (within 2°, the hips within a
//! centimetre), at frames over the whole take; the Khronos validator finds no error in it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// `tests/vrma` with its npm packages (`npm install` there; `.ci/run` does it), or `None`
/// with a note (a failure in CI).
fn player() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vrma");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if node && dir.join("node_modules/@pixiv/three-vrm-animation").is_dir() {
        return Some(dir);
    }
    assert!(!ci(), "CI needs Node.js and three-vrm (cd tests/vrma && npm install)");
    eprintln!("skipping: no three-vrm (install Node.js, then: cd tests/vrma && npm install)");
    None
}

fn run(c: &mut Command) -> String {
    let o = c.output().unwrap();
    assert!(o.status.success(), "{c:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn skelview(args: &[&str]) -> String {
    run(Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")))
}

/// Bone → position at `frame`, from `skelview positions` CSV (`joint,frame,x,y,z`), the
/// avatar's joints named `J_<bone>`.
fn positions(csv: &str, frame: usize) -> std::collections::HashMap<String, [f64; 3]> {
    csv.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1].parse::<usize>().ok()? == frame)
                .then(|| (f[0].trim_start_matches("J_").to_owned(), [f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].parse().unwrap()]))
        })
        .collect()
}

fn angle_deg(a: [f64; 3], b: [f64; 3]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let len = |v: [f64; 3]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    (dot / (len(a) * len(b))).clamp(-1.0, 1.0).acos().to_degrees()
}

#[test]
fn three_vrm_plays_our_vrma_on_the_avatar_as_skelview_retargets_it() {
    let Some(player) = player() else { return };
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    run(Command::new("node").arg(player.join("avatar.mjs")).arg(p("avatar.vrm")));
    skelview(&["retarget", "assets/walk01.bvh", "--onto", &p("avatar.vrm"), "-o", &p("walk.vrma")]);
    skelview(&["retarget", "assets/walk01.bvh", "--onto", &p("avatar.vrm"), "-o", &p("walk_on_avatar.glb")]);
    // The sample: 101 frames at 24 fps; every tenth frame, the last included.
    let frames: Vec<usize> = (0..101).step_by(10).chain([100]).collect();
    let times: Vec<String> = frames.iter().map(|f| format!("{}", *f as f64 / 24.0)).collect();
    let played = run(Command::new("node").arg(player.join("play.mjs")).arg(p("avatar.vrm")).arg(p("walk.vrma")).args(&times));
    let played: serde_json::Value = serde_json::from_str(&played).unwrap();
    let list = frames.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(",");
    let ours = skelview(&["positions", &p("walk_on_avatar.glb"), "--frames", &list]);
    let pairs = [
        ("hips", "spine"),
        ("spine", "chest"),
        ("chest", "upperChest"),
        ("upperChest", "neck"),
        ("neck", "head"),
        ("leftUpperLeg", "leftLowerLeg"),
        ("leftLowerLeg", "leftFoot"),
        ("leftFoot", "leftToes"),
        ("rightUpperLeg", "rightLowerLeg"),
        ("rightLowerLeg", "rightFoot"),
        ("rightFoot", "rightToes"),
        ("leftShoulder", "leftUpperArm"),
        ("leftUpperArm", "leftLowerArm"),
        ("leftLowerArm", "leftHand"),
        ("rightShoulder", "rightUpperArm"),
        ("rightUpperArm", "rightLowerArm"),
        ("rightLowerArm", "rightHand"),
    ];
    let mut worst = (0.0f64, String::new());
    for (k, &frame) in frames.iter().enumerate() {
        let theirs = &played["frames"][k]["bones"];
        let at = |b: &str| -> [f64; 3] {
            let v = theirs[b].as_array().unwrap_or_else(|| panic!("three-vrm has no {b}"));
            [v[0].as_f64().unwrap(), v[1].as_f64().unwrap(), v[2].as_f64().unwrap()]
        };
        let mine = positions(&ours, frame);
        for (a, b) in pairs {
            let d = |p: [f64; 3], q: [f64; 3]| [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
            let e = angle_deg(d(at(a), at(b)), d(mine[a], mine[b]));
            if e > worst.0 {
                worst = (e, format!("{a} at frame {frame}"));
            }
        }
        let (h, m) = (at("hips"), mine["hips"]);
        let off = ((h[0] - m[0]).powi(2) + (h[1] - m[1]).powi(2) + (h[2] - m[2]).powi(2)).sqrt();
        assert!(off < 0.01, "frame {frame}: the hips {off} m from skelview's");
    }
    assert!(worst.0 < 2.0, "largest bone direction difference {:.2}° ({})", worst.0, worst.1);
    // The Khronos validator finds no error in the VRMA (tests/validator, as for glTF exports).
    let validator = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validator");
    if validator.join("node_modules/gltf-validator").is_dir() {
        let report = Command::new("node").arg(validator.join("validate.js")).arg(p("walk.vrma")).output().unwrap();
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(text.contains(": 0 errors"), "{text}{}", String::from_utf8_lossy(&report.stderr));
    } else {
        assert!(!ci(), "CI installs the glTF validator");
    }
}
