//! SmolLM2-135M: a real Llama-architecture decoder, computed from its Q4_1
//! GGUF file.
//!
//! ```text
//!   h⁰ = token_embd[ids]                                   (n × 576)
//!   for each of the 30 blocks:
//!     x  = RMSNorm(h) · attn_norm                          LayerTrace.input
//!     Q  = RoPE(x W_qᵀ)   K = RoPE(x W_kᵀ)   V = x W_vᵀ     9 query heads, 3 key/value heads
//!     A  = softmax(Q Kᵀ/√64 + M_causal)                    our attention::multi_head_split
//!     ΔE = [A V]_heads W_oᵀ                                LayerTrace.delta
//!     r  = h + ΔE                                          LayerTrace.residual
//!     h  = r + W_down (SiLU(W_gate y) ⊙ W_up y),  y = RMSNorm(r) · ffn_norm
//!   logits = RMSNorm(h_last) · output_norm · token_embdᵀ   (tied embeddings)
//! ```
//!
//! Struct fields carry the GGUF tensor names (`attn_q`, `ffn_gate`, …).
//! Weights stay quantized ([`QMatrix`]); the tokenizer is the byte-level BPE
//! stored in the file's metadata, built with the `tokenizers` crate.
//!
//! llama.cpp's converter reorders the rows of `attn_q` and `attn_k` so that
//! RoPE rotates adjacent pairs (x[2i], x[2i+1]). We undo that at load time,
//! so Q and K are in the Hugging Face layout (RoPE rotates x[i] with x[i+32])
//! and what the page shows matches the reference column for column.
//!
//! Decoding is incremental: [`SmolLm2Session`] keeps the trace of the last
//! text and, under the causal mask, reuses every row for the tokens both
//! texts share at the start; only the rest is computed.
//!
//! - this file: the model (its configuration, loading, the forward pass, the
//!   next-token distribution);
//! - `block`: one transformer block and its parts (RMSNorm, RoPE);
//! - `tokenizer`: the byte-level BPE from the file's metadata;
//! - `cache`: [`SmolLm2Session`], the key/value cache.

mod block;
mod cache;
mod tokenizer;

pub use cache::SmolLm2Session;

use crate::attention::Mask;
use crate::error::{Error, Result};
use crate::models::gguf::Gguf;
use crate::models::helper::{self, BoxedHelper, Helper, Shard};
use crate::models::quant::QMatrix;
use crate::models::{LayerTrace, ModelInfo, ModelTrace};
use crate::tensor::Matrix;
use block::{load_matrix, load_norm, Block, RmsNorm, Rope, MATRICES_PER_BLOCK};
use cache::join;
use tokenizers::Tokenizer;

/// Longest input, in tokens: the trace keeps S and A for 30 layers × 9
/// heads, which grow as n², and the model, the trace the page holds and the
/// one being extended must stay within the browser's 400 MB (at 128 tokens
/// a trace is about 95 MB beside the model's 98).
pub const MAX_TOKENS: usize = 128;

/// How many next tokens `top_next` lists.
pub const TOP_K: usize = 5;

/// Hyperparameters, read from the GGUF metadata (`llama.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub n_layers: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_head: usize,
    pub d_ff: usize,
    pub vocab_size: usize,
    pub rope_theta: f32,
    pub rms_eps: f32,
}

impl Config {
    fn from_gguf(g: &Gguf) -> Result<Config> {
        let arch = g.get_str("general.architecture")?;
        if arch != "llama" {
            return Err(Error::ModelFile(format!("expected a Llama-architecture GGUF (SmolLM2), this one is `{arch}`")));
        }
        let int = |k: &str| -> Result<usize> {
            let v = g.get_u64(&format!("llama.{k}"))?;
            usize::try_from(v)
                .ok()
                .filter(|&v| v > 0 && v <= 1 << 20)
                .ok_or_else(|| Error::ModelFile(format!("llama.{k} = {v} is out of range")))
        };
        let n_heads = int("attention.head_count")?;
        let d_model = int("embedding_length")?;
        let c = Config {
            n_layers: int("block_count")?,
            d_model,
            n_heads,
            n_kv_heads: int("attention.head_count_kv")?,
            d_head: d_model / n_heads,
            d_ff: int("feed_forward_length")?,
            vocab_size: g.get_strings("tokenizer.ggml.tokens")?.len(),
            rope_theta: g.get_f64("llama.rope.freq_base")? as f32,
            rms_eps: g.get_f64("llama.attention.layer_norm_rms_epsilon")? as f32,
        };
        if c.d_head * c.n_heads != c.d_model || !c.n_heads.is_multiple_of(c.n_kv_heads) || !c.d_head.is_multiple_of(2) {
            return Err(Error::ModelFile(format!(
                "inconsistent head sizes: d_model {}, {} heads, {} key/value heads",
                c.d_model, c.n_heads, c.n_kv_heads
            )));
        }
        if let Ok(rope) = g.get_u64("llama.rope.dimension_count") {
            if rope as usize != c.d_head {
                return Err(Error::ModelFile(format!("RoPE on {rope} of {} dimensions per head is not supported", c.d_head)));
            }
        }
        Ok(c)
    }
}

