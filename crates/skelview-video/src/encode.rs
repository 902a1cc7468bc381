//! Files of rendered frames: PNG pictures, animated GIF written here (the `gif` crate,
//! NeuQuant colours), MP4 by piping raw frames to `ffmpeg` when it is installed. All write
//! beside the target and rename when done, so a cancelled or failed export leaves no half
//! file.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use thiserror::Error;

/// Why a PNG could not be written.
#[derive(Debug, Error)]
#[error("{path}: cannot write PNG: {message}")]
pub struct PngError {
    /// Output file.
    pub path: String,
    /// Why.
    pub message: String,
}

/// Writes RGBA8 pixels as a PNG, atomically: a failed write leaves no partial file.
pub fn write_png(path: &Path, size: (u32, u32), rgba: &[u8]) -> Result<(), PngError> {
    use image::ImageEncoder;
    let err = |message: String| PngError { path: path.display().to_string(), message };
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(rgba, size.0, size.1, image::ExtendedColorType::Rgba8)
        .map_err(|e| err(e.to_string()))?;
    skelview_core::export::write_atomically(path, |out| out.write_all(&png)).map_err(|e| err(e.to_string()))
}

/// Why a video could not be written; each names the file.
#[derive(Debug, Error)]
pub enum VideoError {
    /// The frame rate is zero, negative or not a number.
    #[error("{}: the frame rate must be positive, not {fps}", path.display())]
    Rate {
        /// The video.
        path: PathBuf,
        /// The rate asked for.
        fps: f64,
    },
    /// The extension names no container skelview writes.
    #[error("{}: a video is .gif or .mp4", .0.display())]
    Container(PathBuf),
    /// The frames are larger than the container allows.
    #[error("{}: a GIF is at most 65535 pixels wide and tall, not {}x{}", path.display(), size.0, size.1)]
    TooLarge {
        /// The video.
        path: PathBuf,
        /// The frame size asked for.
        size: (u32, u32),
    },
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The video.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The GIF encoder failed.
    #[error("{}: {source}", path.display())]
    Gif {
        /// The video.
        path: PathBuf,
        /// The encoder's reason.
        source: gif::EncodingError,
    },
    /// `ffmpeg` is not installed.
    #[error("{}: {NO_FFMPEG}", .0.display())]
    NoFfmpeg(PathBuf),
    /// `ffmpeg` stopped or refused the frames.
    #[error("{}: {message}", path.display())]
    Ffmpeg {
        /// The video.
        path: PathBuf,
        /// What ffmpeg said.
        message: String,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> VideoError + '_ {
    move |source| VideoError::Io { path: path.to_owned(), source }
}

/// A video container skelview writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoFormat {
    /// Animated GIF (written by skelview itself).
    Gif,
    /// H.264 in MP4 (through `ffmpeg`).
    Mp4,
}

impl VideoFormat {
    /// The format named by `path`'s extension.
    pub fn of(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "gif" => Some(Self::Gif),
            "mp4" => Some(Self::Mp4),
            _ => None,
        }
    }
}

/// Where rendered frames go, one RGBA8 picture after another.
pub trait FrameSink {
    /// Adds a frame of the size the sink was made for.
    fn push(&mut self, rgba: &[u8]) -> Result<(), VideoError>;
    /// Completes the file; returns its path.
    fn finish(self: Box<Self>) -> Result<PathBuf, VideoError>;
}

/// Opens a sink for `path` (`.gif` or `.mp4`) of `size` pixels playing at `fps`.
pub fn open(path: &Path, size: (u32, u32), fps: f64) -> Result<Box<dyn FrameSink>, VideoError> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(VideoError::Rate { path: path.to_owned(), fps });
    }
    match VideoFormat::of(path) {
        Some(VideoFormat::Gif) => Ok(Box::new(GifSink::new(path, size, fps)?)),
        Some(VideoFormat::Mp4) => Ok(Box::new(Mp4Sink::new(path, size, fps)?)),
        None => Err(VideoError::Container(path.to_owned())),
    }
}

/// GIF frame delays in hundredths of a second that add up to the real duration: 30 fps is
/// 3, 3, 4, 3, 3, 4… rather than 3 throughout (which would play at 33 fps).
pub fn gif_delay_cs(k: usize, fps: f64) -> u16 {
    let at = |k: usize| (k as f64 * 100.0 / fps).round();
    (at(k + 1) - at(k)).clamp(1.0, u16::MAX as f64) as u16
}

/// Writes an animated GIF that loops forever.
pub struct GifSink {
    encoder: gif::Encoder<BufWriter<tempfile::NamedTempFile>>,
    path: PathBuf,
    size: (u16, u16),
    fps: f64,
    frames: usize,
}

impl GifSink {
    fn new(path: &Path, size: (u32, u32), fps: f64) -> Result<Self, VideoError> {
        let gif = |source| VideoError::Gif { path: path.to_owned(), source };
        let (Ok(w), Ok(h)) = (u16::try_from(size.0), u16::try_from(size.1)) else {
            return Err(VideoError::TooLarge { path: path.to_owned(), size });
        };
        let file = skelview_core::export::atomic::temp_beside(path).map_err(io(path))?;
        let mut encoder = gif::Encoder::new(BufWriter::new(file), w, h, &[]).map_err(gif)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(gif)?;
        Ok(Self { encoder, path: path.to_owned(), size: (w, h), fps, frames: 0 })
    }
}

