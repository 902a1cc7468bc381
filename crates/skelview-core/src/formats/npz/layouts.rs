//! Which motion a file's arrays hold, told by their names and widths: AMASS SMPL+H and
//! SMPL-X, plain SMPL, BEAT2/EMAGE, Motion-X's packed rows, HumanML3D's joints and features.

use super::NpzError;
use super::container::Arrays;
use super::joints::Family;
use super::npy::Data;

/// A body model's motion: per frame, every joint's axis-angle and the root's translation.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyMotion {
    /// The model family its poses are for.
    pub family: Family,
    /// What wrote it (`AMASS SMPL+H`).
    pub kind: &'static str,
    /// Frames.
    pub frames: usize,
    /// Frames × joints × 3 axis-angle values.
    pub poses: Vec<f64>,
    /// Frames × 3 root translations (zeros when the file has none).
    pub trans: Vec<f64>,
    /// Shape coefficients.
    pub betas: Vec<f64>,
    /// SMPL-X expression coefficients: frames × [`BodyMotion::expression_width`] (empty
    /// when the file has none).
    pub expressions: Vec<f64>,
    /// Expression coefficients per frame.
    pub expression_width: usize,
    /// `male`, `female` or `neutral` (lower case), when the file says.
    pub gender: Option<String>,
    /// Frames per second, when the file says.
    pub fps: Option<f64>,
    /// AMASS's world is Z-up.
    pub z_up: bool,
}

/// Joint positions over time (HumanML3D).
#[derive(Clone, Debug, PartialEq)]
pub struct JointMotion {
    /// What it is (`HumanML3D joints`).
    pub kind: &'static str,
    /// Frames.
    pub frames: usize,
    /// Frames × 22 × 3 positions, Y-up metres.
    pub positions: Vec<f64>,
}

/// What a file holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// Poses of a body model.
    Body(BodyMotion),
    /// Joint positions.
    Joints(JointMotion),
}

/// Motion-X's packed row: root 3, body 63, hands 90, jaw 3, expression 50, face shape 100,
/// translation 3, betas 10.
const MOTION_X_WIDTH: usize = 322;

/// The motion `arrays` hold, or why none fits (naming the arrays and shapes found).
pub fn classify(arrays: &mut Arrays) -> Result<Content, NpzError> {
    if arrays.get("poses").is_some() {
        return body_from_poses(arrays).map(Content::Body);
    }
    if arrays.get("root_orient").is_some() && arrays.get("pose_body").is_some() {
        return body_from_parts(arrays).map(Content::Body);
    }
    // One numeric array (a `.npy`, or an `.npz` of one member): told by its shape.
    let numeric: Vec<_> = arrays.arrays.iter().filter(|a| a.numbers().is_some()).collect();
    if let [only] = numeric.as_slice()
        && let Some(content) = single_array(only.numbers().unwrap_or_default(), &only.shape, &only.name)?
    {
        return Ok(content);
    }
    Err(NpzError::Layout(format!(
        "no motion skelview reads: expected SMPL-family `poses` (T×72, T×156 or T×165), Motion-X rows (T×322) or HumanML3D joints (T×22×3) or features (T×263); the file holds {}",
        arrays.describe()
    )))
}

/// A lone array told by its shape.
fn single_array(values: &[f64], shape: &[usize], name: &str) -> Result<Option<Content>, NpzError> {
    let frames = shape.first().copied().unwrap_or(0);
    finite(name, values, shape.iter().skip(1).product())?;
    Ok(match shape {
        [_, 22, 3] => Some(Content::Joints(JointMotion { kind: "HumanML3D joints", frames, positions: values.to_vec() })),
        [_, super::humanml3d::HUMANML3D_FEATURES] => Some(Content::Joints(JointMotion {
            kind: "HumanML3D features (new_joint_vecs), recovered as recover_from_ric does",
            frames,
            positions: super::humanml3d::recover_from_ric(values, frames),
        })),
        [_, MOTION_X_WIDTH] => Some(Content::Body(motion_x(values, frames))),
        [_, w] => Family::ALL.into_iter().find(|f| f.joints() * 3 == *w).map(|family| {
            Content::Body(BodyMotion {
                family,
                kind: "bare poses",
                frames,
                poses: values.to_vec(),
                trans: vec![0.0; frames * 3],
                betas: Vec::new(),
                expressions: Vec::new(),
                expression_width: 0,
                gender: None,
                fps: None,
                z_up: false,
            })
        }),
        _ => None,
    })
}

