//! The quantized formats as typed views of their blocks (ggml's layouts,
//! documented in ggml's `ggml-common.h` and the GGUF spec), 32 weights each:
//!
//! ```text
//!   Q4_1: d: f16, m: f16, qs: [u8; 16]   w[j] = d·(qs[j] & 15) + m,  w[j+16] = d·(qs[j] >> 4) + m
//!   Q8_0: d: f16,         qs: [i8; 32]   w[j] = d·qs[j]
//! ```
//!
//! A block type is `repr(C)` with byte-sized fields only, so that a run of
//! blocks can be viewed in place in the file's bytes at any alignment; its
//! size is checked at compile time. Its [`Block::dequantize`] is the format's
//! definition, which the portable kernels use as it is and every vector
//! kernel must match bit for bit. A new format is one block type here, with
//! its [`QType`], and one kernel per instruction-set file.

use super::QType;

/// Weights per quantization block (every format here).
pub const BLOCK: usize = 32;

/// An f16 as its two little-endian bytes, as a block stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct F16([u8; 2]);

impl F16 {
    pub fn from_bits(bits: u16) -> F16 {
        F16(bits.to_le_bytes())
    }

    pub fn to_bits(self) -> u16 {
        u16::from_le_bytes(self.0)
    }

    /// The value as f32. Every block has one or two scales, so this is in
    /// the innermost loop of the portable kernels, where the `half` crate's
    /// general conversion (branches for each class of number) cost more than
    /// the block's arithmetic. Shifting the exponent and mantissa into place
    /// and multiplying by 2¹¹² (the difference of the two exponent biases) is
    /// exact for zeros, subnormals and normal numbers; infinities and NaNs,
    /// which a model file has no use for, come out finite.
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        let h = self.to_bits() as u32;
        let magnitude = f32::from_bits((h & 0x7fff) << 13) * f32::from_bits((127 + 112) << 23);
        f32::from_bits(magnitude.to_bits() | ((h & 0x8000) << 16))
    }
}

/// A quantization block.
///
/// # Safety
/// The type must be `repr(C)` of byte-sized fields only (alignment 1, no
/// padding, every bit pattern valid), so that [`Block::slice`] can view any
/// bytes as blocks.
pub unsafe trait Block: Copy + 'static {
    /// The format's GGML type.
    const QTYPE: QType;
    /// Bytes per block.
    const BYTES: usize = std::mem::size_of::<Self>();
    /// Whether the block has an offset m besides its scale d (its f32 scales
    /// then hold a run of m after the run of d: `QMatrix::scales`).
    const HAS_OFFSET: bool;

    /// The block's scale d as f32.
    fn d(&self) -> f32;

    /// The block's offset m as f32 (0 without one).
    fn m(&self) -> f32;

    /// The 32 weights, as the format defines them.
    fn dequantize(&self, out: &mut [f32]);

    /// The whole blocks at the start of `bytes`.
    fn slice(bytes: &[u8]) -> &[Self] {
        // SAFETY: the trait's contract: alignment 1 and any bit pattern valid,
        // so each `BYTES` bytes in `bytes` are a block.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / Self::BYTES) }
    }

    /// The address of the block's first four bytes: its scale d, then for
    /// Q4_1 its offset m and for Q8_0 its first two weights (which callers
    /// ignore). Vector code loads them as one 32-bit word and converts both
    /// halves at once. Every block here starts with d and has at least four bytes.
    #[inline(always)]
    fn scale_word(p: *const Self) -> *const u32 {
        p as *const u32
    }
}

/// Q4_1: w = d·q + m for 4-bit q; the low nibbles of `qs` are weights 0-15,
/// the high nibbles 16-31.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ4_1 {
    pub d: F16,
    pub m: F16,
    pub qs: [u8; BLOCK / 2],
}

