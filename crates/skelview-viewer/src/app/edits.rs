//! Edits of the open clips. The document keeps each clip's recipe, its undo and redo history
//! and the clip as it was loaded (the source every recipe applies to); a background task per
//! clip applies the recipe (a new recipe cancels the old run), and the result replaces the
//! clip shown, with the source as its ghost. Undo and redo step through recipe states, so
//! they cover steps and event changes alike, and the source is never changed.

use std::sync::Arc;

use skelview_core::core::Motion;
use skelview_core::edit::{self, EditError, Moved, Op, Recipe, Step};
use skelview_scene::ClipId;

use super::Viewer;
use crate::tasks::{Keyed, Shown, Tasks};

/// One clip's edits: its source, the recipe now, and the recipes before and after it.
#[derive(Clone, Debug)]
pub struct ClipEdits {
    /// The clip as loaded (or reloaded): every recipe applies to it.
    pub source: Arc<Motion>,
    /// The steps now.
    pub recipe: Recipe,
    undo: Vec<Recipe>,
    redo: Vec<Recipe>,
}

/// A change to a clip's recipe.
#[derive(Clone, Debug, PartialEq)]
pub enum EditCommand {
    /// Append a step (on).
    Add(Op),
    /// Switch step `i` on or off.
    Enable(usize, bool),
    /// Move a step to another place in the list.
    Move {
        /// Where it is.
        from: usize,
        /// Where it goes.
        to: usize,
    },
    /// Remove step `i`.
    Remove(usize),
    /// Use this recipe instead (one read from a file).
    Replace(Recipe),
    /// Remove every step: the clip as loaded.
    Clear,
    /// Back to the recipe before the last change.
    Undo,
    /// Forward to the recipe an undo left.
    Redo,
}

impl ClipEdits {
    /// No steps yet on `source`.
    pub fn new(source: Arc<Motion>) -> Self {
        Self { source, recipe: Recipe::default(), undo: Vec::new(), redo: Vec::new() }
    }

    /// True when there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is an undone change to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// True when some step is on (the clip shown is not its source).
    pub fn active(&self) -> bool {
        self.recipe.enabled().next().is_some()
    }

    /// Changes the recipe; false when `command` changed nothing (a step that is not there).
    pub fn apply(&mut self, command: EditCommand) -> bool {
        let mut next = self.recipe.clone();
        let n = next.steps.len();
        match command {
            EditCommand::Undo => return step_history(&mut self.undo, &mut self.redo, &mut self.recipe),
            EditCommand::Redo => return step_history(&mut self.redo, &mut self.undo, &mut self.recipe),
            EditCommand::Add(op) => next.steps.push(Step { op, enabled: true }),
            EditCommand::Enable(i, on) => {
                if let Some(s) = next.steps.get_mut(i) {
                    s.enabled = on;
                }
            }
            EditCommand::Move { from, to } if from < n && to < n => {
                let s = next.steps.remove(from);
                next.steps.insert(to, s);
            }
            EditCommand::Move { .. } => {}
            EditCommand::Remove(i) if i < n => {
                next.steps.remove(i);
            }
            EditCommand::Remove(_) => {}
            EditCommand::Replace(r) => next = r,
            EditCommand::Clear => next = Recipe::default(),
        }
        if next == self.recipe {
            return false;
        }
        self.undo.push(std::mem::replace(&mut self.recipe, next));
        self.redo.clear();
        true
    }
}

/// Moves the recipe now onto `to` and the last of `from` into its place.
fn step_history(from: &mut Vec<Recipe>, to: &mut Vec<Recipe>, now: &mut Recipe) -> bool {
    let Some(r) = from.pop() else { return false };
    to.push(std::mem::replace(now, r));
    true
}

/// A recipe applied to a clip's source.
#[derive(Debug)]
pub struct Applied {
    /// The result, shown in place of the clip.
    pub motion: Arc<Motion>,
    /// What each step did.
    pub notes: Vec<String>,
    /// How far each joint or marker of the result is from the source.
    pub moved: Vec<Moved>,
    /// The source's time of the result's first frame.
    pub source_offset_secs: f64,
}

/// What an edit run was asked to do: a change to either starts it again.
#[derive(Clone)]
struct Input {
    source: Arc<Motion>,
    recipe: Recipe,
}

impl PartialEq for Input {
    /// The same source (not an equal one: comparing frames would cost what the edit costs).
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.source, &other.source) && self.recipe == other.recipe
    }
}

