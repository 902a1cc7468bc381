//! The format-independent model: skeletons, clips, poses and playback.
//!
//! Depends on glam only: no GPU, no UI, no threads, so everything here is
//! testable on a machine without a display.

pub mod batch;
pub mod bounds;
pub mod capture;
pub mod character_extensions;
pub mod clip;
pub mod clip_fk;
pub mod contacts;
pub mod envelope;
pub mod euler_lanes;
pub mod force_plates;
mod half_angles;
pub mod marker_links;
pub mod measure;
pub mod mesh;
pub mod mesh_frames;
pub mod motion;
pub mod names;
pub mod playback;
pub mod pose;
pub mod readout;
pub mod rest;
pub mod rotation_channels;
pub mod sampler;
pub mod select;
pub mod shown_length;
pub mod signals;
pub mod skeleton;
pub mod units;

pub use clip::{Clip, Interpolation, MissingRun};
pub use motion::{ChannelNames, DisplayFrame, Format, Motion, SourceInfo, Take, Warning};
pub use playback::{Playback, PlaybackCommand};
pub use pose::{GlobalPose, LocalPose, LocalTransform};
pub use sampler::{PoseAt, Sampler};
pub use select::{FrameOutOfRange, NoJoint, frame_index, frame_index_clamped, frame_indices};
pub use shown_length::{LengthDisplay, ShownUnit};
pub use skeleton::{ChannelKind, EulerConvention, Joint, PositionRule, RotationLimits, Skeleton, SkeletonError};
pub use units::{LengthUnit, UpAxis};
