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
//! blocks of [`KC`] so that a panel's block stays in L1 while every token
//! group reads it, and the next block is fetched while they do.

use crate::tensor::Matrix;

/// Outputs per panel: two AVX2 registers, four wasm simd128 registers.
pub const NR: usize = 16;

/// Inputs per block of the k loop: a panel block is NR · KC · 4 B = 16 KB.
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

    /// y = x Wᵀ + b: (n × d_in) → (n × d_out).
    pub fn forward(&self, x: &Matrix) -> Matrix {
        self.forward_with(x, kernel::block)
    }

    /// [`Self::forward`] through the given kernel (tests compare them).
    fn forward_with(&self, x: &Matrix, kernel: fn(Block)) -> Matrix {
        assert_eq!(x.cols, self.d_in, "PackedLinear: input width {}, weights take {}", x.cols, self.d_in);
        let n = x.rows;
        let panels = self.d_out.div_ceil(NR);
        let width = panels * NR;
        // Written whole, every token row, every panel (padding included).
        let mut y = vec![0.0f32; n * width];
        if n == 0 {
            return Matrix::zeros(0, self.d_out);
        }
        let (d_in, all) = (self.d_in, self.lines.len());
        // Panel by panel, block by block: the weights are read in the order
        // they are stored, one sequential stream through memory.
        for p in 0..panels {
            // At least one block, so that with no inputs at all y is the bias.
            for k0 in (0..d_in.max(1)).step_by(KC) {
                let kc = KC.min(d_in - k0);
                let (start, end) = (p * d_in + k0, p * d_in + k0 + kc);
                // The next call reads the rest of this panel or, after its
                // last block, the next panel's first block.
                let ahead = if k0 + kc < d_in { KC.min(d_in - k0 - kc) } else { KC.min(d_in) };
                kernel(Block {
                    w: &self.lines[start..end],
                    x: &x.data[k0..],
                    ldx: d_in,
                    y: &mut y[p * NR..],
                    ldy: width,
                    first: k0 == 0,
                    bias: (k0 + kc >= d_in).then(|| &self.bias[p * NR..(p + 1) * NR]),
                    tokens: n,
                    next: &self.lines[end.min(all)..(end + ahead).min(all)],
                });
            }
        }
        if width == self.d_out {
            return Matrix::from_vec(n, width, y);
        }
        let mut out = Matrix::zeros(n, self.d_out);
        for (o, row) in out.data.chunks_exact_mut(self.d_out).zip(y.chunks_exact(width)) {
            o.copy_from_slice(&row[..self.d_out]);
        }
        out
    }
}

/// One call of the kernel: every token's row of y, one panel wide, over one
/// block of k, in groups of [`kernel::GROUP`] tokens whose sums stay in
/// registers. The first block's sums start from zero, later ones from y (the
/// partial sums so far); the last block adds the bias. Adding it last, as the
/// formula reads, keeps a large bias from coarsening the rounding of every
/// partial sum.
struct Block<'a> {
    /// The panel's lines for this k block.
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
    /// block from L1; meanwhile each asks for its share of the next one,
    /// spread over its pass, so that memory is busy the whole time rather
    /// than only during the first group: a prefetch natively, a plain read
    /// in wasm, which has no prefetch instruction.
    next: &'a [Line],
}

impl Block<'_> {
    /// The bounds every kernel relies on, checked once per block.
    fn check(&self) {
        let (n, kc) = (self.tokens, self.w.len());
        assert!(n >= 1);
        assert!(self.x.len() >= (n - 1) * self.ldx + kc, "x block out of range");
        assert!(self.y.len() >= (n - 1) * self.ldy + NR, "y block out of range");
        assert!(self.bias.is_none_or(|b| b.len() == NR));
    }
}

