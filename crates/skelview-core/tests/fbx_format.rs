//! FBX import: a hand-written ASCII scene whose positions are worked out by hand from its own
//! numbers, the same scene as binary FBX 7.4 and 7.5 (encoded here from the ASCII text), the
//! corpus files with their takes checked against ufbx's own world transforms, and bad input.
//! What the command line does with FBX files is tested beside it (tests/fbx_cli.rs).

use std::path::{Path, PathBuf};

use glam::Vec3;
use skelview_core::core::Motion;
use skelview_core::formats;

use skelview_test_support as support;

const FIXTURE: &str = "tests/data/fbx/rig_7400_ascii.fbx";

// ---- A small ASCII FBX reader and binary FBX writer, to make binary twins of ASCII files ----

/// A value of an FBX node.
#[derive(Clone, Debug)]
enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    /// An array of numbers (`*N { a: ... }`), as written.
    Array(Vec<String>),
}

/// A node: name, values, children (`None` without braces).
#[derive(Clone, Debug)]
struct Node {
    name: String,
    values: Vec<Value>,
    children: Option<Vec<Node>>,
}

struct Ascii<'a> {
    s: &'a [u8],
    at: usize,
}

impl Ascii<'_> {
    fn skip(&mut self) {
        while self.at < self.s.len() {
            match self.s[self.at] {
                b';' => {
                    while self.at < self.s.len() && self.s[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                c if c.is_ascii_whitespace() => self.at += 1,
                _ => break,
            }
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.get(self.at).copied()
    }
    fn word(&mut self) -> String {
        self.skip();
        let start = self.at;
        while self.at < self.s.len() && (self.s[self.at].is_ascii_alphanumeric() || b"_|-+.".contains(&self.s[self.at])) {
            self.at += 1;
        }
        String::from_utf8(self.s[start..self.at].to_vec()).unwrap()
    }
    fn value(&mut self) -> Value {
        match self.peek() {
            Some(b'"') => {
                let start = self.at + 1;
                let end = start + self.s[start..].iter().position(|&c| c == b'"').unwrap();
                self.at = end + 1;
                Value::Str(String::from_utf8(self.s[start..end].to_vec()).unwrap())
            }
            Some(b'*') => {
                self.at += 1;
                self.word();
                assert_eq!(self.peek(), Some(b'{'));
                self.at += 1;
                assert_eq!(self.word(), "a");
                assert_eq!(self.peek(), Some(b':'));
                self.at += 1;
                let mut items = Vec::new();
                while self.peek() != Some(b'}') {
                    items.push(self.word());
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    }
                }
                self.at += 1;
                Value::Array(items)
            }
            _ => {
                let w = self.word();
                w.parse::<i64>().map(Value::Int).unwrap_or_else(|_| Value::Float(w.parse().unwrap()))
            }
        }
    }
    fn nodes(&mut self, until_brace: bool) -> Vec<Node> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return out,
                Some(b'}') if until_brace => {
                    self.at += 1;
                    return out;
                }
                _ => {}
            }
            let name = self.word();
            assert_eq!(self.peek(), Some(b':'), "after {name}");
            self.at += 1;
            let mut values = Vec::new();
            let line_end = |p: &Self| p.s[p.at..].iter().position(|&c| c == b'\n').map_or(p.s.len(), |k| p.at + k);
            let end = line_end(self);
            self.skip_inline();
            if self.at < end && self.s[self.at] != b'{' {
                values.push(self.value());
                while self.peek_inline() == Some(b',') {
                    self.at += 1;
                    values.push(self.value());
                }
            }
            let children = if self.peek_inline() == Some(b'{') {
                self.at += 1;
                Some(self.nodes(true))
            } else {
                None
            };
            out.push(Node { name, values, children });
        }
    }
    fn skip_inline(&mut self) {
        while self.at < self.s.len() && (self.s[self.at] == b' ' || self.s[self.at] == b'\t') {
            self.at += 1;
        }
    }
    fn peek_inline(&mut self) -> Option<u8> {
        self.skip_inline();
        self.s.get(self.at).copied()
    }
}

