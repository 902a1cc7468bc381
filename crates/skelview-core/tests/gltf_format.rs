//! glTF 2.0 import: a hand-made two-joint skin (as `.gltf` with an external buffer and as
//! `.glb`) whose positions are worked out by hand, the corpus files with their takes, and bad
//! input (truncated, lying chunk lengths, an accessor past its buffer, a joint named twice).

use std::path::Path;

use skelview_core::core::Motion;
use skelview_core::formats;

use skelview_test_support as support;

/// Key times 0, 0.5, 1 s (2 fps) and root rotations 0°, 45°, 90° about Z, LINEAR; the child
/// joint sits 1 m up from the root, which is 2 m along X from an `Armature` parent.
fn fixture_bin() -> Vec<u8> {
    fixture_bin_at([0.0, 0.5, 1.0])
}

/// The same keys at other times.
fn fixture_bin_at(times: [f32; 3]) -> Vec<u8> {
    let mut b = Vec::new();
    for t in times {
        b.extend_from_slice(&t.to_le_bytes());
    }
    let h = std::f32::consts::FRAC_PI_8; // half of 45°
    for angle in [0.0f32, h, 2.0 * h] {
        // Quaternion about Z: (0, 0, sin(a/2), cos(a/2)); angle holds a/2 here.
        for v in [0.0, 0.0, angle.sin(), angle.cos()] {
            b.extend_from_slice(&f32::to_le_bytes(v));
        }
    }
    b
}

