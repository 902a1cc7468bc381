//! Picking frames and joints the way a user names them, one rule for every front door (the
//! command line, Python, the viewer's start options): frame numbers count from 0 and negative
//! ones from the end (-1 is the last); a joint is found by its exact name, and a name that is
//! not there gets the closest names the skeleton has as a suggestion.

use thiserror::Error;

use super::skeleton::Skeleton;

/// A frame number outside the clip.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("frame {frame} is out of range (the clip has {count} frames)")]
pub struct FrameOutOfRange {
    /// The number asked for.
    pub frame: i64,
    /// Frames to choose from.
    pub count: usize,
}

/// Frame `frame` of `count` frames: from 0, or from the end when negative (-1 is the last).
pub fn frame_index(frame: i64, count: usize) -> Result<usize, FrameOutOfRange> {
    let n = count as i64;
    let k = if frame < 0 { n.saturating_add(frame) } else { frame };
    if (0..n).contains(&k) { Ok(k as usize) } else { Err(FrameOutOfRange { frame, count }) }
}

/// [`frame_index`] of each of `frames`, in order; the first out of range is the error.
pub fn frame_indices(frames: &[i64], count: usize) -> Result<Vec<usize>, FrameOutOfRange> {
    frames.iter().map(|&f| frame_index(f, count)).collect()
}

/// [`frame_index`], held to the first or last frame when outside (0 when there are none).
pub fn frame_index_clamped(frame: i64, count: usize) -> usize {
    let n = count.max(1) as i64;
    let k = if frame < 0 { n.saturating_add(frame) } else { frame };
    k.clamp(0, n - 1) as usize
}

/// A joint name the skeleton does not have, with the closest names it does.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("no joint named '{name}'{}", suggestion(.like))]
pub struct NoJoint {
    /// The name asked for.
    pub name: String,
    /// The skeleton's closest names, best first (at most three).
    pub like: Vec<String>,
}

fn suggestion(like: &[String]) -> String {
    let quoted: Vec<String> = like.iter().map(|n| format!("'{n}'")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => format!(" (did you mean {last}?)"),
        Some((last, rest)) => format!(" (did you mean {} or {last}?)", rest.join(", ")),
    }
}

impl Skeleton {
    /// The joint called exactly `name`, or an error suggesting the closest names.
    pub fn joint_named(&self, name: &str) -> Result<usize, NoJoint> {
        self.find(name).ok_or_else(|| NoJoint {
            name: name.to_owned(),
            like: closest(name, self.joints().iter().map(|j| j.name.as_str())).into_iter().map(str::to_owned).collect(),
        })
    }
}

/// Up to three of `candidates` that `name` was probably meant to be, best first: the same
/// name in another case, then names within a few edits (a third of the name's length, at
/// least one), then names that contain it or that it contains (ignoring case).
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let budget = (lower.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &'a str)> = candidates
        .filter_map(|c| {
            let other = c.to_lowercase();
            if other == lower {
                return Some((0, c));
            }
            let d = edit_distance(&lower, &other);
            if d <= budget {
                Some((d, c))
            } else if !lower.is_empty() && (other.contains(&lower) || lower.contains(&other)) {
                Some((budget + 1 + other.len().abs_diff(lower.len()), c))
            } else {
                None
            }
        })
        .collect();
    scored.sort_by_key(|&(score, c)| (score, c.len()));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance over characters (names are short: quadratic is fine).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_frames_count_from_the_end_everywhere() {
        assert_eq!(frame_indices(&[0, 1, -1, -10], 10), Ok(vec![0, 1, 9, 0]));
        assert_eq!(frame_index(10, 10), Err(FrameOutOfRange { frame: 10, count: 10 }));
        assert_eq!(frame_index(-11, 10).unwrap_err().to_string(), "frame -11 is out of range (the clip has 10 frames)");
        assert!(frame_index(0, 0).is_err() && frame_index(i64::MIN, 3).is_err() && frame_index(i64::MAX, 3).is_err());
        assert_eq!((frame_index_clamped(-1, 10), frame_index_clamped(99, 10), frame_index_clamped(-99, 10)), (9, 9, 0));
        assert_eq!(frame_index_clamped(i64::MIN, 0), 0);
    }

    #[test]
    fn a_missing_joint_suggests_the_closest_names() {
        let names = ["Hips", "Spine", "Head", "LeftHip", "RightHip", "LeftHand"];
        assert_eq!(closest("Hed", names.into_iter()), ["Head"]);
        assert_eq!(closest("hips", names.into_iter()), ["Hips"], "case first");
        assert_eq!(closest("Hip", names.into_iter()), ["Hips", "LeftHip", "RightHip"]);
        assert!(closest("Tail", names.into_iter()).is_empty());
        assert!(closest("", names.into_iter()).is_empty());
        let e = NoJoint { name: "Hed".into(), like: vec!["Head".into()] };
        assert_eq!(e.to_string(), "no joint named 'Hed' (did you mean 'Head'?)");
        let e = NoJoint { name: "Hip".into(), like: vec!["Hips".into(), "LeftHip".into(), "RightHip".into()] };
        assert_eq!(e.to_string(), "no joint named 'Hip' (did you mean 'Hips', 'LeftHip' or 'RightHip'?)");
        assert_eq!(NoJoint { name: "Tail".into(), like: vec![] }.to_string(), "no joint named 'Tail'");
        assert_eq!((edit_distance("kitten", "sitting"), edit_distance("", "ab"), edit_distance("é", "e")), (3, 2, 1));
    }
}
