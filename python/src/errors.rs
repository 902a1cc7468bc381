//! `skelview.LoadError` (a `ValueError`) with the file, line and column the command line
//! names, and the command line's message.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use skelview_core::export::files::WriteError;
use skelview_core::formats;

create_exception!(
    skelview,
    LoadError,
    PyValueError,
    "A file that could not be read: .path, .line, .col (None where not known), .offset (binary files) and the message."
);

/// The Python error for a failed load, its place as attributes.
pub fn load_error(py: Python<'_>, e: &formats::LoadError) -> PyErr {
    let err = LoadError::new_err(e.to_string());
    let value = err.value(py);
    let (line, col, offset) = match e {
        formats::LoadError::Parse { line, col, .. } => (Some(*line), Some(*col), None),
        formats::LoadError::Binary { offset, .. } => (None, None, Some(*offset)),
        _ => (None, None, None),
    };
    // Setting attributes on a fresh exception object cannot fail in practice; if it did, the
    // message still says everything.
    let _ = value.setattr("path", e.path().display().to_string());
    let _ = value.setattr("line", line);
    let _ = value.setattr("col", col);
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("message", e.to_string());
    err
}

/// A `ValueError` with `message`.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// The Python error for a file not written to `path`: an `OSError` when the system refused
/// (a missing folder, no permission, a full disk), a `ValueError` when the motion or the
/// extension cannot be written.
pub fn write_error(path: &std::path::Path, e: &WriteError) -> PyErr {
    let message = format!("{}: {e}", path.display());
    match e {
        WriteError::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}