/// A file with `poses`: AMASS SMPL+H or SMPL-X, BEAT2, or plain SMPL, by its width.
fn body_from_poses(arrays: &mut Arrays) -> Result<BodyMotion, NpzError> {
    let a = &*arrays;
    let (poses, shape) = numbers(a, "poses")?;
    let (frames, width) = match shape {
        [t, w] => (*t, *w),
        [t, j, 3] => (*t, j * 3),
        _ => return Err(layout(format!("`poses` has shape {shape:?}, not frames × values"))),
    };
    let Some(family) = Family::ALL.into_iter().find(|f| f.joints() * 3 == width) else {
        return Err(layout(format!(
            "`poses` is {frames}×{width}: a width that fits no layout (SMPL 72, SMPL+H 156, SMPL-X 165; Motion-X rows are 322 wide)"
        )));
    };
    finite("poses", poses, width)?;
    let amass_h = a.get("mocap_framerate").is_some() || a.get("dmpls").is_some();
    let amass_x = a.get("surface_model_type").is_some() || (family == Family::SmplX && a.get("pose_body").is_some());
    let kind = match family {
        Family::SmplH if amass_h => "AMASS SMPL+H",
        Family::SmplX if amass_x => "AMASS SMPL-X",
        Family::SmplX if a.get("expressions").is_some() => "BEAT2/EMAGE SMPL-X",
        Family::SmplX => "SMPL-X",
        Family::SmplH => "SMPL+H",
        Family::Smpl => "SMPL",
    };
    let motion = BodyMotion {
        family,
        kind,
        frames,
        // Taken from the array below, not copied (a long motion's poses are megabytes).
        poses: Vec::new(),
        trans: trans(a, frames)?,
        betas: betas(a)?,
        expressions: Vec::new(),
        expression_width: 0,
        gender: gender(a),
        fps: rate(a),
        // AMASS's world is Z-up; a plain SMPL file with a rate is no AMASS file.
        z_up: kind.starts_with("AMASS"),
    };
    let (expressions, expression_width) = if family == Family::SmplX { expressions(a, frames)? } else { (Vec::new(), 0) };
    Ok(BodyMotion { poses: arrays.take_numbers("poses"), expressions, expression_width, ..motion })
}

/// SMPL-X expression coefficients (`expressions`, BEAT2's; `expression`, SMPLify-X's and
/// PIXIE's) as frames × width: one row for every frame when the file gives one row.
fn expressions(a: &Arrays, frames: usize) -> Result<(Vec<f64>, usize), NpzError> {
    let Some(name) = ["expressions", "expression"].into_iter().find(|n| a.get(n).is_some()) else { return Ok((Vec::new(), 0)) };
    let (v, s) = numbers(a, name)?;
    let (rows, width) = match s {
        [w] => (1, *w),
        [t, w] => (*t, *w),
        _ => return Err(layout(format!("`{name}` has shape {s:?}, not frames × coefficients"))),
    };
    finite(name, v, width)?;
    match rows {
        _ if width == 0 => Ok((Vec::new(), 0)),
        r if r == frames => Ok((v.to_vec(), width)),
        // One row for every frame: no more numbers than one array may hold.
        1 if (frames as u64).saturating_mul(width as u64) > super::npy::MAX_ELEMENTS => {
            Err(NpzError::TooLarge { array: name.to_owned(), shape: format!("{width} coefficients × {frames} frames") })
        }
        1 => Ok((v.repeat(frames), width)),
        _ => Err(layout(format!("`{name}` has shape {s:?} where {frames}×coefficients (as many rows as `poses`) or one row is needed"))),
    }
}

