// Instanced solids: bones (tapered octahedra) and joints (spheres), lit by a head light and
// a sky/ground hemisphere so they read on dark and light backgrounds.

struct Globals {
    clip_from_world: mat4x4<f32>,
    // xyz: direction towards the light; w unused.
    light_dir: vec4<f32>,
    // xyz: camera position; w unused.
    eye: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // world_from_model, one column per attribute.
    @location(2) m0: vec4<f32>,
    @location(3) m1: vec4<f32>,
    @location(4) m2: vec4<f32>,
    @location(5) m3: vec4<f32>,
    @location(6) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec4<f32>,
    // Model-space position, for the shadow's radial fade.
    @location(2) local: vec3<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    let world_from_model = mat4x4<f32>(v.m0, v.m1, v.m2, v.m3);
    let world = world_from_model * vec4<f32>(v.position, 1.0);
    // Bones scale unevenly: the inverse-transpose keeps normals perpendicular to faces.
    let m3 = mat3x3<f32>(v.m0.xyz, v.m1.xyz, v.m2.xyz);
    let det = determinant(m3);
    var normal = v.normal;
    if (abs(det) > 1e-12) {
        let cof = mat3x3<f32>(cross(m3[1], m3[2]), cross(m3[2], m3[0]), cross(m3[0], m3[1]));
        normal = cof * v.normal;
    }
    var out: VertexOut;
    out.clip = globals.clip_from_world * world;
    out.normal = normal;
    out.color = v.color;
    out.local = v.position;
    return out;
}

@fragment
fn fs_main(v: VertexOut) -> @location(0) vec4<f32> {
    let n = normalize(v.normal);
    let diffuse = max(dot(n, normalize(globals.light_dir.xyz)), 0.0);
    let hemisphere = 0.5 + 0.5 * n.y;
    let shade = 0.30 + 0.30 * hemisphere + 0.55 * diffuse;
    return vec4<f32>(v.color.rgb * shade, v.color.a);
}

// The soft blob shadow: a unit disc whose alpha falls off towards its rim.
@fragment
fn fs_shadow(v: VertexOut) -> @location(0) vec4<f32> {
    let r = length(v.local.xz);
    return vec4<f32>(v.color.rgb, v.color.a * (1.0 - smoothstep(0.15, 1.0, r)));
}