/// The binary FBX (`version` 7400 or 7500) of an ASCII FBX text, typed as exporters type
/// values: object ids and times 64-bit, other integers 32-bit, `Class::Name` as
/// `Name\0\x01Class`, key arrays in their binary element types.
fn ascii_to_binary(text: &str, version: u32) -> Vec<u8> {
    let nodes = Ascii { s: text.as_bytes(), at: 0 }.nodes(false);
    let wide = version >= 7500;
    let mut out = b"Kaydara FBX Binary  \0\x1a\0".to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    for n in &nodes {
        write_node(&mut out, n, wide, "");
    }
    out.extend(std::iter::repeat_n(0u8, if wide { 25 } else { 13 }));
    out
}

fn write_node(out: &mut Vec<u8>, n: &Node, wide: bool, parent: &str) {
    let start = out.len();
    let head = if wide { 24 } else { 12 };
    out.extend(std::iter::repeat_n(0u8, head));
    out.push(n.name.len() as u8);
    out.extend_from_slice(n.name.as_bytes());
    let props_start = out.len();
    let p_type = match n.values.get(1) {
        Some(Value::Str(t)) if n.name == "P" => t.clone(),
        _ => String::new(),
    };
    for (i, v) in n.values.iter().enumerate() {
        match v {
            Value::Int(x) => {
                let long = (parent == "Objects" && i == 0) || n.name == "C" || p_type == "KTime" || i32::try_from(*x).is_err();
                let float = n.name == "P" && !matches!(p_type.as_str(), "int" | "enum" | "bool" | "KTime" | "Integer");
                if float {
                    out.push(b'D');
                    out.extend_from_slice(&(*x as f64).to_le_bytes());
                } else if long {
                    out.push(b'L');
                    out.extend_from_slice(&x.to_le_bytes());
                } else {
                    out.push(b'I');
                    out.extend_from_slice(&(*x as i32).to_le_bytes());
                }
            }
            Value::Float(x) => {
                out.push(b'D');
                out.extend_from_slice(&x.to_le_bytes());
            }
            Value::Str(s) => {
                let s = match s.split_once("::") {
                    Some((class, name)) if parent == "Objects" && i == 1 => format!("{name}\0\x01{class}"),
                    _ => s.clone(),
                };
                out.push(b'S');
                out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                out.extend_from_slice(s.as_bytes());
            }
            Value::Array(items) => {
                let (code, bytes): (u8, Vec<u8>) = match n.name.as_str() {
                    "KeyTime" => (b'l', items.iter().flat_map(|w| w.parse::<i64>().unwrap().to_le_bytes()).collect()),
                    "KeyValueFloat" => (b'f', items.iter().flat_map(|w| w.parse::<f32>().unwrap().to_le_bytes()).collect()),
                    "KeyAttrDataFloat" => {
                        (b'f', items.iter().flat_map(|w| f32::from_bits(w.parse::<i32>().unwrap() as u32).to_le_bytes()).collect())
                    }
                    "KeyAttrFlags" | "KeyAttrRefCount" => {
                        (b'i', items.iter().flat_map(|w| w.parse::<i32>().unwrap().to_le_bytes()).collect())
                    }
                    _ => (b'd', items.iter().flat_map(|w| w.parse::<f64>().unwrap().to_le_bytes()).collect()),
                };
                out.push(code);
                out.extend_from_slice(&(items.len() as u32).to_le_bytes());
                out.extend_from_slice(&0u32.to_le_bytes());
                out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                out.extend_from_slice(&bytes);
            }
        }
    }
    let props_len = out.len() - props_start;
    if let Some(children) = &n.children {
        for c in children {
            write_node(out, c, wide, &n.name);
        }
        out.extend(std::iter::repeat_n(0u8, head + 1));
    }
    let end = out.len() as u64;
    let fields = [end, n.values.len() as u64, props_len as u64];
    for (k, f) in fields.iter().enumerate() {
        if wide {
            out[start + 8 * k..start + 8 * k + 8].copy_from_slice(&f.to_le_bytes());
        } else {
            out[start + 4 * k..start + 4 * k + 4].copy_from_slice(&(*f as u32).to_le_bytes());
        }
    }
}

