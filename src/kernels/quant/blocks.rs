//! The quantized formats as typed views of their blocks (ggml's layouts,
//! documented in ggml's `ggml-common.h` and the GGUF spec). Every format
//! scales weights in blocks of 32; the K-quants gather eight such blocks in
//! a super-block of 256 whose block scales are themselves quantized:
//!
//! ```text
//!   Q4_0: d: f16,          qs: [u8; 16]           w[j] = d·((qs[j] & 15) − 8),   w[j+16] = d·((qs[j] >> 4) − 8)
//!   Q4_1: d: f16, m: f16,  qs: [u8; 16]           w[j] = d·(qs[j] & 15) + m,     w[j+16] = d·(qs[j] >> 4) + m
//!   Q5_0: d: f16, qh: [u8; 4], qs: [u8; 16]       as Q4_0 with bit j of qh as weight j's fifth bit, minus 16
//!   Q8_0: d: f16,          qs: [i8; 32]           w[j] = d·qs[j]
//!   Q4_K: d, dmin: f16, scales: [u8; 12], qs: [u8; 128]
//!         block b: 6-bit scale s_b and min m_b; w = d·s_b·q − dmin·m_b, q a nibble of
//!         qs[32·(b/2)..][..32] (low nibbles for even b, high for odd)
//!   Q5_K: as Q4_K with qh: [u8; 32] before qs: bit b of qh[l] is the fifth bit of block b's weight l
//!   Q6_K: ql: [u8; 128], qh: [u8; 64], scales: [i8; 16], d: f16
//!         w = d·scales[i/16]·(q − 32), q 6 bits: 4 from ql, 2 from qh (see [`BlockQ6K`])
//! ```
//!
//! A block type is `repr(C)` with byte-sized fields only, so that a run of
//! blocks can be viewed in place in the file's bytes at any alignment; its
//! size is checked at compile time. Its [`Block::dequantize`] is the format's
//! definition, checked bit for bit against the `gguf` Python package's on
//! real tensors (`tests/fixtures/quant/`), which the portable kernels use as
//! it is and every vector kernel must match bit for bit. A new format is one
//! block type here, with its [`QType`], one kernel per instruction-set file
//! and its line in `dispatch`.

use super::QType;
use std::mem::offset_of;
use std::ops::Range;

/// Weights per quantization block: the unit of every format's scales.
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

    /// Whether the value is neither infinite nor NaN (all exponent bits set).
    pub fn is_finite(self) -> bool {
        self.to_bits() & 0x7c00 != 0x7c00
    }

    /// The value as f32. Every block has one or two scales, so this is in
    /// the innermost loop of the portable kernels, where the `half` crate's
    /// general conversion (branches for each class of number) cost more than
    /// the block's arithmetic. Shifting the exponent and mantissa into place
    /// and multiplying by 2¹¹² (the difference of the two exponent biases) is
    /// exact for zeros, subnormals and normal numbers; infinities and NaNs,
    /// which `QMatrix::new` refuses, would come out finite.
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        let h = self.to_bits() as u32;
        let magnitude = f32::from_bits((h & 0x7fff) << 13) * f32::from_bits((127 + 112) << 23);
        f32::from_bits(magnitude.to_bits() | ((h & 0x8000) << 16))
    }
}

/// A quantization block (or a K-quant's super-block of eight).
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
    /// Blocks of [`BLOCK`] weights in one: 1, or 8 in a super-block.
    const BLOCKS: usize = 1;
    /// Weights per block (or super-block).
    const WEIGHTS: usize = BLOCK * Self::BLOCKS;
    /// Whether a block's weights have an offset m besides the scale d (its
    /// f32 scales then hold a run of m after the run of d: `QMatrix::scales`).
    const HAS_OFFSET: bool;
    /// Where the f16 scales lie in the block's bytes, which `QMatrix::new`
    /// checks are finite.
    const HALVES: Range<usize>;

    /// Block `b`'s (of [`Block::BLOCKS`]) scale d and offset m (0 without
    /// one), as f32, exact: its weights are d·i + m for the integers the
    /// vector kernels take from it (for Q6_K, i is the 6-bit weight times
    /// its 8-bit scale, and d the super-block's).
    fn scales(&self, b: usize) -> (f32, f32);

    /// The [`Block::WEIGHTS`] weights, as the format defines them.
    fn dequantize(&self, out: &mut [f32]);

    /// The whole blocks at the start of `bytes`.
    fn slice(bytes: &[u8]) -> &[Self] {
        // SAFETY: the trait's contract: alignment 1 and any bit pattern valid,
        // so each `BYTES` bytes in `bytes` are a block.
        unsafe {
            std::slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / Self::BYTES)
        }
    }
}

