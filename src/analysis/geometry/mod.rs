//! Attention as geometry (AttentionViz, Yeh et al. 2023). S = Q Kᵀ is a table
//! of dot products, so a weight of A is large where a query and a key point
//! the same way:
//!
//! - [`qk_space`]: one head's queries and keys as points of one space, placed
//!   together on their two principal axes, with AttentionViz's key translation;
//! - [`similar_heads`]: how alike every two heads attend (the mean
//!   Jensen–Shannon distance of their rows of A), the heads on a 2-D map and
//!   in clusters.
//!
//! What is computed from a run is in `compute`, over the built-in corpus in
//! `corpus`, its eigendecompositions in `linalg`, t-SNE (for many points) in `tsne`.

mod compute;
pub mod corpus;
mod linalg;
pub mod tsne;

pub use compute::{qk_space, qk_space_of, similar_heads, value_space, SimilarJob};

use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One line, for the page and the CLI's help.
pub const QK_DEFINITION: &str = "a head's queries and keys (after RoPE where the model turns them, before the 1/√d_k scale) placed together on their two principal axes (PCA); key translation moves every key by c = mean(Q) − mean(K), which adds q_i·c to every score of row i and so leaves A unchanged; the values on their own two axes, where each output o_i = Σ_j a_ij v_j is the weighted mean of the values' points";
/// One line, for the page and the CLI's help.
pub const SIMILAR_DEFINITION: &str = "d(g, h) = mean over queries i of √JS(A_g[i,:], A_h[i,:]), the Jensen–Shannon divergence in bits (0 ≤ d ≤ 1); the heads placed by classical multidimensional scaling of d and grouped by average linkage";

/// [`similar_heads`] compares every two heads row by row (about H²n²/2 logarithms):
/// texts up to this many tokens.
pub const MAX_SIMILAR_TOKENS: usize = 128;

/// One head's queries and keys on their two principal axes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QkSpace {
    pub layer: usize,
    pub head: usize,
    /// The key/value head whose keys query head `head` reads.
    pub kv_head: usize,
    /// Each query's (x, y), by position.
    pub queries: Vec<[f32; 2]>,
    /// Each key's (x, y), by position, as placed (translated or not).
    pub keys: Vec<[f32; 2]>,
    /// The share of all the points' variance on each axis.
    pub explained: [f32; 2],
    /// Whether the keys were moved by mean(Q) − mean(K), and how far (its length).
    pub translated: bool,
    pub shift: f32,
    /// For each query, among the keys it may see: the one it weighs most, the
    /// one nearest in angle (all dimensions) and the one nearest in the plane.
    pub nearest: Vec<Nearest>,
    /// The head's values in a plane of their own (None where the run has no values).
    #[serde(default)]
    pub values: Option<ValueSpace>,
}

/// A head's values V (n_k × d_v) on their two principal axes, and each
/// query's output o_i = Σ_j a_ij v_j in the same plane. A row of A sums to 1,
/// so o_i lands on Σ_j a_ij (the point of v_j): the output is the weighted mean
/// of the values, in the picture as in every dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueSpace {
    /// Each value's (x, y), by position.
    pub values: Vec<[f32; 2]>,
    /// Each query's output's (x, y), by position.
    pub outputs: Vec<[f32; 2]>,
    /// The share of the values' variance on each axis.
    pub explained: [f32; 2],
}

/// Three keys of one query (positions): they agree where the picture tells
/// the truth. The weightiest has the largest q·k (A's row is a softmax of it);
/// the nearest in angle has the largest q·k / ‖k‖.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nearest {
    pub weightiest: usize,
    pub angle: usize,
    pub plane: usize,
}

