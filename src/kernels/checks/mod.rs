//! One set of checks for the hand-written kernels, run for every instruction
//! set the build and the CPU have, as candle runs one test body per device:
//!
//! - natively (`cargo test`), each check is a `#[test]` that runs its body
//!   once with the portable kernels and once more with AVX2 where the CPU
//!   has it;
//! - in wasm (`cargo test --target wasm32-unknown-unknown --lib`, which
//!   `scripts/test.sh` runs in headless Chromium), each is a
//!   `#[wasm_bindgen_test]` that runs the portable kernels and the simd128
//!   ones, and, built with `--features fma`, the relaxed SIMD ones that the
//!   `fma` worker runs.
//!
//! The bodies compare each kernel with the plain product (in f64 where the
//! rounding of f32 would blur the comparison) and, where a kernel promises
//! it, with another bit for bit.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// A check run once: a `#[test]` natively, a `#[wasm_bindgen_test]` in wasm.
macro_rules! check {
    ($(#[doc = $doc:literal])* fn $name:ident() $body:block) => {
        $(#[doc = $doc])*
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() $body
    };
}

/// A check whose body runs once per instruction set ([`crate::kernels::simd::Isa::available`]),
/// with `$isa` naming it.
#[cfg(feature = "pretrained")]
macro_rules! check_each_isa {
    ($(#[doc = $doc:literal])* fn $name:ident($isa:ident) $body:block) => {
        $(#[doc = $doc])*
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() {
            for $isa in crate::kernels::simd::Isa::available() {
                $body
            }
        }
    };
}

// After the macros, which are in scope only below their definitions.
mod products;

#[cfg(feature = "pretrained")]
mod fused;
#[cfg(feature = "pretrained")]
mod int8;
#[cfg(feature = "pretrained")]
mod packed;
#[cfg(feature = "pretrained")]
mod quant;
