//! The worker of `main.rs`, built with the `extras` feature: translation,
//! models opened from the visitor's files and trace files. The page starts
//! it only when one of those is first asked for, so a first visit does not
//! download them (src/web/compute.rs).

#[path = "main.rs"]
mod worker;

fn main() {
    worker::main();
}
