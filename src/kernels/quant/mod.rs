//! Weight matrices kept in their GGUF quantized form, dequantized block by
//! block inside the matrix product.
//!
//! The model file is 98 MB in Q4_1; as f32 it would be ~540 MB, over the
//! browser's memory budget. So a [`QMatrix`] holds the raw blocks and
//! [`QMatrix::forward`] (y = x Wᵀ) expands a few rows at a time into a small
//! buffer that stays in the L1 cache, or, for one to three tokens, multiplies
//! straight from the blocks.
//!
//! - [`blocks`]: the formats as typed block views (`BlockQ4_1 { d, m, qs }`);
//! - `dispatch`: which instruction set's kernel runs each product;
//! - one file per instruction set: `portable`, `avx2` (x86-64), `simd128`
//!   (wasm), `relaxed` (wasm with relaxed SIMD, the `fma` worker).
//!
//! Adding a format is one block type in [`blocks`] and its kernel in each
//! instruction-set file.

pub mod blocks;
mod dispatch;
mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
mod relaxed;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm_rows;

pub use blocks::BLOCK;

use crate::error::{Error, Result};
use crate::kernels::simd::Isa;
use crate::tensor::Matrix;
use blocks::{Block, BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BlockQ6K, BlockQ8_0};

/// The weight types of GGUF files this reads: plain numbers (f32, f16,
/// bf16) and the quantized formats of [`blocks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QType {
    F32,
    F16,
    BF16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q8_0,
    Q4K,
    Q5K,
    Q6K,
}

impl QType {
    pub const ALL: [QType; 10] = [
        QType::F32,
        QType::F16,
        QType::BF16,
        QType::Q4_0,
        QType::Q4_1,
        QType::Q5_0,
        QType::Q8_0,
        QType::Q4K,
        QType::Q5K,
        QType::Q6K,
    ];

    /// The type of GGML type id `id`, if it is one of these and this build
    /// has its kernels ([`QType::is_built`]).
    pub fn from_ggml(id: u32) -> Option<QType> {
        QType::ALL.into_iter().find(|t| t.ggml_id() == id && t.is_built())
    }

    /// Whether this build has the type's kernels: the page's default worker
    /// (no `extras`) keeps only the types of the built-in SmolLM2's file, and
    /// opened models of other types go to the worker with the extras.
    pub fn is_built(self) -> bool {
        cfg!(feature = "extras")
            || matches!(self, QType::F32 | QType::F16 | QType::BF16 | QType::Q4_1 | QType::Q8_0)
    }

    /// GGML's id of the type, as [`QType::from_ggml`] reads it.
    pub fn ggml_id(self) -> u32 {
        match self {
            QType::F32 => 0,
            QType::F16 => 1,
            QType::Q4_0 => 2,
            QType::Q4_1 => 3,
            QType::Q5_0 => 6,
            QType::Q8_0 => 8,
            QType::Q4K => 12,
            QType::Q5K => 13,
            QType::Q6K => 14,
            QType::BF16 => 30,
        }
    }

    /// GGML's name of the type.
    pub fn name(self) -> &'static str {
        match self {
            QType::F32 => "F32",
            QType::F16 => "F16",
            QType::BF16 => "BF16",
            QType::Q4_0 => "Q4_0",
            QType::Q4_1 => "Q4_1",
            QType::Q5_0 => "Q5_0",
            QType::Q8_0 => "Q8_0",
            QType::Q4K => "Q4_K",
            QType::Q5K => "Q5_K",
            QType::Q6K => "Q6_K",
        }
    }

    /// Values per block and bytes per block (1 value for the plain types).
    pub fn block_size(self) -> (usize, usize) {
        fn of<B: Block>() -> (usize, usize) {
            (B::WEIGHTS, B::BYTES)
        }
        match self {
            QType::F32 => (1, 4),
            QType::F16 | QType::BF16 => (1, 2),
            QType::Q4_0 => of::<BlockQ4_0>(),
            QType::Q4_1 => of::<BlockQ4_1>(),
            QType::Q5_0 => of::<BlockQ5_0>(),
            QType::Q8_0 => of::<BlockQ8_0>(),
            QType::Q4K => of::<BlockQ4K>(),
            QType::Q5K => of::<BlockQ5K>(),
            QType::Q6K => of::<BlockQ6K>(),
        }
    }

    /// Whether the type is plain numbers rather than quantized blocks.
    pub fn is_plain(self) -> bool {
        matches!(self, QType::F32 | QType::F16 | QType::BF16)
    }

    /// Bytes taken by `n` values (n a multiple of the block size), None on
    /// overflow (a 32-bit `usize` in wasm).
    pub fn bytes_for(self, n: usize) -> Option<usize> {
        let (weights, bytes) = self.block_size();
        n.is_multiple_of(weights).then(|| (n / weights).checked_mul(bytes)).flatten()
    }

    /// Where a block keeps its f16 scales, and its size in bytes; None for
    /// the plain types.
    pub fn block_halves(self) -> Option<(std::ops::Range<usize>, usize)> {
        dispatch::with_block!(self, B => Some((B::HALVES, B::BYTES)), plain => None)
    }

    /// Whether a block has an offset m besides its scale d.
    fn has_offset(self) -> bool {
        dispatch::has_offset(self)
    }
}

