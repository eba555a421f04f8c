//! y = x Wᵀ + b for f32 weights that are multiplied many times: W is
//! rearranged once, at load, into the order the inner loop reads it.
//!
//! A general matrix product (the `gemm` crate) repacks W on every call, or,
//! for a short sentence, reads it row by row through several streams. For a
//! few tokens each weight is used only a few times, so the product is as fast
//! as W can be streamed in from memory; the layout below lets it stream
//! exactly once, in one sequential pass, straight into the vector registers.
//!
//! Layout: the outputs are cut into panels of [`NR`] (zero-padded at the
//! end). Panel p holds, for k = 0, 1, …, d_in − 1, the NR weights
//! W[p·NR .. p·NR + NR][k] side by side: one cache line per k.
//!
//! ```text
//!   for each panel p, for each group of C tokens t:        (C ≤ 6 with AVX2)
//!       acc[t][0..NR] = b[p·NR ..]
//!       for k:  acc[t][..] += x[t][k] · panel_p[k][..]     (broadcast × vector)
//!       y[t][p·NR ..] = acc[t][..]
//! ```
//!
//! The accumulators stay in registers for the whole k loop; d_in is cut into
//! spans of [`KC`] so that a panel's span stays in L1 while every token
//! group reads it, and the next span is fetched while they do.
//!
//! The kernel has one file per instruction set (`portable`, `avx2`,
//! `simd128`; the `fma` build's relaxed SIMD is one multiply-add,
//! [`crate::kernels::simd::wasm::madd`]); [`kernel`] picks one.

mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

use crate::kernels::simd::Isa;
use crate::tensor::Matrix;
use std::ops::Range;

/// Outputs per panel: two AVX2 registers, four wasm simd128 registers.
pub const NR: usize = 16;

/// Inputs per span of the k loop: a panel's span is NR · KC · 4 B = 16 KB.
const KC: usize = 256;

/// The NR weights of one panel at one k: a 64-byte cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Line([f32; NR]);

/// W (d_out × d_in, stored as PyTorch stores it) with its bias, packed.
#[derive(Clone, Debug)]
pub struct PackedLinear {
    d_in: usize,
    d_out: usize,
    /// panels × d_in lines; line p·d_in + k is W[p·NR ..][k].
    lines: Vec<Line>,
    /// The bias, zero-padded to a whole number of panels.
    bias: Vec<f32>,
}

impl PackedLinear {
    /// `weight`: d_out × d_in; `bias`: d_out values.
    pub fn new(weight: &Matrix, bias: &[f32]) -> PackedLinear {
        let (d_out, d_in) = weight.shape();
        assert_eq!(bias.len(), d_out, "PackedLinear: {d_out} outputs, {} biases", bias.len());
        let panels = d_out.div_ceil(NR);
        let mut lines = vec![Line([0.0; NR]); panels * d_in];
        for (j, row) in weight.data.chunks_exact(d_in.max(1)).enumerate().take(d_out) {
            let (p, r) = (j / NR, j % NR);
            for (k, &w) in row.iter().enumerate() {
                lines[p * d_in + k].0[r] = w;
            }
        }
        let mut padded = bias.to_vec();
        padded.resize(panels * NR, 0.0);
        PackedLinear { d_in, d_out, lines, bias: padded }
    }

    /// Outputs (rows of W) and inputs.
    pub fn shape(&self) -> (usize, usize) {
        (self.d_out, self.d_in)
    }

    /// y = x Wᵀ + b: (n × d_in) → (n × d_out).
    pub fn forward(&self, x: &Matrix) -> Matrix {
        self.forward_on(Isa::best(), x, 0..self.d_out)
    }

    /// The outputs `rows` of x Wᵀ + b alone, `rows` starting at a whole
    /// panel: each panel is computed as [`PackedLinear::forward`] computes
    /// it, so these are its columns `rows` bit for bit (a helper thread
    /// computes some panels, `models::helper`).
    pub fn forward_rows(&self, x: &Matrix, rows: Range<usize>) -> Matrix {
        self.forward_on(Isa::best(), x, rows)
    }

