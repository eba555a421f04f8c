//! What a long text keeps of a head's weights once A itself is let go of
//! (a 1,024-token text's 270 SmolLM2 heads would hold a gigabyte of S and A):
//! the sums the overview's thumbnail and the catalog's measures are made of.
//! Both are sums over query rows, so they are added to a row at a time, and
//! typing at the end of a long text adds only the new rows.

use crate::tensor::{self, Matrix};
use serde::{Deserialize, Serialize};

/// Side of the blocks of tokens whose weights are summed for the thumbnail.
/// At 2,048 tokens a head keeps 128 × 128 sums (64 kB).
pub const BLOCK: usize = 16;

/// Averages over the query rows of one head's A.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadStats {
    pub layer: usize,
    pub head: usize,
    /// Mean entropy of a row, in bits: 0 when each query looks at one key,
    /// log2(n) when it spreads evenly.
    pub entropy_bits: f32,
    /// Mean |i − j| weighted by A: how far a head looks, in tokens.
    pub mean_distance: f32,
    /// Mean weight on the previous token (rows 1..n).
    pub previous_token: f32,
    /// Mean weight on the first token, the "attention sink".
    pub first_token: f32,
    /// Mean weight on the query's own token.
    pub self_token: f32,
}

/// The catalog's measures ([`HeadStats`]) before they are divided by the
/// number of rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RowSums {
    entropy_bits: f32,
    distance: f32,
    previous_token: f32,
    first_token: f32,
    self_token: f32,
    rows: usize,
    previous_rows: usize,
}

impl RowSums {
    /// Adds the rows of `a`, whose queries are the last `a.rows` of its
    /// `a.cols` positions (all of them for a whole text, the new ones for
    /// tokens appended to a cached one).
    pub fn add(&mut self, a: &Matrix) {
        for_each_row(a, |row| self.add_row(&row, a.cols));
    }

    /// Adds one row of weights over `keys` keys.
    #[inline(always)]
    pub fn add_row(&mut self, r: &WeightRow, keys: usize) {
        let inv = if r.l > 0.0 { 1.0 / r.l } else { 0.0 };
        self.entropy_bits += r.entropy_bits;
        self.distance += r.distance * inv;
        let at = |key: usize| {
            key.checked_sub(r.first_key).and_then(|j| r.e.get(j)).map_or(0.0, |e| e * inv)
        };
        self.first_token += at(0);
        if r.pos < keys {
            self.self_token += at(r.pos);
        }
        if r.pos >= 1 && r.pos - 1 < keys {
            self.previous_token += at(r.pos - 1);
            self.previous_rows += 1;
        }
        self.rows += 1;
    }

    /// The means over the rows added so far.
    pub fn stats(&self, layer: usize, head: usize) -> HeadStats {
        let n = self.rows.max(1) as f32;
        HeadStats {
            layer,
            head,
            entropy_bits: self.entropy_bits / n,
            mean_distance: self.distance / n,
            previous_token: self.previous_token / self.previous_rows.max(1) as f32,
            first_token: self.first_token / n,
            self_token: self.self_token / n,
        }
    }

    fn take_away(&mut self, gone: &RowSums) {
        self.entropy_bits -= gone.entropy_bits;
        self.distance -= gone.distance;
        self.previous_token -= gone.previous_token;
        self.first_token -= gone.first_token;
        self.self_token -= gone.self_token;
        self.rows -= gone.rows;
        self.previous_rows -= gone.previous_rows;
    }

    fn is_finite(&self) -> bool {
        [self.entropy_bits, self.distance, self.previous_token, self.first_token, self.self_token]
            .iter()
            .all(|x| x.is_finite())
    }
}

/// One query's row of A as a kernel holds it without storing A
/// (`kernels::fused`): the weights before the softmax's division,
/// `e[j] = l · A[pos][first_key + j]` (keys outside `e` weigh 0), and the
/// row's entropy, which the kernel has from the scores more cheaply than
/// from Σ A log A.
pub struct WeightRow<'a> {
    /// The query's position among the keys.
    pub pos: usize,
    pub first_key: usize,
    pub e: &'a [f32],
    /// The softmax's denominator: A = e / l (1 for a row of A itself; 0 for
    /// a row that sees no key).
    pub l: f32,
    pub entropy_bits: f32,
    /// Σ_j e[j] · |pos − j|: how far the row looks, before the division by l.
    pub distance: f32,
}

