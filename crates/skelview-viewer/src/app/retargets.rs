//! Retarget in the viewer: a clip's motion put on another open clip's skeleton, on a
//! background task, and added as a new clip beside them on the shared clock (side by side
//! when they were overlaid), which Save as… writes in any format (a `.vrma` too).

use std::sync::Arc;

use skelview_core::core::Motion;
use skelview_core::retarget::{RetargetError, RetargetOptions, retarget};
use skelview_scene::{ClipId, Layout};

use super::{AppError, SceneEdit, Viewer};
use crate::tasks::{Priority, Shown, Task, TaskError};

/// The retargets running: the new clip's name and its task.
#[derive(Default)]
pub struct Retargets {
    running: Vec<(String, Task<Motion, RetargetError>)>,
}

impl Retargets {
    /// True while one runs.
    pub fn busy(&self) -> bool {
        !self.running.is_empty()
    }
}

impl Viewer {
    /// Starts putting clip `source`'s motion on clip `target`'s skeleton.
    pub(super) fn start_retarget(&mut self, source: ClipId, target: ClipId, keep_feet: bool) {
        let s = &self.session.scene;
        let (Some(a), Some(b)) = (s.index_of(source), s.index_of(target)) else { return };
        let (from, onto) = (s.clips[a].motion.clone(), s.clips[b].motion.clone());
        // The clips' maps, as the inspector shows them and the user corrected them.
        let (from_map, onto_map) = (s.clips[a].humanoid.clone(), s.clips[b].humanoid.clone());
        let planted = if keep_feet { ", feet planted" } else { "" };
        let name = format!("{} on {}{planted}", s.clips[a].name, s.clips[b].name);
        let label = format!("Retargeting {name}");
        let work = move |p: &crate::tasks::Progress| {
            let options = RetargetOptions { keep_feet, ..RetargetOptions::default() };
            match retarget(&from, &from_map, &onto, &onto_map, &options, &|f| p.keep_going(f64::from(f))) {
                Ok(Some(m)) => Ok(m),
                Ok(None) => Err(TaskError::Cancelled),
                Err(e) => Err(TaskError::Failed(e)),
            }
        };
        match self.tasks.spawn("retarget", label, Priority::Normal, Shown::Waited, work) {
            Ok(task) => self.retargets.running.push((name, task)),
            Err(e) => self.messages.fail(AppError::thread("retarget", e)),
        }
    }

    /// Adds the retargets that finished as clips; says why one failed.
    pub(super) fn poll_retargets(&mut self) {
        let mut i = 0;
        while i < self.retargets.running.len() {
            let Some(outcome) = self.retargets.running[i].1.poll() else {
                i += 1;
                continue;
            };
            let (name, _) = self.retargets.running.remove(i);
            match outcome {
                Ok(m) => {
                    self.session.add_motion(Arc::new(m), name);
                    if self.session.scene.layout == Layout::Overlay {
                        // Two characters at one place read as one: put them side by side.
                        self.apply_scene(SceneEdit::Layout(Layout::SideBySide));
                    }
                }
                Err(TaskError::Cancelled) => self.messages.notice = Some("retarget cancelled".into()),
                Err(e) => self.messages.fail(AppError::Retarget(Arc::new(e))),
            }
        }
    }
}
