//! `filter`: a zero-lag Butterworth low-pass, run forward and backward as SciPy's `filtfilt`.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::butterworth::{Butterworth, LANES, MAX_ORDER};
use crate::edit::rotations::RotationChannels;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, FrameRange, Work};
use crate::par::*;

/// A zero-lag Butterworth low-pass (forward and backward) over each run of valid samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Cutoff frequency, Hz.
    pub cutoff_hz: f64,
    /// Filter order (4 when not given).
    #[serde(default = "default_order")]
    pub order: usize,
    /// Joints or markers to filter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<String>,
    /// Frames to filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<FrameRange>,
}

fn default_order() -> usize {
    4
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "filter",
    label: "Butterworth low-pass",
    help: "A zero-lag Butterworth low-pass: SciPy's `butter(order, cutoff / (rate / 2))` run forward and backward as `filtfilt(b, a, x)` runs it (odd extension of 3 × (order + 1) samples, the filter's steady state as the start).",
    notes: "Each run of valid samples is filtered on its own; gaps stay gaps; a run not longer than the padding is left as it is, and the note says how many. Euler channels are unrolled first and filtered as angles; quaternions are put in one hemisphere, filtered per component and renormalised. A cutoff at or above the Nyquist frequency, or order 0, is an error.",
    params: &[
        Param {
            key: "cutoff_hz",
            kind: Kind::Number { min: 0.0001, max: 1e6, integer: false, unit: "Hz", default: Absent::Required("6") },
            help: "the cutoff frequency",
            from: Taken::Form,
        },
        Param {
            key: "order",
            kind: Kind::Number { min: 1.0, max: MAX_ORDER as f64, integer: true, unit: "", default: Absent::Value("4") },
            help: "the filter's order",
            from: Taken::Form,
        },
        Param { key: "joints", kind: Kind::Names, help: "the joints or markers filtered", from: Taken::Selection { optional: true } },
        Param { key: "range", kind: Kind::Range { required: false }, help: "the frames filtered", from: Taken::InOut { optional: true } },
    ],
    value: &["cutoff_hz", "order"],
    separator: ':',
    free_part: FreePart::First,
    prefix: Some("butterworth"),
    in_form: true,
};

impl Operation for Filter {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let joints = at.joints(w, &self.joints)?;
        let range = at.frames(w, self.range.as_ref())?;
        let filter =
            Butterworth::low_pass(self.order, self.cutoff_hz, w.fps()).map_err(|source| EditError::Filter { step: at.step, source })?;
        Ok(filter_joints(w, &filter, &joints, range))
    }
}

/// Low-passes the joints' channels over frames `lo..=hi`, each run of valid samples alone.
fn filter_joints(w: &mut Work, filter: &Butterworth, joints: &[usize], (lo, hi): (usize, usize)) -> String {
    // Rotations are made continuous first (Euler unrolled, quaternions in one hemisphere), so
    // that a wrap is not smoothed into a spin.
    super::unroll::unroll(w, joints);
    let skeleton = &w.motion.skeleton;
    let mut channels = Vec::new();
    let mut quats = Vec::new();
    for &j in joints {
        let joint = &skeleton.joints()[j];
        channels.extend(joint.first_channel..joint.first_channel + joint.channels.len());
        if let Some(RotationChannels::Quaternion(at)) = RotationChannels::of(joint) {
            quats.push(at);
        }
    }
    let cpf = w.cpf();
    let (mut runs, mut short, n) = (0, 0, channels.len());
    // Channels in batches: each batch's columns are read frame by frame (a short contiguous
    // run of each row, not one value per row and cache line), filtered, and written back the
    // same way; batches run in parallel, and few wait at once, so memory stays small.
    const BATCH: usize = 32;
    for group in channels.chunks(BATCH * 16) {
        let values = &w.values;
        let results: Vec<(Vec<usize>, Vec<Vec<f64>>, usize, usize)> = group
            .chunks(BATCH)
            .map(<[usize]>::to_vec)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|batch| {
                let (cols, runs, short) = filter_batch(values, cpf, &batch, (lo, hi), filter);
                (batch, cols, runs, short)
            })
            .collect();
        for (batch, cols, r, s) in results {
            runs += r;
            short += s;
            for (k, f) in (lo..=hi).enumerate() {
                let row = &mut w.values[f * cpf..(f + 1) * cpf];
                for (col, &c) in cols.iter().zip(&batch) {
                    row[c] = col[k] as f32;
                }
            }
        }
    }
    renormalise(w, &quats, (lo, hi));
    note(filter, n, runs, short)
}

/// Channels `batch` over frames `lo..=hi`, read from the rows of `values` and filtered, each
/// run of valid samples alone; with the runs filtered and those too short to filter.
fn filter_batch(
    values: &[f32],
    cpf: usize,
    batch: &[usize],
    (lo, hi): (usize, usize),
    filter: &Butterworth,
) -> (Vec<Vec<f64>>, usize, usize) {
    let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(hi + 1 - lo); batch.len()];
    for f in lo..=hi {
        let row = &values[f * cpf..(f + 1) * cpf];
        for (col, &c) in cols.iter_mut().zip(batch) {
            col.push(f64::from(row[c]));
        }
    }
    let (mut runs, mut short) = (0, 0);
    // Columns without a gap (most, once gaps are filled) go LANES at a time.
    let (mut whole, mut gappy): (Vec<&mut Vec<f64>>, Vec<&mut Vec<f64>>) = cols.iter_mut().partition(|c| c.iter().all(|v| v.is_finite()));
    let mut lanes = whole.chunks_exact_mut(LANES);
    for group in &mut lanes {
        let [a, b, c, d] = group else { continue };
        runs += LANES;
        if !filter.filtfilt_lanes(&mut [a.as_mut_slice(), b.as_mut_slice(), c.as_mut_slice(), d.as_mut_slice()]) {
            short += LANES;
        }
    }
    gappy.extend(lanes.into_remainder().iter_mut().map(|c| &mut **c));
    for col in gappy {
        let mut f = 0;
        while f < col.len() {
            if !col[f].is_finite() {
                f += 1;
                continue;
            }
            let start = f;
            while f < col.len() && col[f].is_finite() {
                f += 1;
            }
            runs += 1;
            if !filter.filtfilt(&mut col[start..f]) {
                short += 1;
            }
        }
    }
    (cols, runs, short)
}

/// Filtered quaternion components are no longer unit length: makes them so again.
fn renormalise(w: &mut Work, quats: &[[usize; 4]], (lo, hi): (usize, usize)) {
    let cpf = w.cpf();
    for at in quats {
        for f in lo..=hi {
            let row = &mut w.values[f * cpf..(f + 1) * cpf];
            let q = glam::Vec4::new(row[at[0]], row[at[1]], row[at[2]], row[at[3]]).normalize_or_zero();
            for (k, &i) in at.iter().enumerate() {
                row[i] = q[k];
            }
        }
    }
}

/// The step's note: the filter, the channels and runs, and the runs left as they were.
fn note(filter: &Butterworth, n: usize, runs: usize, short: usize) -> String {
    let mut note = format!(
        "order-{} Butterworth at {} Hz, forward and backward, on {n} channels ({runs} runs of valid samples; Euler channels unrolled, quaternions hemisphere-aligned and renormalised)",
        filter.a.len() - 1,
        filter.cutoff_hz
    );
    if short > 0 {
        note += &format!("; {short} runs of {} frames or fewer left as they were (too short for the filter's padding)", filter.padding());
    }
    note
}
