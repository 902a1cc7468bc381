//! Edits as data: an [`Op`] is an operation with its parameters, a [`Recipe`] a list of them
//! (saved as TOML), and [`apply`] gives a new motion from a recipe and a source motion, which
//! it leaves untouched. The viewer, `skelview edit`, Python and the browser all run this.
//!
//! Inside, a motion is worked on as one row of channel values per frame, NaN where a value is
//! missing (a capture's gaps, a skeleton clip's missing samples), with a mask of the values a
//! fill made up; a capture's markers are its joints' translation channels, so a fill or a
//! filter on a joint is the same code on both. At the end the clip is built again (what is
//! still missing held and marked, what was filled marked) and a capture's marker positions and
//! residuals are written back (residual 0 for a filled sample, −1 for a gap).

pub mod butterworth;
pub mod fill;
pub mod moved;
mod ops;
mod pose_ops;
mod range;
pub mod rotations;
pub mod spec;
mod timing;
mod work;

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::core::capture::Capture;
use crate::core::select::NoJoint;
use crate::core::{Clip, Motion};
pub use butterworth::{Butterworth, FilterError};
pub use fill::FillMethod;
pub use moved::{Moved, moved};
pub use ops::{
    AddEvent, AddTpose, Despike, Face, FillGaps, Filter, Ground, Loop, OPERATIONS, Op, RemoveEvent, RemoveJoint, Rename, Resample,
    RestFromFrame, Scale, Trim, Unroll,
};
pub use range::{At, FrameRange, RangeError};
pub use spec::OpSpec;

impl Op {
    /// Its parameters as a recipe writes them, in one line (`cutoff_hz = 6, order = 4`).
    pub fn parameters(&self) -> String {
        let Ok(toml::Value::Table(mut t)) = toml::Value::try_from(self) else { return String::new() };
        t.remove("op");
        t.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")
    }

    /// The operation's name as a recipe and the command line write it (`fill_gaps`).
    pub fn name(&self) -> &'static str {
        self.spec().name
    }
}

/// One step of a recipe: an operation, which may be switched off.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// What it does.
    pub op: Op,
    /// Off: kept in the recipe, not applied.
    pub enabled: bool,
}

/// Operations applied in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recipe {
    /// The steps.
    pub steps: Vec<Step>,
}

/// A recipe that cannot be read.
#[derive(Debug, Error)]
pub enum RecipeError {
    /// Not TOML, or a step with an unknown operation or key, or a bad value.
    #[error("{0}")]
    Toml(String),
}

/// The TOML form: `[[step]]` tables with `op = "…"`, the parameters, and `enabled = false`
/// for a step switched off.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecipeFile {
    #[serde(default)]
    step: Vec<toml::Table>,
}

impl Recipe {
    /// The recipe of these operations, all on.
    pub fn of(ops: impl IntoIterator<Item = Op>) -> Self {
        Self { steps: ops.into_iter().map(|op| Step { op, enabled: true }).collect() }
    }

    /// Reads a recipe from its TOML text.
    pub fn from_toml(text: &str) -> Result<Self, RecipeError> {
        let file: RecipeFile = toml::from_str(text).map_err(|e| RecipeError::Toml(e.to_string()))?;
        let mut steps = Vec::new();
        for (k, mut table) in file.step.into_iter().enumerate() {
            let enabled = match table.remove("enabled") {
                None => true,
                Some(toml::Value::Boolean(b)) => b,
                Some(v) => return Err(RecipeError::Toml(format!("step {}: enabled = {v}: expected true or false", k + 1))),
            };
            let op =
                Op::deserialize(toml::Value::Table(table)).map_err(|e| RecipeError::Toml(format!("step {}: {}", k + 1, e.message())))?;
            steps.push(Step { op, enabled });
        }
        Ok(Self { steps })
    }

