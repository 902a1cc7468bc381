//! A zero-lag Butterworth low-pass: the digital filter SciPy's `butter(order, cutoff / (rate /
//! 2))` designs (analogue prototype, pre-warped bilinear transform), run forward and backward
//! as `filtfilt(b, a, x)` runs it by default (odd extension of `3 · (order + 1)` samples at
//! each end, the filter's steady state as the starting condition). Everything in f64.

use thiserror::Error;

/// Why a filter cannot be made.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum FilterError {
    /// The order must be 1 or more (and small enough to stay stable in this form).
    #[error("filter order {0}: expected 1 to {MAX_ORDER}")]
    Order(usize),
    /// The cutoff must lie between 0 and the Nyquist frequency (half the sample rate).
    #[error("cutoff {cutoff_hz} Hz: expected more than 0 and less than the Nyquist frequency, {nyquist_hz} Hz (half of {rate_hz} frames/s)", nyquist_hz = rate_hz / 2.0)]
    Cutoff {
        /// The cutoff asked for.
        cutoff_hz: f64,
        /// The samples' rate.
        rate_hz: f64,
    },
}

/// The highest order accepted: above it the polynomial form loses the digits it needs at low
/// cutoffs.
pub const MAX_ORDER: usize = 10;

/// A digital filter's coefficients, `a[0] == 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Butterworth {
    /// Numerator.
    pub b: Vec<f64>,
    /// Denominator.
    pub a: Vec<f64>,
    /// `lfilter_zi`: the state of a filter that has seen a constant 1 forever.
    zi: Vec<f64>,
    /// The cutoff it was made for, Hz.
    pub cutoff_hz: f64,
}

/// A complex number, enough for the design's poles.
#[derive(Clone, Copy, Debug)]
struct C(f64, f64);

impl C {
    fn mul(self, o: C) -> C {
        C(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }
    fn div(self, o: C) -> C {
        let d = o.0 * o.0 + o.1 * o.1;
        C((self.0 * o.0 + self.1 * o.1) / d, (self.1 * o.0 - self.0 * o.1) / d)
    }
}

/// Coefficients of `∏ (x − r)`, highest power first.
fn poly(roots: &[C]) -> Vec<C> {
    let mut c = vec![C(1.0, 0.0)];
    for &r in roots {
        let mut next = vec![C(0.0, 0.0); c.len() + 1];
        for (i, &v) in c.iter().enumerate() {
            next[i] = C(next[i].0 + v.0, next[i].1 + v.1);
            let t = v.mul(r);
            next[i + 1] = C(next[i + 1].0 - t.0, next[i + 1].1 - t.1);
        }
        c = next;
    }
    c
}

impl Butterworth {
    /// The low-pass Butterworth filter of `order` with its −3 dB point at `cutoff_hz`, for
    /// samples at `rate_hz`.
    pub fn low_pass(order: usize, cutoff_hz: f64, rate_hz: f64) -> Result<Self, FilterError> {
        if order == 0 || order > MAX_ORDER {
            return Err(FilterError::Order(order));
        }
        let wn = cutoff_hz / (rate_hz / 2.0);
        if !(wn > 0.0 && wn < 1.0) {
            return Err(FilterError::Cutoff { cutoff_hz, rate_hz });
        }
        // The analogue prototype's poles on the unit circle's left half, moved to the
        // pre-warped cutoff, then mapped to z by the bilinear transform (fs = 2, as SciPy).
        let n = order as f64;
        let warped = 4.0 * (std::f64::consts::PI * wn / 2.0).tan();
        let fs2 = 4.0;
        let mut k = warped.powi(order as i32);
        let mut den = C(1.0, 0.0);
        let poles: Vec<C> = (0..order)
            .map(|i| {
                let m = -(order as f64) + 1.0 + 2.0 * i as f64;
                let angle = std::f64::consts::PI * m / (2.0 * n);
                let p = C(-angle.cos() * warped, -angle.sin() * warped);
                den = den.mul(C(fs2 - p.0, -p.1));
                C(fs2 + p.0, p.1).div(C(fs2 - p.0, -p.1))
            })
            .collect();
        k *= C(1.0, 0.0).div(den).0;
        let b: Vec<f64> = poly(&vec![C(-1.0, 0.0); order]).iter().map(|c| c.0 * k).collect();
        let a: Vec<f64> = poly(&poles).iter().map(|c| c.0).collect();
        let zi = steady_state(&b, &a);
        Ok(Self { b, a, zi, cutoff_hz })
    }

