//! Every WGSL shader parses and validates with naga (no GPU needed).

use skelview_render::gamma::GAMMA_WGSL;
use skelview_render::renderer::{LINES_WGSL, MESH_WGSL};

#[test]
fn shaders_validate() {
    for (name, source) in [("mesh.wgsl", MESH_WGSL), ("lines.wgsl", LINES_WGSL), ("gamma.wgsl", GAMMA_WGSL)] {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let entry_points: Vec<&str> = module.entry_points.iter().map(|e| e.name.as_str()).collect();
        assert!(entry_points.contains(&"vs_main") && entry_points.contains(&"fs_main"), "{name}: {entry_points:?}");
    }
}
