//! Measures of what a head does, computed from its weights A alone, for the
//! head catalog and the "find heads" query.

use crate::tensor::Matrix;
use crate::trace::summary::RowSums;
pub use crate::trace::HeadStats;
use crate::trace::ModelTrace;
use serde::{Deserialize, Serialize};

/// The measures for one A. Rows that see no key (all zeros) count as zero
/// entropy and zero distance.
pub fn head_stats(a: &Matrix, layer: usize, head: usize) -> HeadStats {
    let mut sums = RowSums::default();
    sums.add(a);
    sums.stats(layer, head)
}

/// Every head of every layer.
pub fn catalog(trace: &ModelTrace) -> Vec<HeadStats> {
    let mut out = Vec::new();
    for (l, layer) in trace.layers.iter().enumerate() {
        match &layer.summaries {
            Some(heads) => out.extend(heads.iter().enumerate().map(|(h, s)| s.sums.stats(l, h))),
            None => out.extend(
                layer
                    .attention
                    .heads
                    .iter()
                    .enumerate()
                    .map(|(h, head)| head_stats(&head.weights, l, h)),
            ),
        }
    }
    out
}

/// One head's answer to "how much does `query` attend to `key`?".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadMatch {
    pub layer: usize,
    pub head: usize,
    pub weight: f32,
}

/// Ranks all heads by the weight from token `query` to token `key` (indices
/// into the trace's tokens), strongest first.
pub fn find_heads(trace: &ModelTrace, query: usize, key: usize) -> Vec<HeadMatch> {
    let mut out: Vec<HeadMatch> = Vec::new();
    for (l, layer) in trace.layers.iter().enumerate() {
        for h in 0..layer.attention.heads.len() {
            if let Some(weight) = layer.attention.weight(h, query, key) {
                out.push(HeadMatch { layer: l, head: h, weight });
            }
        }
    }
    out.sort_by(|x, y| y.weight.total_cmp(&x.weight));
    out
}

/// Indices of tokens whose text matches `word` (case-insensitively, ignoring
/// the markers tokenizers add: "Ġ", "▁", "##" and surrounding spaces).
pub fn token_positions(tokens: &[String], word: &str) -> Vec<usize> {
    let clean = |t: &str| {
        t.trim_start_matches("##")
            .trim_start_matches('Ġ')
            .trim_start_matches('▁')
            .trim()
            .to_lowercase()
    };
    let want = clean(word);
    tokens.iter().enumerate().filter(|(_, t)| clean(t) == want).map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_hot_diagonal_and_previous_token_patterns() {
        let eye = Matrix::identity(4);
        let s = head_stats(&eye, 0, 0);
        assert_eq!(
            (s.entropy_bits, s.mean_distance, s.self_token, s.previous_token),
            (0.0, 0.0, 1.0, 0.0)
        );
        assert_eq!(s.first_token, 0.25);

        // Each row i > 0 puts all weight on i − 1; row 0 on itself.
        let prev = Matrix::from_rows(&[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        let s = head_stats(&prev, 0, 0);
        assert_eq!(s.previous_token, 1.0);
        assert!((s.mean_distance - 2.0 / 3.0).abs() < 1e-6);
        assert!((s.self_token - 1.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn uniform_rows_have_log2_n_bits() {
        let u = Matrix::from_vec(4, 4, vec![0.25; 16]);
        let s = head_stats(&u, 0, 0);
        assert!((s.entropy_bits - 2.0).abs() < 1e-6);
        assert!((s.mean_distance - 1.25).abs() < 1e-6); // mean over rows of (1.5, 1, 1, 1.5)
        assert!(head_stats(&Matrix::zeros(0, 0), 0, 0).entropy_bits == 0.0);
    }

    #[test]
    fn find_heads_ranks_the_teaching_describes_head_first() {
        let t = crate::models::teaching::TeachingModel::new()
            .run("a fluffy blue creature roamed the verdant forest")
            .unwrap();
        let q = token_positions(&t.tokens, "creature")[0];
        let k = token_positions(&t.tokens, "Fluffy")[0];
        let ranked = find_heads(&t, q, k);
        assert_eq!((ranked[0].layer, ranked[0].head), (0, 0));
        assert!(ranked.windows(2).all(|w| w[0].weight >= w[1].weight));
        assert_eq!(
            token_positions(
                &["[CLS]".into(), "fl".into(), "##uffy".into(), "Ġforest".into()],
                "forest"
            ),
            vec![3]
        );
    }

    /// A long text's summed head (crate::trace::HeadSummary) gives the
    /// catalog the measures of its whole A.
    #[test]
    fn a_summed_head_has_the_measures_of_its_weights() {
        use crate::attention::{attend, Attend, Mask, Scale};
        use crate::trace::HeadSummary;
        let (q, k) = (crate::testing::matrix(70, 8, 1), crate::testing::matrix(70, 8, 2));
        let a = attend(&q, &k, &k, Attend::new(Mask::Causal, Scale::InvSqrtDk)).weights;
        assert_eq!(HeadSummary::of(&a).sums.stats(2, 3), head_stats(&a, 2, 3));
    }
}