/// The f16 field at `offset` of a block type, as [`Block::HALVES`] gives it.
const fn halves(offset: usize, count: usize) -> Range<usize> {
    offset..offset + 2 * count
}

/// The low nibbles of `qs`, then its high nibbles: how every 4-bit format
/// orders 32 weights in 16 bytes.
#[inline(always)]
fn nibbles(qs: &[u8; 16]) -> impl Iterator<Item = u8> + '_ {
    qs.iter().map(|q| q & 15).chain(qs.iter().map(|q| q >> 4))
}

/// Q4_0: w = d·(q − 8) for 4-bit q; low nibbles of `qs` are weights 0-15.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ4_0 {
    pub d: F16,
    pub qs: [u8; BLOCK / 2],
}

const _: () =
    assert!(std::mem::size_of::<BlockQ4_0>() == 18 && std::mem::align_of::<BlockQ4_0>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ4_0 {
    const QTYPE: QType = QType::Q4_0;
    const HAS_OFFSET: bool = false;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 1);

    #[inline(always)]
    fn scales(&self, _: usize) -> (f32, f32) {
        (self.d.to_f32(), 0.0)
    }

    /// d·(q − 8), exact in f32.
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let d = self.d.to_f32();
        for (w, q) in out[..BLOCK].iter_mut().zip(nibbles(&self.qs)) {
            *w = (q as i32 - 8) as f32 * d;
        }
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

const _: () =
    assert!(std::mem::size_of::<BlockQ4_1>() == 20 && std::mem::align_of::<BlockQ4_1>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ4_1 {
    const QTYPE: QType = QType::Q4_1;
    const HAS_OFFSET: bool = true;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 2);

    #[inline(always)]
    fn scales(&self, _: usize) -> (f32, f32) {
        (self.d.to_f32(), self.m.to_f32())
    }

    /// d·q (+ m) in f32 as the reference computes it; d·q is exact (an
    /// 11-bit mantissa times a 4-bit integer), so every weight is
    /// bit-identical to the reference's.
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let (d, m) = self.scales(0);
        for (w, q) in out[..BLOCK].iter_mut().zip(nibbles(&self.qs)) {
            *w = q as f32 * d + m;
        }
    }
}

/// Q5_0: w = d·(q − 16) for 5-bit q, whose low four bits are Q4_0's nibbles
/// and whose fifth bit for weight j is bit j of `qh` (little-endian).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ5_0 {
    pub d: F16,
    pub qh: [u8; 4],
    pub qs: [u8; BLOCK / 2],
}

