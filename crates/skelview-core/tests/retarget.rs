//! Retargeting: onto itself nothing moves; onto a skeleton with other proportions, an A-pose
//! rest, another facing and other names, every mapped bone points where the source's points,
//! frame by frame, and the hips travel scaled by the legs; maps that lack bones are refused.

use glam::{Quat, Vec3};
use skelview_core::core::{Interpolation, Joint, Motion, PoseAt, Sampler, Skeleton, UpAxis};
use skelview_core::formats::{self, LoadOptions, Sequential};
use skelview_core::retarget::{BoneMap, HipScale, RetargetError, RetargetOptions, bone_map, retarget};
use skelview_test_support as support;

fn sample() -> Motion {
    formats::open_one(&support::workspace_root().join("assets/walk01.bvh"), &LoadOptions::default(), &Sequential).unwrap()
}

fn map(m: &Motion) -> BoneMap {
    bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end)
}

fn positions(m: &Motion, f: usize) -> Vec<Vec3> {
    Sampler::default().positions(m, PoseAt::Frame(f), Interpolation::Nearest, m.display_from_file()).to_vec()
}

/// The sample's skeleton made another character: lengths × `k`, the arms hanging 40° lower at
/// rest (an A-pose), turned to face the other way, joints renamed as the Unreal mannequin.
fn other_character(m: &Motion, k: f32) -> Motion {
    let names = [
        ("Hips", "pelvis"),
        ("Spine", "spine_01"),
        ("Spine1", "spine_02"),
        ("Neck", "neck_01"),
        ("Head", "head"),
        ("LeftUpLeg", "thigh_l"),
        ("LeftLeg", "calf_l"),
        ("LeftFoot", "foot_l"),
        ("RightUpLeg", "thigh_r"),
        ("RightLeg", "calf_r"),
        ("RightFoot", "foot_r"),
        ("LeftShoulder", "clavicle_l"),
        ("LeftArm", "upperarm_l"),
        ("LeftForeArm", "lowerarm_l"),
        ("LeftHand", "hand_l"),
        ("RightShoulder", "clavicle_r"),
        ("RightArm", "upperarm_r"),
        ("RightForeArm", "lowerarm_r"),
        ("RightHand", "hand_r"),
    ];
    let s = &m.skeleton;
    let below = |j: usize, ancestor: &str| {
        let a = s.find(ancestor).unwrap();
        std::iter::successors(s.joints()[j].parent, |&p| s.joints()[p].parent).any(|p| p == a)
    };
    let turn = Quat::from_rotation_y(std::f32::consts::PI);
    let joints: Vec<Joint> = s
        .joints()
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            let mut joint = joint.clone();
            joint.offset *= k;
            // Arms 40° lower: the offsets below each upper arm turn about the forward axis.
            if below(j, "LeftArm") {
                joint.offset = Quat::from_rotation_z(-40f32.to_radians()) * joint.offset;
            }
            if below(j, "RightArm") {
                joint.offset = Quat::from_rotation_z(40f32.to_radians()) * joint.offset;
            }
            if joint.parent.is_some() {
                joint.offset = turn * joint.offset;
            }
            if let Some((_, ue)) = names.iter().find(|(bvh, _)| *bvh == joint.name) {
                joint.name = (*ue).to_owned();
            }
            joint
        })
        .collect();
    let mut out = m.clone();
    out.skeleton = Skeleton::new(joints, s.position_rule).unwrap();
    out.clip =
        skelview_core::core::Clip::new(m.clip.frame_time_secs, m.clip.channels_per_frame(), 1, vec![0.0; m.clip.channels_per_frame()]);
    out
}

#[test]
fn onto_itself_nothing_moves() {
    let m = sample();
    let out = retarget(&m, &map(&m), &m, &map(&m), &RetargetOptions::default(), &|_| true).unwrap().unwrap();
    assert_eq!((out.clip.num_frames(), out.clip.frame_time_secs), (m.clip.num_frames(), m.clip.frame_time_secs));
    for f in [0, 17, m.clip.num_frames() - 1] {
        for (a, b) in positions(&m, f).iter().zip(positions(&out, f)) {
            assert!(a.distance(b) < 1e-4, "frame {f}: {a} {b}");
        }
    }
}