/// Where one clip's edit stands.
pub enum EditState<'a> {
    /// Being applied; the fraction done.
    Running(f32),
    /// Applied.
    Done(&'a Applied),
    /// A step failed (or the run could not start): why, as the engine says it.
    Failed(String),
}

/// The recipes being applied, one background result per edited clip (by serial).
#[derive(Default)]
pub struct EditRuns {
    entries: Vec<(u64, Keyed<Input, Result<Applied, EditError>>)>,
}

impl EditRuns {
    /// Starts a run for each clip whose recipe or source changed; forgets clips with no
    /// step on. Cheap when nothing changed: called every frame.
    fn sync(&mut self, wanted: Vec<(u64, Arc<Motion>, Recipe)>, tasks: &Tasks) {
        self.entries.retain(|(serial, _)| wanted.iter().any(|(s, ..)| s == serial));
        for (serial, source, recipe) in wanted {
            let at = match self.entries.iter().position(|(s, _)| *s == serial) {
                Some(at) => at,
                None => {
                    self.entries.push((serial, Keyed::new("edit").shown_as("Applying the edits", Shown::Waited)));
                    self.entries.len() - 1
                }
            };
            let input = Input { source, recipe };
            let work = input.clone();
            self.entries[at].1.want(input, tasks, move |p| run(&work, p));
        }
    }

    /// Takes the runs that finished since the last call.
    pub fn poll(&mut self) {
        self.entries.iter_mut().for_each(|(_, k)| k.poll());
    }

    /// Where the edit of the clip with this serial stands (`None`: no step on).
    pub fn state(&self, serial: u64) -> Option<EditState<'_>> {
        let (_, k) = self.entries.iter().find(|(s, _)| *s == serial)?;
        if let Some(r) = k.result() {
            return Some(match &**r {
                Ok(applied) => EditState::Done(applied),
                Err(e) => EditState::Failed(e.to_string()),
            });
        }
        if let Some(f) = k.running() {
            return Some(EditState::Running(f));
        }
        k.error().map(|e| EditState::Failed(e.to_string()))
    }

    /// True while some edit runs.
    pub fn busy(&self) -> bool {
        self.entries.iter().any(|(_, k)| k.running().is_some())
    }
}

/// Applies the recipe (90 % of the progress), then measures how far each joint moved.
fn run(input: &Input, p: &crate::tasks::Progress) -> Option<Result<Applied, EditError>> {
    let edited = match edit::apply(&input.source, &input.recipe, &|f| p.keep_going(f64::from(f) * 0.9)) {
        Ok(e) => e,
        Err(EditError::Cancelled) => return None,
        Err(e) => return Some(Err(e)),
    };
    let moved = edit::moved(&input.source, &edited.motion, edited.source_offset_secs, &|f| p.keep_going(0.9 + 0.1 * f64::from(f)))?;
    Some(Ok(Applied { motion: Arc::new(edited.motion), notes: edited.notes, moved, source_offset_secs: edited.source_offset_secs }))
}

impl Viewer {
    /// Where the active clip stands for a new step: its selected joint, the in/out range in
    /// its own frames, its frame now and the capture clock's time now.
    pub fn edit_scope(&self) -> Option<super::EditScope> {
        let c = self.session.active_clip()?;
        let clip = &c.motion.clip;
        let ft = clip.frame_time_secs;
        let last = clip.num_frames().checked_sub(1)?;
        let p = &self.session.playback;
        let frame_at = |shared: usize| {
            let t = shared as f64 * p.frame_time_secs() - c.offset_secs;
            if ft > 0.0 { ((t / ft).round().max(0.0) as usize).min(last) } else { 0 }
        };
        let frame = self.active_frame().unwrap_or(0);
        // Event times count from the trial's frame 1 (as the timeline draws them).
        let start = c.motion.capture.as_ref().map_or(0.0, |k| f64::from(k.first_frame.saturating_sub(1)) / k.point_rate_hz.max(1e-9));
        Some(super::EditScope {
            joint: self.view.selected.and_then(|j| c.motion.skeleton.joints().get(j)).map(|j| j.name.clone()),
            range: (frame_at(p.in_frame), frame_at(p.out_frame)),
            frame,
            event_time_secs: start + frame as f64 * ft,
        })
    }

