//! An orbit camera: `view_from_world` and `clip_from_view` (wgpu depth range 0..1).

use glam::{Mat4, Vec2, Vec3, Vec4};

/// Standard viewpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewPreset {
    /// Three-quarter view from the front right, slightly above.
    Perspective,
    /// Looking along −Z (at the body's front for files facing +Z).
    Front,
    /// Looking along −X.
    Side,
    /// Looking down.
    Top,
}

/// Orbits `target` at `distance`; yaw about +Y, pitch above the ground plane (radians).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// Point looked at.
    pub target: Vec3,
    /// Eye distance from the target.
    pub distance: f32,
    /// Rotation about +Y (0: eye on +Z).
    pub yaw: f32,
    /// Elevation (positive: above).
    pub pitch: f32,
    /// Vertical field of view.
    pub fov_y: f32,
    /// Orthographic projection with the same framing.
    pub orthographic: bool,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self { target: Vec3::new(0.0, 1.0, 0.0), distance: 4.0, yaw: 0.6, pitch: 0.25, fov_y: 40f32.to_radians(), orthographic: false }
    }
}

/// A right-handed look-at view matrix.
pub fn look_at(eye: Vec3, target: Vec3, up: Vec3) -> Mat4 {
    let f = (target - eye).normalize();
    let s = f.cross(up).normalize();
    let u = s.cross(f);
    Mat4::from_cols(
        Vec4::new(s.x, u.x, -f.x, 0.0),
        Vec4::new(s.y, u.y, -f.y, 0.0),
        Vec4::new(s.z, u.z, -f.z, 0.0),
        Vec4::new(-s.dot(eye), -u.dot(eye), f.dot(eye), 1.0),
    )
}

/// Right-handed perspective with depth 0 (near) .. 1 (far).
pub fn perspective(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let h = 1.0 / (fov_y * 0.5).tan();
    let r = far / (near - far);
    Mat4::from_cols(
        Vec4::new(h / aspect, 0.0, 0.0, 0.0),
        Vec4::new(0.0, h, 0.0, 0.0),
        Vec4::new(0.0, 0.0, r, -1.0),
        Vec4::new(0.0, 0.0, r * near, 0.0),
    )
}

/// Right-handed orthographic with depth 0 (near) .. 1 (far), `half_height` up from the centre.
pub fn orthographic(half_height: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let r = 1.0 / (near - far);
    Mat4::from_cols(
        Vec4::new(1.0 / (half_height * aspect), 0.0, 0.0, 0.0),
        Vec4::new(0.0, 1.0 / half_height, 0.0, 0.0),
        Vec4::new(0.0, 0.0, r, 0.0),
        Vec4::new(0.0, 0.0, r * near, 1.0),
    )
}

