//! Long-lived GPU pipelines and buffers; each frame uploads instances and draws them.
//!
//! Points of interest:
//! 1. Three instanced draws (shadows, bones, joints) and one line list, whatever the number
//!    of bones; skinned meshes one indexed draw each, skinned on the GPU.
//! 2. Instance buffers grow by doubling and are reused: no allocation per frame once warm.
//! 3. The same code renders into the window's viewport texture and into PNGs.

use super::gamma::GammaCopy;
use wgpu::util::DeviceExt;

use super::meshes;
use skelview_draw::{DrawData, Globals, LineVertex, MeshInstance, MeshVertex};

pub use super::depth::DEPTH_FORMAT;

struct Mesh {
    vertices: wgpu::Buffer,
    count: u32,
}

/// A vertex buffer that grows to fit.
struct Growable {
    buffer: wgpu::Buffer,
    capacity: u64,
    label: &'static str,
    len: u32,
}

impl Growable {
    fn new(device: &wgpu::Device, label: &'static str) -> Self {
        let capacity = 4096;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: capacity,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self { buffer, capacity, label, len: 0 }
    }

    fn upload<T: bytemuck::Pod>(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, items: &[T]) {
        let bytes: &[u8] = bytemuck::cast_slice(items);
        if bytes.len() as u64 > self.capacity {
            self.capacity = (bytes.len() as u64).next_power_of_two();
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: self.capacity,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        self.len = items.len() as u32;
    }
}

/// Pipelines and buffers for one colour format and sample count.
pub struct SkeletonRenderer {
    solid: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    lines: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    bone_mesh: Mesh,
    joint_mesh: Mesh,
    disc_mesh: Mesh,
    bones: Growable,
    joints: Growable,
    shadows: Growable,
    line_vertices: Growable,
    skins: super::skins::SkinRenderer,
    /// Format of the colour target.
    pub color_format: wgpu::TextureFormat,
    /// MSAA samples of the colour and depth targets.
    pub sample_count: u32,
    /// Set on devices that cannot view a texture in a second format: targets then keep a
    /// gamma-space copy made by a pass of its own.
    gamma_copy: Option<GammaCopy>,
}

/// WGSL of the solid meshes.
pub const MESH_WGSL: &str = include_str!("../../../shaders/mesh.wgsl");
/// WGSL of the lines.
pub const LINES_WGSL: &str = include_str!("../../../shaders/lines.wgsl");

impl SkeletonRenderer {
    /// Creates pipelines for targets of `color_format` with `sample_count` samples.
    pub fn new(device: &wgpu::Device, color_format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let (mesh_shader, line_shader) = create_shaders(device);
        let bind_layout = create_bind_layout(device);
        let (globals, bind_group) = create_globals(device, &bind_layout);
        let Pipelines { solid, shadow, lines } =
            create_pipelines(device, &bind_layout, (&mesh_shader, &line_shader), color_format, sample_count);
        Self {
            solid,
            shadow,
            lines,
            globals,
            bind_group,
            bone_mesh: create_mesh(device, "bone mesh", meshes::bone()),
            joint_mesh: create_mesh(device, "joint mesh", meshes::sphere()),
            disc_mesh: create_mesh(device, "disc mesh", meshes::disc()),
            bones: Growable::new(device, "bone instances"),
            joints: Growable::new(device, "joint instances"),
            shadows: Growable::new(device, "shadow instances"),
            line_vertices: Growable::new(device, "line vertices"),
            skins: super::skins::SkinRenderer::new(device, &bind_layout, color_format, sample_count),
            color_format,
            sample_count,
            gamma_copy: None,
        }
    }

    /// Makes targets' `gamma_view` a copy written by a pass of its own, for devices without
    /// `DownlevelFlags::VIEW_FORMATS` (WebGL2), where it cannot be a second view.
    pub fn with_gamma_copy(mut self, device: &wgpu::Device) -> Self {
        self.gamma_copy = Some(GammaCopy::new(device, self.color_format.remove_srgb_suffix()));
        self
    }

    /// Uploads this frame's uniforms and draw data.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, globals: &Globals, draw: &DrawData) {
        queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(globals));
        self.bones.upload(device, queue, &draw.bones);
        self.joints.upload(device, queue, &draw.joints);
        self.shadows.upload(device, queue, &draw.shadows);
        self.line_vertices.upload(device, queue, &draw.lines);
        self.skins.prepare(device, queue, &draw.skins);
    }

    /// Records the draws (after `prepare`) into a pass on a target of this format.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(0, &self.bind_group, &[]);
        if self.line_vertices.len > 0 {
            pass.set_pipeline(&self.lines);
            pass.set_vertex_buffer(0, self.line_vertices.buffer.slice(..));
            pass.draw(0..self.line_vertices.len, 0..1);
        }
        // Opaque meshes before the bones; translucent ones (a mesh under its bones) after, so
        // that the bones show through them.
        self.instanced(pass, &self.shadow, &self.disc_mesh, &self.shadows);
        self.skins.draw(pass, false);
        self.instanced(pass, &self.solid, &self.bone_mesh, &self.bones);
        self.instanced(pass, &self.solid, &self.joint_mesh, &self.joints);
        self.skins.draw(pass, true);
    }

    fn instanced(&self, pass: &mut wgpu::RenderPass<'_>, pipeline: &wgpu::RenderPipeline, mesh: &Mesh, instances: &Growable) {
        if instances.len == 0 {
            return;
        }
        pass.set_pipeline(pipeline);
        pass.set_vertex_buffer(0, mesh.vertices.slice(..));
        pass.set_vertex_buffer(1, instances.buffer.slice(..));
        pass.draw(0..mesh.count, 0..instances.len);
    }
}

