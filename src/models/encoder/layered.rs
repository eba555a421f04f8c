//! The encoder run layer by layer ([`Layered`]), for the analyses.

use super::{mean_pool_normalized, relative, Encoder};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::{Edit, Layered, Readout};
use crate::trace::{LayerTrace, ModelInfo, KEEP_WEIGHTS_UP_TO};

impl Layered for Encoder {
    /// As [`Encoder::info`], with the analyses' limit: they keep every
    /// head's weights of the runs they make, so they read at most
    /// [`KEEP_WEIGHTS_UP_TO`] tokens.
    fn info(&self) -> ModelInfo {
        let info = Encoder::info(self);
        ModelInfo { max_tokens: info.max_tokens.min(KEEP_WEIGHTS_UP_TO), ..info }
    }

    fn vocab_size(&self) -> usize {
        self.config.vocab_size
    }

    fn tokens(&self, text: &str) -> Result<(Vec<u32>, Vec<String>)> {
        let t = self.tokenize(text)?;
        Ok((t.ids, t.tokens))
    }

    fn token_text(&self, id: u32) -> String {
        self.tokenizer.token_text(id).unwrap_or_else(|| format!("<{id}>"))
    }

    fn special_ids(&self) -> Result<(Vec<u32>, Vec<u32>)> {
        // The empty text is [CLS] [SEP]: the first id goes before a text, the rest after.
        let ids = self.tokenize("")?.ids;
        let first = ids.len().min(1);
        Ok((ids[..first].to_vec(), ids[first..].to_vec()))
    }

    fn embed(&self, ids: &[u32]) -> Result<Matrix> {
        let max = Layered::info(self).max_tokens;
        if ids.len() > max {
            return Err(Error::Invalid(format!(
                "{} tokens: {} reads at most {max}",
                ids.len(),
                self.identity.name
            )));
        }
        self.embeddings.forward(ids, &vec![0; ids.len()])
    }

    fn layer(&self, l: usize, h: &Matrix, edit: Option<Edit>) -> Result<(LayerTrace, Matrix)> {
        let c = &self.config;
        let layer = self
            .layer
            .get(l)
            .ok_or_else(|| Error::Invalid(format!("layer {l}: the model has {}", c.n_layers)))?;
        let bias = self
            .relative_attention_bias
            .as_ref()
            .map(|table| relative::bias(table, h.rows, c.n_heads));
        Ok(layer.forward(
            h.clone(),
            c.n_heads,
            bias.as_deref(),
            c.activation,
            edit,
            &mut self.products(l),
        ))
    }

    fn output_weight(&self, l: usize) -> Result<Matrix> {
        let dense = &self
            .layer
            .get(l)
            .ok_or_else(|| {
                Error::Invalid(format!("layer {l}: the model has {}", self.config.n_layers))
            })?
            .attention
            .output
            .dense;
        let d = self.config.d_model;
        // The weights are kept packed for the product: I Wᵀ + b, less b, gives them back.
        let bias = dense.forward(&Matrix::zeros(1, d));
        let mut w_t = dense.forward(&Matrix::identity(d)); //   Wᵀ + b   (d_in × d_out)
        for i in 0..d {
            w_t.row_mut(i).iter_mut().zip(bias.row(0)).for_each(|(w, b)| *w -= b);
        }
        Ok(w_t.transpose())
    }

    fn readout(&self, h: &Matrix) -> Readout {
        Readout::Embedding(mean_pool_normalized(h))
    }
}