/// Each row of `a` (queries the last `a.rows` of its `a.cols` positions)
/// as a [`WeightRow`], cut after its last key with weight, so that a row
/// sums the same however many (hidden) keys after it its matrix has.
fn for_each_row(a: &Matrix, mut f: impl FnMut(WeightRow)) {
    let offset = a.cols.saturating_sub(a.rows);
    let key: Vec<f32> = (0..a.cols).map(|j| j as f32).collect();
    let mut terms = vec![0.0f32; a.cols];
    for i in 0..a.rows {
        let pos = i + offset;
        let full = a.row(i);
        let e = &full[..full.iter().rposition(|&p| p != 0.0).map_or(0, |k| k + 1)];
        // Per row, the terms go into `terms` and are added in lanes: every
        // step vectorizes.
        let terms = &mut terms[..e.len()];
        for (t, &p) in terms.iter_mut().zip(e) {
            *t = if p > 0.0 { p * tensor::log2(p) } else { 0.0 };
        }
        let entropy_bits = -tensor::sum(terms);
        for ((t, &p), &j) in terms.iter_mut().zip(e).zip(&key) {
            *t = p * (pos as f32 - j).abs();
        }
        let distance = tensor::sum(terms);
        f(WeightRow { pos, first_key: 0, e, l: 1.0, entropy_bits, distance });
    }
}

/// One head of a long text: the sums of its weights over blocks of
/// [`BLOCK`] × [`BLOCK`] tokens, and its [`RowSums`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadSummary {
    /// Σ A over each block of queries × keys; block (r, c) covers queries
    /// r·BLOCK.. and keys c·BLOCK.. (the last blocks may be partly outside the text).
    blocks: Matrix,
    /// Rows added so far.
    rows: usize,
    /// Keys of the widest row added so far.
    keys: usize,
    pub sums: RowSums,
}

impl HeadSummary {
    /// The summary of no rows yet.
    pub fn empty() -> HeadSummary {
        HeadSummary { blocks: Matrix::zeros(0, 0), rows: 0, keys: 0, sums: RowSums::default() }
    }

    /// The summary of a whole A.
    pub fn of(a: &Matrix) -> HeadSummary {
        let mut s = HeadSummary::empty();
        s.add(a);
        s
    }

    /// Adds the rows of `a`, whose queries are the last `a.rows` of its
    /// `a.cols` positions, as [`RowSums::add`].
    pub fn add(&mut self, a: &Matrix) {
        self.grow(a.rows, a.cols);
        for_each_row(a, |row| self.add_row(&row, a.cols));
    }

    /// Makes room for `rows` more rows over `keys` keys, the queries being
    /// the last `rows` of `keys` positions; then [`Self::add_row`] each.
    pub fn grow(&mut self, rows: usize, keys: usize) {
        let offset = keys.saturating_sub(rows);
        assert_eq!(offset, self.rows, "rows are added in order");
        let (block_rows, block_cols) = ((offset + rows).div_ceil(BLOCK), keys.div_ceil(BLOCK));
        if block_cols > self.blocks.cols {
            self.blocks.push_cols(&Matrix::zeros(self.blocks.rows, block_cols - self.blocks.cols));
        }
        if block_rows > self.blocks.rows {
            self.blocks.push_rows(&Matrix::zeros(
                block_rows - self.blocks.rows,
                self.blocks.cols.max(block_cols),
            ));
        }
        self.keys = self.keys.max(keys);
    }

    /// Adds the next row (query `self.rows`) over `keys` keys, after [`Self::grow`].
    #[inline(always)]
    pub fn add_row(&mut self, r: &WeightRow, keys: usize) {
        assert_eq!(r.pos, self.rows, "rows are added in order");
        let inv = if r.l > 0.0 { 1.0 / r.l } else { 0.0 };
        let cells = self.blocks.row_mut(r.pos / BLOCK);
        let (mut key, mut rest) = (r.first_key, r.e);
        while !rest.is_empty() {
            let take = (BLOCK - key % BLOCK).min(rest.len());
            cells[key / BLOCK] += tensor::sum(&rest[..take]) * inv;
            (key, rest) = (key + take, &rest[take..]);
        }
        self.rows += 1;
        self.sums.add_row(r, keys);
    }

    /// Takes away the last `a.rows` rows (the weights `a` of queries
    /// `n ..` over all the keys, `n` the rows that stay), as a text cut at
    /// `n` tokens would have them: under the causal mask no row before `n`
    /// weighs a key from `n` on. The sums then differ from sums made
    /// afresh by rounding alone.
    pub fn remove_last(&mut self, a: &Matrix) {
        assert!(a.rows <= self.rows && a.cols == self.keys, "the last rows, over every key");
        let n = self.rows - a.rows;
        for i in 0..a.rows {
            let cells = self.blocks.row_mut((n + i) / BLOCK);
            for (cell, keys) in cells.iter_mut().zip(a.row(i).chunks(BLOCK)) {
                *cell -= tensor::sum(keys);
            }
        }
        let mut gone = RowSums::default();
        gone.add(a);
        self.sums.take_away(&gone);
        (self.rows, self.keys) = (n, n);
        self.blocks.truncate_rows(n.div_ceil(BLOCK));
        self.blocks.truncate_cols(n.div_ceil(BLOCK));
    }