// ---- Helpers ----

fn load_with(path: &Path, take: Option<&str>) -> Result<Motion, String> {
    let options = formats::LoadOptions { take: take.map(str::to_owned), ..Default::default() };
    let request = formats::LoadRequest::file(path).map_err(|e| e.to_string())?;
    formats::load(&request, &options, &formats::Sequential, &mut formats::Quiet).map_err(|e| e.to_string())
}

fn positions(m: &Motion, frame: usize) -> Vec<Vec3> {
    let mut sampler = skelview_core::core::Sampler::default();
    sampler
        .positions(m, skelview_core::core::PoseAt::Frame(frame), skelview_core::core::Interpolation::Nearest, m.display_from_file())
        .to_vec()
}

fn names(m: &Motion) -> Vec<&str> {
    m.skeleton.joints().iter().map(|j| j.name.as_str()).collect()
}

/// Positions of the fixture's take 'Walk' at time `t`, in metres, worked out from its
/// numbers: `Reference` at x = 10 cm; `beta:Hips` 100 cm above it, keyed along x from 0 to
/// 30 cm over 1 s; `beta:Spine` 20 cm above the hips, turned about z by its pre-rotation of
/// 90° and its rotation keyed from 0° to 90°; `beta:Head` 10 cm along the spine's y; the null
/// `Helper` 5 cm along the spine's x; `beta:Arm` at the helper, rotated (90°, 0°, 90°) in
/// Z-then-X-then-Y order, which takes its x axis to the spine's z; `beta:Hand` 10 cm along
/// the arm's x.
fn hand_worked(t: f32) -> Vec<Vec3> {
    let hips = Vec3::new(10.0 + 30.0 * t, 100.0, 0.0);
    let spine = hips + Vec3::new(0.0, 20.0, 0.0);
    let phi = (90.0 + 90.0 * t).to_radians();
    let head = spine + Vec3::new(-10.0 * phi.sin(), 10.0 * phi.cos(), 0.0);
    let helper = spine + Vec3::new(5.0 * phi.cos(), 5.0 * phi.sin(), 0.0);
    let hand = helper + Vec3::new(0.0, 0.0, 10.0);
    [Vec3::new(10.0, 0.0, 0.0), hips, spine, head, helper, helper, hand].map(|p| p / 100.0).to_vec()
}

fn assert_hand_worked(m: &Motion, what: &str) {
    assert_eq!(
        names(m),
        ["Reference", "beta:Hips", "beta:Spine", "beta:Head", "Helper", "beta:Arm", "beta:Hand"],
        "{what}: the camera is left out"
    );
    assert_eq!((m.clip.num_frames(), m.clip.frame_time_secs), (31, 1.0 / 30.0), "{what}: 0 to 1 s at 30 fps, both ends");
    for f in [0, 1, 15, 30] {
        let got = positions(m, f);
        let want = hand_worked(f as f32 / 30.0);
        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((*g - *w).abs().max_element() < 1e-5, "{what} frame {f} joint {}: {g} against {w}", names(m)[j]);
        }
    }
}

fn twins(dir: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let mut out = vec![PathBuf::from(FIXTURE)];
    for version in [7400, 7500] {
        let path = dir.join(format!("rig_{version}_binary.fbx"));
        std::fs::write(&path, ascii_to_binary(&text, version)).unwrap();
        out.push(path);
    }
    out
}

// ---- Tests ----