fn fixture_json(uri: Option<&str>, len: usize, skin_joints: &str, output_count: usize) -> String {
    let uri = uri.map(|u| format!(r#""uri": "{u}", "#)).unwrap_or_default();
    format!(
        r#"{{
  "asset": {{ "version": "2.0", "generator": "skelview test" }},
  "scene": 0,
  "scenes": [ {{ "nodes": [0] }} ],
  "nodes": [
    {{ "name": "Armature", "translation": [2, 0, 0], "children": [1] }},
    {{ "name": "root", "children": [2] }},
    {{ "name": "tip", "translation": [0, 1, 0] }}
  ],
  "skins": [ {{ "name": "rig", "joints": {skin_joints} }} ],
  "buffers": [ {{ {uri}"byteLength": {len} }} ],
  "bufferViews": [ {{ "buffer": 0, "byteOffset": 0, "byteLength": 12 }}, {{ "buffer": 0, "byteOffset": 12, "byteLength": 48 }} ],
  "accessors": [
    {{ "bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [1] }},
    {{ "bufferView": 1, "componentType": 5126, "count": {output_count}, "type": "VEC4" }}
  ],
  "animations": [ {{ "name": "turn", "samplers": [ {{ "input": 0, "output": 1, "interpolation": "LINEAR" }} ],
                     "channels": [ {{ "sampler": 0, "target": {{ "node": 1, "path": "rotation" }} }} ] }} ]
}}"#
    )
}

/// A GLB container of `json` and `bin`, with the chunk lengths given (to make them lie).
fn glb(json: &str, bin: &[u8], json_len: Option<u32>) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let total = 12 + 8 + j.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&json_len.unwrap_or(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

fn load(path: &Path) -> Result<Motion, String> {
    formats::load_paths(&[path.to_owned()]).map(|mut v| v.remove(0)).map_err(|e| e.to_string())
}

fn positions(m: &Motion, frame: usize) -> Vec<glam::Vec3> {
    let mut sampler = skelview_core::core::Sampler::default();
    sampler
        .positions(m, skelview_core::core::PoseAt::Frame(frame), skelview_core::core::Interpolation::Nearest, m.display_from_file())
        .to_vec()
}

fn close(a: glam::Vec3, b: [f32; 3]) -> bool {
    (a - glam::Vec3::from(b)).abs().max_element() < 1e-5
}

#[test]
fn a_hand_made_skin_as_gltf_and_glb_gives_the_hand_worked_positions() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fixture_bin();
    std::fs::write(dir.path().join("turn.bin"), &bin).unwrap();
    std::fs::write(dir.path().join("turn.gltf"), fixture_json(Some("turn.bin"), bin.len(), "[1, 2]", 3)).unwrap();
    std::fs::write(dir.path().join("turn.glb"), glb(&fixture_json(None, bin.len(), "[1, 2]", 3), &bin, None)).unwrap();
    for name in ["turn.gltf", "turn.glb"] {
        let m = load(&dir.path().join(name)).unwrap();
        let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["Armature", "root", "tip"], "{name}: the skin's joints and their ancestor");
        assert_eq!((m.clip.num_frames(), m.clip.frame_time_secs), (3, 0.5), "{name}: keys every 0.5 s");
        assert_eq!(m.source.unit, skelview_core::core::LengthUnit::Metre);
        assert_eq!(m.source.takes.len(), 1);
        assert_eq!(m.source.takes[0].name, "turn");
        // The root at (2, 0, 0); the tip 1 m above it, turned 0°, 45°, 90° about Z.
        let s = std::f32::consts::FRAC_1_SQRT_2;
        for (f, tip) in [(0, [2.0, 1.0, 0.0]), (1, [2.0 - s, s, 0.0]), (2, [1.0, 0.0, 0.0])] {
            let p = positions(&m, f);
            assert!(close(p[1], [2.0, 0.0, 0.0]) && close(p[2], tip), "{name} frame {f}: {p:?}");
        }
    }
}

#[test]
fn bad_files_are_clear_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fixture_bin();
    let good = glb(&fixture_json(None, bin.len(), "[1, 2]", 3), &bin, None);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated.glb", good[..good.len() / 2].to_vec(), "glTF"),
        ("lying.glb", glb(&fixture_json(None, bin.len(), "[1, 2]", 3), &bin, Some(9999)), "glTF"),
        ("past.glb", glb(&fixture_json(None, bin.len(), "[1, 2]", 30), &bin, None), "accessor"),
        ("twice.glb", glb(&fixture_json(None, bin.len(), "[1, 2, 1]", 3), &bin, None), "twice"),
        ("json.gltf", b"{ \"asset\": { \"version\": \"2.0\" }, \"nodes\": [ { \"name\": 3 } ] }".to_vec(), "turn"),
        // The crate's own validation once panicked on this (found by fuzzing).
        (
            "position.gltf",
            b"{ \"asset\": { \"version\": \"2.0\" }, \"meshes\": [ { \"primitives\": [ { \"attributes\": { \"POSITION\": 3 } } ] } ] }"
                .to_vec(),
            "accessor 3",
        ),
        (
            "target.glb",
            glb(&fixture_json(None, bin.len(), "[1, 2]", 3).replace("\"node\": 1, \"path\"", "\"node\": 9, \"path\""), &bin, None),
            "targets node 9",
        ),
        (
            "u32.glb",
            glb(
                &fixture_json(None, bin.len(), "[1, 2]", 3)
                    .replace("5126, \"count\": 3, \"type\": \"VEC4\"", "5125, \"count\": 3, \"type\": \"VEC4\""),
                &bin,
                None,
            ),
            "cannot hold",
        ),
        (
            "stride.glb",
            glb(
                &fixture_json(None, bin.len(), "[1, 2]", 3)
                    .replace("\"byteOffset\": 12, \"byteLength\": 48 }", "\"byteOffset\": 12, \"byteLength\": 48, \"byteStride\": 8 }"),
                &bin,
                None,
            ),
            "strides 8 bytes",
        ),
        (
            "path.glb",
            glb(&fixture_json(None, bin.len(), "[1, 2]", 3).replace("\"rotation\" }", "\"botation\" }"), &bin, None),
            "target path",
        ),
        // A GLB length shorter than its header overflowed the crate's subtraction (found by
        // fuzzing): `.vrm` avatars go through the same path.
        ("short.vrm", [&b"glTF\x02\0\0\0\x0b\0\0\0"[..], &good[12..]].concat(), "a GLB length of at least its 12-byte header"),
        ("header.glb", b"glTF\x02\0\0".to_vec(), "GLB length"),
        // A loop of nodes each with one parent made the walk to the roots endless (found by
        // fuzzing).
        (
            "loop.glb",
            glb(
                &fixture_json(None, bin.len(), "[1, 2]", 3).replace(
                    "\"name\": \"tip\", \"translation\": [0, 1, 0]",
                    "\"name\": \"tip\", \"translation\": [0, 1, 0], \"children\": [0]",
                ),
                &bin,
                None,
            ),
            "its own ancestor",
        ),
        // Keys at the far end of f32 made the frame count overflow (found by fuzzing).
        (
            "forever.glb",
            glb(
                &fixture_json(None, bin.len(), "[1, 2]", 3).replace("\"max\": [1]", "\"max\": [3.4028235e38]"),
                &fixture_bin_at([0.0, 0.5, f32::MAX]),
                None,
            ),
            "too long",
        ),
    ];
    for (name, bytes, needle) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = load(&path).expect_err(name);
        assert!(err.contains(name), "{name}: the error names the file: {err}");
        if needle != "turn" {
            assert!(err.contains(needle), "{name}: {err}");
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_gltf_loads_with_its_takes() {
    let Some(corpus) = support::corpus() else { return };
    let dir = corpus.join("gltf");
    let mut files = support::files(&dir, "gltf");
    files.extend(support::files(&dir, "glb"));
    assert_eq!(files.len(), 3);
    for path in files {
        let m = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(m.skeleton.len() >= 2 && m.clip.num_frames() >= 2, "{}", path.display());
        for take in 0..m.source.takes.len() {
            let options = formats::LoadOptions { take: Some(take.to_string()), ..Default::default() };
            let request = formats::LoadRequest::from_paths(std::slice::from_ref(&path)).remove(0).unwrap();
            let t = formats::load(&request, &options, &formats::Sequential, &mut formats::Quiet).unwrap();
            let n = t.clip.num_frames();
            for f in [0, 1, n / 2, n - 1] {
                assert!(positions(&t, f).iter().all(|p| p.is_finite()), "{} take {take} frame {f}", path.display());
            }
        }
    }
    let fox = load(&dir.join("Fox.glb")).unwrap();
    let takes: Vec<&str> = fox.source.takes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(takes, ["Survey", "Walk", "Run"]);
    // A quadruped's head is in front of its paws and above them: glTF's +Y stands, no warning
    // (the rule that stands up robots lying down once laid the fox on its side).
    assert_eq!((fox.source.up_axis, fox.source.up_detected), (skelview_core::core::UpAxis::Y, false));
    assert!(fox.warnings.iter().all(|w| !w.message.contains("up")), "{:?}", fox.warnings);
    let p = positions(&fox, 0);
    let lowest = p.iter().map(|q| q.y).fold(f32::INFINITY, f32::min);
    let head = fox.skeleton.joints().iter().position(|j| j.name.to_ascii_lowercase().contains("head")).unwrap();
    let paw = fox.skeleton.find("b_LeftFoot02_018").unwrap();
    assert!(p[head].y > p[paw].y + 0.1 * (p[head] - p[paw]).length() && p[paw].y - lowest < 0.05 * (p[head].y - lowest));
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn simple_skin_plays_the_keys_a_second_reader_decoded() {
    let Some(corpus) = support::corpus() else { return };
    let m = load(&corpus.join("gltf/SimpleSkin_embedded.gltf")).unwrap();
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["node 0", "node 1", "node 2"], "the skin's joints 1 and 2 under their ancestor, the mesh node");
    assert_eq!((m.clip.num_frames(), m.clip.frame_time_secs), (12, 0.5), "keys every 0.5 s to 5.5 s");
    // Node 2's rotation keys, decoded from the file's base64 buffer with Python's json, base64
    // and struct (run once; kept here): frames 0, 1, 6 and 11.
    let keys = [(0, [0.0, 0.0, 0.0, 1.0]), (1, [0.0, 0.0, 0.383, 0.924]), (6, [0.0, 0.0, 0.0, 1.0]), (11, [0.0, 0.0, 0.0, 1.0])];
    for (f, q) in keys {
        let got = &m.clip.frame(f)[2 * 10 + 3..2 * 10 + 7];
        let want = glam::Vec4::from(q).normalize();
        assert!(got.iter().zip(want.to_array()).all(|(a, b)| (a - b).abs() < 1e-5), "frame {f}: {got:?} against {want:?}");
    }
    // Node 1 sits 1 m up; node 2 at its origin whatever its rotation.
    for f in [0, 1, 6, 11] {
        let p = positions(&m, f);
        assert!(close(p[1], [0.0, 1.0, 0.0]) && close(p[2], [0.0, 1.0, 0.0]), "frame {f}: {p:?}");
    }
}

#[test]
fn without_a_skin_or_a_shared_rate_the_guesses_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fixture_bin();
    // No skin: the animated node and its parent are the skeleton, and a warning says so.
    let json = fixture_json(None, bin.len(), "[1, 2]", 3).replace("  \"skins\": [ { \"name\": \"rig\", \"joints\": [1, 2] } ],\n", "");
    assert!(!json.contains("skins"));
    let path = dir.path().join("noskin.glb");
    std::fs::write(&path, glb(&json, &bin, None)).unwrap();
    let m = load(&path).unwrap();
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["Armature", "root"]);
    assert!(m.warnings.iter().any(|w| w.message.contains("no skin")), "{:?}", m.warnings);
    // Keys at 0, 0.3 and 1 s share no rate: 30 fps, said in the details; the 45° key is at frame 9.
    let bin = fixture_bin_at([0.0, 0.3, 1.0]);
    let path = dir.path().join("mixed.glb");
    std::fs::write(&path, glb(&fixture_json(None, bin.len(), "[1, 2]", 3), &bin, None)).unwrap();
    let m = load(&path).unwrap();
    assert_eq!(m.clip.num_frames(), 31);
    assert!((m.clip.frame_time_secs - 1.0 / 30.0).abs() < 1e-12);
    let rate = m.source.details.iter().find(|(k, _)| k == "Frame rate").map(|(_, v)| v.as_str()).unwrap_or("");
    assert!(rate.contains("share no rate") && rate.contains("30 fps"), "{rate}");
    let s = std::f32::consts::FRAC_1_SQRT_2;
    assert!(close(positions(&m, 9)[2], [2.0 - s, s, 0.0]), "{:?}", positions(&m, 9));
}

