//! The one take list rule every format with several animations follows: `--take` (or the
//! clip list) names a take by name, in any case, or by index; without a choice the take that
//! moves, drives the most joints and lasts longest plays; a file with several says so.

use crate::core::Take;

/// A take choice that names no take of the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no take '{choice}' in this file (takes {list})", list = if takes.is_empty() { "none".to_owned() } else { takes.join(", ") })]
pub struct NoTake {
    /// What was asked for.
    pub choice: String,
    /// The file's takes, as `index: name`.
    pub takes: Vec<String>,
}

/// The take to play: `choice` when given (an error naming the takes when none matches), else
/// the liveliest one; `None` when there are no takes.
pub fn choose(takes: &[Take], choice: Option<&str>) -> Result<Option<usize>, NoTake> {
    if takes.is_empty() && choice.is_none() {
        return Ok(None);
    }
    match choice {
        Some(c) => {
            let by_name = takes.iter().position(|t| t.name.eq_ignore_ascii_case(c.trim()));
            let by_index = c.trim().parse::<usize>().ok().filter(|&i| i < takes.len());
            by_name.or(by_index).map(Some).ok_or_else(|| NoTake {
                choice: c.to_owned(),
                takes: takes.iter().enumerate().map(|(i, t)| format!("{i}: {}", t.name)).collect(),
            })
        }
        None => {
            let key = |t: &Take| (t.moving, t.joints, t.duration_secs);
            let mut best = 0;
            for (i, t) in takes.iter().enumerate() {
                if key(t).partial_cmp(&key(&takes[best])) == Some(std::cmp::Ordering::Greater) {
                    best = i;
                }
            }
            Ok(Some(best))
        }
    }
}

/// The warning that a file holds several takes and which one plays (`None` for one take).
pub fn several(takes: &[Take], chosen: usize) -> Option<String> {
    if takes.len() < 2 {
        return None;
    }
    let others: Vec<&str> = takes.iter().enumerate().filter(|(i, _)| *i != chosen).map(|(_, t)| t.name.as_str()).collect();
    Some(format!(
        "{} takes in this file; showing '{}' (others: {}; --take or the clip list chooses)",
        takes.len(),
        takes.get(chosen).map_or("", |t| t.name.as_str()),
        others.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(name: &str, moving: bool, joints: usize, duration_secs: f64) -> Take {
        Take { name: name.into(), duration_secs, joints, moving }
    }

    #[test]
    fn by_name_index_or_the_liveliest() {
        let takes = [take("Idle", false, 20, 9.0), take("Walk", true, 20, 0.7), take("Run", true, 20, 1.2)];
        assert_eq!(choose(&takes, None), Ok(Some(2)), "moving, then joints, then duration");
        assert_eq!(choose(&takes, Some("walk")), Ok(Some(1)));
        assert_eq!(choose(&takes, Some(" 0 ")), Ok(Some(0)));
        assert!(choose(&takes, Some("Jump")).unwrap_err().to_string().contains("0: Idle, 1: Walk, 2: Run"));
        assert_eq!(choose(&[], None), Ok(None));
        assert!(choose(&[], Some("x")).unwrap_err().to_string().contains("takes none"));
        assert_eq!(
            several(&takes, 1).unwrap(),
            "3 takes in this file; showing 'Walk' (others: Idle, Run; --take or the clip list chooses)"
        );
        assert_eq!(several(&takes[..1], 0), None);
    }
}
