//! One model on two threads: every weight matrix's rows cut in two, this
//! thread multiplying by its own part while a helper (another thread), which
//! holds a copy of the second part, shares that part with it.
//!
//! A transformer's time goes into its weight matrices' products, and each
//! output row is one dot product, independent of the others. So the rows
//! can be computed anywhere, in any grouping of whole [`TILE`]s, and joined:
//! the outputs are bit-for-bit those of the whole matrix (the same dot
//! products in the same order). Decoders share their quantized matrices
//! ([`QMatrix`]), encoders their packed f32 ones ([`PackedLinear`]).
//!
//! The helper's part is cut into [`pieces`]. The helper takes them from the
//! last one down, this thread (after its own part) from the first one up,
//! each piece going to whoever claims it first. This thread never waits
//! long for the helper: a piece the helper has claimed but not finished in
//! about the time it would take here is computed here as well. In a browser
//! the helper shares two cores with the page's own drawing and can lose its
//! core for milliseconds; with pieces, a helper that is held up only does
//! less, where with a fixed half each this thread would wait for it.
//!
//! A long text's attention is shared too: a decoder's heads (S, A and Z
//! over n² pairs, and the sums of A) grow with the square of the length,
//! its products only with the length. Each head is then a piece ([`Heads`], [`shared_heads`]):
//! the helper, which needs no weights for it, takes heads from the last one
//! down and hands back Z and the sums of A, computed by the same code as
//! here, so the results are the same bits whoever computed a head.
//!
//! The model only sees [`Helper`]. How the input, the claims and the outputs
//! travel is the helper's business (in the browser, a second Web Worker and
//! a `SharedArrayBuffer`: `src/worker/helper.rs`).

use crate::attention::{kv_head_of, HeadTrace, Mask, Projections};
use crate::kernels::fused;
use crate::kernels::packed::PackedLinear;
use crate::kernels::quant::{Input, QMatrix};
use crate::tensor::Matrix;
use crate::trace::summary::HeadSummary;
use std::ops::Range;

#[cfg(not(target_arch = "wasm32"))]
pub mod thread;

/// The other thread, holding a [`Shard`]: for each shared matrix, in the
/// model's numbering, the rows after [`own_rows`].
pub trait Helper {
    /// Offers the helper the [`pieces`] of `parts.len()` shard matrices
    /// from number `first`, which all take the same input `x`. `parts` are
    /// the shapes of the helper's parts as the model has them: a helper
    /// whose shard matrices there have other shapes offers nothing (the
    /// model then computes every piece), so that a product numbered wrongly
    /// is slow rather than wrong.
    fn begin(&self, first: usize, parts: &[(usize, usize)], x: &Matrix);

    /// Claims piece `i` of the products begun last for this thread; false
    /// if the helper has claimed it.
    fn claim(&self, i: usize) -> bool;

    /// The helper's output for piece `i` (x.rows × its rows), waiting for
    /// it at most `patience_ms`; None if it is not there by then (this
    /// thread then computes the piece itself).
    fn collect(&self, i: usize, patience_ms: f64) -> Option<Matrix>;

    /// A clock in milliseconds, to pace [`Helper::collect`].
    fn now_ms(&self) -> f64;

    /// Offers the helper the heads of one layer of a long text ([`Heads`]),
    /// from the last one down, as pieces `0 .. heads.n_heads` (claimed and
    /// collected as the products' are; each collected as one row of
    /// [`Heads::result_len`] floats). False if it cannot take them: this
    /// thread then computes every head.
    fn begin_heads(&self, _heads: &Heads) -> bool {
        false
    }

    /// Whether the helper holds its weights yet: one handed them is used at
    /// once, and takes part once it is ready (until then [`Helper::begin`]
    /// offers it nothing, and this thread computes everything).
    fn ready(&self) -> bool {
        true
    }

    /// Why the helper takes no part any more (it failed to take its weights,
    /// or stopped), if it does not.
    fn lost(&self) -> Option<String> {
        None
    }
}

/// A helper as the model keeps it. Natively the model stays `Send + Sync`
/// (tests share one across threads), so its helper must be too; a wasm
/// instance has one thread, and the browser's helper holds JavaScript
/// objects, which are neither.
#[cfg(not(target_arch = "wasm32"))]
pub type BoxedHelper = Box<dyn Helper + Send + Sync>;
#[cfg(target_arch = "wasm32")]
pub type BoxedHelper = Box<dyn Helper>;

