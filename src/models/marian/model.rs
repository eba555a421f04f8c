//! The whole network as the file holds it: one embedding matrix `Wemb`
//! shared by the source, the target and the output layer
//! (`tied-embeddings-all`), the encoder, the decoder and the output bias.
//!
//! ```text
//!   embed(token at position p) = 16 · Wemb[token] + positions(p)      (√dim-emb = 16)
//!   the decoder's first input is the zero vector (there is no <s> token)
//!   logits = x Wembᵀ + decoder_ff_logit_out_b
//! ```

use super::config::Config;
use super::decoder::DecoderLayer;
use super::encoder::EncoderLayer;
use super::layers::positions;
use crate::error::{Error, Result};
use crate::formats::marian::ModelFile;
use crate::kernels::int8::Int8Matrix;
use crate::tensor::Matrix;
use crate::trace::LayerTrace;

/// A Bergamot tiny transformer, loaded from Marian's binary format.
#[derive(Clone, Debug)]
pub struct Transformer {
    pub config: Config,
    /// `Wemb`: vocabulary × dim-emb, one row per token.
    pub wemb: Int8Matrix,
    /// `encoder_l1` …
    pub encoder: Vec<EncoderLayer>,
    /// `decoder_l1` …
    pub decoder: Vec<DecoderLayer>,
    /// `decoder_ff_logit_out_b`.
    pub decoder_ff_logit_out_b: Vec<f32>,
    /// `none_QuantMultA`: the int8 engine's activation alpha for the output layer.
    pub output_alpha: f32,
}

impl Transformer {
    pub fn from_bytes(bytes: &[u8]) -> Result<Transformer> {
        let f = ModelFile::parse(bytes)?;
        let config = Config::from_yaml(f.config_yaml()?)?;
        let (d, vocab) = (config.dim_emb, config.vocab());
        let (q, quant_mult) = f.intgemm8("Wemb", &[vocab, d])?;
        Ok(Transformer {
            wemb: Int8Matrix::new(vocab, d, q, quant_mult),
            encoder: (1..=config.enc_depth)
                .map(|l| EncoderLayer::load(&f, &config, l))
                .collect::<Result<_>>()?,
            decoder: (1..=config.dec_depth)
                .map(|l| DecoderLayer::load(&f, &config, l))
                .collect::<Result<_>>()?,
            decoder_ff_logit_out_b: f.f32_values("decoder_ff_logit_out_b", &[1, vocab])?,
            output_alpha: f.f32_scalar("none_QuantMultA")?,
            config,
        })
    }

    /// Embeddings of `tokens` (None: the zero vector) at positions `start`…,
    /// scaled by √dim-emb, plus the positions.
    pub fn embed(&self, tokens: &[Option<u32>], start: usize) -> Result<Matrix> {
        let d = self.config.dim_emb;
        let scale = (d as f32).sqrt();
        let mut x = positions(start, tokens.len(), d);
        for (i, token) in tokens.iter().enumerate() {
            let Some(id) = *token else { continue };
            if id as usize >= self.wemb.rows {
                return Err(Error::ModelFile(format!(
                    "token id {id} is outside the model's {}-entry vocabulary: tokenizer.json does not belong to this model",
                    self.wemb.rows
                )));
            }
            for (x, w) in x.row_mut(i).iter_mut().zip(self.wemb.row(id as usize)) {
                *x += scale * w;
            }
        }
        Ok(x)
    }

    /// Runs the encoder over the source ids; returns each layer's trace and the output E.
    pub fn encode(&self, ids: &[u32]) -> Result<(Vec<LayerTrace>, Matrix)> {
        let tokens: Vec<Option<u32>> = ids.iter().map(|&i| Some(i)).collect();
        let mut x = self.embed(&tokens, 0)?;
        let mut traces = Vec::with_capacity(self.encoder.len());
        for layer in &self.encoder {
            let (trace, next) = layer.forward(x);
            traces.push(trace);
            x = next;
        }
        Ok((traces, x))
    }

    /// The score of every vocabulary entry for the next token, from the
    /// last decoder layer's output (1 × dim-emb); with a shortlist only its
    /// words are scored, the others get −∞.
    pub fn logits(&self, x: &Matrix, shortlist: Option<&[u32]>) -> Vec<f32> {
        let Some(words) = shortlist else {
            return self.wemb.forward(x, Some(&self.decoder_ff_logit_out_b)).data;
        };
        let mut logits = vec![f32::NEG_INFINITY; self.wemb.rows];
        let scores = self.wemb.forward_rows(x.row(0), words, &self.decoder_ff_logit_out_b);
        words.iter().zip(scores).for_each(|(&w, s)| logits[w as usize] = s);
        logits
    }
}