const _: () =
    assert!(std::mem::size_of::<BlockQ5_0>() == 22 && std::mem::align_of::<BlockQ5_0>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ5_0 {
    const QTYPE: QType = QType::Q5_0;
    const HAS_OFFSET: bool = false;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 1);

    #[inline(always)]
    fn scales(&self, _: usize) -> (f32, f32) {
        (self.d.to_f32(), 0.0)
    }

    /// d·(q − 16), exact in f32.
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let (d, qh) = (self.d.to_f32(), u32::from_le_bytes(self.qh));
        for (j, (w, q)) in out[..BLOCK].iter_mut().zip(nibbles(&self.qs)).enumerate() {
            let q = q as u32 | ((qh >> j) & 1) << 4;
            *w = (q as i32 - 16) as f32 * d;
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

const _: () =
    assert!(std::mem::size_of::<BlockQ8_0>() == 34 && std::mem::align_of::<BlockQ8_0>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ8_0 {
    const QTYPE: QType = QType::Q8_0;
    const HAS_OFFSET: bool = false;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 1);

    #[inline(always)]
    fn scales(&self, _: usize) -> (f32, f32) {
        (self.d.to_f32(), 0.0)
    }

    /// d·q, exact in f32 (an 11-bit mantissa times an 8-bit integer).
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let d = self.d.to_f32();
        for (w, &q) in out[..BLOCK].iter_mut().zip(&self.qs) {
            *w = q as f32 * d;
        }
    }
}

/// Blocks in a K-quant super-block.
const SUPER: usize = 8;

/// Block `b`'s 6-bit scale and min in the twelve bytes of Q4_K and Q5_K:
/// bytes 0-3 hold blocks 0-3's scales in their low six bits, bytes 4-7
/// their mins; blocks 4-7 have their low four bits in the nibbles of bytes
/// 8-11 (scale low, min high) and their top two bits in the top two bits of
/// bytes 0-3 (scales) and 4-7 (mins).
#[inline(always)]
pub fn scale_min_k4(scales: &[u8; 12], b: usize) -> (u8, u8) {
    if b < 4 {
        (scales[b] & 63, scales[b + 4] & 63)
    } else {
        (
            (scales[b + 4] & 15) | (scales[b - 4] >> 6) << 4,
            (scales[b + 4] >> 4) | (scales[b] >> 6) << 4,
        )
    }
}

/// Q4_K: a super-block of eight blocks of 32, w = (d·s_b)·q − dmin·m_b.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ4K {
    pub d: F16,
    pub dmin: F16,
    /// Each block's 6-bit scale and min ([`scale_min_k4`]).
    pub scales: [u8; 12],
    /// Blocks 2c and 2c + 1 are the low and high nibbles of `qs[32c..32c + 32]`.
    pub qs: [u8; SUPER * BLOCK / 2],
}

const _: () =
    assert!(std::mem::size_of::<BlockQ4K>() == 144 && std::mem::align_of::<BlockQ4K>() == 1);

/// A K-quant block's d·s and −dmin·m, each product exact (11 by 6 bits).
#[inline(always)]
fn k_scales(d: F16, dmin: F16, scales: &[u8; 12], b: usize) -> (f32, f32) {
    let (s, m) = scale_min_k4(scales, b);
    (d.to_f32() * s as f32, -(dmin.to_f32() * m as f32))
}

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ4K {
    const QTYPE: QType = QType::Q4K;
    const BLOCKS: usize = SUPER;
    const HAS_OFFSET: bool = true;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 2);

    #[inline(always)]
    fn scales(&self, b: usize) -> (f32, f32) {
        k_scales(self.d, self.dmin, &self.scales, b)
    }

    /// (d·s)·q − dmin·m, as the reference computes it: the product is exact
    /// (17 bits by 4), so only the subtraction rounds.
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        for (b, w) in out[..SUPER * BLOCK].chunks_exact_mut(BLOCK).enumerate() {
            let (d, m) = self.scales(b);
            let qs = &self.qs[BLOCK * (b / 2)..][..BLOCK];
            for (w, &q) in w.iter_mut().zip(qs) {
                let q = if b % 2 == 0 { q & 15 } else { q >> 4 };
                *w = d * q as f32 + m;
            }
        }
    }
}

/// Q5_K: Q4_K with a fifth bit per weight, `(qh[l] >> b) & 1` for weight
/// l of block b.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ5K {
    pub d: F16,
    pub dmin: F16,
    pub scales: [u8; 12],
    pub qh: [u8; BLOCK],
    pub qs: [u8; SUPER * BLOCK / 2],
}

