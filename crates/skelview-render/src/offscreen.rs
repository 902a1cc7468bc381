//! Rendering without a window: a headless device, read-back to RGBA, PNG output.

use glam::Vec3;
use thiserror::Error;

use super::renderer::{RenderTarget, SkeletonRenderer};
use skelview_draw::{DrawData, Globals, OrbitCamera};

/// Failures of headless rendering.
#[derive(Debug, Error)]
pub enum RenderError {
    /// No GPU or software adapter could be found.
    #[error("no graphics adapter found ({0}); on Debian/Ubuntu install mesa-vulkan-drivers for a software Vulkan adapter")]
    NoAdapter(String),
    /// The adapter refused to create a device.
    #[error("cannot create a graphics device: {0}")]
    Device(String),
    /// Reading the image back failed.
    #[error("cannot read the rendered image back: {0}")]
    Readback(String),
}

/// A device and queue for offscreen work.
pub struct Gpu {
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// Adapter name and backend, for messages.
    pub adapter: String,
    /// The device can view a texture in a second format (not so on OpenGL/WebGL2): render
    /// targets then need no copy for their gamma-space view.
    pub view_formats: bool,
    /// Adapters tried first that gave no device, with why (empty when the first did).
    pub fell_back_from: Vec<String>,
}

/// Opens the default adapter (a real GPU, else a software one) without any window.
///
/// When that adapter gives no device (DX12 under Wine: "Parent device is lost"), every other
/// adapter is tried, Vulkan first, then Metal, DX12 and GL, before giving up; [`Gpu`] says
/// which one is used and which failed.
pub fn headless() -> Result<Gpu, RenderError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let preferred = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        ..Default::default()
    }));
    let mut failed = Vec::new();
    let no_adapter = match preferred {
        Ok(adapter) => match open(&adapter, failed.clone()) {
            Ok(gpu) => return Ok(gpu),
            Err(why) => {
                failed.push(why.to_string());
                None
            }
        },
        Err(e) => Some(e.to_string()),
    };
    // The others, by backend: the one that failed is not tried again.
    let mut others = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    others.sort_by_key(|a| backend_rank(a.get_info().backend));
    for adapter in others {
        let info = adapter.get_info();
        if failed.iter().any(|f: &String| f.starts_with(&describe(&info))) {
            continue;
        }
        match open(&adapter, failed.clone()) {
            Ok(gpu) => return Ok(gpu),
            Err(why) => failed.push(why.to_string()),
        }
    }
    match (failed.is_empty(), no_adapter) {
        (true, Some(e)) => Err(RenderError::NoAdapter(e)),
        (true, None) => Err(RenderError::NoAdapter("none of Vulkan, Metal, DX12 or GL".into())),
        (false, _) => Err(RenderError::Device(format!("no adapter gave a device: {}", failed.join("; ")))),
    }
}

/// `NAME (BACKEND)`.
fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?})", info.name, info.backend)
}

/// The order other backends are tried in.
fn backend_rank(b: wgpu::Backend) -> u8 {
    match b {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal => 1,
        wgpu::Backend::Dx12 => 2,
        wgpu::Backend::Gl => 3,
        _ => 4,
    }
}

/// An adapter that gave no device, and why.
#[derive(Debug, Error)]
#[error("{adapter}: {reason}")]
struct NoDevice {
    /// `NAME (BACKEND)`.
    adapter: String,
    /// What it said.
    reason: String,
}

/// A device on `adapter`, or why not.
fn open(adapter: &wgpu::Adapter, fell_back_from: Vec<String>) -> Result<Gpu, NoDevice> {
    let info = adapter.get_info();
    // A backend named in SKELVIEW_REFUSE_BACKEND gives no device: the fallback, tested on
    // machines whose every backend works.
    let refused = std::env::var("SKELVIEW_REFUSE_BACKEND").is_ok_and(|b| b.eq_ignore_ascii_case(&format!("{:?}", info.backend)));
    if refused {
        return Err(NoDevice { adapter: describe(&info), reason: "refused (SKELVIEW_REFUSE_BACKEND)".into() });
    }
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("skelview headless"),
        required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
        ..Default::default()
    }))
    .map_err(|e| NoDevice { adapter: describe(&info), reason: e.to_string() })?;
    let view_formats = adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS);
    Ok(Gpu { device, queue, adapter: describe(&info), view_formats, fell_back_from })
}

/// Uniforms for a camera: a head light slightly above the eye.
pub fn globals(camera: &OrbitCamera, aspect: f32) -> Globals {
    let light = (camera.backward() + Vec3::Y * 0.6).normalize();
    Globals {
        clip_from_world: camera.clip_from_world(aspect).to_cols_array_2d(),
        light_dir: light.extend(0.0).to_array(),
        eye: camera.eye().extend(1.0).to_array(),
    }
}

/// Renders `draw` into `target` and returns its pixels as tightly packed RGBA8 rows.
pub fn render_rgba(
    gpu: &Gpu,
    renderer: &mut SkeletonRenderer,
    target: &RenderTarget,
    globals: &Globals,
    draw: &DrawData,
    background: [f64; 4],
) -> Result<Vec<u8>, RenderError> {
    renderer.prepare(&gpu.device, &gpu.queue, globals, draw);
    let (w, h) = target.size;
    let row = w * 4;
    let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: padded as u64 * h as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen") });
    target.render(&mut encoder, renderer, background);
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo { texture: &target.color, mip_level: 0, origin: wgpu::Origin3d::ZERO, aspect: wgpu::TextureAspect::All },
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
        },
        wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
    );
    gpu.queue.submit([encoder.finish()]);
    let slice = readback.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| RenderError::Readback(e.to_string()))?;
    rx.recv().map_err(|e| RenderError::Readback(e.to_string()))?.map_err(|e| RenderError::Readback(e.to_string()))?;
    let data = slice.get_mapped_range().map_err(|e| RenderError::Readback(e.to_string()))?;
    let mut pixels = Vec::with_capacity((row * h) as usize);
    for y in 0..h as usize {
        pixels.extend_from_slice(&data[y * padded as usize..y * padded as usize + row as usize]);
    }
    drop(data);
    readback.unmap();
    Ok(pixels)
}
