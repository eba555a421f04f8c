//! How much memory a model and its traces take, and so a decoder's longest
//! text: the weights and two traces (the one shown and the one being
//! extended) within [`MEMORY_BUDGET`].

use crate::models::decoder;
use crate::trace::{BLOCK, KEEP_WEIGHTS_UP_TO, MEMORY_BUDGET};

/// A decoder too large for its memory at longer texts takes this many
/// tokens; one that does not fit even then is refused.
pub(super) const SHORTEST_LIMIT: usize = 128;

/// The weights and two traces: the one shown and the one being extended.
pub(super) fn memory_needed(weight_bytes: u64, trace_bytes: u64) -> u64 {
    weight_bytes.saturating_add(trace_bytes.saturating_mul(2))
}

/// A decoder's longest text: its context (if it states one), at most
/// [`decoder::MAX_TOKENS`], halved while [`memory_needed`] exceeds
/// [`MEMORY_BUDGET`], down to [`SHORTEST_LIMIT`].
pub(super) fn longest_that_fits(
    context: Option<usize>,
    weight_bytes: u64,
    dims: TraceDims,
) -> usize {
    let mut n = context.unwrap_or(decoder::MAX_TOKENS).min(decoder::MAX_TOKENS);
    while n > SHORTEST_LIMIT && memory_needed(weight_bytes, dims.trace_bytes(n)) > MEMORY_BUDGET {
        n = (n / 2).max(SHORTEST_LIMIT);
    }
    n
}

/// The sizes of a model that a trace grows with.
#[derive(Clone, Copy, Debug)]
pub(super) struct TraceDims {
    pub(super) n_layers: usize,
    pub(super) n_heads: usize,
    pub(super) n_kv_heads: usize,
    pub(super) d_model: usize,
    pub(super) d_head: usize,
    /// A decoder's long trace keeps h and ΔE; an encoder's E, ΔE and E + ΔE.
    pub(super) decoder: bool,
}

impl TraceDims {
    /// Bytes of one trace of `n` tokens at most: up to [`KEEP_WEIGHTS_UP_TO`]
    /// tokens every head's S, A and Z; past it Q, K, V and each head's sums,
    /// whichever length of the two takes more.
    pub(super) fn trace_bytes(self, n: usize) -> u64 {
        let (d, q, kv, heads) = (
            self.d_model as u64,
            (self.n_heads * self.d_head) as u64,
            (self.n_kv_heads * self.d_head) as u64,
            self.n_heads as u64,
        );
        let rows = |n: u64| n * (4 * d + q + 2 * kv);
        // Per layer: E, ΔE, E + ΔE, the heads' outputs side by side; Q, K, V; per head S, A and Z.
        let kept = |n: u64| rows(n) + heads * (2 * n * n + n * self.d_head as u64);
        // Per layer: h and ΔE (an encoder E, ΔE and E + ΔE); Q, K, V; per head its block sums.
        let streams = if self.decoder { 2 } else { 3 };
        let summed =
            |n: u64| n * (streams * d + q + 2 * kv) + heads * (n.div_ceil(BLOCK as u64)).pow(2);
        let n = n as u64;
        let per_layer = match n <= KEEP_WEIGHTS_UP_TO as u64 {
            true => kept(n),
            false => kept(KEEP_WEIGHTS_UP_TO as u64).max(summed(n)),
        };
        4 * per_layer * self.n_layers as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Qwen2.5 0.5B's sizes: 24 layers, 14 heads over 2 key/value heads of 64.
    const QWEN: TraceDims = TraceDims {
        n_layers: 24,
        n_heads: 14,
        n_kv_heads: 2,
        d_model: 896,
        d_head: 64,
        decoder: true,
    };

    #[test]
    fn a_trace_past_the_kept_length_grows_with_n_not_n_squared() {
        // 256 tokens keep every head's S, A and Z and the rows: 24 layers ×
        // (256 × (4 × 896 + 896 + 2 × 128) + 14 × (2 × 256² + 256 × 64)) floats.
        assert_eq!(QWEN.trace_bytes(256), 4 * 24 * (256 * 4736 + 14 * (2 * 65536 + 256 * 64)));
        // Past it the rows (h, ΔE, Q, K, V) and 16 × 16 block sums, never less than at 256.
        assert_eq!(QWEN.trace_bytes(300), QWEN.trace_bytes(256));
        assert_eq!(
            QWEN.trace_bytes(2048),
            4 * 24 * (2048 * (2 * 896 + 896 + 2 * 128) + 14 * 128 * 128)
        );
        assert!(QWEN.trace_bytes(2048) < 2 * QWEN.trace_bytes(1024) + 1);
    }

    #[test]
    fn a_decoder_takes_its_context_up_to_2048_tokens_shortened_to_fit_the_memory() {
        // The real Q4_K_M file's 485 MB of weights: 2,048 tokens.
        assert_eq!(longest_that_fits(Some(32768), 485_000_000, QWEN), 2048);
        assert_eq!(longest_that_fits(None, 485_000_000, QWEN), 2048);
        assert_eq!(longest_that_fits(Some(1000), 485_000_000, QWEN), 1000);
        assert_eq!(longest_that_fits(Some(64), 485_000_000, QWEN), 64);
        // Larger weights leave room for shorter texts, down to 128 tokens.
        assert_eq!(longest_that_fits(Some(32768), 1_000_000_000, QWEN), 1024);
        assert_eq!(longest_that_fits(Some(32768), 1_600_000_000, QWEN), 128);
        // What does not fit even then is left at 128, for the preflight to refuse.
        assert_eq!(longest_that_fits(Some(32768), 2_100_000_000, QWEN), 128);
        assert!(memory_needed(2_100_000_000, QWEN.trace_bytes(128)) > MEMORY_BUDGET);
    }
}