    /// Samples the filter-backward-and-forward needs beyond each end (SciPy's default
    /// `padlen`): a run must be longer than this.
    pub fn padding(&self) -> usize {
        3 * self.a.len().max(self.b.len())
    }

    /// Filters `x` forward into `out` (`out.len() == x.len()`), starting from the steady state
    /// for a constant `x0`. Direct form II transposed, as SciPy's `lfilter`; the state lives
    /// in a fixed array so that the inner loop has no bounds to check.
    fn run(&self, x: &[f64], x0: f64, out: &mut [f64]) {
        let n = self.a.len();
        let mut b = [0.0; MAX_ORDER + 1];
        let mut a = [0.0; MAX_ORDER + 1];
        b[..n].copy_from_slice(&self.b);
        a[..n].copy_from_slice(&self.a);
        let mut z = [0.0; MAX_ORDER + 1];
        for (zi, s) in z.iter_mut().zip(&self.zi) {
            *zi = s * x0;
        }
        let m = n - 1;
        for (y, &xi) in out.iter_mut().zip(x) {
            let yi = b[0] * xi + z[0];
            for i in 0..m {
                z[i] = b[i + 1] * xi + z[i + 1] - a[i + 1] * yi;
            }
            *y = yi;
        }
    }

    /// `filtfilt(b, a, x)` with SciPy's defaults, in place; `false` (nothing changed) when
    /// `x` is not longer than [`Butterworth::padding`].
    pub fn filtfilt(&self, x: &mut [f64]) -> bool {
        let edge = self.padding();
        let len = x.len();
        if len <= edge {
            return false;
        }
        let mut ext = Vec::with_capacity(len + 2 * edge);
        ext.extend((1..=edge).rev().map(|i| 2.0 * x[0] - x[i]));
        ext.extend_from_slice(x);
        ext.extend((1..=edge).map(|i| 2.0 * x[len - 1] - x[len - 1 - i]));
        let mut y = vec![0.0; ext.len()];
        self.run(&ext, ext[0], &mut y);
        y.reverse();
        let y0 = y[0];
        let mut back = vec![0.0; y.len()];
        self.run(&y, y0, &mut back);
        back.reverse();
        x.copy_from_slice(&back[edge..edge + len]);
        true
    }
}

impl Butterworth {
    /// [`Butterworth::filtfilt`] of the `N` channels at `lanes` of every row of `rows` (a
    /// frame each, in order, no value missing there), in place: the same result as one
    /// channel at a time, its samples widened to `f64` and the result narrowed back. `fwd` is
    /// room for the forward pass, reused from call to call. `false` (nothing changed) when
    /// there are not more rows than the padding.
    ///
    /// The channels run side by side so that the recursion's latency is hidden and the
    /// compiler can use vector registers; the rows are read where they lie, frame by frame.
    pub fn filtfilt_rows<const N: usize>(&self, rows: &mut [&mut [f32]], lanes: &[usize; N], fwd: &mut Vec<[f64; N]>) -> bool {
        let (edge, len) = (self.padding(), rows.len());
        if len <= edge {
            return false;
        }
        let read = |row: &[f32]| -> [f64; N] { std::array::from_fn(|k| f64::from(row[lanes[k]])) };
        // SciPy's odd extension: 2·x[0] − x[i] before the first sample, 2·x[last] − x[last − i]
        // after the last.
        let (first, last) = (read(rows[0]), read(rows[len - 1]));
        let before = |i: usize| -> [f64; N] {
            let x = read(rows[i]);
            std::array::from_fn(|k| 2.0 * first[k] - x[k])
        };
        let after = |i: usize| -> [f64; N] {
            let x = read(rows[len - 1 - i]);
            std::array::from_fn(|k| 2.0 * last[k] - x[k])
        };
        let mut state = self.state_for(&before(edge));
        for i in (1..edge).rev() {
            state.step(&before(i));
        }
        fwd.clear();
        fwd.extend(rows.iter().map(|row| state.step(&read(row))));
        fwd.extend((1..=edge).map(|i| state.step(&after(i))));
        // Backward from the end of the extension; the extension before the first sample is
        // left out, since nothing kept comes after it.
        let Some(end) = fwd.last() else { return false };
        let mut state = self.state_for(end);
        for y in fwd[len..fwd.len() - 1].iter().rev() {
            state.step(y);
        }
        for (row, y) in rows.iter_mut().zip(&fwd[..len]).rev() {
            let out = state.step(y);
            for (k, &lane) in lanes.iter().enumerate() {
                row[lane] = out[k] as f32;
            }
        }
        true
    }