    /// Reads a recipe from JSON: a list of steps (`[{"op": "filter", "cutoff_hz": 6}]`) or an
    /// object with one (`{"step": [...]}`), as Python hands a dict or a list over.
    pub fn from_json(text: &str) -> Result<Self, RecipeError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| RecipeError::Toml(e.to_string()))?;
        let steps = match value {
            serde_json::Value::Object(mut o) if o.contains_key("step") && o.len() == 1 => o.remove("step").unwrap_or_default(),
            serde_json::Value::Object(o) => serde_json::Value::Array(vec![serde_json::Value::Object(o)]),
            other => other,
        };
        let tables: Vec<toml::Table> =
            serde_json::from_value(steps).map_err(|e| RecipeError::Toml(format!("expected a list of steps: {e}")))?;
        let text = toml::to_string(&RecipeFile { step: tables }).map_err(|e| RecipeError::Toml(e.to_string()))?;
        Self::from_toml(&text)
    }

    /// The recipe as TOML text.
    pub fn to_toml(&self) -> String {
        let step = self
            .steps
            .iter()
            .map(|s| {
                let mut t = match toml::Value::try_from(&s.op) {
                    Ok(toml::Value::Table(t)) => t,
                    _ => toml::Table::new(),
                };
                if !s.enabled {
                    t.insert("enabled".into(), toml::Value::Boolean(false));
                }
                t
            })
            .collect();
        toml::to_string(&RecipeFile { step }).unwrap_or_default()
    }

    /// The steps that are on.
    pub fn enabled(&self) -> impl Iterator<Item = &Op> {
        self.steps.iter().filter(|s| s.enabled).map(|s| &s.op)
    }
}

impl FromStr for Recipe {
    type Err = RecipeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_toml(s)
    }
}

/// Why a recipe could not be applied. The source is never changed.
#[derive(Debug, Error)]
pub enum EditError {
    /// A joint or marker the step names is not in the clip.
    #[error("step {step} ({op}): {source}")]
    NoJoint {
        /// 1-based step.
        step: usize,
        /// Its operation.
        op: &'static str,
        /// The name and the closest ones.
        source: NoJoint,
    },
    /// A frame range outside the clip, or reversed.
    #[error("step {step} ({op}): {source}")]
    Range {
        /// 1-based step.
        step: usize,
        /// Its operation.
        op: &'static str,
        /// What is wrong with it.
        source: RangeError,
    },
    /// A filter that cannot be made.
    #[error("step {step} (filter): {source}")]
    Filter {
        /// 1-based step.
        step: usize,
        /// Why.
        source: FilterError,
    },
    /// A parameter out of its range.
    #[error("step {step} ({op}): {message}")]
    Parameter {
        /// 1-based step.
        step: usize,
        /// Its operation.
        op: &'static str,
        /// The parameter and what it should be.
        message: String,
    },
    /// The work was cancelled.
    #[error("cancelled")]
    Cancelled,
}

/// A recipe applied: the new motion and what each step did.
#[derive(Clone, Debug)]
pub struct Edited {
    /// The result.
    pub motion: Motion,
    /// One line per step: what it changed and what it left (gaps too long, short runs).
    pub notes: Vec<String>,
    /// The source's time (seconds) of the result's first frame: a trim from frame 30 at
    /// 30 fps gives 1, an added rest-pose frame −1 frame. Used to lay the two side by side.
    pub source_offset_secs: f64,
}

/// The motion being edited.
pub(crate) struct Work {
    pub motion: Motion,
    /// `frames × channels`, NaN where missing.
    pub values: Vec<f32>,
    /// Values a fill made up.
    pub filled: Vec<bool>,
    pub frames: usize,
    pub frame_time_secs: f64,
    pub capture: Option<Capture>,
    /// The source's time of frame 0 (see [`Edited::source_offset_secs`]).
    pub source_offset_secs: f64,
}