/// The text as tokens, cut to [`MAX_TOKENS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Tokens {
    pub ids: Vec<u32>,
    /// How each token is shown: its text, special tokens as written
    /// (`<|im_start|>`), bytes that are only part of a character as `<0xF0>`.
    pub tokens: Vec<String>,
    /// Set when the text was cut.
    pub notice: Option<String>,
}

/// SmolLM2-135M with its tokenizer, weights quantized in memory.
pub struct SmolLm2 {
    config: Config,
    tokenizer: Tokenizer,
    /// Display text of every vocabulary entry.
    token_text: Vec<String>,
    token_embd: QMatrix,
    blocks: Vec<Block>,
    output_norm: RmsNorm,
    rope: Rope,
    /// Another thread holding a copy of the second part of every matrix's
    /// rows ([`SmolLm2::shard`]), and the fewest new tokens a run gives it.
    helper: Option<(BoxedHelper, usize)>,
}

impl std::fmt::Debug for SmolLm2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmolLm2").field("config", &self.config).finish_non_exhaustive()
    }
}

impl SmolLm2 {
    /// Builds the model from the bytes of the GGUF file (the browser passes
    /// what it downloaded). The quantized weights are copied; `bytes` may be
    /// dropped afterwards.
    pub fn from_gguf_bytes(bytes: &[u8]) -> Result<SmolLm2> {
        let g = Gguf::parse(bytes)?;
        let config = Config::from_gguf(&g)?;
        let (tokenizer, token_text) = tokenizer::build(&g)?;
        let eps = config.rms_eps;
        // Also the output matrix (tied), whose logits only set the next-token probabilities.
        let token_embd = load_matrix(&g, bytes, "token_embd.weight", config.vocab_size, config.d_model)?.with_16_bit_inputs();
        if g.tensors.contains_key("output.weight") {
            return Err(Error::ModelFile("this GGUF has a separate `output.weight`; SmolLM2 ties it to the token embedding".into()));
        }
        let blocks = (0..config.n_layers).map(|i| Block::load(&g, bytes, i, &config)).collect::<Result<Vec<_>>>()?;
        let output_norm = load_norm(&g, bytes, "output_norm.weight", config.d_model, eps)?;
        let rope = Rope::new(config.d_head, config.rope_theta);
        Ok(SmolLm2 { config, tokenizer, token_text, token_embd, blocks, output_norm, rope, helper: None })
    }

    /// For a [`Helper`] on another thread: a copy of every weight matrix's
    /// rows after [`helper::own_rows`], for each block `attn_q, attn_k,
    /// attn_v, attn_output, ffn_gate, ffn_up, ffn_down`, then the (tied)
    /// output matrix. This model keeps all its rows, so that it can still
    /// run alone.
    pub fn shard(&self) -> Shard {
        let rest = |m: &QMatrix| m.rows_copy(helper::own_rows(m.rows)..m.rows);
        let mut matrices: Vec<QMatrix> = self.blocks.iter().flat_map(|b| b.matrices().map(rest)).collect();
        matrices.push(rest(&self.token_embd));
        Shard { matrices }
    }

    /// Shares the products of runs of at least `from_tokens` new tokens with
    /// `helper`, which holds [`SmolLm2::shard`] ([`helper::products`]); None
    /// runs alone. The results are the same bit for bit.
    pub fn set_helper(&mut self, helper: Option<BoxedHelper>, from_tokens: usize) {
        self.helper = helper.map(|h| (h, from_tokens.max(1)));
    }

