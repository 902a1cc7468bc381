// Rows of the skinned-mesh shader from float textures, 2048 rows a line: for devices without
// storage buffers in vertex shaders (WebGL2).
@group(1) @binding(2) var morph_rows: texture_2d<f32>;
@group(2) @binding(0) var frame_rows: texture_2d<f32>;

fn morph_row(i: u32) -> vec4<f32> {
    return textureLoad(morph_rows, vec2<u32>(i % 2048u, i / 2048u), 0);
}

fn frame_row(i: u32) -> vec4<f32> {
    return textureLoad(frame_rows, vec2<u32>(i % 2048u, i / 2048u), 0);
}