impl FrameSink for GifSink {
    fn push(&mut self, rgba: &[u8]) -> Result<(), VideoError> {
        let mut pixels = rgba.to_vec();
        // NeuQuant at speed 10: good colours for shaded bones on a gradient-free background.
        let mut frame = gif::Frame::from_rgba_speed(self.size.0, self.size.1, &mut pixels, 10);
        frame.delay = gif_delay_cs(self.frames, self.fps);
        self.encoder.write_frame(&frame).map_err(|source| VideoError::Gif { path: self.path.clone(), source })?;
        self.frames += 1;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<PathBuf, VideoError> {
        let writer = self.encoder.into_inner().map_err(|source| VideoError::Gif { path: self.path.clone(), source })?;
        let file = writer.into_inner().map_err(|e| e.into_error()).map_err(io(&self.path))?;
        file.persist(&self.path).map_err(|e| e.error).map_err(io(&self.path))?;
        Ok(self.path)
    }
}

/// Pipes raw RGBA frames to `ffmpeg`, which encodes H.264 (yuv420p, playable everywhere).
pub struct Mp4Sink {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    /// The file ffmpeg writes, beside the target; removed when dropped unfinished.
    partial: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

/// The message when `ffmpeg` cannot be started.
pub const NO_FFMPEG: &str = "MP4 needs ffmpeg, which is not installed (Debian/Ubuntu: apt install ffmpeg); a .gif needs nothing else";

impl Mp4Sink {
    fn new(path: &Path, size: (u32, u32), fps: f64) -> Result<Self, VideoError> {
        let partial = skelview_core::export::atomic::temp_beside(path).map_err(io(path))?;
        let spawned = Command::new("ffmpeg")
            .args(["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s"])
            .arg(format!("{}x{}", size.0, size.1))
            .arg("-r")
            .arg(format!("{fps}"))
            .args(["-i", "-", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
            // The temporary name does not end in .mp4: say the container.
            .args(["-f", "mp4"])
            .arg(partial.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(VideoError::NoFfmpeg(path.to_owned())),
            Err(e) => return Err(VideoError::Ffmpeg { path: path.to_owned(), message: format!("cannot start ffmpeg: {e}") }),
        };
        let stdin = child.stdin.take().map(BufWriter::new);
        Ok(Self { child, stdin, partial: Some(partial), path: path.to_owned() })
    }

    /// What ffmpeg said on its way out.
    fn reason(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut text);
        }
        let text = text.trim();
        if text.is_empty() { "ffmpeg stopped".to_owned() } else { format!("ffmpeg: {text}") }
    }
}

impl FrameSink for Mp4Sink {
    fn push(&mut self, rgba: &[u8]) -> Result<(), VideoError> {
        let written = self.stdin.as_mut().map_or(Ok(()), |w| w.write_all(rgba));
        if written.is_err() {
            self.stdin = None;
            let _ = self.child.wait();
            return Err(VideoError::Ffmpeg { path: self.path.clone(), message: self.reason() });
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<PathBuf, VideoError> {
        if let Some(mut w) = self.stdin.take() {
            let _ = w.flush();
        }
        let status = self.child.wait().map_err(io(&self.path))?;
        if !status.success() {
            return Err(VideoError::Ffmpeg { path: self.path.clone(), message: self.reason() });
        }
        let Some(partial) = self.partial.take() else {
            return Err(VideoError::Ffmpeg { path: self.path.clone(), message: "finished twice".into() });
        };
        partial.persist(&self.path).map_err(|e| e.error).map_err(io(&self.path))?;
        Ok(self.path.clone())
    }
}

impl Drop for Mp4Sink {
    fn drop(&mut self) {
        // Cancelled or failed before `finish`: stop ffmpeg; the partial file goes with `partial`.
        if self.stdin.is_some() {
            self.stdin = None;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gif_delays_add_up_to_the_real_duration() {
        let total: u32 = (0..30).map(|k| gif_delay_cs(k, 30.0) as u32).sum();
        assert_eq!(total, 100);
        assert_eq!((0..3).map(|k| gif_delay_cs(k, 30.0)).collect::<Vec<_>>(), [3, 4, 3]);
        assert_eq!(gif_delay_cs(0, 120.0), 1, "faster than GIFs can show: one hundredth each");
        assert_eq!((0..24).map(|k| gif_delay_cs(k, 24.0) as u32).sum::<u32>(), 100);
    }

    #[test]
    fn formats_by_extension_and_a_gif_of_three_frames() {
        assert_eq!(VideoFormat::of(Path::new("a.GIF")), Some(VideoFormat::Gif));
        assert_eq!(VideoFormat::of(Path::new("a.mp4")), Some(VideoFormat::Mp4));
        assert_eq!(VideoFormat::of(Path::new("a.png")), None);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.gif");
        let mut sink = open(&path, (4, 2), 10.0).unwrap();
        for k in 0..3u8 {
            sink.push(&[k * 80, 0, 0, 255].repeat(8)).unwrap();
        }
        assert!(!path.exists(), "written beside, renamed when done");
        assert_eq!(sink.finish().unwrap(), path);
        let mut decoder = gif::DecodeOptions::new().read_info(std::fs::File::open(&path).unwrap()).unwrap();
        let mut n = 0;
        while let Some(f) = decoder.read_next_frame().unwrap() {
            assert_eq!((f.width, f.height, f.delay), (4, 2, 10));
            n += 1;
        }
        assert_eq!(n, 3);
        assert!(open(&path, (4, 2), 0.0).is_err() && open(&dir.path().join("x.avi"), (4, 2), 1.0).is_err());
    }
}