/// Every key moved by c = mean(Q) − mean(K), so the two clouds share a centre:
/// q_i·(k_j + c) = q_i·k_j + q_i·c, the same amount added to a whole row of S,
/// which softmax does not see. Returns K + c and c.
pub fn translate_keys(q: &Matrix, k: &Matrix) -> (Matrix, Vec<f32>) {
    let mean = |m: &Matrix| -> Vec<f64> {
        let mut s = vec![0.0f64; m.cols];
        for i in 0..m.rows {
            s.iter_mut().zip(m.row(i)).for_each(|(a, &x)| *a += x as f64);
        }
        s.into_iter().map(|x| x / m.rows.max(1) as f64).collect()
    };
    let c: Vec<f32> = mean(q).iter().zip(mean(k)).map(|(a, b)| (a - b) as f32).collect();
    let mut moved = k.clone();
    moved.add_row_vector(&c); //                                                   K + c   (n_k × d_k)
    (moved, c)
}

/// How alike the heads of a run attend, and where that places them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarHeads {
    /// (layer, head) of each row and column below.
    pub heads: Vec<[usize; 2]>,
    /// d(g, h) for every two heads: symmetric, 0 on the diagonal.
    pub distance: Vec<Vec<f32>>,
    /// Each head's (x, y) on the map (classical multidimensional scaling of d).
    pub map: Vec<[f32; 2]>,
    /// Each head's cluster (average linkage), numbered in order of first head.
    pub clusters: Vec<usize>,
    /// The query rows compared per pair of heads.
    pub rows: usize,
}

/// −Σ p log₂ p of a row (0 log 0 = 0).
fn entropy_bits(row: impl Iterator<Item = f64>) -> f64 {
    -row.filter(|&p| p > 0.0).map(|p| p * p.log2()).sum::<f64>()
}

/// d(g, h) between every two heads (each head's A, n × n), one head's pairs
/// per [`HeadDistances::step`], so that a caller can stop or yield between
/// steps (the worker advances it a slice at a time). JS(P, Q) = H(M) − ½(H(P) +
/// H(Q)), M = ½(P + Q): one logarithm per weight.
pub struct HeadDistances<'a> {
    heads: Vec<Cow<'a, Matrix>>,
    /// H(A_h[i]) of every head and row, computed once.
    entropies: Vec<Vec<f64>>,
    d: Vec<Vec<f64>>,
    /// The head whose pairs with the later heads come next.
    next: usize,
}

impl<'a> HeadDistances<'a> {
    pub fn new(heads: Vec<Cow<'a, Matrix>>) -> Self {
        let entropies = heads
            .iter()
            .map(|a| {
                (0..a.rows).map(|i| entropy_bits(a.row(i).iter().map(|&p| p as f64))).collect()
            })
            .collect();
        let count = heads.len();
        Self { heads, entropies, d: vec![vec![0.0; count]; count], next: 0 }
    }

    /// The same, owning its heads (to outlive the run they came from).
    pub fn into_owned(self) -> HeadDistances<'static> {
        HeadDistances {
            heads: self.heads.into_iter().map(|h| Cow::Owned(h.into_owned())).collect(),
            entropies: self.entropies,
            d: self.d,
            next: self.next,
        }
    }

    /// Compares the next head with every later one.
    pub fn step(&mut self) {
        let g = self.next;
        let Some(a) = self.heads.get(g) else { return };
        for h in g + 1..self.heads.len() {
            let b = &self.heads[h];
            let sum: f64 = (0..a.rows)
                .map(|i| {
                    let mixed =
                        a.row(i).iter().zip(b.row(i)).map(|(&p, &q)| 0.5 * (p as f64 + q as f64));
                    let js =
                        entropy_bits(mixed) - 0.5 * (self.entropies[g][i] + self.entropies[h][i]);
                    js.max(0.0).sqrt()
                })
                .sum();
            self.d[g][h] = sum / a.rows.max(1) as f64;
            self.d[h][g] = self.d[g][h];
        }
        self.next += 1;
    }

    /// Pairs compared so far, of [`HeadDistances::total`].
    pub fn done(&self) -> usize {
        let (count, g) = (self.heads.len(), self.next.min(self.heads.len()));
        // Head k has count − 1 − k later heads.
        g * count - g * (g + 1) / 2
    }

    pub fn total(&self) -> usize {
        let count = self.heads.len();
        count * count.saturating_sub(1) / 2
    }

    pub fn is_finished(&self) -> bool {
        self.next >= self.heads.len()
    }

    /// Every distance (the steps left are taken first).
    pub fn finish(mut self) -> Vec<Vec<f64>> {
        while !self.is_finished() {
            self.step();
        }
        self.d
    }
}

