//! The decoder run layer by layer ([`Layered`]), for the analyses: every
//! block on every row from position 0, no key/value cache.

use super::parts::Products;
use super::Decoder;
use crate::error::{Error, Result};
use crate::models::two_threads::Helper;
use crate::tensor::Matrix;
use crate::trace::layered::{Edit, Layered, Readout};
use crate::trace::{LayerTrace, ModelInfo, KEEP_WEIGHTS_UP_TO};

impl Decoder {
    /// The products from matrix number `first` (block l's first is l ×
    /// [`super::Net::matrices_per_block`], the output matrix's follows the last
    /// block's) on `rows` rows, shared with the helper thread where a run of
    /// that many tokens would be.
    fn products(&self, first: usize, rows: usize) -> Products<'_> {
        let helper = match &self.helper {
            Some((helper, from)) if rows >= *from => Some(helper.as_ref() as &dyn Helper),
            _ => None,
        };
        Products::new(helper, first)
    }

    fn check_layer(&self, l: usize) -> Result<()> {
        let n = self.net.shape().n_layers;
        if l < n {
            Ok(())
        } else {
            Err(Error::Invalid(format!("layer {l}: the model has {n}")))
        }
    }
}

impl Layered for Decoder {
    /// As [`Decoder::info`], with the analyses' limit: they keep every
    /// head's weights of the runs they make, so they read at most
    /// [`KEEP_WEIGHTS_UP_TO`] tokens.
    fn info(&self) -> ModelInfo {
        let info = Decoder::info(self);
        ModelInfo { max_tokens: info.max_tokens.min(KEEP_WEIGHTS_UP_TO), ..info }
    }

    fn vocab_size(&self) -> usize {
        self.net.shape().vocab_size
    }

    fn tokens(&self, text: &str) -> Result<(Vec<u32>, Vec<String>)> {
        let t = self.tokenize(text)?;
        Ok((t.ids, t.tokens))
    }

    fn token_text(&self, id: u32) -> String {
        Decoder::token_text(self, id).unwrap_or_else(|| format!("<{id}>"))
    }

    fn special_ids(&self) -> Result<(Vec<u32>, Vec<u32>)> {
        // What the tokenizer adds to the empty text (a start token, if the checkpoint has one) goes
        // first.
        Ok((self.tokenizer.encode("")?.ids, Vec::new()))
    }

    fn embed(&self, ids: &[u32]) -> Result<Matrix> {
        let (max, vocab) = (Layered::info(self).max_tokens, self.net.shape().vocab_size);
        if ids.is_empty() || ids.len() > max {
            return Err(Error::Invalid(format!(
                "{} tokens: {} reads 1 to {max}",
                ids.len(),
                self.identity.name
            )));
        }
        if let Some(&id) = ids.iter().find(|&&id| id as usize >= vocab) {
            return Err(Error::Invalid(format!(
                "token id {id} is outside the vocabulary of {vocab}"
            )));
        }
        self.net.embed(ids, 0)
    }

    fn layer(&self, l: usize, h: &Matrix, edit: Option<Edit>) -> Result<(LayerTrace, Matrix)> {
        self.check_layer(l)?;
        let mut mm = self.products(l * self.net.matrices_per_block(), h.rows);
        match edit {
            None => Ok(self.net.block(l, h, 0, None, false, &mut mm)),
            Some(edit) => Ok(self.net.block_edited(l, h, edit, &mut mm)),
        }
    }

    fn layer_runs(
        &self,
        l: usize,
        h: &Matrix,
        n: usize,
        edits: &[Edit],
        last_only: bool,
    ) -> Option<Result<Matrix>> {
        if let Err(e) = self.check_layer(l) {
            return Some(Err(e));
        }
        if n == 0 || !h.rows.is_multiple_of(n) {
            return Some(Err(Error::Invalid(format!("{} rows are not runs of {n}", h.rows))));
        }
        self.net
            .block_runs(
                l,
                h,
                n,
                edits,
                last_only,
                &mut self.products(l * self.net.matrices_per_block(), h.rows),
            )
            .map(Ok)
    }

    fn after_attention(&self, l: usize, residual: &Matrix) -> Option<Result<Matrix>> {
        if let Err(e) = self.check_layer(l) {
            return Some(Err(e));
        }
        // Only the feed-forward's products: numbered after the attention's.
        let first = l * self.net.matrices_per_block() + self.net.attention_matrices();
        self.net.after_attention(l, residual, &mut self.products(first, residual.rows)).map(Ok)
    }

    fn output_weight(&self, l: usize) -> Result<Matrix> {
        self.check_layer(l)?;
        let w = self.net.attention_output(l).ok_or_else(|| {
            Error::Invalid(format!("{}: W_O is not exposed for this family", self.identity.name))
        })?;
        Ok(w.dequantize())
    }

    fn readout(&self, h: &Matrix) -> Readout {
        let n_layers = self.net.shape().n_layers;
        let logits = self
            .net
            .logits(h, &mut self.products(n_layers * self.net.matrices_per_block(), h.rows));
        Readout::Logits(Matrix::from_vec(h.rows, logits.len() / h.rows.max(1), logits))
    }
}
