//! The binary buffer of a glTF document being written, with the buffer views and accessors
//! that describe it: shared by the skeleton's and the meshes' writers.

use serde_json::{Value, json};

/// Binary buffer being filled, with the views and accessors that describe it.
#[derive(Default)]
pub(super) struct Blob {
    pub bytes: Vec<u8>,
    pub views: Vec<Value>,
    pub accessors: Vec<Value>,
    /// Values met that are NaN or infinite (the document is then refused).
    pub non_finite: usize,
}

impl Blob {
    /// Appends `floats` as one view and one accessor of `kind` (`SCALAR`, `VEC3`…); returns the
    /// accessor index. `min_max` adds the bounds (required on animation inputs).
    pub(super) fn floats(&mut self, floats: &[f32], kind: &str, count: usize, min_max: bool) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let offset = self.bytes.len();
        self.non_finite += floats.iter().filter(|f| !f.is_finite()).count();
        for f in floats {
            self.bytes.extend_from_slice(&f.to_le_bytes());
        }
        self.views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": floats.len() * 4 }));
        let mut accessor = json!({ "bufferView": self.views.len() - 1, "componentType": 5126, "count": count, "type": kind });
        if min_max {
            let lo = floats.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = floats.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            accessor["min"] = json!([lo]);
            accessor["max"] = json!([hi]);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }
}

impl Blob {
    /// Appends `bytes` as one view (4-byte aligned); returns the view's index.
    pub(super) fn bytes_view(&mut self, bytes: &[u8]) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let offset = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        self.views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() }));
        self.views.len() - 1
    }

    /// Appends VEC3 floats with their per-axis bounds (what POSITION accessors must have).
    pub(super) fn vec3_with_bounds(&mut self, floats: &[f32], count: usize) -> usize {
        let k = self.floats(floats, "VEC3", count, false);
        let axis = |c: usize| floats.iter().skip(c).step_by(3).copied();
        let lo: Vec<f32> = (0..3).map(|c| axis(c).fold(f32::INFINITY, f32::min)).collect();
        let hi: Vec<f32> = (0..3).map(|c| axis(c).fold(f32::NEG_INFINITY, f32::max)).collect();
        if count > 0 {
            self.accessors[k]["min"] = json!(lo);
            self.accessors[k]["max"] = json!(hi);
        }
        k
    }

    /// Appends unsigned shorts as one accessor of `kind`.
    pub(super) fn u16s(&mut self, values: &[u16], kind: &str, count: usize) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.bytes_view(&bytes);
        self.accessors.push(json!({ "bufferView": view, "componentType": 5123, "count": count, "type": kind }));
        self.accessors.len() - 1
    }

    /// Appends triangle indices as one SCALAR accessor of unsigned ints.
    pub(super) fn u32s(&mut self, values: &[u32]) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.bytes_view(&bytes);
        self.accessors.push(json!({ "bufferView": view, "componentType": 5125, "count": values.len(), "type": "SCALAR" }));
        self.accessors.len() - 1
    }
}
