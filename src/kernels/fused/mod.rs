//! One head's attention over a long text in a single pass over its query
//! rows, for the heads whose A is summed up and let go of at once: a tile
//! of [`ROWS`] queries at a time, nothing n_q × n_k ever stored.
//!
//! ```text
//!   Kᵀ packed once into panels of 16 keys (each d × 16, one cache line per t)
//!   for each tile of ROWS queries:
//!       keys = the keys any of them sees (causal: up to the last one's own;
//!              sliding window: its window; no mask: all)
//!       S  = Q_tile Kᵀ[keys] · scale          (ROWS × keys, in a buffer that stays in cache)
//!       per row: m = max S over its visible keys
//!                e = exp(S − m), l = Σ e      (hidden keys: e = 0)
//!                the row's sums for the overview and the catalog, from e and l
//!       Z_tile = (e V[keys]) / l              (ROWS × d_v)
//! ```
//!
//! The weights are never divided: Z and the sums take 1/l once per row. The
//! buffer of a tile at 2,048 keys is 32 KB, so each row is exact with the
//! ordinary two-pass softmax (its maximum is known before any exp) and the
//! running rescale of an online softmax is not needed. The masked tiles
//! above the diagonal and outside a sliding window are never computed.
//!
//! `attention::attend` stays the formula; this kernel is checked against it
//! (`kernels/checks/fused.rs`). The products are written per instruction
//! set (`portable`, `avx2`, `simd128`; the `fma` build's relaxed SIMD is one
//! multiply-add), chosen in [`attend_summed`].

mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(all(test, target_arch = "wasm32", target_feature = "simd128"))]
mod timing;

use crate::attention::Mask;
use crate::kernels::simd::Isa;
use crate::tensor::{self, Matrix};
use crate::trace::summary::{HeadSummary, WeightRow};

/// Queries per tile: four rows × sixteen keys keep eight AVX2 registers of
/// sums while each key panel's line is loaded once for all four.
pub const ROWS: usize = 4;

/// Keys per panel of the packed Kᵀ.
pub const PANEL: usize = 16;

/// Queries from which the keys are packed into panels (fewer read them in place).
const PACK_FROM: usize = 8;

/// A tile's scores: `rows` queries (d values each, one after another) ×
/// the key panels `panels` (d × [`PANEL`] each), times `scale`, into
/// `s` (row r's panel i at `s[r * ls + i * PANEL ..]`).
pub(crate) struct ScoreTile<'a> {
    pub q: &'a [f32],
    pub rows: usize,
    pub d: usize,
    pub panels: &'a [f32],
    pub scale: f32,
    pub s: &'a mut [f32],
    pub ls: usize,
}

/// A few queries' scores against keys read where they are (`k`: keys × d
/// from the tile's first key), times `scale`, into `s` as [`ScoreTile`]'s
/// (0 past the last key).
pub(crate) struct KeyTile<'a> {
    pub q: &'a [f32],
    pub rows: usize,
    pub d: usize,
    pub k: &'a [f32],
    pub scale: f32,
    pub s: &'a mut [f32],
    pub ls: usize,
}

/// A tile's output: `z` (rows × dv) = Σ_j e[r][j] · v[j] / l_r over the
/// tile's `keys` keys (`e` rows of stride `ls`, 0 where hidden; `v`
/// from the tile's first key, dv values each).
pub(crate) struct ValueTile<'a> {
    pub e: &'a [f32],
    pub ls: usize,
    pub rows: usize,
    pub keys: usize,
    pub v: &'a [f32],
    pub dv: usize,
    pub inv_l: [f32; ROWS],
    pub z: &'a mut [f32],
}

/// Kᵀ in panels of [`PANEL`] keys: panel p holds, for t = 0 .. d, the keys
/// p·16 .. p·16 + 16's t-th values side by side (zero past the last key).
pub fn pack_keys(k: &Matrix) -> Vec<f32> {
    let (n, d) = k.shape();
    let mut packed = vec![0.0f32; n.div_ceil(PANEL) * d * PANEL];
    for (j, row) in k.data.chunks_exact(d.max(1)).enumerate().take(n) {
        let panel = &mut packed[j / PANEL * d * PANEL..];
        for (t, &x) in row.iter().enumerate() {
            panel[t * PANEL + j % PANEL] = x;
        }
    }
    packed
}