    /// The mean weight over at most `max × max` cells, each a group of
    /// whole blocks, for the overview.
    pub fn thumbnail(&self, max: usize) -> Matrix {
        let (br, bc) = (self.blocks.rows, self.blocks.cols);
        let (r, c) = (br.min(max), bc.min(max));
        // Cell row p spans block rows row_starts[p] .. row_starts[p + 1].
        let row_starts: Vec<usize> = (0..=r).map(|p| (p * br).div_ceil(r.max(1))).collect();
        let col_starts: Vec<usize> = (0..=c).map(|p| (p * bc).div_ceil(c.max(1))).collect();
        // Tokens in blocks first..end of a side of `n` tokens.
        let tokens =
            |first: usize, end: usize, n: usize| (end * BLOCK).min(n).saturating_sub(first * BLOCK);
        let mut out = Matrix::zeros(r, c);
        for (pr, rows) in row_starts.windows(2).enumerate() {
            for (pc, cols) in col_starts.windows(2).enumerate() {
                let sum: f32 = (rows[0]..rows[1])
                    .map(|i| self.blocks.row(i)[cols[0]..cols[1]].iter().sum::<f32>())
                    .sum();
                let count =
                    tokens(rows[0], rows[1], self.rows) * tokens(cols[0], cols[1], self.keys);
                out[(pr, pc)] = sum / count.max(1) as f32;
            }
        }
        out
    }

    pub fn is_finite(&self) -> bool {
        self.is_finite_from(0)
    }

    /// [`Self::is_finite`] for the sums rows `first ..` were added to (the
    /// blocks of their block rows, and the row sums).
    pub fn is_finite_from(&self, first: usize) -> bool {
        let from = (first / BLOCK * self.blocks.cols).min(self.blocks.data.len());
        tensor::all_finite(&self.blocks.data[from..]) && self.sums.is_finite()
    }

    /// Floats of [`Self::to_floats`] for the summary of an n × n A ([`Self::of`]).
    pub fn floats_for(n: usize) -> usize {
        HEADER + n.div_ceil(BLOCK).pow(2)
    }

    /// The summary as floats, for another thread (a helper that computed
    /// the head): the counts, the row sums, then the blocks row by row.
    /// Counts are exact in an f32 up to 2²⁴.
    pub fn to_floats(&self) -> Vec<f32> {
        let s = &self.sums;
        let counts =
            [self.rows, self.keys, self.blocks.rows, self.blocks.cols, s.rows, s.previous_rows]
                .map(|c| c as f32);
        let sums = [s.entropy_bits, s.distance, s.previous_token, s.first_token, s.self_token];
        counts.iter().chain(&sums).chain(&self.blocks.data).copied().collect()
    }

    /// [`Self::to_floats`] read back; None for floats that are not a
    /// summary (they come from another thread's memory and are checked).
    pub fn from_floats(f: &[f32]) -> Option<HeadSummary> {
        let count = |i: usize| {
            let c = *f.get(i)?;
            (c >= 0.0 && c.fract() == 0.0 && c < 16_777_216.0).then_some(c as usize)
        };
        let [rows, keys, block_rows, block_cols, sum_rows, previous_rows] =
            [0, 1, 2, 3, 4, 5].map(count);
        let (block_rows, block_cols) = (block_rows?, block_cols?);
        if f.len() != HEADER + block_rows.checked_mul(block_cols)? {
            return None;
        }
        let sums = RowSums {
            entropy_bits: f[6],
            distance: f[7],
            previous_token: f[8],
            first_token: f[9],
            self_token: f[10],
            rows: sum_rows?,
            previous_rows: previous_rows?,
        };
        let blocks = Matrix::from_vec(block_rows, block_cols, f[HEADER..].to_vec());
        Some(HeadSummary { blocks, rows: rows?, keys: keys?, sums })
    }
}