#[test]
fn the_hand_written_scene_as_ascii_and_binary_gives_the_hand_worked_positions() {
    let dir = tempfile::tempdir().unwrap();
    let files = twins(dir.path());
    let ascii = load_with(&files[0], None).unwrap();
    for path in &files {
        let m = load_with(path, None).unwrap_or_else(|e| panic!("{e}"));
        let what = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_hand_worked(&m, &what);
        assert_eq!(m.source.unit, skelview_core::core::LengthUnit::Centimetre, "{what}");
        assert!(!m.source.unit_detected && !m.source.up_detected, "{what}: declared");
        let binary = m.source.details.iter().any(|(k, v)| k == "FBX version" && v.ends_with("binary"));
        assert_eq!(binary, path != &files[0], "{what}: {:?}", m.source.details);
        // ASCII and binary twins agree to the last bit.
        assert_eq!(m.clip.values(), ascii.clip.values(), "{what}");
        let helper = &m.skeleton.joints()[4];
        assert!(helper.details.iter().any(|(k, v)| k == "Role" && v == "between two bones"), "{:?}", helper.details);
        let arm = &m.skeleton.joints()[5];
        assert!(arm.details.iter().any(|(k, v)| k == "Rotation order" && v == "ZXY"), "{:?}", arm.details);
    }
}

#[test]
fn takes_are_listed_chosen_by_name_and_start_at_their_own_start() {
    let m = load_with(Path::new(FIXTURE), None).unwrap();
    let takes: Vec<(&str, bool)> = m.source.takes.iter().map(|t| (t.name.as_str(), t.moving)).collect();
    assert_eq!(takes, [("Walk", true), ("Idle", false)]);
    assert_eq!(m.source.take, Some(0), "the take that moves");
    assert!(m.warnings.iter().any(|w| w.message.contains("2 takes")), "{:?}", m.warnings);
    let idle = load_with(Path::new(FIXTURE), Some("idle")).unwrap();
    assert_eq!((idle.clip.num_frames(), idle.source.take), (16, Some(1)), "0 to 0.5 s at 30 fps");
    for f in [0, 15] {
        assert!((positions(&idle, f)[1] - Vec3::new(0.15, 1.0, 0.0)).abs().max_element() < 1e-6, "the hips held at x = 5 cm");
    }
    let err = load_with(Path::new(FIXTURE), Some("Run")).unwrap_err();
    assert!(err.contains("0: Walk, 1: Idle"), "{err}");
    // A take that starts late on a shared timeline: frame 0 is its start.
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let late = text.replace(
        "\"LocalStart\", \"KTime\", \"Time\", \"\",0\n\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158000",
        "\"LocalStart\", \"KTime\", \"Time\", \"\",23093079000\n\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158000",
    );
    assert_ne!(late, text);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("late.fbx");
    std::fs::write(&path, late).unwrap();
    let m = load_with(&path, Some("Walk")).unwrap();
    assert_eq!(m.clip.num_frames(), 16, "0.5 to 1 s");
    let want = hand_worked(0.5);
    assert!((positions(&m, 0)[3] - want[3]).abs().max_element() < 1e-5, "frame 0 is 0.5 s into the keys");
}

#[test]
fn a_file_without_bones_shows_its_animated_nodes_with_a_warning() {
    let text = std::fs::read_to_string(FIXTURE).unwrap().replace("\"LimbNode\"", "\"Null\"").replace("\"Skeleton\"", "\"Null\"");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nulls.fbx");
    std::fs::write(&path, text).unwrap();
    let m = load_with(&path, None).unwrap();
    assert_eq!(names(&m), ["Reference", "beta:Hips", "beta:Spine"], "the animated nodes and their parent");
    assert!(m.warnings.iter().any(|w| w.message.contains("no bones")), "{:?}", m.warnings);
}

