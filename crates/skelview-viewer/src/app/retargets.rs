//! Retarget in the viewer: a clip's motion put on another open clip's skeleton, on a
//! background task, and added as a new clip beside them on the shared clock (side by side
//! when they were overlaid), which Save as… writes in any format (a `.vrma` too).

use std::sync::Arc;

use skelview_core::core::Motion;
use skelview_core::retarget::{RetargetError, RetargetOptions, retarget};
use skelview_scene::{ClipId, Layout};

use super::{AppError, SceneEdit, Viewer};
use crate::tasks::{Priority, Shown, TaskError};

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
        let tasks = self.tasks.clone();
        let started =
            self.jobs.start(&tasks, "retarget", label, Priority::Normal, Shown::Waited, work, move |v, ended| v.retargeted(name, ended));
        if let Err(e) = started {
            self.messages.fail(e);
        }
    }

    /// Adds a finished retarget as a clip named `name`, or says why there is none.
    fn retargeted(&mut self, name: String, ended: Result<Motion, TaskError<RetargetError>>) {
        match ended {
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
