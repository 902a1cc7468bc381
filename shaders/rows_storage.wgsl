// Rows of the skinned-mesh shader from storage buffers (native, WebGPU).
@group(1) @binding(2) var<storage, read> morph_rows: array<vec4<f32>>;
@group(2) @binding(0) var<storage, read> frame_rows: array<vec4<f32>>;

fn morph_row(i: u32) -> vec4<f32> {
    return morph_rows[i];
}

fn frame_row(i: u32) -> vec4<f32> {
    return frame_rows[i];
}
