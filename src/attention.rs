//! Scaled dot-product attention, the one place the formula lives:
//!
//! ```text
//!   S  = Q Kᵀ                 raw scores         (n_q × n_k)
//!   S' = S · scale            scaled scores      (scale = 1/√d_k by default)
//!   S''= S' + B + M           masked scores      (B: a position bias, if any; M is 0 or −∞)
//!   A  = softmax_rows(S'')    attention weights  (each row sums to 1)
//!   Z  = A V                  head output        (n_q × d_v)
//! ```
//!
//! Rows are queries, columns are keys. Every intermediate a view might show is
//! kept in a [`HeadTrace`]; the scaled and masked scores are cheap to derive
//! from `scores`, so they are recomputed on demand rather than stored.
//!
//! Multi-head, grouped-query (and so multi-query) and cross-attention are all
//! the same [`attend`] applied to different slices of Q, K and V.
//!
//! Under a causal mask half of A is 0, so on long texts Z = A V is computed a
//! block of queries at a time over the keys that block can see: the same
//! numbers for half the work. A long text's heads, whose A is summed up and
//! never kept, go through `kernels::fused`, which is checked against
//! [`attend`].

use crate::tensor::{self, Matrix};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Which keys each query may see. `M[i][j]` is 0 (visible) or −∞ (hidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mask {
    /// Every query sees every key: encoders (BERT).
    #[default]
    None,
    /// A query sees only keys at or before its own position: decoders (GPT,
    /// Llama). When there are more keys than queries (a key/value cache holds
    /// the earlier tokens), the queries are the *last* `n_q` positions.
    Causal,
    /// Causal, and only the `window` most recent keys, the query's own
    /// included: the local layers of Gemma 3 (and Mistral's window).
    SlidingWindow(usize),
}

impl Mask {
    /// Is key `j` visible to query `i`, with `n_q` queries and `n_k` keys?
    pub fn allows(self, i: usize, j: usize, n_q: usize, n_k: usize) -> bool {
        match self {
            Mask::None => true,
            Mask::Causal => j + n_q <= i + n_k,
            Mask::SlidingWindow(window) => j + n_q <= i + n_k && i + n_k < j + n_q + window,
        }
    }

    /// The additive mask M itself (0 or −∞), for views that show it.
    pub fn matrix(self, n_q: usize, n_k: usize) -> Matrix {
        let mut m = Matrix::zeros(n_q, n_k);
        for i in 0..n_q {
            for j in 0..n_k {
                if !self.allows(i, j, n_q, n_k) {
                    m[(i, j)] = f32::NEG_INFINITY;
                }
            }
        }
        m
    }

    /// The keys that any of queries `first .. first + rows` may see (of
    /// `n_q` queries over `n_k` keys), as one range.
    pub fn visible_keys(self, first: usize, rows: usize, n_q: usize, n_k: usize) -> Range<usize> {
        let last_seen = (first + rows + n_k).saturating_sub(n_q).min(n_k); // past the last query's own key
        match self {
            Mask::None => 0..n_k,
            Mask::Causal => 0..last_seen,
            Mask::SlidingWindow(window) => {
                ((first + n_k + 1).saturating_sub(n_q + window)).min(last_seen)..last_seen
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mask::None => "none",
            Mask::Causal => "causal",
            Mask::SlidingWindow(_) => "sliding window",
        }
    }
}

/// What the raw scores are multiplied by before the softmax.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
pub enum Scale {
    /// 1/√d_k, as in Vaswani et al. (d_k = width of one head's keys).
    #[default]
    InvSqrtDk,
    /// 1/√d for a given width d: the seed-003 worked example divides by √4,
    /// the width of its inputs; some write-ups use √d_model.
    InvSqrtOf(usize),
    /// No scaling: shows why it is needed (the softmax saturates).
    None,
    /// Any factor, e.g. 1/(√d_k · temperature).
    Factor(f32),
}

impl Scale {
    pub fn factor(self, d_k: usize) -> f32 {
        match self {
            Scale::InvSqrtDk => 1.0 / (d_k.max(1) as f32).sqrt(),
            Scale::InvSqrtOf(d) => 1.0 / (d.max(1) as f32).sqrt(),
            Scale::None => 1.0,
            Scale::Factor(f) => f,
        }
    }
}

/// One head's attention with everything a visualiser needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HeadTrace {
    /// Raw scores S = Q Kᵀ (n_q × n_k): what the model "thinks" before scaling.
    pub scores: Matrix,
    /// The factor applied to S (1/√d_k unless chosen otherwise).
    pub scale: f32,
    /// B, added to the scaled scores (n_q × n_k): MPNet's relative position
    /// bias; None for the models without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bias: Option<Matrix>,
    pub mask: Mask,
    /// A = softmax(S·scale + B + M) (n_q × n_k); rows sum to 1.
    pub weights: Matrix,
    /// Z = A V (n_q × d_v).
    pub output: Matrix,
}

impl HeadTrace {
    /// A head of which only Z = A V is kept: S and A were summed up and let
    /// go of as they were computed (a long text's, `kernels::fused`).
    pub fn output_only(output: Matrix, scale: f32, mask: Mask) -> HeadTrace {
        let none = || Matrix::zeros(0, 0);
        HeadTrace { scores: none(), scale, bias: None, mask, weights: none(), output }
    }

    /// S' = S · scale.
    pub fn scaled(&self) -> Matrix {
        self.scores.map(|s| s * self.scale)
    }

    /// S'' = S' + B + M, with −∞ where the mask hides a key.
    pub fn masked(&self) -> Matrix {
        add_bias(self.scaled(), self.bias.as_ref())
            .add(&self.mask.matrix(self.scores.rows, self.scores.cols))
    }

    /// A "what-if": the weights this head would give under another mask or
    /// scale, from the very same Q and K (e.g. a causal grid for an encoder).
    pub fn reweighed(&self, mask: Mask, scale: f32) -> Matrix {
        softmax_rows(apply_mask(add_bias(self.scores.map(|s| s * scale), self.bias.as_ref()), mask))
    }
}

/// Softmax of one row, stable for large scores: subtracting the row's maximum
/// changes nothing mathematically but keeps exp() from overflowing. A row with
/// every entry −∞ (nothing visible) yields zeros rather than NaN.
pub fn softmax(row: &[f32]) -> Vec<f32> {
    let mut out = row.to_vec();
    softmax_in_place(&mut out);
    out
}

/// [`softmax`], overwriting the scores with the weights.
pub fn softmax_in_place(row: &mut [f32]) {
    let max = tensor::max(row);
    if max == f32::NEG_INFINITY {
        row.fill(0.0);
        return;
    }
    let e = tensor::loop_constants(tensor::EXP);
    row.iter_mut().for_each(|s| *s = e.exp(*s - max));
    let sum = tensor::sum(row);
    row.iter_mut().for_each(|e| *e /= sum);
}

/// Softmax applied to every row of a matrix (in its own storage).
pub fn softmax_rows(mut m: Matrix) -> Matrix {
    for i in 0..m.rows {
        softmax_in_place(m.row_mut(i));
    }
    m
}

/// S + M: hidden keys become −∞ so that softmax gives them exactly 0.
pub fn apply_mask(mut scores: Matrix, mask: Mask) -> Matrix {
    if mask == Mask::None {
        return scores;
    }
    let (n_q, n_k) = scores.shape();
    mask_from(&mut scores, mask, (0, 0), (n_q, n_k));
    scores
}

/// −∞ where `mask` hides a key, in the part of an `n_q` × `n_k` score
/// matrix that `scores` holds: its rows and columns start at `first`
/// (query, key).
#[inline(never)] // one copy in the worker's wasm, not one per caller (bundle budget)
fn mask_from(scores: &mut Matrix, mask: Mask, first: (usize, usize), (n_q, n_k): (usize, usize)) {
    for i in 0..scores.rows {
        for (j, s) in scores.row_mut(i).iter_mut().enumerate() {
            if !mask.allows(first.0 + i, first.1 + j, n_q, n_k) {
                *s = f32::NEG_INFINITY;
            }
        }
    }
}

/// S' + B: the position bias, where the model has one.
fn add_bias(scaled: Matrix, bias: Option<&Matrix>) -> Matrix {
    match bias {
        Some(b) => scaled.add(b),
        None => scaled,
    }
}

/// How one head attends: the mask M, the scale and a position bias B.
/// `Attend::new(mask, scale)` for the usual head; `..Default::default()` is
/// no mask, 1/√d_k.
#[derive(Clone, Copy, Debug, Default)]
pub struct Attend<'a> {
    pub mask: Mask,
    pub scale: Scale,
    /// B (n_q × n_k), added to the scaled scores: MPNet's relative positions.
    pub bias: Option<&'a Matrix>,
}