/// AMASS SMPL-X's separate arrays (no `poses`), joined in the model's joint order.
fn body_from_parts(a: &Arrays) -> Result<BodyMotion, NpzError> {
    let part = |name: &str, width: usize, frames: usize| -> Result<Vec<f64>, NpzError> {
        match a.numbers(name) {
            None => Ok(vec![0.0; frames * width]),
            Some((v, s)) if s.first() == Some(&frames) && v.len() == frames * width => finite(name, v, width).map(|()| v.to_vec()),
            Some((_, s)) => Err(layout(format!("`{name}` has shape {s:?} where {frames}×{width} is needed"))),
        }
    };
    let frames = a.get("root_orient").and_then(|r| r.shape.first().copied()).unwrap_or(0);
    let [root, body, jaw, eyes, hands] =
        [("root_orient", 3), ("pose_body", 63), ("pose_jaw", 3), ("pose_eye", 6), ("pose_hand", 90)].map(|(n, w)| part(n, w, frames));
    let (root, body, jaw, eyes, hands) = (root?, body?, jaw?, eyes?, hands?);
    let has_face = a.get("pose_jaw").is_some() || a.get("pose_eye").is_some();
    let family = if has_face { Family::SmplX } else { Family::SmplH };
    let mut poses = Vec::with_capacity(frames * family.joints() * 3);
    for f in 0..frames {
        poses.extend_from_slice(&root[f * 3..f * 3 + 3]);
        poses.extend_from_slice(&body[f * 63..f * 63 + 63]);
        if has_face {
            poses.extend_from_slice(&jaw[f * 3..f * 3 + 3]);
            poses.extend_from_slice(&eyes[f * 6..f * 6 + 6]);
        }
        poses.extend_from_slice(&hands[f * 90..f * 90 + 90]);
    }
    let kind = if has_face { "AMASS SMPL-X (separate arrays)" } else { "SMPL+H (separate arrays)" };
    let (expressions, expression_width) = if has_face { expressions(a, frames)? } else { (Vec::new(), 0) };
    Ok(BodyMotion {
        family,
        kind,
        frames,
        poses,
        trans: trans(a, frames)?,
        betas: betas(a)?,
        expressions,
        expression_width,
        gender: gender(a),
        fps: rate(a),
        z_up: true,
    })
}

/// Motion-X's packed rows as SMPL-X poses (eyes at rest), expressions, translation and betas.
fn motion_x(v: &[f64], frames: usize) -> BodyMotion {
    let mut poses = Vec::with_capacity(frames * 165);
    let mut trans = Vec::with_capacity(frames * 3);
    let mut expressions = Vec::with_capacity(frames * 50);
    for row in v.chunks_exact(MOTION_X_WIDTH) {
        poses.extend_from_slice(&row[..66]);
        poses.extend_from_slice(&row[156..159]);
        poses.extend_from_slice(&[0.0; 6]);
        poses.extend_from_slice(&row[66..156]);
        expressions.extend_from_slice(&row[159..209]);
        trans.extend_from_slice(&row[309..312]);
    }
    let betas = v.get(312..322).map(<[f64]>::to_vec).unwrap_or_default();
    BodyMotion {
        family: Family::SmplX,
        kind: "Motion-X SMPL-X rows",
        frames,
        poses,
        trans,
        betas,
        expressions,
        expression_width: 50,
        gender: None,
        fps: None,
        z_up: false,
    }
}

fn layout(message: String) -> NpzError {
    NpzError::Layout(message)
}

/// The numbers of a named array, or why not.
fn numbers<'a>(a: &'a Arrays, name: &str) -> Result<(&'a [f64], &'a [usize]), NpzError> {
    a.numbers(name)
        .ok_or_else(|| layout(format!("`{name}` is not an array of numbers ({})", a.get(name).map_or("missing".into(), |x| x.describe()))))
}

/// An error naming the first value that is not finite, by frame (rows of `width`).
fn finite(name: &str, values: &[f64], width: usize) -> Result<(), NpzError> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(NpzError::Array {
            array: name.to_owned(),
            message: format!("value {} at frame {}, column {} is not a finite number", values[i], i / width.max(1), i % width.max(1)),
        }),
    }
}