/// A weight matrix whose products a helper can share: x Wᵀ for any of its
/// rows, the same bits whichever rows are asked together.
pub trait SharedMatrix {
    /// Rows (outputs) and columns (inputs).
    fn shape(&self) -> (usize, usize);
    /// x Wᵀ for `rows` (starting at a whole [`TILE`]).
    fn rows_product(&self, x: &Input, rows: Range<usize>) -> Matrix;
}

impl SharedMatrix for QMatrix {
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
    fn rows_product(&self, x: &Input, rows: Range<usize>) -> Matrix {
        self.forward_input(x, rows)
    }
}

impl SharedMatrix for PackedLinear {
    fn shape(&self) -> (usize, usize) {
        PackedLinear::shape(self)
    }
    fn rows_product(&self, x: &Input, rows: Range<usize>) -> Matrix {
        self.forward_rows(x.matrix(), rows)
    }
}

/// One matrix of the helper's part: a decoder's quantized rows or an
/// encoder's packed panels.
#[derive(Clone, Debug)]
pub enum ShardMatrix {
    Quant(QMatrix),
    Packed(PackedLinear),
}

impl SharedMatrix for ShardMatrix {
    fn shape(&self) -> (usize, usize) {
        match self {
            ShardMatrix::Quant(m) => SharedMatrix::shape(m),
            ShardMatrix::Packed(m) => SharedMatrix::shape(m),
        }
    }
    fn rows_product(&self, x: &Input, rows: Range<usize>) -> Matrix {
        match self {
            ShardMatrix::Quant(m) => m.rows_product(x, rows),
            ShardMatrix::Packed(m) => m.rows_product(x, rows),
        }
    }
}

/// A model's matrix that a helper can share, as the model holds it.
#[derive(Clone, Copy)]
pub enum SharedRef<'m> {
    Quant(&'m QMatrix),
    Packed(&'m PackedLinear),
}

impl SharedRef<'_> {
    pub fn shape(&self) -> (usize, usize) {
        match self {
            SharedRef::Quant(m) => SharedMatrix::shape(*m),
            SharedRef::Packed(m) => SharedMatrix::shape(*m),
        }
    }

    /// A copy of the helper's part ([`own_rows`] on) of this matrix.
    pub fn helper_part(&self) -> ShardMatrix {
        let (rows, _) = self.shape();
        let part = own_rows(rows)..rows;
        match self {
            SharedRef::Quant(m) => ShardMatrix::Quant(m.rows_copy(part)),
            SharedRef::Packed(m) => {
                let (bytes, bias) = m.panels(part.clone());
                ShardMatrix::Packed(
                    PackedLinear::from_panels(m.shape().1, part.len(), bytes, bias)
                        .expect("a model's own panels"),
                )
            }
        }
    }
}

/// A model whose products a helper can share (a decoder's, an encoder's):
/// what the browser's worker needs to give it one (`src/worker/helper.rs`).
pub trait Shares {
    /// Every matrix a helper can share, in the numbering of its requests.
    fn shared(&self) -> Vec<SharedRef<'_>>;
    /// The model's name, its longest input in tokens and its layers.
    fn limits(&self) -> (String, usize, usize);
    /// Shares every run's products with `helper`, which holds the
    /// [`SharedRef::helper_part`] of every [`Shares::shared`] matrix.
    fn share_with(&mut self, helper: BoxedHelper);
    /// Runs on one thread, because a helper could not be had.
    fn run_alone(&mut self, why: String);
}

/// The helper's part of the weights.
#[derive(Clone, Debug, Default)]
pub struct Shard {
    pub matrices: Vec<ShardMatrix>,
}

impl Shard {
    /// The helper's part of every matrix of `model`.
    pub fn of(model: &dyn Shares) -> Shard {
        Shard { matrices: model.shared().iter().map(SharedRef::helper_part).collect() }
    }
}

