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