#[test]
fn a_draco_compressed_mesh_is_skipped_with_one_warning_and_the_skin_still_plays() {
    // As three.js's LittlestTokyo: the mesh needs KHR_draco_mesh_compression, the skin and the
    // animation need nothing of it.
    let path = skelview_test_support::workspace_root().join("crates/skelview-core/tests/data/gltf/draco_mesh_on_a_skin.gltf");
    let m = load(&path).unwrap();
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["Hips", "Head"]);
    assert_eq!(m.clip.num_frames(), 3);
    let [w] = m.warnings.as_slice() else { panic!("{:?}", m.warnings) };
    assert!(w.message.contains("requires KHR_draco_mesh_compression") && w.message.contains("skipped"), "{}", w.message);
    // The rotation keys play: the head swings at the middle key (45° about X from the hips).
    let p = positions(&m, 1);
    assert!((p[1] - p[0]).normalize().dot(glam::Vec3::Y) < 0.8, "{:?}", p);
    // An extension that animation data may need (meshopt compresses any buffer view) is still
    // refused, and the crate's long list of what is wrong is cut to a readable length.
    let text = std::fs::read_to_string(&path).unwrap().replace("KHR_draco_mesh_compression", "EXT_meshopt_compression");
    let many = text.replace(
        "\"accessors\": [",
        &format!("\"accessors\": [{}", "{\"componentType\": 5126, \"count\": 1, \"type\": \"VEC3\"},".repeat(300)),
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("meshopt.gltf");
    std::fs::write(&bad, many).unwrap();
    let e = load(&bad).unwrap_err().to_string();
    assert!(e.contains("EXT_meshopt_compression") || e.contains("bufferView"), "{e}");
    assert!(e.chars().count() < 600 && e.contains("more characters)"), "{} characters: {e}", e.chars().count());
}

