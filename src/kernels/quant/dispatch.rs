//! Which instruction set's kernel runs each product: the one place that
//! matches an [`Isa`] and a [`QType`] to a kernel.
//!
//! Every kernel computes out[t][k] = Σ_c W[k][c] · x[t][c]. All give the same
//! weights; the dot products differ only in rounding. Natively each output is
//! one dot product of length `cols` summed in the same order whatever the
//! number of tokens, so a row computed alone (a key/value cache) equals the
//! same row computed with others; in wasm the one-to-three-token kernels
//! differ from the batch by rounding, about 1e-7 relative.

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::blocks::{Block, F16};
use super::portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
use super::relaxed;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::simd128;
use super::{Input, QType, QuantizedRows, TileShape};
use crate::kernels::simd::Isa;
use crate::tensor::Matrix;

/// Runs `$body` with `$B` the block type of `$qtype`, or `$plain` for the
/// plain types: the one place that lists the formats (a new one is one line).
macro_rules! with_block {
    ($qtype:expr, $B:ident => $body:expr, plain => $plain:expr) => {
        match $qtype {
            #[cfg(feature = "extras")]
            QType::Q4_0 => { type $B = $crate::kernels::quant::blocks::BlockQ4_0; $body }
            QType::Q4_1 => { type $B = $crate::kernels::quant::blocks::BlockQ4_1; $body }
            #[cfg(feature = "extras")]
            QType::Q5_0 => { type $B = $crate::kernels::quant::blocks::BlockQ5_0; $body }
            QType::Q8_0 => { type $B = $crate::kernels::quant::blocks::BlockQ8_0; $body }
            #[cfg(feature = "extras")]
            QType::Q4K => { type $B = $crate::kernels::quant::blocks::BlockQ4K; $body }
            #[cfg(feature = "extras")]
            QType::Q5K => { type $B = $crate::kernels::quant::blocks::BlockQ5K; $body }
            #[cfg(feature = "extras")]
            QType::Q6K => { type $B = $crate::kernels::quant::blocks::BlockQ6K; $body }
            // `QType::from_ggml` gives no type this build has no kernels for.
            #[cfg(not(feature = "extras"))]
            QType::Q4_0 | QType::Q5_0 | QType::Q4K | QType::Q5K | QType::Q6K => unreachable!("{} is not in this build", $qtype),
            QType::F32 | QType::F16 | QType::BF16 => $plain,
        }
    };
    ($qtype:expr, $B:ident => $body:expr) => {
        with_block!($qtype, $B => $body, plain => unreachable!("plain weights have no blocks"))
    };
}
pub(super) use with_block;

/// As `with_block!`, for the formats the relaxed SIMD kernel takes (`relaxed::Int7Block`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
macro_rules! with_7_bit_block {
    ($qtype:expr, $B:ident => $body:expr) => {
        match $qtype {
            #[cfg(feature = "extras")]
            QType::Q4_0 => {
                type $B = $crate::kernels::quant::blocks::BlockQ4_0;
                $body
            }
            QType::Q4_1 => {
                type $B = $crate::kernels::quant::blocks::BlockQ4_1;
                $body
            }
            #[cfg(feature = "extras")]
            QType::Q5_0 => {
                type $B = $crate::kernels::quant::blocks::BlockQ5_0;
                $body
            }
            #[cfg(feature = "extras")]
            QType::Q4K => {
                type $B = $crate::kernels::quant::blocks::BlockQ4K;
                $body
            }
            #[cfg(feature = "extras")]
            QType::Q5K => {
                type $B = $crate::kernels::quant::blocks::BlockQ5K;
                $body
            }
            _ => unreachable!("{} has no 7-bit kernel", $qtype),
        }
    };
}

/// Whether `qtype`'s blocks have an offset m besides their scale d.
pub fn has_offset(qtype: QType) -> bool {
    with_block!(qtype, B => B::HAS_OFFSET, plain => false)
}

/// The byte offset of the first value or block scale in `data` (whole
/// values or blocks of `qtype`) that is infinite or NaN.
pub fn first_non_finite(qtype: QType, data: &[u8]) -> Option<usize> {
    fn halves(data: &[u8], step: usize, at: std::ops::Range<usize>) -> Option<usize> {
        let mut i = 0;
        while i + step <= data.len() {
            if data[i + at.start..i + at.end]
                .chunks_exact(2)
                .any(|h| !F16::from_bits(u16::from_le_bytes([h[0], h[1]])).is_finite())
            {
                return Some(i);
            }
            i += step;
        }
        None
    }
    match qtype {
        QType::F32 => data
            .chunks_exact(4)
            .position(|b| !f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_finite())
            .map(|i| 4 * i),
        QType::F16 => halves(data, 2, 0..2),
        QType::BF16 => data
            .chunks_exact(2)
            .position(|b| b[1] & 0x7f == 0x7f && b[0] & 0x80 != 0)
            .map(|i| 2 * i),
        _ => with_block!(qtype, B => halves(data, B::BYTES, B::HALVES)),
    }
}

/// An input's integer parts for the wasm one-to-three-token kernels (see
/// [`Input`]), each kind made on first use; nothing elsewhere.
#[derive(Default)]
pub struct IntegerParts {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    int16: std::cell::OnceCell<simd128::Int16Parts>,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
    int8: std::cell::OnceCell<relaxed::Int8Parts>,
}