/// The token groups of a block of `tokens` rows: (first token, tokens in the
/// group, the group's share of the next block to prefetch).
fn groups(tokens: usize, next: &[Line]) -> impl Iterator<Item = (usize, usize, &[Line])> {
    let groups = tokens.div_ceil(kernel::GROUP);
    let share = next.len().div_ceil(groups);
    (0..groups).map(move |g| {
        let t = g * kernel::GROUP;
        (t, kernel::GROUP.min(tokens - t), &next[(g * share).min(next.len())..((g + 1) * share).min(next.len())])
    })
}

mod kernel {
    //! The inner loop, with an AVX2/FMA version chosen at run time on x86-64,
    //! a wasm simd128 version, and a portable one everywhere else.

    use super::{groups, Block, NR};

    /// Tokens per group: as many accumulators as the registers hold, with
    /// room for the panel's line and the broadcast token value.
    #[cfg(not(target_arch = "wasm32"))]
    pub const GROUP: usize = 6; // AVX2: 6 × 2 accumulators + 2 weights + 1 broadcast ≤ 16 ymm
    #[cfg(target_arch = "wasm32")]
    pub const GROUP: usize = 2; // simd128: 2 × 4 accumulators + 4 weights + 2 temporaries < 15 xmm (V8 keeps one)

