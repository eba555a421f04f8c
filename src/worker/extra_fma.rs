//! The worker of `main.rs`, built with the `extras` and `fma` features: the
//! extra worker (`extra.rs`) with relaxed SIMD's kernels. The page starts it
//! instead of that one where the browser has relaxed SIMD.

#[path = "main.rs"]
mod worker;

fn main() {
    worker::main();
}