/// `trans` as frames × 3 (zeros when absent).
fn trans(a: &Arrays, frames: usize) -> Result<Vec<f64>, NpzError> {
    match a.numbers("trans") {
        None => Ok(vec![0.0; frames * 3]),
        Some((v, _)) if v.len() == frames * 3 => finite("trans", v, 3).map(|()| v.to_vec()),
        Some((_, s)) => Err(layout(format!("`trans` has shape {s:?} where {frames}×3 is needed (as many rows as `poses`)"))),
    }
}

/// `betas` (the first row of per-frame betas), as many as `num_betas` says.
fn betas(a: &Arrays) -> Result<Vec<f64>, NpzError> {
    let Some((v, s)) = a.numbers("betas") else { return Ok(Vec::new()) };
    let row = if s.len() == 2 { &v[..s[1].min(v.len())] } else { v };
    finite("betas", row, row.len())?;
    let count = a.numbers("num_betas").and_then(|(n, _)| n.first().copied()).map_or(row.len(), |n| (n.max(0.0) as usize).min(row.len()));
    Ok(row[..count].to_vec())
}

/// `gender` in lower case, when readable: text, or an object array whose pickle holds one of
/// the words `male`, `female` or `neutral`.
fn gender(a: &Arrays) -> Option<String> {
    let array = a.get("gender")?;
    let g = match &array.data {
        Data::Pickled(strings) => {
            let word = |s: &&String| ["male", "female", "neutral"].contains(&s.trim().to_ascii_lowercase().as_str());
            strings.iter().rev().find(word)?.trim().to_ascii_lowercase()
        }
        _ => array.text()?.trim().to_ascii_lowercase(),
    };
    let g = g.trim_start_matches("b'").trim_matches('\'').to_owned();
    (!g.is_empty()).then_some(g)
}

