// Copies a linear (sRGB-decoded) texture into a non-sRGB one, encoding sRGB by hand: the
// gamma-space picture egui blends with, on devices that cannot view one texture in both
// formats (WebGL2). Pixel for pixel, no filtering.

@group(0) @binding(0) var source: texture_2d<f32>;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
};

// One triangle that covers the target.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

fn encode_srgb(linear: vec3<f32>) -> vec3<f32> {
    let low = linear * 12.92;
    let high = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, linear <= vec3<f32>(0.0031308));
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let texel = textureLoad(source, vec2<i32>(floor(in.position.xy)), 0);
    return vec4<f32>(encode_srgb(clamp(texel.rgb, vec3<f32>(0.0), vec3<f32>(1.0))), texel.a);
}