impl<'a> Attend<'a> {
    pub fn new(mask: Mask, scale: Scale) -> Self {
        Attend { mask, scale, bias: None }
    }
}

/// Scaled dot-product attention for one head, the one way in.
///
/// `q`: n_q × d_k, `k`: n_k × d_k, `v`: n_k × d_v. For self-attention n_q = n_k;
/// for cross-attention Q comes from one sequence and K, V from another.
pub fn attend(q: &Matrix, k: &Matrix, v: &Matrix, o: Attend<'_>) -> HeadTrace {
    let (bias, mask) = (o.bias, o.mask);
    let scale = o.scale.factor(q.cols);
    let scores = q.matmul_t(k); //                                  S = Q Kᵀ            (n_q × n_k)
    let biased = add_bias(scores.map(|s| s * scale), bias); //      S·scale + B         (n_q × n_k)
    let weights = softmax_rows(apply_mask(biased, mask)); //        A = softmax(… + M)  (n_q × n_k)
    let output = values(&weights, v, mask); //                      Z = A V             (n_q × d_v)
    HeadTrace { scores, scale, bias: bias.cloned(), mask, weights, output }
}

/// Queries taken together (at most) by [`values`]:
/// each block multiplies only the keys its last query sees, so about a
/// sixteenth more than the triangle at 1,000 tokens, in products large
/// enough to run at full speed. Shorter texts are one block.
const QUERY_BLOCK: usize = 64;

