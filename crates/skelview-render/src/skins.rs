//! Skinned meshes on the GPU: each geometry's buffers, texture and morph rows uploaded once
//! (kept while the scene holds the geometry), and per frame one upload of the palettes and
//! morph weights as rows and one instance per draw. Rows come from storage buffers, or from
//! float textures on devices without storage buffers in vertex shaders (WebGL2).

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use bytemuck::Zeroable;
use wgpu::util::DeviceExt;

use skelview_draw::{SkinDraws, SkinGeometry, SkinInstance, SkinVertex};

/// WGSL of the skinned meshes (without its rows).
pub const SKIN_WGSL: &str = include_str!("../../../shaders/skin.wgsl");
/// Rows from storage buffers.
pub const ROWS_STORAGE_WGSL: &str = include_str!("../../../shaders/rows_storage.wgsl");
/// Rows from float textures.
pub const ROWS_TEXTURE_WGSL: &str = include_str!("../../../shaders/rows_texture.wgsl");

/// Rows a line of a row texture (the shader's 2048): WebGL2 guarantees textures that wide.
const ROW_TEXTURE_WIDTH: u32 = 2048;

/// The skinned-mesh shader with its rows from storage buffers or textures.
pub fn skin_wgsl(storage: bool) -> String {
    SKIN_WGSL.replace("//ROWS", if storage { ROWS_STORAGE_WGSL } else { ROWS_TEXTURE_WGSL })
}

/// Rows of four floats on the GPU: a storage buffer, or a float texture.
enum Rows {
    Buffer(wgpu::Buffer),
    Texture(wgpu::Texture, wgpu::TextureView),
}

impl Rows {
    /// Room for at least `n` rows holding `data` (which may be shorter).
    fn new(device: &wgpu::Device, storage: bool, n: usize, label: &str) -> Self {
        let n = n.max(1);
        if storage {
            return Self::Buffer(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (n * 16) as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        let height = (n as u32).div_ceil(ROW_TEXTURE_WIDTH);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: ROW_TEXTURE_WIDTH, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self::Texture(texture, view)
    }

    /// Rows it holds.
    fn capacity(&self) -> usize {
        match self {
            Self::Buffer(b) => (b.size() / 16) as usize,
            Self::Texture(t, _) => (t.width() * t.height()) as usize,
        }
    }

    fn write(&self, queue: &wgpu::Queue, rows: &[[f32; 4]]) {
        if rows.is_empty() {
            return;
        }
        match self {
            Self::Buffer(b) => queue.write_buffer(b, 0, bytemuck::cast_slice(rows)),
            Self::Texture(t, _) => {
                // Whole lines: the last one padded.
                let lines = (rows.len() as u32).div_ceil(ROW_TEXTURE_WIDTH);
                let mut padded = rows.to_vec();
                padded.resize((lines * ROW_TEXTURE_WIDTH) as usize, [0.0; 4]);
                queue.write_texture(
                    t.as_image_copy(),
                    bytemuck::cast_slice(&padded),
                    wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(ROW_TEXTURE_WIDTH * 16), rows_per_image: Some(lines) },
                    wgpu::Extent3d { width: ROW_TEXTURE_WIDTH, height: lines, depth_or_array_layers: 1 },
                );
            }
        }
    }

    fn binding(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer(b) => b.as_entire_binding(),
            Self::Texture(_, v) => wgpu::BindingResource::TextureView(v),
        }
    }
}

/// A geometry's GPU side.
struct GpuGeometry {
    alive: Weak<SkinGeometry>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    bind_group: wgpu::BindGroup,
    /// Its morph rows fitted the device (else it is drawn without its targets).
    morphs: bool,
}

/// Whether `n` rows fit one binding on `device` (a storage buffer, or a texture's lines).
fn rows_fit(device: &wgpu::Device, storage: bool, n: usize) -> bool {
    let limits = device.limits();
    if storage {
        let bytes = n as u64 * 16;
        bytes <= limits.max_storage_buffer_binding_size && bytes <= limits.max_buffer_size
    } else {
        n.div_ceil(ROW_TEXTURE_WIDTH as usize) <= limits.max_texture_dimension_2d as usize
    }
}

/// What one prepared draw needs at draw time.
#[derive(Clone, Copy)]
struct Prepared {
    id: u64,
    instance: u32,
    translucent: bool,
    double_sided: bool,
}

