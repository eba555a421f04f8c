//! The encoder: `enc-depth` post-norm transformer layers over the source.
//!
//! ```text
//!   per layer l (`encoder_l{l}_*`, l from 1):
//!     Q, K, V = x Wq + bq, x Wk + bk, x Wv + bv          (`_self_Wq` …)
//!     Z       = multi_head(Q, K, V)                       every token sees every token
//!     h       = LayerNorm(x + Z Wo + bo)                  (`_self_Wo_ln_*`)
//!     x_next  = LayerNorm(h + ReLU(h W1 + b1) W2 + b2)    (`_ffn_*`, `_ffn_ffn_ln_*`)
//! ```

use super::config::Config;
use super::layers::{Attention, Ffn};
use crate::error::Result;
use crate::formats::marian::ModelFile;
use crate::tensor::Matrix;
use crate::trace::LayerTrace;

/// `encoder_l{l}_*`.
#[derive(Clone, Debug)]
pub struct EncoderLayer {
    /// `encoder_l{l}_self_*`.
    pub self_attention: Attention,
    /// `encoder_l{l}_ffn_*`.
    pub ffn: Ffn,
}

impl EncoderLayer {
    /// Layer `l`, counted from 1 as the file names them.
    pub fn load(f: &ModelFile, c: &Config, l: usize) -> Result<EncoderLayer> {
        let prefix = format!("encoder_l{l}");
        Ok(EncoderLayer {
            self_attention: Attention::load(f, &format!("{prefix}_self"), c.dim_emb, c.heads)?,
            ffn: Ffn::load(f, &prefix, c.dim_emb, c.dim_ffn)?,
        })
    }

    /// The layer's self-attention trace and its output.
    pub fn forward(&self, x: Matrix) -> (LayerTrace, Matrix) {
        let (k, v) = self.self_attention.keys_values(&x);
        let (trace, h) = self.self_attention.forward(x, k, v);
        (trace, self.ffn.forward(&h))
    }
}
