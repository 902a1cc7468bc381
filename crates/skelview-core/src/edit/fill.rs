//! Gap filling of sampled series (NaN where missing): straight lines, cubic splines through
//! the samples on both sides, a marker rebuilt from donors that move rigidly with it, and a
//! marker following a donor's path. Gaps that touch either end of the clip have only one side
//! and are left as they are; so are gaps longer than the limit.

use glam::{DMat3, DVec3};

/// How gaps are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FillMethod {
    /// A straight line between the samples either side.
    Linear,
    /// A natural cubic spline through up to [`SPLINE_SIDE`] valid samples each side.
    Spline,
    /// From at least three donor markers that keep their distances to the marker around the
    /// gap: a least-squares rigid fit per frame.
    Rigid,
    /// Along a donor marker's path, offset as it is at both ends of the gap.
    Pattern,
    /// Per gap, the best the data allow: a spline over gaps of at most [`SHORT_GAP`] frames;
    /// longer, rigid, else pattern, else spline, else linear.
    Auto,
}

impl FillMethod {
    /// Every method, as the command line names them.
    pub const ALL: [Self; 5] = [Self::Linear, Self::Spline, Self::Rigid, Self::Pattern, Self::Auto];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Linear => "linear",
            Self::Spline => "spline",
            Self::Rigid => "rigid",
            Self::Pattern => "pattern",
            Self::Auto => "auto",
        }
    }

    /// The method named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Samples used on each side of a gap by the spline.
pub const SPLINE_SIDE: usize = 10;

/// Gaps `auto` fills with a spline (frames): over these a spline through the samples either
/// side is closer than donors.
pub const SHORT_GAP: usize = 10;

/// A run of missing frames `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// First missing frame.
    pub first: usize,
    /// Last missing frame.
    pub last: usize,
}

impl Gap {
    /// Frames in it.
    pub fn len(&self) -> usize {
        self.last - self.first + 1
    }

