//! `skelview info --humanoid`: the humanoid bone map found, written as TOML, corrected by a
//! map file, refused with the bone and the name when a file is wrong.

use std::path::Path;
use std::process::Command;

fn skelview(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn info_lists_the_humanoid_bones_saves_them_and_takes_corrections() {
    let (code, out, err) = skelview(&["info", "--humanoid", "assets/walk01.bvh"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("humanoid bones:  15 of 15 required"), "{out}");
    assert!(out.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["leftUpperArm", "LeftArm", "(name)"]), "{out}");
    assert!(!out.contains("EndSite"), "an end site is never a bone: {out}");
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("walk.toml");
    let (code, _, err) = skelview(&["info", "--save-map", s(&saved), "assets/walk01.bvh"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("[bones]") && text.contains("hips = \"Hips\""), "{text}");
    // A correction: the chest is the neck's parent here, say; and no upper chest.
    let fixed = dir.path().join("fixed.toml");
    std::fs::write(&fixed, "[bones]\nchest = \"Spine\"\nspine = \"\"\n").unwrap();
    let (code, out, err) = skelview(&["info", "--map", s(&fixed), "--json", "assets/walk01.bvh"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["humanoid"]["chest"], "Spine");
    assert!(json["humanoid"].get("spine").is_none());
    std::fs::write(&fixed, "[bones]\nleftFoot = \"Paw\"\n").unwrap();
    let (code, _, err) = skelview(&["info", "--map", s(&fixed), "assets/walk01.bvh"]);
    assert_eq!(code, 2);
    assert!(err.contains("leftFoot = 'Paw': the skeleton has no joint of that name") && err.contains("fixed.toml"), "{err}");
}

#[test]
fn retarget_writes_the_motion_on_the_target_and_refuses_what_it_cannot_map() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("same.bvh");
    let (code, _, err) = skelview(&["retarget", "assets/walk01.bvh", "--onto", "assets/walk01.bvh", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("humanoid bones in both maps"), "{err}");
    assert!(err.contains("bone directions against the source over 13 bones: median error at most 0.0°, largest 0.0°"), "{err}");
    // Planted feet on itself: the legs move only by the centimetre the source's feet slide.
    let planted = dir.path().join("planted.bvh");
    let (code, _, err) = skelview(&["retarget", "assets/walk01.bvh", "--onto", "assets/walk01.bvh", "-o", s(&planted), "--keep-feet"]);
    assert_eq!(code, 0, "{err}");
    // Onto itself: every joint where the source has it (the BVH text keeps six decimals).
    let rows = |file: &str| -> Vec<Vec<f64>> {
        let (_, text, _) = skelview(&["positions", file, "--frames", "0,50,-1"]);
        text.lines().skip(1).map(|l| l.rsplit(',').take(3).map(|v| v.parse().unwrap()).collect()).collect()
    };
    let (a, b, c) = (rows("assets/walk01.bvh"), rows(s(&out)), rows(s(&planted)));
    assert_eq!((a.len(), a.len()), (b.len(), c.len()));
    for ((p, q), r) in a.iter().zip(&b).zip(&c) {
        assert!(p.iter().zip(q).all(|(x, y)| (x - y).abs() < 1e-3), "{p:?} {q:?}");
        assert!(p.iter().zip(r).all(|(x, y)| (x - y).abs() < 0.03), "{p:?} {r:?}");
    }
    // Paired by humanoid bone, the result sits on the source.
    let (code, text, err) = skelview(&["compare", "assets/walk01.bvh", s(&planted), "--humanoid"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("matched joints: 19 of 24 / 24") && text.contains("LeftUpLeg = LeftUpLeg (humanoid)"), "{text}");
    let mpjpe: f64 = text.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(mpjpe < 0.02, "{text}");
    let (code, _, err) = skelview(&["compare", "assets/walk01.bvh", s(&out), "--humanoid", "--mnm", "x.mnm"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skelview(&["retarget", "assets/walk01.bvh", "--onto", "assets/walk01.bvh", "-o", s(&out), "--scale", "-2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--scale -2"), "{err}");
    let (code, _, err) = skelview(&["retarget", "assets/walk01.bvh", "--onto", "assets/walk01.bvh", "-o", s(&dir.path().join("x.fbx"))]);
    assert_eq!(code, 2);
    assert!(err.contains("no writer"), "{err}");
    // A map that takes the target's hips away: refused, naming the bone.
    let map = dir.path().join("nohips.toml");
    std::fs::write(&map, "[bones]\nhips = \"\"\n").unwrap();
    let (code, _, err) =
        skelview(&["retarget", "assets/walk01.bvh", "--onto", "assets/walk01.bvh", "--target-map", s(&map), "-o", s(&out)]);
    assert_eq!(code, 2);
    assert!(err.contains("target's humanoid bone map lacks hips"), "{err}");
}

#[test]
fn an_mnm_name_map_corrects_the_humanoid_map_and_bad_ones_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("swap.mnm");
    // Standard name on the left, the file's own on the right: these two swap the thighs.
    std::fs::write(&map, "; thighs as another exporter labels them\nLeftUpLeg RightUpLeg\nRightUpLeg LeftUpLeg\n").unwrap();
    let (code, out, err) = skelview(&["info", "--map", s(&map), "assets/walk01.bvh"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("leftUpperLeg             RightUpLeg                   (map)"), "{out}");
    assert!(out.contains("rightUpperLeg            LeftUpLeg                    (map)"), "{out}");
    assert!(out.contains("leftLowerLeg             LeftLeg                      (name)"), "{out}");
    std::fs::write(&map, "Hips\tHips\u{1}\n").unwrap();
    let (code, _, err) = skelview(&["info", "--map", s(&map), "assets/walk01.bvh"]);
    assert_eq!(code, 2);
    assert!(err.contains("swap.mnm:1:1: expected a line of names"), "{err}");
}