/// The frame rate under any of its spellings, when positive.
fn rate(a: &Arrays) -> Option<f64> {
    ["mocap_framerate", "mocap_frame_rate", "frame_rate", "fps"]
        .iter()
        .find_map(|n| a.numbers(n).and_then(|(v, _)| v.first().copied()))
        .filter(|r| r.is_finite() && *r > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::npz::npy::Array;

    fn numbers(name: &str, shape: &[usize], v: Vec<f64>) -> Array {
        Array { name: name.into(), descr: "<f8".into(), shape: shape.to_vec(), data: Data::Numbers(v) }
    }

    fn text(name: &str, s: &str) -> Array {
        Array { name: name.into(), descr: "<U6".into(), shape: Vec::new(), data: Data::Text(vec![s.into()]) }
    }

    fn body(arrays: Vec<Array>) -> BodyMotion {
        match classify(&mut Arrays { arrays, archive: true }).unwrap() {
            Content::Body(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn widths_and_names_tell_the_layout() {
        let ramp = |n: usize| (0..n).map(|i| i as f64).collect::<Vec<_>>();
        let h = body(vec![numbers("poses", &[1, 156], ramp(156)), numbers("mocap_framerate", &[], vec![120.0]), text("gender", "Male")]);
        assert_eq!(
            (h.family, h.kind, h.fps, h.gender.as_deref(), h.z_up),
            (Family::SmplH, "AMASS SMPL+H", Some(120.0), Some("male"), true)
        );
        // A gender pickled as an object array: the word among its pickle's strings.
        let pickled = Array {
            name: "gender".into(),
            descr: "|O".into(),
            shape: Vec::new(),
            data: Data::Pickled(vec!["_reconstruct".into(), "Female".into()]),
        };
        assert_eq!(body(vec![numbers("poses", &[1, 156], ramp(156)), pickled]).gender.as_deref(), Some("female"));
        let x = body(vec![
            numbers("poses", &[2, 165], vec![0.0; 330]),
            numbers("expressions", &[2, 100], vec![0.0; 200]),
            numbers("betas", &[300], vec![0.5; 300]),
        ]);
        assert_eq!((x.family, x.kind, x.betas.len(), x.z_up), (Family::SmplX, "BEAT2/EMAGE SMPL-X", 300, false));
        assert_eq!((x.expression_width, x.expressions.len()), (100, 200));
        // One row of expression (SMPLify-X's fits) stands for every frame.
        let one = body(vec![numbers("poses", &[3, 165], vec![0.0; 495]), numbers("expression", &[1, 10], ramp(10))]);
        assert_eq!((one.expression_width, &one.expressions[20..30]), (10, &ramp(10)[..]));
        let e = classify(&mut Arrays {
            arrays: vec![numbers("poses", &[3, 165], vec![0.0; 495]), numbers("expressions", &[2, 10], vec![0.0; 20])],
            archive: true,
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`expressions`") && e.contains("3×coefficients"), "{e}");
        // One wide row for many frames is refused before it is repeated.
        let e = classify(&mut Arrays {
            arrays: vec![numbers("poses", &[20_000, 165], Vec::new()), numbers("expression", &[1, 10_000], vec![0.0; 10_000])],
            archive: true,
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("'expression' is too large"), "{e}");
        let s = body(vec![
            numbers("poses", &[3, 24, 3], vec![0.0; 216]),
            numbers("betas", &[3, 10], ramp(30)),
            numbers("num_betas", &[], vec![8.0]),
        ]);
        assert_eq!((s.family, s.frames, s.betas), (Family::Smpl, 3, ramp(8)), "the first row of per-frame betas, num_betas of them");
    }

    #[test]
    fn separate_arrays_and_motion_x_rows_join_in_the_models_order() {
        let part = |name: &str, width: usize, first: f64| numbers(name, &[1, width], (0..width).map(|i| first + i as f64).collect());
        let x = body(vec![
            part("root_orient", 3, 0.0),
            part("pose_body", 63, 3.0),
            part("pose_hand", 90, 1000.0),
            part("pose_jaw", 3, 66.0),
            part("pose_eye", 6, 69.0),
        ]);
        assert_eq!(x.poses[..75], (0..75).map(f64::from).collect::<Vec<_>>()[..], "root, body, jaw, eyes");
        assert_eq!((x.poses[75], x.poses[164]), (1000.0, 1089.0), "then the hands");
        let row: Vec<f64> = (0..322).map(f64::from).collect();
        let m = motion_x(&row, 1);
        assert_eq!((m.poses[65], m.poses[66], m.poses[68], m.poses[69], m.poses[75]), (65.0, 156.0, 158.0, 0.0, 66.0));
        assert_eq!((m.trans.as_slice(), m.betas[0], m.betas.len()), (&[309.0, 310.0, 311.0][..], 312.0, 10));
        assert_eq!((m.expression_width, m.expressions[0], m.expressions[49]), (50, 159.0, 208.0));
    }

    #[test]
    fn what_fits_nothing_names_what_is_there() {
        let e = classify(&mut Arrays { arrays: vec![numbers("poses", &[2, 99], vec![0.0; 198])], archive: true }).unwrap_err().to_string();
        assert!(e.contains("2×99") && e.contains("fits no layout"), "{e}");
        let e = classify(&mut Arrays { arrays: vec![numbers("a", &[3], vec![0.0; 3]), text("b", "x")], archive: true })
            .unwrap_err()
            .to_string();
        assert!(e.contains("a (3,) <f8, b () <U6"), "{e}");
        let mut nan = vec![0.0; 72];
        nan[40] = f64::NAN;
        let e = classify(&mut Arrays { arrays: vec![numbers("poses", &[1, 72], nan)], archive: true }).unwrap_err().to_string();
        assert!(e.contains("'poses'") && e.contains("frame 0, column 40"), "{e}");
        let e = classify(&mut Arrays {
            arrays: vec![numbers("poses", &[2, 72], vec![0.0; 144]), numbers("trans", &[3, 3], vec![0.0; 9])],
            archive: true,
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`trans`"), "{e}");
    }
}