/// Pipelines and resources of the skinned meshes for one colour format and sample count.
pub struct SkinRenderer {
    storage: bool,
    /// By (translucent, double-sided).
    pipelines: [wgpu::RenderPipeline; 4],
    geometry_layout: wgpu::BindGroupLayout,
    frame_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    geometries: HashMap<u64, GpuGeometry>,
    frame_rows: Rows,
    frame_group: wgpu::BindGroup,
    instances: wgpu::Buffer,
    prepared: Vec<Prepared>,
}

/// A bind group entry of a row store, visible to the vertex stage.
fn rows_entry(binding: u32, storage: bool) -> wgpu::BindGroupLayoutEntry {
    let ty = if storage {
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: None,
        }
    } else {
        wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        }
    };
    wgpu::BindGroupLayoutEntry { binding, visibility: wgpu::ShaderStages::VERTEX, ty, count: None }
}

impl SkinRenderer {
    /// True when `device` can read storage buffers in vertex shaders (not WebGL2).
    pub fn storage_rows(device: &wgpu::Device) -> bool {
        device.limits().max_storage_buffers_per_shader_stage >= 2
    }

    /// Pipelines for targets of `color_format` with `sample_count` samples; `globals` is the
    /// layout of group 0 (the renderer's uniforms).
    pub fn new(device: &wgpu::Device, globals: &wgpu::BindGroupLayout, color_format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let storage = Self::storage_rows(device);
        let texture_entry = wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let sampler_entry = wgpu::BindGroupLayoutEntry {
            binding: 1,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        };
        let geometry_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("skin geometry"),
            entries: &[texture_entry, sampler_entry, rows_entry(2, storage)],
        });
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("skin frame rows"),
            entries: &[rows_entry(0, storage)],
        });
        let pipelines = create_pipelines(device, &[globals, &geometry_layout, &frame_layout], storage, color_format, sample_count);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("base colour"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let frame_rows = Rows::new(device, storage, 1024, "skin frame rows");
        let frame_group = frame_bind_group(device, &frame_layout, &frame_rows);
        let instances = instance_buffer(device, 64);
        Self {
            storage,
            pipelines,
            geometry_layout,
            frame_layout,
            sampler,
            geometries: HashMap::new(),
            frame_rows,
            frame_group,
            instances,
            prepared: Vec::new(),
        }
    }

    /// Uploads new geometries, forgets those the scene dropped, and writes this frame's rows
    /// and instances.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, skins: &SkinDraws) {
        self.geometries.retain(|_, g| g.alive.strong_count() > 0);
        for d in &skins.draws {
            if !self.geometries.contains_key(&d.geometry.id) {
                let g = self.upload(device, queue, &d.geometry);
                self.geometries.insert(d.geometry.id, g);
            }
        }
        if skins.rows.len() > self.frame_rows.capacity() {
            self.frame_rows = Rows::new(device, self.storage, skins.rows.len().next_power_of_two(), "skin frame rows");
            self.frame_group = frame_bind_group(device, &self.frame_layout, &self.frame_rows);
        }
        self.frame_rows.write(queue, &skins.rows);
        let instances: Vec<SkinInstance> = skins
            .draws
            .iter()
            .map(|d| {
                let mut i = d.instance;
                if self.geometries.get(&d.geometry.id).is_some_and(|g| !g.morphs) {
                    i.rows[2] = 0;
                }
                i
            })
            .collect();
        let bytes: &[u8] = bytemuck::cast_slice(&instances);
        if bytes.len() as u64 > self.instances.size() {
            self.instances = instance_buffer(device, instances.len().next_power_of_two());
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.instances, 0, bytes);
        }
        self.prepared = skins
            .draws
            .iter()
            .enumerate()
            .map(|(k, d)| Prepared {
                id: d.geometry.id,
                instance: k as u32,
                translucent: d.translucent,
                double_sided: d.geometry.double_sided,
            })
            .collect();
    }

    /// Records the opaque (`translucent` false) or the translucent draws.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, translucent: bool) {
        let mut bound = false;
        for p in self.prepared.iter().filter(|p| p.translucent == translucent) {
            let Some(g) = self.geometries.get(&p.id) else { continue };
            if !bound {
                pass.set_bind_group(2, &self.frame_group, &[]);
                pass.set_vertex_buffer(1, self.instances.slice(..));
                bound = true;
            }
            pass.set_pipeline(&self.pipelines[usize::from(translucent) * 2 + usize::from(p.double_sided)]);
            pass.set_bind_group(1, &g.bind_group, &[]);
            pass.set_vertex_buffer(0, g.vertices.slice(..));
            pass.set_index_buffer(g.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..g.index_count, 0, p.instance..p.instance + 1);
        }
    }

    /// Buffers, texture, morph rows and bind group of one geometry.
    fn upload(&self, device: &wgpu::Device, queue: &wgpu::Queue, geometry: &Arc<SkinGeometry>) -> GpuGeometry {
        let init = |label: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        // An empty buffer cannot be bound: one zero index or vertex at least.
        let vertices: &[SkinVertex] = if geometry.vertices.is_empty() { &[SkinVertex::zeroed()] } else { &geometry.vertices };
        let indices: &[u32] = if geometry.indices.is_empty() { &[0] } else { &geometry.indices };
        let vertex_buffer = init("skin vertices", bytemuck::cast_slice(vertices), wgpu::BufferUsages::VERTEX);
        let index_buffer = init("skin indices", bytemuck::cast_slice(indices), wgpu::BufferUsages::INDEX);
        let (width, height, pixels) = match &geometry.texture {
            // A texture larger than the device takes is left white (WebGL2 may stop at 2048).
            Some(t)
                if t.width > 0
                    && t.height > 0
                    && t.width.max(t.height) <= device.limits().max_texture_dimension_2d
                    && t.rgba8.len() == (t.width * t.height * 4) as usize =>
            {
                (t.width, t.height, &t.rgba8[..])
            }
            _ => (1, 1, &[255u8, 255, 255, 255][..]),
        };
        let texture = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("base colour"),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8UnormSrgb,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            pixels,
        );
        let view = texture.create_view(&Default::default());
        // A body's hundreds of pose blend shapes may not fit a small device (WebGL2's 2048-line
        // textures): it is then drawn unmorphed rather than not at all.
        let morphs = rows_fit(device, self.storage, geometry.morph_rows.len());
        let morph = Rows::new(device, self.storage, if morphs { geometry.morph_rows.len() } else { 1 }, "morph rows");
        if morphs {
            morph.write(queue, &geometry.morph_rows);
        }
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skin geometry"),
            layout: &self.geometry_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&self.sampler) },
                wgpu::BindGroupEntry { binding: 2, resource: morph.binding() },
            ],
        });
        let index_count = if geometry.vertices.is_empty() { 0 } else { geometry.indices.len() as u32 };
        GpuGeometry { alive: Arc::downgrade(geometry), vertices: vertex_buffer, indices: index_buffer, index_count, bind_group, morphs }
    }
}

