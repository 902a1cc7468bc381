//! Every edit operation, each in a file of its own: its parameters (a struct a recipe step
//! reads), its declaration ([`OpSpec`]: name, help, each parameter's type, default, unit and
//! range), its checks and what it does. [`operations!`] registers them: one line each makes
//! the [`Op`] enum, its dispatch and [`OPERATIONS`], from which the command line, Python, the
//! viewer's form and the book are made.

mod add_event;
mod add_tpose;
mod despike;
mod face;
mod fill_gaps;
mod filter;
mod ground;
mod make_loop;
mod remove_event;
mod remove_joint;
mod rename;
mod resample;
mod rest_from_frame;
mod scale;
mod trim;
mod unroll;

use serde::{Deserialize, Serialize};

use super::spec::OpSpec;
use super::{EditError, FrameRange, Work};

/// What an operation's file gives: its declaration and what it does to the motion being edited.
pub(crate) trait Operation {
    /// Applies the operation (step `at.step` of its recipe) to `w`; returns a line saying
    /// what it changed, or why it could not.
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError>;
}

/// Registers operations: `Variant(module)`, where `module` declares `SPEC` and the struct
/// `Variant` (its parameters, implementing [`Operation`]).
macro_rules! operations {
    ($($variant:ident($module:ident)),* $(,)?) => {
        /// One operation and its parameters (a recipe's step). Those that take `joints` apply
        /// to the joints (or markers) named, all when none; those that take `range` to that
        /// range of frames, all when none.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "op", rename_all = "snake_case")]
        pub enum Op {
            $(
                #[allow(missing_docs)]
                $variant($module::$variant),
            )*
        }

        $(pub use $module::$variant;)*

        /// Every operation's declaration, in the order the viewer's form lists them.
        pub static OPERATIONS: &[&OpSpec] = &[$(&$module::SPEC),*];

        impl Op {
            /// Its declaration.
            pub fn spec(&self) -> &'static OpSpec {
                match self {
                    $(Self::$variant(_) => &$module::SPEC,)*
                }
            }

            pub(in crate::edit) fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
                match self {
                    $(Self::$variant(o) => o.apply(w, at),)*
                }
            }
        }

        $(
            impl From<$module::$variant> for Op {
                fn from(o: $module::$variant) -> Self {
                    Self::$variant(o)
                }
            }
        )*
    };
}

operations! {
    FillGaps(fill_gaps),
    Filter(filter),
    Despike(despike),
    Unroll(unroll),
    Trim(trim),
    Resample(resample),
    Loop(make_loop),
    Ground(ground),
    AddTpose(add_tpose),
    RestFromFrame(rest_from_frame),
    Face(face),
    Scale(scale),
    Rename(rename),
    RemoveJoint(remove_joint),
    AddEvent(add_event),
    RemoveEvent(remove_event),
}

/// Where in its recipe a step is, for its messages; and the checks every operation shares.
pub(crate) struct StepAt {
    /// 1-based step.
    pub step: usize,
    /// The operation's name.
    pub op: &'static str,
}

impl StepAt {
    /// A parameter out of its range, or a clip the operation cannot work on.
    pub fn bad(&self, message: impl Into<String>) -> EditError {
        EditError::Parameter { step: self.step, op: self.op, message: message.into() }
    }

    /// Joints named in `names` (all when empty).
    pub fn joints(&self, w: &Work, names: &[String]) -> Result<Vec<usize>, EditError> {
        if names.is_empty() {
            return Ok((0..w.motion.skeleton.len()).collect());
        }
        names.iter().map(|n| self.joint(w, n)).collect()
    }

    /// The joint named `name`.
    pub fn joint(&self, w: &Work, name: &str) -> Result<usize, EditError> {
        w.motion.skeleton.joint_named(name).map_err(|source| EditError::NoJoint { step: self.step, op: self.op, source })
    }

    /// Frames `range` names (all when `None`).
    pub fn frames(&self, w: &Work, range: Option<&FrameRange>) -> Result<(usize, usize), EditError> {
        let r = range.copied().unwrap_or_default();
        r.resolve(w.frames, w.fps()).map_err(|source| EditError::Range { step: self.step, op: self.op, source })
    }
}

/// A channel's values as f64, NaN where missing.
fn column(w: &Work, c: usize) -> Vec<f64> {
    let cpf = w.cpf();
    (0..w.frames).map(|f| f64::from(w.values[f * cpf + c])).collect()
}

/// What an operation wrote: (frame, channel, value).
type Writes = Vec<(usize, usize, f32)>;
