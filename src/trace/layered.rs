//! A model run one layer at a time, for the analyses in `crate::analysis`
//! that edit heads' outputs before W_O (knockout) or read the residual
//! stream between layers (logit lens): the encoder and the decoder each
//! implement it, in `encoder/layered.rs` and `decoder/layered.rs`.

use crate::error::Result;
use crate::tensor::Matrix;
use crate::trace::{LayerTrace, ModelInfo};

/// Changes a layer's [Z_1 | … | Z_H] (n × H·d_head) before W_O.
pub type Edit<'a> = &'a dyn Fn(&mut Matrix);

/// What a model reads out of its last layer.
#[derive(Clone, Debug, PartialEq)]
pub enum Readout {
    /// Encoders: the pooled, L2-normalised sentence embedding.
    Embedding(Vec<f32>),
    /// Decoders: the logits of every row given (rows × vocabulary).
    Logits(Matrix),
}

/// A model whose layers can be run one by one on a residual stream.
pub trait Layered {
    fn info(&self) -> ModelInfo;

    fn vocab_size(&self) -> usize;

    /// The token ids of `text` and how each is shown, cut to the model's limit.
    fn tokens(&self, text: &str) -> Result<(Vec<u32>, Vec<String>)>;

    /// How token `id` is shown.
    fn token_text(&self, id: u32) -> String;

    /// The ids the tokenizer puts before and after any text (`[CLS]`, `[SEP]`).
    fn special_ids(&self) -> Result<(Vec<u32>, Vec<u32>)>;

    /// The residual stream entering the first layer (n × d_model).
    fn embed(&self, ids: &[u32]) -> Result<Matrix>;

    /// Layer `l` on every row of `h` (positions from 0), with `edit` applied to
    /// the heads' outputs before W_O; returns its trace and its output.
    fn layer(&self, l: usize, h: &Matrix, edit: Option<Edit>) -> Result<(LayerTrace, Matrix)>;

    /// Layer `l` on runs of `n` rows of `h`, each run a text of its own from
    /// position 0: with `edits`, `h` is one run and the output has a run per
    /// edit, that edit applied before W_O; with `last_only`, each run's last
    /// row alone. Batching the runs reads each weight once for all of them;
    /// None where the model has no such layer (the caller goes a run at a time).
    fn layer_runs(
        &self,
        _l: usize,
        _h: &Matrix,
        _n: usize,
        _edits: &[Edit],
        _last_only: bool,
    ) -> Option<Result<Matrix>> {
        None
    }

    /// Layer `l`'s output from rows of its trace's `residual` (E + ΔE): the
    /// rest of the layer after the attention. None where the model has no such hook.
    fn after_attention(&self, _l: usize, _residual: &Matrix) -> Option<Result<Matrix>> {
        None
    }

    /// W_O of layer `l` as PyTorch stores it (d_model × H·d_head), its bias left out.
    fn output_weight(&self, l: usize) -> Result<Matrix>;

    /// What the model computes from the last layer's rows `h`.
    fn readout(&self, h: &Matrix) -> Readout;
}
