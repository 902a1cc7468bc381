//! VRM avatars and VRM animations: their extensions, humanoid bones in the inspector's details,
//! meta in `info`, and joints paired by humanoid bone in the comparison.

use serde_json::json;
use skelview_core::compare::{MatchKind, Placement, match_joints};
use skelview_core::core::Motion;
use skelview_core::export::gltf_writer::write_glb;
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};

/// A three-joint body (hips, head above, left foot below) as GLB, its nodes named `names`,
/// with `extensions`; `animated` adds a one-second turn of the hips.
fn glb(names: [&str; 3], extensions: serde_json::Value, animated: bool) -> Vec<u8> {
    let (doc, bin) = document(names, extensions, animated);
    let mut out = Vec::new();
    write_glb(&doc, &bin, &mut out).unwrap();
    out
}

/// [`glb`]'s JSON document and binary chunk.
fn document(names: [&str; 3], extensions: serde_json::Value, animated: bool) -> (serde_json::Value, Vec<u8>) {
    let mut bin: Vec<u8> = Vec::new();
    let floats = |v: &[f32], bin: &mut Vec<u8>| v.iter().for_each(|f| bin.extend_from_slice(&f.to_le_bytes()));
    floats(&[0.0, 1.0], &mut bin);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    floats(&[0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, h], &mut bin);
    let mut doc = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [
            { "name": names[0], "translation": [0.0, 1.0, 0.0], "children": [1, 2] },
            { "name": names[1], "translation": [0.0, 0.6, 0.0] },
            { "name": names[2], "translation": [0.1, -0.9, 0.0] }
        ],
        "skins": [{ "joints": [0, 1, 2] }],
        "buffers": [{ "byteLength": bin.len() }],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 8 },
            { "buffer": 0, "byteOffset": 8, "byteLength": 32 }
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0] },
            { "bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4" }
        ],
        "extensions": extensions
    });
    if animated {
        doc["animations"] = json!([{
            "name": "turn",
            "samplers": [{ "input": 0, "output": 1, "interpolation": "LINEAR" }],
            "channels": [{ "sampler": 0, "target": { "node": 0, "path": "rotation" } }]
        }]);
    }
    (doc, bin)
}

fn load(name: &str, bytes: Vec<u8>) -> Motion {
    let request = LoadRequest::memory(name, bytes).unwrap();
    assert_eq!(request.format.name(), "glTF", "{name} is read as glTF by its extension");
    formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap()
}

fn avatar() -> Motion {
    let vrm0 = json!({ "VRM": {
        "meta": { "title": "Test avatar", "author": "skelview", "licenseName": "CC0" },
        "humanoid": { "humanBones": [ { "bone": "hips", "node": 0 }, { "bone": "head", "node": 1 }, { "bone": "leftFoot", "node": 2 } ] }
    }});
    load("avatar.vrm", glb(["J_Bip_C_Hips", "J_Bip_C_Head", "J_Bip_L_Foot"], vrm0, false))
}

fn animation() -> Motion {
    let vrma = json!({ "VRMC_vrm_animation": { "specVersion": "1.0",
        "humanoid": { "humanBones": { "hips": { "node": 0 }, "head": { "node": 1 }, "leftFoot": { "node": 2 } } }
    }});
    load("wave.vrma", glb(["a", "b", "c"], vrma, true))
}

#[test]
fn vrm_files_name_their_humanoid_bones_and_say_who_made_them() {
    let m = avatar();
    let bones: Vec<_> = m.skeleton.joints().iter().map(|j| j.humanoid.as_deref()).collect();
    assert_eq!(bones, [Some("hips"), Some("head"), Some("leftFoot")]);
    assert!(m.skeleton.joints()[1].details.contains(&("VRM humanoid bone".into(), "head".into())));
    let detail = |k: &str| m.source.details.iter().find(|(l, _)| l == k).map(|(_, v)| v.as_str());
    assert_eq!(detail("VRM"), Some("VRM 0.x (3 humanoid bones)"));
    assert_eq!((detail("Title"), detail("Authors"), detail("Licence")), (Some("Test avatar"), Some("skelview"), Some("CC0")));
    let a = animation();
    assert!(a.clip.num_frames() > 1, "the turn is sampled");
    assert_eq!(a.skeleton.joints()[2].humanoid.as_deref(), Some("leftFoot"));
    // Plain glTF has none.
    let plain = load("plain.glb", glb(["Hips", "Head", "LeftFoot"], json!({}), false));
    assert!(plain.skeleton.joints().iter().all(|j| j.humanoid.is_none()));
}

#[test]
fn an_animation_pairs_with_its_avatar_and_with_a_bvh_by_humanoid_bone() {
    let (avatar, anim) = (avatar(), animation());
    let pairs = match_joints(&anim.skeleton, Placement::Origin, &avatar.skeleton, Placement::Origin);
    assert_eq!(pairs, [(0, 0, MatchKind::Humanoid), (1, 1, MatchKind::Humanoid), (2, 2, MatchKind::Humanoid)]);
    let text = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT Head\n {\n  OFFSET 0 60 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 10 0\n  }\n }\n JOINT LeftFoot\n {\n  OFFSET 10 -90 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0 10\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n0 0 0 0 0 0 0 0 0\n";
    let bvh = skelview_core::formats::open_bytes("x.bvh", text.as_bytes(), &LoadOptions::default()).unwrap();
    let pairs = match_joints(&avatar.skeleton, Placement::Origin, &bvh.skeleton, Placement::Origin);
    let named = |i: usize, k: usize| (avatar.skeleton.joints()[i].name.as_str(), bvh.skeleton.joints()[k].name.as_str());
    let found: Vec<_> = pairs.iter().map(|&(i, k, _)| named(i, k)).collect();
    assert_eq!(found, [("J_Bip_C_Hips", "Hips"), ("J_Bip_C_Head", "Head"), ("J_Bip_L_Foot", "LeftFoot")]);
}

#[test]
fn a_vrma_without_skins_keeps_its_humanoid_bones_that_do_not_move() {
    // As bvh2vrma writes it: no skin, only the hips animated; the head and the foot are
    // humanoid bones and must stay joints.
    let vrma = json!({ "VRMC_vrm_animation": { "specVersion": "1.0",
        "humanoid": { "humanBones": { "hips": { "node": 0 }, "head": { "node": 1 }, "leftFoot": { "node": 2 } } }
    }});
    let (mut doc, bin) = document(["hips", "head", "foot"], vrma, true);
    doc.as_object_mut().unwrap().remove("skins");
    let mut bytes = Vec::new();
    write_glb(&doc, &bin, &mut bytes).unwrap();
    let m = load("bvh2vrma.vrma", bytes);
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["hips", "head", "foot"], "{:?}", m.warnings);
    assert_eq!(m.skeleton.joints()[1].humanoid.as_deref(), Some("head"));
}