/// Floats before the blocks in [`HeadSummary::to_floats`]: six counts, five sums.
const HEADER: usize = 11;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_goes_through_floats_unchanged_and_other_floats_are_refused() {
        let a = crate::attention::softmax_rows(crate::testing::matrix(40, 40, 3));
        let s = HeadSummary::of(&a);
        let f = s.to_floats();
        assert_eq!(f.len(), HeadSummary::floats_for(40));
        assert_eq!(HeadSummary::from_floats(&f), Some(s));
        assert_eq!(HeadSummary::from_floats(&f[..f.len() - 1]), None);
        let mut bad = f.clone();
        bad[0] = -1.0;
        assert_eq!(HeadSummary::from_floats(&bad), None);
        bad[0] = 2.5;
        assert_eq!(HeadSummary::from_floats(&bad), None);
        assert_eq!(HeadSummary::from_floats(&[]), None);
    }
    use crate::attention::{attend, Attend, Mask, Scale};

    fn causal_weights(n: usize) -> Matrix {
        let (q, k) = (crate::testing::matrix(n, 8, 1), crate::testing::matrix(n, 8, 2));
        attend(&q, &k, &k, Attend::new(Mask::Causal, Scale::InvSqrtDk)).weights
    }

    #[test]
    fn rows_added_in_parts_sum_as_the_whole() {
        let a = causal_weights(70);
        let whole = HeadSummary::of(&a);
        let mut parts = HeadSummary::of(&a.rows_range(0, 40).cols_range(0, 40));
        parts.add(&a.rows_range(40, 1).cols_range(0, 41));
        parts.add(&a.rows_range(41, 29));
        assert_eq!(parts, whole);
    }

    #[test]
    fn rows_taken_away_leave_the_sums_of_the_rows_before() {
        let a = causal_weights(70);
        let mut cut = HeadSummary::of(&a);
        cut.remove_last(&a.rows_range(37, 33));
        let fresh = HeadSummary::of(&a.rows_range(0, 37).cols_range(0, 37));
        assert_eq!(
            (cut.rows, cut.keys, cut.blocks.shape()),
            (fresh.rows, fresh.keys, fresh.blocks.shape())
        );
        assert!(cut.thumbnail(48).max_abs_diff(&fresh.thumbnail(48)) < 1e-6);
        let (c, f) = (cut.sums.stats(0, 0), fresh.sums.stats(0, 0));
        assert!(
            (c.entropy_bits - f.entropy_bits).abs() < 1e-5
                && (c.mean_distance - f.mean_distance).abs() < 1e-5
        );
        assert!(
            (c.previous_token - f.previous_token).abs() < 1e-6
                && (c.first_token - f.first_token).abs() < 1e-6
        );
        // Rows added again after the cut sum as a whole text's.
        cut.add(&a.rows_range(37, 33));
        assert!(cut.thumbnail(48).max_abs_diff(&HeadSummary::of(&a).thumbnail(48)) < 1e-6);
    }

    #[test]
    fn a_non_finite_sum_is_found_from_the_block_row_of_its_rows() {
        let mut s = HeadSummary::of(&causal_weights(70));
        assert!(s.is_finite() && s.is_finite_from(69));
        let last = s.blocks.rows - 1;
        s.blocks.row_mut(last)[0] = f32::NAN;
        // Rows 64.. are summed in the last block row, which a check from any of them reads.
        assert!(!s.is_finite() && !s.is_finite_from(64) && !s.is_finite_from(69));
        s.blocks.row_mut(last)[0] = 0.0;
        s.blocks.row_mut(0)[0] = f32::INFINITY;
        assert!(!s.is_finite() && s.is_finite_from(16), "rows before 16 are not checked again");
    }

    #[test]
    fn the_thumbnail_averages_whole_blocks() {
        let n = 70; // 5 blocks a side, the last of 6 tokens
        let a = causal_weights(n);
        let t = HeadSummary::of(&a).thumbnail(48);
        assert_eq!(t.shape(), (5, 5));
        let mean = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
            let count = (rows.len() * cols.len()) as f32;
            rows.flat_map(|i| cols.clone().map(move |j| (i, j)))
                .map(|(i, j)| a[(i, j)])
                .sum::<f32>()
                / count
        };
        assert!((t[(4, 0)] - mean(64..70, 0..16)).abs() < 1e-6);
        assert!((t[(4, 4)] - mean(64..70, 64..70)).abs() < 1e-6);
        assert_eq!(t[(0, 1)], 0.0); // the future
                                    // Fewer cells than blocks: each cell averages a group of
                                    // blocks.
        let small = HeadSummary::of(&a).thumbnail(2);
        assert_eq!(small.shape(), (2, 2));
        assert!((small[(1, 0)] - mean(48..70, 0..48)).abs() < 1e-6);
        assert!((small[(0, 0)] - mean(0..48, 0..48)).abs() < 1e-6);
    }
}