/// The three pipelines of a renderer, built together because they share one layout.
struct Pipelines {
    solid: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    lines: wgpu::RenderPipeline,
}

/// What sets one pipeline apart; everything else (layout, depth test, blending) is shared so
/// the three draws compose in one pass.
struct PipelineSpec<'a> {
    label: &'a str,
    shader: &'a wgpu::ShaderModule,
    fs: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    topology: wgpu::PrimitiveTopology,
    depth_write: bool,
}

/// Compiles the mesh and line shaders once per renderer: every pipeline reuses them.
fn create_shaders(device: &wgpu::Device) -> (wgpu::ShaderModule, wgpu::ShaderModule) {
    let mesh_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("mesh.wgsl"),
        source: wgpu::ShaderSource::Wgsl(MESH_WGSL.into()),
    });
    let line_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("lines.wgsl"),
        source: wgpu::ShaderSource::Wgsl(LINES_WGSL.into()),
    });
    (mesh_shader, line_shader)
}

/// The single uniform binding both shaders read, sized to `Globals` so a mismatch with the
/// WGSL struct fails at creation rather than at draw time.
fn create_bind_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let layout_entry = wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<Globals>() as u64),
        },
        count: None,
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some("globals"), entries: &[layout_entry] })
}

/// The uniform buffer and its bind group, made once and rewritten each frame by `prepare`.
fn create_globals(device: &wgpu::Device, bind_layout: &wgpu::BindGroupLayout) -> (wgpu::Buffer, wgpu::BindGroup) {
    let globals = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("globals"),
        size: std::mem::size_of::<Globals>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("globals"),
        layout: bind_layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
    });
    (globals, bind_group)
}

/// The solid, shadow and line pipelines: solids and shadows share the mesh shader and its
/// instanced vertex layout, lines have their own.
fn create_pipelines(
    device: &wgpu::Device,
    bind_layout: &wgpu::BindGroupLayout,
    (mesh_shader, line_shader): (&wgpu::ShaderModule, &wgpu::ShaderModule),
    color_format: wgpu::TextureFormat,
    sample_count: u32,
) -> Pipelines {
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("skeleton"),
        bind_group_layouts: &[Some(bind_layout)],
        immediate_size: 0,
    });
    let mesh_layouts = [
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<MeshVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<MeshInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4],
        }),
    ];
    let line_layouts = [Some(wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<LineVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4],
    })];
    let pipeline = |spec: PipelineSpec| create_pipeline(device, &layout, color_format, sample_count, spec);
    let triangles = wgpu::PrimitiveTopology::TriangleList;
    Pipelines {
        solid: pipeline(PipelineSpec {
            label: "solids",
            shader: mesh_shader,
            fs: "fs_main",
            buffers: &mesh_layouts,
            topology: triangles,
            depth_write: true,
        }),
        shadow: pipeline(PipelineSpec {
            label: "shadow",
            shader: mesh_shader,
            fs: "fs_shadow",
            buffers: &mesh_layouts,
            topology: triangles,
            depth_write: false,
        }),
        lines: pipeline(PipelineSpec {
            label: "lines",
            shader: line_shader,
            fs: "fs_main",
            buffers: &line_layouts,
            topology: wgpu::PrimitiveTopology::LineList,
            depth_write: true,
        }),
    }
}

