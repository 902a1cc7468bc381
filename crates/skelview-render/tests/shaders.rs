//! Every WGSL shader parses and validates with naga (no GPU needed).

use skelview_render::gamma::GAMMA_WGSL;
use skelview_render::renderer::{LINES_WGSL, MESH_WGSL};
use skelview_render::skins::skin_wgsl;

#[test]
fn shaders_validate() {
    let (storage, texture) = (skin_wgsl(true), skin_wgsl(false));
    for (name, source) in [
        ("mesh.wgsl", MESH_WGSL),
        ("lines.wgsl", LINES_WGSL),
        ("gamma.wgsl", GAMMA_WGSL),
        ("skin.wgsl with storage rows", storage.as_str()),
        ("skin.wgsl with texture rows", texture.as_str()),
    ] {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let entry_points: Vec<&str> = module.entry_points.iter().map(|e| e.name.as_str()).collect();
        assert!(entry_points.contains(&"vs_main") && entry_points.contains(&"fs_main"), "{name}: {entry_points:?}");
    }
    // WebGL2 has no storage buffers in vertex shaders: the texture variant must not use any.
    assert!(!texture.contains("var<storage") && storage.contains("var<storage"));
    // The rows' texture width in the shader is the renderer's.
    assert!(texture.contains("2048u"));
}

/// The texture variant also translates to GLSL ES 3.0 (what WebGL2 runs), with the vertex
/// shader's texel fetches.
#[test]
fn the_skin_shader_for_webgl2_translates_to_glsl_es() {
    let source = skin_wgsl(false);
    let module = naga::front::wgsl::parse_str(&source).unwrap();
    let info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty()).validate(&module).unwrap();
    let options =
        naga::back::glsl::Options { version: naga::back::glsl::Version::Embedded { version: 300, is_webgl: true }, ..Default::default() };
    let pipeline =
        naga::back::glsl::PipelineOptions { shader_stage: naga::ShaderStage::Vertex, entry_point: "vs_main".into(), multiview: None };
    let mut out = String::new();
    let mut writer =
        naga::back::glsl::Writer::new(&mut out, &module, &info, &options, &pipeline, naga::proc::BoundsCheckPolicies::default()).unwrap();
    writer.write().unwrap();
    assert!(out.contains("texelFetch"), "{out}");
}