/// Whole quantized blocks (or plain values) into `out`, as f32.
pub fn dequantize(isa: Isa, qtype: QType, bytes: &[u8], out: &mut [f32]) {
    match isa.in_this_build() {
        // SAFETY: the CPU has AVX2 and F16C (`Isa::Avx2`).
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            with_block!(qtype, B => unsafe { avx2::dequantize::<B>(bytes, out) }, plain => unsafe { avx2::dequantize_plain(qtype, bytes, out) })
        }
        // SAFETY: simd128 is enabled for the whole build.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => {
            with_block!(qtype, B => unsafe { simd128::dequantize::<B>(bytes, out) }, plain => portable::dequantize_plain(qtype, bytes, out))
        }
        Isa::Portable => {
            with_block!(qtype, B => portable::dequantize::<B>(bytes, out), plain => portable::dequantize_plain(qtype, bytes, out))
        }
    }
}

/// out[t][col0 + k] = Σ_c w[k][c] · x[t][c] for the first `r` of the 3
/// expanded rows in `w` and the `n` tokens in `x`, `width` outputs a token
/// (`shape`).
pub fn dots(isa: Isa, w: &[f32], x: &[f32], out: &mut [f32], shape: TileShape) {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx2
        && shape.cols.is_multiple_of(8)
        && (w.as_ptr() as usize).is_multiple_of(32)
        && (x.as_ptr() as usize).is_multiple_of(32)
    {
        // SAFETY: the CPU has AVX2 and FMA (`Isa::Avx2`); alignment checked just above.
        unsafe { avx2::dots(w, x, out, shape) };
        return;
    }
    let _ = isa;
    portable::dots(w, x, out, shape);
}

/// out[t][k] = Σ_c W[k][c] · x[t][c] for the quantized `rows` and the one to
/// three tokens of `input`, each block expanded as `dequantize` does and
/// multiplied while in registers. Natively the sum runs in the order of
/// [`dots`], so the results are bit-identical to dequantizing first and
/// calling it; in wasm (integer parts) they differ from the batch product by
/// rounding, about 1e-7 relative: an appended token's attention stays within
/// 2e-6 of a full recompute.
pub fn dots_quantized(
    isa: Isa,
    rows: &QuantizedRows,
    input: &Input,
    out: &mut [f32],
    width: usize,
) {
    let (x, n, cols) = (&input.x.data[..], input.x.rows, input.x.cols);
    let QuantizedRows { qtype, bytes, row_bytes, count, .. } = *rows;
    assert!(
        (1..4).contains(&n)
            && cols.is_multiple_of(qtype.block_size().0)
            && bytes.len() >= count * row_bytes
            && x.len() >= n * cols
            && out.len() >= (n - 1) * width + count
    );
    match isa.in_this_build() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => with_block!(qtype, B => {
            // SAFETY: AVX2, FMA and F16C (`Isa::Avx2`); sizes asserted above.
            unsafe {
                match n {
                    1 => avx2::dots_quantized::<1, B>(rows, x, cols, out, width),
                    2 => avx2::dots_quantized::<2, B>(rows, x, cols, out, width),
                    _ => avx2::dots_quantized::<3, B>(rows, x, cols, out, width),
                }
            }
        }),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => {
            #[cfg(feature = "fma")]
            if matches!(qtype, QType::Q4_0 | QType::Q4_1 | QType::Q5_0 | QType::Q4K | QType::Q5K) {
                let parts = input.parts.int8.get_or_init(|| relaxed::Int8Parts::new(x, n, cols));
                with_7_bit_block!(qtype, B => match n {
                    1 => relaxed::dots_quantized::<1, B>(rows, parts, cols, out, width),
                    2 => relaxed::dots_quantized::<2, B>(rows, parts, cols, out, width),
                    _ => relaxed::dots_quantized::<3, B>(rows, parts, cols, out, width),
                });
                return;
            }
            let parts = input.parts.int16.get_or_init(|| simd128::Int16Parts::new(x, n, cols));
            with_block!(qtype, B => match n {
                1 => simd128::dots_quantized::<1, B>(rows, parts, cols, out, width),
                2 => simd128::dots_quantized::<2, B>(rows, parts, cols, out, width),
                _ => simd128::dots_quantized::<3, B>(rows, parts, cols, out, width),
            })
        }
        Isa::Portable => {
            with_block!(qtype, B => portable::dots_quantized::<B>(rows, x, n, cols, out, width))
        }
    }
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the quantized `rows` and the tokens
/// of `x` (out is n × rows), where an instruction set has a batch product of
/// its own (wasm's expands the weights a few rows at a time, interleaved);
/// false where it has none, and the caller expands rows and calls [`dots`].
pub fn batch(isa: Isa, rows: &QuantizedRows, x: &Matrix, out: &mut [f32]) -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if isa == Isa::Simd128 && !rows.qtype.is_plain() {
        // SAFETY: simd128 is enabled for the whole build; sizes asserted inside.
        with_block!(rows.qtype, B => unsafe { simd128::forward::<B>(rows, &x.data, x.rows, x.cols, out) });
        return true;
    }
    let _ = (isa, rows, x, out);
    false
}