/// Four rotation keys about Z at `times` (0°, 45°, 90°, 0°), as `fixture_json`'s document with
/// its views and accessors widened to four keys.
fn four_keys(times: [f32; 4]) -> Vec<u8> {
    let bin: Vec<u8> = times
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .chain([0.0f32, 45.0, 90.0, 0.0].iter().flat_map(|deg| {
            let h = deg.to_radians() / 2.0;
            [0.0, 0.0, h.sin(), h.cos()].into_iter().flat_map(f32::to_le_bytes)
        }))
        .collect();
    let json = fixture_json(None, bin.len(), "[1, 2]", 4)
        .replace("\"byteOffset\": 0, \"byteLength\": 12", "\"byteOffset\": 0, \"byteLength\": 16")
        .replace("\"byteOffset\": 12, \"byteLength\": 48", "\"byteOffset\": 16, \"byteLength\": 64")
        .replace("\"count\": 3, \"type\": \"SCALAR\"", "\"count\": 4, \"type\": \"SCALAR\"");
    glb(&json, &bin, None)
}

#[test]
fn a_repeated_key_time_is_a_step_said_in_one_warning_and_times_that_go_back_are_refused() {
    // As three.js's LittlestTokyo: 58 of a sampler's 359 key times repeat the one before.
    // Three.js plays the earlier key's value up to that time and the later key's from it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repeat.glb");
    std::fs::write(&path, four_keys([0.0, 0.5, 0.5, 1.0])).unwrap();
    let options = formats::LoadOptions { sample_fps: Some(10.0), ..Default::default() };
    let request = formats::LoadRequest::from_paths(std::slice::from_ref(&path)).remove(0).unwrap();
    let m = formats::load(&request, &options, &formats::Sequential, &mut formats::Quiet).unwrap_or_else(|e| panic!("{e}"));
    let [w] = m.warnings.as_slice() else { panic!("one warning: {:?}", m.warnings) };
    assert!(w.message.contains("sampler 0 repeats 1 of its 4 key times") && w.message.contains("step"), "{}", w.message);
    // The root's angle about Z at 0.4 s (on the way to 45°), 0.5 s (the later key: 90°) and 1 s.
    let angle = |f: usize| {
        let q = &m.clip.frame(f)[10 + 3..10 + 7];
        2.0 * q[2].atan2(q[3]).to_degrees()
    };
    for (f, want) in [(4, 36.0), (5, 90.0), (7, 54.0), (10, 0.0)] {
        assert!((angle(f) - want).abs() < 1e-3, "frame {f}: {}° against {want}°", angle(f));
    }
    // A first key repeated: the later one holds from time 0.
    std::fs::write(&path, four_keys([0.0, 0.0, 0.5, 1.0])).unwrap();
    let m = load(&path).unwrap();
    let q = &m.clip.frame(0)[10 + 3..10 + 7];
    assert!((2.0 * q[2].atan2(q[3]).to_degrees() - 45.0).abs() < 1e-3, "{q:?}");
    // What cannot be read is still refused, naming the key.
    for (times, needle) in
        [([0.0, 0.5, 0.4, 1.0], "key 2 at 0.4 s comes before key 1 at 0.5 s"), ([0.0, f32::NAN, 0.5, 1.0], "key 1 has time NaN")]
    {
        std::fs::write(&path, four_keys(times)).unwrap();
        let e = load(&path).unwrap_err();
        assert!(e.contains("animation 0: sampler 0") && e.contains(needle), "{e}");
    }
}
