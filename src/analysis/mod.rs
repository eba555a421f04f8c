//! What attnscope computes from a run beyond the weights themselves.
//!
//! - [`measures`]: a head's measures from its A alone (entropy, distance,
//!   previous / first / own token) for the head catalog, and "find heads";
//! - [`value_norms`]: value-weighted attention, ‖a_ij f(x_j)‖ (Kobayashi et al. 2020);
//! - [`rollout`]: attention rollout through the layers (Abnar & Zuidema 2020);
//! - [`logit_lens`]: each layer's residual stream read through the output (decoders);
//! - [`knockout`]: heads removed and the model run again, and the importance map;
//! - [`patching`]: activation patching, a clean run's activation copied into a corrupted run;
//! - [`geometry`]: queries and keys as points of one space, and heads that resemble each other;
//! - [`detectors`]: induction, duplicate-, previous- and first-token heads on a prompt
//!   of random tokens repeated twice (Olsson et al. 2022).
//!
//! Each is a plain function over a [`ModelTrace`](crate::trace::ModelTrace)
//! and, where it must run the model again, a [`Layered`](crate::trace::layered::Layered)
//! model; results are serde-serializable for the CLI's JSON and the worker.

pub mod detectors;
mod forward;
pub mod geometry;
pub mod knockout;
pub mod logit_lens;
pub mod measures;
pub mod patching;
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

/// The `k` most likely tokens of softmax(logits) ([`crate::tensor::top_k`]),
/// with their probabilities from a log-sum-exp all in f64 (the decoder's
/// `top_k` sums f32 terms: the same to about 1e-7, not bit for bit).
pub fn top_tokens(
    model: &dyn crate::trace::layered::Layered,
    logits: &[f32],
    k: usize,
) -> Vec<TokenProb> {
    let log_z = log_sum_exp(logits);
    crate::tensor::top_k(logits, k)
        .into_iter()
        .map(|id| TokenProb {
            id,
            token: model.token_text(id),
            p: ((logits[id as usize] as f64) - log_z).exp() as f32,
        })
        .collect()
}

/// log Σ exp(z), in f64.
pub fn log_sum_exp(logits: &[f32]) -> f64 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    max + logits.iter().map(|&z| (z as f64 - max).exp()).sum::<f64>().ln()
}
