//! `skelview`: the command line, or the viewer window (thin: everything lives in the library).

use skelview::cli::{self, Next};

fn main() {
    // Fixes the moment `SKELVIEW_TRACE` measures from.
    skelview::app::trace::process_start();
    let argv: Vec<String> = std::env::args().collect();
    if matches!(argv.get(1).map(String::as_str), Some("render" | "thumbnail")) && std::env::var_os("NODEVICE_SELECT").is_none() {
        // Headless commands print nothing on stderr but errors. Mesa's Vulkan device-select
        // layer looks for a Wayland display and complains on stderr when there is none; wgpu
        // picks the adapter itself, so the layer is switched off (its documented variable).
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
    let code = match cli::run(argv) {
        Next::Exit(code) => code,
        Next::Viewer(files, options, start) => match skelview::window::run(files, options, start) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skelview: {e}\n(headless use: skelview info | positions | check | render)");
                2
            }
        },
    };
    std::process::exit(code);
}
