//! Whisper's decoder: tokens so far, and the audio's vectors, → the next
//! token's logits.
//!
//! ```text
//!   x = embedding(token) + position
//!   per layer:  x += W_O · attention(LayerNorm(x))                 causal, over the tokens so far
//!               x += W_O' · attention(LayerNorm(x) → audio)        cross: K and V from the encoder
//!               x += fc2(GELU(fc1(LayerNorm(x))))
//!   logits = LayerNorm(x_last) · embeddingᵀ
//! ```
//!
//! Tokens are added to a [`Cache`] of each layer's keys and values, so a
//! token written is run alone; the cross-attention's keys and values
//! ([`AudioKeys`]) are made once per clip, and a step that keeps no
//! attention ([`Whisper::step`]) lends them to the cross-attention rather
//! than copying them (1,500 frames × d, twice per layer, each step). Both
//! attentions go through
//! [`multi_head`], cross-attention being its queries from one sequence and
//! keys from another.

use super::model::Whisper;
use crate::attention::{multi_head, split_heads, AttendHeads, Mask, MultiHeadTrace, Scale};
use crate::error::{Error, Result};
use crate::tensor::Matrix;

/// The audio's keys and values in every decoder layer, per head (frames × d_k).
pub struct AudioKeys {
    k: Vec<Vec<Matrix>>,
    v: Vec<Vec<Matrix>>,
}

/// The audio's keys and values as a run has them: shared with the trace
/// (copied into it), or lent for a step that keeps none.
enum Keys<'a> {
    Shared(&'a AudioKeys),
    Lent(&'a mut AudioKeys),
}

/// The keys and values of the tokens run so far, per layer and head.
pub struct Cache {
    k: Vec<Vec<Matrix>>,
    v: Vec<Vec<Matrix>>,
    len: usize,
}

impl Cache {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One run of the decoder over some tokens.
pub struct Step {
    /// The logits after the last token (vocabulary).
    pub logits: Vec<f32>,
    /// Per layer: the tokens' causal self-attention, and their cross-attention to the audio.
    pub self_attention: Vec<MultiHeadTrace>,
    pub cross_attention: Vec<MultiHeadTrace>,
}

impl Whisper {
    /// K and V of the audio (`audio`: frames × d) for every decoder layer.
    pub fn audio_keys(&self, audio: &Matrix) -> AudioKeys {
        let (mut k, mut v) = (Vec::new(), Vec::new());
        for layer in &self.decoder {
            let kv = layer.cross_kv.forward(audio); //                       frames × 2d
            k.push(split_heads(&kv.cols_range(0, self.d), self.n_heads));
            v.push(split_heads(&kv.cols_range(self.d, self.d), self.n_heads));
        }
        AudioKeys { k, v }
    }

    pub fn empty_cache(&self) -> Cache {
        let empty = || {
            vec![vec![Matrix::zeros(0, self.d / self.n_heads); self.n_heads]; self.decoder.len()]
        };
        Cache { k: empty(), v: empty(), len: 0 }
    }

    /// Runs `ids` after the tokens in `cache` (adding theirs to it), with
    /// every layer's attention.
    pub fn decode(&self, ids: &[u32], cache: &mut Cache, audio: &AudioKeys) -> Result<Step> {
        self.run(ids, cache, Keys::Shared(audio))
    }

    /// Runs `ids` after the tokens in `cache` (adding theirs to it) for the
    /// next token's logits alone: the greedy loop's step.
    pub fn step(&self, ids: &[u32], cache: &mut Cache, audio: &mut AudioKeys) -> Result<Vec<f32>> {
        Ok(self.run(ids, cache, Keys::Lent(audio))?.logits)
    }

    fn run(&self, ids: &[u32], cache: &mut Cache, mut audio: Keys<'_>) -> Result<Step> {
        let first = cache.len;
        if ids.is_empty() {
            return Err(Error::Invalid("the decoder was given no tokens to run".into()));
        }
        if first + ids.len() > self.max_tokens() {
            return Err(Error::Invalid(format!(
                "the decoder places at most {} tokens, not {}",
                self.max_tokens(),
                first + ids.len()
            )));
        }
        let (d, heads) = (self.d, self.n_heads);
        let mut x = Matrix::zeros(ids.len(), d);
        for (i, &id) in ids.iter().enumerate() {
            if id as usize >= self.vocabulary() {
                return Err(Error::Invalid(format!("token id {id} is outside the vocabulary")));
            }
            self.embeddings.dequantize_row(id as usize, x.row_mut(i));
            for (e, p) in x.row_mut(i).iter_mut().zip(self.decoder_positions.row(first + i)) {
                *e += p;
            }
        }
        let (mut self_attention, mut cross_attention) = (Vec::new(), Vec::new());
        for (l, layer) in self.decoder.iter().enumerate() {
            let qkv = layer.self_qkv.forward(&layer.self_norm.forward(&x)); //       n × 3d
            for (h, (k, v)) in split_heads(&qkv.cols_range(d, d), heads)
                .into_iter()
                .zip(split_heads(&qkv.cols_range(2 * d, d), heads))
                .enumerate()
            {
                cache.k[l][h].push_rows(&k);
                cache.v[l][h].push_rows(&v);
            }
            let own = multi_head(
                &qkv.cols_range(0, d),
                heads,
                cache.k[l].clone(),
                cache.v[l].clone(),
                AttendHeads::new(Mask::Causal, Scale::InvSqrtDk),
            );
            x = x.add(&layer.self_out.forward(&own.concat));
            let q = layer.cross_q.forward(&layer.cross_norm.forward(&x)); //           n × d
            let (k, v) = match &mut audio {
                Keys::Shared(a) => (a.k[l].clone(), a.v[l].clone()),
                Keys::Lent(a) => (std::mem::take(&mut a.k[l]), std::mem::take(&mut a.v[l])),
            };
            let mut cross =
                multi_head(&q, heads, k, v, AttendHeads::new(Mask::None, Scale::InvSqrtDk));
            x = x.add(&layer.cross_out.forward(&cross.concat));
            x = x.add(&layer.ffn.forward(&x));
            if let Keys::Lent(a) = &mut audio {
                // Given back: this step keeps no trace.
                a.k[l] = std::mem::take(&mut cross.k);
                a.v[l] = std::mem::take(&mut cross.v);
                continue;
            }
            self_attention.push(own);
            cross_attention.push(cross);
        }
        cache.len += ids.len();
        let last = self.decoder_norm.forward(&x.rows_range(x.rows - 1, 1));
        let logits = self.embeddings.forward(&last).data; //                       1 × vocabulary
        Ok(Step { logits, self_attention, cross_attention })
    }
}
