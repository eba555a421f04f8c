//! What attnscope computes from a run beyond the weights themselves.
//!
//! - [`measures`]: a head's measures from its A alone (entropy, distance,
//!   previous / first / own token) for the head catalog, and "find heads";
//! - [`value_norms`]: value-weighted attention, ‖a_ij f(x_j)‖ (Kobayashi et al. 2020);
//! - [`rollout`]: attention rollout through the layers (Abnar & Zuidema 2020);
//! - [`logit_lens`]: each layer's residual stream read through the output (decoders);
//! - [`knockout`]: heads removed and the model run again, and the importance map;
//! - [`detectors`]: induction, duplicate-, previous- and first-token heads on a prompt
//!   of random tokens repeated twice (Olsson et al. 2022).
//!
//! Each is a plain function over a [`ModelTrace`](crate::models::ModelTrace)
//! and, where it must run the model again, a [`Layered`](crate::models::layered::Layered)
//! model; results are serde-serializable for the CLI's JSON and the worker.

pub mod detectors;
mod forward;
pub mod knockout;
pub mod logit_lens;
pub mod measures;
pub mod rollout;
pub mod value_norms;

pub use forward::{forward, Forward};
pub use measures::{catalog, find_heads, head_stats, token_positions, HeadMatch, HeadStats};

use serde::{Deserialize, Serialize};

/// A token and its probability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenProb {
    pub id: u32,
    pub token: String,
    pub p: f32,
}

/// The `k` most likely tokens of softmax(logits), with their probabilities.
pub fn top_tokens(model: &dyn crate::models::layered::Layered, logits: &[f32], k: usize) -> Vec<TokenProb> {
    let log_z = log_sum_exp(logits);
    largest(logits, k)
        .into_iter()
        .map(|id| TokenProb { id, token: model.token_text(id), p: ((logits[id as usize] as f64) - log_z).exp() as f32 })
        .collect()
}

/// The indices of the `k` largest logits, largest first, ties to the lower
/// index. One pass keeping the best few in order: `k` is a handful and the
/// vocabulary tens of thousands, so almost every logit costs one compare.
fn largest(logits: &[f32], k: usize) -> Vec<u32> {
    let k = k.min(logits.len());
    let before = |a: u32, b: u32| logits[a as usize].total_cmp(&logits[b as usize]).reverse().then(a.cmp(&b));
    if k > 64 {
        let mut order: Vec<u32> = (0..logits.len() as u32).collect();
        order.sort_by(|&a, &b| before(a, b));
        order.truncate(k);
        return order;
    }
    let mut best: Vec<u32> = Vec::with_capacity(k + 1);
    for (id, z) in logits.iter().enumerate() {
        // Indices come in increasing order, so a tie never displaces an earlier one.
        if best.len() == k && (k == 0 || z.total_cmp(&logits[best[k - 1] as usize]).is_le()) {
            continue;
        }
        let at = best.partition_point(|&b| before(b, id as u32).is_lt());
        best.insert(at, id as u32);
        best.truncate(k);
    }
    best
}

/// log Σ exp(z): the exponentials in f32 (vectorised; within 2 ulp), their
/// sum in f64 a few thousand at a time, so 49,152 logits lose no digit that
/// a probability shows.
pub fn log_sum_exp(logits: &[f32]) -> f64 {
    use crate::tensor::math::{loop_constants, max, sum, EXP};
    let top = max(logits);
    if top == f32::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    let e = loop_constants(EXP);
    let mut buf = [0.0f32; 2048];
    let total: f64 = logits
        .chunks(buf.len())
        .map(|chunk| {
            let out = &mut buf[..chunk.len()];
            for (o, &z) in out.iter_mut().zip(chunk) {
                *o = e.exp(z - top);
            }
            sum(out) as f64
        })
        .sum();
    top as f64 + total.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_orders_by_logit_then_index() {
        let z = [0.5, 2.0, -1.0, 2.0, 7.0, f32::NEG_INFINITY, 0.5];
        assert_eq!(largest(&z, 3), vec![4, 1, 3]);
        assert_eq!(largest(&z, 5), vec![4, 1, 3, 0, 6]);
        assert_eq!(largest(&z, 0), Vec::<u32>::new());
        assert_eq!(largest(&z, 99), vec![4, 1, 3, 0, 6, 2, 5]);
        // Rising logits insert at the front every time.
        let rising: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        assert_eq!(largest(&rising, 4), vec![999, 998, 997, 996]);
        let many: Vec<f32> = (0..300).map(|i| ((i * 37) % 101) as f32).collect();
        let mut sorted: Vec<u32> = (0..300).collect();
        sorted.sort_by(|&a, &b| many[b as usize].total_cmp(&many[a as usize]).then(a.cmp(&b)));
        assert_eq!(largest(&many, 70), sorted[..70]);
        assert_eq!(largest(&many, 20), sorted[..20]);
    }

    #[test]
    fn log_sum_exp_matches_f64_over_a_vocabulary() {
        // 49,152 logits spread like a model's, some far below the largest.
        let z: Vec<f32> = (0..49_152u32).map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0) * 40.0 - 25.0).collect();
        let top = z.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        let exact = top + z.iter().map(|&x| (x as f64 - top).exp()).sum::<f64>().ln();
        assert!((log_sum_exp(&z) - exact).abs() < 1e-6, "{} vs {exact}", log_sum_exp(&z));
        assert_eq!(log_sum_exp(&[f32::NEG_INFINITY; 3]), f64::NEG_INFINITY);
        assert!((log_sum_exp(&[0.0, f32::NEG_INFINITY]) - 0.0).abs() < 1e-12);
    }
}
