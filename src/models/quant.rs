//! Weight matrices kept in their GGUF quantized form, dequantized block by
//! block inside the matrix product.
//!
//! The model file is 98 MB in Q4_1; as f32 it would be ~540 MB, over the
//! browser's memory budget. So a [`QMatrix`] holds the raw blocks and
//! [`QMatrix::forward`] (y = x Wᵀ) expands a few rows at a time into a small
//! buffer that stays in the L1 cache.
//!
//! Block formats (ggml, 32 weights per block, both documented in ggml's
//! `ggml-common.h` and the GGUF spec):
//!
//! ```text
//!   Q4_1: d: f16, m: f16, qs: [u8; 16]   w[j] = d·(qs[j] & 15) + m,  w[j+16] = d·(qs[j] >> 4) + m
//!   Q8_0: d: f16,         qs: [i8; 32]   w[j] = d·qs[j]
//! ```
//!
//! Dequantization computes d·q (+ m) in f32 as the Hugging Face reference
//! does; d·q is exact (an 11-bit mantissa times a 4- or 8-bit integer), so
//! every weight is bit-identical to the reference's.

use crate::error::{Error, Result};
use crate::tensor::Matrix;

/// Weights per quantization block.
pub const BLOCK: usize = 32;

/// The storage types this model uses (GGML type ids 0, 3 and 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QType {
    F32,
    Q4_1,
    Q8_0,
}

impl QType {
    pub fn from_ggml(id: u32) -> Option<QType> {
        match id {
            0 => Some(QType::F32),
            3 => Some(QType::Q4_1),
            8 => Some(QType::Q8_0),
            _ => None,
        }
    }

    /// GGML's id of the type, as [`QType::from_ggml`] reads it.
    pub fn ggml_id(self) -> u32 {
        match self {
            QType::F32 => 0,
            QType::Q4_1 => 3,
            QType::Q8_0 => 8,
        }
    }

    /// Bytes taken by `n` values (n a multiple of the block size for the quantized types).
    pub fn bytes_for(self, n: usize) -> Option<usize> {
        match self {
            QType::F32 => n.checked_mul(4),
            QType::Q4_1 => n.is_multiple_of(BLOCK).then(|| n / BLOCK * 20),
            QType::Q8_0 => n.is_multiple_of(BLOCK).then(|| n / BLOCK * 34),
        }
    }
}

/// A `rows × cols` weight matrix in the layout of `nn.Linear`: row `j` holds
/// the weights of output `j`, so a product is y = x Wᵀ.
#[derive(Clone, Debug)]
pub struct QMatrix {
    pub rows: usize,
    pub cols: usize,
    pub qtype: QType,
    data: Vec<u8>,
    /// Only in wasm, where the one-to-three-token kernels read them (empty
    /// elsewhere): each row's block scales d, then (Q4_1) its offsets m, as
    /// f32 ([`block_scales`]). Expanding an f16 pair took a fifth of those
    /// kernels' instructions per block; kept expanded, they cost about 8
    /// bytes a Q4_1 block and 4 a Q8_0 block (34 MB for SmolLM2) and are
    /// read as vectors.
    dm: Vec<f32>,
    /// See [`QMatrix::with_16_bit_inputs`].
    inputs_16_bit: bool,
}

impl QMatrix {
    pub fn new(rows: usize, cols: usize, qtype: QType, data: Vec<u8>) -> Result<QMatrix> {
        let need = rows.checked_mul(cols).and_then(|n| qtype.bytes_for(n));
        if !cols.is_multiple_of(BLOCK) && qtype != QType::F32 {
            return Err(Error::ModelFile(format!("a {qtype:?} matrix needs rows of a multiple of {BLOCK} values, not {cols}")));
        }
        if need != Some(data.len()) {
            return Err(Error::ModelFile(format!("a {rows}×{cols} {qtype:?} matrix needs {need:?} bytes, the file has {}", data.len())));
        }
        Ok(QMatrix::with_scales(rows, cols, qtype, data))
    }

    fn with_scales(rows: usize, cols: usize, qtype: QType, data: Vec<u8>) -> QMatrix {
        let dm = if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) && qtype != QType::F32 {
            block_scales(qtype, &data, rows, cols)
        } else {
            Vec::new()
        };
        QMatrix { rows, cols, qtype, data, dm, inputs_16_bit: false }
    }

    /// Lets the browser's one-to-three-token product (`int16`) round this
    /// matrix's inputs to one 16-bit integer each, 2⁻¹⁶ of the largest in
    /// their block of 32, instead of two (f32's precision): for SmolLM2's
    /// output matrix, whose logits only set the next-token probabilities.
    /// On the five check texts in Chromium those moved by at most 3.6e-5
    /// (attention, which goes through 30 layers, would move by 1.1e-3); a
    /// token appended took 18.1 → 17.0 ms. Natively, and in the batch
    /// product, nothing changes.
    pub fn with_16_bit_inputs(mut self) -> QMatrix {
        self.inputs_16_bit = true;
        self
    }

    /// Whether [`QMatrix::with_16_bit_inputs`] applies.
    pub fn has_16_bit_inputs(&self) -> bool {
        self.inputs_16_bit
    }

    /// `self`'s settings on other rows of the same kind.
    fn with_rows(&self, rows: usize, data: Vec<u8>) -> QMatrix {
        QMatrix { inputs_16_bit: self.inputs_16_bit, ..QMatrix::with_scales(rows, self.cols, self.qtype, data) }
    }

    fn row_bytes(&self) -> usize {
        self.data.len() / self.rows.max(1)
    }

    /// Reorders rows: row `i` of the result is row `order[i]` of `self`.
    /// Rows are whole blocks, so this is exact in the quantized form.
    pub fn permute_rows(&self, order: &[usize]) -> QMatrix {
        let rb = self.row_bytes();
        let mut data = Vec::with_capacity(self.data.len());
        for &src in order {
            data.extend_from_slice(&self.data[src * rb..(src + 1) * rb]);
        }
        self.with_rows(order.len(), data)
    }

    /// The raw blocks (or f32 values), row after row.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// A copy of rows `range`.
    pub fn rows_copy(&self, range: std::ops::Range<usize>) -> QMatrix {
        let rb = self.row_bytes();
        self.with_rows(range.len(), self.data[range.start * rb..range.end * rb].to_vec())
    }

    /// Row `i` as f32 (an embedding lookup).
    pub fn row(&self, i: usize) -> Vec<f32> {
        let mut out = vec![0.0; self.cols];
        self.dequantize_row(i, &mut out);
        out
    }

    /// The whole matrix as f32 (tests and tools; the forward pass never does this).
    pub fn dequantize(&self) -> Matrix {
        let mut m = Matrix::zeros(self.rows, self.cols);
        for i in 0..self.rows {
            self.dequantize_row(i, m.row_mut(i));
        }
        m
    }

    pub fn dequantize_row(&self, i: usize, out: &mut [f32]) {
        self.dequantize_rows(i, 1, out);
    }

    /// Rows `first .. first + count` into `out` (row after row), in one
    /// pass over their contiguous blocks.
    pub fn dequantize_rows(&self, first: usize, count: usize, out: &mut [f32]) {
        let rb = self.row_bytes();
        let bytes = &self.data[first * rb..(first + count) * rb];
        let out = &mut out[..count * self.cols];
        match self.qtype {
            QType::F32 => {
                for (o, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
            QType::Q4_1 => kernel::dequantize_q4_1(bytes, out),
            QType::Q8_0 => kernel::dequantize_q8_0(bytes, out),
        }
    }

    /// y = x Wᵀ: (n × cols) → (n × rows), for all rows of x.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        self.forward_rows(x, 0..self.rows)
    }

    /// Output columns `range` of x Wᵀ only: (n × cols) → (n × range.len()).
    pub fn forward_rows(&self, x: &Matrix, range: std::ops::Range<usize>) -> Matrix {
        self.forward_input(&Input::new(x), range)
    }

    /// As [`QMatrix::forward_rows`], for an input shared by several
    /// products: its split for the one-to-three-token kernels is made once.
    pub fn forward_input(&self, input: &Input, range: std::ops::Range<usize>) -> Matrix {
        let x = input.x;
        assert_eq!(x.cols, self.cols, "QMatrix::forward: x has {} columns, W has {}", x.cols, self.cols);
        assert!(range.end <= self.rows, "QMatrix::forward: rows out of range");
        let mut out = Matrix::zeros(x.rows, range.len());
        if x.rows == 0 || range.is_empty() {
            return out;
        }
        let (n, cols) = (x.rows, self.cols);
        let width = range.len();
        let rb = self.row_bytes();
        let bytes = &self.data[range.start * rb..range.end * rb];
        if n < FUSED_BELOW && self.qtype != QType::F32 {
            // With so few tokens, writing the expanded weights to a buffer
            // and reading them back costs more than the products themselves:
            // expand each block in registers and use it at once. Natively the
            // same operations in the same order as below, so the outputs are
            // bit-identical to those of a longer batch.
            let per_row = scales_per_row(self.qtype, cols);
            let dm = self.dm.get(range.start * per_row..range.end * per_row).unwrap_or(&[]);
            kernel::dots_quantized(self.qtype, !self.inputs_16_bit, bytes, dm, rb, width, input, &mut out.data, width);
            return out;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if self.qtype != QType::F32 {
            kernel::forward_simd128(self.qtype, bytes, rb, width, &x.data, n, cols, &mut out.data);
            return out;
        }
        // Both operands 64-byte aligned, so no 8-wide load straddles two cache lines.
        let mut xs = Aligned::zeros(n * cols);
        xs.as_mut().copy_from_slice(&x.data);
        let mut wbuf = Aligned::zeros(ROWS * cols);
        let mut j = range.start;
        while j < range.end {
            let r = ROWS.min(range.end - j);
            let w = wbuf.as_mut();
            self.dequantize_rows(j, r, w);
            w[r * cols..].fill(0.0);
            // The next rows' blocks come in from memory while these are
            // multiplied, rather than after, when their expansion waits on them.
            kernel::prefetch(&self.data[(j + r) * rb..(j + r + ROWS).min(range.end) * rb]);
            kernel::dots(w, r, xs.as_mut(), n, cols, &mut out.data, width, j - range.start);
            j += r;
        }
        out
    }
}

/// The input of products with one or more weight matrices (q, k and v all
/// take the same one; so do the pieces of a product shared between two
/// threads). In wasm the one-to-three-token kernels first split each
/// block of 32 inputs into integer parts; that split is made on first use
/// and kept here, rather than made again for every matrix and piece: it
/// was about 1.5 µs each time, for some 28 products a layer when SmolLM2
/// appends a token on two threads.
pub struct Input<'a> {
    x: &'a Matrix,
    split: kernel::Split,
}

