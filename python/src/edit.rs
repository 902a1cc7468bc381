//! Recipes from Python: TOML text, a dict or a list of steps, or keyword arguments in the
//! order given (`m.edit(fill_gaps="spline", filter=6.0, trim="10:80")`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use skelview_core::edit::{OPERATIONS, Recipe};

use crate::errors::value_error;

/// The parameter a keyword's plain value sets (`filter=6.0` is `cutoff_hz = 6.0`), from the
/// operation's declaration: the first the command line's value carries; `None` for an
/// operation that takes none (`unroll=True`) or one there is no such operation.
fn main_parameter(op: &str) -> Option<&'static str> {
    OPERATIONS.iter().find(|s| s.name == op)?.main_param().map(|p| p.key)
}

/// The recipe of `recipe` (TOML text, a dict, a list of steps) followed by `kwargs`.
pub fn recipe(py: Python<'_>, recipe: Option<&Bound<'_, PyAny>>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Recipe> {
    let json = py.import("json")?;
    let mut out = Recipe::default();
    if let Some(r) = recipe {
        let parsed = if let Ok(text) = r.cast::<PyString>() {
            Recipe::from_toml(&text.to_cow()?)
        } else {
            let text: String = json.call_method1("dumps", (r,))?.extract()?;
            Recipe::from_json(&text)
        };
        out.steps.extend(parsed.map_err(|e| value_error(format!("recipe: {e}")))?.steps);
    }
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let op: String = key.extract()?;
        if !OPERATIONS.iter().any(|s| s.name == op) {
            let known: Vec<&str> = OPERATIONS.iter().map(|s| s.name).collect();
            return Err(value_error(format!("{op}: no such operation (operations: {})", known.join(", "))));
        }
        let step = PyDict::new(py);
        step.set_item("op", &op)?;
        if let Ok(params) = value.cast::<PyDict>() {
            step.update(params.as_mapping())?;
        } else if let Some(name) = main_parameter(&op) {
            step.set_item(name, &value)?;
        } else if !value.extract::<bool>().is_ok_and(|on| on) {
            return Err(value_error(format!("{op}={value}: expected True or a dict of its parameters")));
        }
        let text: String = json.call_method1("dumps", (PyList::new(py, [step])?,))?.extract()?;
        out.steps.extend(Recipe::from_json(&text).map_err(|e| value_error(format!("{op}: {e}")))?.steps);
    }
    if out.steps.is_empty() {
        return Err(value_error("edit needs a recipe or at least one operation (fill_gaps=, filter=, unroll=True…)"));
    }
    Ok(out)
}
