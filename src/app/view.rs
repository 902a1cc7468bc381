//! How the scene is looked at: the camera, the selection, and which windows are open.
//! Plain data; commands change it.

use crate::scene::OrbitCamera;

/// The view's state.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The camera.
    pub camera: OrbitCamera,
    /// Selected joint of the active clip.
    pub selected: Option<usize>,
    /// Keep the root centred.
    pub follow_root: bool,
    /// Shortcut overlay visible.
    pub show_help: bool,
    /// The channel-curves window is open.
    pub show_curves: bool,
    /// Joint tree search text.
    pub joint_filter: String,
    /// Aspect of the viewport, for framing.
    pub aspect: f32,
    /// Fit the camera to the scene when the next picture is composed.
    pub frame_on_next_pose: bool,
}

impl Default for View {
    fn default() -> Self {
        Self {
            camera: OrbitCamera::default(),
            selected: None,
            follow_root: false,
            show_help: false,
            show_curves: false,
            joint_filter: String::new(),
            aspect: 16.0 / 9.0,
            frame_on_next_pose: true,
        }
    }
}
