//! The Measure tool: joints picked in order (one → speed and acceleration, two → distance,
//! three → the angle at the middle one), their values now, and their curves over the whole
//! clip computed in the background with [`skelview_core::core::measure::series`], the function that
//! `skelview measure` prints.

use std::sync::Arc;

use glam::Mat4;

use skelview_core::core::Motion;
use skelview_core::core::envelope::{Decimator, STORED_COLUMNS};
use skelview_core::core::measure::{Measure, series};

/// The tool's state: plain data, changed by commands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasureTool {
    /// The window is open (clicks on joints pick them).
    pub open: bool,
    /// Joints of the active clip picked, in order (at most three).
    pub picks: Vec<usize>,
    /// The measures' values at the current frame (NaN: missing data).
    pub now: Vec<f64>,
}

impl MeasureTool {
    /// Adds joint `j` to the picks; a fourth pick starts a new set, and picking the last
    /// joint again does nothing.
    pub fn pick(&mut self, j: usize) {
        if self.picks.last() == Some(&j) {
            return;
        }
        if self.picks.len() >= 3 || self.picks.contains(&j) {
            self.picks.clear();
        }
        self.picks.push(j);
    }

    /// What the picks measure.
    pub fn measures(&self) -> Vec<Measure> {
        match *self.picks.as_slice() {
            [j] => vec![Measure::Speed(j), Measure::Acceleration(j)],
            [a, b] => vec![Measure::Distance(a, b)],
            [a, b, c] => vec![Measure::Angle(a, b, c)],
            _ => Vec::new(),
        }
    }
}

/// What a set of measurement curves is computed from.
#[derive(Clone, Debug)]
pub struct MeasureInput {
    /// The clip.
    pub motion: Arc<Motion>,
    /// Its serial (a new load is a new serial).
    pub serial: u64,
    /// The measures.
    pub measures: Vec<Measure>,
    /// Metres, Y-up, from file space (the clip's unit and up-axis overrides applied).
    pub space_from_file: Mat4,
    /// Shared time of the clip's first frame.
    pub offset_secs: f64,
}

impl PartialEq for MeasureInput {
    fn eq(&self, o: &Self) -> bool {
        (self.serial, &self.measures, self.space_from_file, self.offset_secs) == (o.serial, &o.measures, o.space_from_file, o.offset_secs)
    }
}

/// Every measure over the whole clip.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureCurves {
    /// The measures, in the order of the columns.
    pub measures: Vec<Measure>,
    /// One value per frame and measure (NaN: missing data), for Copy and Export CSV.
    pub values: Vec<Vec<f64>>,
    /// `(shared time, value)` reduced to [`STORED_COLUMNS`] min/max columns, for the plot.
    pub points: Vec<Vec<[f64; 2]>>,
}

/// The curves of `input`; `keep_going(fraction)` returns false to stop (then `None`).
pub fn measure_curves(input: &MeasureInput, keep_going: &dyn Fn(f64) -> bool) -> Option<MeasureCurves> {
    let m = &input.motion;
    let n = m.clip.num_frames().max(1);
    let frames: Vec<usize> = (0..n).collect();
    let values = series(m, &input.measures, &frames, input.space_from_file, keep_going)?;
    let ft = m.clip.frame_time_secs;
    let (t0, t1) = (input.offset_secs, input.offset_secs + (n - 1) as f64 * ft);
    let points = values
        .iter()
        .map(|column| {
            let mut d = Decimator::new(t0, t1, STORED_COLUMNS, n);
            for (f, &v) in column.iter().enumerate().filter(|(_, v)| v.is_finite()) {
                d.push(input.offset_secs + f as f64 * ft, v);
            }
            d.finish()
        })
        .collect();
    Some(MeasureCurves { measures: input.measures.clone(), values, points })
}

impl super::Viewer {
    /// Keeps the Measure tool current: its values at the active frame, and the whole-clip
    /// curves asked from the background (cheap when nothing changed).
    pub(super) fn update_measure(&mut self) {
        let tool = &mut self.view.measure;
        let Some(c) = self.session.active_clip().filter(|_| tool.open && !tool.picks.is_empty()) else {
            tool.now.clear();
            self.whole.measures.clear();
            return;
        };
        if tool.picks.iter().any(|&j| j >= c.motion.skeleton.len()) {
            // Another clip became active, or the file was reloaded with fewer joints.
            tool.picks.clear();
            tool.now.clear();
            return;
        }
        let measures = tool.measures();
        let input = MeasureInput {
            motion: c.motion.clone(),
            serial: c.serial,
            measures,
            space_from_file: c.display.display_from_file,
            offset_secs: c.offset_secs,
        };
        let frame = self.session.active_frame();
        let (motion, measures, space) = (input.motion.clone(), input.measures.clone(), input.space_from_file);
        let job = input.clone();
        self.whole.measures.want(input, &self.tasks, move |p| measure_curves(&job, &|f| p.keep_going(f)));
        // Once the whole clip is measured the value now is a lookup; until then, the frame and
        // its neighbours are posed for it.
        let tool = &mut self.view.measure;
        tool.now = match self.whole.measures.result() {
            Some(curves) => curves.values.iter().map(|c| c.get(frame).copied().unwrap_or(f64::NAN)).collect(),
            None => {
                series(&motion, &measures, &[frame], space, &|_| true).map(|c| c.into_iter().map(|c| c[0]).collect()).unwrap_or_default()
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_choose_the_measure_and_a_fourth_starts_over() {
        let mut t = MeasureTool::default();
        assert!(t.measures().is_empty());
        t.pick(3);
        assert_eq!(t.measures(), [Measure::Speed(3), Measure::Acceleration(3)]);
        t.pick(3);
        assert_eq!(t.picks, [3], "the same joint twice in a row is one pick");
        t.pick(5);
        assert_eq!(t.measures(), [Measure::Distance(3, 5)]);
        t.pick(7);
        assert_eq!(t.measures(), [Measure::Angle(3, 5, 7)]);
        t.pick(9);
        assert_eq!(t.picks, [9]);
        t.pick(2);
        t.pick(9);
        assert_eq!(t.picks, [9], "a joint already picked starts a new set");
    }
}