    pub fn block(mut b: Block) {
        b.check();
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: AVX2 and FMA are present (checked just above); bounds checked by `check`.
                unsafe { avx2::block(&mut b) };
                return;
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            // SAFETY: simd128 is enabled for the whole build (cfg above); bounds checked by `check`.
            unsafe { simd128::block(&mut b) };
            return;
        }
        #[allow(unreachable_code)]
        portable::block(&mut b);
    }

    pub(super) mod portable {
        use super::{groups, Block, NR};

        pub fn block(b: &mut Block) {
            let (x, ldx, ldy, w, first, bias) = (b.x, b.ldx, b.ldy, b.w, b.first, b.bias);
            for (t, tokens, _) in groups(b.tokens, b.next) {
                let mut acc = [[0.0f32; NR]; super::GROUP];
                if !first {
                    for (c, a) in acc.iter_mut().enumerate().take(tokens) {
                        a.copy_from_slice(&b.y[(t + c) * ldy..][..NR]);
                    }
                }
                for (k, line) in w.iter().enumerate() {
                    for (c, a) in acc.iter_mut().enumerate().take(tokens) {
                        let xv = x[(t + c) * ldx + k];
                        for (a, w) in a.iter_mut().zip(&line.0) {
                            *a += xv * w;
                        }
                    }
                }
                for (c, a) in acc.iter().enumerate().take(tokens) {
                    for (l, y) in b.y[(t + c) * ldy..][..NR].iter_mut().enumerate() {
                        *y = a[l] + bias.map_or(0.0, |b| b[l]);
                    }
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        use super::super::Line;
        use super::{groups, Block, NR};
        use std::arch::x86_64::*;

        #[target_feature(enable = "avx2,fma")]
        pub unsafe fn block(b: &mut Block) {
            let y = b.y.as_mut_ptr();
            for (t, tokens, ahead) in groups(b.tokens, b.next) {
                let y = y.add(t * b.ldy);
                match tokens {
                    1 => tile::<1>(b, t, y, ahead),
                    2 => tile::<2>(b, t, y, ahead),
                    3 => tile::<3>(b, t, y, ahead),
                    4 => tile::<4>(b, t, y, ahead),
                    5 => tile::<5>(b, t, y, ahead),
                    _ => tile::<6>(b, t, y, ahead),
                }
            }
        }

        /// C tokens from token t × 16 outputs in 2C registers; each k is two
        /// loads of the panel (one cache line) and C broadcasts feeding 2C FMAs.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn tile<const C: usize>(b: &Block, t: usize, y: *mut f32, ahead: &[Line]) {
            let (w, x) = (b.w.as_ptr() as *const f32, b.x.as_ptr().add(t * b.ldx));
            let start = |c: usize, h: usize| if b.first { _mm256_setzero_ps() } else { _mm256_loadu_ps(y.add(c * b.ldy + 8 * h)) };
            let bias = |h: usize| b.bias.map_or(_mm256_setzero_ps(), |b| _mm256_loadu_ps(b.as_ptr().add(8 * h)));
            let mut acc: [[__m256; 2]; C] = std::array::from_fn(|c| [start(c, 0), start(c, 1)]);
            // The group's share of the next block, one line every few k,
            // spread over the whole loop. Asked for all at once at its start,
            // the lines came in faster than memory delivers them, and the
            // loop waited for the requests to drain (MiniLM at 16 tokens,
            // natively: 5.23 → 4.84 ms spread out).
            let every = (b.w.len() / ahead.len().max(1)).max(1);
            let (mut due, mut fetched) = (0, 0);
            for k in 0..b.w.len() {
                let w0 = _mm256_load_ps(w.add(k * NR));
                let w1 = _mm256_load_ps(w.add(k * NR + 8));
                if k == due && fetched < ahead.len() {
                    _mm_prefetch::<_MM_HINT_T0>(ahead.as_ptr().add(fetched) as *const i8);
                    fetched += 1;
                    due += every;
                }
                for (c, a) in acc.iter_mut().enumerate() {
                    let xv = _mm256_broadcast_ss(&*x.add(c * b.ldx + k));
                    a[0] = _mm256_fmadd_ps(xv, w0, a[0]);
                    a[1] = _mm256_fmadd_ps(xv, w1, a[1]);
                }
            }
            for (c, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(y.add(c * b.ldy), _mm256_add_ps(a[0], bias(0)));
                _mm256_storeu_ps(y.add(c * b.ldy + 8), _mm256_add_ps(a[1], bias(1)));
            }
        }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    mod simd128 {
        use super::super::Line;
        use super::{groups, Block, NR};
        use core::arch::wasm32::*;

        #[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
        pub unsafe fn block(b: &mut Block) {
            let y = b.y.as_mut_ptr();
            for (t, tokens, ahead) in groups(b.tokens, b.next) {
                let y = y.add(t * b.ldy);
                match tokens {
                    1 => tile::<1>(b, t, y, ahead),
                    _ => tile::<2>(b, t, y, ahead),
                }
            }
        }

        /// C tokens from token t × 16 outputs in 4C registers; each product
        /// is a multiply and an add, or one multiply-add (`models::madd`).
        #[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
        unsafe fn tile<const C: usize>(b: &Block, t: usize, y: *mut f32, ahead: &[Line]) {
            let (w, x) = (b.w.as_ptr() as *const f32, b.x.as_ptr().add(t * b.ldx));
            let start = |c: usize, h: usize| if b.first { f32x4_splat(0.0) } else { v128_load(y.add(c * b.ldy + 4 * h) as *const v128) };
            let bias = |h: usize| b.bias.map_or(f32x4_splat(0.0), |b| v128_load(b.as_ptr().add(4 * h) as *const v128));
            let mut acc: [[v128; 4]; C] = std::array::from_fn(|c| std::array::from_fn(|h| start(c, h)));
            let step = |k: usize, acc: &mut [[v128; 4]; C]| {
                let wk = w.add(k * NR);
                let line = [
                    v128_load(wk as *const v128),
                    v128_load(wk.add(4) as *const v128),
                    v128_load(wk.add(8) as *const v128),
                    v128_load(wk.add(12) as *const v128),
                ];
                for (c, a) in acc.iter_mut().enumerate() {
                    let xv = v128_load32_splat(x.add(c * b.ldx + k) as *const u32);
                    for h in 0..4 {
                        a[h] = crate::models::madd(xv, line[h], a[h]);
                    }
                }
            };
            // The group's share of the next block, one line every few k, as
            // natively but with a read: it starts the CPU's own prefetcher on
            // the lines after it, which then arrive while this group
            // computes. Without it the first group of each block waited for
            // the whole block (MiniLM in Chromium, raw wasm: 16 tokens 10.2 →
            // 9.4 ms, 128 tokens 76.2 → 74.5 ms).
            let n = b.w.len();
            let every = (n / ahead.len().max(1)).max(1);
            let mut k = 0;
            for line in ahead {
                // Volatile, or the unused read would be optimised away.
                let _ = std::ptr::read_volatile(line.0.as_ptr());
                let end = (k + every).min(n);
                while k < end {
                    step(k, &mut acc);
                    k += 1;
                }
            }
            while k < n {
                step(k, &mut acc);
                k += 1;
            }
            for (c, a) in acc.iter().enumerate() {
                for (h, v) in a.iter().enumerate() {
                    v128_store(y.add(c * b.ldy + 4 * h) as *mut v128, f32x4_add(*v, bias(h)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x Wᵀ + b summed in f64, so that neither kernel's rounding is the yardstick.
    fn reference(w: &Matrix, b: &[f32], x: &Matrix) -> Matrix {
        let mut y = Matrix::zeros(x.rows, w.rows);
        for t in 0..x.rows {
            for j in 0..w.rows {
                let dot: f64 = x.row(t).iter().zip(w.row(j)).map(|(&a, &b)| a as f64 * b as f64).sum();
                y[(t, j)] = (dot + b[j] as f64) as f32;
            }
        }
        y
    }

    fn filled(rows: usize, cols: usize, seed: u32) -> Matrix {
        // A small deterministic generator: values in (−1, 1), no two alike.
        let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
        let data = (0..rows * cols)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                (s as f32 / u32::MAX as f32) * 2.0 - 1.0
            })
            .collect();
        Matrix::from_vec(rows, cols, data)
    }

    #[test]
    fn equals_x_times_w_transposed_plus_bias_for_every_shape() {
        // Token counts around the group size, widths that are and are not
        // whole panels, inputs shorter and longer than one k block.
        for &(n, d_in, d_out) in &[
            (1, 8, 16),
            (1, 256, 16),
            (1, 257, 16),
            (1, 300, 1),
            (2, 384, 384),
            (5, 40, 17),
            (7, 300, 33),
            (13, 600, 48),
            (16, 1536, 8),
            (64, 257, 31),
        ] {
            let (w, x) = (filled(d_out, d_in, 1 + n as u32), filled(n, d_in, 2 + d_out as u32));
            let b: Vec<f32> = (0..d_out).map(|j| j as f32 * 0.25 - 1.0).collect();
            let got = PackedLinear::new(&w, &b).forward(&x);
            assert_eq!(got.shape(), (n, d_out));
            let d = got.max_abs_diff(&reference(&w, &b, &x));
            // f32 sums of up to 1536 terms of size ≤ 1 (gemm itself is 1.5e-5 off).
            assert!(d < 5e-5, "{n}×{d_in} → {d_out}: off by {d}");
        }
    }

    #[test]
    fn the_portable_kernel_equals_the_one_this_machine_runs() {
        let portable: fn(Block) = |mut b| {
            b.check();
            kernel::portable::block(&mut b)
        };
        for &(n, d_in, d_out) in &[(1, 300, 16), (2, 384, 40), (7, 600, 33), (13, 257, 48)] {
            let (w, x) = (filled(d_out, d_in, 5 + n as u32), filled(n, d_in, 6 + d_out as u32));
            let b: Vec<f32> = (0..d_out).map(|j| 0.5 - j as f32 * 0.125).collect();
            let linear = PackedLinear::new(&w, &b);
            let d = linear.forward_with(&x, portable).max_abs_diff(&linear.forward(&x));
            assert!(d < 5e-5, "{n}×{d_in} → {d_out}: off by {d}");
        }
    }

    #[test]
    fn no_tokens_and_no_inputs_are_not_errors() {
        let w = filled(20, 12, 3);
        let b = vec![0.5; 20];
        assert_eq!(PackedLinear::new(&w, &b).forward(&Matrix::zeros(0, 12)).shape(), (0, 20));
        let empty = PackedLinear::new(&Matrix::zeros(3, 0), &[1.0, 2.0, 3.0]).forward(&Matrix::zeros(2, 0));
        assert_eq!(empty.to_rows(), vec![vec![1.0, 2.0, 3.0]; 2]);
    }
}
