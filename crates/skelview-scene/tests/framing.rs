//! Framing: what the scene composer's bounds make of unusual clips.

#[test]
fn an_absurd_sample_warns_with_its_frame_and_joint_and_does_not_move_the_camera() {
    let text = "version = 1\nclip = { name = \"c\" num_samples = 3 sample_rate = 30 }\nbones = [ { name = \"hip\" parent = \"\" bind_translation = [0 90 0] } { name = \"knee\" parent = \"hip\" bind_translation = [0 -45 0] } { name = \"foot\" parent = \"knee\" bind_translation = [0 -45 0] } ]\ntracks = [ { name = \"hip\" translations = [ [0 90 0] [1e25 90 0] [2 90 0] ] } ]";
    let request = skelview_core::formats::LoadRequest::memory("absurd.acl.sjson", text.as_bytes()).unwrap();
    let m = skelview_core::formats::load(
        &request,
        &Default::default(),
        &skelview_core::formats::Sequential,
        &mut skelview_core::formats::Quiet,
    )
    .unwrap();
    let w = m.warnings.iter().find(|w| w.message.contains("absurd")).expect("a warning");
    assert!(w.message.starts_with("frame 1, joint 'hip': value 1e25"), "{}", w.message);
    let scene = skelview_scene::Scene::from_motions([std::sync::Arc::new(m)]);
    let (lo, hi) = scene.bounds_over_clips(0).unwrap();
    assert!((hi - lo).max_element() < 10.0, "framing ignores the sample: {lo} {hi}");
}