impl OrbitCamera {
    /// Unit vector from the target towards the eye.
    pub fn backward(&self) -> Vec3 {
        Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos())
    }

    /// Eye position.
    pub fn eye(&self) -> Vec3 {
        self.target + self.backward() * self.distance
    }

    /// View matrix.
    pub fn view_from_world(&self) -> Mat4 {
        // Looking straight down, +Y cannot be "up": use −Z instead.
        let up = if self.pitch.abs() > 1.5 { Vec3::NEG_Z } else { Vec3::Y };
        look_at(self.eye(), self.target, up)
    }

    fn near_far(&self) -> (f32, f32) {
        (self.distance * 0.01, self.distance * 100.0)
    }

    /// Projection matrix for a viewport of `aspect` = width / height.
    pub fn clip_from_view(&self, aspect: f32) -> Mat4 {
        let (near, far) = self.near_far();
        if self.orthographic {
            orthographic(self.distance * (self.fov_y * 0.5).tan(), aspect, -far, far)
        } else {
            perspective(self.fov_y, aspect, near, far)
        }
    }

    /// Projection × view.
    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        self.clip_from_view(aspect) * self.view_from_world()
    }

    /// Aims at the centre of a box and backs off until a sphere around it fits.
    pub fn frame_bounds(&mut self, lo: Vec3, hi: Vec3, aspect: f32) {
        self.target = (lo + hi) * 0.5;
        let radius = ((hi - lo).length() * 0.5).max(1e-3);
        let half_fov = (self.fov_y * 0.5).min((self.fov_y * 0.5).tan().atan2(1.0 / aspect.max(1e-3)));
        self.distance = radius / half_fov.sin() * 1.05;
    }

    /// Aims at the centre of a box and sets the distance so that the box's height fills
    /// `fill` of the viewport's height (its width at most 0.8 of the viewport's width): a
    /// figure shown at a readable size rather than lost in a sphere fitted round it.
    pub fn frame_figure(&mut self, lo: Vec3, hi: Vec3, aspect: f32, fill: f32) {
        if self.pitch.abs() > 0.8 {
            // From above the screen's height is the ground's depth: fit the whole box.
            return self.frame_bounds(lo, hi, aspect);
        }
        self.target = (lo + hi) * 0.5;
        let size = (hi - lo).abs();
        let tan = (self.fov_y * 0.5).tan().max(1e-3);
        // The ground diagonal bounds the box's width on screen from any side.
        let (height, width) = (size.y.max(1e-3), size.x.hypot(size.z).max(1e-3));
        // Visible height at distance d is 2 d tan(fov/2); its width `aspect` times that.
        let for_height = height / (2.0 * fill.clamp(0.05, 1.0) * tan);
        let for_width = width / (2.0 * 0.8 * aspect.max(1e-3) * tan);
        // The figure's near side is half its depth in front of the target.
        self.distance = for_height.max(for_width) + 0.5 * width;
    }

    /// Sets yaw and pitch for a preset (keeps target and distance).
    pub fn set_preset(&mut self, preset: ViewPreset) {
        (self.yaw, self.pitch) = match preset {
            ViewPreset::Perspective => (0.6, 0.25),
            ViewPreset::Front => (0.0, 0.0),
            ViewPreset::Side => (std::f32::consts::FRAC_PI_2, 0.0),
            ViewPreset::Top => (0.0, std::f32::consts::FRAC_PI_2 - 1e-3),
        };
    }

    /// Orbits by a drag of `delta` pixels.
    pub fn orbit(&mut self, delta: Vec2) {
        self.yaw -= delta.x * 0.008;
        self.pitch = (self.pitch + delta.y * 0.008).clamp(-1.55, 1.55);
    }

    /// Pans by a drag of `delta` pixels in a viewport `height` pixels tall.
    pub fn pan(&mut self, delta: Vec2, height: f32) {
        let view = self.view_from_world();
        let right = Vec3::new(view.x_axis.x, view.y_axis.x, view.z_axis.x);
        let up = Vec3::new(view.x_axis.y, view.y_axis.y, view.z_axis.y);
        let units_per_pixel = 2.0 * self.distance * (self.fov_y * 0.5).tan() / height.max(1.0);
        self.target += (-right * delta.x + up * delta.y) * units_per_pixel;
    }

    /// Zooms by `factor` (< 1 closer) towards the point under the cursor at `ndc`.
    pub fn zoom_towards(&mut self, factor: f32, ndc: Vec2, aspect: f32) {
        let factor = factor.clamp(0.2, 5.0);
        let (origin, dir) = self.ray(ndc, aspect);
        // The point under the cursor at the target's depth stays under the cursor.
        let depth = (self.target - origin).dot(-self.backward()) / dir.dot(-self.backward()).max(1e-4);
        let anchor = origin + dir * depth;
        self.target = anchor + (self.target - anchor) * factor;
        self.distance = (self.distance * factor).max(1e-4);
    }

    /// World-space ray through a point in normalised device coordinates (−1..1, y up).
    pub fn ray(&self, ndc: Vec2, aspect: f32) -> (Vec3, Vec3) {
        let inverse = self.clip_from_world(aspect).inverse();
        let near = inverse.project_point3(Vec3::new(ndc.x, ndc.y, 0.0));
        let far = inverse.project_point3(Vec3::new(ndc.x, ndc.y, 0.5));
        (near, (far - near).normalize())
    }

    /// Where a world point lands in the viewport, in pixels from the top left, with its depth.
    pub fn project(&self, p: Vec3, width: f32, height: f32) -> Option<(Vec2, f32)> {
        let clip = self.clip_from_world(width / height) * p.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some((Vec2::new((ndc.x + 1.0) * 0.5 * width, (1.0 - ndc.y) * 0.5 * height), ndc.z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_projects_to_the_centre_and_up_is_up() {
        let c = OrbitCamera::default();
        let (p, depth) = c.project(c.target, 800.0, 600.0).unwrap();
        assert!((p - Vec2::new(400.0, 300.0)).length() < 1e-3);
        assert!((0.0..1.0).contains(&depth));
        let (above, _) = c.project(c.target + Vec3::Y * 0.1, 800.0, 600.0).unwrap();
        assert!(above.y < 300.0, "higher in the world is higher on screen");
        assert!(c.project(c.eye() + c.backward(), 800.0, 600.0).is_none(), "behind the eye");
    }

    #[test]
    fn framing_fits_the_box_in_view() {
        let mut c = OrbitCamera::default();
        for aspect in [0.5, 1.0, 2.0] {
            c.frame_bounds(Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 1.8, 0.2), aspect);
            for corner in [Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 1.8, 0.2), Vec3::new(0.3, 0.0, 0.2)] {
                let (p, _) = c.project(corner, 600.0 * aspect, 600.0).unwrap();
                assert!(p.x >= 0.0 && p.x <= 600.0 * aspect && p.y >= 0.0 && p.y <= 600.0, "aspect {aspect}: {p:?}");
            }
        }
    }

    #[test]
    fn rays_pass_through_what_projects_there() {
        let c = OrbitCamera { orthographic: false, ..OrbitCamera::default() };
        let point = Vec3::new(0.2, 1.3, -0.1);
        let (px, _) = c.project(point, 640.0, 480.0).unwrap();
        let ndc = Vec2::new(px.x / 640.0 * 2.0 - 1.0, 1.0 - px.y / 480.0 * 2.0);
        let (o, d) = c.ray(ndc, 640.0 / 480.0);
        let closest = o + d * (point - o).dot(d);
        assert!((closest - point).length() < 1e-3, "{closest:?}");
        let ortho = OrbitCamera { orthographic: true, ..c };
        let (px, _) = ortho.project(point, 640.0, 480.0).unwrap();
        let ndc = Vec2::new(px.x / 640.0 * 2.0 - 1.0, 1.0 - px.y / 480.0 * 2.0);
        let (o, d) = ortho.ray(ndc, 640.0 / 480.0);
        assert!(((o + d * (point - o).dot(d)) - point).length() < 1e-3);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut c = OrbitCamera::default();
        let ndc = Vec2::new(0.5, -0.3);
        let (o, d) = c.ray(ndc, 1.5);
        let depth = (c.target - o).dot(-c.backward()) / d.dot(-c.backward());
        let anchor = o + d * depth;
        c.zoom_towards(0.5, ndc, 1.5);
        let (p, _) = c.project(anchor, 1500.0, 1000.0).unwrap();
        let expected = Vec2::new((ndc.x + 1.0) * 750.0, (1.0 - ndc.y) * 500.0);
        assert!((p - expected).length() < 0.5, "{p:?} vs {expected:?}");
    }
}