    /// The weights and bias of outputs `rows` (starting at a whole panel),
    /// as [`PackedLinear::from_panels`] takes them: the bytes of its
    /// panels' lines, then the bias.
    pub fn panels(&self, rows: Range<usize>) -> (&[u8], &[f32]) {
        assert!(
            rows.start.is_multiple_of(NR) && rows.end <= self.d_out,
            "PackedLinear::panels: rows {rows:?} of {}",
            self.d_out
        );
        let (p0, p1) = (rows.start / NR, rows.end.div_ceil(NR));
        let lines = &self.lines[p0 * self.d_in..p1 * self.d_in];
        // SAFETY: a Line is 16 plain f32 (repr C, no padding); any bytes are valid to read.
        let bytes = unsafe {
            std::slice::from_raw_parts(lines.as_ptr().cast::<u8>(), std::mem::size_of_val(lines))
        };
        (bytes, &self.bias[p0 * NR..p1 * NR])
    }

    /// `d_out` outputs from the bytes and bias of [`PackedLinear::panels`];
    /// an error if they do not make that many panels of `d_in` (they come
    /// from another thread's memory, and are checked, not trusted).
    pub fn from_panels(
        d_in: usize,
        d_out: usize,
        bytes: &[u8],
        bias: &[f32],
    ) -> Result<PackedLinear, String> {
        let panels = d_out.div_ceil(NR);
        if bytes.len() != panels * d_in * std::mem::size_of::<Line>() || bias.len() != panels * NR {
            return Err(format!(
                "{} bytes and {} biases are not {panels} panels of {d_in} inputs",
                bytes.len(),
                bias.len()
            ));
        }
        let lines = bytes
            .chunks_exact(std::mem::size_of::<Line>())
            .map(|b| {
                Line(std::array::from_fn(|i| {
                    f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
                }))
            })
            .collect();
        Ok(PackedLinear { d_in, d_out, lines, bias: bias.to_vec() })
    }

    /// [`PackedLinear::forward_rows`] with the kernel of `isa`.
    pub(crate) fn forward_on(&self, isa: Isa, x: &Matrix, rows: Range<usize>) -> Matrix {
        assert_eq!(
            x.cols, self.d_in,
            "PackedLinear: input width {}, weights take {}",
            x.cols, self.d_in
        );
        assert!(
            rows.start.is_multiple_of(NR) && rows.end <= self.d_out,
            "PackedLinear: rows {rows:?} of {}",
            self.d_out
        );
        let n = x.rows;
        let (first, panels) = (rows.start / NR, rows.end.div_ceil(NR) - rows.start / NR);
        let (width, d_out) = (panels * NR, rows.len());
        // Written whole, every token row, every panel (padding included).
        let mut y = vec![0.0f32; n * width];
        if n == 0 {
            return Matrix::zeros(0, d_out);
        }
        let (d_in, all) = (self.d_in, self.lines.len());
        // Panel by panel, span by span: the weights are read in the order
        // they are stored, one sequential stream through memory.
        for (q, p) in (first..first + panels).enumerate() {
            // At least one span, so that with no inputs at all y is the bias.
            for k0 in (0..d_in.max(1)).step_by(KC) {
                let kc = KC.min(d_in - k0);
                let (start, end) = (p * d_in + k0, p * d_in + k0 + kc);
                // The next call reads the rest of this panel or, after its
                // last span, the next panel's first span.
                let ahead = if k0 + kc < d_in { KC.min(d_in - k0 - kc) } else { KC.min(d_in) };
                kernel(
                    isa,
                    Span {
                        w: &self.lines[start..end],
                        x: &x.data[k0..],
                        ldx: d_in,
                        y: &mut y[q * NR..],
                        ldy: width,
                        first: k0 == 0,
                        bias: (k0 + kc >= d_in).then(|| &self.bias[p * NR..(p + 1) * NR]),
                        tokens: n,
                        next: &self.lines[end.min(all)..(end + ahead).min(all)],
                    },
                );
            }
        }
        if width == d_out {
            return Matrix::from_vec(n, width, y);
        }
        let mut out = Matrix::zeros(n, d_out);
        for (o, row) in out.data.chunks_exact_mut(d_out.max(1)).zip(y.chunks_exact(width)) {
            o.copy_from_slice(&row[..d_out]);
        }
        out
    }
}

