//! `skelview`: the command line, or the viewer window (thin: everything lives in the library).
// On Windows a GUI program, so that a double-click opens no console window; started from a
// terminal it writes to that terminal's console (`attach_parent_console`).
#![cfg_attr(windows, windows_subsystem = "windows")]

use skelview::cli::{self, Next};

/// Big buffers on 2 MB pages where Linux allows it (see `BigPages`).
#[global_allocator]
static ALLOCATOR: skelview_core::big_pages::BigPages = skelview_core::big_pages::BigPages;

fn main() {
    #[cfg(windows)]
    attach_parent_console();
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

/// Windows: a GUI program has no console of its own; output already sent to a file or a pipe
/// keeps its handles, else the program writes to the console of the terminal that started it.
#[cfg(windows)]
fn attach_parent_console() {
    use windows_sys::Win32::System::Console::{ATTACH_PARENT_PROCESS, AttachConsole, GetStdHandle, STD_OUTPUT_HANDLE};
    // SAFETY: plain calls without pointers; no other thread exists yet.
    unsafe {
        let out = GetStdHandle(STD_OUTPUT_HANDLE);
        if out.is_null() || out as isize == -1 {
            AttachConsole(ATTACH_PARENT_PROCESS);
        }
    }
}
