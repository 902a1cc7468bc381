//! The 3D viewport: the one place where egui and wgpu meet. The skeleton is rendered into a
//! texture by the (UI-agnostic) renderer, shown as an image; mouse input becomes commands.

use std::sync::Arc;

use egui::PointerButton;
use glam::Vec2;

use crate::app::{CameraEdit, Command, Commands, SelectionEdit, SettingEdit, Viewer};
use skelview_core::core::Motion;
use skelview_render::offscreen;
use skelview_render::{RenderTarget, SkeletonRenderer};

/// GPU resources of the viewport, created once.
pub struct ViewportGpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    egui_renderer: Arc<egui::mutex::RwLock<egui_wgpu::Renderer>>,
    renderer: SkeletonRenderer,
    target: Option<RenderTarget>,
    texture: Option<egui::TextureId>,
}

/// Background of the viewport (linear RGB), matching `skelview render`.
use skelview_scene::BACKGROUND;
/// Background with the light theme.
const LIGHT_BACKGROUND: [f64; 4] = [0.45, 0.48, 0.52, 1.0];

impl ViewportGpu {
    /// Pipelines for egui-wgpu's device; MSAA ×4 except on software adapters, where it costs
    /// ~8× the frame time.
    pub fn new(state: &egui_wgpu::RenderState) -> Self {
        let software = state.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        let samples = if software { 1 } else { 4 };
        Self {
            device: state.device.clone(),
            queue: state.queue.clone(),
            egui_renderer: state.renderer.clone(),
            renderer: {
                let renderer = SkeletonRenderer::new(&state.device, wgpu::TextureFormat::Rgba8UnormSrgb, samples);
                // WebGL2 cannot view the target without its sRGB decoding: copy it instead.
                let views = state.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS);
                if views { renderer } else { renderer.with_gamma_copy(&state.device) }
            },
            target: None,
            texture: None,
        }
    }

    /// Renders the viewer's draw data at `size` pixels; returns the texture to show.
    fn render(&mut self, size: (u32, u32), viewer: &Viewer) -> egui::TextureId {
        // The projection keeps the on-screen aspect even when the texture had to shrink.
        let aspect = size.0 as f32 / size.1 as f32;
        let size = RenderTarget::fitting(&self.device, size);
        let (target, texture) = match (self.target.take(), self.texture) {
            (Some(t), Some(id)) if t.size == size => (self.target.insert(t), id),
            (_, id) => {
                let t = RenderTarget::new(&self.device, &self.renderer, size);
                let mut egui_renderer = self.egui_renderer.write();
                let id = match id {
                    Some(id) => {
                        egui_renderer.update_egui_texture_from_wgpu_texture(&self.device, &t.gamma_view, wgpu::FilterMode::Linear, id);
                        id
                    }
                    None => egui_renderer.register_native_texture(&self.device, &t.gamma_view, wgpu::FilterMode::Linear),
                };
                self.texture = Some(id);
                (self.target.insert(t), id)
            }
        };
        let globals = offscreen::globals(&viewer.view.camera, aspect);
        self.renderer.prepare(&self.device, &self.queue, &globals, &viewer.frame.draw);
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewport") });
        target.render(&mut encoder, &self.renderer, if viewer.settings.light_theme { LIGHT_BACKGROUND } else { BACKGROUND });
        self.queue.submit([encoder.finish()]);
        texture
    }
}

pub(super) fn viewport_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, gpu: &mut ViewportGpu) {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
    if rect.width() < 2.0 || rect.height() < 2.0 {
        return;
    }
    let aspect = rect.width() / rect.height();
    pointer_ui(ui, &response, rect, out);
    let ppp = ui.ctx().pixels_per_point();
    let size = ((rect.width() * ppp).round().max(1.0) as u32, (rect.height() * ppp).round().max(1.0) as u32);
    let origin = ((rect.min.x * ppp).round().max(0.0) as u32, (rect.min.y * ppp).round().max(0.0) as u32);
    if (aspect, size, origin) != (viewer.view.aspect, viewer.view.viewport_px, viewer.view.viewport_origin_px) {
        out.send(Command::Camera(CameraEdit::Viewport { aspect, px: size, origin }));
        // Applied at the next update: one more frame, also when nothing else asks for one.
        ui.ctx().request_repaint();
    }
    let texture = gpu.render(size, viewer);
    let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    ui.painter().image(texture, rect, uv, egui::Color32::WHITE);

    let painter = ui.painter_at(rect);
    if viewer.settings.show_names
        && let Some(m) = &viewer.motion()
    {
        joint_names_ui(&painter, rect, viewer, m);
    }
    super::measure_overlay(&painter, rect, viewer);
    if viewer.motion().is_none() && viewer.session.loads.is_empty() && viewer.session.preview.is_none() {
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "Open a motion file (Ctrl+O) or drop one here",
            egui::FontId::proportional(18.0),
            egui::Color32::from_gray(180),
        );
    }
    loading_ui(ui, rect, viewer, out);
    toggles_ui(ui, rect, viewer, out);
}

