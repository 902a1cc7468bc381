//! Finding the user's body model: a file, or a folder laid out as the `smplx` Python package
//! expects (`smplx/SMPLX_MALE.npz`, `smplh/SMPLH_FEMALE.npz`, AMASS's `smplh/male/model.npz`,
//! `smpl/SMPL_NEUTRAL.npz`), the motion's gender picking the file.

use std::path::{Path, PathBuf};

use super::joints::Family;

/// The environment variable naming a body model file or folder when no option does.
pub const BODY_MODELS_ENV: &str = "SKELVIEW_BODY_MODELS";

/// `male`, `female` or `neutral` from a file's `gender` (anything else: neutral).
pub fn gender_of(gender: Option<&str>) -> &'static str {
    match gender.map(str::trim) {
        Some(g) if g.eq_ignore_ascii_case("male") || g.eq_ignore_ascii_case("m") => "male",
        Some(g) if g.eq_ignore_ascii_case("female") || g.eq_ignore_ascii_case("f") => "female",
        _ => "neutral",
    }
}

/// The files a folder may hold for `family` and `gender`, in the order they are tried.
pub fn candidates(folder: &Path, family: Family, gender: &str) -> Vec<PathBuf> {
    let file = format!("{}_{}.npz", family.prefix(), gender.to_ascii_uppercase());
    let sub = folder.join(family.folder());
    vec![sub.join(&file), sub.join(gender).join("model.npz"), folder.join(&file), folder.join(gender).join("model.npz")]
}

/// The model for `family` and `gender` given `given` (a file is taken as it is), with a note
/// when another gender's model stands in; `None` when a folder holds none (with what was
/// looked for).
pub fn find(given: &Path, family: Family, gender: Option<&str>) -> Result<(PathBuf, Option<String>), super::NpzError> {
    if !given.is_dir() {
        return Ok((given.to_owned(), None));
    }
    let wanted = gender_of(gender);
    let mut tried = Vec::new();
    for g in [wanted, "neutral"] {
        for c in candidates(given, family, g) {
            if c.is_file() {
                let note =
                    (g != wanted).then(|| format!("no {wanted} {} model in {}: the neutral one is used", family.name(), given.display()));
                return Ok((c, note));
            }
            tried.push(c.display().to_string());
        }
    }
    let message = format!("no {} body model here (looked for {})", family.name(), tried.join(", "));
    Err(super::NpzError::ModelFile { file: given.to_owned(), message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gender_picks_the_file_and_neutral_stands_in() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("smplx")).unwrap();
        std::fs::create_dir_all(dir.path().join("smplh/female")).unwrap();
        for f in ["smplx/SMPLX_MALE.npz", "smplx/SMPLX_NEUTRAL.npz", "smplh/female/model.npz"] {
            std::fs::write(dir.path().join(f), b"").unwrap();
        }
        let d = dir.path();
        assert_eq!(find(d, Family::SmplX, Some("male")).unwrap(), (d.join("smplx/SMPLX_MALE.npz"), None));
        let (path, note) = find(d, Family::SmplX, Some("female")).unwrap();
        assert!(path.ends_with("SMPLX_NEUTRAL.npz") && note.unwrap().contains("no female SMPL-X model"));
        assert_eq!(find(d, Family::SmplH, Some("female")).unwrap().0, d.join("smplh/female/model.npz"));
        assert!(find(d, Family::Smpl, None).unwrap_err().to_string().contains("SMPL_NEUTRAL.npz"));
        assert_eq!(gender_of(Some("MALE")), "male");
        assert_eq!(gender_of(None), "neutral");
    }
}
