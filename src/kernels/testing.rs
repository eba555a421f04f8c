//! Random weights in the kernels' block formats, for their tests and
//! benchmarks: the same seed gives the same bytes everywhere.

use crate::testing::Rng;

fn scale_bits(rng: &mut Rng, negative: bool) -> [u8; 2] {
    (0x2000 + rng.below(0x1400) as u16 + if negative { 0x8000 } else { 0 }).to_le_bytes()
}

/// `blocks` Q4_1 blocks from `seed`: d positive and m negative, both of
/// magnitude in [2⁻⁷, 2⁻²), every nibble anything.
pub fn q4_1_blocks(blocks: usize, seed: u32) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..blocks {
        out.extend(scale_bits(&mut rng, false));
        out.extend(scale_bits(&mut rng, true));
        out.extend(rng.bytes(16));
    }
    out
}

/// `blocks` Q8_0 blocks from `seed`: d of either sign and magnitude in
/// [2⁻⁷, 2⁻²), every weight anything.
pub fn q8_0_blocks(blocks: usize, seed: u32) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..blocks {
        let negative = rng.below(2) == 1;
        out.extend(scale_bits(&mut rng, negative));
        out.extend(rng.bytes(32));
    }
    out
}

/// `blocks` blocks of `qtype` (a quantized format) from `seed`: every bit
/// anything but the f16 block scales, of either sign and magnitude in
/// [2⁻⁷, 2⁻²).
pub fn quant_blocks(qtype: super::quant::QType, blocks: usize, seed: u32) -> Vec<u8> {
    let (at, size) = qtype.block_halves().expect("a quantized format");
    let mut rng = Rng::new(seed);
    let mut out = rng.bytes(blocks * size);
    for block in out.chunks_exact_mut(size) {
        for h in block[at.clone()].chunks_exact_mut(2) {
            let negative = rng.below(2) == 1;
            h.copy_from_slice(&scale_bits(&mut rng, negative));
        }
    }
    out
}