    /// Never: a gap holds a frame at least.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The runs where `missing(frame)` holds, over `frames` frames.
pub fn gaps(frames: usize, missing: impl Fn(usize) -> bool) -> Vec<Gap> {
    let mut out = Vec::new();
    let mut start = None;
    for f in 0..frames {
        match (missing(f), start) {
            (true, None) => start = Some(f),
            (false, Some(s)) => {
                out.push(Gap { first: s, last: f - 1 });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Gap { first: s, last: frames - 1 });
    }
    out
}

/// True when the gap has a valid sample on both sides within `frames`.
pub fn inner(g: Gap, frames: usize) -> bool {
    g.first > 0 && g.last + 1 < frames
}

/// The values of gap `g` filled by a spline (or a line where there are not two samples on
/// each side, or `spline` is false) through the samples of `get` (NaN where missing) around
/// it, over `frames` frames: reads only the few frames the fill needs.
pub fn fill_local(get: impl Fn(usize) -> f64, frames: usize, g: Gap, spline: bool) -> (Vec<f64>, bool) {
    let (filled, used_spline) = fill_window(|f| [get(f)], frames, g, spline);
    (filled.into_iter().map(|[v]| v).collect(), used_spline)
}

/// [`fill_local`] of a marker's three axes (`None` where the marker is missing): the axes share
/// their knots, so the spline's system is set up once for the three, and each frame is read
/// once. The same values as three calls of [`fill_local`].
pub fn fill_local_xyz(get: impl Fn(usize) -> Option<DVec3>, frames: usize, g: Gap, spline: bool) -> (Vec<DVec3>, bool) {
    let (filled, used_spline) = fill_window(|f| get(f).map_or([f64::NAN; 3], |p| p.to_array()), frames, g, spline);
    (filled.into_iter().map(DVec3::from_array).collect(), used_spline)
}

/// [`fill_local`] of `D` series missing together (a frame with any value not finite is
/// missing), lane by lane in the same order as one.
fn fill_window<const D: usize>(get: impl Fn(usize) -> [f64; D], frames: usize, g: Gap, spline: bool) -> (Vec<[f64; D]>, bool) {
    let lo = g.first.saturating_sub(SPLINE_SIDE);
    let hi = (g.last + SPLINE_SIDE).min(frames - 1);
    let x: Vec<[f64; D]> = (lo..=hi).map(get).collect();
    let local = Gap { first: g.first - lo, last: g.last - lo };
    let valid = |v: &[f64; D]| v.iter().all(|c| c.is_finite());
    let two_each_side = local.first >= 2 && local.last + 2 < x.len() && valid(&x[local.first - 2]) && valid(&x[local.last + 2]);
    let used_spline = spline && two_each_side;
    let filled = if used_spline {
        spline_lanes(&x, local).collect()
    } else {
        let (a, b) = (x[local.first - 1], x[local.last + 1]);
        let span = (g.len() + 1) as f64;
        (0..g.len()).map(|k| std::array::from_fn(|d| a[d] + (b[d] - a[d]) * (k + 1) as f64 / span)).collect()
    };
    (filled, used_spline)
}

/// Fills gap `g` of `x` (NaN inside) with a straight line.
pub fn linear(x: &mut [f64], g: Gap) {
    let (a, b) = (x[g.first - 1], x[g.last + 1]);
    let span = (g.len() + 1) as f64;
    for (k, v) in x[g.first..=g.last].iter_mut().enumerate() {
        *v = a + (b - a) * (k + 1) as f64 / span;
    }
}

/// Fills gap `g` of `x` with a natural cubic spline through the valid samples nearest each
/// side (up to [`SPLINE_SIDE`] each, stopping at another gap).
pub fn spline(x: &mut [f64], g: Gap) {
    let lanes: Vec<[f64; 1]> = x.iter().map(|&v| [v]).collect();
    for (v, [s]) in x[g.first..=g.last].iter_mut().zip(spline_lanes(&lanes, g)) {
        *v = s;
    }
}

/// The values of gap `g` of `D` series that are missing together (a frame with any value not
/// finite is missing), each by [`spline`]: one system for all of them, solved lane by lane
/// in the same order as for one.
fn spline_lanes<const D: usize>(x: &[[f64; D]], g: Gap) -> impl Iterator<Item = [f64; D]> {
    // On the stack: a capture has hundreds of thousands of gaps, and one allocation per
    // array per gap was most of a fill's time.
    let valid = |f: &usize| x[*f].iter().all(|v| v.is_finite());
    let mut knots = [(0.0, [0.0; D]); KNOTS];
    let mut n = 0;
    for f in (0..g.first).rev().take_while(valid).take(SPLINE_SIDE) {
        knots[n] = (f as f64, x[f]);
        n += 1;
    }
    knots[..n].reverse();
    for f in (g.last + 1..x.len()).take_while(valid).take(SPLINE_SIDE) {
        knots[n] = (f as f64, x[f]);
        n += 1;
    }
    let curve = NaturalSpline::through(&knots[..n]);
    (g.first..=g.last).map(move |f| curve.at(f as f64))
}

/// The most knots a spline fill uses.
const KNOTS: usize = 2 * SPLINE_SIDE;

/// `D` natural cubic splines (second derivative 0 at both ends) through knots in increasing
/// x, shared.
struct NaturalSpline<const D: usize> {
    n: usize,
    x: [f64; KNOTS],
    y: [[f64; D]; KNOTS],
    m: [[f64; D]; KNOTS],
}

impl<const D: usize> NaturalSpline<D> {
    /// Through at most [`KNOTS`] knots (more are left out).
    fn through(knots: &[(f64, [f64; D])]) -> Self {
        let n = knots.len().min(KNOTS);
        let (mut x, mut y, mut m) = ([0.0; KNOTS], [[0.0; D]; KNOTS], [[0.0; D]; KNOTS]);
        for (i, &(kx, ky)) in knots.iter().take(n).enumerate() {
            (x[i], y[i]) = (kx, ky);
        }
        if n > 2 {
            // The tridiagonal system for the inner second derivatives (Thomas algorithm).
            let mut h = [0.0; KNOTS];
            for i in 0..n - 1 {
                h[i] = x[i + 1] - x[i];
            }
            let (mut diag, mut rhs) = ([0.0; KNOTS], [[0.0; D]; KNOTS]);
            for i in 1..n - 1 {
                diag[i] = 2.0 * (h[i - 1] + h[i]);
                for d in 0..D {
                    rhs[i][d] = 6.0 * ((y[i + 1][d] - y[i][d]) / h[i] - (y[i][d] - y[i - 1][d]) / h[i - 1]);
                }
            }
            for i in 2..n - 1 {
                let w = h[i - 1] / diag[i - 1];
                diag[i] -= w * h[i - 1];
                let before = rhs[i - 1];
                for (r, b) in rhs[i].iter_mut().zip(before) {
                    *r -= w * b;
                }
            }
            for i in (1..n - 1).rev() {
                for d in 0..D {
                    let next = if i + 1 < n - 1 { h[i] * m[i + 1][d] } else { 0.0 };
                    m[i][d] = (rhs[i][d] - next) / diag[i];
                }
            }
        }
        Self { n, x, y, m }
    }

    fn at(&self, t: f64) -> [f64; D] {
        let n = self.n;
        if n == 1 {
            return self.y[0];
        }
        let i = self.x[..n].partition_point(|&k| k <= t).clamp(1, n - 1) - 1;
        let (x0, x1) = (self.x[i], self.x[i + 1]);
        let h = x1 - x0;
        let (a, b) = ((x1 - t) / h, (t - x0) / h);
        std::array::from_fn(|d| {
            let (y0, y1, m0, m1) = (self.y[i][d], self.y[i + 1][d], self.m[i][d], self.m[i + 1][d]);
            a * y0 + b * y1 + ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6.0
        })
    }
}

/// Every marker's positions over the clip, read where they are stored.
pub trait Tracks: Sync {
    /// Number of markers.
    fn markers(&self) -> usize;
    /// Number of frames.
    fn frames(&self) -> usize;
    /// Marker `m` at frame `f`, `None` where missing.
    fn at(&self, m: usize, f: usize) -> Option<DVec3>;
}

/// Tracks held as one `Vec` per marker (tests, small captures).
impl Tracks for Vec<Vec<Option<DVec3>>> {
    fn markers(&self) -> usize {
        self.len()
    }
    fn frames(&self) -> usize {
        self.first().map_or(0, Vec::len)
    }
    fn at(&self, m: usize, f: usize) -> Option<DVec3> {
        self[m][f]
    }
}

/// Candidates looked at as donors: the markers nearest the gapped one at the gap's edge.
const DONOR_CANDIDATES: usize = 24;

/// How steady the distance between `a` and `b` is over `frames` where both are seen: its
/// standard deviation, or `None` with fewer than three such frames.
fn distance_spread(t: &dyn Tracks, a: usize, b: usize, frames: impl Iterator<Item = usize>) -> Option<f64> {
    let d: Vec<f64> = frames.filter_map(|f| Some((t.at(a, f)? - t.at(b, f)?).length())).collect();
    if d.len() < 3 {
        return None;
    }
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    Some((d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d.len() as f64).sqrt())
}

/// Frames around gap `g` where the marker is seen, to judge donors by: up to `window` each side.
fn around(g: Gap, frames: usize, window: usize) -> impl Iterator<Item = usize> + Clone {
    (g.first.saturating_sub(window)..g.first).chain(g.last + 1..(g.last + 1 + window).min(frames))
}

/// Donors for a marker's gap: the markers seen over the whole gap and at its two edges (of
/// the named ones when `named` is given, else of the [`DONOR_CANDIDATES`] nearest at the
/// gap's edge), by how steady their distance to the marker is around the gap; at most `want`.
pub fn donors(tracks: &dyn Tracks, marker: usize, g: Gap, named: &[usize], want: usize) -> Vec<usize> {
    let frames = tracks.frames();
    let window = (g.len() * 2).clamp(10, 120);
    let Some(edge) = tracks.at(marker, g.first - 1) else { return Vec::new() };
    let seen = |d: usize| tracks.at(d, g.first - 1).is_some() && tracks.at(d, g.last + 1).is_some();
    let mut near: Vec<(f64, usize)> = (0..tracks.markers())
        .filter(|&d| d != marker && (named.is_empty() || named.contains(&d)) && seen(d))
        .filter_map(|d| Some(((tracks.at(d, g.first - 1)? - edge).length(), d)))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.truncate(DONOR_CANDIDATES);
    let mut scored: Vec<(f64, usize)> = near
        .into_iter()
        .map(|(_, d)| d)
        .filter(|&d| (g.first..=g.last).all(|f| tracks.at(d, f).is_some()))
        .filter_map(|d| distance_spread(tracks, marker, d, around(g, frames, window)).map(|s| (s, d)))
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored.into_iter().take(want).map(|(_, d)| d).collect()
}

/// The rotation and translation that best take points `from` onto `to` (least squares,
/// Kabsch): `to ≈ r · from + t`.
fn rigid_fit(from: &[DVec3], to: &[DVec3]) -> (DMat3, DVec3) {
    let n = from.len() as f64;
    let (cf, ct) = (from.iter().sum::<DVec3>() / n, to.iter().sum::<DVec3>() / n);
    let mut h = DMat3::ZERO;
    for (a, b) in from.iter().zip(to) {
        let (a, b) = (*a - cf, *b - ct);
        h += DMat3::from_cols(a * b.x, a * b.y, a * b.z);
    }
    // The rotation of H's polar decomposition, by the quaternion eigenvector (Horn's method):
    // no SVD needed, and never a reflection.
    let r = horn(h);
    (r, ct - r * cf)
}

/// Horn's closed form: the rotation maximising trace(R·H) for the cross-covariance `h`
/// (`h = Σ a·bᵀ` as columns), from the largest eigenvector of the 4×4 symmetric matrix.
fn horn(h: DMat3) -> DMat3 {
    let s = |r: usize, c: usize| h.col(c)[r];
    let (sxx, sxy, sxz) = (s(0, 0), s(0, 1), s(0, 2));
    let (syx, syy, syz) = (s(1, 0), s(1, 1), s(1, 2));
    let (szx, szy, szz) = (s(2, 0), s(2, 1), s(2, 2));
    let n = [
        [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
        [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
        [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
        [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ];
    let q = largest_eigenvector(n);
    glam::DMat3::from_quat(glam::DQuat::from_xyzw(q[1], q[2], q[3], q[0]).normalize())
}

/// The eigenvector of the largest eigenvalue of a symmetric 4×4 matrix (cyclic Jacobi).
fn largest_eigenvector(mut a: [[f64; 4]; 4]) -> [f64; 4] {
    let mut v = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
    for _ in 0..50 {
        let off: f64 = (0..4).flat_map(|r| (0..4).filter(move |&c| c != r).map(move |c| (r, c))).map(|(r, c)| a[r][c] * a[r][c]).sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..3 {
            for q in p + 1..4 {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let (c, s) = (1.0 / (t * t + 1.0).sqrt(), t / (t * t + 1.0).sqrt());
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (rp, rq) = (a[p], a[q]);
                for k in 0..4 {
                    a[p][k] = c * rp[k] - s * rq[k];
                    a[q][k] = s * rp[k] + c * rq[k];
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    let best = (0..4).max_by(|&i, &j| a[i][i].total_cmp(&a[j][j])).unwrap_or(0);
    [v[0][best], v[1][best], v[2][best], v[3][best]]
}

/// Fills `marker`'s gap `g` from `donors` (three or more, seen over the gap and at its
/// edges): the marker is carried rigidly with them from each edge of the gap, and the two
/// estimates are blended across it so that it meets both edges.
pub fn rigid(tracks: &dyn Tracks, marker: usize, g: Gap, donors: &[usize]) -> Vec<DVec3> {
    let edge = |f: usize| -> (Vec<DVec3>, DVec3) {
        (donors.iter().map(|&d| tracks.at(d, f).unwrap_or_default()).collect(), tracks.at(marker, f).unwrap_or_default())
    };
    let (before, after) = (edge(g.first - 1), edge(g.last + 1));
    let span = (g.len() + 1) as f64;
    (g.first..=g.last)
        .map(|f| {
            let now: Vec<DVec3> = donors.iter().map(|&d| tracks.at(d, f).unwrap_or_default()).collect();
            let carry = |(from, m): &(Vec<DVec3>, DVec3)| {
                let (r, t) = rigid_fit(from, &now);
                r * *m + t
            };
            let w = (f + 1 - g.first) as f64 / span;
            carry(&before) * (1.0 - w) + carry(&after) * w
        })
        .collect()
}

/// Fills `marker`'s gap `g` along `donor`'s path: the offset from the donor, as it is at the
/// two edges, changes linearly across the gap.
pub fn pattern(tracks: &dyn Tracks, marker: usize, g: Gap, donor: usize) -> Vec<DVec3> {
    let offset = |f: usize| tracks.at(marker, f).unwrap_or_default() - tracks.at(donor, f).unwrap_or_default();
    let (a, b) = (offset(g.first - 1), offset(g.last + 1));
    let span = (g.len() + 1) as f64;
    (g.first..=g.last)
        .map(|f| {
            let w = (f + 1 - g.first) as f64 / span;
            tracks.at(donor, f).unwrap_or_default() + a * (1.0 - w) + b * w
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_splines_fill_inner_gaps_only() {
        let gs = gaps(8, |f| [0, 3, 4, 7].contains(&f));
        assert_eq!(gs, [Gap { first: 0, last: 0 }, Gap { first: 3, last: 4 }, Gap { first: 7, last: 7 }]);
        assert_eq!(gs.iter().filter(|g| inner(**g, 8)).count(), 1);
        let mut x = [f64::NAN, 1.0, 2.0, f64::NAN, f64::NAN, 5.0, 6.0, f64::NAN];
        linear(&mut x, gs[1]);
        assert_eq!(&x[3..5], &[3.0, 4.0]);
        // A cubic is reproduced exactly by a spline through enough of its samples? Not a
        // natural one; but a parabola's gap is filled within a small error, and a line exactly.
        let mut line: Vec<f64> = (0..30).map(|f| if (12..18).contains(&f) { f64::NAN } else { 2.0 * f as f64 + 1.0 }).collect();
        spline(&mut line, Gap { first: 12, last: 17 });
        for (f, v) in line.iter().enumerate() {
            assert!((v - (2.0 * f as f64 + 1.0)).abs() < 1e-9, "{f}: {v}");
        }
        let para = |f: f64| 0.05 * (f - 14.0).powi(2);
        let mut x: Vec<f64> = (0..30).map(|f| if (12..18).contains(&f) { f64::NAN } else { para(f as f64) }).collect();
        spline(&mut x, Gap { first: 12, last: 17 });
        for (f, v) in x.iter().enumerate().take(18).skip(12) {
            assert!((v - para(f as f64)).abs() < 0.02, "{f}: {v} against {}", para(f as f64));
        }
    }

    #[test]
    fn three_axes_at_once_give_what_each_axis_alone_gives() {
        // A marker over 60 frames with gaps of every kind: one frame, long, two close together
        // (the spline stops at the other), near each end (a line: not two samples each side).
        let missing = |f: usize| [1, 9, 10, 11, 12, 20, 23, 24, 40, 58].contains(&f) || (30..36).contains(&f);
        let at = |f: usize| -> Option<DVec3> {
            let t = f as f64 * 0.1;
            (!missing(f)).then(|| DVec3::new(t.sin() * 300.0, t.cos() * 12.5 + 900.0, t * t * 7.0 - 3.0))
        };
        let frames = 60;
        let found = gaps(frames, missing);
        assert_eq!(found.len(), 7);
        let (mut splines, mut lines) = (0, 0);
        for g in found.into_iter().filter(|&g| inner(g, frames)) {
            for spline in [true, false] {
                let (xyz, used) = fill_local_xyz(at, frames, g, spline);
                for axis in 0..3 {
                    let (alone, used_alone) = fill_local(|f| at(f).map_or(f64::NAN, |p| p[axis]), frames, g, spline);
                    assert_eq!(used, used_alone, "{g:?}");
                    let got: Vec<f64> = xyz.iter().map(|p| p[axis]).collect();
                    assert_eq!(got, alone, "{g:?}, axis {axis}, spline asked: {spline}");
                }
                if used { splines += 1 } else { lines += 1 }
            }
        }
        assert!(splines >= 4 && lines >= 6, "{splines} splines, {lines} lines: both kinds must be compared");
    }

    #[test]
    fn a_rigid_cluster_rebuilds_its_missing_marker() {
        // Four markers on a body turning about Y and moving along X; marker 3 is lost for 20
        // frames.
        let body = [DVec3::new(0.1, 0.0, 0.0), DVec3::new(0.0, 0.1, 0.0), DVec3::new(0.0, 0.0, 0.1), DVec3::new(0.07, 0.05, -0.04)];
        let at = |f: usize, i: usize| {
            let t = f as f64 * 0.05;
            glam::DQuat::from_rotation_y(t) * glam::DQuat::from_rotation_x(0.3 * t) * body[i] + DVec3::new(t, 1.0, 0.2 * t * t)
        };
        let tracks: Vec<Vec<Option<DVec3>>> =
            (0..4).map(|i| (0..60).map(|f| (i != 3 || !(20..40).contains(&f)).then(|| at(f, i))).collect()).collect();
        let g = Gap { first: 20, last: 39 };
        let chosen = donors(&tracks, 3, g, &[], 4);
        assert_eq!(chosen.len(), 3);
        for (k, p) in rigid(&tracks, 3, g, &chosen).iter().enumerate() {
            assert!((*p - at(20 + k, 3)).length() < 1e-9, "frame {}: {p} against {}", 20 + k, at(20 + k, 3));
        }
        // Along one donor's path the shape is right where the offset does not turn.
        let filled = pattern(&tracks, 3, g, 0);
        assert!((filled[0] - at(20, 3)).length() < 0.01);
    }
}