    /// Threads a run of `new_tokens` tokens computes on.
    pub fn threads_for(&self, new_tokens: usize) -> usize {
        match &self.helper {
            Some((_, from)) if new_tokens >= *from => 2,
            _ => 1,
        }
    }

    /// Whether another thread can compute part of the products.
    pub fn has_helper(&self) -> bool {
        self.helper.is_some()
    }

    /// Reads the GGUF file from disk (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load(path: &std::path::Path) -> Result<SmolLm2> {
        let bytes = std::fs::read(path).map_err(|e| {
            Error::ModelFile(format!("cannot read {}: {e} (run `python3 scripts/fetch_models.py` to fetch it)", path.display()))
        })?;
        Self::from_gguf_bytes(&bytes)
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn info(&self) -> ModelInfo {
        let c = &self.config;
        ModelInfo {
            id: "smollm2".into(),
            name: "SmolLM2-135M".into(),
            n_layers: c.n_layers,
            n_heads: c.n_heads,
            n_kv_heads: c.n_kv_heads,
            d_model: c.d_model,
            d_head: c.d_head,
            mask: Mask::Causal,
            max_tokens: MAX_TOKENS,
        }
    }

    /// How token `id` is shown (see [`Tokens::tokens`]).
    pub fn token_text(&self, id: u32) -> Option<&str> {
        self.token_text.get(id as usize).map(String::as_str)
    }

    /// Tokenizes raw text: no BOS token, no chat template; special-token
    /// strings the user types (`<|im_start|>`) become those tokens, as in the
    /// reference tokenizer. Empty text is an error: a decoder with no token
    /// has nothing to attend to and nothing to predict from.
    pub fn tokenize(&self, text: &str) -> Result<Tokens> {
        let enc = self.tokenizer.encode(text, false).map_err(|e| Error::Tokenizer(e.to_string()))?;
        let mut ids = enc.get_ids().to_vec();
        if ids.is_empty() {
            return Err(Error::Invalid(
                "Type some text: SmolLM2 predicts the next token from the ones before it, and with no token there is nothing to attend to."
                    .into(),
            ));
        }
        let mut notice = None;
        if ids.len() > MAX_TOKENS {
            notice = Some(format!("The text has {} tokens; only the first {MAX_TOKENS} are used.", ids.len()));
            ids.truncate(MAX_TOKENS);
        }
        let tokens = ids.iter().map(|&i| self.token_text(i).unwrap_or("?").to_string()).collect();
        Ok(Tokens { ids, tokens, notice })
    }

    /// All layers and heads for `text`, and the next-token distribution at temperature 1.
    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        self.run_with_temperature(text, 1.0)
    }

    /// As [`SmolLm2::run`], with `top_next` = softmax(logits / temperature).
    pub fn run_with_temperature(&self, text: &str, temperature: f32) -> Result<ModelTrace> {
        check_temperature(temperature)?;
        let t = self.tokenize(text)?;
        let (layers, logits) = self.forward(&t.ids, Vec::new())?;
        Ok(self.trace(t, layers, &logits, temperature))
    }

    /// Runs `ids[past_len..]` on top of `past`, the layers of `ids[..past_len]`
    /// (their rows never change under the causal mask; empty for none).
    /// Returns the layers of all of `ids` and the logits after the last one.
    /// `past` is consumed layer by layer, so an extension holds little more
    /// than one trace at a time.
    pub fn forward(&self, ids: &[u32], past: Vec<LayerTrace>) -> Result<(Vec<LayerTrace>, Vec<f32>)> {
        let c = &self.config;
        let start = past.first().map_or(0, |l| l.input.rows);
        if ids.len() <= start || ids.len() > MAX_TOKENS {
            return Err(Error::Invalid(format!(
                "{} tokens after {start} cached ones: need 1 to {MAX_TOKENS} tokens in all",
                ids.len().saturating_sub(start)
            )));
        }
        if !past.is_empty() && past.len() != c.n_layers {
            return Err(Error::Invalid("cached layers do not match the model".into()));
        }
        let new = &ids[start..];
        let mut h = Matrix::zeros(new.len(), c.d_model);
        for (r, &id) in new.iter().enumerate() {
            if id as usize >= c.vocab_size {
                return Err(Error::Invalid(format!("token id {id} is outside the vocabulary of {}", c.vocab_size)));
            }
            self.token_embd.dequantize_row(id as usize, h.row_mut(r));
        }
        let mut layers = Vec::with_capacity(c.n_layers);
        let mut past = past.into_iter();
        let helper = match &self.helper {
            Some((helper, from)) if new.len() >= *from => Some(helper.as_ref() as &dyn Helper),
            _ => None,
        };
        for (l, block) in self.blocks.iter().enumerate() {
            let mut before = past.next();
            let (part, out) =
                block.forward(&h, start, before.as_mut(), c, &self.rope, l + 1 == self.blocks.len(), helper, l * MATRICES_PER_BLOCK);
            layers.push(match before {
                Some(b) => join(b, part),
                None => part,
            });
            h = out;
        }
        let last = self.output_norm.forward(&h.rows_range(h.rows - 1, 1));
        let [logits] = helper::products(helper, self.blocks.len() * MATRICES_PER_BLOCK, [&self.token_embd], &last);
        let logits = logits.data;
        Ok((layers, logits))
    }

    /// The `k` most likely next tokens at `temperature`, shown as tokens.
    pub fn top_next(&self, logits: &[f32], temperature: f32, k: usize) -> Vec<(String, f32)> {
        top_k(logits, temperature, k).into_iter().map(|(id, p)| (self.token_text(id).unwrap_or("?").to_string(), p)).collect()
    }

    pub(super) fn trace(&self, t: Tokens, layers: Vec<LayerTrace>, logits: &[f32], temperature: f32) -> ModelTrace {
        ModelTrace {
            info: self.info(),
            tokens: t.tokens,
            token_ids: Some(t.ids),
            layers,
            notice: t.notice,
            sentence_embedding: None,
            top_next: Some(self.top_next(logits, temperature, TOP_K)),
        }
    }
}

