//! `skelview qa` and `check` on the command line: JSON lines and exit codes by finding kind,
//! thresholds from a TOML file, a skeleton and its motion given apart. The checks themselves
//! are tested in skelview-core (tests/qa_checks.rs).

mod common;

use std::path::PathBuf;
use std::process::Command;

use skelview_core::qa::Kind;

fn corpus_file(rel: &str) -> Option<PathBuf> {
    common::corpus().map(|c| c.join(rel))
}

fn skelview(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn qa_on_the_command_line_writes_json_lines_and_gates_on_kinds() {
    let Some(p) = corpus_file("bvh/cmu_cgspeed_01_01.bvh") else { return };
    let path = p.to_str().unwrap();
    let (code, out, _) = skelview(&["qa", path, "--json"]);
    assert_eq!(code, 0, "no --fail-on: exit 0");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["kind"], "summary");
    assert_eq!(summary["frames"], 2752);
    assert_eq!(summary["counts"].as_object().unwrap().len(), Kind::ALL.len());
    let findings = &lines[..lines.len() - 1];
    for f in findings {
        for key in ["file", "take", "joint", "start_frame", "end_frame", "start_secs", "end_secs", "value", "unit", "threshold", "message"]
        {
            assert!(f.get(key).is_some(), "{key} missing in {f}");
        }
    }
    let floors = findings.iter().filter(|f| f["kind"] == "floor").count();
    assert_eq!(summary["counts"]["floor"], floors);
    let (code, _, _) = skelview(&["qa", path, "--fail-on", "floor"]);
    assert_eq!(code, if floors > 0 { 1 } else { 0 });
    let (code, out, _) = skelview(&["qa", path, "--kinds", "flip,limit", "--fail-on", "flip,limit"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("flip 0, limit 0;"), "{out}");
    let (code, _, err) = skelview(&["qa", path, "--kinds", "pops"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown kind 'pops'"), "{err}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn qa_thresholds_come_from_a_toml_file_and_bad_ones_exit_2() {
    let Some(p) = corpus_file("bvh/cmu_cgspeed_01_01.bvh") else { return };
    let dir = tempfile::tempdir().unwrap();
    let loose = dir.path().join("loose.toml");
    std::fs::write(&loose, "[floor]\ndepth_m = 10.0\n").unwrap();
    let (code, out, _) = skelview(&["qa", p.to_str().unwrap(), "--thresholds", loose.to_str().unwrap(), "--fail-on", "floor"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("floor 0,"), "{out}");
    let (_, printed, _) = skelview(&["qa", "--print-thresholds", "--thresholds", loose.to_str().unwrap()]);
    assert!(printed.contains("depth_m = 10.0") && printed.contains("[jitter]"), "{printed}");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[floor]\ndepth_cm = 3\n").unwrap();
    let (code, _, err) = skelview(&["qa", p.to_str().unwrap(), "--thresholds", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.toml") && err.contains("line 2") && err.contains("depth_cm"), "{err}");
    let junk = dir.path().join("junk.bvh");
    std::fs::write(&junk, b"HIERARCHY\nROOT a\n{\n").unwrap();
    let (code, out, _) = skelview(&["qa", junk.to_str().unwrap(), p.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2, "an unreadable file exits 2");
    assert!(out.lines().any(|l| l.contains("\"kind\":\"error\"") && l.contains("junk.bvh")), "{out}");
}

/// A skeleton and its motion in two folders, so that only the pairing of the paths given can
/// bring them together (no search on disk finds the `.asf`).
fn asf_and_amc_apart() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("skeletons"), dir.path().join("takes"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let asf = ":version 1.10\n:name test\n:units\n  length 1.0\n  angle deg\n:root\n   order TX TY TZ RX RY RZ\n   axis XYZ\n   position 0 0 0\n   orientation 0 0 0\n:bonedata\n  begin\n     id 1\n     name upper\n     direction 0 1 0\n     length 2\n     axis 0 0 0 XYZ\n     dof rx\n  end\n:hierarchy\n  begin\n    root upper\n  end\n";
    let amc = ":FULLY-SPECIFIED\n:DEGREES\n1\nroot 0 0 0 0 0 0\nupper 10\n2\nroot 0 0 0 0 0 0\nupper 20\n";
    let (asf_path, amc_path) = (a.join("skel.asf"), b.join("take.amc"));
    std::fs::write(&asf_path, asf).unwrap();
    std::fs::write(&amc_path, amc).unwrap();
    (dir, asf_path, amc_path)
}

#[test]
fn qa_and_check_pair_a_skeleton_and_its_motion_given_together() {
    let (_dir, asf, amc) = asf_and_amc_apart();
    let (asf, amc) = (asf.to_str().unwrap(), amc.to_str().unwrap());
    let (code, out, err) = skelview(&["qa", asf, amc]);
    assert!(code != 2 && !out.contains("no .asf") && out.contains("take.amc:") && out.contains("2 frames"), "{code}\n{out}\n{err}");
    assert!(out.contains("checked 1 files"), "one pair is one clip: {out}");
    let (code, out, err) = skelview(&["check", asf, amc]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("take.amc: 2 joints, 2 frames") && out.contains("checked 1 files: 1 ok"), "{out}");
    // Given alone, the motion still says what it lacks.
    let (code, out, _) = skelview(&["check", amc]);
    assert_eq!(code, 1);
    assert!(out.contains("take.amc") && out.contains(".asf"), "{out}");
}