#[test]
fn a_body_of_helpers_that_a_skin_binds_to_is_the_skeleton() {
    // tests/data/fbx/helpers_skin_ascii.fbx: Nulls a mesh's skin binds to (a 3ds Max or Rokoko
    // body), one LimbNode, and a helper no skin binds to.
    let m = load_with(Path::new("tests/data/fbx/helpers_skin_ascii.fbx"), None).unwrap();
    let mut got = names(&m);
    got.sort_unstable();
    assert_eq!(
        got,
        ["Bip001", "Bip001 Head", "Bip001 L Calf", "Bip001 L Foot", "Bip001 L Thigh", "Bip001 Pelvis", "Bip001 Spine", "Ponytail"],
        "the legs only the skin names are joints; the unbound helper and the mesh are not"
    );
    let foot = m.skeleton.find("Bip001 L Foot").unwrap();
    assert!(m.skeleton.joints()[foot].details.contains(&("Role".into(), "bound by the skin (not a LimbNode)".into())));
    let p = positions(&m, 0);
    assert!((p[foot] - Vec3::new(0.1, 0.1, 0.0)).length() < 1e-5, "{}", p[foot]);
    assert!(m.warnings.iter().any(|w| w.message.contains("6 nodes the skin binds to")), "{:?}", m.warnings);
    // The guess can be turned off: skeleton nodes (and the nulls carrying them) only.
    let mut options = formats::LoadOptions::default();
    options.format.set("fbx.joints", "bones").unwrap();
    let request = formats::LoadRequest::file("tests/data/fbx/helpers_skin_ascii.fbx").unwrap();
    let bones = formats::load(&request, &options, &formats::Sequential, &mut formats::Quiet).unwrap();
    assert!(bones.skeleton.find("Bip001 L Foot").is_none() && bones.skeleton.find("Ponytail").is_some(), "{:?}", names(&bones));
    // The hand-written rig has no skin: its joints are as they were.
    let rig = load_with(Path::new(FIXTURE), None).unwrap();
    assert!(rig.warnings.iter().all(|w| !w.message.contains("skin")), "{:?}", rig.warnings);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn bad_files_are_clear_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let binary = ascii_to_binary(&text, 7400);
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("empty.fbx".into(), Vec::new()),
        ("junk.fbx".into(), (0..4000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()),
        ("header_only.fbx".into(), binary[..27].to_vec()),
    ];
    // An array that claims 2^31 keys: refused by the memory limit, not allocated.
    let mut huge = binary.clone();
    let at = huge.windows(8).position(|w| w == b"KeyTimel").expect("a key-time array") + 8;
    huge[at..at + 4].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    cases.push(("huge_array.fbx".into(), huge));
    for cut in [40, binary.len() / 3, binary.len() / 2, binary.len() - 30] {
        cases.push((format!("binary_cut_{cut}.fbx"), binary[..cut].to_vec()));
    }
    if let Some(corpus) = support::corpus() {
        let big = std::fs::read(corpus.join("fbx/ozz_robot.fbx")).unwrap();
        for cut in [100, big.len() / 2, big.len() - 200] {
            cases.push((format!("robot_cut_{cut}.fbx"), big[..cut].to_vec()));
        }
    }
    for (name, bytes) in cases {
        let path = dir.path().join(&name);
        std::fs::write(&path, bytes).unwrap();
        let Err(err) = load_with(&path, None) else { panic!("{name} loaded") };
        assert!(err.contains(&name), "{name}: the error names the file: {err}");
        assert!(err.contains("FBX") || err.contains("nothing to show"), "{name}: {err}");
    }
    // Damage ufbx can read past (an ASCII text cut short, a node's end offset that lies)
    // loads what is there or says why; it never panics.
    let mut lying = binary.clone();
    lying[27..31].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut damaged: Vec<Vec<u8>> = [200, text.len() / 2, text.len() - 3].iter().map(|&cut| text.as_bytes()[..cut].to_vec()).collect();
    damaged.push(lying);
    for bytes in damaged {
        let path = dir.path().join("damaged.fbx");
        std::fs::write(&path, bytes).unwrap();
        if let Err(e) = load_with(&path, None) {
            assert!(e.contains("damaged.fbx"), "{e}");
        }
    }
}