pub(super) fn check_temperature(t: f32) -> Result<()> {
    if t.is_finite() && t > 0.0 {
        Ok(())
    } else {
        Err(Error::Invalid(format!("the temperature must be a positive number, not {t}")))
    }
}

/// Token ids and probabilities of the `k` largest entries of softmax(logits / T),
/// computed in f64 so that small probabilities keep their digits.
pub fn top_k(logits: &[f32], temperature: f32, k: usize) -> Vec<(u32, f32)> {
    let t = temperature as f64;
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    // The normaliser's terms in f32 with our exp, which vectorizes, where
    // f64's exp is a call per logit: the sum is at least 1 (the largest
    // term), so their rounding moves it by about 1e-7 relative. Added up in f64.
    let terms: Vec<f32> = logits.iter().map(|&z| crate::tensor::exp((z - max) / temperature)).collect();
    let sum: f64 = terms.iter().map(|&e| e as f64).sum();
    let max = max as f64;
    // One pass keeping the k largest in order (ties: the lower id first):
    // most logits lose their first comparison, where selecting among all the
    // indices, then sorting, touches each several times.
    let k = k.min(logits.len());
    let mut best: Vec<u32> = Vec::with_capacity(k + 1);
    for (i, z) in logits.iter().enumerate() {
        let beats = |&j: &u32| z.total_cmp(&logits[j as usize]) == std::cmp::Ordering::Greater;
        if best.len() == k && !best.last().is_some_and(beats) {
            continue;
        }
        let at = best.iter().position(beats).unwrap_or(best.len());
        best.insert(at, i as u32);
        best.truncate(k);
    }
    best.into_iter().map(|i| (i, (((logits[i as usize] as f64 - max) / t).exp() / sum) as f32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_is_sorted_and_sharpens_when_cold() {
        let logits = [0.0, 2.0, 1.0, -1.0];
        let warm = top_k(&logits, 1.0, 3);
        assert_eq!(warm.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 0]);
        let total: f32 = top_k(&logits, 1.0, 4).iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-6);
        assert!(top_k(&logits, 0.1, 1)[0].1 > warm[0].1);
        assert!(top_k(&logits, 1.0, 0).is_empty());
        // The same as sorting everything, ties (twenty of each value) by id.
        let many: Vec<f32> = (0..1000).map(|i| ((i * 7919) % 50) as f32 / 10.0).collect();
        let mut order: Vec<u32> = (0..1000).collect();
        order.sort_by(|&a, &b| many[b as usize].total_cmp(&many[a as usize]).then(a.cmp(&b)));
        assert_eq!(top_k(&many, 1.0, 5).iter().map(|x| x.0).collect::<Vec<_>>(), order[..5]);
        assert!(check_temperature(0.0).is_err() && check_temperature(f32::NAN).is_err());
    }
}