/// One call of the kernel: every token's row of y, one panel wide, over one
/// span of k, in groups of [`GROUP`] tokens whose sums stay in
/// registers. The first span's sums start from zero, later ones from y (the
/// partial sums so far); the last span adds the bias. Adding it last, as the
/// formula reads, keeps a large bias from coarsening the rounding of every
/// partial sum.
struct Span<'a> {
    /// The panel's lines for this span of k.
    w: &'a [Line],
    /// x[0][k0], row stride `ldx`.
    x: &'a [f32],
    ldx: usize,
    /// y[0][p·NR], row stride `ldy`.
    y: &'a mut [f32],
    ldy: usize,
    first: bool,
    bias: Option<&'a [f32]>,
    tokens: usize,
    /// The lines the next call will read. Every token group re-reads this
    /// span from L1; meanwhile each asks for its share of the next one,
    /// spread over its pass, so that memory is busy the whole time rather
    /// than only during the first group: a prefetch natively, a plain read
    /// in wasm, which has no prefetch instruction.
    next: &'a [Line],
}

impl Span<'_> {
    /// The bounds every kernel relies on, checked once per span.
    fn check(&self) {
        let (n, kc) = (self.tokens, self.w.len());
        assert!(n >= 1);
        assert!(self.x.len() >= (n - 1) * self.ldx + kc, "x span out of range");
        assert!(self.y.len() >= (n - 1) * self.ldy + NR, "y span out of range");
        assert!(self.bias.is_none_or(|b| b.len() == NR));
    }
}

/// The token groups of a span of `tokens` rows: (first token, tokens in the
/// group, the group's share of the next span to prefetch).
fn groups(tokens: usize, next: &[Line]) -> impl Iterator<Item = (usize, usize, &[Line])> {
    let groups = tokens.div_ceil(GROUP);
    let share = next.len().div_ceil(groups);
    (0..groups).map(move |g| {
        let t = g * GROUP;
        (
            t,
            GROUP.min(tokens - t),
            &next[(g * share).min(next.len())..((g + 1) * share).min(next.len())],
        )
    })
}

/// Tokens per group: as many accumulators as the registers hold, with
/// room for the panel's line and the broadcast token value.
#[cfg(not(target_arch = "wasm32"))]
const GROUP: usize = 6; // AVX2: 6 × 2 accumulators + 2 weights + 1 broadcast ≤ 16 ymm
#[cfg(target_arch = "wasm32")]
const GROUP: usize = 2; // simd128: 2 × 4 accumulators + 4 weights + 2 temporaries < 15 xmm (V8 keeps one)

/// Runs one span through the kernel of `isa`.
fn kernel(isa: Isa, mut span: Span) {
    span.check();
    match isa.in_this_build() {
        // SAFETY: the CPU has AVX2 and FMA (`Isa::Avx2`); bounds checked by `check`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::span(&mut span) },
        // SAFETY: simd128 is enabled for the whole build; bounds checked by `check`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::span(&mut span) },
        Isa::Portable => portable::span(&mut span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::matrix;

    #[test]
    fn no_tokens_and_no_inputs_are_not_errors() {
        let w = matrix(20, 12, 3);
        let b = vec![0.5; 20];
        assert_eq!(PackedLinear::new(&w, &b).forward(&Matrix::zeros(0, 12)).shape(), (0, 20));
        let empty =
            PackedLinear::new(&Matrix::zeros(3, 0), &[1.0, 2.0, 3.0]).forward(&Matrix::zeros(2, 0));
        assert_eq!(empty.to_rows(), vec![vec![1.0, 2.0, 3.0]; 2]);
    }

    #[test]
    fn rows_from_a_panel_on_are_those_columns_of_the_whole_product_bit_for_bit() {
        // 40 outputs: two whole panels and a padded one.
        let (w, b) = (matrix(40, 300, 5), (0..40).map(|i| i as f32 / 7.0).collect::<Vec<_>>());
        let whole = PackedLinear::new(&w, &b);
        let x = matrix(7, 300, 6);
        let y = whole.forward(&x);
        for rows in [0..40, 16..40, 32..40, 0..16, 16..32, 16..20] {
            let part = whole.forward_rows(&x, rows.clone());
            let (bytes, bias) = whole.panels(rows.clone());
            let copy = PackedLinear::from_panels(300, rows.len(), bytes, bias).unwrap().forward(&x);
            for t in 0..7 {
                assert_eq!(part.row(t), &y.row(t)[rows.clone()], "rows {rows:?}, token {t}");
                assert_eq!(copy.row(t), part.row(t), "copied panels {rows:?}");
            }
        }
        assert!(
            PackedLinear::from_panels(300, 24, whole.panels(16..40).0, &b[16..40]).is_err(),
            "a bias of the wrong length"
        );
    }
}