/// One pipeline of the shared shape: alpha blending and a less-or-equal depth test, so
/// shadows (which do not write depth) sit under the solids drawn after them.
fn create_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
    spec: PipelineSpec,
) -> wgpu::RenderPipeline {
    let blend_target = [Some(wgpu::ColorTargetState {
        format: color_format,
        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: spec.shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: spec.buffers,
        },
        primitive: wgpu::PrimitiveState { topology: spec.topology, ..Default::default() },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(spec.depth_write),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: sample_count, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: spec.shader,
            entry_point: Some(spec.fs),
            compilation_options: Default::default(),
            targets: &blend_target,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A static mesh uploaded once: its vertices never change, so it needs no `COPY_DST`.
fn create_mesh(device: &wgpu::Device, label: &str, vertices: Vec<MeshVertex>) -> Mesh {
    Mesh {
        vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(&vertices),
            usage: wgpu::BufferUsages::VERTEX,
        }),
        count: vertices.len() as u32,
    }
}

/// Colour (multisampled when asked), resolve and depth textures of one size.
pub struct RenderTarget {
    /// Width and height in pixels.
    pub size: (u32, u32),
    msaa: Option<wgpu::TextureView>,
    /// The single-sample colour texture (what is shown or read back).
    pub color: wgpu::Texture,
    /// View of `color` that rendering writes through (sRGB-encoding).
    pub color_view: wgpu::TextureView,
    /// The same pixels viewed without sRGB decoding, for UIs that blend in gamma space (egui).
    pub gamma_view: wgpu::TextureView,
    depth: wgpu::TextureView,
    /// Where the gamma view is a copy: the copy's source binding.
    gamma_source: Option<wgpu::BindGroup>,
}

/// `size` scaled down, aspect kept, so neither side passes `max_side` pixels (the device's
/// largest texture): a window wider than that (a browser page at 9,360 pixels was seen)
/// is drawn at the largest size the device takes and stretched, not refused.
pub fn fit_texture_size(size: (u32, u32), max_side: u32) -> (u32, u32) {
    let (w, h) = (size.0.max(1), size.1.max(1));
    let max_side = max_side.max(1);
    let longest = w.max(h);
    if longest <= max_side {
        return (w, h);
    }
    let scale = |side: u32| ((u64::from(side) * u64::from(max_side) / u64::from(longest)) as u32).clamp(1, max_side);
    (scale(w), scale(h))
}

impl RenderTarget {
    /// The size a target for `size` pixels gets on `device` ([`fit_texture_size`]).
    pub fn fitting(device: &wgpu::Device, size: (u32, u32)) -> (u32, u32) {
        fit_texture_size(size, device.limits().max_texture_dimension_2d)
    }

    /// Allocates a target of `size` for `renderer`'s format and sample count; `size` must
    /// fit the device ([`RenderTarget::fitting`]).
    pub fn new(device: &wgpu::Device, renderer: &SkeletonRenderer, size: (u32, u32)) -> Self {
        let extent = wgpu::Extent3d { width: size.0.max(1), height: size.1.max(1), depth_or_array_layers: 1 };
        let gamma_format = renderer.color_format.remove_srgb_suffix();
        let view_formats = [gamma_format];
        let texture = |label: &str, format: wgpu::TextureFormat, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: if format == renderer.color_format && samples == 1 && format != gamma_format && renderer.gamma_copy.is_none()
                {
                    &view_formats
                } else {
                    &[]
                },
            })
        };
        let color = texture(
            "viewport colour",
            renderer.color_format,
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC,
        );
        let msaa = (renderer.sample_count > 1).then(|| {
            texture("viewport msaa", renderer.color_format, renderer.sample_count, wgpu::TextureUsages::RENDER_ATTACHMENT)
                .create_view(&Default::default())
        });
        let depth = texture("viewport depth", DEPTH_FORMAT, renderer.sample_count, wgpu::TextureUsages::RENDER_ATTACHMENT)
            .create_view(&Default::default());
        let color_view = color.create_view(&Default::default());
        let (gamma_view, gamma_source) = match &renderer.gamma_copy {
            None => (color.create_view(&wgpu::TextureViewDescriptor { format: Some(gamma_format), ..Default::default() }), None),
            Some(copy) => {
                let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
                let view = texture("viewport gamma copy", copy.format, 1, usage).create_view(&Default::default());
                (view, Some(copy.bind(device, &color_view)))
            }
        };
        Self { size: (extent.width, extent.height), msaa, color, color_view, gamma_view, depth, gamma_source }
    }

    /// Clears to `background` and draws the prepared frame.
    pub fn render(&self, encoder: &mut wgpu::CommandEncoder, renderer: &SkeletonRenderer, background: [f64; 4]) {
        let (view, resolve) = match &self.msaa {
            Some(msaa) => (msaa, Some(&self.color_view)),
            None => (&self.color_view, None),
        };
        let [r, g, b, a] = background;
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("skeleton"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        renderer.draw(&mut pass);
        drop(pass);
        if let (Some(copy), Some(source)) = (&renderer.gamma_copy, &self.gamma_source) {
            copy.copy(encoder, source, &self.gamma_view);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fit_texture_size;

    #[test]
    fn sizes_past_the_device_limit_shrink_keeping_their_aspect() {
        assert_eq!(fit_texture_size((640, 684), 8192), (640, 684));
        assert_eq!(fit_texture_size((9360, 684), 8192), (8192, 598));
        assert_eq!(fit_texture_size((100, 20000), 8192), (40, 8192));
        assert_eq!(fit_texture_size((0, 0), 8192), (1, 1));
        assert_eq!(fit_texture_size((100_000, 1), 8192), (8192, 1));
    }
}