/// A block of queries and the keys it multiplies: `rows` queries from
/// `first`, and the keys any of them may see, widened to the eight-lane
/// boundaries of the softmax's sums ([`tensor::sum`]) so that a row of the
/// block adds the same numbers in the same lanes as the whole row.
struct QueryBlock {
    first: usize,
    rows: usize,
    keys: Range<usize>,
}

impl QueryBlock {
    /// Z's rows of this block: A_b V_b, A_b being the block's weights over its keys.
    #[inline(never)] // as mask_from
    fn values_into(&self, z: &mut Matrix, a_b: &Matrix, v: &Matrix) {
        let z_b = a_b.matmul(&rows_of(v, self.keys.clone())); //                     A_b V_b  (rows × d_v)
        z.data[self.first * v.cols..(self.first + self.rows) * v.cols].copy_from_slice(&z_b.data);
    }
}

/// The blocks of `n_q` queries over `n_k` keys under `mask`: one block for
/// short texts or without a mask, else blocks of equal size (a last block
/// of a row or two would be another product, gemm's one-row path, with
/// other roundings).
fn query_blocks(n_q: usize, n_k: usize, mask: Mask) -> impl Iterator<Item = QueryBlock> {
    let block = if mask == Mask::None || n_q < 2 * QUERY_BLOCK {
        n_q.max(1)
    } else {
        n_q.div_ceil(n_q.div_ceil(QUERY_BLOCK))
    };
    (0..n_q).step_by(block).map(move |first| {
        let rows = block.min(n_q - first);
        let seen = mask.visible_keys(first, rows, n_q, n_k);
        QueryBlock { first, rows, keys: seen.start / 8 * 8..seen.end.next_multiple_of(8).min(n_k) }
    })
}

