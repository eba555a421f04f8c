//! The weight products, by hand: one file per instruction set in each
//! family, the `cfg` once on its `mod` line, and one place that picks one
//! from an [`simd::Isa`].
//!
//! - [`packed`]: f32 weights in panels (the encoders);
//! - [`quant`]: GGUF's quantized blocks, typed with asserted sizes (the decoders);
//! - [`int8`]: Marian's int8 matrices (translation);
//! - [`fused`]: one head's attention over a long text, tile by tile, A summed and never stored;
//! - [`simd`]: the instruction sets and their detection.
//!
//! (`Matrix`'s own product, gemm or relaxed SIMD, is `crate::tensor`'s.)

#[cfg(test)]
mod checks;
pub mod fused;
pub mod int8;
pub mod packed;
pub mod quant;
pub(crate) mod simd;
#[doc(hidden)]
pub mod testing;
