//! glTF meshes: hand-made files whose posed vertices are worked out by hand (a two-joint
//! skin, eight influences a vertex over `JOINTS_1`/`WEIGHTS_1`, animated morph weights, a
//! sparse accessor; animated weights written back), and bad meshes that leave the skeleton loaded with a warning naming the
//! mesh and the accessor (a joint beyond the skin, weights all zero, NaN in an inverse bind
//! matrix, attribute counts that disagree).

use glam::{Mat4, Vec3};
use serde_json::{Value, json};

use skelview_core::core::Motion;
use skelview_core::core::mesh_frames::vertices;

/// A binary buffer and the accessors over it.
#[derive(Default)]
struct Buffer {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Buffer {
    /// Adds `values` as one accessor of `kind` (`VEC3`…) and component type `component`.
    fn add(&mut self, kind: &str, component: u32, bytes: Vec<u8>, count: usize) -> usize {
        let offset = self.bin.len();
        self.bin.extend_from_slice(&bytes);
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() }));
        self.accessors.push(json!({ "bufferView": self.views.len() - 1, "componentType": component, "count": count, "type": kind }));
        if kind == "VEC3" {
            // glTF asks bounds of POSITION accessors; harmless on the others.
            self.accessors.last_mut().unwrap()["min"] = json!([-100, -100, -100]);
            self.accessors.last_mut().unwrap()["max"] = json!([100, 100, 100]);
        }
        self.accessors.len() - 1
    }

    fn floats(&mut self, kind: &str, values: &[f32], per: usize) -> usize {
        self.add(kind, 5126, values.iter().flat_map(|v| v.to_le_bytes()).collect(), values.len() / per)
    }

    fn u16s(&mut self, kind: &str, values: &[u16], per: usize) -> usize {
        self.add(kind, 5123, values.iter().flat_map(|v| v.to_le_bytes()).collect(), values.len() / per)
    }

    /// A GLB of `doc` (buffers, views and accessors filled in) and this buffer.
    fn glb(self, mut doc: Value) -> Vec<u8> {
        doc["asset"] = json!({ "version": "2.0" });
        doc["buffers"] = json!([{ "byteLength": self.bin.len() }]);
        doc["bufferViews"] = json!(self.views);
        doc["accessors"] = json!(self.accessors);
        let mut j = serde_json::to_vec(&doc).unwrap();
        while !j.len().is_multiple_of(4) {
            j.push(b' ');
        }
        let mut out = b"glTF".to_vec();
        for n in [2, (12 + 8 + j.len() + 8 + self.bin.len()) as u32, j.len() as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&j);
        out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&self.bin);
        out
    }
}

/// A quad (0,0)-(1,1) in the XY plane: positions and two triangles.
fn quad(b: &mut Buffer) -> (usize, usize) {
    let positions = b.floats("VEC3", &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0], 3);
    let indices = b.u16s("SCALAR", &[0, 1, 2, 1, 3, 2], 1);
    (positions, indices)
}

fn matrices(ms: &[Mat4]) -> Vec<f32> {
    ms.iter().flat_map(|m| m.to_cols_array()).collect()
}