/// Z = A V (n_q × d_v), a block of queries at a time over the keys it can
/// see: the weights of the keys it cannot are 0, so their products are
/// skipped, which halves A V of a long causal text.
fn values(a: &Matrix, v: &Matrix, mask: Mask) -> Matrix {
    let mut z = Matrix::zeros(a.rows, v.cols);
    for b in query_blocks(a.rows, a.cols, mask) {
        if b.rows == a.rows && b.keys == (0..a.cols) {
            return a.matmul(v); // one block, every key: A V as it stands
        }
        let a_b = Matrix::from_rows(
            &(b.first..b.first + b.rows).map(|i| &a.row(i)[b.keys.clone()]).collect::<Vec<_>>(),
        );
        b.values_into(&mut z, &a_b, v);
    }
    z
}

/// Rows `rows` of `m`: `m` itself when that is all of them (a token
/// appended reads every key where it is, not a copy).
fn rows_of(m: &Matrix, rows: Range<usize>) -> std::borrow::Cow<'_, Matrix> {
    if rows == (0..m.rows) {
        std::borrow::Cow::Borrowed(m)
    } else {
        std::borrow::Cow::Owned(m.rows_range(rows.start, rows.len()))
    }
}

/// Q, K and V of a layer, already projected (and, for Llama, rotated), laid
/// out head after head along the columns.
#[derive(Clone, Copy)]
pub struct Projections<'a> {
    /// n_q × (n_heads · d_k)
    pub q: &'a Matrix,
    /// n_k × (n_kv_heads · d_k)
    pub k: &'a Matrix,
    /// n_k × (n_kv_heads · d_v)
    pub v: &'a Matrix,
    pub n_heads: usize,
    /// Key/value heads. `n_heads` for plain multi-head attention, fewer for
    /// grouped-query attention, 1 for multi-query attention.
    pub n_kv_heads: usize,
}

/// All heads of one attention layer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MultiHeadTrace {
    /// Per query head: its Q slice (n_q × d_k).
    pub q: Vec<Matrix>,
    /// Per key/value head: K and V slices (n_k × d_k, n_k × d_v). Query heads
    /// of one group read the same entry: see `kv_head_of`.
    pub k: Vec<Matrix>,
    pub v: Vec<Matrix>,
    /// `kv_head_of[h]` is the key/value head that query head `h` uses.
    pub kv_head_of: Vec<usize>,
    pub heads: Vec<HeadTrace>,
    /// The heads' outputs side by side, [Z_1 | … | Z_H] (n_q × H·d_v), the
    /// input of the output projection W_O.
    pub concat: Matrix,
}

impl MultiHeadTrace {
    /// Whether head `h` still holds its S, A and Z (see [`Self::let_go`]).
    pub fn keeps(&self, h: usize) -> bool {
        let a = &self.heads[h].weights;
        (a.rows, a.cols) == (self.q[h].rows, self.k[self.kv_head_of[h]].rows)
    }