/// Average-linkage clustering of `d` into `k` clusters (Lance–Williams
/// update: the distance of a merged cluster is the size-weighted mean of its
/// parts'). Each item's cluster, numbered in order of each cluster's first item.
pub fn average_linkage(d: &[Vec<f64>], k: usize) -> Vec<usize> {
    let n = d.len();
    let mut dist: Vec<Vec<f64>> = d.to_vec();
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut alive: Vec<bool> = vec![true; n];
    for _ in 0..n.saturating_sub(k.max(1)) {
        let mut best = (f64::INFINITY, 0, 0);
        for a in (0..n).filter(|&a| alive[a]) {
            for b in (a + 1..n).filter(|&b| alive[b]) {
                if dist[a][b] < best.0 {
                    best = (dist[a][b], a, b);
                }
            }
        }
        let (_, a, b) = best;
        let (sa, sb) = (members[a].len() as f64, members[b].len() as f64);
        for c in (0..n).filter(|&c| alive[c] && c != a && c != b) {
            dist[a][c] = (sa * dist[a][c] + sb * dist[b][c]) / (sa + sb);
            dist[c][a] = dist[a][c];
        }
        let moved = std::mem::take(&mut members[b]);
        members[a].extend(moved);
        alive[b] = false;
    }
    let mut groups: Vec<Vec<usize>> = members.into_iter().filter(|m| !m.is_empty()).collect();
    groups.iter_mut().for_each(|m| m.sort_unstable());
    groups.sort_by_key(|m| m[0]);
    let mut label = vec![0; n];
    for (c, m) in groups.iter().enumerate() {
        m.iter().for_each(|&i| label[i] = c);
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translated_keys_share_the_queries_mean() {
        let q = Matrix::from_rows(&[[1.0, 2.0], [3.0, 4.0]]);
        let k = Matrix::from_rows(&[[0.0, 0.0], [2.0, -2.0], [1.0, 5.0]]);
        let (moved, c) = translate_keys(&q, &k);
        assert_eq!(c, vec![1.0, 2.0]); // (2, 3) − (1, 1)
        assert_eq!(moved.row(1), &[3.0, 0.0]);
    }

    #[test]
    fn a_head_is_at_distance_zero_from_itself_and_one_from_a_disjoint_head() {
        let first = Matrix::from_rows(&[[1.0, 0.0], [1.0, 0.0]]);
        let last = Matrix::from_rows(&[[0.0, 1.0], [0.0, 1.0]]);
        let heads = [&first, &first, &last].map(Cow::Borrowed).to_vec();
        let mut job = HeadDistances::new(heads);
        assert_eq!((job.done(), job.total()), (0, 3));
        job.step();
        assert_eq!(job.done(), 2);
        let d = job.finish();
        assert_eq!(d[0][1], 0.0);
        assert!((d[0][2] - 1.0).abs() < 1e-12, "{}", d[0][2]);
        assert_eq!(d[2][0], d[0][2]);
    }

    #[test]
    fn average_linkage_keeps_near_points_together() {
        let at = [0.0, 0.1, 5.0, 5.2, 9.0];
        let d: Vec<Vec<f64>> =
            at.iter().map(|a| at.iter().map(|b| f64::abs(a - b)).collect()).collect();
        assert_eq!(average_linkage(&d, 3), vec![0, 0, 1, 1, 2]);
        assert_eq!(average_linkage(&d, 1), vec![0; 5]);
        assert_eq!(average_linkage(&d, 9), vec![0, 1, 2, 3, 4]);
    }
}