#[test]
fn onto_another_character_every_bone_points_where_the_sources_points() {
    let m = sample();
    let target = other_character(&m, 1.2);
    let (sm, tm) = (map(&m), map(&target));
    assert!(tm.missing().is_empty(), "{:?}", tm.missing());
    let out = retarget(&m, &sm, &target, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
    assert_eq!(out.clip.num_frames(), m.clip.num_frames());
    assert_eq!(out.skeleton.joints()[out.skeleton.find("calf_l").unwrap()].name, "calf_l", "the target's skeleton");
    let pairs = [
        ("leftUpperLeg", "leftLowerLeg"),
        ("leftLowerLeg", "leftFoot"),
        ("rightUpperLeg", "rightLowerLeg"),
        ("leftUpperArm", "leftLowerArm"),
        ("leftLowerArm", "leftHand"),
        ("rightUpperArm", "rightLowerArm"),
        ("rightLowerArm", "rightHand"),
        ("spine", "chest"),
        ("neck", "head"),
    ];
    let mut worst = 0.0f32;
    for f in (0..m.clip.num_frames()).step_by(7) {
        let (ps, pt) = (positions(&m, f), positions(&out, f));
        for (a, b) in pairs {
            let ds = (ps[sm.joint(b).unwrap()] - ps[sm.joint(a).unwrap()]).normalize();
            let dt = (pt[tm.joint(b).unwrap()] - pt[tm.joint(a).unwrap()]).normalize();
            worst = worst.max(ds.angle_between(dt).to_degrees());
        }
        // The hips travel 1.2 times as far, at 1.2 times the height.
        let (hs, ht) = (ps[sm.joint("hips").unwrap()], pt[tm.joint("hips").unwrap()]);
        assert!((ht - hs * 1.2).length() < 1e-3, "frame {f}: {hs} {ht}");
    }
    assert!(worst < 0.5, "largest bone direction error {worst}°");
}

#[test]
fn maps_that_lack_the_hips_or_legs_are_refused() {
    let m = sample();
    let mut empty = map(&m);
    empty.entries.retain(|e| e.bone != "leftUpperLeg" && e.bone != "hips");
    let e = retarget(&m, &map(&m), &m, &empty, &RetargetOptions::default(), &|_| true).unwrap_err();
    assert_eq!(e, RetargetError::Missing { which: "target", missing: vec!["hips", "leftUpperLeg"] });
    assert!(e.to_string().contains("target's humanoid bone map lacks hips, leftUpperLeg"), "{e}");
    assert!(retarget(&m, &map(&m), &m, &map(&m), &RetargetOptions::default(), &|_| false).unwrap().is_none(), "cancelled");
    let _ = UpAxis::Y;
}

#[test]
fn a_vrm_animation_plays_the_source_on_the_normalized_humanoid() {
    let m = sample();
    let (doc, bin) = skelview_core::export::vrma_writer::document(&m).unwrap();
    assert!(doc.get("skins").is_none(), "an animation of nodes has no skin");
    let bones = &doc["extensions"]["VRMC_vrm_animation"]["humanoid"]["humanBones"];
    assert_eq!(doc["extensions"]["VRMC_vrm_animation"]["specVersion"], "1.0");
    for required in skelview_core::retarget::REQUIRED {
        assert!(bones[required]["node"].is_u64(), "{required} bound to a node");
    }
    // Every node at rest is unturned (a T-pose facing +Z): its rotation is its turn from it.
    for node in doc["nodes"].as_array().unwrap() {
        let r = &node["rotation"];
        assert!((r[3].as_f64().unwrap().abs() - 1.0).abs() < 1e-6, "{node}");
    }
    let hips_rest = doc["nodes"][bones["hips"]["node"].as_u64().unwrap() as usize]["translation"][1].as_f64().unwrap();
    assert!(hips_rest > 0.8, "the rest hips stand above the ground: {hips_rest}");
    let mut glb = Vec::new();
    skelview_core::export::gltf_writer::write_glb(&doc, &bin, &mut glb).unwrap();
    let request = formats::LoadRequest::memory("walk.vrma", glb).unwrap();
    let back = formats::load(&request, &LoadOptions::default(), &Sequential, &mut formats::Quiet).unwrap();
    assert_eq!(back.clip.num_frames(), m.clip.num_frames());
    let (sm, bm) = (map(&m), map(&back));
    assert!(bm.entries.iter().all(|e| e.found == skelview_core::retarget::Found::File), "the file's own map");
    let pairs = [
        ("leftUpperLeg", "leftLowerLeg"),
        ("rightLowerLeg", "rightFoot"),
        ("leftUpperArm", "leftLowerArm"),
        ("rightLowerArm", "rightHand"),
        ("spine", "chest"),
        ("neck", "head"),
    ];
    let mut worst = 0.0f32;
    for f in (0..m.clip.num_frames()).step_by(5) {
        let (ps, pb) = (positions(&m, f), positions(&back, f));
        for (a, b) in pairs {
            let ds = (ps[sm.joint(b).unwrap()] - ps[sm.joint(a).unwrap()]).normalize();
            let db = (pb[bm.joint(b).unwrap()] - pb[bm.joint(a).unwrap()]).normalize();
            worst = worst.max(ds.angle_between(db).to_degrees());
        }
        assert!(
            (ps[sm.joint("hips").unwrap()] - pb[bm.joint("hips").unwrap()]).length() < 1e-3,
            "frame {f}: the hips where the source's are"
        );
    }
    assert!(worst < 0.5, "largest bone direction error {worst}°");
}

/// Each leg's largest horizontal foot travel within the source's foot contacts, over its
/// leg length, for `m` (mapped by `mm`) at the frames of the source `s` (mapped by `sm`).
fn contact_travel(s: &Motion, sm: &BoneMap, m: &Motion, mm: &BoneMap) -> [f32; 2] {
    use skelview_core::core::contacts::{ContactRule, contacts, ground_level};
    let dt = s.clip.frame_time_secs as f32;
    let rule = ContactRule { height_m: 0.03, speed_m_s: 0.6, min_frames: 3 };
    let (ps, pm): (Vec<Vec<Vec3>>, Vec<Vec<Vec3>>) = (0..s.clip.num_frames()).map(|f| (positions(s, f), positions(m, f))).unzip();
    ["left", "right"].map(|side| {
        let [hip, knee, foot] = ["UpperLeg", "LowerLeg", "Foot"].map(|p| format!("{side}{p}"));
        let (js, jm) = (sm.joint(&foot).unwrap(), mm.joint(&foot).unwrap());
        let leg =
            pm[0][mm.joint(&hip).unwrap()].distance(pm[0][mm.joint(&knee).unwrap()]) + pm[0][mm.joint(&knee).unwrap()].distance(pm[0][jm]);
        let track: Vec<Vec3> = ps.iter().map(|p| p[js]).collect();
        let runs = contacts(&track, dt, ground_level(&track).unwrap(), &rule);
        assert!(!runs.is_empty(), "the source's {side} foot stands somewhere");
        let mut worst = 0f32;
        for (a, b) in runs {
            for f in a..=b {
                let d = pm[f][jm] - pm[a][jm];
                worst = worst.max(Vec3::new(d.x, 0.0, d.z).length());
            }
        }
        worst / leg
    })
}

#[test]
fn keep_feet_holds_the_targets_feet_where_the_sources_stand() {
    let m = sample();
    let target = other_character(&m, 1.2);
    let (sm, tm) = (map(&m), map(&target));
    let source = contact_travel(&m, &sm, &m, &sm);
    // Hips travelling unscaled on longer legs: the feet slide unless planted.
    for (keep_feet, scale) in [(false, HipScale::Factor(1.0)), (true, HipScale::Factor(1.0)), (true, HipScale::Auto)] {
        let options = RetargetOptions { hips: scale, keep_feet };
        let out = retarget(&m, &sm, &target, &tm, &options, &|_| true).unwrap().unwrap();
        let travel = contact_travel(&m, &sm, &out, &tm);
        for side in 0..2 {
            let planted = travel[side] <= 1.2 * source[side] + 1e-3;
            assert_eq!(planted, keep_feet, "{options:?} side {side}: {} against the source's {}", travel[side], source[side]);
        }
        if keep_feet {
            // Planting moves the legs only: the arms and spine still follow the source.
            let worst = skelview_core::retarget::bone_directions(&m, &sm, &out, &tm)
                .into_iter()
                .filter(|a| !a.bone.contains("Leg") && !a.bone.contains("Foot"))
                .map(|a| a.max_deg)
                .fold(0f32, f32::max);
            assert!(worst < 0.5, "{worst}°");
        }
    }
}

#[test]
fn real_takes_onto_real_characters_keep_every_bone_direction() {
    let Some(corpus) = support::corpus() else { return };
    let open = |p: &str| {
        let paths: Vec<std::path::PathBuf> = p.split('+').map(|p| corpus.join(p)).collect();
        formats::open(&paths, &LoadOptions::default(), &Sequential).unwrap().remove(0)
    };
    let pairs = [
        ("bvh/cmu_cgspeed_01_01.bvh", "bvh/mixamo_freebvh_20tab.bvh"),
        ("bvh/mixamo_freebvh_20tab.bvh", "bvh/cmu_cgspeed_01_01.bvh"),
        ("bvh/perceptionneuron_down_1Char00.bvh", "bvh/bandai1_walk_normal_002.bvh"),
        ("bvh/bandai2_walk_normal_001.bvh", "bvh/perceptionneuron_down_1Char00.bvh"),
        ("asfamc/cmu_lambada.asf+asfamc/cmu_lambada.amc", "bvh/mixamo_freebvh_20tab.bvh"),
    ];
    for (from, onto) in pairs {
        let (s, t) = (open(from), open(onto));
        let (sm, tm) = (map(&s), map(&t));
        let out = retarget(&s, &sm, &t, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
        assert_eq!((out.clip.num_frames(), out.clip.frame_time_secs), (s.clip.num_frames(), s.clip.frame_time_secs));
        // Worked in pieces of 1,024 frames on every core: the channel curves are as smooth
        // across a piece's start as anywhere else (a wrong stitch jumps by a turn or a branch).
        let cpf = out.clip.channels_per_frame();
        let step = |f: usize, c: usize| (out.clip.frame(f)[c] - out.clip.frame(f - 1)[c]).abs();
        for c in 0..cpf {
            let inside = (1..out.clip.num_frames()).filter(|f| f % 1024 != 0).map(|f| step(f, c)).fold(0f32, f32::max);
            for f in (1024..out.clip.num_frames()).step_by(1024) {
                assert!(
                    step(f, c) <= inside + 1e-3,
                    "{from} onto {onto}: channel {c} jumps {} at frame {f} (at most {inside} elsewhere)",
                    step(f, c)
                );
            }
        }
        directions_hold(&s, &sm, &out, &tm, &format!("{from} onto {onto}"), 12);
    }
}

#[test]
fn a_long_spin_stays_one_continuous_curve_across_the_pieces_worked_in_parallel() {
    // The hips turn 1° a frame for 3,000 frames: frame-by-frame Euler angles grow past 360°;
    // pieces worked apart must be stitched to the same curve (no 360° jump at a boundary).
    use skelview_core::core::{ChannelKind, Clip};
    let mut m = sample();
    let hips = m.skeleton.find("Hips").unwrap();
    let joint = &m.skeleton.joints()[hips];
    let yaw = joint.first_channel + joint.channels.iter().position(|&c| c == ChannelKind::RotateY).unwrap();
    let cpf = m.clip.channels_per_frame();
    let first = m.clip.frame(0).to_vec();
    let mut values = Vec::with_capacity(3000 * cpf);
    for f in 0..3000 {
        let mut row = first.clone();
        row[yaw] = (f as f32).to_radians();
        values.extend(row);
    }
    m.clip = Clip::new(m.clip.frame_time_secs, cpf, 3000, values);
    let target = other_character(&m, 1.0);
    let out = retarget(&m, &map(&m), &target, &map(&target), &RetargetOptions::default(), &|_| true).unwrap().unwrap();
    let t_hips = out.skeleton.find("pelvis").unwrap();
    let tj = &out.skeleton.joints()[t_hips];
    let angles: Vec<usize> = tj.channels.iter().enumerate().filter(|(_, c)| c.is_rotation()).map(|(i, _)| tj.first_channel + i).collect();
    let mut largest_step = 0f32;
    for f in 1..3000 {
        for &c in &angles {
            largest_step = largest_step.max((out.clip.frame(f)[c] - out.clip.frame(f - 1)[c]).abs().to_degrees());
        }
    }
    assert!(largest_step < 5.0, "a jump of {largest_step}° in the hips' Euler curves");
}

/// Every limb and spine bone of `out` (at least `bones` of them) points where `from`'s does:
/// within 5° over half the frames and 15° at worst, frame for frame.
fn directions_hold(from: &Motion, fm: &BoneMap, out: &Motion, om: &BoneMap, what: &str, bones: usize) {
    let agreement = skelview_core::retarget::bone_directions(from, fm, out, om);
    assert!(agreement.len() >= bones, "{what}: {} bones compared", agreement.len());
    for a in &agreement {
        assert!(a.median_deg <= 5.0 && a.max_deg <= 15.0, "{what}: {a:?}");
    }
}

/// Angle in degrees between two vectors.
fn angle_deg(a: Vec3, b: Vec3) -> f32 {
    a.angle_between(b).to_degrees()
}

/// A capture put on characters made elsewhere (`tests/data/avatars`): a VRM 0.x with hair
/// bones and its spine on its hips, a VRM 1.0 whose legs hang above its hips, a glTF IK rig
/// (feet outside the legs, no wrist joints) and a glTF with made-up names. Every limb and
/// spine bone points where the source's does; the body as a whole too (its up and across
/// directions, which a limb-by-limb measure misses); the feet reach the ground as the source's
/// do; an IK rig's feet stay at the end of its legs.
#[test]
fn real_avatars_take_a_capture_whole() {
    let Some(corpus) = support::corpus() else { return };
    let source = formats::open_one(&corpus.join("bvh/cmu_cgspeed_01_01.bvh"), &LoadOptions::default(), &Sequential).unwrap();
    let sm = map(&source);
    let avatars = support::workspace_root().join("tests/data/avatars");
    for (file, bones) in [("Godette_vrm_v4.vrm", 43), ("debug_robot.vrm", 53), ("RobotExpressive.glb", 19), ("RiggedFigure.glb", 19)] {
        let target = formats::open_one(&avatars.join(file), &LoadOptions::default(), &Sequential).unwrap();
        let tm = map(&target);
        assert!(tm.missing().is_empty(), "{file}: lacks {:?}", tm.missing());
        assert_eq!(tm.entries.len(), bones, "{file}: {tm:?}");
        let out = retarget(&source, &sm, &target, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
        directions_hold(&source, &sm, &out, &tm, file, 12);
        let joint = |m: &BoneMap, b: &str| m.joint(b).unwrap();
        let (mut worst_up, mut worst_across) = (0f32, 0f32);
        let (mut low_s, mut low_t) = (f32::INFINITY, f32::INFINITY);
        let frames = source.clip.num_frames();
        for f in (0..frames).step_by(7) {
            let (ps, pt) = (positions(&source, f), positions(&out, f));
            let up = |p: &[Vec3], m: &BoneMap| p[joint(m, "head")] - p[joint(m, "hips")];
            let across = |p: &[Vec3], m: &BoneMap| p[joint(m, "leftUpperLeg")] - p[joint(m, "rightUpperLeg")];
            worst_up = worst_up.max(angle_deg(up(&ps, &sm), up(&pt, &tm)));
            worst_across = worst_across.max(angle_deg(across(&ps, &sm), across(&pt, &tm)));
            let feet = |p: &[Vec3], m: &BoneMap| p[joint(m, "leftFoot")].y.min(p[joint(m, "rightFoot")].y);
            low_s = low_s.min(feet(&ps, &sm));
            low_t = low_t.min(feet(&pt, &tm));
        }
        assert!(worst_up < 20.0 && worst_across < 25.0, "{file}: hips to head {worst_up:.1}°, across the hips {worst_across:.1}°");
        // The ankles come as close to the ground as the source's, scaled by the legs.
        let (rest_s, rest_t) = (positions(&source, 0), positions(&target, 0));
        let legs = |p: &[Vec3], m: &BoneMap| p[joint(m, "leftUpperLeg")].distance(p[joint(m, "leftFoot")]);
        let k = legs(&rest_t, &tm) / legs(&rest_s, &sm);
        assert!(
            (low_t - low_s * k).abs() < 0.15 * legs(&rest_t, &tm),
            "{file}: lowest ankle {low_t:.3} m, the source's {low_s:.3} × {k:.2}"
        );
        // An IK rig's foot (a child of the root) is kept at the end of its lower leg.
        let (lower, foot) = (joint(&tm, "leftLowerLeg"), joint(&tm, "leftFoot"));
        let rest_len = rest_t[lower].distance(rest_t[foot]);
        for f in (0..frames).step_by(97) {
            let p = positions(&out, f);
            assert!((p[lower].distance(p[foot]) - rest_len).abs() < 0.01 * rest_len, "{file}: frame {f}: the foot left the leg");
        }
    }
}

/// Takes from other capture systems (`tests/data/takes`: an Xsens MVN BVH with its 3ds Max
/// names, a Rokoko Video BVH) onto the Unreal mannequin's names (a CC0 rig) and onto a VRM:
/// every limb and spine bone within 5° (median) and 15° (largest), frame for frame.
#[test]
fn xsens_and_rokoko_takes_onto_the_unreal_mannequin_and_a_vrm() {
    let data = support::workspace_root().join("tests/data");
    let open = |p: &str| formats::open_one(&data.join(p), &LoadOptions::default(), &Sequential).unwrap();
    let xsens = open("takes/xsens_mvn_boxing_cut.bvh");
    let xm = map(&xsens);
    let name = |m: &Motion, mm: &BoneMap, b: &str| mm.joint(b).map(|j| m.skeleton.joints()[j].name.clone());
    assert_eq!(
        ["spine", "chest", "upperChest", "leftUpperArm"].map(|b| name(&xsens, &xm, b)),
        ["Chest", "Chest2", "Chest4", "LeftShoulder"].map(|n| Some(n.to_owned())),
        "Xsens MVN's segments L5, L3, T8; its Shoulder is the upper arm"
    );
    for (from, onto) in [
        ("takes/xsens_mvn_boxing_cut.bvh", "avatars/mesh2motion_ue_rig.glb"),
        ("takes/rokoko_video_dance_cut.bvh", "avatars/mesh2motion_ue_rig.glb"),
        ("takes/xsens_mvn_boxing_cut.bvh", "avatars/Godette_vrm_v4.vrm"),
        ("takes/rokoko_video_dance_cut.bvh", "avatars/debug_robot.vrm"),
    ] {
        let (s, t) = (open(from), open(onto));
        let (sm, tm) = (map(&s), map(&t));
        assert!(sm.missing().is_empty() && tm.missing().is_empty(), "{from}: {:?}, {onto}: {:?}", sm.missing(), tm.missing());
        let out = retarget(&s, &sm, &t, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
        assert_eq!((out.clip.num_frames(), out.clip.frame_time_secs), (s.clip.num_frames(), s.clip.frame_time_secs));
        directions_hold(&s, &sm, &out, &tm, &format!("{from} onto {onto}"), 14);
    }
}

/// Sony mocopi's skeleton (`tests/data/skeletons/mocopi_default.bvh`, written from the bone
/// table its receiver plug-ins publish): every bone it has is found, a real take put on it,
/// and that take put on the VRMs, every limb and spine bone within 5° (median) and 15°
/// (largest) at each step. (No mocopi recording could be copied here.)
#[test]
fn a_take_on_the_mocopi_skeleton_onto_vrm_avatars() {
    let Some(corpus) = support::corpus() else { return };
    let data = support::workspace_root().join("tests/data");
    let open = |p: &std::path::Path| formats::open_one(p, &LoadOptions::default(), &Sequential).unwrap();
    let mocopi = open(&data.join("skeletons/mocopi_default.bvh"));
    let mm = map(&mocopi);
    assert!(mm.missing().is_empty(), "{:?}", mm.missing());
    assert_eq!(mm.entries.len(), 22, "every humanoid bone the skeleton has: {mm:?}");
    let name = |b: &str| mocopi.skeleton.joints()[mm.joint(b).unwrap()].name.clone();
    assert_eq!(
        ["hips", "spine", "chest", "upperChest", "neck", "leftUpperArm"].map(name),
        ["root", "torso_1", "torso_3", "torso_5", "neck_1", "l_up_arm"]
    );
    let source = open(&corpus.join("bvh/cmu_cgspeed_01_01.bvh"));
    let sm = map(&source);
    let take = retarget(&source, &sm, &mocopi, &mm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
    directions_hold(&source, &sm, &take, &mm, "CMU onto mocopi", 12);
    for avatar in ["Godette_vrm_v4.vrm", "debug_robot.vrm"] {
        let target = open(&data.join("avatars").join(avatar));
        let tm = map(&target);
        let out = retarget(&take, &mm, &target, &tm, &RetargetOptions::default(), &|_| true).unwrap().unwrap();
        directions_hold(&take, &mm, &out, &tm, avatar, 12);
    }
}

/// A Maya HumanIK character as a BVH: MotionBuilder's default `Character1_` prefix on every
/// joint, centimetres, facing +Z with its left at +X; the right shoulder starts 0.4 cm above
/// the neck (as a captured rest pose leaves it). `name` renames each joint (to take the names
/// away and leave the shape alone).
fn humanik_bvh(name: &dyn Fn(&str) -> String) -> String {
    // (joint, depth, offset): depth-first, as BVH nests them.
    let tree: [(&str, usize, [f32; 3]); 22] = [
        ("Hips", 0, [0.0, 100.0, 0.0]),
        ("LeftUpLeg", 1, [9.0, -5.0, 0.0]),
        ("LeftLeg", 2, [0.0, -44.0, 0.0]),
        ("LeftFoot", 3, [0.0, -42.0, 0.0]),
        ("LeftToeBase", 4, [0.0, -6.0, 12.0]),
        ("RightUpLeg", 1, [-9.0, -5.0, 0.0]),
        ("RightLeg", 2, [0.0, -44.0, 0.0]),
        ("RightFoot", 3, [0.0, -42.0, 0.0]),
        ("RightToeBase", 4, [0.0, -6.0, 12.0]),
        ("Spine", 1, [0.0, 10.0, 0.0]),
        ("Spine1", 2, [0.0, 15.0, 0.0]),
        ("Spine2", 3, [0.0, 15.0, 0.0]),
        ("LeftShoulder", 4, [3.0, 13.8, 0.0]),
        ("LeftArm", 5, [12.0, 0.0, 0.0]),
        ("LeftForeArm", 6, [28.0, 0.0, 0.0]),
        ("LeftHand", 7, [25.0, 0.0, 0.0]),
        ("RightShoulder", 4, [-3.0, 14.4, 0.0]),
        ("RightArm", 5, [-12.0, 0.0, 0.0]),
        ("RightForeArm", 6, [-28.0, 0.0, 0.0]),
        ("RightHand", 7, [-25.0, 0.0, 0.0]),
        ("Neck", 4, [0.0, 14.0, 0.0]),
        ("Head", 5, [0.0, 10.0, 0.0]),
    ];
    let mut text = String::from("HIERARCHY\n");
    let mut open = 0;
    for (k, (joint, depth, [x, y, z])) in tree.iter().enumerate() {
        while open > *depth {
            open -= 1;
            text.push_str(&format!("{}}}\n", "  ".repeat(open)));
        }
        let pad = "  ".repeat(open);
        let (kind, channels) = if k == 0 { ("ROOT", "6 Xposition Yposition Zposition") } else { ("JOINT", "3") };
        let channels = format!("{channels} Zrotation Xrotation Yrotation");
        text.push_str(&format!("{pad}{kind} {}\n{pad}{{\n{pad}  OFFSET {x} {y} {z}\n{pad}  CHANNELS {channels}\n", name(joint)));
        open += 1;
        let leaf = tree.get(k + 1).is_none_or(|next| next.1 <= *depth);
        if leaf {
            text.push_str(&format!("{pad}  End Site\n{pad}  {{\n{pad}    OFFSET 0 5 0\n{pad}  }}\n"));
        }
    }
    while open > 0 {
        open -= 1;
        text.push_str(&format!("{}}}\n", "  ".repeat(open)));
    }
    let values = 6 + 3 * (tree.len() - 1);
    let zeros = vec!["0"; values].join(" ");
    text.push_str(&format!("MOTION\nFrames: 2\nFrame Time: 0.0333333\n{zeros}\n{zeros}\n"));
    text
}

#[test]
fn humanik_character_prefixes_are_namespaces_and_an_arm_is_never_the_neck() {
    let dir = tempfile::tempdir().unwrap();
    let load = |file: &str, text: String| {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        formats::open_one(&path, &LoadOptions::default(), &Sequential).unwrap_or_else(|e| panic!("{e}"))
    };
    let named = |m: &Motion, map: &BoneMap, bone: &str| map.joint(bone).map(|j| m.skeleton.joints()[j].name.clone());
    // `Character1_`, `Char_` and any prefix every joint shares: every bone by name.
    for prefix in ["Character1_", "Char_", "Bob_"] {
        let m = load("hik.bvh", humanik_bvh(&|j| format!("{prefix}{j}")));
        let map = map(&m);
        assert!(map.missing().is_empty(), "{prefix}: missing {:?}", map.missing());
        assert!(map.entries.iter().all(|e| e.found == skelview_core::retarget::Found::Name), "{prefix}: {:?}", map.entries);
        for (bone, joint) in [("neck", "Neck"), ("head", "Head"), ("rightShoulder", "RightShoulder"), ("rightUpperArm", "RightArm")] {
            assert_eq!(named(&m, &map, bone), Some(format!("{prefix}{joint}")), "{prefix}: {bone}");
        }
    }
    // The names taken away: by shape, the neck is the branch between the arms, not the right
    // shoulder that starts higher (the arms it would leave both reach out to the left).
    let tree = humanik_bvh(&|j| j.to_owned());
    let order: Vec<String> = tree
        .lines()
        .filter_map(|l| l.trim().split_once(' ').filter(|(k, _)| *k == "ROOT" || *k == "JOINT"))
        .map(|(_, n)| n.to_owned())
        .collect();
    let m = load("numbers.bvh", humanik_bvh(&|j| format!("j{}", order.iter().position(|n| n == j).unwrap())));
    // Heights along +Y, as the file stands (no name says where the head is to detect it by).
    let map = bone_map(&m.skeleton, UpAxis::Y, false);
    let number = |joint: &str| format!("j{}", order.iter().position(|n| n == joint).unwrap());
    for (bone, joint) in
        [("neck", "Neck"), ("head", "Head"), ("rightShoulder", "RightShoulder"), ("leftUpperArm", "LeftArm"), ("rightHand", "RightHand")]
    {
        assert_eq!(named(&m, &map, bone), Some(number(joint)), "{bone} by shape: {:?}", map.entries);
    }
}