    /// Head `h` whole: as kept, or computed again from the kept Q, K and V
    /// by the same [`attend`] that computed it first, so the
    /// numbers are the same.
    pub fn head(&self, h: usize) -> std::borrow::Cow<'_, HeadTrace> {
        if self.keeps(h) {
            return std::borrow::Cow::Borrowed(&self.heads[h]);
        }
        let (t, kv) = (&self.heads[h], self.kv_head_of[h]);
        let o = Attend { bias: t.bias.as_ref(), ..Attend::new(t.mask, Scale::Factor(t.scale)) };
        std::borrow::Cow::Owned(attend(&self.q[h], &self.k[kv], &self.v[kv], o))
    }

    /// A[query, key] of head `h` (None outside the text); for a head let
    /// go of, from that query's row alone.
    pub fn weight(&self, h: usize, query: usize, key: usize) -> Option<f32> {
        let (t, kv) = (&self.heads[h], self.kv_head_of[h]);
        let (n_q, n_k) = (self.q[h].rows, self.k[kv].rows);
        if query >= n_q || key >= n_k {
            return None;
        }
        if self.keeps(h) {
            return Some(t.weights[(query, key)]);
        }
        let q = self.q[h].rows_range(query, 1); //                    q_i              (1 × d_k)
        let mut row = q.matmul_t(&self.k[kv]).map(|s| s * t.scale); // q_i Kᵀ · scale  (1 × n_k)
        if let Some(b) = &t.bias {
            row = row.add(&b.rows_range(query, 1));
        }
        for j in 0..n_k {
            if !t.mask.allows(query, j, n_q, n_k) {
                row[(0, j)] = f32::NEG_INFINITY;
            }
        }
        softmax_in_place(row.row_mut(0));
        Some(row[(0, key)])
    }

    /// Lets go of every head's S, A and Z (n_q × n_k each, the bulk of a
    /// long text's trace) and of their outputs side by side, keeping Q, K,
    /// V and each head's mask, scale and bias: [`Self::head`] computes a
    /// head again when it is asked for.
    pub fn let_go(&mut self) {
        for t in &mut self.heads {
            (t.scores, t.weights, t.output) =
                (Matrix::zeros(0, 0), Matrix::zeros(0, 0), Matrix::zeros(0, 0));
        }
        self.concat = Matrix::zeros(0, self.concat.cols);
    }
}

/// `kv_head_of[h]`, the key/value head query head `h` uses: heads come in
/// `n_heads / n_kv_heads` consecutive groups (as in Llama and SmolLM2).
pub fn kv_head_of(n_heads: usize, n_kv_heads: usize) -> Vec<usize> {
    (0..n_heads).map(|h| h / (n_heads / n_kv_heads)).collect()
}

/// How a layer's heads attend: [`Attend`]'s mask and scale for every head
/// and a position bias per head.
#[derive(Default)]
pub struct AttendHeads<'a> {
    pub mask: Mask,
    pub scale: Scale,
    /// `biases[h]` (n_q × n_k) added to head `h`'s scaled scores, as MPNet's
    /// relative positions are.
    pub biases: Option<&'a [Matrix]>,
}

impl<'a> AttendHeads<'a> {
    pub fn new(mask: Mask, scale: Scale) -> Self {
        AttendHeads { mask, scale, biases: None }
    }
}

/// Multi-head (and grouped-query, multi-query, cross-) attention, the one way
/// in for a layer: Q (n_q × n_heads·d_k) split into its heads, each attending
/// over its group's K and V head (`k[g]`: n_k × d_k, `v[g]`: n_k × d_v; split
/// with [`split_heads`], or grown in place by a key/value cache), concatenated.
pub fn multi_head(
    q: &Matrix,
    n_heads: usize,
    k: Vec<Matrix>,
    v: Vec<Matrix>,
    o: AttendHeads<'_>,
) -> MultiHeadTrace {
    let n_kv_heads = k.len();
    assert!(
        n_heads > 0
            && n_kv_heads > 0
            && n_heads.is_multiple_of(n_kv_heads)
            && v.len() == n_kv_heads,
        "heads must split evenly into key/value groups"
    );
    let d_k = q.cols / n_heads;
    assert!(k.iter().all(|k| k.cols == d_k), "each key head must be d_k wide");
    assert!(o.biases.is_none_or(|b| b.len() == n_heads), "one bias per head");
    let AttendHeads { mask, scale, biases } = o;
    let q = split_heads(q, n_heads); //                                             Q_h        (n_q × d_k)
    let kv_head_of = kv_head_of(n_heads, n_kv_heads);
    let heads: Vec<HeadTrace> = (0..n_heads)
        .map(|h| {
            let head = Attend { mask, scale, bias: biases.map(|b| &b[h]) };
            attend(&q[h], &k[kv_head_of[h]], &v[kv_head_of[h]], head) //          Z_h = A_h V_g (n_q × d_v)
        })
        .collect();
    gather(q, k, v, heads)
}

