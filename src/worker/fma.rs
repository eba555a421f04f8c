//! The worker of `main.rs`, built with the `fma` feature: the same code,
//! with fused multiply-adds in the wasm kernels. The page starts it where
//! the browser has relaxed SIMD.

#[path = "main.rs"]
mod worker;

fn main() {
    worker::main();
}