/// A root at the origin and a tip 1 m up, the tip turned 90° about Z at 1 s (LINEAR, keys at
/// 0 and 1 s); a quad skinned to them: its bottom on the root, its top on the tip. `edit`
/// changes the document before it is written (bad input).
fn two_joint_skin(edit: impl FnOnce(&mut Buffer, &mut Value)) -> Vec<u8> {
    let mut b = Buffer::default();
    let (positions, indices) = quad(&mut b);
    let joints = b.u16s("VEC4", &[0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 4);
    let weights = b.floats("VEC4", &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], 4);
    let ibm = b.floats("MAT4", &matrices(&[Mat4::IDENTITY, Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0))]), 16);
    let times = b.floats("SCALAR", &[0.0, 1.0], 1);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let turns = b.floats("VEC4", &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s], 4);
    let mut doc = json!({
        "scene": 0,
        "scenes": [{ "nodes": [0, 3] }],
        "nodes": [
            { "name": "root", "children": [1] },
            { "name": "tip", "translation": [0, 1, 0] },
            { "name": "unused" },
            { "name": "body", "mesh": 0, "skin": 0 }
        ],
        "skins": [{ "joints": [0, 1], "inverseBindMatrices": ibm }],
        "meshes": [{ "name": "quad", "primitives": [{ "attributes": { "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights }, "indices": indices }] }],
        "animations": [{ "samplers": [{ "input": times, "output": turns }], "channels": [{ "sampler": 0, "target": { "node": 1, "path": "rotation" } }] }]
    });
    edit(&mut b, &mut doc);
    b.glb(doc)
}

fn load(name: &str, bytes: Vec<u8>) -> Motion {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    skelview_core::formats::load_paths(&[path]).map(|mut v| v.remove(0)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn near(a: Vec3, b: [f32; 3]) -> bool {
    (a - Vec3::from(b)).abs().max_element() < 1e-5
}

#[test]
fn a_two_joint_skin_puts_its_vertices_where_the_joints_take_them() {
    let m = load("skin.glb", two_joint_skin(|_, _| {}));
    let set = m.meshes.as_deref().expect("meshes");
    assert_eq!((set.meshes.len(), set.meshes[0].triangles(), set.meshes[0].skinned), (1, 2, true));
    let last = m.clip.num_frames() - 1;
    let v = vertices(&m, &[0], &[0, last], Mat4::IDENTITY);
    // Rest: as written. At 1 s the tip turned 90° about Z: a top vertex (x, 1) is (x, 0) in the
    // tip's space, turned to (0, x), then lifted by 1 to (0, 1 + x).
    for (k, p) in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]].iter().enumerate() {
        assert!(near(v[k], *p), "rest vertex {k}: {:?}", v[k]);
    }
    assert!(near(v[4 + 2], [0.0, 1.0, 0.0]) && near(v[4 + 3], [0.0, 2.0, 0.0]), "turned: {:?}", &v[4..]);
    assert!(near(v[4 + 1], [1.0, 0.0, 0.0]), "the root's vertices stay: {:?}", &v[4..]);
}

#[test]
fn eight_influences_a_vertex_all_count() {
    // Eight joints at x = 0..7, each with its inverse bind; joint 7 rises 8 m at 1 s. The
    // quad's last vertex weighs 1/8 on each (the last four in JOINTS_1): it rises 1 m.
    let mut b = Buffer::default();
    let (positions, indices) = quad(&mut b);
    let j0: Vec<u16> = (0..4).flat_map(|_| [0, 1, 2, 3]).collect();
    let j1: Vec<u16> = (0..4).flat_map(|_| [4, 5, 6, 7]).collect();
    let mut w0 = [1.0, 0.0, 0.0, 0.0].repeat(3);
    w0.extend([0.125; 4]);
    let mut w1 = vec![0.0f32; 12];
    w1.extend([0.125; 4]);
    let (j0, j1) = (b.u16s("VEC4", &j0, 4), b.u16s("VEC4", &j1, 4));
    let (w0, w1) = (b.floats("VEC4", &w0, 4), b.floats("VEC4", &w1, 4));
    let ibm =
        b.floats("MAT4", &matrices(&(0..8).map(|k| Mat4::from_translation(Vec3::new(-(k as f32), 0.0, 0.0))).collect::<Vec<_>>()), 16);
    let times = b.floats("SCALAR", &[0.0, 1.0], 1);
    let lift = b.floats("VEC3", &[7.0, 0.0, 0.0, 7.0, 8.0, 0.0], 3);
    let nodes: Vec<Value> =
        (0..8).map(|k| json!({ "name": format!("j{k}"), "translation": [k, 0, 0] })).chain([json!({ "mesh": 0, "skin": 0 })]).collect();
    let doc = json!({
        "scenes": [{ "nodes": (0..9).collect::<Vec<_>>() }],
        "nodes": nodes,
        "skins": [{ "joints": (0..8).collect::<Vec<_>>(), "inverseBindMatrices": ibm }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": positions, "JOINTS_0": j0, "JOINTS_1": j1, "WEIGHTS_0": w0, "WEIGHTS_1": w1 }, "indices": indices }] }],
        "animations": [{ "samplers": [{ "input": times, "output": lift }], "channels": [{ "sampler": 0, "target": { "node": 7, "path": "translation" } }] }]
    });
    let m = load("eight.glb", b.glb(doc));
    assert_eq!(m.meshes.as_deref().unwrap().meshes[0].influences(), 8);
    let last = m.clip.num_frames() - 1;
    let v = vertices(&m, &[0], &[0, last], Mat4::IDENTITY);
    assert!(near(v[3], [1.0, 1.0, 0.0]) && near(v[4 + 3], [1.0, 2.0, 0.0]), "{:?} {:?}", v[3], v[7]);
    assert!(near(v[4 + 2], [0.0, 1.0, 0.0]), "a vertex on joint 0 alone stays: {:?}", v[6]);
}

#[test]
fn animated_morph_weights_move_the_vertices_between_keys() {
    let m = morphing();
    let mesh = &m.meshes.as_deref().unwrap().meshes[0];
    assert_eq!(mesh.morph_targets.len(), 1);
    let mut w = Vec::new();
    mesh.morph_weights_at(0.5, &mut w);
    assert!((w[0] - 0.5).abs() < 1e-5, "{w:?}");
    let last = m.clip.num_frames() - 1;
    let v = vertices(&m, &[0], &[0, last], Mat4::IDENTITY);
    assert!(near(v[0], [0.0, 0.0, 0.0]) && near(v[4], [0.0, 0.0, 1.0]), "{:?} {:?}", v[0], v[4]);
}

#[test]
fn written_glb_keeps_the_animated_morph_weights() {
    use skelview_core::export::gltf_writer::{Animation, document, write_glb};
    let m = morphing();
    let (doc, bin) = document(&[Animation { name: "take".into(), motion: &m }]).unwrap();
    let mut bytes = Vec::new();
    write_glb(&doc, &bin, &mut bytes).unwrap();
    let back = load("written.glb", bytes);
    let (a, b) = (&m.meshes.as_deref().unwrap().meshes[0], &back.meshes.as_deref().unwrap().meshes[0]);
    assert!(b.morph_animation.is_some(), "no animated weights written");
    let (mut wa, mut wb) = (Vec::new(), Vec::new());
    for k in 0..=10 {
        let t = f64::from(k) / 10.0;
        a.morph_weights_at(t, &mut wa);
        b.morph_weights_at(t, &mut wb);
        assert!((wa[0] - wb[0]).abs() < 1e-5, "at {t} s: {wa:?} written as {wb:?}");
    }
}

/// A two-joint skin with one morph target whose weight goes 0 → 1 over a second.
fn morphing() -> Motion {
    load(
        "morph.glb",
        two_joint_skin(|b, doc| {
            let up = b.floats("VEC3", &[0.0, 0.0, 1.0].repeat(4), 3);
            let times = b.floats("SCALAR", &[0.0, 1.0], 1);
            let weights = b.floats("SCALAR", &[0.0, 1.0], 1);
            doc["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": up }]);
            doc["meshes"][0]["weights"] = json!([0.0]);
            doc["animations"][0]["samplers"].as_array_mut().unwrap().push(json!({ "input": times, "output": weights }));
            doc["animations"][0]["channels"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "sampler": 1, "target": { "node": 3, "path": "weights" } }));
        }),
    )
}

#[test]
fn a_sparse_accessor_moves_the_vertices_it_names() {
    let m = load(
        "sparse.glb",
        two_joint_skin(|b, doc| {
            let at = b.u16s("SCALAR", &[1], 1);
            let value = b.floats("VEC3", &[5.0, 0.0, 0.0], 3);
            let (iv, vv) = (b.accessors[at]["bufferView"].clone(), b.accessors[value]["bufferView"].clone());
            let p = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
            b.accessors[p]["sparse"] =
                json!({ "count": 1, "indices": { "bufferView": iv, "componentType": 5123 }, "values": { "bufferView": vv } });
        }),
    );
    let v = vertices(&m, &[0], &[0], Mat4::IDENTITY);
    assert!(near(v[1], [5.0, 0.0, 0.0]) && near(v[0], [0.0, 0.0, 0.0]), "{v:?}");
}

#[test]
fn bad_meshes_are_left_out_with_a_warning_naming_them_and_the_skeleton_loads() {
    let cases: Vec<(&str, Box<dyn FnOnce(&mut Buffer, &mut Value)>, &str)> = vec![
        (
            "beyond",
            Box::new(|b: &mut Buffer, doc: &mut Value| {
                let j = b.u16s("VEC4", &[0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0], 4);
                doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(j);
            }),
            "names joint 5 of its skin's 2 in JOINTS_0 (accessor",
        ),
        (
            "zero",
            Box::new(|b: &mut Buffer, doc: &mut Value| {
                let w = b.floats("VEC4", &[0.0; 16], 4);
                doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(w);
            }),
            "weights are all zero",
        ),
        (
            "nan",
            Box::new(|b: &mut Buffer, doc: &mut Value| {
                let mut m = matrices(&[Mat4::IDENTITY, Mat4::IDENTITY]);
                m[20] = f32::NAN;
                let ibm = b.floats("MAT4", &m, 16);
                doc["skins"][0]["inverseBindMatrices"] = json!(ibm);
            }),
            "inverse bind matrix 1 (accessor",
        ),
        (
            "counts",
            Box::new(|b: &mut Buffer, doc: &mut Value| {
                let n = b.floats("VEC3", &[0.0, 0.0, 1.0].repeat(3), 3);
                doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = json!(n);
            }),
            "has 3 entries for 4 positions",
        ),
        (
            "type",
            Box::new(|b: &mut Buffer, doc: &mut Value| {
                let p = b.u16s("VEC3", &[0; 12], 3);
                doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(p);
            }),
            "which glTF does not allow",
        ),
    ];
    for (name, edit, expected) in cases {
        let m = load(&format!("{name}.glb"), two_joint_skin(edit));
        assert_eq!(m.skeleton.len(), 2, "{name}: the skeleton still loads");
        assert!(m.meshes.is_none(), "{name}: the bad mesh is left out");
        let said: Vec<&str> = m.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(said.iter().any(|w| w.contains(expected) && w.contains("quad")), "{name}: {said:?}");
    }
}

/// Edits that change a joint's frame keep the meshes on the body: a new rest pose leaves
/// every vertex where it was, a scale scales them, a removed joint drops the meshes on it.
#[test]
fn edits_keep_the_meshes_bound_to_the_body() {
    use skelview_core::edit::{Recipe, apply};
    let m = load("skin.glb", two_joint_skin(|_, _| {}));
    let last = m.clip.num_frames() - 1;
    let before = vertices(&m, &[0], &[last], Mat4::IDENTITY);
    let edit = |toml: &str| apply(&m, &Recipe::from_toml(toml).unwrap(), &|_| true).unwrap();
    let rested = edit(&format!("[[step]]\nop = \"rest_from_frame\"\nframe = {last}\n")).motion;
    let after = vertices(&rested, &[0], &[last], Mat4::IDENTITY);
    assert!(before.iter().zip(&after).all(|(a, b)| (*a - *b).length() < 1e-5), "{before:?} {after:?}");
    let scaled = edit("[[step]]\nop = \"scale\"\nfactor = 2.0\n").motion;
    let after = vertices(&scaled, &[0], &[last], Mat4::IDENTITY);
    assert!(before.iter().zip(&after).all(|(a, b)| (*a * 2.0 - *b).length() < 1e-5), "{before:?} {after:?}");
    let removed = edit("[[step]]\nop = \"remove_joint\"\nname = \"tip\"\n");
    assert!(removed.motion.meshes.is_none() && removed.notes[0].contains("meshes are dropped"), "{:?}", removed.notes);
}

/// COLLADA2GLTF's `Z_UP` and `Armature` nodes above the skin (RiggedSimple, CesiumMan's
/// exporter) are transforms: in the tree, not bones; the skin's joints are bones.
#[test]
fn nodes_above_the_skin_are_transforms_not_bones() {
    let Some(corpus) = skelview_test_support::corpus::corpus() else { return };
    let m = skelview_core::formats::load_paths(&[corpus.join("gltf/RiggedSimple_embedded.gltf")]).unwrap().remove(0);
    let transforms: Vec<(&str, bool)> = m.skeleton.joints().iter().map(|j| (j.name.as_str(), j.is_transform)).collect();
    assert_eq!(transforms, [("Z_UP", true), ("Armature", true), ("Bone", false), ("Bone.001", false)]);
    // A node between two skin joints is a bone (the chain stays drawn).
    let m = load("skin.glb", two_joint_skin(|_, doc| doc["nodes"][0]["name"] = json!("root")));
    assert!(m.skeleton.joints().iter().all(|j| !j.is_transform));
}
