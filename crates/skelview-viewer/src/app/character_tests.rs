//! A character in the viewer: its meshes are drawn with its bones over them by default, the
//! clip's choice shows the skeleton, the meshes or both, and survives a change of take.

use super::tests::wait_for;
use super::*;

#[test]
fn a_character_shows_bones_over_its_meshes_and_the_choice_is_kept() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/avatars/RobotExpressive.glb");
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), Settings::default());
    v.open_paths(vec![path], false);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 1 && v.session.loads.is_empty());
    v.update(0.0);
    let clip = ClipId(0);
    assert_eq!(v.session.scene.clips[0].body, skelview_scene::Body::Both);
    let draws = |v: &Viewer| (v.frame.draw.skins.draws.len(), v.frame.draw.bones.len());
    let (meshes, bones) = draws(&v);
    assert_eq!(meshes, 19, "one draw per mesh");
    assert!(bones > 0 && v.frame.draw.skins.draws.iter().all(|d| d.translucent), "translucent under the bones");
    v.commands.push(Command::Clip(clip, ClipEdit::Body(skelview_scene::Body::Mesh)));
    v.update(0.0);
    assert_eq!(draws(&v), (19, 0));
    assert!(v.frame.draw.skins.draws.iter().all(|d| !d.translucent), "opaque alone");
    v.commands.push(Command::Clip(clip, ClipEdit::Body(skelview_scene::Body::Skeleton)));
    v.update(0.0);
    assert_eq!(draws(&v), (0, bones));
    v.commands.push(Command::Clip(clip, ClipEdit::Body(skelview_scene::Body::Mesh)));
    v.commands.push(Command::Clip(clip, ClipEdit::Take("Dance".into())));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    v.update(0.0);
    assert_eq!(v.session.scene.clips[0].body, skelview_scene::Body::Mesh, "kept by the reload");
    // Framing takes in the meshes: their box reaches past the joints' (the robot's head).
    let c = &v.session.scene.clips[0];
    let (lo, hi) = c.mesh_bounds().unwrap();
    let top = c.positions().iter().map(|p| p.y).fold(f32::MIN, f32::max);
    assert!(hi.y > top && lo.y < hi.y, "mesh top {} over the top joint {top}", hi.y);
}
