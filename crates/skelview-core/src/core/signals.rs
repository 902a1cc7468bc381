//! A capture's signals other than marker positions, for plotting: analog channels, each force
//! platform's force, moment, centre of pressure and free moment, and the model outputs stored
//! as points (angles, forces, moments, powers). Each is one or three components on its own
//! rate, in its own unit.

use super::capture::{Capture, PointKind};
use super::force_plates;

/// Which signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// Analog channel `n`.
    Analog(usize),
    /// A quantity of platform `n`.
    Plate(usize, PlateQuantity),
    /// A model output stored as point `n` (not a marker).
    Point(usize),
}

/// What of a platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlateQuantity {
    /// Ground reaction force.
    Force,
    /// Moment at the platform's centre.
    Moment,
    /// Centre of pressure.
    CentreOfPressure,
    /// Free moment.
    FreeMoment,
}

impl PlateQuantity {
    /// Every quantity, in menu order.
    pub const ALL: [Self; 4] = [Self::Force, Self::Moment, Self::CentreOfPressure, Self::FreeMoment];

    fn name(self) -> &'static str {
        match self {
            Self::Force => "force",
            Self::Moment => "moment",
            Self::CentreOfPressure => "centre of pressure",
            Self::FreeMoment => "free moment",
        }
    }
}

/// A signal's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Menu label (`F1Z [N]`, `platform 1 force`).
    pub label: String,
    /// Unit as the file writes it (may be empty).
    pub unit: String,
    /// Samples per second.
    pub rate_hz: f64,
    /// Component names (`x`, `y`, `z`, or the channel's label).
    pub components: Vec<String>,
    /// `values[sample][component]`; NaN where there is no value (a gap, an unloaded plate's
    /// centre of pressure).
    pub values: Vec<Vec<f32>>,
}

/// Every signal of `capture`, with its menu label.
pub fn list(capture: &Capture) -> Vec<(Signal, String)> {
    let mut out = Vec::new();
    for (i, ch) in capture.analog.channels.iter().enumerate() {
        let unit = if ch.unit.is_empty() { String::new() } else { format!(" [{}]", ch.unit) };
        out.push((Signal::Analog(i), format!("analog: {}{unit}", ch.label)));
    }
    for i in 0..capture.plates.len() {
        for q in PlateQuantity::ALL {
            out.push((Signal::Plate(i, q), format!("platform {}: {}", i + 1, q.name())));
        }
    }
    for (i, p) in capture.points.iter().enumerate().filter(|(_, p)| p.kind != PointKind::Marker) {
        out.push((Signal::Point(i), format!("{}: {}", p.kind.name(), p.label)));
    }
    out
}

/// The samples of `signal` (`None` when it names nothing in `capture`, or a platform that
/// cannot be computed).
pub fn series(capture: &Capture, signal: Signal) -> Option<Series> {
    let xyz = || vec!["x".to_owned(), "y".into(), "z".into()];
    match signal {
        Signal::Analog(i) => {
            let ch = capture.analog.channels.get(i)?;
            Some(Series {
                label: ch.label.clone(),
                unit: ch.unit.clone(),
                rate_hz: capture.analog.rate_hz,
                components: vec![ch.label.clone()],
                values: capture.analog.channel(i).into_iter().map(|v| vec![v]).collect(),
            })
        }
        Signal::Plate(i, q) => {
            let plate = capture.plates.get(i)?;
            let samples = force_plates::compute(plate, &capture.analog).ok()?;
            let force_unit = capture.analog.channels.get(plate.channels[0]).map_or("N".to_owned(), |c| c.unit.clone());
            let (unit, values): (String, Vec<Vec<f32>>) = match q {
                PlateQuantity::Force => (force_unit, samples.iter().map(|s| s.force.to_array().to_vec()).collect()),
                PlateQuantity::Moment => {
                    (format!("{force_unit}{}", capture.unit), samples.iter().map(|s| s.moment.to_array().to_vec()).collect())
                }
                PlateQuantity::CentreOfPressure => (
                    capture.unit.clone(),
                    // Only where the platform carries weight (the centre is noise elsewhere).
                    samples.iter().map(|s| if s.force.length() >= 20.0 { s.cop.to_array().to_vec() } else { vec![f32::NAN; 3] }).collect(),
                ),
                PlateQuantity::FreeMoment => (
                    format!("{force_unit}{}", capture.unit),
                    samples
                        .iter()
                        .map(|s| if s.force.length() >= 20.0 { s.free_moment.to_array().to_vec() } else { vec![f32::NAN; 3] })
                        .collect(),
                ),
            };
            Some(Series {
                label: format!("platform {} {}", i + 1, q.name()),
                unit,
                rate_hz: capture.analog.rate_hz,
                components: xyz(),
                values,
            })
        }
        Signal::Point(i) => {
            let p = capture.points.get(i)?;
            let values = (0..capture.frames).map(|f| capture.position(f, i).map_or(vec![f32::NAN; 3], |v| v.to_array().to_vec())).collect();
            let unit = if p.kind == PointKind::Angle { "deg".to_owned() } else { String::new() };
            Some(Series { label: p.label.clone(), unit, rate_hz: capture.point_rate_hz, components: xyz(), values })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::capture::{Analog, AnalogChannel, PointInfo};

    #[test]
    fn analog_channels_and_model_outputs_are_listed_and_read() {
        let channels = vec![AnalogChannel { label: "EMG1".into(), description: String::new(), unit: "V".into() }];
        let c = Capture {
            point_rate_hz: 100.0,
            points: vec![
                PointInfo { label: "LKNE".into(), description: String::new(), kind: PointKind::Marker },
                PointInfo { label: "LKneeAngles".into(), description: String::new(), kind: PointKind::Angle },
            ],
            frames: 1,
            positions: vec![1., 2., 3., 10., 20., 30.],
            residuals: vec![0.0, 0.0],
            analog: Analog { rate_hz: 1000.0, samples_per_frame: 10, channels, values: (0..10).map(|v| v as f32).collect() },
            ..Default::default()
        };
        let names: Vec<String> = list(&c).into_iter().map(|s| s.1).collect();
        assert_eq!(names, ["analog: EMG1 [V]", "angle: LKneeAngles"]);
        let a = series(&c, Signal::Analog(0)).unwrap();
        assert_eq!((a.values.len(), a.rate_hz, a.unit.as_str()), (10, 1000.0, "V"));
        let p = series(&c, Signal::Point(1)).unwrap();
        assert_eq!(p.values, vec![vec![10., 20., 30.]]);
        assert_eq!(p.unit, "deg");
        assert!(series(&c, Signal::Analog(3)).is_none());
        assert!(series(&c, Signal::Plate(0, PlateQuantity::Force)).is_none());
    }
}