/// The corpus files' takes as the corpus notes list them.
const CORPUS_TAKES: [(&str, &[&str]); 7] = [
    ("assimp_huesitos.fbx", &["Armature|Action"]),
    ("ozz_pab_atlas.fbx", &["atlas"]),
    ("ozz_pab_locomotions.fbx", &["jog", "run", "walk"]),
    ("ozz_robot.fbx", &["Take 001"]),
    ("ufbx_blender_279_sausage_6100_ascii.fbx", &["Default Take", "Base", "Spin", "Wiggle"]),
    ("ufbx_max_transformed_skin_6100_binary.fbx", &["Take 001"]),
    ("ufbx_maya_game_sausage_7500_binary_combined.fbx", &["wiggle", "spin", "deform"]),
];

/// World positions of `joints` at `time`, evaluated by ufbx as a whole scene (its own
/// `evaluate_scene` and `node_to_world`, a path separate from the per-node transforms
/// skelview composes), in metres Y-up.
fn ufbx_positions(bytes: &[u8], stack: usize, time: f64, joints: &[&str], m: &Motion) -> Vec<Vec3> {
    let opts = ufbx::LoadOpts { inherit_mode_handling: ufbx::InheritModeHandling::HelperNodes, ..Default::default() };
    let scene = ufbx::load_memory(bytes, opts).unwrap();
    let anim = &scene.anim_stacks[stack].anim;
    let evaluated = ufbx::evaluate_scene(&scene, anim, time, ufbx::EvaluateOpts::default()).unwrap();
    let display = m.display_from_file();
    joints
        .iter()
        .map(|name| {
            let node = evaluated.nodes.iter().find(|n| n.element.name.as_ref() as &str == *name).unwrap_or_else(|| panic!("{name}"));
            let w = &node.node_to_world;
            display.transform_point3(Vec3::new(w.m03 as f32, w.m13 as f32, w.m23 as f32))
        })
        .collect()
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_fbx_loads_with_its_takes_and_ufbx_world_positions() {
    let Some(corpus) = support::corpus() else { return };
    let files = support::files(&corpus.join("fbx"), "fbx");
    assert_eq!(files.len(), CORPUS_TAKES.len());
    for (file, takes) in CORPUS_TAKES {
        let path = corpus.join("fbx").join(file);
        let bytes = std::fs::read(&path).unwrap();
        let m = load_with(&path, None).unwrap_or_else(|e| panic!("{e}"));
        let listed: Vec<&str> = m.source.takes.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(listed, takes, "{file}");
        for (k, take) in takes.iter().enumerate() {
            let t = load_with(&path, Some(&k.to_string())).unwrap();
            assert_eq!(t.source.take, Some(k));
            let (begin, end) = {
                let s = ufbx::load_memory(&bytes, ufbx::LoadOpts::default()).unwrap();
                (s.anim_stacks[k].time_begin, s.anim_stacks[k].time_end)
            };
            let n = t.clip.num_frames();
            assert_eq!(n, ((end - begin) * t.clip.fps()).round() as usize + 1, "{file} '{take}': start to stop, both included");
            // Named joints only: ufbx's helpers and unnamed nodes cannot be looked up by name.
            let joints: Vec<&str> = names(&t).into_iter().filter(|n| !n.is_empty() && !n.contains("(node ")).collect();
            for f in [0, 1, n / 2, n - 1] {
                let time = (begin + f as f64 / t.clip.fps()).min(end);
                let want = ufbx_positions(&bytes, k, time, &joints, &t);
                let all = positions(&t, f);
                let height = t.source.body_height * t.metres_per_raw_unit();
                for (name, w) in joints.iter().zip(&want) {
                    let j = t.skeleton.find(name).unwrap();
                    let err = (all[j] - *w).length();
                    assert!(err <= 1e-4 * height.max(0.01), "{file} '{take}' frame {f} {name}: {} against ufbx {w} ({err} m)", all[j]);
                }
            }
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn the_blender_sausage_agrees_with_a_second_reader() {
    let Some(corpus) = support::corpus() else { return };
    // tests/data/fbx/sausage_reference.py (plain-text parsing of the FBX 6.1 ASCII file, linear
    // keys, T·R·S composed down the hierarchy; no ufbx) was run once; its output is kept.
    let csv = std::fs::read_to_string("tests/data/fbx/blender_279_sausage_positions.csv").unwrap();
    let path = corpus.join("fbx/ufbx_blender_279_sausage_6100_ascii.fbx");
    let mut checked = 0;
    for take in ["Default Take", "Base", "Spin", "Wiggle"] {
        let m = load_with(&path, Some(take)).unwrap();
        for row in csv.lines().skip(1).filter(|l| l.starts_with(&format!("{take},"))) {
            let cells: Vec<&str> = row.split(',').collect();
            let frame: usize = cells[1].parse().unwrap();
            let want = Vec3::new(cells[3].parse().unwrap(), cells[4].parse().unwrap(), cells[5].parse().unwrap());
            let got = positions(&m, frame)[m.skeleton.find(cells[2]).unwrap()];
            assert!((got - want).length() < 1e-6, "{take} frame {frame} {}: {got} against {want}", cells[2]);
            checked += 1;
        }
    }
    assert_eq!(checked, 56, "4 joints at 4 frames of 3 takes, 2 frames of the one-frame 'Base'");
}

#[test]
fn declared_units_and_axes_go_through_the_one_display_transform() {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        load_with(&path, None).unwrap()
    };
    // Metres, Z up, front -Y, right +X (3ds Max's axes): the same numbers read 100 times
    // larger and turned so that the file's Z is up.
    let z_up = text
        .replace("\"UnitScaleFactor\", \"double\", \"Number\", \"\",1", "\"UnitScaleFactor\", \"double\", \"Number\", \"\",100")
        .replace("\"UpAxis\", \"int\", \"Integer\", \"\",1", "\"UpAxis\", \"int\", \"Integer\", \"\",2")
        .replace("\"FrontAxis\", \"int\", \"Integer\", \"\",2", "\"FrontAxis\", \"int\", \"Integer\", \"\",1")
        .replace("\"FrontAxisSign\", \"int\", \"Integer\", \"\",1", "\"FrontAxisSign\", \"int\", \"Integer\", \"\",-1");
    let m = write("z_up.fbx", z_up);
    assert_eq!((m.source.unit, m.source.up_axis), (skelview_core::core::LengthUnit::Metre, skelview_core::core::UpAxis::Z));
    assert!(m.warnings.iter().all(|w| !w.message.contains("left-handed")), "{:?}", m.warnings);
    for f in [0, 15, 30] {
        for (got, want) in positions(&m, f).iter().zip(hand_worked(f as f32 / 30.0)) {
            let file = want * 100.0;
            let shown = Vec3::new(file.x, file.z, -file.y);
            assert!((*got - shown).abs().max_element() < 1e-3, "frame {f}: {got} against {shown}");
        }
    }
    // A left-handed system is said, not silently shown as right-handed.
    let left = text.replace("\"CoordAxisSign\", \"int\", \"Integer\", \"\",1", "\"CoordAxisSign\", \"int\", \"Integer\", \"\",-1");
    let m = write("left.fbx", left);
    assert!(m.warnings.iter().any(|w| w.message.contains("left-handed")), "{:?}", m.warnings);
    // An odd unit (UnitScaleFactor 10: decimetres) still gives metres.
    let dm = text.replace("\"UnitScaleFactor\", \"double\", \"Number\", \"\",1", "\"UnitScaleFactor\", \"double\", \"Number\", \"\",10");
    let m = write("dm.fbx", dm);
    assert!((m.metres_per_raw_unit() - 0.1).abs() < 1e-7, "{}", m.metres_per_raw_unit());
    assert!((positions(&m, 0)[1] - Vec3::new(1.0, 10.0, 0.0)).abs().max_element() < 1e-4, "hips 100 dm up");
}