impl Shard {
    /// Whether shard matrices `first ..` have the shapes `parts` (see [`Helper::begin`]).
    pub fn holds(&self, first: usize, parts: &[(usize, usize)]) -> bool {
        let held = first.checked_add(parts.len()).and_then(|end| self.matrices.get(first..end));
        held.is_some_and(|ws| ws.iter().map(SharedMatrix::shape).eq(parts.iter().copied()))
    }

    /// The [`pieces`] of shard matrices `first .. first + count`, or None
    /// for a request the shard cannot answer (a matrix it does not have,
    /// an input of another width): requests cross from another thread's
    /// memory, and are refused rather than trusted.
    pub fn pieces(&self, first: usize, count: usize, cols: usize) -> Option<Vec<Piece>> {
        let ws = self.matrices.get(first..first.checked_add(count)?)?;
        ws.iter()
            .all(|w| w.shape().1 == cols)
            .then(|| pieces(&ws.iter().map(SharedMatrix::shape).collect::<Vec<_>>()))
    }

    /// x Wᵀ for one piece of shard matrices `first ..` (see [`Shard::pieces`]).
    pub fn product(&self, first: usize, piece: &Piece, x: &Input) -> Matrix {
        self.matrices[first + piece.matrix].rows_product(x, piece.rows.clone())
    }
}

/// Rows are shared in whole tiles of this many: wasm's quantized kernel
/// expands four rows at a time, and a [`PackedLinear`] panel holds 16.
pub const TILE: usize = 16;

/// Rows of a shared matrix this thread multiplies by: half, rounded to whole [`TILE`]s.
pub fn own_rows(rows: usize) -> usize {
    (rows / 2).next_multiple_of(TILE).min(rows)
}

/// Some rows of the helper's part of one of a request's matrices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Which of the request's matrices (0 for the first).
    pub matrix: usize,
    /// Rows of the helper's part (0 for its first row, the matrix's row
    /// [`own_rows`]).
    pub rows: Range<usize>,
}

/// The smallest piece, in weights: each piece also passes through the
/// shared memory, which costs a few microseconds, about what the products
/// of 25 000 weights with one token take.
const LEAST_PIECE_WEIGHTS: usize = 24 * 1024;
/// The largest piece, in weights, unless a matrix's part is more than eight
/// times as large (SmolLM2's output matrix: 14 million weights in the
/// helper's part): at most this much is left for this thread to wait for
/// if the helper loses its core.
const MOST_PIECE_WEIGHTS: usize = 1024 * 1024;

/// The helper's part of matrices of (rows, cols) each — (rows of the helper's
/// part, cols) — cut into pieces of whole [`TILE`]s, matrix by matrix.
/// Both threads compute the same list from the same shapes.
///
/// Within a matrix the pieces grow from the first to the last: the helper
/// starts from the last (large, few hand-offs) and this thread, after its
/// own half, from the first, so the two meet among small pieces, and
/// neither is left idle while the other finishes a large one.
pub fn pieces(shapes: &[(usize, usize)]) -> Vec<Piece> {
    let mut out = Vec::new();
    for (matrix, &(rows, cols)) in shapes.iter().enumerate() {
        let tile_weights = (TILE * cols).max(1);
        let least = (LEAST_PIECE_WEIGHTS / tile_weights).max(1);
        let most = (MOST_PIECE_WEIGHTS / tile_weights).max(rows.div_ceil(8 * TILE)).max(least);
        // Tiles from the back: half of what is left each time, within [least, most].
        let mut left = rows.div_ceil(TILE);
        let mut sizes = Vec::new();
        while left > least {
            let take = (left / 2).clamp(least, most).min(left);
            sizes.push(take);
            left -= take;
        }
        if left > 0 {
            sizes.push(left);
        }
        let mut start = 0;
        for tiles in sizes.into_iter().rev() {
            let end = (start + tiles * TILE).min(rows);
            out.push(Piece { matrix, rows: start..end });
            start = end;
        }
    }
    out
}

/// The products of one layer (or block), numbered in the order the model
/// makes them so that a [`Helper`] holding the rows after [`own_rows`] of
/// the same matrices ([`Shard::of`]) can share them.
pub struct Products<'h> {
    helper: Option<&'h dyn Helper>,
    next: usize,
}

