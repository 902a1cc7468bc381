//! `skelview`: the command line, or the viewer window (thin: everything lives in the library).

use skelview::cli::{self, Next};

fn main() {
    let code = match cli::run(std::env::args().collect()) {
        Next::Exit(code) => code,
        Next::Viewer(files, options) => match skelview::window::run(files, options) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skelview: {e}\n(headless use: skelview info | positions | check | render)");
                2
            }
        },
    };
    std::process::exit(code);
}
