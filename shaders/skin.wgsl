// Skinned meshes: morph targets, then linear blend skinning with up to eight influences a
// vertex, on the GPU. The CPU's work per frame is each draw's palette (world_from_mesh per
// bone) and morph weights, read here as rows of four floats: from storage buffers, or, where
// the device has none in vertex shaders (WebGL2), from float textures. `rows.wgsl` variants
// define `frame_row` and `morph_row` and are put where the marker below is.

struct Globals {
    clip_from_world: mat4x4<f32>,
    // xyz: direction towards the light; w unused.
    light_dir: vec4<f32>,
    // xyz: camera position; w unused.
    eye: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(1) @binding(0) var base_texture: texture_2d<f32>;
@group(1) @binding(1) var base_sampler: sampler;

//ROWS

struct VertexIn {
    @builtin(vertex_index) index: u32,
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) color: vec4<f32>,
    // Eight palette indices, two 16-bit halves a word.
    @location(4) joints: vec4<u32>,
    @location(5) weights0: vec4<f32>,
    @location(6) weights1: vec4<f32>,
    // Per draw: first palette row, first morph-weight row, morph targets (top bit: positions
    // only), vertices.
    @location(7) rows: vec4<u32>,
    @location(8) tint: vec4<f32>,
    @location(9) base_color: vec4<f32>,
    // x: alpha cutoff (negative: none).
    @location(10) alpha: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) cutoff: f32,
};

fn bone(first_row: u32, k: u32) -> mat4x4<f32> {
    let r = first_row + 4u * k;
    return mat4x4<f32>(frame_row(r), frame_row(r + 1u), frame_row(r + 2u), frame_row(r + 3u));
}

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var position = v.position;
    var normal = v.normal;
    // The top bit: the targets' rows hold positions alone (no normal row).
    let targets = v.rows.z & 0x7fffffffu;
    let with_normals = (v.rows.z >> 31u) == 0u;
    for (var t = 0u; t < targets; t++) {
        let w = frame_row(v.rows.y + t / 4u)[t % 4u];
        if (w != 0.0) {
            if (with_normals) {
                let row = (t * v.rows.w + v.index) * 2u;
                position += w * morph_row(row).xyz;
                normal += w * morph_row(row + 1u).xyz;
            } else {
                position += w * morph_row(t * v.rows.w + v.index).xyz;
            }
        }
    }
    let p = v.rows.x;
    let j = v.joints;
    var skin = bone(p, j.x & 0xffffu) * v.weights0.x;
    skin += bone(p, j.x >> 16u) * v.weights0.y;
    skin += bone(p, j.y & 0xffffu) * v.weights0.z;
    skin += bone(p, j.y >> 16u) * v.weights0.w;
    if (any(v.weights1 != vec4<f32>(0.0))) {
        skin += bone(p, j.z & 0xffffu) * v.weights1.x;
        skin += bone(p, j.z >> 16u) * v.weights1.y;
        skin += bone(p, j.w & 0xffffu) * v.weights1.z;
        skin += bone(p, j.w >> 16u) * v.weights1.w;
    }
    let world = skin * vec4<f32>(position, 1.0);
    var out: VertexOut;
    out.clip = globals.clip_from_world * world;
    out.normal = (skin * vec4<f32>(normal, 0.0)).xyz;
    out.uv = v.uv;
    out.color = v.color * v.base_color * v.tint;
    out.cutoff = v.alpha.x;
    return out;
}

@fragment
fn fs_main(v: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    // Sampled in uniform control flow; a mesh without a texture has a white one.
    let texel = textureSample(base_texture, base_sampler, v.uv);
    let base = v.color * texel;
    if (v.cutoff >= 0.0 && base.a < v.cutoff) {
        discard;
    }
    // Back faces of double-sided meshes are lit as their front.
    var n = normalize(v.normal);
    if (!front) {
        n = -n;
    }
    let diffuse = max(dot(n, normalize(globals.light_dir.xyz)), 0.0);
    let hemisphere = 0.5 + 0.5 * n.y;
    let shade = 0.30 + 0.30 * hemisphere + 0.55 * diffuse;
    return vec4<f32>(base.rgb * shade, base.a);
}