impl<'h> Products<'h> {
    /// The products of the layer whose first matrix is number `first`.
    pub fn new(helper: Option<&'h dyn Helper>, first: usize) -> Products<'h> {
        Products { helper, next: first }
    }

    /// The helper these products are shared with, if any.
    pub fn helper(&self) -> Option<&'h dyn Helper> {
        self.helper
    }

    /// `[x Wᵀ for each of ws]`, all from the same input.
    pub fn matrices<M: SharedMatrix, const N: usize>(
        &mut self,
        ws: [&M; N],
        x: &Matrix,
    ) -> [Matrix; N] {
        let outs = products(self.helper, self.next, ws, x);
        self.next += N;
        outs
    }
}

/// `[x Wᵀ for each of ws]`: with a helper (whose shard matrices `first ..
/// first + N` are the rows of `ws` after [`own_rows`]) shared between the
/// two threads, else all here.
pub fn products<M: SharedMatrix, const N: usize>(
    helper: Option<&dyn Helper>,
    first: usize,
    ws: [&M; N],
    x: &Matrix,
) -> [Matrix; N] {
    let outs = shared_products(helper, first, &ws.map(|w| w as &dyn SharedMatrix), x);
    outs.try_into().unwrap_or_else(|_| unreachable!("one output per matrix"))
}

/// [`products`] for any matrices and count: one copy of the code for every
/// model (a copy per matrix type and count would grow the wasm).
fn shared_products(
    helper: Option<&dyn Helper>,
    first: usize,
    ws: &[&dyn SharedMatrix],
    x: &Matrix,
) -> Vec<Matrix> {
    let input = Input::new(x);
    let Some(helper) = helper else {
        return ws.iter().map(|w| w.rows_product(&input, 0..w.shape().0)).collect();
    };
    let parts: Vec<(usize, usize)> =
        ws.iter().map(|w| w.shape()).map(|(rows, cols)| (rows - own_rows(rows), cols)).collect();
    helper.begin(first, &parts, x);
    let start = helper.now_ms();
    let mine: Vec<Matrix> =
        ws.iter().map(|w| w.rows_product(&input, 0..own_rows(w.shape().0))).collect();
    let mine_weights: usize = ws.iter().map(|w| own_rows(w.shape().0) * w.shape().1).sum();
    let ms_per_weight = (helper.now_ms() - start) / mine_weights.max(1) as f64;
    let pieces = pieces(&parts);
    let compute = |p: &Piece| {
        let at = own_rows(ws[p.matrix].shape().0);
        ws[p.matrix].rows_product(&input, at + p.rows.start..at + p.rows.end)
    };
    // From the first piece up, until the helper, coming down, has been there.
    let mut outs: Vec<Matrix> = Vec::with_capacity(pieces.len());
    for p in &pieces {
        if !helper.claim(outs.len()) {
            break;
        }
        outs.push(compute(p));
    }
    for (i, p) in pieces.iter().enumerate().skip(outs.len()) {
        // About twice what the piece would take here, and at least 20 µs.
        let patience =
            (2.0 * ms_per_weight * (p.rows.len() * ws[p.matrix].shape().1) as f64).max(0.02);
        let theirs = helper.collect(i, patience).filter(|m| m.shape() == (x.rows, p.rows.len()));
        outs.push(theirs.unwrap_or_else(|| compute(p)));
    }
    let mut parts: Vec<Vec<Matrix>> = mine.into_iter().map(|m| vec![m]).collect();
    for (p, out) in pieces.iter().zip(outs) {
        parts[p.matrix].push(out);
    }
    parts.iter().map(|all| Matrix::concat_cols(all)).collect()
}

/// One layer's attention of a long text from its first token, as a helper
/// can share it: each head's Z = A V and the sums of its A
/// ([`HeadSummary`]), A itself let go of (`decoder::parts::attend_cached`).
/// A head is a few milliseconds at 1,000 tokens, so heads are the pieces.
pub struct Heads<'a> {
    /// Q, K and V of the layer's n tokens, the heads side by side (read
    /// through this struct: `heads.q`, `heads.n_heads`).
    pub p: Projections<'a>,
    pub mask: Mask,
    /// The factor of the scores (1/√d_k).
    pub scale: f32,
}

impl<'a> std::ops::Deref for Heads<'a> {
    type Target = Projections<'a>;
    fn deref(&self) -> &Projections<'a> {
        &self.p
    }
}

