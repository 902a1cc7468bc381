//! `filter`: a zero-lag Butterworth low-pass, run forward and backward as SciPy's `filtfilt`.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::butterworth::{Butterworth, MAX_ORDER};
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
    let n = channels.len();
    // Channels without a gap in the range (most, once gaps are filled) go WIDE at a time,
    // straight from the rows and back; the others run by run.
    let finite = finite_channels(&w.values, cpf, &channels, (lo, hi));
    let (mut whole, mut gappy): (Vec<usize>, Vec<usize>) = channels.iter().partition(|&&c| finite[c]);
    // In channel order, each once: the groups are then cut into bands of columns.
    whole.sort_unstable();
    whole.dedup();
    let mut groups = whole.chunks_exact(WIDE);
    let wide: Vec<[usize; WIDE]> = groups.by_ref().filter_map(|g| g.try_into().ok()).collect();
    gappy.extend_from_slice(groups.remainder());
    let (mut runs, mut short) = filter_wide(w, filter, &wide, (lo, hi));
    // Channels in batches: each batch's columns are read frame by frame (a short contiguous
    // run of each row, not one value per row and cache line), filtered, and written back the
    // same way; batches run in parallel, and few wait at once, so memory stays small.
    const BATCH: usize = 32;
    for group in gappy.chunks(BATCH * 16) {
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
    for col in &mut cols {
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

/// Channels filtered side by side from the rows: enough to hide the recursion's latency and
/// fill the vector registers, few enough that their state stays in the first-level cache
/// (8, 16, 32 and 64 took about the same on 3,840 channels; benches/RESULTS.md).
const WIDE: usize = 16;

/// Bands of columns filtered in parallel: enough for the cores to share out, few enough that
/// the rows' slices (16 bytes a row a band) stay small beside the rows.
const BANDS: usize = 16;

/// Channels (indexed by channel) with no missing value over frames `lo..=hi`.
fn finite_channels(values: &[f32], cpf: usize, channels: &[usize], (lo, hi): (usize, usize)) -> Vec<bool> {
    let mut finite = vec![true; cpf];
    if cpf == 0 || channels.is_empty() {
        return finite;
    }
    let rows = &values[lo * cpf..(hi + 1) * cpf];
    let bad: Vec<Vec<usize>> = rows
        .par_chunks(cpf * 512)
        .map(|rows| {
            let mut bad = vec![false; channels.len()];
            for row in rows.chunks_exact(cpf) {
                for (b, &c) in bad.iter_mut().zip(channels) {
                    *b |= !row[c].is_finite();
                }
            }
            bad.iter().zip(channels).filter(|(b, _)| **b).map(|(_, &c)| c).collect()
        })
        .collect();
    bad.iter().flatten().for_each(|&c| finite[c] = false);
    finite
}

/// Filters each group of channels over frames `lo..=hi` (no gaps there) where they lie in the
/// rows; with the runs filtered and those too short to filter.
fn filter_wide(w: &mut Work, filter: &Butterworth, groups: &[[usize; WIDE]], (lo, hi): (usize, usize)) -> (usize, usize) {
    let (cpf, len) = (w.cpf(), hi + 1 - lo);
    let count = groups.len() * WIDE;
    if groups.is_empty() || len <= filter.padding() {
        return (count, if len <= filter.padding() { count } else { 0 });
    }
    // The columns cut into bands at groups' edges (the groups are in channel order), each band
    // its own slice of every row: the bands are filtered in parallel, each group of a band
    // straight from its rows and back, with no copy of the channels and no unsafe sharing.
    let per_band = groups.len().div_ceil(BANDS);
    let starts: Vec<usize> = groups.chunks(per_band).map(|band| band[0][0]).skip(1).collect();
    let mut bands: Vec<(Vec<&mut [f32]>, Vec<[usize; WIDE]>)> = groups
        .chunks(per_band)
        .map(|band| {
            let start = band[0][0];
            (Vec::with_capacity(len), band.iter().map(|g| g.map(|c| c - start)).collect())
        })
        .collect();
    for row in w.values[lo * cpf..(hi + 1) * cpf].chunks_exact_mut(cpf) {
        let (mut rest, mut at) = (row, 0);
        for (k, (rows, _)) in bands.iter_mut().enumerate() {
            let end = starts.get(k).map_or(cpf, |&s| s);
            let (mine, others) = std::mem::take(&mut rest).split_at_mut(end - at);
            // The first band also holds the columns before its first group, never touched.
            rows.push(&mut mine[if k == 0 { groups[0][0] } else { 0 }..]);
            (rest, at) = (others, end);
        }
    }
    bands.into_par_iter().for_each(|(mut rows, lanes)| {
        let mut fwd = Vec::with_capacity(len + filter.padding());
        for g in &lanes {
            filter.filtfilt_rows(&mut rows, g, &mut fwd);
        }
    });
    (count, 0)
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
