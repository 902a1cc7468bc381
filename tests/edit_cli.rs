//! `skelview edit` on the command line: operations in the order given, a recipe file and the
//! same operations giving the same bytes, folders in parallel with checks counted before and
//! after, and errors that name the parameter without ever writing the source.

mod common;

use std::path::Path;
use std::process::Command;

fn skelview(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_recipe_file_and_the_same_options_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, recipe) = (dir.path().join("a.bvh"), dir.path().join("b.bvh"), dir.path().join("r.toml"));
    let ops = [
        "--unroll",
        "--filter",
        "butterworth:6:2",
        "--trim",
        "10:80",
        "--resample",
        "60",
        "--ground",
        "--face",
        "-x",
        "--rest-from-frame",
        "5",
    ];
    let mut line = vec!["edit", "assets/walk01.bvh", "-o", s(&a), "--save-recipe", s(&recipe)];
    line.extend(ops);
    let (code, out, err) = skelview(&line);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&recipe).unwrap();
    let kinds: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("op = ")).collect();
    let order = ["\"unroll\"", "\"filter\"", "\"trim\"", "\"resample\"", "\"ground\"", "\"face\"", "\"rest_from_frame\""];
    assert_eq!(kinds, order, "in the order given:\n{text}");
    let (code, _, err) = skelview(&["edit", "assets/walk01.bvh", "--recipe", s(&recipe), "-o", s(&b)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // The order matters: trimming before resampling keeps other frames than after.
    let c = dir.path().join("c.bvh");
    let (code, _, err) = skelview(&["edit", "assets/walk01.bvh", "--resample", "60", "--trim", "10:80", "-o", s(&c)]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    // --joints and --range go to every operation that takes them, wherever they stand.
    let some = dir.path().join("some.toml");
    let (code, _, err) = skelview(&[
        "edit",
        "assets/walk01.bvh",
        "--filter",
        "butterworth:6",
        "--joints",
        "Head,Neck",
        "--range",
        "1s:",
        "--save-recipe",
        s(&some),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&some).unwrap();
    assert!(text.contains("joints = [\"Head\", \"Neck\"]") && text.contains("range = \"1s:\""), "{text}");
    // A recipe alone, without --out, is written and nothing else.
    let only = dir.path().join("only.toml");
    let (code, _, err) = skelview(&["edit", "assets/walk01.bvh", "--despike", "--save-recipe", s(&only)]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&only).unwrap().contains("op = \"despike\""));
}

#[test]
fn the_written_bvh_keeps_the_sources_channel_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.bvh");
    let (code, _, err) = skelview(&["edit", "assets/walk01.bvh", "--unroll", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    let src = std::fs::read_to_string("assets/walk01.bvh").unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    let orders = |t: &str| t.lines().filter(|l| l.contains("CHANNELS 3")).map(|l| l.trim().to_owned()).collect::<Vec<_>>();
    assert_eq!(orders(&written).first(), orders(&src).first(), "{written}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn folders_are_edited_in_parallel_with_the_checks_before_and_after() {
    let Some(corpus) = common::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let folder = corpus.join("bvh");
    let (code, stdout, err) = skelview(&["edit", s(&folder), "--unroll", "--filter", "butterworth:8", "-o", s(&out), "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let bvhs = common::files(&folder, "bvh").len();
    assert_eq!(lines.len(), bvhs);
    for l in &lines {
        assert!(Path::new(l["output"].as_str().unwrap()).is_file(), "{l}");
        assert_eq!(l["steps"].as_array().unwrap().len(), 2);
        assert!(l["before"]["flip"].is_number() && l["after"]["flip"].as_u64() == Some(0), "unrolled clips have no flips: {l}");
    }
}

/// What the report says is what the file holds: a capture that keeps no residuals (every one
/// 0 or −1) loses its fill marks in a written C3D, and the report says so; one that keeps
/// them reads back with the same samples marked, and says nothing.
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_filled_c3d_says_when_the_file_cannot_keep_its_fill_marks() {
    let Some(corpus) = common::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (file, says) in [("art_human_sample_cm_float.c3d", true), ("amass_eb015pi_intel_int.c3d", false)] {
        let out = dir.path().join(file);
        let (code, stdout, err) = skelview(&["edit", s(&corpus.join("c3d").join(file)), "--fill-gaps", "spline", "-o", s(&out)]);
        assert_eq!(code, 0, "{err}");
        let text = stdout + &err;
        assert_eq!(text.contains("cannot tell them from measured ones"), says, "{file}: {text}");
    }
}

#[test]
fn bad_parameters_name_themselves_and_the_source_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("walk.bvh");
    std::fs::copy("assets/walk01.bvh", &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["--remove-joint", "Hed"], "no joint named 'Hed' (did you mean 'Head'?)"),
        (&["--trim", "0:5000"], "last 5000 is outside the clip's"),
        (&["--resample", "-30"], "fps -30"),
        (&["--filter", "butterworth:90"], "Nyquist"),
        (&["--filter", "butterworth:6:0"], "order 0"),
        (&["--rename", "Head"], "--rename 'Head': expected FROM=TO"),
        (&["--unroll", "--out", "SAME"], "edits never write over it"),
    ];
    let other = dir.path().join("other.bvh");
    for (ops, message) in cases {
        let mut line = vec!["edit", s(&copy)];
        let ops: Vec<&str> = ops.iter().map(|o| if *o == "SAME" { s(&copy) } else { o }).collect();
        line.extend(&ops);
        if !ops.contains(&"--out") {
            line.extend(["-o", s(&other)]);
        }
        let (code, _, err) = skelview(&line);
        assert_eq!(code, 2, "{ops:?}: {err}");
        assert!(err.contains(message), "{ops:?}: {err}");
        assert_eq!(std::fs::read(&copy).unwrap(), before, "{ops:?} wrote the source");
        assert!(!other.exists(), "{ops:?} wrote a result");
    }
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[[step]]\nop = \"filter\"\ncutoff = 6\n").unwrap();
    let (code, _, err) = skelview(&["edit", s(&copy), "--recipe", s(&bad), "-o", s(&dir.path().join("o.bvh"))]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.toml") && err.contains("step 1") && err.contains("cutoff"), "{err}");
}

/// A Vicon-style BVH (ZXY root channels) whose hips' Y rotation crosses ±180° three times, and
/// a leaf joint with channels and no End Site (as CMU and Meta files have).
fn spinning_bvh() -> String {
    let mut text = String::from(
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n \
         JOINT Head\n {\n  OFFSET 0 50 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n }\n \
         JOINT Foot\n {\n  OFFSET 10 -90 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0 10\n  }\n }\n}\n",
    );
    // Up through 180°, back down through it, and up again: as the file holds it, in ±180°.
    let mut yaw: Vec<f32> = (0..8).map(|k| 150.0 + 10.0 * k as f32).collect();
    yaw.extend((0..8).map(|k| 220.0 - 10.0 * k as f32));
    yaw.extend((0..8).map(|k| 150.0 + 10.0 * k as f32));
    text.push_str(&format!("MOTION\nFrames: {}\nFrame Time: 0.01\n", yaw.len()));
    for y in yaw {
        let y = if y > 180.0 { y - 360.0 } else { y };
        text.push_str(&format!("0 90 0 0 5 {y} 0 0 0 0 0 0\n"));
    }
    text
}

#[test]
fn an_unrolled_bvh_holds_what_the_report_says_and_keeps_its_joints() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("spin.bvh"), dir.path().join("out.bvh"));
    std::fs::write(&input, spinning_bvh()).unwrap();
    let (code, stdout, err) = skelview(&["edit", s(&input), "--unroll", "-o", s(&out), "--json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert!(report["before"]["flip"].as_u64().unwrap() >= 1, "{report}");
    assert_eq!(report["after"]["flip"].as_u64(), Some(0), "{report}");
    // The written file itself: no flips, no jump in the yaw column, the same joints.
    let (_, qa, _) = skelview(&["qa", s(&out), "--json", "--kinds", "flip"]);
    assert!(!qa.contains("\"kind\":\"flip\""), "{qa}");
    let text = std::fs::read_to_string(&out).unwrap();
    let yaw: Vec<f32> = text
        .lines()
        .skip_while(|l| !l.starts_with("Frame Time"))
        .skip(1)
        .map(|l| l.split_whitespace().nth(5).unwrap().parse().unwrap())
        .collect();
    assert!(yaw.windows(2).all(|w| (w[1] - w[0]).abs() < 11.0), "{yaw:?}");
    assert!(yaw.iter().any(|&y| y > 180.0), "the turn goes on past 180°: {yaw:?}");
    let joints = |p: &Path| {
        let (_, info, _) = skelview(&["info", "--json", s(p)]);
        serde_json::from_str::<serde_json::Value>(&info).unwrap()["joints"].clone()
    };
    assert_eq!(joints(&input), joints(&out));
    assert_eq!(text.matches("End Site").count(), 1, "no End Site added to the leaf joint:\n{text}");
}
