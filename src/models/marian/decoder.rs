//! The decoder: `dec-depth` layers, run one target token at a time.
//!
//! There is no decoder self-attention. In its place each layer has a
//! simplified simple recurrent unit (SSRU, Kim et al. 2019, "From Research to
//! Production and Back"): a running cell state c that each new token updates
//! through a forget gate, so a step costs the same however long the output
//! already is, and nothing about earlier target tokens has to be kept but c.
//! Cross-attention then lets the token look at the source.
//!
//! ```text
//!   per layer l (`decoder_l{l}_*`), for the token at step t:
//!     f_t = σ(x Wf + bf)                        forget gate          (`_rnn_Wf`, `_rnn_bf`)
//!     c_t = f_t ⊙ c_{t−1} + (1 − f_t) ⊙ (x W)   cell state, c_{−1}=0 (`_rnn_W`)
//!     h   = LayerNorm(x + ReLU(c_t))                                  (`_rnn_ffn_ln_*`)
//!     a   = LayerNorm(h + multi_head(h Wq + bq, K, V) Wo + bo)        (`_context_*`)
//!           K = E Wk + bk, V = E Wv + bv from the encoder's output E, once per sentence
//!     x   = LayerNorm(a + ReLU(a W1 + b1) W2 + b2)                    (`_ffn_*`)
//! ```

use super::config::Config;
use super::layers::{Affine, Attention, Ffn, LayerNorm};
use crate::error::Result;
use crate::formats::marian::ModelFile;
use crate::tensor::{self, Matrix};
use crate::trace::LayerTrace;
use serde::{Deserialize, Serialize};

/// `decoder_l{l}_rnn_*`: the SSRU.
#[derive(Clone, Debug)]
pub struct Rnn {
    /// `_rnn_W` (no bias): the candidate x W.
    pub w: Affine,
    /// `_rnn_Wf`, `_rnn_bf`: the forget gate's pre-activation.
    pub wf: Affine,
    /// `_rnn_ffn_ln_*`: the post-norm after the residual.
    pub ffn_ln: LayerNorm,
}

/// What the SSRU computed for one token in one layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RnnTrace {
    /// f_t: how much of the previous cell state each dimension keeps.
    pub forget: Vec<f32>,
    /// c_t, the new cell state.
    pub cell: Vec<f32>,
}

impl Rnn {
    pub fn load(f: &ModelFile, prefix: &str, d: usize) -> Result<Rnn> {
        Ok(Rnn {
            w: Affine::load(f, &format!("{prefix}_rnn_W"), None, d, d)?,
            wf: Affine::load(
                f,
                &format!("{prefix}_rnn_Wf"),
                Some(&format!("{prefix}_rnn_bf")),
                d,
                d,
            )?,
            ffn_ln: LayerNorm::load(f, &format!("{prefix}_rnn_ffn"), d)?,
        })
    }

    /// One token `x` (1 × d): updates the cell state `c` in place and returns
    /// the trace and LayerNorm(x + ReLU(c_t)).
    pub fn step(&self, x: &Matrix, c: &mut [f32]) -> (RnnTrace, Matrix) {
        let e = tensor::loop_constants(tensor::EXP);
        let mut forget = self.wf.forward(x).data; //                          x Wf + bf
        forget.iter_mut().for_each(|v| *v = 1.0 / (1.0 + e.exp(-*v))); //     f = σ(·)
        let candidate = self.w.forward(x).data; //                            x W
        for ((c, f), xw) in c.iter_mut().zip(&forget).zip(&candidate) {
            *c = f * *c + (1.0 - f) * xw; //                                    c_t = f ⊙ c_{t−1} + (1 − f) ⊙ x W
        }
        let mut h = x.clone();
        h.data.iter_mut().zip(c.iter()).for_each(|(h, c)| *h += c.max(0.0)); // x + ReLU(c_t)
        self.ffn_ln.forward_in_place(&mut h);
        (RnnTrace { forget, cell: c.to_vec() }, h)
    }
}

/// `decoder_l{l}_*`.
#[derive(Clone, Debug)]
pub struct DecoderLayer {
    /// `decoder_l{l}_rnn_*`.
    pub rnn: Rnn,
    /// `decoder_l{l}_context_*`: cross-attention over the encoder's output.
    pub context: Attention,
    /// `decoder_l{l}_ffn_*`.
    pub ffn: Ffn,
}

/// What one decoder layer computed for one token.
pub struct LayerStep {
    pub rnn: RnnTrace,
    /// The cross-attention: one query (this token) over the source.
    pub context: LayerTrace,
    pub output: Matrix,
}

impl DecoderLayer {
    /// Layer `l`, counted from 1 as the file names them.
    pub fn load(f: &ModelFile, c: &Config, l: usize) -> Result<DecoderLayer> {
        let prefix = format!("decoder_l{l}");
        Ok(DecoderLayer {
            rnn: Rnn::load(f, &prefix, c.dim_emb)?,
            context: Attention::load(f, &format!("{prefix}_context"), c.dim_emb, c.heads)?,
            ffn: Ffn::load(f, &prefix, c.dim_emb, c.dim_ffn)?,
        })
    }

    /// One token `x` (1 × d) through the layer, against the source's keys
    /// and values `k`, `v` (split into heads) and with the cell state `c`.
    pub fn step(&self, x: &Matrix, c: &mut [f32], k: &[Matrix], v: &[Matrix]) -> LayerStep {
        let (rnn, h) = self.rnn.step(x, c);
        let (context, a) = self.context.forward(h, k.to_vec(), v.to_vec());
        LayerStep { rnn, context, output: self.ffn.forward(&a) }
    }
}