/// The layer's trace from its heads, computed one by one (here, or some
/// by another thread: `models::helper::shared_heads`): Q split into its
/// heads (n_q × d_k each), K and V into theirs, and each head's trace.
pub fn gather(
    q: Vec<Matrix>,
    k: Vec<Matrix>,
    v: Vec<Matrix>,
    heads: Vec<HeadTrace>,
) -> MultiHeadTrace {
    let kv_head_of = kv_head_of(q.len(), k.len());
    let outputs: Vec<Matrix> = heads.iter().map(|t| t.output.clone()).collect();
    let concat = Matrix::concat_cols(&outputs); //                                 [Z_1 | … | Z_H] (n_q × H·d_v)
    MultiHeadTrace { q, k, v, kv_head_of, heads, concat }
}

/// The `n` equal column blocks of `m`, one per head.
pub fn split_heads(m: &Matrix, n: usize) -> Vec<Matrix> {
    assert!(
        n > 0 && m.cols.is_multiple_of(n),
        "{} columns must split evenly into {n} heads",
        m.cols
    );
    let d = m.cols / n;
    (0..n).map(|h| m.cols_range(h * d, d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::excessive_precision)] // the digits as the article prints them
    fn softmax_matches_seed_004_printout() {
        // ../shared/seeds/004: softmax([1,2,3,4]) and of ten times that.
        let expect1 = [0.0320586, 0.08714432, 0.23688282, 0.64391426];
        let expect10 = [9.35719813e-14, 2.06106005e-09, 4.53978686e-05, 9.99954600e-01];
        for (got, want) in softmax(&[1.0, 2.0, 3.0, 4.0]).iter().zip(expect1) {
            assert!(((got - want) / want).abs() < 1e-6, "{got} vs {want}");
        }
        for (got, want) in softmax(&[10.0, 20.0, 30.0, 40.0]).iter().zip(expect10) {
            assert!(((*got as f64 - want) / want).abs() < 1e-6, "{got} vs {want}");
        }
    }

    #[test]
    fn softmax_is_stable_and_never_nan() {
        let big = softmax(&[1000.0, 1001.0]);
        assert!(big.iter().all(|x| x.is_finite()));
        assert!((big.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(softmax(&[f32::NEG_INFINITY, f32::NEG_INFINITY]), vec![0.0, 0.0]);
        assert_eq!(softmax(&[]), Vec::<f32>::new());
    }

    #[test]
    fn causal_mask_hides_the_future_and_handles_a_cache() {
        let m = Mask::Causal.matrix(3, 3);
        assert_eq!(m[(0, 1)], f32::NEG_INFINITY);
        assert_eq!(m[(2, 2)], 0.0);
        // Two new queries after three cached tokens: the first new query is
        // position 3 and sees keys 0..=3, not 4.
        assert!(Mask::Causal.allows(0, 3, 2, 5));
        assert!(!Mask::Causal.allows(0, 4, 2, 5));
    }

    #[test]
    fn a_sliding_window_shows_the_window_and_handles_a_cache() {
        // Window 3: each query sees itself and the two keys before it.
        let m = Mask::SlidingWindow(3).matrix(5, 5);
        let visible: Vec<Vec<bool>> =
            (0..5).map(|i| (0..5).map(|j| m[(i, j)] == 0.0).collect()).collect();
        assert_eq!(visible[4], [false, false, true, true, true]);
        assert_eq!(visible[1], [true, true, false, false, false]);
        // One new query (position 5) after five cached keys: keys 3, 4, 5.
        assert_eq!(
            (0..6).filter(|&j| Mask::SlidingWindow(3).allows(0, j, 1, 6)).collect::<Vec<_>>(),
            [3, 4, 5]
        );
        // A window at least as long as the text is the causal mask.
        assert_eq!(Mask::SlidingWindow(5).matrix(5, 5), Mask::Causal.matrix(5, 5));
    }

    #[test]
    fn grouped_query_heads_map_to_their_groups() {
        assert_eq!(kv_head_of(9, 3), vec![0, 0, 0, 1, 1, 1, 2, 2, 2]);
        assert_eq!(kv_head_of(4, 1), vec![0; 4]);
    }
}