/// The mouse over the viewport at `rect`: drags orbit or pan the camera, the wheel zooms at the
/// pointer, a click picks a joint.
fn pointer_ui(ui: &mut egui::Ui, response: &egui::Response, rect: egui::Rect, out: &mut Commands) {
    let aspect = rect.width() / rect.height();
    let to_ndc = |p: egui::Pos2| Vec2::new((p.x - rect.left()) / rect.width() * 2.0 - 1.0, 1.0 - (p.y - rect.top()) / rect.height() * 2.0);
    let shift = ui.input(|i| i.modifiers.shift);
    let delta = response.drag_delta();
    if delta != egui::Vec2::ZERO {
        let d = Vec2::new(delta.x, delta.y);
        if response.dragged_by(PointerButton::Middle) || (shift && response.dragged_by(PointerButton::Primary)) {
            out.send(Command::Camera(CameraEdit::Pan(d, rect.height())));
        } else if response.dragged_by(PointerButton::Primary) {
            out.send(Command::Camera(CameraEdit::Orbit(d)));
        }
    }
    if let Some(pos) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            out.send(Command::Camera(CameraEdit::Zoom((-scroll * 0.0025).exp(), to_ndc(pos), aspect)));
        }
    }
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
    {
        out.send(Command::Selection(SelectionEdit::Pick(to_ndc(pos), aspect)));
    }
}

/// The joints' (or markers') names beside them; markers in a gap are not drawn, nor named.
fn joint_names_ui(painter: &egui::Painter, rect: egui::Rect, viewer: &Viewer, m: &Motion) {
    // A capture's markers in a gap are not drawn, so they are not named either.
    let gaps = match (&m.capture, viewer.session.active_clip()) {
        (Some(c), Some(clip)) => {
            skelview_scene::markers::gaps(c, skelview_scene::markers::frame_at(clip, c, viewer.session.playback.time_secs))
        }
        _ => Vec::new(),
    };
    for (i, j) in m.skeleton.joints().iter().enumerate().filter(|(i, j)| !j.is_end_site && !gaps.get(*i).copied().unwrap_or(false)) {
        if let Some((p, _)) = viewer.positions().get(i).and_then(|p| viewer.view.camera.project(*p, rect.width(), rect.height())) {
            painter.text(
                rect.min + egui::vec2(p.x + 6.0, p.y),
                egui::Align2::LEFT_CENTER,
                &j.name,
                egui::FontId::proportional(11.0),
                egui::Color32::from_gray(220),
            );
        }
    }
}

/// While files load in place of those open: a progress bar and a Cancel button.
fn loading_ui(ui: &mut egui::Ui, rect: egui::Rect, viewer: &Viewer, out: &mut Commands) {
    if let Some(loading) = viewer.session.loads.iter().find(|l| l.replace) {
        let bar = egui::Rect::from_center_size(rect.center_bottom() - egui::vec2(0.0, 40.0), egui::vec2(rect.width().min(420.0), 26.0));
        ui.put(bar, egui::ProgressBar::new(loading.task.fraction()).text(format!("loading {:.0}%", loading.task.fraction() * 100.0)));
        let cancel = egui::Rect::from_center_size(bar.center() + egui::vec2(0.0, 28.0), egui::vec2(80.0, 22.0));
        if ui.put(cancel, egui::Button::new("Cancel")).clicked() {
            // Every running load stops (an ASF/AMC group and the files added beside it alike).
            for load in &viewer.session.loads {
                out.send(Command::CancelTask(load.task.id()));
            }
        }
    }
}

/// Display toggles over the viewport's top left corner.
fn toggles_ui(ui: &mut egui::Ui, rect: egui::Rect, viewer: &Viewer, out: &mut Commands) {
    let toggles = egui::Rect::from_min_size(rect.min + egui::vec2(8.0, 8.0), egui::vec2(560.0, 24.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(toggles), |ui| {
        ui.horizontal(|ui| {
            let (mut style, mut names) = (viewer.settings.style, viewer.settings.show_names);
            ui.checkbox(&mut style.bones, "bones");
            ui.checkbox(&mut style.joints, "joints");
            ui.checkbox(&mut style.axes, "axes");
            ui.checkbox(&mut names, "names");
            ui.checkbox(&mut style.grid, "grid");
            ui.checkbox(&mut style.shadow, "shadow");
            if style != viewer.settings.style {
                out.send(Command::Setting(SettingEdit::Style(style)));
            }
            if names != viewer.settings.show_names {
                out.send(Command::Setting(SettingEdit::ShowNames(names)));
            }
        });
    });
}
