//! Marker checks of a capture: gaps longer than a threshold, markers that jump between two
//! frames, and nearby markers that exchange places (their labels swapped). Joint `j` of the
//! motion is marker `j` of the capture.

use glam::Vec3;

use super::thresholds::MarkerThresholds;
use super::{Finding, Kind};
use crate::core::capture::Capture;

fn seconds(c: &Capture, frames: usize) -> f32 {
    if c.point_rate_hz > 0.0 { (frames as f64 / c.point_rate_hz) as f32 } else { 0.0 }
}

/// Gaps of at least `t.gap_secs`.
pub fn gaps(c: &Capture, _metres: f32, t: &MarkerThresholds) -> Vec<Finding> {
    let mut out = Vec::new();
    for (j, p) in c.marker_indices().into_iter().enumerate() {
        for (first, last) in c.gap_runs(p) {
            let secs = seconds(c, last - first + 1);
            if secs >= t.gap_secs {
                let whole = first == 0 && last + 1 == c.frames;
                out.push(Finding {
                    kind: Kind::Gap,
                    joint: Some(j),
                    start_frame: first,
                    end_frame: last,
                    value: secs,
                    unit: "s",
                    threshold: t.gap_secs,
                    message: if whole {
                        format!("{} has no position in any frame", c.points[p].label)
                    } else {
                        format!("{} is missing for {} frames ({secs:.2} s), frames {first}–{last}", c.points[p].label, last - first + 1)
                    },
                });
            }
        }
    }
    out
}

/// How far each frame's position lies from the midpoint of its neighbours, metres (`None`
/// where a neighbour is in a gap): near zero for smooth motion however fast, about the size
/// of a jump at a jump.
fn kinks(c: &Capture, p: usize, metres: f32) -> Vec<Option<f32>> {
    (1..c.frames.saturating_sub(1))
        .map(|f| {
            let (a, b, n) = (c.position(f - 1, p)?, c.position(f, p)?, c.position(f + 1, p)?);
            Some((b - (a + n) * 0.5).length() * metres)
        })
        .collect()
}

fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    let mid = v.len() / 2;
    *v.select_nth_unstable_by(mid, f32::total_cmp).1
}

/// Frames that leave the path their neighbours draw by more than `t.jump_m` and
/// `t.jump_factor` × the marker's median (fast smooth motion is not a jump).
pub fn jumps(c: &Capture, metres: f32, t: &MarkerThresholds) -> Vec<Finding> {
    let mut out = Vec::new();
    for (j, p) in c.marker_indices().into_iter().enumerate() {
        let k = kinks(c, p, metres);
        let typical = median(k.iter().flatten().copied().collect());
        let limit = t.jump_m.max(typical * t.jump_factor);
        let mut f = 0;
        while f < k.len() {
            let Some(d) = k[f].filter(|&d| d > limit) else {
                f += 1;
                continue;
            };
            // One finding per run of frames off the path.
            let start = f;
            let mut worst = d;
            while f + 1 < k.len() && k[f + 1].is_some_and(|d| d > limit) {
                f += 1;
                worst = worst.max(k[f].unwrap_or(0.0));
            }
            out.push(Finding {
                kind: Kind::Jump,
                joint: Some(j),
                start_frame: start + 1,
                end_frame: f + 1,
                value: worst,
                unit: "m",
                threshold: limit,
                message: format!(
                    "{} leaves its path by {:.0} mm at {} (typically {:.1} mm)",
                    c.points[p].label,
                    worst * 1000.0,
                    if f == start { format!("frame {}", f + 1) } else { format!("frames {}–{}", start + 1, f + 1) },
                    typical * 1000.0
                ),
            });
            f += 1;
        }
    }
    out
}