impl std::fmt::Display for QType {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
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
    /// elsewhere): each row's block scales d, then (with an offset) its
    /// offsets m, as f32 ([`block_scales`]). Expanding an f16 pair in the
    /// kernel was a large share of its instructions per block; kept
    /// expanded they cost about 8 bytes a Q4_1 block and 4 a Q8_0 block and
    /// are read as vectors.
    scales: Vec<f32>,
    /// See [`QMatrix::with_16_bit_inputs`].
    inputs_16_bit: bool,
}

impl QMatrix {
    /// The matrix of `rows` rows of `cols` values of `qtype` in `data`,
    /// refused with a clear error when the bytes do not fit the shape, a row
    /// does not split into whole blocks, or a value or block scale is
    /// infinite or NaN (a corrupted file: every number computed from it
    /// would be NaN).
    pub fn new(rows: usize, cols: usize, qtype: QType, data: Vec<u8>) -> Result<QMatrix> {
        let (per_block, _) = qtype.block_size();
        if !cols.is_multiple_of(per_block) {
            return Err(Error::ModelFile(format!(
                "a {qtype} matrix needs rows of a multiple of {per_block} values, not {cols}"
            )));
        }
        let need = rows.checked_mul(cols).and_then(|n| qtype.bytes_for(n));
        if need != Some(data.len()) {
            let need =
                need.map_or("more than the address space holds".into(), |n| format!("{n} bytes"));
            return Err(Error::ModelFile(format!(
                "a {rows}×{cols} {qtype} matrix needs {need}, the file has {} bytes",
                data.len()
            )));
        }
        if let Some(i) = dispatch::first_non_finite(qtype, &data) {
            let what = if qtype.is_plain() { "value" } else { "block scale" };
            return Err(Error::ModelFile(format!(
                "a {rows}×{cols} {qtype} matrix has an infinite or NaN {what} in row {}: a corrupted file?",
                i / (data.len() / rows.max(1)).max(1)
            )));
        }
        Ok(QMatrix::with_scales(rows, cols, qtype, data))
    }

