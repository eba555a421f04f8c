//! What the two wasm kernels for one to three tokens share, simd128's on
//! 16-bit parts and relaxed SIMD's on 8-bit ones: each token's per-block
//! statistics ([`BlockStats`]), the rows' scales four blocks at a time
//! ([`row_scales`]), and the walks over rows and blocks ([`each_row`],
//! [`each_block`]).

use super::blocks::BLOCK;
use super::padded_blocks;
use std::arch::wasm32::*;

/// What the one-to-three-token kernels keep per token and block of 32
/// inputs besides the integer parts: the parts' unit and Σ x (for an
/// offset's term), `padded` values per token, zeros after the last block,
/// as [`row_scales`] reads them four blocks at a time.
pub struct BlockStats {
    pub unit: Vec<f32>,
    pub sums: Vec<f32>,
    pub blocks: usize,
    pub padded: usize,
}

impl BlockStats {
    pub fn new(n: usize, cols: usize) -> BlockStats {
        let padded = padded_blocks(cols);
        BlockStats {
            unit: vec![0.0; n * padded],
            sums: vec![0.0; n * padded],
            blocks: cols / BLOCK,
            padded,
        }
    }

    /// Whether these are the statistics of `n` tokens of `cols` inputs.
    pub fn fits(&self, n: usize, cols: usize) -> bool {
        self.blocks == cols / BLOCK
            && self.unit.len() >= n * self.padded
            && self.sums.len() >= n * self.padded
    }

    /// The place of the i-th block of 32 inputs (tokens one after another).
    pub fn at(&self, i: usize) -> usize {
        i / self.blocks * self.padded + i % self.blocks
    }
}

/// For the one-to-three-token kernels, once per row: ds[t][b] = d_b ·
/// unit[t][b] (the weights' block scale times the inputs' integer
/// unit), four blocks at a time, and each token's Σ_b (m_b − bias·d_b)·Σx_b,
/// the offset term (m_b with `m`, else 0; `bias` is what a kernel took
/// from the integers to make them unsigned), as four partial sums (zeros
/// when there is no such term).
/// `scales`: the row's `padded` d, then with `m` its `padded` m
/// (`super::block_scales`); `ds`: `padded` values per token.
///
/// # Safety
/// `stats` must hold `T` tokens; those many values must be readable at
/// `scales` and writable at `ds`.
#[inline(always)]
pub unsafe fn row_scales<const T: usize>(
    scales: *const f32,
    m: bool,
    bias: f32,
    stats: &BlockStats,
    ds: *mut f32,
) -> [v128; T] {
    let (unit, sums, padded) = (stats.unit.as_ptr(), stats.sums.as_ptr(), stats.padded);
    let mut offset = [f32x4_splat(0.0); T];
    for c in (0..padded).step_by(4) {
        let d = v128_load(scales.add(c) as *const v128);
        let offsets = match (m, bias != 0.0) {
            (false, false) => None,
            (true, false) => Some(v128_load(scales.add(padded + c) as *const v128)),
            (false, true) => Some(f32x4_mul(d, f32x4_splat(-bias))),
            (true, true) => Some(f32x4_sub(
                v128_load(scales.add(padded + c) as *const v128),
                f32x4_mul(d, f32x4_splat(bias)),
            )),
        };
        for (t, off) in offset.iter_mut().enumerate() {
            let i = t * padded + c;
            v128_store(ds.add(i) as *mut v128, f32x4_mul(d, v128_load(unit.add(i) as *const v128)));
            if let Some(m) = offsets {
                *off = f32x4_add(*off, f32x4_mul(m, v128_load(sums.add(i) as *const v128)));
            }
        }
    }
    offset
}

/// out[t][k] = row(k, ds)[t] for every row k < `rows` and `T` tokens,
/// where `ds` is scratch for `padded` values per token ([`row_scales`]).
pub fn each_row<const T: usize>(
    rows: usize,
    padded: usize,
    out: &mut [f32],
    width: usize,
    mut row: impl FnMut(usize, *mut f32) -> [f32; T],
) {
    let mut ds = vec![0.0f32; T * padded];
    for k in 0..rows {
        for (t, s) in row(k, ds.as_mut_ptr()).into_iter().enumerate() {
            out[t * width + k] = s;
        }
    }
}

/// `f(b, b % 2)` for every block b < `blocks`, two per turn of the loop
/// (V8 checks the stack on every turn), the second argument a constant
/// once inlined: the 8-bit kernel keeps a sum for even blocks and one for
/// odd blocks, so that each block's multiply-add waits for the block before
/// last, not the one just before.
#[inline(always)]
pub fn each_block(blocks: usize, mut f: impl FnMut(usize, usize)) {
    let mut b = 0;
    while b + 2 <= blocks {
        f(b, 0);
        f(b + 1, 1);
        b += 2;
    }
    if b < blocks {
        f(b, 0);
    }
}
