//! Runs of flagged frames, and keeping the finding where an artifact starts rather than at
//! every joint it carries along.

use crate::core::Skeleton;

use super::Finding;

pub use crate::core::contacts::runs;

/// True when `a` is an ancestor of `b`.
pub fn is_ancestor(skeleton: &Skeleton, a: usize, b: usize) -> bool {
    let mut p = skeleton.joints()[b].parent;
    while let Some(i) = p {
        if i == a {
            return true;
        }
        p = skeleton.joints()[i].parent;
    }
    false
}

/// Drops a finding when an ancestor joint has one of the same kind over overlapping frames
/// (a sliding ankle carries its toes, a sunk foot its toe tip, a frozen arm its hand), and
/// says on the one kept how many joints below it went with it.
pub fn keep_topmost(skeleton: &Skeleton, findings: Vec<Finding>) -> Vec<Finding> {
    let carried_by = |f: &Finding| {
        findings.iter().position(|g| {
            g.kind == f.kind
                && g.start_frame <= f.end_frame
                && f.start_frame <= g.end_frame
                && matches!((g.joint, f.joint), (Some(a), Some(b)) if is_ancestor(skeleton, a, b))
        })
    };
    let carriers: Vec<Option<usize>> = findings.iter().map(carried_by).collect();
    let mut below = vec![0usize; findings.len()];
    for (i, c) in carriers.iter().enumerate() {
        // Count against the topmost finding of the chain.
        let mut top = *c;
        let mut at = i;
        while let Some(t) = top {
            at = t;
            top = carriers[t];
        }
        if at != i {
            below[at] += 1;
        }
    }
    findings
        .into_iter()
        .enumerate()
        .filter(|(i, _)| carriers[*i].is_none())
        .map(|(i, mut f)| {
            if below[i] > 0 {
                let s = if below[i] == 1 { "" } else { "s" };
                f.message.push_str(&format!(" ({} joint{s} below it too)", below[i]));
            }
            f
        })
        .collect()
}

/// `frames a–b` or `frame a`.
pub fn frames_text(start: usize, end: usize) -> String {
    if start == end { format!("frame {start}") } else { format!("frames {start}–{end}") }
}

/// Median of `values` (reordered), 0 when empty.
pub fn median(values: &mut [f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    *values.select_nth_unstable_by(mid, f32::total_cmp).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::contacts::quantile;

    #[test]
    fn runs_join_across_small_gaps() {
        let flags = [false, true, true, false, true, false, false, false, true];
        assert_eq!(runs(flags.len(), 0, |f| flags[f]), vec![(1, 2), (4, 4), (8, 8)]);
        assert_eq!(runs(flags.len(), 1, |f| flags[f]), vec![(1, 4), (8, 8)]);
        assert_eq!(runs(0, 0, |_| true), vec![]);
        assert_eq!(runs(3, 0, |_| true), vec![(0, 2)]);
    }

    #[test]
    fn quantiles() {
        let mut v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(median(&mut v), 3.0);
        assert_eq!(quantile(&mut v, 0.0), 1.0);
        assert_eq!(quantile(&mut v, 1.0), 5.0);
    }
}
