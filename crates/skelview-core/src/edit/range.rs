//! A range of frames as a user writes it: `A:B` (frames A to B inclusive, numbered from 0 as
//! `positions` numbers them, negative counted from the end) or `1.5s:3s` (seconds from the
//! first frame). Either end may be left out (`:100`, `20:`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One end of a range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// A frame number (negative: from the end).
    Frame(i64),
    /// Seconds from the first frame.
    Secs(f64),
}

/// Frames `start..=end`; an end not given is the clip's.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FrameRange {
    /// First frame.
    pub start: Option<At>,
    /// Last frame.
    pub end: Option<At>,
}

/// A range that cannot be read or does not fit the clip.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum RangeError {
    /// Not `A:B`.
    #[error("'{0}': expected FIRST:LAST in frames (0:99, -30:) or seconds (1.5s:3s)")]
    Syntax(String),
    /// An end outside the clip.
    #[error("{what} {at} is outside the clip's {frames} frames (0 to {last})", last = frames.saturating_sub(1))]
    Outside {
        /// `first` or `last`.
        what: &'static str,
        /// As written.
        at: String,
        /// Frames in the clip.
        frames: usize,
    },
    /// The last frame comes before the first.
    #[error("the range ends (frame {end}) before it starts (frame {start})")]
    Reversed {
        /// First frame.
        start: usize,
        /// Last frame.
        end: usize,
    },
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Frame(n) => write!(f, "{n}"),
            Self::Secs(s) => write!(f, "{s}s"),
        }
    }
}

impl fmt::Display for FrameRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |a: &Option<At>| a.map(|a| a.to_string()).unwrap_or_default();
        write!(f, "{}:{}", side(&self.start), side(&self.end))
    }
}

impl FromStr for FrameRange {
    type Err = RangeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || RangeError::Syntax(s.to_owned());
        let (a, b) = s.split_once(':').ok_or_else(bad)?;
        let end = |t: &str| -> Result<Option<At>, RangeError> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(None);
            }
            if let Some(secs) = t.strip_suffix('s') {
                let v: f64 = secs.trim().parse().map_err(|_| bad())?;
                return if v.is_finite() && v >= 0.0 { Ok(Some(At::Secs(v))) } else { Err(bad()) };
            }
            t.parse::<i64>().map(|n| Some(At::Frame(n))).map_err(|_| bad())
        };
        Ok(Self { start: end(a)?, end: end(b)? })
    }
}

impl FrameRange {
    /// The first and last frame of a clip of `frames` frames at `fps`.
    pub fn resolve(&self, frames: usize, fps: f64) -> Result<(usize, usize), RangeError> {
        let index = |at: At, what: &'static str| -> Result<usize, RangeError> {
            let outside = || RangeError::Outside { what, at: at.to_string(), frames };
            match at {
                At::Frame(n) => crate::core::select::frame_index(n, frames).map_err(|_| outside()),
                At::Secs(s) => {
                    let f = (s * fps).round();
                    if f.is_finite() && f >= 0.0 && (f as usize) < frames { Ok(f as usize) } else { Err(outside()) }
                }
            }
        };
        if frames == 0 {
            return Err(RangeError::Outside { what: "first", at: self.to_string(), frames });
        }
        let start = self.start.map_or(Ok(0), |a| index(a, "first"))?;
        let end = self.end.map_or(Ok(frames - 1), |a| index(a, "last"))?;
        if end < start {
            return Err(RangeError::Reversed { start, end });
        }
        Ok((start, end))
    }
}

impl serde::Serialize for FrameRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for FrameRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_seconds_and_open_ends() {
        let r: FrameRange = "10:19".parse().unwrap();
        assert_eq!(r.resolve(100, 30.0), Ok((10, 19)));
        assert_eq!("-10:".parse::<FrameRange>().unwrap().resolve(100, 30.0), Ok((90, 99)));
        assert_eq!("1.5s:3s".parse::<FrameRange>().unwrap().resolve(200, 30.0), Ok((45, 90)));
        assert_eq!(":".parse::<FrameRange>().unwrap().resolve(5, 30.0), Ok((0, 4)));
        assert_eq!("1.5s:3s".parse::<FrameRange>().unwrap().to_string(), "1.5s:3s");
        assert!(matches!("10".parse::<FrameRange>(), Err(RangeError::Syntax(_))));
        assert!(matches!("a:b".parse::<FrameRange>(), Err(RangeError::Syntax(_))));
        let e = "0:200".parse::<FrameRange>().unwrap().resolve(100, 30.0).unwrap_err();
        assert_eq!(e.to_string(), "last 200 is outside the clip's 100 frames (0 to 99)");
        assert!(matches!("50:10".parse::<FrameRange>().unwrap().resolve(100, 30.0), Err(RangeError::Reversed { .. })));
    }
}