    /// Changes clip `id`'s recipe (its first edit takes the clip shown as the source).
    pub(super) fn apply_edit(&mut self, id: ClipId, command: EditCommand) {
        let s = &mut self.session;
        let Some(i) = s.scene.index_of(id) else { return };
        let shown = s.scene.clips[i].motion.clone();
        let edits = s.document.edits_or_new(id, || shown);
        if !edits.apply(command) {
            return;
        }
        if !edits.active() {
            // Back to the source at once: nothing to wait for.
            let source = edits.source.clone();
            self.show_edited(i, source, None);
        }
    }

    /// Starts the runs the document's recipes need, and shows each result that arrived.
    pub(super) fn sync_edits(&mut self) {
        let s = &self.session;
        let wanted = s
            .scene
            .clips
            .iter()
            .filter_map(|c| s.document.edits(c.id()).filter(|e| e.active()).map(|e| (c.serial, e.source.clone(), e.recipe.clone())))
            .collect();
        self.edit_runs.sync(wanted, &self.tasks);
        for i in 0..self.session.scene.clips.len() {
            let c = &self.session.scene.clips[i];
            let Some(edits) = self.session.document.edits(c.id()).filter(|e| e.active()) else { continue };
            let target = match self.edit_runs.state(c.serial) {
                Some(EditState::Done(a)) => Some((a.motion.clone(), Some((edits.source.clone(), a.source_offset_secs)))),
                // A recipe that fails shows the source; the Edits window says why.
                Some(EditState::Failed(_)) => Some((edits.source.clone(), None)),
                _ => None,
            };
            if let Some((motion, ghost)) = target.filter(|(m, _)| !Arc::ptr_eq(m, &c.motion)) {
                self.show_edited(i, motion, ghost);
            }
        }
    }

    /// Shows `motion` as clip `i` (its look, time and place kept), with `ghost` behind it.
    fn show_edited(&mut self, i: usize, motion: Arc<Motion>, ghost: Option<(Arc<Motion>, f64)>) {
        let joints = motion.skeleton.len();
        self.session.replace_motion(i, motion, ghost);
        if i == self.session.active && self.view.selected.is_some_and(|j| j >= joints) {
            self.view.selected = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::edit::{FillGaps, FillMethod, Ground};

    fn fill() -> Op {
        Op::FillGaps(FillGaps { method: FillMethod::Auto, max_gap: None, donors: vec![], joints: vec![], range: None })
    }

    #[test]
    fn undo_and_redo_step_through_recipes_and_a_new_change_drops_the_redo() {
        let request = skelview_core::formats::LoadRequest::single(
            &skelview_core::formats::bvh::Bvh,
            skelview_core::formats::Source::Memory { name: "walk.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
        );
        let options = skelview_core::formats::LoadOptions::default();
        let source =
            skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut skelview_core::formats::Quiet);
        let mut e = ClipEdits::new(Arc::new(source.unwrap()));
        assert!(!e.can_undo() && !e.active());
        assert!(e.apply(EditCommand::Add(fill())));
        assert!(e.apply(EditCommand::Add(Op::Ground(Ground {}))));
        assert!(e.apply(EditCommand::Enable(0, false)));
        assert_eq!(e.recipe.enabled().collect::<Vec<_>>(), [&Op::Ground(Ground {})]);
        assert!(e.apply(EditCommand::Move { from: 1, to: 0 }));
        assert_eq!(e.recipe.steps[0].op, Op::Ground(Ground {}));
        assert!(!e.apply(EditCommand::Remove(7)), "no such step: nothing to undo");
        assert!(!e.apply(EditCommand::Move { from: 0, to: 0 }));
        assert!(e.apply(EditCommand::Undo));
        assert_eq!(e.recipe.steps[0].op, fill());
        assert!(e.apply(EditCommand::Undo) && e.apply(EditCommand::Undo) && e.apply(EditCommand::Undo));
        assert!(e.recipe.steps.is_empty() && !e.can_undo() && !e.apply(EditCommand::Undo));
        assert!(e.apply(EditCommand::Redo) && e.apply(EditCommand::Redo));
        assert_eq!(e.recipe.steps.len(), 2);
        assert!(e.apply(EditCommand::Remove(0)));
        assert!(!e.can_redo(), "a new change forgets what was undone");
        assert!(e.apply(EditCommand::Clear) && e.recipe.steps.is_empty());
        assert!(e.apply(EditCommand::Undo) && e.recipe.steps.len() == 1);
    }
}
