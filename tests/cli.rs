//! The command line as scripts use it: output formats and exit codes.

mod common;

use std::process::{Command, Output};

fn skelview(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).output().expect("run skelview")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn info_without_files_describes_the_bundled_sample() {
    let o = skelview(&["info"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("format:          BVH"), "{out}");
    assert!(out.contains("frames:          101"), "{out}");
    assert!(out.contains("positions rule:  replace"), "{out}");
}

#[test]
fn positions_csv_has_the_documented_shape() {
    let tmp = std::env::temp_dir().join(format!("skelview-cli-{}.bvh", std::process::id()));
    std::fs::write(&tmp, skelview_core::formats::SAMPLE_BVH).unwrap();
    let path = tmp.to_str().unwrap();
    let o = skelview(&["positions", path, "--frames", "0,1,-1", "--raw"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "joint,frame,x,y,z");
    assert_eq!(lines.len(), 1 + 3 * 24, "24 joints (19 + 5 end sites) × 3 frames");
    assert!(lines[1].starts_with("Hips,0,"));
    assert!(lines.iter().any(|l| l.starts_with("Head/EndSite,100,")), "{out}");
    // Default output is metres and Y-up: the sample is in centimetres.
    let raw_y: f32 = lines[1].split(',').nth(3).unwrap().parse().unwrap();
    let o = skelview(&["positions", path, "--frames", "0"]);
    let metres_y: f32 = stdout(&o).lines().nth(1).unwrap().split(',').nth(3).unwrap().parse().unwrap();
    assert!((metres_y - raw_y * 0.01).abs() < 1e-5, "{metres_y} vs {raw_y}");
    let o = skelview(&["positions", path, "--frames", "500"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("frame 500 is out of range (the clip has 101 frames)"), "{}", stderr(&o));
    std::fs::remove_file(&tmp).ok();
}

#[test]
fn positions_go_to_a_file_as_csv_or_as_a_numpy_array() {
    let dir = tempfile::tempdir().unwrap();
    let bvh = dir.path().join("walk.bvh");
    std::fs::write(&bvh, skelview_core::formats::SAMPLE_BVH).unwrap();
    let path = bvh.to_str().unwrap();
    let printed = stdout(&skelview(&["positions", path, "--frames", "0,7,-1"]));
    let csv = dir.path().join("out.csv");
    let o = skelview(&["positions", path, "--frames", "0,7,-1", "-o", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), printed);
    // The same numbers as a NumPy array of frames × joints × 3 float32.
    let npy = dir.path().join("out.npy");
    let o = skelview(&["positions", path, "--frames", "0,7,-1", "--output", npy.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&npy).unwrap();
    assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    let start = 10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..start]).unwrap();
    assert!(header.contains("'descr': '<f4'") && header.contains("'shape': (3, 24, 3)"), "{header}");
    let values: Vec<f32> = bytes[start..].chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    assert_eq!(values.len(), 3 * 24 * 3);
    for (row, xyz) in printed.lines().skip(1).zip(values.chunks_exact(3)) {
        let want: Vec<f32> = row.split(',').skip(2).map(|v| v.parse().unwrap()).collect();
        assert_eq!(want, xyz, "{row}");
    }
    // One file's joints per array; a frame out of range writes nothing.
    let o = skelview(&["positions", path, path, "-o", npy.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one file"), "{}", stderr(&o));
    let missing = dir.path().join("never.npy");
    let o = skelview(&["positions", path, "--frames", "500", "-o", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("frame 500 is out of range"), "{}", stderr(&o));
    assert!(!missing.exists());
    let o = skelview(&["positions", path, "-o", dir.path().join("no/such/dir/x.npy").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("x.npy"), "{}", stderr(&o));
}

#[test]
fn info_json_is_one_object_per_file() {
    let o = skelview(&["info", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with('{') && out.trim_end().ends_with('}'), "{out}");
    for key in ["\"format\":\"BVH\"", "\"frames\":101", "\"frame_time_secs\":0.0416667", "\"position_rule\":\"replace\"", "\"warnings\":[]"]
    {
        assert!(out.contains(key), "missing {key} in {out}");
    }
}

#[test]
fn errors_print_file_line_col_and_exit_2() {
    let tmp = std::env::temp_dir().join(format!("skelview-bad-{}.bvh", std::process::id()));
    std::fs::write(&tmp, "HIERARCHY\nROOT A\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2\n")
        .unwrap();
    for cmd in ["info", "positions"] {
        let o = skelview(&[cmd, tmp.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert_eq!(stderr(&o).trim(), format!("{}:10:3: expected end of row after 1 values, found '2'", tmp.display()));
    }
    let o = skelview(&["check", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains(":10:3: expected end of row"), "{}", stdout(&o));
    std::fs::remove_file(&tmp).ok();
    let o = skelview(&["info", "/nonexistent/x.bvh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("/nonexistent/x.bvh: "), "{}", stderr(&o));
    let o = skelview(&["info", "--frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unexpected argument '--frobnicate'"), "{}", stderr(&o));
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn check_the_corpus_loads_every_motion_and_names_why_two_files_hold_none() {
    let Some(corpus) = common::corpus() else { return };
    let o = skelview(&["check", corpus.to_str().unwrap()]);
    let out = stdout(&o);
    // Two ACL files hold no skeleton animation: check fails them with the reason (exit 1).
    assert_eq!(o.status.code(), Some(1), "{out}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors[0].contains("no_output_transform_tracks.acl.sjson:11:1: empty clip '93_01': no bones"), "{out}");
    assert!(errors[1].contains("track_list_float3f.acl.sjson:3:1: this ACL file holds a track list of 4 float3f tracks"), "{out}");
    for line in out.lines().filter(|l| !l.starts_with("checked") && !l.starts_with("error")) {
        assert!(line.starts_with("ok ") || line.starts_with("warning "), "{line}");
    }
    assert!(out.contains("Frames: says 3069 but the file has 3070 motion rows"), "{out}");
    assert!(out.contains("BoneScaleFactor is 0 on 48 frames of segment 'tail1'"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("checked 76 files: 51 ok, 23 with warnings, 2 failed, 0 skipped"), "{out}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn an_amc_finds_its_asf_and_both_may_be_given() {
    let Some(corpus) = common::corpus() else { return };
    let dir = corpus.join("asfamc");
    let amc = dir.join("cmu_charleston1.amc");
    let asf = dir.join("cmu_charleston.asf");
    let alone = skelview(&["info", amc.to_str().unwrap()]);
    let both = skelview(&["info", asf.to_str().unwrap(), amc.to_str().unwrap()]);
    assert_eq!(alone.status.code(), Some(0), "{}", stderr(&alone));
    assert_eq!(stdout(&alone), stdout(&both));
    assert!(stdout(&alone).contains("frames:          506"));
    let rest = skelview(&["positions", asf.to_str().unwrap(), "--frames", "0", "--raw"]);
    assert_eq!(rest.status.code(), Some(0));
    assert_eq!(stdout(&rest).lines().count(), 1 + 31);
}

#[test]
fn info_shows_the_standard_names_of_an_mnm_map() {
    let dir = std::env::temp_dir().join(format!("skelview-mnm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("map.mnm");
    std::fs::write(&map, "# Biped name, then the file's\nHips\nRightHip  rightupleg\n").unwrap();
    let o = skelview(&["info", "--mnm", map.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("name map:        2 of "), "{out}");
    assert!(out.contains("Hips                     = Hips"), "{out}");
    assert!(out.contains("RightUpLeg               = RightHip"), "{out}");
    assert!(out.contains("not in the map: ") && out.contains("LeftUpLeg"), "{out}");
    let json = stdout(&skelview(&["info", "--json", "--mnm", map.to_str().unwrap()]));
    assert!(json.contains(r#""mapped_names":{"Hips":"Hips","RightUpLeg":"RightHip"}"#), "{json}");
    std::fs::write(&map, "Hips\tHips\u{1}\n").unwrap();
    let bad = skelview(&["info", "--mnm", map.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("map.mnm:1:1: expected a line of names"), "{}", stderr(&bad));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_subcommand_has_its_own_help_and_usage_errors_exit_2() {
    let o = skelview(&["info", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("Usage: skelview info") && out.contains("--json") && out.contains("--mnm <MAP>"), "{out}");
    assert!(!out.contains("--heat-map"), "info's help shows info's options only");
    let o = skelview(&["positions", "x.bvh", "--frames", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value 'x' for '--frames <LIST>'"), "{}", stderr(&o));
    let o = skelview(&["render", "--out", "x.jpg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--out must name a .png, .gif or .mp4 file"), "{}", stderr(&o));
    // convert's refusal lists the writers' table.
    let o = skelview(&["convert", "x.bvh", "y.fbx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("convert writes INPUT... OUTPUT.bvh|.glb|.gltf|.vrm|.vrma|.trc|.mot|.c3d; 'y.fbx' is none of those"),
        "{}",
        stderr(&o)
    );
    let top = stdout(&skelview(&["--help"]));
    assert!(top.contains("Formats (") && top.contains("ASF/AMC  .asf .amc") && top.contains("H-Anim   .x3d .x3dv .wrl"), "{top}");
    let o = skelview(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("skelview "), "{}", stdout(&o));
}

#[test]
fn completions_and_the_man_page_come_from_the_same_definition() {
    let o = skelview(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0));
    let script = stdout(&o);
    assert!(script.contains("_skelview()") && script.contains("--heat-map") && script.contains("thumbnail"), "{script}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert_eq!(skelview(&["completions", shell]).status.code(), Some(0), "{shell}");
    }
    assert_eq!(skelview(&["completions", "tcsh"]).status.code(), Some(2));
    let o = skelview(&["manpage"]);
    assert_eq!(o.status.code(), Some(0));
    let man = stdout(&o);
    assert!(man.starts_with(".ie") || man.contains(".TH skelview"), "{}", &man[..man.len().min(200)]);
    assert!(man.contains("compare"));
}

#[test]
fn formats_lists_the_format_table() {
    let o = skelview(&["formats"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for needle in
        ["BVH", ".bvh", "application/x-bvh", "ASF/AMC", ".asf .amc", ".acl.sjson .acl.zip", "model/x-hanim+xml", "MNM", "name map"]
    {
        assert!(out.contains(needle), "{needle} not in {out}");
    }
    let bvh = out.lines().find(|l| l.starts_with("BVH")).unwrap();
    assert!(bvh.contains(" yes "), "BVH is written by convert: {bvh}");
    assert!(out.lines().any(|l| l.trim_start().starts_with("Biovision hierarchy")), "{out}");
    let json: serde_json::Value = serde_json::from_slice(&skelview(&["formats", "--json"]).stdout).unwrap();
    let rows = json.as_array().unwrap();
    let table = skelview_core::formats::table::entries().count() + skelview_core::formats::table::write_only().count();
    assert_eq!(rows.len(), table);
    // Writers come from the writers' table: glTF is written as .glb/.gltf; MOT is read (as
    // channels) and written (a capture's platforms).
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no {name} row"));
    assert_eq!(row("glTF")["written_as"], serde_json::json!([".glb", ".gltf"]));
    assert_eq!((row("MOT")["reads"].as_str(), row("MOT")["writes"].as_bool()), (Some("motion"), Some(true)));
    assert_eq!(row("FBX")["writes"], false);
    let mot = out.lines().find(|l| l.starts_with("MOT")).unwrap();
    assert!(mot.contains(" motion ") && mot.contains(" .mot "), "read, and written as .mot: {mot}");
    assert_eq!(rows.last().unwrap()["reads"], "name map");
    assert_eq!(rows[0]["options"][0]["key"], "bvh.positions");
    assert!(out.contains("--format-option amc.fps="), "{out}");
    assert_eq!(rows[0]["name"], "BVH");
    assert_eq!(rows[0]["writes"], true);
}

#[test]
fn info_lists_takes_and_take_chooses_one_on_every_command() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/three_takes.x3d");
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).arg(&path).output().unwrap();
    let o = run(&["info"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("takes:           3 (showing 1: Walk)") && out.contains("  0: Stop (5.000 s, 3 joints, keys never change)"),
        "{out}"
    );
    let json = String::from_utf8_lossy(&run(&["info", "--json", "--take", "Kick"]).stdout).into_owned();
    assert!(json.contains(r#""take":"Kick""#) && json.contains(r#""name":"Stop","duration_secs":5.0,"joints":3,"moving":false"#), "{json}");
    let walk = run(&["positions", "--frames", "-1"]).stdout;
    let kick = run(&["positions", "--frames", "-1", "--take", "2"]).stdout;
    assert_ne!(walk, kick, "--take changes the positions");
    assert_eq!(run(&["positions", "--take", "nope"]).status.code(), Some(2));
}

#[test]
fn info_of_a_marker_capture_speaks_of_markers_not_joints() {
    // Two markers over three frames, as a TRC (a C3D's markers come to `info` the same way).
    let trc = "PathFileType\t4\t(X/Y/Z)\tm.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n\
               100\t100\t3\t2\tmm\t100\t1\t3\nFrame#\tTime\tLASI\t\t\tRASI\t\t\n\t\tX1\tY1\tZ1\tX2\tY2\tZ2\n\n\
               1\t0.00\t100\t1000\t0\t-100\t1000\t0\n2\t0.01\t101\t1000\t0\t-99\t1000\t0\n3\t0.02\t102\t1000\t0\t-98\t1000\t0\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("markers.trc");
    std::fs::write(&path, trc).unwrap();
    let o = skelview(&["info", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("markers:         2 (a marker capture") && out.contains("channels:        6 per frame (x, y, z of each marker)"),
        "{out}"
    );
    for gone in ["joints:", "end sites", "roots:", "rotation orders:", "positions rule:", "angles:"] {
        assert!(!out.contains(gone), "{gone} does not apply to a capture: {out}");
    }
    // The JSON keeps its keys and adds the markers.
    let o = skelview(&["info", "--json", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["joints"].as_u64(), v["markers"].as_u64(), v["position_rule"].as_str()), (Some(2), Some(2), Some("replace")));
}
