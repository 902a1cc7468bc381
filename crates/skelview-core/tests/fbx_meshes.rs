//! FBX meshes against ufbx's own skinning: for the corpus files with meshes (skinned, rigid,
//! 6.1 ASCII to 7.5 binary, 3ds Max's transformed skin) and a hand-written skin (with a vertex
//! no cluster weighs, which follows its mesh's node), skelview's posed vertices at a few
//! frames equal the vertices ufbx skins itself (`evaluate_scene` with `evaluate_skinning`),
//! triangle corner by triangle corner, within 1e-4 of the model's size. Bad geometry leaves
//! the mesh out with a warning naming it; the skeleton still loads.

use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use skelview_core::core::Motion;
use skelview_core::core::mesh_frames::vertices;

use skelview_test_support as support;

const HELPERS: &str = "tests/data/fbx/helpers_skin_ascii.fbx";

fn load(path: &Path) -> Motion {
    skelview_core::formats::load_paths(&[path.to_path_buf()]).map(|mut v| v.remove(0)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The take `k` of the file at `path`.
fn load_take(path: &Path, k: usize) -> Motion {
    use skelview_core::formats;
    let options = formats::LoadOptions { take: Some(k.to_string()), ..Default::default() };
    let request = formats::LoadRequest::file(path).unwrap();
    formats::load(&request, &options, &formats::Sequential, &mut formats::Quiet).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A ufbx mesh part as skelview names it and the world positions of its triangles' corners.
struct Expected {
    name: String,
    corners: Vec<Vec3>,
}

fn v3(v: ufbx::Vec3) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// What ufbx makes of every drawn mesh part at `time` of stack `stack`: its own evaluation and
/// skinning, its own triangulation; a skinned mesh once, a rigid one per node that holds it.
fn ufbx_meshes(bytes: &[u8], stack: Option<usize>, time: f64) -> Vec<Expected> {
    let opts = ufbx::LoadOpts { inherit_mode_handling: ufbx::InheritModeHandling::HelperNodes, ..Default::default() };
    let scene = ufbx::load_memory(bytes, opts).unwrap();
    let anim = stack.map_or(&scene.anim, |s| &scene.anim_stacks[s].anim);
    let eval = ufbx::EvaluateOpts { evaluate_skinning: true, ..Default::default() };
    let scene = ufbx::evaluate_scene(&scene, anim, time, eval).unwrap();
    let mut out = Vec::new();
    let mut skinned = std::collections::HashSet::new();
    for node in scene.nodes.iter() {
        let Some(mesh) = node.mesh.as_ref() else { continue };
        if !mesh.skin_deformers.is_empty() && !skinned.insert(mesh.element.typed_id) {
            continue;
        }
        let parts: Vec<&ufbx::MeshPart> = mesh.material_parts.iter().filter(|p| p.num_triangles > 0).collect();
        for part in &parts {
            let mut corners = Vec::new();
            let mut tri = vec![0u32; mesh.max_face_triangles * 3];
            for &f in part.face_indices.iter() {
                let n = ufbx::triangulate_face(&mut tri, mesh, mesh.faces[f as usize]) as usize;
                for &c in &tri[..n * 3] {
                    let p = ufbx::get_vertex_vec3(&mesh.skinned_position, c as usize);
                    let p = if mesh.skinned_is_local { ufbx::transform_position(&node.geometry_to_world, p) } else { p };
                    corners.push(v3(p));
                }
            }
            let base = node.element.name.to_string();
            let name = if parts.len() > 1 { format!("{base} #{}", part.index) } else { base };
            out.push(Expected { name, corners });
        }
    }
    out
}

/// Compares every mesh of `m` (loaded from `bytes`) with ufbx at `frames`; returns the largest
/// error as a share of the model's size.
fn compare(file: &str, bytes: &[u8], m: &Motion, frames: &[usize]) -> f32 {
    let set = m.meshes.as_deref().unwrap_or_else(|| panic!("{file}: no meshes"));
    let stack = m.source.take;
    let (begin, end) = stack.map_or((0.0, 0.0), |s| {
        let scene = ufbx::load_memory(bytes, ufbx::LoadOpts::default()).unwrap();
        (scene.anim_stacks[s].time_begin, scene.anim_stacks[s].time_end)
    });
    let mut worst = 0.0f32;
    for &f in frames {
        let time = (begin + f as f64 / m.clip.fps()).min(end);
        let want = ufbx_meshes(bytes, stack, time);
        let names: Vec<&str> = set.meshes.iter().map(|x| x.name.as_str()).collect();
        let wanted: Vec<&str> = want.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, wanted, "{file}: the meshes, in ufbx's order");
        let all = want.iter().flat_map(|w| &w.corners);
        let (lo, hi) = all.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let size = (hi - lo).length().max(1e-6);
        for (k, (mesh, w)) in set.meshes.iter().zip(&want).enumerate() {
            let got = vertices(m, &[k], &[f], Mat4::IDENTITY);
            assert_eq!(mesh.indices.len(), w.corners.len(), "{file} mesh '{}': its triangles", mesh.name);
            for (c, (&i, want)) in mesh.indices.iter().zip(&w.corners).enumerate() {
                let err = (got[i as usize] - *want).length() / size;
                worst = worst.max(err);
                assert!(
                    err <= 1e-4,
                    "{file} frame {f} mesh '{}' corner {c}: {} against ufbx {want} ({err} of the size)",
                    mesh.name,
                    got[i as usize]
                );
            }
        }
    }
    worst
}

/// Frames spread over the clip.
fn some_frames(m: &Motion) -> Vec<usize> {
    let n = m.clip.num_frames().max(1);
    let mut f = vec![0, n / 3, n / 2, n - 1];
    f.dedup();
    f
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn corpus_meshes_are_where_ufbx_skins_them() {
    let Some(corpus) = support::corpus() else { return };
    let files = [
        ("ufbx_max_transformed_skin_6100_binary.fbx", true),
        ("assimp_huesitos.fbx", true),
        ("ufbx_blender_279_sausage_6100_ascii.fbx", true),
        ("ufbx_maya_game_sausage_7500_binary_combined.fbx", true),
        ("ozz_robot.fbx", false),
    ];
    for (file, skinned) in files {
        let path: PathBuf = corpus.join("fbx").join(file);
        let bytes = std::fs::read(&path).unwrap();
        let m = load(&path);
        let set = m.meshes.as_deref().unwrap_or_else(|| panic!("{file}: no meshes"));
        assert!(set.meshes.iter().any(|x| x.skinned) == skinned, "{file}: skinned {skinned}");
        for mesh in &set.meshes {
            assert!(
                !mesh.indices.is_empty() && mesh.indices.iter().all(|&i| (i as usize) < mesh.positions.len()),
                "{file} '{}'",
                mesh.name
            );
            assert!(mesh.weights.iter().all(|w| (w.iter().sum::<f32>() - 1.0).abs() < 1e-5), "{file} '{}': weights sum to 1", mesh.name);
        }
        // Every take: the morph weights and offsets a take moves are its own.
        for k in 0..m.source.takes.len().max(1) {
            let t = if m.source.takes.is_empty() { m.clone() } else { load_take(&path, k) };
            let worst = compare(file, &bytes, &t, &some_frames(&t));
            let morphs: usize = set.meshes.iter().map(|x| x.morph_targets.len()).sum();
            eprintln!(
                "{file} take {k}: {} meshes, {} vertices, {morphs} morph targets; largest error {worst:e} of the size",
                set.meshes.len(),
                set.vertex_count()
            );
        }
    }
}

/// The hand-written body of helpers with its mesh changed by `edit` (ASCII text in, out).
fn helpers_with(dir: &Path, name: &str, edit: impl FnOnce(String) -> String) -> (PathBuf, Vec<u8>) {
    let text = edit(std::fs::read_to_string(HELPERS).unwrap());
    let path = dir.join(name);
    std::fs::write(&path, &text).unwrap();
    (path, text.into_bytes())
}

#[test]
fn a_hand_written_skin_and_its_unweighted_vertex_are_where_ufbx_puts_them() {
    let dir = tempfile::tempdir().unwrap();
    // A quad whose fourth vertex no cluster weighs (it follows the mesh's node, moved 30 up).
    let (path, bytes) = helpers_with(dir.path(), "quad.fbx", |t| {
        t.replace("Vertices: *9 {\n\t\t\ta: 0,100,0,0,170,0,10,10,0", "Vertices: *12 {\n\t\t\ta: 0,100,0,0,170,0,10,10,0,5,5,5")
            .replace("PolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3", "PolygonVertexIndex: *4 {\n\t\t\ta: 0,1,2,-4")
            .replace(
                "Model: 410, \"Model::Body\", \"Mesh\" {\n\t\tVersion: 232\n",
                "Model: 410, \"Model::Body\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,30,0\n\t\t}\n",
            )
    });
    let m = load(&path);
    let set = m.meshes.as_deref().expect("the quad is read");
    let body = &set.meshes[0];
    assert_eq!((body.name.as_str(), body.positions.len(), body.triangles()), ("Body", 4, 2));
    assert_eq!(body.bones.len(), 7, "six clusters and the node for the unweighted vertex");
    compare("quad.fbx", &bytes, &m, &[0]);
    let at = vertices(&m, &[0], &[0], Mat4::IDENTITY);
    assert!(at.iter().any(|p| (*p - Vec3::new(5.0, 35.0, 5.0)).length() < 1e-4), "the unweighted vertex on its node: {at:?}");
}

#[test]
fn a_mesh_beyond_32_bit_floats_is_left_out_by_name_and_the_skeleton_loads() {
    let dir = tempfile::tempdir().unwrap();
    // 1e39 is a fine f64 for ufbx but no f32.
    let (path, _) = helpers_with(dir.path(), "far.fbx", |t| t.replace("a: 0,100,0,0,170,0,10,10,0", "a: 0,100,0,0,1e39,0,10,10,0"));
    let m = load(&path);
    assert!(m.meshes.is_none(), "the only mesh is left out");
    assert!(m.skeleton.find("Bip001 L Foot").is_some());
    let w: Vec<&str> = m.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(w.iter().any(|w| w.contains("mesh 'Body'") && w.contains("left out") && w.contains("not a finite")), "{w:?}");
}

/// A blend shape channel 'Grow' on the hand-written body: an in-between shape at 50 % and the
/// full one at 100 %, its weight keyed from 0 to 100 % over the take 'Grow' (1 s).
const GROW_OBJECTS: &str = r#"	Geometry: 601, "Geometry::Half", "Shape" {
		Version: 100
		Indexes: *1 {
			a: 2
		}
		Vertices: *3 {
			a: 0,20,0
		}
	}
	Geometry: 602, "Geometry::Full", "Shape" {
		Version: 100
		Indexes: *2 {
			a: 1,2
		}
		Vertices: *6 {
			a: 5,0,0,0,10,0
		}
	}
	Deformer: 701, "Deformer::Morph", "BlendShape" {
		Version: 100
	}
	Deformer: 702, "SubDeformer::Grow", "BlendShapeChannel" {
		Version: 100
		Properties70:  {
			P: "DeformPercent", "Number", "", "A",0
		}
		FullWeights: *2 {
			a: 50,100
		}
	}
	AnimationStack: 801, "AnimStack::Grow", "" {
		Properties70:  {
			P: "LocalStart", "KTime", "Time", "",0
			P: "LocalStop", "KTime", "Time", "",46186158000
		}
	}
	AnimationLayer: 802, "AnimLayer::Grow", "" {
	}
	AnimationCurveNode: 803, "AnimCurveNode::DeformPercent", "" {
		Properties70:  {
			P: "d|DeformPercent", "Number", "", "A",0
		}
	}
	AnimationCurve: 804, "AnimCurve::", "" {
		Default: 0
		KeyVer: 4009
		KeyTime: *2 {
			a: 0,46186158000
		}
		KeyValueFloat: *2 {
			a: 0,100
		}
		KeyAttrFlags: *1 {
			a: 4
		}
		KeyAttrDataFloat: *4 {
			a: 0,0,0,0
		}
		KeyAttrRefCount: *1 {
			a: 2
		}
	}
}
Connections:  {
	C: "OO",701,401
	C: "OO",702,701
	C: "OO",601,702
	C: "OO",602,702
	C: "OO",802,801
	C: "OO",803,802
	C: "OP",803,702, "DeformPercent"
	C: "OP",804,803, "d|DeformPercent"
"#;

#[test]
fn blend_shapes_with_an_in_between_follow_their_animated_weight_as_in_ufbx() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = helpers_with(dir.path(), "grow.fbx", |t| t.replace("}\nConnections:  {\n", GROW_OBJECTS));
    let m = load(&path);
    let body = &m.meshes.as_deref().expect("the body is read").meshes[0];
    let names: Vec<&str> = body.morph_targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Grow (50%)", "Grow (100%)"]);
    let animation = body.morph_animation.as_ref().expect("the take animates the weight");
    let n = m.clip.num_frames();
    assert_eq!(animation.values.len(), n * 2);
    // Halfway through the take the channel is at 50 %: the in-between shape in full.
    let half = n / 2;
    if (half as f64 / m.clip.fps() - 0.5).abs() < 1e-9 {
        assert_eq!(&animation.values[half * 2..half * 2 + 2], [1.0, 0.0]);
    }
    // The full shape lifts the third vertex 10 units by the end (nothing else moves).
    let (first, last) = (vertices(&m, &[0], &[0], Mat4::IDENTITY), vertices(&m, &[0], &[n - 1], Mat4::IDENTITY));
    let moved = first.iter().zip(&last).map(|(a, b)| (*b - *a).length()).fold(0.0f32, f32::max);
    assert!((moved - 10.0).abs() < 1e-4, "{moved}");
    let mut frames = some_frames(&m);
    frames.push(n / 4);
    compare("grow.fbx", &bytes, &m, &frames);
}

/// Found by fuzzing: a damaged 3ds Max file whose mesh has vertices no cluster weighs, which
/// follow a bone on no joint (the scene's root). The GLB writer once put that bone on joint 0,
/// a second time in the skin (glTF wants each node once, and the file did not read back): it
/// gets a node of its own, the file reads back with its mesh and its vertices where they were.
#[test]
fn a_bone_on_no_joint_is_written_as_a_glb_that_reads_back_the_same() {
    use skelview_core::export::gltf_writer::{Animation, document, write_glb};
    let path = support::workspace_root().join("crates/skelview-core/tests/data/fbx/fuzzed_bone_on_no_joint.fbx");
    let m = load(&path);
    let set = m.meshes.as_deref().expect("its mesh");
    let bones: Vec<Option<usize>> = set.meshes[0].bones.iter().map(|b| b.joint).collect();
    assert!(bones.contains(&None), "a bone on no joint: {bones:?}");
    let (doc, bin) = document(&[Animation { name: "take".into(), motion: &m }]).unwrap();
    let mut glb = Vec::new();
    write_glb(&doc, &bin, &mut glb).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    std::fs::write(&out, glb).unwrap();
    let back = load(&out);
    let frames = [0, m.clip.num_frames() - 1];
    let a = vertices(&m, &[0], &frames, m.display_from_file());
    let b = vertices(&back, &[0], &frames, back.display_from_file());
    assert_eq!(a.len(), b.len());
    let worst = a.iter().zip(&b).map(|(p, q)| (*p - *q).length()).fold(0.0, f32::max);
    assert!(worst < 1e-4, "{worst}");
}