fn instance_buffer(device: &wgpu::Device, n: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin instances"),
        size: (n.max(1) * std::mem::size_of::<SkinInstance>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn frame_bind_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, rows: &Rows) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("skin frame rows"),
        layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: rows.binding() }],
    })
}

/// The four pipelines: opaque or translucent (no depth writes), culling back faces or not.
fn create_pipelines(
    device: &wgpu::Device,
    layouts: &[&wgpu::BindGroupLayout; 3],
    storage: bool,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
) -> [wgpu::RenderPipeline; 4] {
    let source = skin_wgsl(storage);
    let shader = device
        .create_shader_module(wgpu::ShaderModuleDescriptor { label: Some("skin.wgsl"), source: wgpu::ShaderSource::Wgsl(source.into()) });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("skins"),
        bind_group_layouts: &[Some(layouts[0]), Some(layouts[1]), Some(layouts[2])],
        immediate_size: 0,
    });
    let buffers = [
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x4, 4 => Uint32x4, 5 => Float32x4, 6 => Float32x4],
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![7 => Uint32x4, 8 => Float32x4, 9 => Float32x4, 10 => Float32x4],
        }),
    ];
    let pipeline = |translucent: bool, double_sided: bool| {
        let targets = [Some(wgpu::ColorTargetState {
            format: color_format,
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            write_mask: wgpu::ColorWrites::ALL,
        })];
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("skins"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: wgpu::PrimitiveState { cull_mode: (!double_sided).then_some(wgpu::Face::Back), ..Default::default() },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: super::depth::DEPTH_FORMAT,
                depth_write_enabled: Some(!translucent),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState { count: sample_count, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    };
    [pipeline(false, false), pipeline(false, true), pipeline(true, false), pipeline(true, true)]
}