    /// The filter's state for `N` signals that start with `first` (the steady state for a
    /// constant `first`), stepping `first` itself as its first sample.
    fn state_for<const N: usize>(&self, first: &[f64; N]) -> Lanes<N> {
        let n = self.a.len();
        let mut lanes = Lanes { b: [0.0; MAX_ORDER + 1], a: [0.0; MAX_ORDER + 1], m: n - 1, z: [[0.0; N]; MAX_ORDER + 1] };
        lanes.b[..n].copy_from_slice(&self.b);
        lanes.a[..n].copy_from_slice(&self.a);
        for (zi, s) in lanes.z.iter_mut().zip(&self.zi) {
            *zi = first.map(|x| s * x);
        }
        lanes.step(first);
        lanes
    }
}

/// `N` signals' filter state: direct form II transposed, as SciPy's `lfilter`, in fixed
/// arrays so that the inner loops have no bounds to check.
struct Lanes<const N: usize> {
    b: [f64; MAX_ORDER + 1],
    a: [f64; MAX_ORDER + 1],
    /// The order: `z[m]` stays 0.
    m: usize,
    z: [[f64; N]; MAX_ORDER + 1],
}

impl<const N: usize> Lanes<N> {
    /// Takes one sample of each signal, gives one output of each.
    #[inline(always)]
    fn step(&mut self, x: &[f64; N]) -> [f64; N] {
        let (b, a, z) = (&self.b, &self.a, &mut self.z);
        let mut y = [0.0; N];
        for k in 0..N {
            y[k] = b[0] * x[k] + z[0][k];
        }
        for i in 0..self.m.min(MAX_ORDER) {
            for k in 0..N {
                z[i][k] = b[i + 1] * x[k] + z[i + 1][k] - a[i + 1] * y[k];
            }
        }
        y
    }
}

/// SciPy's `lfilter_zi`: solves `(I − Aᵀ) zi = b[1..] − a[1..] · b[0]` for the companion
/// matrix `A` of `a`.
fn steady_state(b: &[f64], a: &[f64]) -> Vec<f64> {
    let n = a.len().max(b.len());
    let m = n - 1;
    if m == 0 {
        return Vec::new();
    }
    let at = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
    // Row i: (I − Aᵀ)[i][0] = δ(i,0) + a[i+1]; [i][i+1] = −1.
    let mut mat = vec![vec![0.0; m]; m];
    let mut rhs: Vec<f64> = (0..m).map(|i| at(b, i + 1) - at(a, i + 1) * at(b, 0)).collect();
    for (i, row) in mat.iter_mut().enumerate() {
        row[i] += 1.0;
        row[0] += at(a, i + 1);
        if i + 1 < m {
            row[i + 1] -= 1.0;
        }
    }
    // Gaussian elimination with partial pivoting (m ≤ MAX_ORDER).
    for col in 0..m {
        let pivot = (col..m).max_by(|&p, &q| mat[p][col].abs().total_cmp(&mat[q][col].abs())).unwrap_or(col);
        mat.swap(col, pivot);
        rhs.swap(col, pivot);
        for r in col + 1..m {
            let f = mat[r][col] / mat[col][col];
            let pivot_row = mat[col].clone();
            for (c, v) in mat[r].iter_mut().enumerate().skip(col) {
                *v -= f * pivot_row[c];
            }
            rhs[r] -= f * rhs[col];
        }
    }
    let mut zi = vec![0.0; m];
    for r in (0..m).rev() {
        let s: f64 = (r + 1..m).map(|c| mat[r][c] * zi[c]).sum();
        zi[r] = (rhs[r] - s) / mat[r][r];
    }
    zi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_are_scipys() {
        // scipy.signal.butter(2, 0.2) and butter(4, 6 / 50)
        let f = Butterworth::low_pass(2, 10.0, 100.0).unwrap();
        let want_b = [0.06745527388907191, 0.13491054777814382, 0.06745527388907191];
        let want_a = [1.0, -1.142980502539901, 0.41280159809618866];
        for (g, w) in f.b.iter().zip(want_b).chain(f.a.iter().zip(want_a)) {
            assert!((g - w).abs() < 1e-12, "{:?} {:?}", f.b, f.a);
        }
        let f = Butterworth::low_pass(4, 6.0, 100.0).unwrap();
        let want_b = [0.0008063598650371017, 0.003225439460148407, 0.00483815919022261, 0.003225439460148407, 0.0008063598650371017];
        let want_a = [1.0, -3.017555238686489, 3.507193724716205, -1.8475509441185771, 0.3708142159294547];
        for (g, w) in f.b.iter().zip(want_b).chain(f.a.iter().zip(want_a)) {
            assert!((g - w).abs() < 1e-12, "{:?} {:?}", f.b, f.a);
        }
    }

    #[test]
    fn filtfilt_gives_scipys_samples() {
        // filtfilt(*butter(2, 0.2), x) for x = sin(0.3 i) + 0.1 cos(2.1 i), i < 40
        let mut x: Vec<f64> = (0..40).map(|i| (i as f64 * 0.3).sin() + 0.1 * (i as f64 * 2.1).cos()).collect();
        assert!(Butterworth::low_pass(2, 10.0, 100.0).unwrap().filtfilt(&mut x));
        let want = [(0, 0.09920577264886682), (1, 0.3363329427523438), (20, -0.26697974570037686), (39, -0.6711455341855743)];
        for (i, w) in want {
            assert!((x[i] - w).abs() < 1e-12, "sample {i}: {} against {w}", x[i]);
        }
    }

    #[test]
    fn a_constant_stays_and_a_ramp_ends_as_scipys_does() {
        let f = Butterworth::low_pass(4, 6.0, 100.0).unwrap();
        let mut c = vec![3.5; 100];
        assert!(f.filtfilt(&mut c));
        assert!(c.iter().all(|v| (v - 3.5).abs() < 1e-9), "{c:?}");
        // SciPy's own transients at the ends of a ramp (its start-up state is for a constant):
        // filtfilt(*butter(4, 0.12), 0.25 * arange(100) - 4) at 0, 50 and 99.
        let mut line: Vec<f64> = (0..100).map(|i| 0.25 * i as f64 - 4.0).collect();
        f.filtfilt(&mut line);
        for (i, want) in [(0, -3.981423997138662), (50, 8.500062491669027), (99, 20.79827243391345)] {
            assert!((line[i] - want).abs() < 1e-9, "sample {i}: {} against {want}", line[i]);
        }
    }

    #[test]
    fn channels_side_by_side_give_what_one_at_a_time_gives() {
        const N: usize = 8;
        for (order, frames) in [(4, 200), (1, 7), (2, 10), (10, 34), (4, 15)] {
            let f = Butterworth::low_pass(order, 6.0, 100.0).unwrap();
            let cpf = N + 3;
            let make = |c: usize| -> Vec<f32> { (0..frames).map(|i| ((i * (c + 1)) as f32 * 0.05).sin() * 40.0 + c as f32).collect() };
            let one: Vec<Vec<f32>> = (0..cpf)
                .map(|c| {
                    let mut x: Vec<f64> = make(c).into_iter().map(f64::from).collect();
                    f.filtfilt(&mut x);
                    x.into_iter().map(|v| v as f32).collect()
                })
                .collect();
            // Lanes out of order, and channels left out that must not change.
            let lanes: [usize; N] = [10, 0, 2, 3, 9, 5, 6, 8];
            let mut values: Vec<f32> = (0..frames).flat_map(|i| (0..cpf).map(move |c| make(c)[i])).collect();
            let mut rows: Vec<&mut [f32]> = values.chunks_exact_mut(cpf).collect();
            let filtered = f.filtfilt_rows(&mut rows, &lanes, &mut Vec::new());
            assert_eq!(filtered, frames > f.padding(), "order {order}, {frames} frames");
            for c in 0..cpf {
                let want = if filtered && lanes.contains(&c) { one[c].clone() } else { make(c) };
                for (i, w) in want.iter().enumerate() {
                    assert_eq!(values[i * cpf + c], *w, "order {order}: channel {c}, frame {i}");
                }
            }
        }
    }

    #[test]
    fn bad_parameters_and_short_runs() {
        assert_eq!(Butterworth::low_pass(0, 6.0, 100.0), Err(FilterError::Order(0)));
        assert!(matches!(Butterworth::low_pass(4, 50.0, 100.0), Err(FilterError::Cutoff { .. })));
        assert!(matches!(Butterworth::low_pass(4, -1.0, 100.0), Err(FilterError::Cutoff { .. })));
        assert!(matches!(Butterworth::low_pass(4, f64::NAN, 100.0), Err(FilterError::Cutoff { .. })));
        let e = Butterworth::low_pass(4, 60.0, 100.0).unwrap_err().to_string();
        assert!(e.contains("60 Hz") && e.contains("50 Hz"), "{e}");
        let f = Butterworth::low_pass(2, 6.0, 100.0).unwrap();
        assert_eq!(f.padding(), 9);
        let mut short = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];
        assert!(!f.filtfilt(&mut short), "9 samples with a padding of 9: left as they are");
        assert_eq!(short[8], 9.0);
    }
}
