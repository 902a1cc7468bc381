//! skelview's VRM animations in three-vrm, the reference player (`tests/vrma`: three.js with
//! `@pixiv/three-vrm` and `@pixiv/three-vrm-animation` from npm, run in Node): a walk put on a
//! VRM avatar and written as a VRMA, played by three-vrm on that avatar, moves each humanoid
//! bone where skelview's own retarget onto the avatar puts it (within 2°, the hips within a
//! centimetre), at frames over the whole take, on a generated avatar and on two made
//! elsewhere (VRM 0.x and 1.0); the Khronos validator finds no error in it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/vrma` with @pixiv/three-vrm-animation installed, or `None` with a note (a failure in CI).
fn player() -> Option<PathBuf> {
    skelview_test_support::vrma_players("@pixiv/three-vrm-animation")
}

fn run(c: &mut Command) -> String {
    skelview_test_support::output_of(c)
}

fn skelview(args: &[&str]) -> String {
    run(Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")))
}

/// Bone → position at `frame`, from `skelview positions` CSV (`joint,frame,x,y,z`) and the
/// avatar's joint of each bone (`bones`: joint name → bone).
fn positions(csv: &str, frame: usize, bones: &HashMap<String, String>) -> HashMap<String, [f64; 3]> {
    csv.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let bone = bones.get(f[0])?;
            (f[1].parse::<usize>().ok()? == frame)
                .then(|| (bone.clone(), [f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].parse().unwrap()]))
        })
        .collect()
}

/// Joint name → humanoid bone of `avatar`, as `skelview info --humanoid` lists them.
fn bone_of_joint(avatar: &str) -> HashMap<String, String> {
    let info = skelview(&["info", "--humanoid", avatar]);
    info.lines()
        .skip_while(|l| !l.starts_with("humanoid bones:"))
        .skip(1)
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let (bone, joint) = (words.next()?, words.next()?);
            words.next().is_some_and(|how| how.starts_with('(')).then(|| (joint.to_owned(), bone.to_owned()))
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
    let walk = plays_as_skelview_shows(&player, &p("avatar.vrm"), dir.path());
    // The Khronos validator finds no error in the VRMA (tests/validator, as for glTF exports).
    let validator = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validator");
    if validator.join("node_modules/gltf-validator").is_dir() {
        let report = Command::new("node").arg(validator.join("validate.js")).arg(&walk).output().unwrap();
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(text.contains(": 0 errors"), "{text}{}", String::from_utf8_lossy(&report.stderr));
    } else {
        assert!(!skelview_test_support::ci(), "CI installs the glTF validator");
    }
}

/// Real avatars made elsewhere (`tests/data/avatars`): a VRM 0.x (three-vrm turns it to face
/// +Z, as players do) and a VRM 1.0 whose legs hang above its hips.
#[test]
fn three_vrm_plays_our_vrma_on_real_avatars_as_skelview_retargets_them() {
    let Some(player) = player() else { return };
    let dir = tempfile::tempdir().unwrap();
    for avatar in ["Godette_vrm_v4.vrm", "debug_robot.vrm"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/avatars").join(avatar);
        plays_as_skelview_shows(&player, &path.display().to_string(), dir.path());
    }
}

/// The sample walk put on `avatar` and written as a VRMA, played by three-vrm on the avatar:
/// each humanoid bone's direction within 2° of skelview's own retarget, the hips within a
/// centimetre. Returns the VRMA's path.
fn plays_as_skelview_shows(player: &Path, avatar: &str, dir: &Path) -> String {
    let stem = Path::new(avatar).file_stem().unwrap().to_string_lossy().into_owned();
    let p = |name: &str| dir.join(format!("{stem}_{name}")).display().to_string();
    skelview(&["retarget", "assets/walk01.bvh", "--onto", avatar, "-o", &p("walk.vrma")]);
    skelview(&["retarget", "assets/walk01.bvh", "--onto", avatar, "-o", &p("walk_on_avatar.glb")]);
    let bones = bone_of_joint(avatar);
    // The sample: 101 frames at 24 fps; every tenth frame, the last included.
    let frames: Vec<usize> = (0..101).step_by(10).chain([100]).collect();
    let times: Vec<String> = frames.iter().map(|f| format!("{}", *f as f64 / 24.0)).collect();
    let played = run(Command::new("node").arg(player.join("play.mjs")).arg(avatar).arg(p("walk.vrma")).args(&times));
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
        let mine = positions(&ours, frame, &bones);
        let mut compared = 0;
        for (a, b) in pairs {
            // A bone the avatar lacks (Godette has no upper chest) is in neither.
            if theirs[a].is_null() || theirs[b].is_null() {
                continue;
            }
            assert!(mine.contains_key(a) && mine.contains_key(b), "{stem}: skelview lacks {a} or {b}: {:?}", mine.keys());
            let d = |p: [f64; 3], q: [f64; 3]| [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
            // A bone of no length (Godette's spine sits 50 nm above its hips) points nowhere.
            if d(at(a), at(b)).iter().map(|x| x * x).sum::<f64>() < 1e-6 {
                continue;
            }
            compared += 1;
            let e = angle_deg(d(at(a), at(b)), d(mine[a], mine[b]));
            if e > worst.0 {
                worst = (e, format!("{a} at frame {frame}"));
            }
        }
        assert!(compared >= 13, "{stem}: {compared} bones compared");
        let (h, m) = (at("hips"), mine["hips"]);
        let off = ((h[0] - m[0]).powi(2) + (h[1] - m[1]).powi(2) + (h[2] - m[2]).powi(2)).sqrt();
        assert!(off < 0.01, "{stem}: frame {frame}: the hips {off} m from skelview's");
    }
    assert!(worst.0 < 2.0, "{stem}: largest bone direction difference {:.2}° ({})", worst.0, worst.1);
    p("walk.vrma")
}