/// Z = softmax(Q Kᵀ · scale + M) V (n_q × d_v) for one head, its A added
/// row by row to `summary` (queries the last n_q of n_k positions) and
/// never stored: the same numbers as `attention::attend` and
/// `HeadSummary::add` within rounding.
pub fn attend_summed(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    mask: Mask,
    scale: f32,
    summary: &mut HeadSummary,
) -> Matrix {
    attend_summed_on(Isa::best(), q, k, v, mask, scale, Some(summary))
}

/// [`attend_summed`] for a head whose sums nothing keeps (Whisper's
/// encoder): Z alone, the rows' sums not made.
pub fn attend(q: &Matrix, k: &Matrix, v: &Matrix, mask: Mask, scale: f32) -> Matrix {
    attend_summed_on(Isa::best(), q, k, v, mask, scale, None)
}

/// [`attend_summed`] with the products of `isa`; without a summary, Z alone.
pub(crate) fn attend_summed_on(
    isa: Isa,
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    mask: Mask,
    scale: f32,
    mut summary: Option<&mut HeadSummary>,
) -> Matrix {
    let (n_q, n_k, d, dv) = (q.rows, k.rows, q.cols, v.cols);
    assert!(
        k.cols == d && v.rows == n_k,
        "attend_summed: Q {n_q}×{d}, K {n_k}×{}, V {}×{dv}",
        k.cols,
        v.rows
    );
    if let Some(summary) = summary.as_deref_mut() {
        summary.grow(n_q, n_k);
    }
    let isa = isa.in_this_build();
    // A few queries (tokens appended to a key/value cache) read each key
    // where it is: packing every key for them would move as many values as
    // they multiply.
    let packed = (n_q >= PACK_FROM).then(|| pack_keys(k));
    let mut z = Matrix::zeros(n_q, dv);
    let mut buf = vec![0.0f32; ROWS * n_k.next_multiple_of(PANEL).max(PANEL)];
    for first in (0..n_q).step_by(ROWS) {
        let rows = ROWS.min(n_q - first);
        let seen = mask.visible_keys(first, rows, n_q, n_k);
        let (p0, p1) = (seen.start / PANEL, seen.end.div_ceil(PANEL));
        let (from, ls) = (p0 * PANEL, (p1 - p0) * PANEL);
        let s = &mut buf[..ROWS * ls];
        let q_tile = &q.data[first * d..(first + rows) * d];
        match &packed {
            Some(packed) => products(
                isa,
                Product::Scores(ScoreTile {
                    q: q_tile,
                    rows,
                    d,
                    panels: &packed[p0 * d * PANEL..p1 * d * PANEL],
                    scale,
                    s,
                    ls,
                }),
            ),
            None => {
                let keys = ls.min(n_k - from);
                products(
                    isa,
                    Product::KeysInPlace(KeyTile {
                        q: q_tile,
                        rows,
                        d,
                        k: &k.data[from * d..(from + keys) * d],
                        scale,
                        s,
                        ls,
                    }),
                )
            }
        }
        let tile = Tile { first, rows, from, ls, mask, n_q, n_k };
        let inv_l = weigh_on(isa, &tile, s, summary.as_deref_mut());
        let keys = seen.end.saturating_sub(from);
        products(
            isa,
            Product::Values(ValueTile {
                e: s,
                ls,
                rows,
                keys,
                v: &v.data[from * dv..(from + keys) * dv],
                dv,
                inv_l,
                z: &mut z.data[first * dv..(first + rows) * dv],
            }),
        );
    }
    z
}