impl<'a> Input<'a> {
    pub fn new(x: &'a Matrix) -> Input<'a> {
        Input { x, split: kernel::Split::default() }
    }
}

/// Per row of quantized blocks: the blocks' d, then (Q4_1 only) their m,
/// as f32, each run zero-padded to [`padded_blocks`] so that it reads as
/// whole vectors. Q8_0 has no m: a run of zeros there was 3.5 MB more to
/// read for each token through SmolLM2's output matrix.
fn block_scales(qtype: QType, data: &[u8], rows: usize, cols: usize) -> Vec<f32> {
    let (blocks, padded) = (cols / BLOCK, padded_blocks(cols));
    let block_bytes = qtype.bytes_for(BLOCK).expect("every type has a size per block");
    let mut dm = Vec::with_capacity(rows * scales_per_row(qtype, cols));
    for row in data.chunks_exact(blocks * block_bytes).take(rows) {
        let start = dm.len();
        dm.extend(row.chunks_exact(block_bytes).map(|b| kernel::half(&b[0..2])));
        dm.resize(start + padded, 0.0);
        if qtype == QType::Q4_1 {
            dm.extend(row.chunks_exact(block_bytes).map(|b| kernel::half(&b[2..4])));
            dm.resize(start + 2 * padded, 0.0);
        }
    }
    dm
}

/// The values [`block_scales`] keeps per row.
fn scales_per_row(qtype: QType, cols: usize) -> usize {
    padded_blocks(cols) * if qtype == QType::Q4_1 { 2 } else { 1 }
}

/// Blocks in a row of `cols` values, rounded up to four.
fn padded_blocks(cols: usize) -> usize {
    (cols / BLOCK).next_multiple_of(4)
}

/// A zeroed f32 buffer starting on a cache-line boundary.
struct Aligned {
    lines: Vec<Line>,
    len: usize,
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([f32; 16]);

impl Aligned {
    fn zeros(len: usize) -> Aligned {
        Aligned { lines: vec![Line([0.0; 16]); len.div_ceil(16)], len }
    }

    fn as_mut(&mut self) -> &mut [f32] {
        // SAFETY: `Line` is 16 f32 with no padding (repr(C), 64 bytes), so the
        // lines are `16 · lines.len() ≥ len` consecutive, initialised f32.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr() as *mut f32, self.len) }
    }
}

/// Below this many tokens `forward_rows` multiplies straight from the
/// quantized blocks (appending a token to the key/value cache is one token).
const FUSED_BELOW: usize = 4;

/// Rows expanded at a time (the height of the AVX2 tile): 3 rows of up to
/// 1536 f32 take 18 KB of L1.
const ROWS: usize = 3;

mod kernel {
    //! The inner loops, with an AVX2/FMA/F16C version chosen at run time on
    //! x86-64, wasm simd128 versions (`simd128`, `int16`; `int8` where the
    //! browser has relaxed SIMD), and a portable
    //! one everywhere else. All give the same weights; the dot products
    //! differ only in rounding.
    //!
    //! out[t][col0 + k] = Σ_c w[k][c] · x[t][c] for the first `r` of the 3
    //! dequantized rows in `w`. Each output is one dot product of length
    //! `cols`, summed in the same order whatever the number of tokens, so a
    //! row computed alone (a key/value cache) equals the same row computed
    //! with others.

    /// An input's split for the wasm one-to-three-token kernels (see
    /// [`super::Input`]), each kind made on first use; nothing elsewhere.
    #[derive(Default)]
    pub struct Split {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        int16: std::cell::OnceCell<int16::Acts>,
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
        int8: std::cell::OnceCell<int8::Acts>,
    }

    #[cfg(target_arch = "x86_64")]
    fn has_avx2() -> bool {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") && std::is_x86_feature_detected!("f16c")
    }

    /// `w`: 3 rows of `cols` weights; `x`: `n` rows of `cols` values.
    #[allow(clippy::too_many_arguments)]
    pub fn dots(w: &[f32], r: usize, x: &[f32], n: usize, cols: usize, out: &mut [f32], width: usize, col0: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() && cols.is_multiple_of(8) && (w.as_ptr() as usize).is_multiple_of(32) && (x.as_ptr() as usize).is_multiple_of(32)
            {
                // SAFETY: the CPU has AVX2 and FMA (checked just above).
                unsafe { avx2::dots(w, r, x, n, cols, out, width, col0) };
                return;
            }
        }
        portable::dots(w, r, x, n, cols, out, width, col0);
    }

    /// Asks for `bytes` to be brought into the cache (natively; wasm has no
    /// prefetch instruction).
    pub fn prefetch(bytes: &[u8]) {
        #[cfg(target_arch = "x86_64")]
        for line in bytes.chunks(64) {
            // SAFETY: SSE is part of x86-64; a prefetch only hints, and the
            // address lies in `bytes`.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.as_ptr() as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bytes;
    }

    /// out[t][k] = Σ_c W[k][c] · x[t][c] for the `rows` quantized rows in
    /// `bytes` (`row_bytes` each) and `n` (1 to 3) tokens, each block
    /// expanded as `dequantize_*` does and multiplied while in registers.
    /// Natively the sum runs in the order of `dots`, so the results are
    /// bit-identical to dequantizing first and calling `dots`; in wasm
    /// (`int16`) they differ from the batch product by rounding, about 1e-7
    /// relative: an appended token's attention stays within 2e-6 of a full
    /// recompute. `dm`: the rows' d and m as f32 (`block_scales`), which
    /// the wasm kernels read; empty natively. Without `fine`, `int16`
    /// rounds the inputs to 16 bits ([`super::QMatrix::with_16_bit_inputs`]).
    #[allow(clippy::too_many_arguments)]
    pub fn dots_quantized(
        qtype: super::QType,
        fine: bool,
        bytes: &[u8],
        dm: &[f32],
        row_bytes: usize,
        rows: usize,
        input: &super::Input,
        out: &mut [f32],
        width: usize,
    ) {
        let (x, n, cols) = (&input.x.data[..], input.x.rows, input.x.cols);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let _ = (dm, fine, &input.split);
        assert!(
            (1..4).contains(&n)
                && cols.is_multiple_of(32)
                && bytes.len() >= rows * row_bytes
                && x.len() >= n * cols
                && out.len() >= (n - 1) * width + rows
        );
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                // SAFETY: AVX2, FMA and F16C checked just above; sizes asserted.
                unsafe {
                    match n {
                        1 => avx2::dots_quantized::<1>(qtype, bytes, row_bytes, rows, x, cols, out, width),
                        2 => avx2::dots_quantized::<2>(qtype, bytes, row_bytes, rows, x, cols, out, width),
                        _ => avx2::dots_quantized::<3>(qtype, bytes, row_bytes, rows, x, cols, out, width),
                    }
                }
                return;
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
        if qtype == super::QType::Q4_1 {
            let acts = input.split.int8.get_or_init(|| int8::Acts::new(x, n, cols));
            match n {
                1 => int8::dots::<1>(bytes, dm, row_bytes, rows, acts, cols, out, width),
                2 => int8::dots::<2>(bytes, dm, row_bytes, rows, acts, cols, out, width),
                _ => int8::dots::<3>(bytes, dm, row_bytes, rows, acts, cols, out, width),
            }
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            let acts = input.split.int16.get_or_init(|| int16::Acts::new(x, n, cols));
            match n {
                1 => int16::dots::<1>(qtype == super::QType::Q8_0, fine, bytes, dm, row_bytes, rows, acts, cols, out, width),
                2 => int16::dots::<2>(qtype == super::QType::Q8_0, fine, bytes, dm, row_bytes, rows, acts, cols, out, width),
                _ => int16::dots::<3>(qtype == super::QType::Q8_0, fine, bytes, dm, row_bytes, rows, acts, cols, out, width),
            }
            return;
        }
        #[allow(unreachable_code)]
        portable::dots_quantized(qtype, bytes, row_bytes, rows, x, n, cols, out, width);
    }

    /// out[t][k] = Σ_c W[k][c]·x[t][c] for the quantized `rows` in `bytes`
    /// and `n` tokens (out is n × rows): wasm's batch product, which
    /// expands the weights a few rows at a time.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[allow(clippy::too_many_arguments)]
    pub fn forward_simd128(
        qtype: super::QType,
        bytes: &[u8],
        row_bytes: usize,
        rows: usize,
        x: &[f32],
        n: usize,
        cols: usize,
        out: &mut [f32],
    ) {
        // SAFETY: simd128 is enabled for the whole build; sizes asserted inside.
        unsafe {
            match qtype {
                super::QType::Q8_0 => simd128::forward::<true>(bytes, row_bytes, rows, x, n, cols, out),
                super::QType::Q4_1 => simd128::forward::<false>(bytes, row_bytes, rows, x, n, cols, out),
                super::QType::F32 => unreachable!("f32 weights need no expansion"),
            }
        }
    }

    /// `bytes`: whole Q4_1 blocks (20 bytes each), `out`: 32 weights per block.
    pub fn dequantize_q4_1(bytes: &[u8], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                // SAFETY: AVX2 and F16C checked just above.
                unsafe { avx2::dequantize_q4_1(bytes, out) };
                return;
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            // SAFETY: simd128 is enabled for the whole build.
            unsafe { simd128::dequantize_q4_1(bytes, out) };
            return;
        }
        #[allow(unreachable_code)]
        portable::dequantize_q4_1(bytes, out);
    }

