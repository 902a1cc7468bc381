//! `skelview`: command-line entry point (thin: everything lives in the library).

fn main() {
    let code = skelview::cli::run(std::env::args().collect());
    std::process::exit(code);
}