impl Heads<'_> {
    /// Whether the shapes agree: the other thread checks a request before it computes.
    pub fn is_whole(&self) -> bool {
        let (q, k, v) = (self.q, self.k, self.v);
        self.n_heads > 0
            && self.n_kv_heads > 0
            && self.n_heads.is_multiple_of(self.n_kv_heads)
            && q.cols.is_multiple_of(self.n_heads)
            && q.rows == k.rows
            && (k.rows, k.cols) == (v.rows, v.cols)
            && k.cols == self.n_kv_heads * (q.cols / self.n_heads)
    }

    fn d_head(&self) -> usize {
        self.q.cols / self.n_heads
    }

    /// Head `h` from its own Q and its group's K and V (n × d_k each): Z and
    /// the summary of A, as `attention::multi_head` handing on each head
    /// and its caller make them alone, bit for bit.
    pub fn attend(&self, q: &Matrix, k: &Matrix, v: &Matrix) -> (HeadTrace, HeadSummary) {
        let mut summary = HeadSummary::empty();
        let z = fused::attend_summed(q, k, v, self.mask, self.scale, &mut summary);
        (HeadTrace::output_only(z, self.scale, self.mask), summary)
    }

    /// Head `h` from the whole Q, K and V (the helper's side).
    pub fn head(&self, h: usize) -> (HeadTrace, HeadSummary) {
        let (d, kv) = (self.d_head(), kv_head_of(self.n_heads, self.n_kv_heads)[h]);
        self.attend(
            &self.q.cols_range(h * d, d),
            &self.k.cols_range(kv * d, d),
            &self.v.cols_range(kv * d, d),
        )
    }

    /// Floats of one head's result: Z (n × d_v), then its summary.
    pub fn result_len(&self) -> usize {
        self.q.rows * self.d_head() + HeadSummary::floats_for(self.q.rows)
    }

    /// A head's result as floats, for the other thread.
    pub fn to_floats(&self, (t, summary): &(HeadTrace, HeadSummary)) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.result_len());
        out.extend_from_slice(&t.output.data);
        out.extend(summary.to_floats());
        out
    }

    /// [`Heads::to_floats`] read back as a head `h`'s trace; None if the
    /// floats are not such a result.
    fn read_result(&self, f: &[f32]) -> Option<(HeadTrace, HeadSummary)> {
        let (n, d) = (self.q.rows, self.d_head());
        let z = f.get(..n * d)?;
        let summary =
            HeadSummary::from_floats(&f[n * d..]).filter(|_| f.len() == self.result_len())?;
        let output = Matrix::from_vec(n, d, z.to_vec());
        Some((HeadTrace::output_only(output, self.scale, self.mask), summary))
    }
}

/// Every head of `heads` (Q, K and V already split: `q[h]`, `k[kv]`,
/// `v[kv]`), this thread taking them from the first one up and the
/// helper from the last one down, as [`products`] shares a matrix's
/// pieces; None if the helper does not take the request (this thread then
/// computes them as it would alone).
pub fn shared_heads(
    helper: &dyn Helper,
    heads: &Heads,
    q: &[Matrix],
    k: &[Matrix],
    v: &[Matrix],
) -> Option<Vec<(HeadTrace, HeadSummary)>> {
    if !helper.ready() || !helper.begin_heads(heads) {
        return None;
    }
    let kv = kv_head_of(heads.n_heads, heads.n_kv_heads);
    let compute = |h: usize| heads.attend(&q[h], &k[kv[h]], &v[kv[h]]);
    let start = helper.now_ms();
    let mut outs = Vec::with_capacity(heads.n_heads);
    while outs.len() < heads.n_heads && helper.claim(outs.len()) {
        outs.push(compute(outs.len()));
    }
    // About twice what a head takes here (or, if the helper took every
    // head, twice the time it has had), and at least a millisecond.
    let patience = 2.0 * (helper.now_ms() - start) / outs.len().max(1) as f64;
    for h in outs.len()..heads.n_heads {
        let theirs = helper.collect(h, patience.max(1.0)).and_then(|m| heads.read_result(&m.data));
        outs.push(theirs.unwrap_or_else(|| compute(h)));
    }
    Some(outs)
}

#[cfg(test)]
mod tests;