    /// `bytes`: whole Q8_0 blocks (34 bytes each), `out`: 32 weights per block.
    pub fn dequantize_q8_0(bytes: &[u8], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                // SAFETY: AVX2 and F16C checked just above.
                unsafe { avx2::dequantize_q8_0(bytes, out) };
                return;
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            // SAFETY: simd128 is enabled for the whole build.
            unsafe { simd128::dequantize_q8_0(bytes, out) };
            return;
        }
        #[allow(unreachable_code)]
        portable::dequantize_q8_0(bytes, out);
    }

    #[cfg(test)]
    pub use portable::{
        dequantize_q4_1 as portable_dequantize_q4_1, dequantize_q8_0 as portable_dequantize_q8_0, dots as portable_dots,
        dots_quantized as portable_dots_quantized,
    };

    /// An f16 block scale as f32. Every block has one or two, so this is in
    /// the innermost loop of the portable and simd128 kernels, where the `half`
    /// crate's general conversion (branches for each class of number) cost
    /// more than the block's arithmetic. Shifting the exponent and mantissa
    /// into place and multiplying by 2¹¹² (the difference of the two exponent
    /// biases) is exact for zeros, subnormals and normal numbers; infinities
    /// and NaNs, which a model file has no use for, come out finite.
    #[inline(always)]
    pub(super) fn half(b: &[u8]) -> f32 {
        let h = u16::from_le_bytes([b[0], b[1]]) as u32;
        let magnitude = f32::from_bits((h & 0x7fff) << 13) * f32::from_bits((127 + 112) << 23);
        f32::from_bits(magnitude.to_bits() | ((h & 0x8000) << 16))
    }