/// Where a tile of queries sits: `rows` queries from `first` (of `n_q`
/// over `n_k` keys), its buffer's rows of `ls` keys from key `from`.
struct Tile {
    first: usize,
    rows: usize,
    from: usize,
    ls: usize,
    mask: Mask,
    n_q: usize,
    n_k: usize,
}

/// [`weigh`] compiled for `isa` where that is a run-time choice (AVX2):
/// its loops, inlined there, use eight lanes.
fn weigh_on(
    isa: Isa,
    tile: &Tile,
    s: &mut [f32],
    summary: Option<&mut HeadSummary>,
) -> [f32; ROWS] {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Isa::Avx2 is only chosen where the CPU has AVX2 and FMA.
        Isa::Avx2 => unsafe { avx2::weigh(tile, s, summary) },
        _ => weigh(tile, s, summary),
    }
}

/// The tile's scores `s` turned into each row's e (0 where its query does
/// not see the key), the rows added to `summary` if there is one; returns 1/l per row.
#[inline(always)]
fn weigh(t: &Tile, s: &mut [f32], mut summary: Option<&mut HeadSummary>) -> [f32; ROWS] {
    let mut inv_l = [0.0f32; ROWS];
    for (r, inv) in inv_l.iter_mut().enumerate().take(t.rows) {
        let i = t.first + r;
        let own = t.mask.visible_keys(i, 1, t.n_q, t.n_k);
        let row = &mut s[r * t.ls..(r + 1) * t.ls];
        let local = own.start.max(t.from) - t.from..own.end.max(t.from) - t.from;
        let pos = i + t.n_k - t.n_q;
        let RowExp { l, entropy_bits, distance } =
            exponentials(&mut row[local.clone()], own.start, pos);
        row[..local.start].fill(0.0);
        row[local.end..].fill(0.0);
        // The whole row from the tile's first key (a multiple of 16, as the
        // summary's blocks are): zeros where the query sees nothing.
        let e = &row[..(t.n_k - t.from).min(t.ls)];
        let w = WeightRow { pos, first_key: t.from, e, l, entropy_bits, distance };
        if let Some(summary) = summary.as_deref_mut() {
            summary.add_row(&w, t.n_k);
        }
        *inv = if l > 0.0 { 1.0 / l } else { 0.0 };
    }
    inv_l
}

/// What a row of the tile adds up besides its e.
struct RowExp {
    /// l = Σ e.
    l: f32,
    /// H = ln l − Σ e·(s − max) / l, in bits: −Σ A ln A with
    /// ln A = s − max − ln l, which needs no logarithm per key.
    entropy_bits: f32,
    /// Σ e · |pos − j|.
    distance: f32,
}

/// A row's scores (keys `first_key ..`) turned into e = exp(s − max) in
/// place, for the query at `pos`, with the sums of [`RowExp`] taken in the
/// same pass.
#[inline(always)]
fn exponentials(row: &mut [f32], first_key: usize, pos: usize) -> RowExp {
    let max = tensor::max(row);
    if row.is_empty() || max == f32::NEG_INFINITY {
        row.fill(0.0);
        return RowExp { l: 0.0, entropy_bits: 0.0, distance: 0.0 };
    }
    let ex = tensor::loop_constants(tensor::EXP);
    let mut sums = Lanes::default();
    // Keys up to the query's own (pos − j falls by one a key), then after it
    // (j − pos rises): the distance is a running vector, never |·| of a difference.
    let split = (pos + 1).saturating_sub(first_key).min(row.len());
    let (before, after) = row.split_at_mut(split);
    sums.add(before, max, pos.saturating_sub(first_key) as f32, -1.0, &ex);
    sums.add(after, max, (first_key + split) as f32 - pos as f32, 1.0, &ex);
    let [l, es, distance] = [sums.l, sums.es, sums.distance].map(|x| x.iter().sum::<f32>());
    let entropy_bits = ((l.ln() - es / l) / std::f32::consts::LN_2).max(0.0);
    RowExp { l, entropy_bits, distance }
}