const _: () =
    assert!(std::mem::size_of::<BlockQ5K>() == 176 && std::mem::align_of::<BlockQ5K>() == 1);

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ5K {
    const QTYPE: QType = QType::Q5K;
    const BLOCKS: usize = SUPER;
    const HAS_OFFSET: bool = true;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 2);

    #[inline(always)]
    fn scales(&self, b: usize) -> (f32, f32) {
        k_scales(self.d, self.dmin, &self.scales, b)
    }

    /// (d·s)·q − dmin·m, the product exact (17 bits by 5).
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        for (b, w) in out[..SUPER * BLOCK].chunks_exact_mut(BLOCK).enumerate() {
            let (d, m) = self.scales(b);
            let qs = &self.qs[BLOCK * (b / 2)..][..BLOCK];
            for ((w, &q), &h) in w.iter_mut().zip(qs).zip(&self.qh) {
                let q = (if b % 2 == 0 { q & 15 } else { q >> 4 }) | ((h >> b) & 1) << 4;
                *w = d * q as f32 + m;
            }
        }
    }
}

/// Q6_K: a super-block of 256 weights, w = (d·scales[i/16])·(q − 32) for
/// 6-bit q. Weights 128h + 32g + l (h < 2, g < 4, l < 32) take their low
/// four bits from `ql[64h + 32·(g % 2) + l]` (low nibble for g < 2, high
/// nibble after) and their top two from bits 2g, 2g + 1 of `qh[32h + l]`.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct BlockQ6K {
    pub ql: [u8; SUPER * BLOCK / 2],
    pub qh: [u8; SUPER * BLOCK / 4],
    pub scales: [i8; SUPER * 2],
    pub d: F16,
}

const _: () =
    assert!(std::mem::size_of::<BlockQ6K>() == 210 && std::mem::align_of::<BlockQ6K>() == 1);

impl BlockQ6K {
    /// Weight l of block b, as the 6-bit q − 32.
    #[inline(always)]
    pub fn q(&self, b: usize, l: usize) -> i32 {
        let (h, g) = (b / 4, b % 4);
        let low = self.ql[64 * h + 32 * (g % 2) + l] >> (4 * (g / 2)) & 15;
        let high = (self.qh[32 * h + l] >> (2 * g)) & 3;
        (low | high << 4) as i32 - 32
    }
}

// SAFETY: repr(C) of byte arrays only.
unsafe impl Block for BlockQ6K {
    const QTYPE: QType = QType::Q6K;
    const BLOCKS: usize = SUPER;
    const HAS_OFFSET: bool = false;
    const HALVES: Range<usize> = halves(offset_of!(Self, d), 1);

    #[inline(always)]
    fn scales(&self, _: usize) -> (f32, f32) {
        (self.d.to_f32(), 0.0)
    }