    /// The two f16 numbers at `p` (a Q4_1 block's d and m; for a Q8_0 block
    /// d and its first two weights), each in all four lanes, computed as
    /// `half` does, but with a few vector shifts rather than a dozen scalar
    /// operations and a splat each.
    ///
    /// # Safety
    /// The four bytes at `p` must be readable.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn halves(p: *const u8) -> (std::arch::wasm32::v128, std::arch::wasm32::v128) {
        use std::arch::wasm32::*;
        let both = v128_load32_splat(p as *const u32); // second·2¹⁶ + first
                                                       // Sign-extending a half's 16 bits from the top of the lane puts its
                                                       // sign at bit 31 and its magnitude at bits 13..28, as `half` does.
        let keep = u32x4_splat(0x8fff_e000);
        let rebias = f32x4_splat(f32::from_bits((127 + 112) << 23));
        let first = v128_and(i32x4_shr(i32x4_shl(both, 16), 3), keep);
        let second = v128_and(i32x4_shr(both, 3), keep);
        (f32x4_mul(first, rebias), f32x4_mul(second, rebias))
    }

    mod portable {

        pub fn dequantize_q4_1(bytes: &[u8], out: &mut [f32]) {
            for (o, b) in out.chunks_exact_mut(32).zip(bytes.chunks_exact(20)) {
                let (d, m) = (super::half(&b[0..2]), super::half(&b[2..4]));
                let qs: &[u8; 16] = b[4..20].try_into().expect("20-byte block");
                let (lo, hi) = o.split_at_mut(16);
                for j in 0..16 {
                    lo[j] = (qs[j] & 0x0f) as f32 * d + m;
                }
                for j in 0..16 {
                    hi[j] = (qs[j] >> 4) as f32 * d + m;
                }
            }
        }

        pub fn dequantize_q8_0(bytes: &[u8], out: &mut [f32]) {
            for (o, b) in out.chunks_exact_mut(32).zip(bytes.chunks_exact(34)) {
                let d = super::half(&b[0..2]);
                for (w, &q) in o.iter_mut().zip(&b[2..34]) {
                    *w = q as i8 as f32 * d;
                }
            }
        }

        /// As `dots` on the rows `dequantize_*` would give, one block at a
        /// time through a 32-weight scratch that never leaves registers/L1.
        #[allow(clippy::too_many_arguments)]
        pub fn dots_quantized(
            qtype: crate::models::quant::QType,
            bytes: &[u8],
            row_bytes: usize,
            rows: usize,
            x: &[f32],
            n: usize,
            cols: usize,
            out: &mut [f32],
            width: usize,
        ) {
            use crate::models::quant::QType;
            let block_bytes = match qtype {
                QType::Q4_1 => 20,
                QType::Q8_0 => 34,
                QType::F32 => unreachable!("f32 weights need no expansion"),
            };
            let mut w = [0.0f32; 32];
            for k in 0..rows {
                let row = &bytes[k * row_bytes..(k + 1) * row_bytes];
                let mut acc = [[0.0f32; 8]; 3];
                for (b, block) in row.chunks_exact(block_bytes).enumerate() {
                    match qtype {
                        QType::Q4_1 => dequantize_q4_1(block, &mut w),
                        _ => dequantize_q8_0(block, &mut w),
                    }
                    for (t, at) in acc.iter_mut().enumerate().take(n) {
                        let xb = &x[t * cols + 32 * b..t * cols + 32 * b + 32];
                        for (a, xc) in w.chunks_exact(8).zip(xb.chunks_exact(8)) {
                            for l in 0..8 {
                                at[l] += a[l] * xc[l];
                            }
                        }
                    }
                }
                for (t, at) in acc.iter().enumerate().take(n) {
                    out[t * width + k] = super::hsum(*at);
                }
            }
        }

        /// Eight running sums per dot product, as the vector kernels keep.
        #[allow(clippy::too_many_arguments)]
        pub fn dots(w: &[f32], r: usize, x: &[f32], n: usize, cols: usize, out: &mut [f32], width: usize, col0: usize) {
            for t in 0..n {
                let xt = &x[t * cols..(t + 1) * cols];
                for k in 0..r {
                    let wk = &w[k * cols..(k + 1) * cols];
                    let mut acc = [0.0f32; 8];
                    let mut wc = wk.chunks_exact(8);
                    let mut xc = xt.chunks_exact(8);
                    for (a, b) in (&mut wc).zip(&mut xc) {
                        for l in 0..8 {
                            acc[l] += a[l] * b[l];
                        }
                    }
                    let mut s = super::hsum(acc);
                    for (a, b) in wc.remainder().iter().zip(xc.remainder()) {
                        s += a * b;
                    }
                    out[t * width + col0 + k] = s;
                }
            }
        }
    }

    /// Sum of eight lanes in a fixed tree order (the AVX2 path reduces the same way).
    #[inline(always)]
    pub fn hsum(a: [f32; 8]) -> f32 {
        let b = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
        let c = [b[0] + b[2], b[1] + b[3]];
        c[0] + c[1]
    }

    /// The portable kernels written out in wasm simd128 (the compiler does
    /// not find this register blocking by itself). No fused multiply-add in
    /// wasm: each product is rounded, then added, exactly as the portable
    /// code does, and each dot product keeps eight lanes (two vectors) summed
    /// by `hsum`'s tree. So the dequantized weights are bit-identical to
    /// `portable`'s; the products are not (`forward` keeps four running sums
    /// per output), and differ from them by rounding, about 1e-7 relative.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    mod simd128 {
        use std::arch::wasm32::*;

        #[inline(always)]
        unsafe fn load(p: *const f32) -> v128 {
            v128_load(p as *const v128)
        }

        /// Sixteen small integers (four vectors of i32, in order) as f32.
        /// Widening with extends rather than moving bytes with shuffles:
        /// V8 rebuilds each shuffle's constant on every use. The signed
        /// conversion is exact for these values and one instruction on
        /// x86-64, where V8 spells out the unsigned one in several.
        #[inline(always)]
        fn widen(lo: v128, hi: v128, signed: bool) -> [v128; 4] {
            let parts = if signed {
                [i32x4_extend_low_i16x8(lo), i32x4_extend_high_i16x8(lo), i32x4_extend_low_i16x8(hi), i32x4_extend_high_i16x8(hi)]
            } else {
                [u32x4_extend_low_u16x8(lo), u32x4_extend_high_u16x8(lo), u32x4_extend_low_u16x8(hi), u32x4_extend_high_u16x8(hi)]
            };
            parts.map(|v| f32x4_convert_i32x4(v))
        }

        /// The 32 quantized values of the Q4_1 block at `p`, as f32 but not
        /// yet scaled: low nibbles of bytes 0-15, then high nibbles.
        #[inline(always)]
        unsafe fn q4_1_values(p: *const u8) -> [v128; 8] {
            let qs = v128_load(p.add(4) as *const v128);
            let (lo, hi) = (v128_and(qs, u8x16_splat(0x0f)), u8x16_shr(qs, 4));
            let [a, b, c, d] = widen(u16x8_extend_low_u8x16(lo), u16x8_extend_high_u8x16(lo), false);
            let [e, f, g, h] = widen(u16x8_extend_low_u8x16(hi), u16x8_extend_high_u8x16(hi), false);
            [a, b, c, d, e, f, g, h]
        }

        /// The 32 quantized values of the Q8_0 block at `p`, as f32, not scaled.
        #[inline(always)]
        unsafe fn q8_0_values(p: *const u8) -> [v128; 8] {
            let (qa, qb) = (v128_load(p.add(2) as *const v128), v128_load(p.add(18) as *const v128));
            let [a, b, c, d] = widen(i16x8_extend_low_i8x16(qa), i16x8_extend_high_i8x16(qa), true);
            let [e, f, g, h] = widen(i16x8_extend_low_i8x16(qb), i16x8_extend_high_i8x16(qb), true);
            [a, b, c, d, e, f, g, h]
        }

        /// The 32 weights of the Q4_1 block at `p` as eight vectors of four.
        #[inline(always)]
        unsafe fn q4_1_block(p: *const u8) -> [v128; 8] {
            let (d, m) = super::halves(p);
            q4_1_values(p).map(|q| f32x4_add(f32x4_mul(q, d), m))
        }

        /// The 32 weights of the Q8_0 block at `p`.
        #[inline(always)]
        unsafe fn q8_0_block(p: *const u8) -> [v128; 8] {
            let (d, _) = super::halves(p);
            q8_0_values(p).map(|q| f32x4_mul(q, d))
        }

        pub unsafe fn dequantize_q4_1(bytes: &[u8], out: &mut [f32]) {
            let blocks = (bytes.len() / 20).min(out.len() / 32);
            for i in 0..blocks {
                let o = out.as_mut_ptr().add(i * 32);
                for (g, v) in q4_1_block(bytes.as_ptr().add(i * 20)).into_iter().enumerate() {
                    v128_store(o.add(4 * g) as *mut v128, v);
                }
            }
        }

        pub unsafe fn dequantize_q8_0(bytes: &[u8], out: &mut [f32]) {
            let blocks = (bytes.len() / 34).min(out.len() / 32);
            for i in 0..blocks {
                let o = out.as_mut_ptr().add(i * 32);
                for (g, v) in q8_0_block(bytes.as_ptr().add(i * 34)).into_iter().enumerate() {
                    v128_store(o.add(4 * g) as *mut v128, v);
                }
            }
        }

        /// Rows of a tile, and tokens taken together. 4 × 2 = 8
        /// accumulators beside 4 rows, 2 tokens and a product: 15 vector
        /// registers, as many as V8 gives wasm on x86-64. 3 × 3 (9 + 6 + 1)
        /// made V8 keep one accumulator on the stack, and the loop waited on
        /// that store and load each time round: 10 % slower.
        const TILE_ROWS: usize = 4;
        const TILE_TOKENS: usize = 2;

        /// The weights of `r ≤ TILE_ROWS` rows (zeros past `r`) interleaved
        /// four columns at a time, `out[4·TILE_ROWS·i + 4·k + l] =
        /// W[k][4·i + l]`, so that a tile's loads all come from one moving
        /// pointer at fixed offsets rather than one pointer per row.
        unsafe fn dequantize_interleaved<const Q8: bool>(bytes: &[u8], row_bytes: usize, r: usize, cols: usize, out: &mut [f32]) {
            assert!(bytes.len() >= r * row_bytes && out.len() >= TILE_ROWS * cols && r <= TILE_ROWS);
            let o = out.as_mut_ptr();
            for k in 0..TILE_ROWS {
                for b in 0..cols / 32 {
                    let v = if k >= r {
                        [f32x4_splat(0.0); 8]
                    } else {
                        let p = bytes.as_ptr().add(k * row_bytes);
                        if Q8 {
                            q8_0_block(p.add(34 * b))
                        } else {
                            q4_1_block(p.add(20 * b))
                        }
                    };
                    for (g, v) in v.into_iter().enumerate() {
                        v128_store(o.add(4 * TILE_ROWS * (8 * b + g) + 4 * k) as *mut v128, v);
                    }
                }
            }
        }

        /// `TILE_ROWS` interleaved weight rows against `T` tokens whose
        /// columns are interleaved likewise (`x[4·T·i + 4·t + l]`), one
        /// vector (four running sums) per output; each chunk of four columns
        /// costs TILE_ROWS + T loads for TILE_ROWS·T products. An output's
        /// sum does not depend on T.
        #[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"), inline)]
        #[cfg_attr(not(feature = "fma"), inline(always))]
        unsafe fn tile<const T: usize>(w: *const f32, x: *const f32, chunks: usize) -> [[f32; TILE_ROWS]; T] {
            let mut acc = [[f32x4_splat(0.0); TILE_ROWS]; T];
            for i in 0..chunks {
                let wi = w.add(4 * TILE_ROWS * i);
                let wv: [v128; TILE_ROWS] = std::array::from_fn(|k| load(wi.add(4 * k)));
                for (t, at) in acc.iter_mut().enumerate() {
                    let xv = load(x.add(4 * T * i + 4 * t));
                    for (a, wr) in at.iter_mut().zip(wv) {
                        *a = crate::models::madd(wr, xv, *a);
                    }
                }
            }
            acc.map(|at| {
                at.map(|a| {
                    (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<2>(a)) + (f32x4_extract_lane::<1>(a) + f32x4_extract_lane::<3>(a))
                })
            })
        }

        /// `kernel::forward_simd128`: `TILE_ROWS` rows expanded at a time
        /// (at most 24 KB, in L1), multiplied by the tokens `TILE_TOKENS`
        /// at a time, then one by one.
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn forward<const Q8: bool>(
            bytes: &[u8],
            row_bytes: usize,
            rows: usize,
            x: &[f32],
            n: usize,
            cols: usize,
            out: &mut [f32],
        ) {
            assert!(cols.is_multiple_of(32) && bytes.len() >= rows * row_bytes && x.len() >= n * cols && out.len() >= n * rows);
            let (groups, chunks) = (n / TILE_TOKENS, cols / 4);
            // Each group of tokens interleaved once, for all rows.
            let mut xg = vec![0.0f32; groups * TILE_TOKENS * cols];
            for g in 0..groups {
                for t in 0..TILE_TOKENS {
                    for i in 0..chunks {
                        let src = x.as_ptr().add((TILE_TOKENS * g + t) * cols + 4 * i);
                        v128_store(xg.as_mut_ptr().add(TILE_TOKENS * cols * g + 4 * TILE_TOKENS * i + 4 * t) as *mut v128, load(src));
                    }
                }
            }
            let mut w = vec![0.0f32; TILE_ROWS * cols];
            let mut k = 0;
            while k < rows {
                let r = TILE_ROWS.min(rows - k);
                dequantize_interleaved::<Q8>(&bytes[k * row_bytes..], row_bytes, r, cols, &mut w);
                let mut store = |t: usize, s: [f32; TILE_ROWS]| out[t * rows + k..t * rows + k + r].copy_from_slice(&s[..r]);
                for g in 0..groups {
                    for (t, s) in tile::<TILE_TOKENS>(w.as_ptr(), xg.as_ptr().add(TILE_TOKENS * cols * g), chunks).into_iter().enumerate() {
                        store(TILE_TOKENS * g + t, s);
                    }
                }
                for t in TILE_TOKENS * groups..n {
                    let [s] = tile::<1>(w.as_ptr(), x.as_ptr().add(t * cols), chunks);
                    store(t, s);
                }
                k += r;
            }
        }
    }

    /// wasm's product for one to three tokens (appending to the key/value
    /// cache; the prediction head), with the inputs as 16-bit integers.
    ///
    /// With so few tokens every weight is used once or thrice, and the cost
    /// is in turning each Q4_1 nibble into an f32 (two widenings and a
    /// conversion per value, no fused multiply-add to follow) more than in
    /// the products. `i32x4.dot_i16x8_s` (x86's pmaddwd) multiplies eight
    /// 16-bit pairs and adds neighbours in one instruction, and a nibble
    /// needs a single widening to be its operand. So each token's block of
    /// 32 inputs is split once into two 16-bit integer vectors,
    ///
    /// ```text
    ///   x ≈ s·(hi + lo/65536),   s = max|x| / 32767,   |hi|, |lo| ≤ 32767,
    /// ```
    ///
    /// and a row's sum is, block by block,
    ///
    /// ```text
    ///   Σ_j (d·q_j + m)·x_j  ≈  d·s·(Σ_j q_j·hi_j + 2⁻¹⁶·Σ_j q_j·lo_j)  +  m·Σ_j x_j
    /// ```
    ///
    /// The integer sums are exact, and the split loses at most 2⁻³² of the
    /// block's largest value besides f32's rounding of hi's remainder, so
    /// the sums keep f32's precision; Σ x stays in f32. One 16-bit part
    /// alone (x to 2⁻¹⁶ of the block's largest value) was measured:
    /// SmolLM2's attention then moved up to 1.1e-3 from the reference, more
    /// than the 1e-3 allowed, so both are kept.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    mod int16 {
        use std::arch::wasm32::*;

        /// `n` tokens of `cols` inputs, split per block of 32.
        pub struct Acts {
            hi: Vec<i16>,
            lo: Vec<i16>,
            /// s (the unit of hi) and Σ x per block.
            stats: super::BlockStats,
        }

        impl Acts {
            pub fn new(x: &[f32], n: usize, cols: usize) -> Acts {
                let (mut hi, mut lo) = (vec![0i16; n * cols], vec![0i16; n * cols]);
                let mut stats = super::BlockStats::new(n, cols);
                for (i, xb) in x[..n * cols].chunks_exact(32).enumerate() {
                    let at = stats.at(i);
                    let amax = xb.iter().fold(0.0f32, |a, v| if v.abs() > a { v.abs() } else { a });
                    stats.sums[at] = xb.iter().sum();
                    if amax > 0.0 && amax.is_finite() {
                        let (s, inv) = (amax / 32767.0, 32767.0 / amax);
                        stats.unit[at] = s;
                        for (j, &v) in xb.iter().enumerate() {
                            let h = (v * inv).round_ties_even();
                            // `as` saturates: a residual a hair over half a step stays in range.
                            hi[32 * i + j] = h as i16;
                            lo[32 * i + j] = ((v - s * h) * inv * 65536.0).round_ties_even() as i16;
                        }
                    }
                }
                Acts { hi, lo, stats }
            }
        }

        /// The 32 integers of the block at `p` as four i16x8, in weight order.
        #[inline(always)]
        unsafe fn block<const Q8: bool>(p: *const u8) -> [v128; 4] {
            if Q8 {
                let (a, c) = (v128_load(p.add(2) as *const v128), v128_load(p.add(18) as *const v128));
                [i16x8_extend_low_i8x16(a), i16x8_extend_high_i8x16(a), i16x8_extend_low_i8x16(c), i16x8_extend_high_i8x16(c)]
            } else {
                let qs = v128_load(p.add(4) as *const v128);
                // Shifting 16-bit lanes and masking is what i8x16.shr_u
                // becomes on x86 anyway, but with the mask kept in a register.
                let mask = u8x16_splat(0x0f);
                let (lo, hi) = (v128_and(qs, mask), v128_and(u16x8_shr(qs, 4), mask));
                [u16x8_extend_low_u8x16(lo), u16x8_extend_high_u8x16(lo), u16x8_extend_low_u8x16(hi), u16x8_extend_high_u8x16(hi)]
            }
        }

        /// One row (its blocks at `row`, their scales at `dm`) against the
        /// `T` tokens of `acts`; `ds` is scratch for a scale per block and token.
        #[inline(always)]
        unsafe fn row_times_tokens<const T: usize, const Q8: bool, const FINE: bool>(
            row: *const u8,
            dm: *const f32,
            acts: &Acts,
            ds: *mut f32,
        ) -> [f32; T] {
            let (blocks, padded) = (acts.stats.blocks, acts.stats.padded);
            let offset = super::row_scales::<T>(dm, !Q8, &acts.stats, ds);
            let mut acc = [f32x4_splat(0.0); T];
            // One sum per token: a second one for odd blocks (as `int8`
            // keeps) was slower here, 20.85 → 21.25 ms a token appended in
            // the plain worker.
            let block = |b: usize, acc: &mut [v128; T]| {
                let q = block::<Q8>(row.add(b * if Q8 { 34 } else { 20 }));
                for (t, at) in acc.iter_mut().enumerate() {
                    let i = t * blocks + b;
                    let (hp, lp) = (acts.hi.as_ptr().add(32 * i), acts.lo.as_ptr().add(32 * i));
                    let dot = |p: *const i16, c: usize| i32x4_dot_i16x8(q[c], v128_load(p.add(8 * c) as *const v128));
                    let sum = |p: *const i16| i32x4_add(i32x4_add(dot(p, 0), dot(p, 1)), i32x4_add(dot(p, 2), dot(p, 3)));
                    let coarse = f32x4_convert_i32x4(sum(hp));
                    let f =
                        if FINE { f32x4_add(coarse, f32x4_mul(f32x4_convert_i32x4(sum(lp)), f32x4_splat(1.0 / 65536.0))) } else { coarse };
                    *at = f32x4_add(*at, f32x4_mul(f, v128_load32_splat(ds.add(t * padded + b) as *const u32)));
                }
            };
            super::each_block(blocks, |b, _| block(b, &mut acc));
            std::array::from_fn(|t| super::lanes_sum(acc[t]) + super::lanes_sum(offset[t]))
        }

        /// out[t][k] = Σ_c W[k][c]·x[t][c] for the `rows` rows in `bytes`
        /// (Q4_1 or Q8_0, `row_bytes` each, their scales in `dm` as
        /// `block_scales` lays them out) and `T` tokens; without `fine`
        /// from the inputs' 16-bit parts alone.
        #[allow(clippy::too_many_arguments)]
        pub fn dots<const T: usize>(
            q8: bool,
            fine: bool,
            bytes: &[u8],
            dm: &[f32],
            row_bytes: usize,
            rows: usize,
            acts: &Acts,
            cols: usize,
            out: &mut [f32],
            width: usize,
        ) {
            let (blocks, padded) = (cols / 32, super::super::padded_blocks(cols));
            let per_row = super::super::scales_per_row(if q8 { super::super::QType::Q8_0 } else { super::super::QType::Q4_1 }, cols);
            assert!(cols.is_multiple_of(32) && row_bytes >= blocks * if q8 { 34 } else { 20 } && dm.len() >= rows * per_row);
            assert!(
                bytes.len() >= rows * row_bytes
                    && acts.hi.len() >= T * cols
                    && acts.stats.fits(T, cols)
                    && out.len() >= (T - 1) * width + rows
            );
            super::each_row::<T>(rows, padded, out, width, |k, ds| {
                // SAFETY: simd128 is enabled for the whole build; the row's
                // blocks lie in `bytes`, its scales in `dm`, the tokens in
                // `acts`, and `ds` has a scale for each of their padded
                // blocks (asserted above and by `each_row`).
                unsafe {
                    let (row, dm) = (bytes.as_ptr().add(k * row_bytes), dm.as_ptr().add(k * per_row));
                    match (q8, fine) {
                        (true, true) => row_times_tokens::<T, true, true>(row, dm, acts, ds),
                        (true, false) => row_times_tokens::<T, true, false>(row, dm, acts, ds),
                        (false, true) => row_times_tokens::<T, false, true>(row, dm, acts, ds),
                        (false, false) => row_times_tokens::<T, false, false>(row, dm, acts, ds),
                    }
                }
            });
        }
    }

    /// What the one-to-three-token kernels keep per token and block of 32
    /// inputs besides the integer parts: the parts' unit and Σ x (for
    /// Q4_1's m term), `padded` values per token, zeros after the last
    /// block, as `row_scales` reads them four blocks at a time.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    struct BlockStats {
        unit: Vec<f32>,
        sums: Vec<f32>,
        blocks: usize,
        padded: usize,
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    impl BlockStats {
        fn new(n: usize, cols: usize) -> BlockStats {
            let padded = super::padded_blocks(cols);
            BlockStats { unit: vec![0.0; n * padded], sums: vec![0.0; n * padded], blocks: cols / super::BLOCK, padded }
        }

        /// Whether these are the statistics of `n` tokens of `cols` inputs.
        fn fits(&self, n: usize, cols: usize) -> bool {
            self.blocks == cols / super::BLOCK && self.unit.len() >= n * self.padded && self.sums.len() >= n * self.padded
        }

        /// The place of the i-th block of 32 inputs (tokens one after another).
        fn at(&self, i: usize) -> usize {
            i / self.blocks * self.padded + i % self.blocks
        }
    }

    /// For the one-to-three-token kernels, once per row: ds[t][b] = d_b ·
    /// unit[t][b] (the weights' block scale times the inputs' integer
    /// unit), four blocks at a time, and with `m` each token's Σ_b
    /// m_b·Σx_b, Q4_1's offset term, as four partial sums (zeros without).
    /// `dm`: the row's `padded` d, then with `m` its `padded` m
    /// (`block_scales`); `ds`: `padded` values per token.
    ///
    /// # Safety
    /// `stats` must hold `T` tokens; those many values must be readable at
    /// `dm` and writable at `ds`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn row_scales<const T: usize>(dm: *const f32, m: bool, stats: &BlockStats, ds: *mut f32) -> [std::arch::wasm32::v128; T] {
        use std::arch::wasm32::*;
        let (unit, sums, padded) = (stats.unit.as_ptr(), stats.sums.as_ptr(), stats.padded);
        let mut offset = [f32x4_splat(0.0); T];
        for c in (0..padded).step_by(4) {
            let d = v128_load(dm.add(c) as *const v128);
            let offsets = m.then(|| v128_load(dm.add(padded + c) as *const v128));
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
    /// where `ds` is scratch for `padded` values per token (`row_scales`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn each_row<const T: usize>(
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
    /// once inlined: `int8` keeps a sum for even blocks and one for odd
    /// blocks, so that each block's multiply-add waits for the block before
    /// last, not the one just before.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn each_block(blocks: usize, mut f: impl FnMut(usize, usize)) {
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

    /// The four lanes' sum, in a fixed order.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn lanes_sum(a: std::arch::wasm32::v128) -> f32 {
        use std::arch::wasm32::*;
        (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<2>(a)) + (f32x4_extract_lane::<1>(a) + f32x4_extract_lane::<3>(a))
    }

    /// The product for one to three tokens in the browsers that have relaxed
    /// SIMD (the `fma` worker), for Q4_1: each token's block of 32 inputs as
    /// three 8-bit integer parts rather than two 16-bit ones,
    ///
    /// ```text
    ///   x ≈ s·(p₀ + p₁/254 + p₂/254²),   s = max|x| / 127,   |pᵢ| ≤ 127,
    /// ```
    ///
    /// so a nibble meets its inputs without any widening:
    /// `i16x8.relaxed_dot_i8x16_i7x16_s` (x86's pmaddubsw) multiplies sixteen
    /// bytes by sixteen 7-bit values and adds neighbours, in one instruction,
    /// twice the products of `i32x4.dot_i16x8_s`. Nibbles (0 to 15) are valid
    /// 7-bit operands, so the result is the same on every CPU, and the sums,
    /// at most 4·127·15 per 16-bit lane, cannot saturate. The split is off by
    /// at most s/(2·254²), 2⁻²⁴ of the block's largest value: f32's own
    /// rounding of it. Two parts would be as coarse as one 16-bit part
    /// (2⁻¹⁶), which moved SmolLM2's attention by 1.1e-3 (see `int16`).
    ///
    /// The three parts' sums are combined as integers, 254²·Σp₀ + 254·Σp₁ +
    /// Σp₂, exact in 32 bits, and converted once; with the block scales read
    /// from `dm`, the loop has half the instructions per block it had when
    /// it converted each part and expanded the f16 scales itself.
    /// Appending a token to SmolLM2's cache in Chromium: 22.1 → 19.4 ms;
    /// then two sums per token (even and odd blocks) and no 32-bit multiply
    /// in the combination: 19.5 → 18.6 ms (raw wasm).
    /// Earlier, in node 20: 31.1 → 22.8 ms for this kernel over `int16`;
    /// four rows at a time were faster with the weights in cache (0.476 →
    /// 0.44 ms a layer), but slower in the model, where they stream from
    /// memory (24.0 → 26.7 ms).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
    mod int8 {
        use std::arch::wasm32::*;

        const PARTS: usize = 3;
        const STEP: f32 = 254.0;

        /// `n` tokens of `cols` inputs: per block of 32, the three parts
        /// (32 bytes each), the parts' unit s/254² and Σ x (for Q4_1's m term).
        pub struct Acts {
            parts: Vec<i8>,
            /// s/254² (the unit of the combined parts) and Σ x per block.
            stats: super::BlockStats,
        }

        impl Acts {
            pub fn new(x: &[f32], n: usize, cols: usize) -> Acts {
                let mut parts = vec![0i8; n * cols * PARTS];
                let mut stats = super::BlockStats::new(n, cols);
                for (i, xb) in x[..n * cols].chunks_exact(32).enumerate() {
                    let at = stats.at(i);
                    // SAFETY: simd128 is on for the whole build; `xb` has 32 values.
                    let v: [v128; 8] = unsafe { std::array::from_fn(|k| v128_load(xb.as_ptr().add(4 * k) as *const v128)) };
                    let amax = lanes_max(v.map(|x| f32x4_abs(x)));
                    stats.sums[at] = super::lanes_sum(v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_add(a, b)));
                    if !(amax > 0.0 && amax.is_finite()) {
                        continue;
                    }
                    let s = amax / 127.0;
                    stats.unit[at] = s / (STEP * STEP);
                    // |x/s| ≤ 127 (to f32's rounding); each remainder, at
                    // most half a unit and exact, times 254 stays within
                    // ±127. That product is rounded, to 2⁻²⁴ of a part.
                    let mut r = v.map(|x| f32x4_div(x, f32x4_splat(s)));
                    for p in 0..PARTS {
                        let q = r.map(|x| f32x4_nearest(x));
                        let int = q.map(|x| i32x4_trunc_sat_f32x4(x));
                        let bytes = [0, 1].map(|h| {
                            i8x16_narrow_i16x8(
                                i16x8_narrow_i32x4(int[4 * h], int[4 * h + 1]),
                                i16x8_narrow_i32x4(int[4 * h + 2], int[4 * h + 3]),
                            )
                        });
                        for (h, b) in bytes.into_iter().enumerate() {
                            // SAFETY: 16 bytes within this block's part.
                            unsafe { v128_store(parts.as_mut_ptr().add(PARTS * 32 * i + 32 * p + 16 * h) as *mut v128, b) };
                        }
                        r = std::array::from_fn(|k| f32x4_mul(f32x4_sub(r[k], q[k]), f32x4_splat(STEP)));
                    }
                }
                Acts { parts, stats }
            }
        }

        fn lanes_max(v: [v128; 8]) -> f32 {
            let m = v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_pmax(a, b));
            let lanes = [f32x4_extract_lane::<0>(m), f32x4_extract_lane::<1>(m), f32x4_extract_lane::<2>(m), f32x4_extract_lane::<3>(m)];
            lanes.into_iter().fold(0.0, f32::max)
        }

        /// One Q4_1 row (its blocks at `row`, their d and m as f32 in
        /// `dm`) against the `T` tokens of `acts`; `ds` is scratch for a
        /// scale per block and token.
        #[target_feature(enable = "relaxed-simd")]
        unsafe fn row_times_tokens<const T: usize>(row: *const u8, dm: *const f32, acts: &Acts, ds: *mut f32) -> [f32; T] {
            let (blocks, padded) = (acts.stats.blocks, acts.stats.padded);
            let offset = super::row_scales::<T>(dm, true, &acts.stats, ds);
            let mut acc = [[f32x4_splat(0.0); 2]; T];
            let mask = u8x16_splat(0x0f);
            // 254² is beyond 16 bits; half of it is not.
            let (half_square, step) = (i16x8_splat((STEP * STEP / 2.0) as i16), i16x8_splat(STEP as i16));
            let block = |b: usize, odd: usize, acc: &mut [[v128; 2]; T]| {
                let qs = v128_load(row.add(20 * b + 4) as *const v128);
                // Weights 0-15 are the low nibbles, 16-31 the high ones.
                let (lo, hi) = (v128_and(qs, mask), v128_and(u16x8_shr(qs, 4), mask));
                for (t, at) in acc.iter_mut().map(|a| &mut a[odd]).enumerate() {
                    let a = acts.parts.as_ptr().add(PARTS * 32 * (t * blocks + b)) as *const v128;
                    // Each 16-bit lane: four products, at most 4·127·15.
                    let part = |k: usize| {
                        i16x8_add(
                            i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k)), lo),
                            i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k + 1)), hi),
                        )
                    };
                    // 254²·p₀ + 254·p₁ + p₂ summed in 32-bit integers, exact:
                    // at most 4·127·15·(254² + 254 + 1) < 2³¹ per lane; 2·p₀'s
                    // lanes stay within 16 bits (8·127·15).
                    let p0 = part(0);
                    let high = i32x4_add(i32x4_dot_i16x8(i16x8_add(p0, p0), half_square), i32x4_dot_i16x8(part(1), step));
                    let sum = i32x4_add(high, i32x4_extadd_pairwise_i16x8(part(2)));
                    *at = f32x4_relaxed_madd(f32x4_convert_i32x4(sum), v128_load32_splat(ds.add(t * padded + b) as *const u32), *at);
                }
            };
            super::each_block(blocks, |b, odd| block(b, odd, &mut acc));
            std::array::from_fn(|t| super::lanes_sum(f32x4_add(acc[t][0], acc[t][1])) + super::lanes_sum(offset[t]))
        }

        /// out[t][k] = Σ_c W[k][c]·x[t][c] for the `rows` Q4_1 rows in `bytes`
        /// (`row_bytes` each, their d and m in `dm` as [`super::super::block_scales`]
        /// lays them out) and `T` tokens.
        #[allow(clippy::too_many_arguments)]
        pub fn dots<const T: usize>(
            bytes: &[u8],
            dm: &[f32],
            row_bytes: usize,
            rows: usize,
            acts: &Acts,
            cols: usize,
            out: &mut [f32],
            width: usize,
        ) {
            let (blocks, padded, per_row) =
                (cols / 32, super::super::padded_blocks(cols), super::super::scales_per_row(super::super::QType::Q4_1, cols));
            assert!(cols.is_multiple_of(32) && row_bytes >= blocks * 20 && dm.len() >= rows * per_row);
            assert!(
                bytes.len() >= rows * row_bytes
                    && acts.parts.len() >= T * cols * PARTS
                    && acts.stats.fits(T, cols)
                    && out.len() >= (T - 1) * width + rows
            );
            super::each_row::<T>(rows, padded, out, width, |k, ds| {
                // SAFETY: the fma worker runs only where relaxed SIMD is
                // (the page checks); the row's blocks lie in `bytes`, its
                // scales in `dm`, the tokens in `acts` and `ds` has a scale
                // for each of their padded blocks (asserted above and by
                // `each_row`).
                unsafe { row_times_tokens::<T>(bytes.as_ptr().add(k * row_bytes), dm.as_ptr().add(k * per_row), acts, ds) }
            });
        }
    }

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        use std::arch::x86_64::*;

        /// d and m of a Q4_1 block (or d of a Q8_0 block, m then being a
        /// quantized weight we ignore), f16 → f32 in one instruction.
        #[inline(always)]
        unsafe fn scales(b: *const u8) -> (__m256, __m256) {
            let h = _mm_cvtph_ps(_mm_cvtsi32_si128((b as *const i32).read_unaligned()));
            (_mm256_set1_ps(_mm_cvtss_f32(h)), _mm256_set1_ps(_mm_cvtss_f32(_mm_shuffle_ps(h, h, 1))))
        }

        /// w = q·d + m. The product q·d is exact in f32 (4 bits times an
        /// 11-bit mantissa), so one fused multiply-add rounds exactly as the
        /// reference's multiply-then-add does.
        #[target_feature(enable = "avx2,fma,f16c")]
        pub unsafe fn dequantize_q4_1(bytes: &[u8], out: &mut [f32]) {
            let blocks = (bytes.len() / 20).min(out.len() / 32);
            let mask = _mm_set1_epi8(0x0f);
            for i in 0..blocks {
                let b = bytes.as_ptr().add(i * 20);
                let o = out.as_mut_ptr().add(i * 32);
                let (d, m) = scales(b);
                let qs = _mm_loadu_si128(b.add(4) as *const __m128i);
                let lo = _mm_and_si128(qs, mask);
                let hi = _mm_and_si128(_mm_srli_epi16(qs, 4), mask);
                for (k, q) in [lo, _mm_srli_si128(lo, 8), hi, _mm_srli_si128(hi, 8)].into_iter().enumerate() {
                    let f = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(q));
                    _mm256_storeu_ps(o.add(8 * k), _mm256_fmadd_ps(f, d, m));
                }
            }
        }

        #[target_feature(enable = "avx2,fma,f16c")]
        pub unsafe fn dequantize_q8_0(bytes: &[u8], out: &mut [f32]) {
            let blocks = (bytes.len() / 34).min(out.len() / 32);
            for i in 0..blocks {
                let b = bytes.as_ptr().add(i * 34);
                let o = out.as_mut_ptr().add(i * 32);
                let (d, _) = scales(b);
                for k in 0..4 {
                    let q = _mm_loadl_epi64(b.add(2 + 8 * k) as *const __m128i);
                    let f = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(q));
                    _mm256_storeu_ps(o.add(8 * k), _mm256_mul_ps(f, d));
                }
            }
        }

        /// The 32 weights of the Q4_1 block at `p`, as four vectors.
        #[inline(always)]
        unsafe fn q4_1_block(p: *const u8) -> [__m256; 4] {
            let (d, m) = scales(p);
            let qs = _mm_loadu_si128(p.add(4) as *const __m128i);
            let mask = _mm_set1_epi8(0x0f);
            let lo = _mm_and_si128(qs, mask);
            let hi = _mm_and_si128(_mm_srli_epi16(qs, 4), mask);
            [lo, _mm_srli_si128(lo, 8), hi, _mm_srli_si128(hi, 8)]
                .map(|q| _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(q)), d, m))
        }

        #[inline(always)]
        unsafe fn q8_0_block(p: *const u8) -> [__m256; 4] {
            let (d, _) = scales(p);
            std::array::from_fn(|k| {
                _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(p.add(2 + 8 * k) as *const __m128i))), d)
            })
        }

        /// `R` rows (starting at `w`, `row_bytes` apart) against `T` tokens,
        /// one accumulator each, every block expanded once and used by all
        /// tokens. Four rows keep enough independent sums in flight to hide
        /// the latency of the fused multiply-adds.
        #[inline(always)]
        unsafe fn quantized_tile<const R: usize, const T: usize, const Q8: bool>(
            w: *const u8,
            row_bytes: usize,
            x: *const f32,
            cols: usize,
        ) -> [[__m256; R]; T] {
            let mut acc = [[_mm256_setzero_ps(); R]; T];
            let block_bytes = if Q8 { 34 } else { 20 };
            for b in 0..cols / 32 {
                for r in 0..R {
                    let p = w.add(r * row_bytes + b * block_bytes);
                    // The same block of the next tile's row: with one token
                    // each weight feeds a single product, so the loop runs as
                    // fast as memory delivers and must ask ahead. A prefetch
                    // never faults, even past the matrix's end.
                    _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(R * row_bytes) as *const i8);
                    let wv = if Q8 { q8_0_block(p) } else { q4_1_block(p) };
                    for (g, wg) in wv.into_iter().enumerate() {
                        for (t, at) in acc.iter_mut().enumerate() {
                            at[r] = _mm256_fmadd_ps(wg, _mm256_loadu_ps(x.add(t * cols + 32 * b + 8 * g)), at[r]);
                        }
                    }
                }
            }
            acc
        }

        #[target_feature(enable = "avx2,fma,f16c")]
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn dots_quantized<const T: usize>(
            qtype: crate::models::quant::QType,
            bytes: &[u8],
            row_bytes: usize,
            rows: usize,
            x: &[f32],
            cols: usize,
            out: &mut [f32],
            width: usize,
        ) {
            let q8 = qtype == crate::models::quant::QType::Q8_0;
            let (wp, xp) = (bytes.as_ptr(), x.as_ptr());
            let mut k = 0;
            while k + 4 <= rows {
                let p = wp.add(k * row_bytes);
                let acc = if q8 {
                    quantized_tile::<4, T, true>(p, row_bytes, xp, cols)
                } else {
                    quantized_tile::<4, T, false>(p, row_bytes, xp, cols)
                };
                for (t, a) in acc.iter().enumerate() {
                    _mm_storeu_ps(out.as_mut_ptr().add(t * width + k), hsum4(a[0], a[1], a[2], a[3]));
                }
                k += 4;
            }
            while k < rows {
                let p = wp.add(k * row_bytes);
                let acc = if q8 {
                    quantized_tile::<1, T, true>(p, row_bytes, xp, cols)
                } else {
                    quantized_tile::<1, T, false>(p, row_bytes, xp, cols)
                };
                for (t, a) in acc.iter().enumerate() {
                    out[t * width + k] = _mm_cvtss_f32(hsum4(a[0], _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()));
                }
                k += 1;
            }
        }

        /// [Σa0, Σa1, Σa2, Σa3]: four dot products finished at once.
        #[inline(always)]
        unsafe fn hsum4(a0: __m256, a1: __m256, a2: __m256, a3: __m256) -> __m128 {
            let s = _mm256_hadd_ps(_mm256_hadd_ps(a0, a1), _mm256_hadd_ps(a2, a3));
            _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1))
        }

        /// Three weight rows against `T` tokens: 3·T accumulators. With T = 4
        /// that is 12 of the 16 vector registers, and each chunk of 8 columns
        /// costs 7 loads for 12 fused multiply-adds. Every accumulator sums
        /// its lanes in the same order whatever T is.
        #[inline(always)]
        unsafe fn tile<const T: usize>(wp: *const f32, xp: *const f32, cols: usize) -> [__m128; T] {
            let mut a = [[_mm256_setzero_ps(); 3]; T];
            let mut c = 0;
            while c < cols {
                let w0 = _mm256_load_ps(wp.add(c));
                let w1 = _mm256_load_ps(wp.add(cols + c));
                let w2 = _mm256_load_ps(wp.add(2 * cols + c));
                for (t, at) in a.iter_mut().enumerate() {
                    let xv = _mm256_load_ps(xp.add(t * cols + c));
                    at[0] = _mm256_fmadd_ps(w0, xv, at[0]);
                    at[1] = _mm256_fmadd_ps(w1, xv, at[1]);
                    at[2] = _mm256_fmadd_ps(w2, xv, at[2]);
                }
                c += 8;
            }
            std::array::from_fn(|t| hsum4(a[t][0], a[t][1], a[t][2], _mm256_setzero_ps()))
        }

        /// `w` holds 3 rows (zeros past `r`), `x` `n` tokens, both 32-byte
        /// aligned with `cols` a multiple of 8. Tokens go four at a time,
        /// then two, then one.
        #[target_feature(enable = "avx2,fma")]
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn dots(w: &[f32], r: usize, x: &[f32], n: usize, cols: usize, out: &mut [f32], width: usize, col0: usize) {
            assert!(
                cols.is_multiple_of(8)
                    && w.len() >= 3 * cols
                    && x.len() >= n * cols
                    && r <= 3
                    && (n == 0 || out.len() >= (n - 1) * width + col0 + r)
            );
            assert!((w.as_ptr() as usize).is_multiple_of(32) && (x.as_ptr() as usize).is_multiple_of(32));
            let wp = w.as_ptr();
            let mut store = |t: usize, s: __m128| {
                let mut v = [0.0f32; 4];
                _mm_storeu_ps(v.as_mut_ptr(), s);
                let o = &mut out[t * width + col0..t * width + col0 + r];
                // A whole tile's three sums copied as a fixed size: with a
                // length known only at run time each store called memcpy
                // for 12 bytes (1 % of a SmolLM2 forward).
                if r == 3 {
                    o.copy_from_slice(&v[..3]);
                } else {
                    o.copy_from_slice(&v[..r]);
                }
            };
            let mut t = 0;
            while t + 4 <= n {
                for (i, s) in tile::<4>(wp, x.as_ptr().add(t * cols), cols).into_iter().enumerate() {
                    store(t + i, s);
                }
                t += 4;
            }
            if t + 2 <= n {
                for (i, s) in tile::<2>(wp, x.as_ptr().add(t * cols), cols).into_iter().enumerate() {
                    store(t + i, s);
                }
                t += 2;
            }
            if t < n {
                let [s] = tile::<1>(wp, x.as_ptr().add(t * cols), cols);
                store(t, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    #[test]
    fn block_scales_convert_exactly_for_every_finite_f16() {
        for bits in 0..=u16::MAX {
            let want = f16::from_bits(bits);
            if want.is_finite() {
                assert_eq!(kernel::half(&bits.to_le_bytes()).to_bits(), want.to_f32().to_bits(), "{bits:#06x}");
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
    fn fused_product_equals_dequantize_then_multiply() {
        // 7 rows (a partial group of 4) × 64 columns, 5 tokens (an odd count).
        let mut data = Vec::new();
        for i in 0..14 {
            let qs: [u8; 16] = std::array::from_fn(|j| (i * 37 + j * 11) as u8);
            data.extend(q4_1_block(0.01 * (i as f32 + 1.0), -0.05 * i as f32, qs));
        }
        let w = QMatrix::new(7, 64, QType::Q4_1, data).unwrap();
        let x = Matrix::from_vec(5, 64, (0..320).map(|i| ((i * 7919) % 200) as f32 / 100.0 - 1.0).collect());
        let fused = w.forward(&x);
        let plain = x.matmul_t(&w.dequantize());
        assert!(fused.max_abs_diff(&plain) < 1e-5, "{}", fused.max_abs_diff(&plain));
        // One token alone gives bit-identical outputs (what the key/value cache relies on).
        let alone = w.forward(&x.rows_range(4, 1));
        assert_eq!(alone.row(0), fused.row(4));
        assert_eq!(w.forward_rows(&x, 2..6).row(1), &fused.row(1)[2..6]);
    }

    #[test]
    fn vector_and_portable_dequantization_agree() {
        let mut q4 = Vec::new();
        let mut q8 = Vec::new();
        for i in 0..8u32 {
            q4.extend(q4_1_block(
                0.013 * i as f32 - 0.05,
                0.3 - 0.07 * i as f32,
                std::array::from_fn(|j| (i as usize * 53 + j * 29) as u8),
            ));
            q8.extend(f16::from_f32(0.0071 * i as f32 + 1e-6).to_le_bytes());
            q8.extend((0..32).map(|j| (i * 71 + j * 13) as u8));
        }
        let (mut a, mut b) = (vec![0.0; 256], vec![0.0; 256]);
        kernel::dequantize_q4_1(&q4, &mut a);
        kernel::portable_dequantize_q4_1(&q4, &mut b);
        assert_eq!(a, b);
        kernel::dequantize_q8_0(&q8, &mut a);
        kernel::portable_dequantize_q8_0(&q8, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn products_from_the_blocks_equal_products_from_expanded_rows() {
        // 6 rows (a group of 4 and two single rows) × 96 columns, in both formats.
        let mut q4 = Vec::new();
        let mut q8 = Vec::new();
        for i in 0..18u32 {
            q4.extend(q4_1_block(
                0.011 * i as f32 + 0.002,
                0.2 - 0.03 * i as f32,
                std::array::from_fn(|j| (i as usize * 41 + j * 23) as u8),
            ));
            q8.extend(f16::from_f32(0.0093 * i as f32 + 1e-4).to_le_bytes());
            q8.extend((0..32).map(|j| (i * 67 + j * 19) as u8));
        }
        for w in [QMatrix::new(6, 96, QType::Q4_1, q4).unwrap(), QMatrix::new(6, 96, QType::Q8_0, q8).unwrap()] {
            let x = Matrix::from_vec(3, 96, (0..288).map(|i| ((i * 7907) % 300) as f32 / 150.0 - 1.0).collect());
            let dense = w.dequantize();
            for n in 1..=3 {
                let x = x.rows_range(0, n);
                let rb = w.row_bytes();
                let (mut fast, mut portable) = (vec![0.0; n * 6], vec![0.0; n * 6]);
                kernel::dots_quantized(w.qtype, true, &w.data, &w.dm, rb, 6, &Input::new(&x), &mut fast, 6);
                kernel::portable_dots_quantized(w.qtype, &w.data, rb, 6, &x.data, n, 96, &mut portable, 6);
                let mut expanded = vec![0.0; n * 6];
                kernel::portable_dots(&dense.data[..3 * 96], 3, &x.data, n, 96, &mut expanded, 6, 0);
                kernel::portable_dots(&dense.data[3 * 96..], 3, &x.data, n, 96, &mut expanded, 6, 3);
                // The portable kernel sums exactly as `dots` does on expanded rows…
                assert_eq!(portable, expanded, "{:?}, {n} tokens", w.qtype);
                // …and the vector one differs from it only by fused rounding.
                let exact = x.matmul_t(&dense);
                for ((f, p), e) in fast.iter().zip(&portable).zip(&exact.data) {
                    assert!((f - e).abs() < 1e-4 && (p - e).abs() < 1e-4, "{f} {p} {e}");
                }
                assert_eq!(w.forward(&x).data, fast);
            }
        }
    }

    #[test]
    fn wrong_sizes_are_errors() {
        assert!(QMatrix::new(2, 32, QType::Q4_1, vec![0; 39]).is_err());
        assert!(QMatrix::new(1, 20, QType::Q8_0, vec![0; 34]).is_err());
    }
}