const _: () = assert!(std::mem::size_of::<BlockQ4_1>() == 20 && std::mem::align_of::<BlockQ4_1>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ4_1 {
    const QTYPE: QType = QType::Q4_1;
    const HAS_OFFSET: bool = true;

    #[inline(always)]
    fn d(&self) -> f32 {
        self.d.to_f32()
    }

    #[inline(always)]
    fn m(&self) -> f32 {
        self.m.to_f32()
    }

    /// d·q (+ m) in f32 as the Hugging Face reference computes it; d·q is
    /// exact (an 11-bit mantissa times a 4-bit integer), so every weight is
    /// bit-identical to the reference's.
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let (d, m) = (self.d(), self.m());
        let (lo, hi) = out[..BLOCK].split_at_mut(BLOCK / 2);
        for (w, &q) in lo.iter_mut().zip(&self.qs) {
            *w = (q & 0x0f) as f32 * d + m;
        }
        for (w, &q) in hi.iter_mut().zip(&self.qs) {
            *w = (q >> 4) as f32 * d + m;
        }
    }
}

/// Q8_0: w = d·q for signed 8-bit q.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ8_0 {
    pub d: F16,
    pub qs: [i8; BLOCK],
}

const _: () = assert!(std::mem::size_of::<BlockQ8_0>() == 34 && std::mem::align_of::<BlockQ8_0>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ8_0 {
    const QTYPE: QType = QType::Q8_0;
    const HAS_OFFSET: bool = false;

    #[inline(always)]
    fn d(&self) -> f32 {
        self.d.to_f32()
    }

    #[inline(always)]
    fn m(&self) -> f32 {
        0.0
    }

    /// d·q, exact in f32 (an 11-bit mantissa times an 8-bit integer).
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let d = self.d();
        for (w, &q) in out[..BLOCK].iter_mut().zip(&self.qs) {
            *w = q as f32 * d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::quant::QMatrix;
    use half::f16;

    #[test]
    fn block_scales_convert_exactly_for_every_finite_f16() {
        for bits in 0..=u16::MAX {
            let want = f16::from_bits(bits);
            if want.is_finite() {
                assert_eq!(F16::from_bits(bits).to_f32().to_bits(), want.to_f32().to_bits(), "{bits:#06x}");
            }
        }
    }

    fn q4_1_block(d: f32, m: f32, qs: [u8; 16]) -> Vec<u8> {
        let mut b = f16::from_f32(d).to_le_bytes().to_vec();
        b.extend_from_slice(&f16::from_f32(m).to_le_bytes());
        b.extend_from_slice(&qs);
        b
    }

    #[test]
    fn q4_1_low_nibbles_fill_the_first_half_and_high_nibbles_the_second() {
        let mut qs = [0u8; 16];
        qs[0] = 0x21; // w[0] = 1·d + m, w[16] = 2·d + m
        qs[15] = 0xf0; // w[15] = m, w[31] = 15·d + m
        let w = QMatrix::new(1, 32, QType::Q4_1, q4_1_block(0.5, -1.0, qs)).unwrap().row(0);
        assert_eq!((w[0], w[16], w[15], w[31], w[1]), (-0.5, 0.0, -1.0, 6.5, -1.0));
    }

    #[test]
    fn q8_0_is_signed_bytes_times_scale() {
        let mut b = f16::from_f32(0.25).to_le_bytes().to_vec();
        b.extend((0..32).map(|i| (i as i8 - 16) as u8));
        let w = QMatrix::new(1, 32, QType::Q8_0, b).unwrap().row(0);
        assert_eq!((w[0], w[16], w[31]), (-4.0, 0.0, 3.75));
    }

    #[test]
    fn a_block_view_reads_the_fields_where_the_format_puts_them() {
        let bytes = q4_1_block(0.5, -1.0, std::array::from_fn(|j| j as u8));
        let [b] = BlockQ4_1::slice(&bytes) else { panic!("one block") };
        assert_eq!((b.d(), b.m(), b.qs[15]), (0.5, -1.0, 15));
        assert_eq!(BlockQ4_1::slice(&bytes[..19]).len(), 0, "a partial block is no block");
    }
}
