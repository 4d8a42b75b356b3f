//! The `lielow` program: see `lielow --help` and protocol.md.

fn main() {
    std::process::exit(lielow::cli::run());
}