    fn with_scales(rows: usize, cols: usize, qtype: QType, data: Vec<u8>) -> QMatrix {
        let scales =
            if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) && !qtype.is_plain() {
                block_scales(qtype, &data, rows, cols)
            } else {
                Vec::new()
            };
        QMatrix { rows, cols, qtype, data, scales, inputs_16_bit: false }
    }

    /// Lets the browser's one-to-three-token product (16-bit integer
    /// inputs) round this matrix's inputs to one 16-bit integer each, 2⁻¹⁶
    /// of the largest in their block of 32, instead of two (f32's
    /// precision): for SmolLM2's output matrix, whose logits only set the
    /// next-token probabilities, where that moves them by a few 1e-5
    /// (attention, which goes through 30 layers, would move by 1e-3).
    /// Natively, and in the batch product, nothing changes.
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
        QMatrix {
            inputs_16_bit: self.inputs_16_bit,
            ..QMatrix::with_scales(rows, self.cols, self.qtype, data)
        }
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
        self.with_rows(range.len(), self.rows_bytes(range).to_vec())
    }

    /// The stored blocks of rows `range`, as [`QMatrix::new`] takes them.
    pub fn rows_bytes(&self, range: std::ops::Range<usize>) -> &[u8] {
        let rb = self.row_bytes();
        &self.data[range.start * rb..range.end * rb]
    }

    /// Row `i` as f32 (an embedding lookup).
    pub fn row(&self, i: usize) -> Vec<f32> {
        let mut out = vec![0.0; self.cols];
        self.dequantize_row(i, &mut out);
        out
    }

    /// The whole matrix as f32 (tests and tools; the forward pass never does this).
    pub fn dequantize(&self) -> Matrix {
        self.dequantize_on(Isa::best())
    }

    /// [`QMatrix::dequantize`] with the kernels of `isa`.
    pub(crate) fn dequantize_on(&self, isa: Isa) -> Matrix {
        let mut m = Matrix::zeros(self.rows, self.cols);
        self.dequantize_rows_on(isa, 0, self.rows, &mut m.data);
        m
    }

    pub fn dequantize_row(&self, i: usize, out: &mut [f32]) {
        self.dequantize_rows(i, 1, out);
    }

    /// Rows `first .. first + count` into `out` (row after row), in one
    /// pass over their contiguous blocks.
    pub fn dequantize_rows(&self, first: usize, count: usize, out: &mut [f32]) {
        self.dequantize_rows_on(Isa::best(), first, count, out);
    }

    fn dequantize_rows_on(&self, isa: Isa, first: usize, count: usize, out: &mut [f32]) {
        let rb = self.row_bytes();
        dispatch::dequantize(
            isa,
            self.qtype,
            &self.data[first * rb..(first + count) * rb],
            &mut out[..count * self.cols],
        );
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
    /// products: its integer parts for the one-to-three-token kernels are made once.
    pub fn forward_input(&self, input: &Input, range: std::ops::Range<usize>) -> Matrix {
        self.forward_on(Isa::best(), input, range)
    }

    /// [`QMatrix::forward_input`] with the kernels of `isa`.
    pub(crate) fn forward_on(
        &self,
        isa: Isa,
        input: &Input,
        range: std::ops::Range<usize>,
    ) -> Matrix {
        let x = input.x;
        assert_eq!(
            x.cols, self.cols,
            "QMatrix::forward: x has {} columns, W has {}",
            x.cols, self.cols
        );
        assert!(range.end <= self.rows, "QMatrix::forward: rows out of range");
        let mut out = Matrix::zeros(x.rows, range.len());
        if x.rows == 0 || range.is_empty() {
            return out;
        }
        let (n, cols) = (x.rows, self.cols);
        let width = range.len();
        let rb = self.row_bytes();
        let bytes = &self.data[range.start * rb..range.end * rb];
        let per_row = scales_per_row(self.qtype, cols);
        let scales = self.scales.get(range.start * per_row..range.end * per_row).unwrap_or(&[]);
        let rows = QuantizedRows {
            qtype: self.qtype,
            bytes,
            scales,
            row_bytes: rb,
            count: width,
            fine: !self.inputs_16_bit,
        };
        if n < FROM_BLOCKS_BELOW && !self.qtype.is_plain() {
            // With so few tokens, writing the expanded weights to a buffer
            // and reading them back costs more than the products themselves:
            // expand each block in registers and use it at once. Natively the
            // same operations in the same order as below, so the outputs are
            // bit-identical to those of a longer batch.
            dispatch::dots_quantized(isa, &rows, input, &mut out.data, width);
            return out;
        }
        if dispatch::batch(isa, &rows, x, &mut out.data) {
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
            self.dequantize_rows_on(isa, j, r, w);
            w[r * cols..].fill(0.0);
            // The next rows' blocks come in from memory while these are
            // multiplied, rather than after, when their expansion waits on them.
            crate::kernels::simd::prefetch(
                &self.data[(j + r) * rb..(j + r + ROWS).min(range.end) * rb],
            );
            dispatch::dots(
                isa,
                w,
                xs.as_mut(),
                &mut out.data,
                TileShape { r, n, cols, width, col0: j - range.start },
            );
            j += r;
        }
        out
    }
}

/// The input of products with one or more weight matrices (q, k and v all
/// take the same one; so do the pieces of a product shared between two
/// threads). In wasm the one-to-three-token kernels first turn each block of
/// 32 inputs into integer parts; those are made on first use and kept here,
/// rather than made again for every matrix and piece.
pub struct Input<'a> {
    x: &'a Matrix,
    #[cfg_attr(not(all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
    // only wasm has parts
    parts: dispatch::IntegerParts,
}

impl<'a> Input<'a> {
    pub fn new(x: &'a Matrix) -> Input<'a> {
        Input { x, parts: dispatch::IntegerParts::default() }
    }

    /// The activations as given.
    pub fn matrix(&self) -> &'a Matrix {
        self.x
    }
}

