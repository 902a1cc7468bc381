//! `skelview.Mesh`: one of a motion's meshes (a glTF/VRM primitive), its faces and facts;
//! `Motion.vertices` poses them.

use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use skelview_core::core::mesh::{Mesh, MeshSet};

use crate::errors::value_error;

/// A mesh of a motion (a drawn primitive, as `skelview info` lists it): name, triangles and
/// whether a skin binds it; its posed vertices come from `Motion.vertices(mesh=index)`.
#[pyclass(name = "Mesh", module = "skelview", frozen)]
pub struct PyMesh {
    set: Arc<MeshSet>,
    index: usize,
}

impl PyMesh {
    /// The meshes of `set`, in its order.
    pub fn all(set: Option<&Arc<MeshSet>>) -> Vec<Self> {
        set.map_or_else(Vec::new, |s| (0..s.meshes.len()).map(|index| Self { set: s.clone(), index }).collect())
    }

    fn mesh(&self) -> &Mesh {
        &self.set.meshes[self.index]
    }
}

#[pymethods]
impl PyMesh {
    /// The mesh's name (with the primitive's number when the mesh has several).
    #[getter]
    fn name(&self) -> &str {
        &self.mesh().name
    }

    /// Its position in `Motion.meshes` (the `mesh` argument of `Motion.vertices`).
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.mesh().positions.len()
    }

    /// Triangles, faces × 3 vertex indices into this mesh's vertices (uint32).
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let m = self.mesh();
        Ok(Array2::from_shape_vec((m.triangles(), 3), m.indices[..m.triangles() * 3].to_vec())
            .map_err(|e| value_error(e.to_string()))?
            .into_pyarray(py))
    }

    /// True when a skin binds it to the joints (else it follows one joint rigidly).
    #[getter]
    fn skinned(&self) -> bool {
        self.mesh().skinned
    }

    /// Its morph targets' names (blend shapes), in the file's order.
    #[getter]
    fn morph_targets(&self) -> Vec<String> {
        self.mesh().morph_targets.iter().map(|t| t.name.clone()).collect()
    }

    fn __repr__(&self) -> String {
        let m = self.mesh();
        format!(
            "<skelview.Mesh {} {:?}: {} vertices, {} faces, {}>",
            self.index,
            m.name,
            m.positions.len(),
            m.triangles(),
            if m.skinned { "skinned" } else { "rigid" }
        )
    }
}

/// The meshes `mesh` picks in `set` (every one when None; an index, negative from the end).
pub fn chosen(set: &MeshSet, mesh: Option<isize>) -> PyResult<Vec<usize>> {
    let n = set.meshes.len();
    let Some(k) = mesh else { return Ok((0..n).collect()) };
    let at = if k < 0 { k + n as isize } else { k };
    if (0..n as isize).contains(&at) {
        Ok(vec![at as usize])
    } else {
        let count = if n == 1 { "1 mesh".to_owned() } else { format!("{n} meshes") };
        Err(PyIndexError::new_err(format!("mesh {k} is out of range: the file has {count} (Motion.meshes lists them)")))
    }
}
