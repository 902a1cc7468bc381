//! Humanoid bone maps and retargeting from Python: `Motion.humanoid(map=None)` and
//! `Motion.retarget(target, map=None, target_map=None, scale="auto", keep_feet=False)`, as `skelview info
//! --humanoid` and `skelview retarget` do them.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skelview_core::core::Motion;
use skelview_core::retarget::{BoneMap, HipScale, RetargetOptions, apply_toml, bone_map, retarget};

use crate::errors::value_error;

/// `m`'s humanoid bone map, with `map`'s bones (TOML text) over it.
pub fn map_of(m: &Motion, map: Option<&str>) -> PyResult<BoneMap> {
    let mut found = bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
    if let Some(text) = map {
        apply_toml(&mut found, &m.skeleton, text).map_err(|e| value_error(format!("map: {e}")))?;
    }
    Ok(found)
}

/// `Motion.humanoid`: bone → joint name.
pub fn humanoid<'py>(py: Python<'py>, m: &Motion, map: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let found = map_of(m, map)?;
    let out = PyDict::new(py);
    for e in &found.entries {
        out.set_item(e.bone, &m.skeleton.joints()[e.joint].name)?;
    }
    Ok(out)
}

/// `Motion.retarget`: `source` on `target`'s skeleton.
pub fn retarget_onto(
    py: Python<'_>,
    source: &Arc<Motion>,
    target: &Arc<Motion>,
    map: Option<&str>,
    target_map: Option<&str>,
    scale: Option<&Bound<'_, PyAny>>,
    keep_feet: bool,
) -> PyResult<Motion> {
    {
        let hips = match scale {
            None => HipScale::Auto,
            Some(s) if s.extract::<String>().is_ok_and(|t| t == "auto") => HipScale::Auto,
            Some(s) => match s.extract::<f32>() {
                Ok(k) if k.is_finite() && k > 0.0 => HipScale::Factor(k),
                _ => return Err(value_error(format!("scale must be \"auto\" or a number above 0, not {s}"))),
            },
        };
        let (source_map, target_map) = (map_of(source, map)?, map_of(target, target_map)?);
        let (s, t) = (source.clone(), target.clone());
        let out = py
            .detach(move || retarget(&s, &source_map, &t, &target_map, &RetargetOptions { hips, keep_feet }, &|_| true))
            .map_err(|e| value_error(e.to_string()))?;
        out.ok_or_else(|| value_error("retarget stopped"))
    }
}