impl Work {
    fn of(m: &Motion) -> Self {
        let shell = Motion {
            skeleton: m.skeleton.clone(),
            clip: Clip::default(),
            source: m.source.clone(),
            warnings: m.warnings.clone(),
            capture: None,
            meshes: m.meshes.clone(),
        };
        Self::build(shell, &m.clip, m.clip.values().to_vec(), m.capture.as_deref().cloned())
    }

    /// From a motion the caller gives up: its values and capture are used, not copied.
    fn owned(mut m: Motion) -> Self {
        let clip = std::mem::take(&mut m.clip);
        let capture = m.capture.take().map(|c| std::sync::Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone()));
        let shape = Clip::empty(clip.frame_time_secs, clip.channels_per_frame()).with_runs_of(&clip);
        let frames = clip.num_frames();
        let mut work = Self::build(m, &shape, clip.into_values(), capture);
        work.frames = frames;
        work
    }

    fn build(motion: Motion, clip: &Clip, mut values: Vec<f32>, capture: Option<Capture>) -> Self {
        let m = clip;
        let (frames, cpf) = (m.num_frames(), m.channels_per_frame());
        for r in m.missing() {
            for f in r.first as usize..=r.last as usize {
                values[f * cpf + r.channel as usize] = f32::NAN;
            }
        }
        let mut filled = vec![false; values.len()];
        for r in m.filled() {
            for f in r.first as usize..=r.last as usize {
                filled[f * cpf + r.channel as usize] = true;
            }
        }
        Self { motion, values, filled, frames, frame_time_secs: m.frame_time_secs, capture, source_offset_secs: 0.0 }
    }

    pub fn cpf(&self) -> usize {
        self.motion.skeleton.channels_per_frame()
    }

    pub fn fps(&self) -> f64 {
        if self.frame_time_secs > 0.0 { 1.0 / self.frame_time_secs } else { 0.0 }
    }

    fn finish(mut self) -> Motion {
        let cpf = self.cpf();
        let capture = self.capture.take();
        let (values, mask) = (&self.values, &self.filled);
        // The markers go back into the capture while the filled runs are found: both only read.
        let (capture, filled) = crate::par::join(
            move || {
                capture.map(|mut c| {
                    work::write_markers(&mut c, values, mask, cpf);
                    c
                })
            },
            || crate::core::clip::runs_where(&mask[..values.len().min(mask.len())], cpf),
        );
        self.motion.capture = capture.map(std::sync::Arc::new);
        let mut clip = Clip::new(self.frame_time_secs, cpf, self.frames, self.values);
        clip.hold_missing();
        clip.set_filled(filled);
        self.motion.clip = clip;
        self.motion
    }
}

/// Applies the steps of `recipe` that are on to `source`, in order; `keep_going(fraction)`
/// reports progress and returns false to cancel.
pub fn apply(source: &Motion, recipe: &Recipe, keep_going: &(dyn Fn(f32) -> bool + Sync)) -> Result<Edited, EditError> {
    run(Work::of(source), recipe, keep_going)
}

/// [`apply`] to a motion the caller no longer needs (the command line's): its buffers are
/// edited instead of copied first.
pub fn apply_owned(source: Motion, recipe: &Recipe, keep_going: &(dyn Fn(f32) -> bool + Sync)) -> Result<Edited, EditError> {
    run(Work::owned(source), recipe, keep_going)
}

fn run(mut work: Work, recipe: &Recipe, keep_going: &(dyn Fn(f32) -> bool + Sync)) -> Result<Edited, EditError> {
    let mut notes = Vec::new();
    let steps: Vec<&Op> = recipe.enabled().collect();
    for (k, op) in steps.iter().enumerate() {
        if !keep_going(k as f32 / steps.len().max(1) as f32) {
            return Err(EditError::Cancelled);
        }
        let note = op.apply(&mut work, &ops::StepAt { step: k + 1, op: op.name() })?;
        notes.push(format!("{}: {note}", op.name()));
    }
    let source_offset_secs = work.source_offset_secs;
    Ok(Edited { motion: work.finish(), notes, source_offset_secs })
}