    /// (d·scale)·(q − 32) as the reference computes it, exact (an 11-bit
    /// mantissa, a 7-bit scale and a 6-bit q: 24 bits at most).
    #[inline(always)]
    fn dequantize(&self, out: &mut [f32]) {
        let d = self.d.to_f32();
        for (b, w) in out[..SUPER * BLOCK].chunks_exact_mut(BLOCK).enumerate() {
            for (l, w) in w.iter_mut().enumerate() {
                *w = d * self.scales[2 * b + l / 16] as f32 * self.q(b, l) as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::quant::QMatrix;
    use half::f16;

    #[test]
    fn block_scales_convert_exactly_for_every_finite_f16() {
        for bits in 0..=u16::MAX {
            let want = f16::from_bits(bits);
            assert_eq!(F16::from_bits(bits).is_finite(), want.is_finite(), "{bits:#06x}");
            if want.is_finite() {
                assert_eq!(
                    F16::from_bits(bits).to_f32().to_bits(),
                    want.to_f32().to_bits(),
                    "{bits:#06x}"
                );
            }
        }
    }

    fn half(v: f32) -> [u8; 2] {
        f16::from_f32(v).to_le_bytes()
    }

    fn q4_1_block(d: f32, m: f32, qs: [u8; 16]) -> Vec<u8> {
        [&half(d)[..], &half(m), &qs].concat()
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
    fn q4_0_and_q5_0_centre_their_integers() {
        let mut qs = [0x88u8; 16];
        qs[0] = 0xf0; // w[0] = (0 − 8)·d, w[16] = (15 − 8)·d
        let w = QMatrix::new(1, 32, QType::Q4_0, [&half(0.5)[..], &qs].concat()).unwrap().row(0);
        assert_eq!((w[0], w[16], w[1]), (-4.0, 3.5, 0.0));
        // Fifth bits for weights 0 and 31 only: q = 16 + 0 there, 8 elsewhere.
        let qh = (1u32 | 1 << 31).to_le_bytes();
        let w = QMatrix::new(1, 32, QType::Q5_0, [&half(0.5)[..], &qh, &[0x88u8; 16]].concat())
            .unwrap()
            .row(0);
        assert_eq!((w[0], w[31], w[1], w[30]), (4.0, 4.0, -4.0, -4.0));
    }

    #[test]
    fn q8_0_is_signed_bytes_times_scale() {
        let mut b = half(0.25).to_vec();
        b.extend((0..32).map(|i| (i as i8 - 16) as u8));
        let w = QMatrix::new(1, 32, QType::Q8_0, b).unwrap().row(0);
        assert_eq!((w[0], w[16], w[31]), (-4.0, 0.0, 3.75));
    }

    #[test]
    fn k_quant_scales_and_mins_unpack_from_twelve_bytes() {
        // Blocks 0-3 straight from bytes 0-7; blocks 4-7 four bits from bytes
        // 8-11 and two from the tops of bytes 0-7.
        let scales = [0xc1, 0x02, 0x03, 0x04, 0x45, 0x06, 0x07, 0x08, 0x9a, 0x0b, 0x0c, 0x0d];
        assert_eq!(scale_min_k4(&scales, 0), (1, 5));
        assert_eq!(scale_min_k4(&scales, 3), (4, 8));
        assert_eq!(scale_min_k4(&scales, 4), (0x0a | 3 << 4, 0x09 | 1 << 4));
        assert_eq!(scale_min_k4(&scales, 7), (0x0d, 0));
    }

    #[test]
    fn q4_k_block_b_takes_the_low_or_high_nibbles_of_its_pair_of_blocks() {
        let mut b =
            BlockQ4K { d: F16(half(0.5)), dmin: F16(half(0.25)), scales: [0; 12], qs: [0; 128] };
        b.scales[1] = 2; // block 1's scale
        b.scales[5] = 4; // block 1's min
        b.qs[3] = 0x70; // block 0's weight 3 is 0, block 1's is 7
        let mut w = [0.0; 256];
        b.dequantize(&mut w);
        assert_eq!((w[3], w[32 + 3], w[32 + 4]), (0.0, 0.5 * 2.0 * 7.0 - 0.25 * 4.0, -1.0));
    }

    #[test]
    fn q6_k_weights_take_two_high_bits_from_qh_and_a_scale_per_sixteen() {
        let mut b = BlockQ6K { ql: [0; 128], qh: [0; 64], scales: [1; 16], d: F16(half(1.0)) };
        b.ql[64 + 32 + 5] = 0x30; // weight 128 + 32·3 + 5 has low bits 3
        b.qh[32 + 5] = 0b10 << 6; // and high bits 2: q = 35
        b.scales[15] = -2; // weights 240-255
        b.scales[14] = 3; // weights 224-239
        let mut w = [0.0; 256];
        b.dequantize(&mut w);
        assert_eq!((w[128 + 96 + 5], w[0], w[255]), (3.0 * 3.0, -32.0, -2.0 * -32.0));
    }

    #[test]
    fn a_block_view_reads_the_fields_where_the_format_puts_them() {
        let bytes = q4_1_block(0.5, -1.0, std::array::from_fn(|j| j as u8));
        let [b] = BlockQ4_1::slice(&bytes) else { panic!("one block") };
        assert_eq!((b.scales(0), b.qs[15]), ((0.5, -1.0), 15));
        assert_eq!(BlockQ4_1::slice(&bytes[..19]).len(), 0, "a partial block is no block");
        assert_eq!((BlockQ6K::HALVES, BlockQ4K::HALVES), (208..210, 0..4));
    }
}
