//! Attention rollout (Abnar & Zuidema 2020): how much each token's input
//! reaches each position after layers 1 … l, counting the residual path.

use crate::tensor::Matrix;
use crate::trace::ModelTrace;
use serde::{Deserialize, Serialize};

/// One line, for the page and the CLI's help.
pub const DEFINITION: &str = "attention rollout (Abnar & Zuidema 2020): Ā_l = ½·mean_h A_l + ½·I, rows renormalized; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (query heads averaged, grouped-query models included)";

/// `layers[l]`: R after layers 1 … l+1, queries × tokens; every row sums to 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rollout {
    pub layers: Vec<Vec<Vec<f32>>>,
}

/// Ā of one layer: the mean over (query) heads of A, half of it, plus half the identity, rows
/// renormalized.
fn mixed(weights: &[&Matrix], n: usize) -> Matrix {
    let mut bar = Matrix::zeros(n, n);
    let share = 0.5 / weights.len().max(1) as f32;
    for a in weights {
        bar.data.iter_mut().zip(&a.data).for_each(|(b, w)| *b += share * w); // ½ mean_h A
    }
    for i in 0..n {
        bar[(i, i)] += 0.5; //                                                  + ½ I
        let row = bar.row_mut(i);
        let sum: f32 = row.iter().sum();
        row.iter_mut().for_each(|x| *x /= sum); //                               rows renormalized
    }
    bar
}

/// Rollout one layer further: R_l from R_(l−1) (None before the first layer)
/// and layer l's head weights, each n × n.
pub fn roll(r: Option<&Matrix>, weights: &[&Matrix], n: usize) -> Matrix {
    let bar = mixed(weights, n);
    match r {
        None => bar,                    // R_1 = Ā_1
        Some(prev) => bar.matmul(prev), // R_l = Ā_l R_(l−1)   (n × n)
    }
}

/// Rollout after every layer of `trace`.
pub fn rollout(trace: &ModelTrace) -> Rollout {
    let n = trace.tokens.len();
    let mut r: Option<Matrix> = None;
    let mut layers = Vec::with_capacity(trace.layers.len());
    for layer in &trace.layers {
        let weights: Vec<&Matrix> = layer
            .attention
            .heads
            .iter()
            .map(|h| &h.weights)
            .filter(|w| w.shape() == (n, n))
            .collect();
        let next = roll(r.as_ref(), &weights, n);
        layers.push(next.to_rows());
        r = Some(next);
    }
    Rollout { layers }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sum_to_one_and_identity_heads_give_identity() {
        let t = crate::models::teaching::TeachingModel::new()
            .run("a fluffy blue creature roamed the verdant forest")
            .unwrap();
        let r = rollout(&t);
        assert_eq!(r.layers.len(), t.layers.len());
        for layer in &r.layers {
            for row in layer {
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            }
        }
        let eye = Matrix::identity(3);
        assert_eq!(mixed(&[&eye, &eye], 3), eye);
        let uniform = Matrix::from_vec(2, 2, vec![0.5; 4]);
        assert_eq!(mixed(&[&uniform], 2).to_rows(), vec![vec![0.75, 0.25], vec![0.25, 0.75]]);
    }
}