/// Eight lanes of each of [`RowExp`]'s sums (and of Σ e·(s − max)).
#[derive(Default)]
struct Lanes {
    l: [f32; 8],
    es: [f32; 8],
    distance: [f32; 8],
}

impl Lanes {
    /// e = exp(x − max) of `xs` in place, summed; the first key is `d0` away
    /// from the query, each next one `step` further.
    #[inline(always)]
    fn add(&mut self, xs: &mut [f32], max: f32, d0: f32, step: f32, ex: &tensor::Exp) {
        let mut d: [f32; 8] = std::array::from_fn(|t| d0 + step * t as f32);
        let mut chunks = xs.chunks_exact_mut(8);
        for chunk in &mut chunks {
            for t in 0..8 {
                let centred = chunk[t] - max;
                let e = ex.exp(centred);
                chunk[t] = e;
                self.l[t] += e;
                self.es[t] += e * centred;
                self.distance[t] += e * d[t];
                d[t] += 8.0 * step;
            }
        }
        for (t, x) in chunks.into_remainder().iter_mut().enumerate() {
            let centred = *x - max;
            *x = ex.exp(centred);
            self.l[t] += *x;
            self.es[t] += *x * centred;
            self.distance[t] += *x * d[t];
        }
    }
}

/// One of the kernel's products.
enum Product<'a> {
    Scores(ScoreTile<'a>),
    KeysInPlace(KeyTile<'a>),
    Values(ValueTile<'a>),
}

/// The product on `isa`.
fn products(isa: Isa, p: Product) {
    match (isa, p) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Isa::Avx2 is only chosen where the CPU has AVX2 and FMA;
        // the tiles' slices hold what their fields say (asserted inside).
        (Isa::Avx2, Product::Scores(mut t)) => unsafe { avx2::scores(&mut t) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (Isa::Avx2, Product::Values(mut t)) => unsafe { avx2::values(&mut t) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (Isa::Avx2, Product::KeysInPlace(mut t)) => unsafe { avx2::keys_in_place(&mut t) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: simd128 is on for every wasm build; with `fma` the page
        // runs this worker only where relaxed SIMD is.
        (Isa::Simd128, Product::Scores(mut t)) => unsafe { simd128::scores(&mut t) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: as above.
        (Isa::Simd128, Product::Values(mut t)) => unsafe { simd128::values(&mut t) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: as above.
        (Isa::Simd128, Product::KeysInPlace(mut t)) => unsafe { simd128::keys_in_place(&mut t) },
        (_, Product::Scores(mut t)) => portable::scores(&mut t),
        (_, Product::Values(mut t)) => portable::values(&mut t),
        (_, Product::KeysInPlace(mut t)) => portable::keys_in_place(&mut t),
    }
}

impl ScoreTile<'_> {
    /// The sizes the instruction sets' loops rely on.
    fn check(&self) {
        let panels = self.panels.len() / (self.d * PANEL).max(1);
        assert!(
            self.rows <= ROWS
                && self.q.len() == self.rows * self.d
                && self.panels.len() == panels * self.d * PANEL
                && self.ls == panels * PANEL
                && self.s.len() >= self.rows * self.ls,
            "a score tile's slices and sizes disagree"
        );
    }
}

impl KeyTile<'_> {
    /// The sizes the instruction sets' loops rely on; the keys there are.
    fn check(&self) -> usize {
        let keys = self.k.len() / self.d.max(1);
        assert!(
            self.rows <= ROWS
                && self.q.len() == self.rows * self.d
                && self.k.len() == keys * self.d
                && keys <= self.ls
                && self.s.len() >= self.rows * self.ls,
            "a key tile's slices and sizes disagree"
        );
        keys
    }
}

impl ValueTile<'_> {
    /// The sizes the instruction sets' loops rely on.
    fn check(&self) {
        assert!(
            self.rows <= ROWS
                && self.keys <= self.ls
                && self.e.len() >= self.rows * self.ls
                && self.v.len() == self.keys * self.dv
                && self.z.len() == self.rows * self.dv,
            "a value tile's slices and sizes disagree"
        );
    }
}
