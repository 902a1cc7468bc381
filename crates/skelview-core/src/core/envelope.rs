//! Long series shown in a few hundred pixels: per column of the plot, the smallest and the
//! largest value in the order they occur, so a one-frame spike still shows and a
//! million-frame curve costs what a thousand-point one does.

/// Columns a whole-clip curve is first reduced to (more than any plot is wide); a plot
/// reduces that again to its own width each frame.
pub const STORED_COLUMNS: usize = 4096;

/// Reduces `(time, value)` samples, pushed in time order, to at most two points per column
/// of `[t0, t1]`. With no more samples than two per column, every sample is kept.
#[derive(Clone, Debug)]
pub struct Decimator {
    t0: f64,
    per_sec: f64,
    columns: usize,
    keep_all: bool,
    column: Option<usize>,
    /// `(time, value)` of the column's lowest and highest sample, lowest first on ties.
    low: [f64; 2],
    high: [f64; 2],
    low_first: bool,
    out: Vec<[f64; 2]>,
}

impl Decimator {
    /// A decimator for about `samples` samples spread over `[t0, t1]`.
    pub fn new(t0: f64, t1: f64, columns: usize, samples: usize) -> Self {
        let columns = columns.max(1);
        let span = t1 - t0;
        let keep_all = samples <= 2 * columns || !(span > 0.0 && span.is_finite());
        Self {
            t0,
            per_sec: if keep_all { 0.0 } else { columns as f64 / span },
            columns,
            keep_all,
            column: None,
            low: [0.0; 2],
            high: [0.0; 2],
            low_first: true,
            out: Vec::with_capacity(if keep_all { samples } else { 2 * columns }),
        }
    }

    /// Adds a sample; NaN values are left out (a gap in the data, not a value).
    pub fn push(&mut self, t: f64, v: f64) {
        if v.is_nan() {
            return;
        }
        if self.keep_all {
            self.out.push([t, v]);
            return;
        }
        let column = (((t - self.t0) * self.per_sec).max(0.0) as usize).min(self.columns - 1);
        if self.column != Some(column) {
            self.flush();
            self.column = Some(column);
            self.low = [t, v];
            self.high = [t, v];
            self.low_first = true;
            return;
        }
        if v < self.low[1] {
            self.low = [t, v];
            self.low_first = false;
        } else if v > self.high[1] {
            self.high = [t, v];
            self.low_first = true;
        }
    }

    fn flush(&mut self) {
        if self.column.take().is_none() {
            return;
        }
        let (a, b) = if self.low_first { (self.low, self.high) } else { (self.high, self.low) };
        self.out.push(a);
        if b != a {
            self.out.push(b);
        }
    }

    /// The reduced points, in time order.
    pub fn finish(mut self) -> Vec<[f64; 2]> {
        self.flush();
        self.out
    }
}

/// `points` (in time order) reduced to at most two per column of `columns`.
pub fn decimate(points: &[[f64; 2]], columns: usize) -> Vec<[f64; 2]> {
    let (Some(first), Some(last)) = (points.first(), points.last()) else { return Vec::new() };
    let mut d = Decimator::new(first[0], last[0], columns, points.len());
    for p in points {
        d.push(p[0], p[1]);
    }
    d.finish()
}

/// `times` (in order) with at most one kept per column of `[t0, t1]`: markers that would
/// land on the same pixel are drawn once.
pub fn one_per_column(times: &[f64], t0: f64, t1: f64, columns: usize) -> Vec<f64> {
    let span = t1 - t0;
    if !(span > 0.0) {
        return times.first().copied().into_iter().collect();
    }
    let scale = columns.max(1) as f64 / span;
    let mut last = None;
    times
        .iter()
        .copied()
        .filter(|&t| {
            let column = ((t - t0) * scale).floor() as i64;
            let new = last != Some(column);
            last = Some(column);
            new
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_series_are_kept_whole() {
        let points: Vec<[f64; 2]> = (0..10).map(|k| [k as f64, (k * k) as f64]).collect();
        assert_eq!(decimate(&points, 5), points);
        assert_eq!(decimate(&[], 5), Vec::<[f64; 2]>::new());
    }

    #[test]
    fn each_column_keeps_its_extremes_in_order_and_spikes_survive() {
        // 1,000,000 samples of a slow sine with a one-sample spike at 700,001.
        let n = 1_000_000;
        let mut d = Decimator::new(0.0, (n - 1) as f64, 100, n);
        for k in 0..n {
            let v = if k == 700_001 { 50.0 } else { (k as f64 * 1e-5).sin() };
            d.push(k as f64, v);
        }
        let out = d.finish();
        assert!(out.len() <= 200, "{}", out.len());
        assert!(out.windows(2).all(|w| w[0][0] < w[1][0]), "time order");
        assert!(out.contains(&[700_001.0, 50.0]), "the spike shows");
        let lowest = out.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
        assert!((lowest + 1.0).abs() < 1e-6, "the trough shows: {lowest}");
    }

    #[test]
    fn falling_then_rising_columns_keep_the_order_they_occur_in() {
        // Two columns of 4 samples: 3 1 0 2 | 5 9 7 6.
        let values = [3.0, 1.0, 0.0, 2.0, 5.0, 9.0, 7.0, 6.0];
        let mut d = Decimator::new(0.0, 8.0, 2, 100);
        for (k, v) in values.iter().enumerate() {
            d.push(k as f64, *v);
        }
        assert_eq!(d.finish(), vec![[0.0, 3.0], [2.0, 0.0], [4.0, 5.0], [5.0, 9.0]]);
    }

    #[test]
    fn nan_is_a_gap() {
        let mut d = Decimator::new(0.0, 3.0, 1, 100);
        for (t, v) in [(0.0, f64::NAN), (1.0, 2.0), (2.0, f64::NAN), (3.0, 1.0)] {
            d.push(t, v);
        }
        assert_eq!(d.finish(), vec![[1.0, 2.0], [3.0, 1.0]]);
    }

    #[test]
    fn markers_on_one_pixel_are_drawn_once() {
        assert_eq!(one_per_column(&[0.0, 0.001, 0.5, 0.9, 1.0], 0.0, 1.0, 10), vec![0.0, 0.5, 0.9, 1.0]);
        assert_eq!(one_per_column(&[2.0, 2.0], 2.0, 2.0, 10), vec![2.0]);
    }
}
