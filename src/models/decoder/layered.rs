//! The decoder run layer by layer ([`Layered`]), for the analyses: every
//! block on every row from position 0, no key/value cache.

use super::parts::Products;
use super::Decoder;
use crate::error::{Error, Result};
use crate::models::layered::{Edit, Layered, Readout};
use crate::models::{LayerTrace, ModelInfo};
use crate::tensor::Matrix;

impl Decoder {
    fn products(&self, l: usize) -> Products<'static> {
        Products::new(None, l * self.net.matrices_per_block())
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
    fn info(&self) -> ModelInfo {
        Decoder::info(self)
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
        // What the tokenizer adds to the empty text (a start token, if the checkpoint has one) goes first.
        Ok((self.tokenizer.encode("")?.ids, Vec::new()))
    }

    fn embed(&self, ids: &[u32]) -> Result<Matrix> {
        let (max, vocab) = (self.identity.max_tokens, self.net.shape().vocab_size);
        if ids.is_empty() || ids.len() > max {
            return Err(Error::Invalid(format!("{} tokens: {} reads 1 to {max}", ids.len(), self.identity.name)));
        }
        if let Some(&id) = ids.iter().find(|&&id| id as usize >= vocab) {
            return Err(Error::Invalid(format!("token id {id} is outside the vocabulary of {vocab}")));
        }
        self.net.embed(ids, 0)
    }

    fn layer(&self, l: usize, h: &Matrix, edit: Option<Edit>) -> Result<(LayerTrace, Matrix)> {
        self.check_layer(l)?;
        let mut mm = self.products(l);
        match edit {
            None => Ok(self.net.block(l, h, 0, None, false, &mut mm)),
            Some(edit) => self.net.block_edited(l, h, edit, &mut mm).ok_or_else(|| {
                Error::Invalid(format!("{}: editing a head's output is not implemented for this family", self.identity.name))
            }),
        }
    }

    fn output_weight(&self, l: usize) -> Result<Matrix> {
        self.check_layer(l)?;
        let w = self
            .net
            .attention_output(l)
            .ok_or_else(|| Error::Invalid(format!("{}: W_O is not exposed for this family", self.identity.name)))?;
        Ok(w.dequantize())
    }

    fn readout(&self, h: &Matrix) -> Readout {
        let n_layers = self.net.shape().n_layers;
        let logits = self.net.logits(h, &mut self.products(n_layers));
        Readout::Logits(Matrix::from_vec(h.rows, logits.len() / h.rows.max(1), logits))
    }
}
