//! Pictures and videos of a scene without a window: one picture, a numbered PNG sequence or
//! a GIF/MP4 seen by one camera ([`sequence`]), composed exactly as the viewer composes its
//! frames, and the encoders behind them ([`encode`]: GIF here, MP4 through `ffmpeg`). Sits
//! above the scene composer and the renderer, so that neither encodes or runs programs.

pub mod encode;
pub mod sequence;

pub use encode::{FrameSink, PngError, VideoError, VideoFormat, gif_delay_cs, write_png};
pub use sequence::{Offscreen, SequenceError, render_sequence, render_video};