/// Per row of quantized blocks: the blocks' d, then (with an offset) their
/// m, as f32 ([`Block::scales`]: a K-quant's super-block gives eight of
/// each), each run zero-padded to [`padded_blocks`] so that it reads as
/// whole vectors. A format without m keeps no run of zeros for it, which
/// would only be more to read for every token.
fn block_scales(qtype: QType, data: &[u8], rows: usize, cols: usize) -> Vec<f32> {
    fn of<B: Block>(data: &[u8], rows: usize, cols: usize) -> Vec<f32> {
        let padded = padded_blocks(cols);
        let mut scales = Vec::with_capacity(rows * scales_per_row(B::QTYPE, cols));
        for row in data.chunks_exact(cols / B::WEIGHTS * B::BYTES).take(rows) {
            let each =
                || B::slice(row).iter().flat_map(|block| (0..B::BLOCKS).map(|b| block.scales(b)));
            let start = scales.len();
            scales.extend(each().map(|(d, _)| d));
            scales.resize(start + padded, 0.0);
            if B::HAS_OFFSET {
                scales.extend(each().map(|(_, m)| m));
                scales.resize(start + 2 * padded, 0.0);
            }
        }
        scales
    }
    dispatch::with_block!(qtype, B => of::<B>(data, rows, cols), plain => Vec::new())
}

/// The values [`block_scales`] keeps per row.
fn scales_per_row(qtype: QType, cols: usize) -> usize {
    padded_blocks(cols) * if qtype.has_offset() { 2 } else { 1 }
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
const FROM_BLOCKS_BELOW: usize = 4;

/// Rows expanded at a time (the height of the AVX2 tile): 3 rows of up to
/// 1536 f32 take 18 KB of L1.
const ROWS: usize = 3;

/// The shape of one tile's product ([`dispatch::dots`]): the first `r` of
/// the expanded rows (at most [`ROWS`]) against `n` tokens of `cols` inputs
/// each, token `t`'s outputs written from `out[t * width + col0]` on.
#[derive(Clone, Copy, Debug)]
pub struct TileShape {
    pub r: usize,
    pub n: usize,
    pub cols: usize,
    pub width: usize,
    pub col0: usize,
}

/// Quantized rows, for the products straight from their blocks and the
/// batch product.
#[cfg_attr(not(all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))] // `scales` and `fine` are for wasm
pub struct QuantizedRows<'a> {
    pub qtype: QType,
    /// `count` rows of `row_bytes` each.
    pub bytes: &'a [u8],
    /// The rows' block scales as f32 ([`block_scales`]), which the wasm
    /// kernels read; empty natively.
    pub scales: &'a [f32],
    pub row_bytes: usize,
    pub count: usize,
    /// False lets the 16-bit wasm kernel round the inputs to one 16-bit part
    /// (`QMatrix::with_16_bit_inputs`).
    pub fine: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_sizes_are_errors() {
        assert!(QMatrix::new(2, 32, QType::Q4_1, vec![0; 39]).is_err());
        assert!(QMatrix::new(1, 20, QType::Q8_0, vec![0; 34]).is_err());
        // A K-quant row is whole super-blocks of 256.
        let err = QMatrix::new(1, 128, QType::Q4K, vec![0; 72]).unwrap_err().to_string();
        assert!(err.contains("multiple of 256"), "{err}");
        assert!(QMatrix::new(1, 256, QType::Q6K, vec![0; 209]).is_err());
        assert!(QMatrix::new(usize::MAX / 2, 256, QType::Q5K, vec![0; 176])
            .unwrap_err()
            .to_string()
            .contains("address space"));
    }

    #[test]
    fn non_finite_block_scales_are_errors_wherever_the_format_keeps_them() {
        let nan = 0x7e00u16.to_le_bytes();
        // Q6_K's d is its last two bytes; Q4_K's dmin its second f16.
        let mut q6 = vec![0; 2 * 210];
        q6[210 + 208..].copy_from_slice(&nan);
        let err = QMatrix::new(2, 256, QType::Q6K, q6).unwrap_err().to_string();
        assert!(err.contains("NaN block scale in row 1"), "{err}");
        let mut q4 = vec![0; 144];
        q4[2..4].copy_from_slice(&0x7c00u16.to_le_bytes());
        assert!(QMatrix::new(1, 256, QType::Q4K, q4).is_err());
        // NaN bits in a Q6_K's weights are weights, not a scale.
        let mut q6 = vec![0; 210];
        q6[0..2].copy_from_slice(&nan);
        assert!(QMatrix::new(1, 256, QType::Q6K, q6).is_ok());
        assert!(QMatrix::new(1, 2, QType::F16, [[0, 0], nan].concat()).is_err());
    }
}
