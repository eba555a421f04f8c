//! The instruction sets the weight kernels ([`super::packed`], [`super::quant`])
//! are written for, and the small helpers those kernels share.
//!
//! Each kernel module has one file per instruction set (`portable.rs`,
//! `avx2.rs`, `simd128.rs`, `relaxed.rs`), each behind a single `cfg` on its
//! `mod` line; which one runs is decided in one place per module, from an
//! [`Isa`]. The tests run every check once per instruction set the build and
//! the CPU have ([`Isa::available`]).

/// An instruction set a kernel is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust, on every target (the compiler vectorizes what it can).
    Portable,
    /// x86-64 with AVX2, FMA and F16C, detected at run time.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// wasm simd128, on for every wasm build (`.cargo/config.toml`). With the
    /// `fma` feature the same kernels also use relaxed SIMD (a fused
    /// multiply-add, an 8-bit dot product): that build runs only where the
    /// browser has it (the page checks).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Isa {
    /// The fastest instruction set here: a constant in wasm, a run-time
    /// check (cached by the standard library) on x86-64.
    #[inline]
    pub fn best() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
        {
            return Isa::Avx2;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Isa::Simd128;
        #[allow(unreachable_code)]
        Isa::Portable
    }

    /// `self`, except in a wasm build other than the tests', where it is
    /// always [`Isa::best`]: a constant there, so the compiler drops the
    /// portable kernels, which only the tests run, from the download.
    #[inline(always)]
    pub fn in_this_build(self) -> Isa {
        if cfg!(all(target_arch = "wasm32", not(test))) {
            Isa::best()
        } else {
            self
        }
    }

    /// Every instruction set this build and CPU can run, portable first.
    #[cfg(test)]
    pub fn available() -> Vec<Isa> {
        let mut all = vec![Isa::Portable];
        if Isa::best() != Isa::Portable {
            all.push(Isa::best());
        }
        all
    }
}

/// Sum of eight lanes in a fixed tree order, the order in which the AVX2
/// kernels reduce a vector of eight, so that portable and vector sums agree.
#[inline(always)]
pub fn hsum(a: [f32; 8]) -> f32 {
    let b = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
    let c = [b[0] + b[2], b[1] + b[3]];
    c[0] + c[1]
}

/// Asks for `bytes` to be brought into the cache: x86-64 has a prefetch
/// instruction in its baseline; wasm has none, so there it does nothing.
#[inline]
pub fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for line in bytes.chunks(64) {
        // SAFETY: SSE is part of x86-64; a prefetch only hints, and the
        // address lies in `bytes`.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr() as *const i8
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// Helpers of the wasm kernels.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod wasm {
    use std::arch::wasm32::*;

    /// c + a·b in four f32 lanes: a multiply and an add, or with the `fma`
    /// feature relaxed SIMD's multiply-add, which the browser runs as one
    /// fused instruction where the CPU has one (rounded once instead of twice).
    ///
    /// # Safety
    /// With `fma`, the browser must have relaxed SIMD (the page checks before
    /// it starts that worker).
    #[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"), inline)]
    #[cfg_attr(not(feature = "fma"), inline(always))]
    pub unsafe fn madd(a: v128, b: v128, c: v128) -> v128 {
        #[cfg(feature = "fma")]
        return f32x4_relaxed_madd(a, b, c);
        #[cfg(not(feature = "fma"))]
        return f32x4_add(c, f32x4_mul(a, b));
    }

    /// The four lanes' sum, in a fixed order: (0 + 2) + (1 + 3).
    #[inline(always)]
    pub fn lanes_sum(a: v128) -> f32 {
        (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<2>(a))
            + (f32x4_extract_lane::<1>(a) + f32x4_extract_lane::<3>(a))
    }
}