/// Two markers closer than `t.swap_near_m` that each land where the other was: each one's
/// step is longer than `t.jump_m`, and the crossed distances are under half the straight ones.
pub fn swaps(c: &Capture, metres: f32, t: &MarkerThresholds) -> Vec<Finding> {
    let markers = c.marker_indices();
    let mut out = Vec::new();
    for f in 1..c.frames {
        let at = |p: usize, g: usize| c.position(g, p).map(|v| v * metres);
        // Only markers that moved far can have swapped: few per frame.
        let mut movers: Vec<(usize, Vec3, Vec3)> = markers
            .iter()
            .enumerate()
            .filter_map(|(j, &p)| {
                let (before, now) = (at(p, f - 1)?, at(p, f)?);
                ((now - before).length() > t.jump_m).then_some((j, before, now))
            })
            .collect();
        // Sorted along X, each mover meets only those within reach there: a noisy file where
        // every marker jumps every frame stays O(n log n) a frame, not O(n²).
        movers.sort_by(|p, q| p.1.x.total_cmp(&q.1.x));
        for (x, &(a, a0, a1)) in movers.iter().enumerate() {
            for &(b, b0, b1) in movers[x + 1..].iter().take_while(|m| m.1.x - a0.x <= t.swap_near_m) {
                if (a0 - b0).length() > t.swap_near_m {
                    continue;
                }
                let straight = (a1 - a0).length() + (b1 - b0).length();
                let crossed = (a1 - b0).length() + (b1 - a0).length();
                if crossed < 0.5 * straight {
                    let (la, lb) = (&c.points[markers[a]].label, &c.points[markers[b]].label);
                    out.push(Finding {
                        kind: Kind::Swap,
                        joint: Some(a),
                        start_frame: f - 1,
                        end_frame: f,
                        value: (a0 - b0).length(),
                        unit: "m",
                        threshold: t.swap_near_m,
                        message: format!(
                            "{la} and {lb} ({:.0} mm apart) exchange places between frames {} and {f}: labels swapped?",
                            (a0 - b0).length() * 1000.0,
                            f - 1
                        ),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::capture::{PointInfo, PointKind};

    /// Two markers 50 mm apart moving 1 mm a frame along X; gaps and swaps added by the tests.
    fn walk(frames: usize) -> Capture {
        let point = |l: &str| PointInfo { label: l.into(), description: String::new(), kind: PointKind::Marker };
        let mut positions = Vec::new();
        for f in 0..frames {
            positions.extend([f as f32, 0.0, 0.0, f as f32, 50.0, 0.0]);
        }
        Capture {
            point_rate_hz: 100.0,
            points: vec![point("A"), point("B")],
            unit: "mm".into(),
            frames,
            positions,
            residuals: vec![0.0; frames * 2],
            ..Default::default()
        }
    }

    #[test]
    fn long_gaps_are_found_and_short_ones_are_not() {
        let mut c = walk(100);
        for f in 10..40 {
            c.residuals[f * 2] = -1.0;
        }
        for f in 60..65 {
            c.residuals[f * 2 + 1] = -1.0;
        }
        let g = gaps(&c, 0.001, &MarkerThresholds::default());
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].joint, g[0].start_frame, g[0].end_frame), (Some(0), 10, 39));
    }

    #[test]
    fn a_jump_and_a_swap_are_found() {
        let mut c = walk(50);
        // B jumps 100 mm up at frame 20 and back at 21.
        c.positions[(20 * 2 + 1) * 3 + 2] = 100.0;
        let j = jumps(&c, 0.001, &MarkerThresholds::default());
        assert_eq!(j.len(), 1, "{j:?}");
        assert_eq!((j[0].start_frame, j[0].end_frame), (19, 21));
        assert!(jumps(&walk(50), 0.001, &MarkerThresholds::default()).is_empty(), "steady motion is no jump");
        // From frame 30 on, A and B trade places.
        let mut s = walk(50);
        for f in 30..50 {
            s.positions[f * 6 + 1] = 50.0;
            s.positions[f * 6 + 4] = 0.0;
        }
        let found = swaps(&s, 0.001, &MarkerThresholds::default());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].end_frame, 30);
        assert!(found[0].message.contains("A and B"));
        assert!(swaps(&walk(50), 0.001, &MarkerThresholds::default()).is_empty());
    }
}
