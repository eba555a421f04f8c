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

use crate::attention::{multi_head_split, split_heads, Mask, Scale};
use crate::error::{Error, Result};
use crate::models::gguf::Gguf;
use crate::models::quant::{QMatrix, QType};
use crate::models::split::{self, BoxedHelper, Helper, Shard};
use crate::models::{LayerTrace, ModelInfo, ModelTrace};
use crate::tensor::{self, Matrix};
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, PreTokenizerWrapper, Tokenizer};

/// Longest input, in tokens. The trace keeps S and A for 30 layers × 9 heads,
/// which grows as n²: at 128 tokens one trace is ≈ 95 MB (S, A ≈ 35 MB; Q, K,
/// V, Z and the residual rows ≈ 60 MB), so the model (98 MB), the trace the
/// page holds and the one being extended stay within the browser's 400 MB.
pub const MAX_TOKENS: usize = 128;

/// Positions of room the session's cache keeps for tokens typed at the end
/// (a word or two; the storage doubles, as a `Vec`'s does, beyond them).
const ROOM: usize = 8;

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

/// RMSNorm: x / √(mean(x²) + ε) · weight, row by row.
#[derive(Clone, Debug)]
struct RmsNorm {
    weight: Vec<f32>,
    eps: f32,
}

impl RmsNorm {
    fn forward(&self, x: &Matrix) -> Matrix {
        let mut out = x.clone();
        for i in 0..x.rows {
            let row = out.row_mut(i);
            let mean_sq = tensor::dot(row, row) / row.len() as f32;
            let inv = 1.0 / (mean_sq + self.eps).sqrt();
            for (v, w) in row.iter_mut().zip(&self.weight) {
                *v = w * (*v * inv);
            }
        }
        out
    }
}

/// Rotary position embedding, in the Hugging Face layout: dimension i of a
/// head turns together with dimension i + d_head/2 by angle pos · θ^(−2i/d_head).
#[derive(Clone, Debug)]
struct Rope {
    inv_freq: Vec<f32>,
}

impl Rope {
    fn new(d_head: usize, theta: f32) -> Rope {
        Rope { inv_freq: (0..d_head / 2).map(|i| 1.0 / theta.powf((2 * i) as f32 / d_head as f32)).collect() }
    }

    /// Rotates every head of `x` (n × heads·d_head); row r is position `start + r`.
    fn apply(&self, x: &mut Matrix, d_head: usize, start: usize) {
        let half = d_head / 2;
        for r in 0..x.rows {
            let pos = (start + r) as f32;
            let (cos, sin): (Vec<f32>, Vec<f32>) = self.inv_freq.iter().map(|f| ((pos * f).cos(), (pos * f).sin())).unzip();
            for head in x.row_mut(r).chunks_exact_mut(d_head) {
                let (a, b) = head.split_at_mut(half);
                for i in 0..half {
                    let (x1, x2) = (a[i], b[i]);
                    a[i] = x1 * cos[i] - x2 * sin[i];
                    b[i] = x2 * cos[i] + x1 * sin[i];
                }
            }
        }
    }
}

/// One transformer block, fields named as in the GGUF file (`blk.N.*`).
#[derive(Clone, Debug)]
struct Block {
    attn_norm: RmsNorm,
    attn_q: QMatrix,
    attn_k: QMatrix,
    attn_v: QMatrix,
    attn_output: QMatrix,
    ffn_norm: RmsNorm,
    ffn_gate: QMatrix,
    ffn_up: QMatrix,
    ffn_down: QMatrix,
}

/// Reads a `rows × cols` weight (GGUF dims `[cols, rows]`).
fn load_matrix(g: &Gguf, bytes: &[u8], name: &str, rows: usize, cols: usize) -> Result<QMatrix> {
    let t = g.tensor(name)?;
    if t.dims != [cols as u64, rows as u64] {
        return Err(Error::ModelFile(format!("tensor `{name}` has shape {:?}, expected [{cols}, {rows}]", t.dims)));
    }
    let qtype = QType::from_ggml(t.ggml_type).ok_or_else(|| {
        Error::ModelFile(format!(
            "tensor `{name}` has GGML type {}, which this reader does not know (F32, Q4_1 and Q8_0 are supported)",
            t.ggml_type
        ))
    })?;
    let len = qtype
        .bytes_for(rows * cols)
        .ok_or_else(|| Error::ModelFile(format!("tensor `{name}`: {cols} columns do not split into blocks")))?;
    QMatrix::new(rows, cols, qtype, g.tensor_bytes(bytes, name, len)?.to_vec())
}

fn load_norm(g: &Gguf, bytes: &[u8], name: &str, d: usize, eps: f32) -> Result<RmsNorm> {
    let t = g.tensor(name)?;
    if t.dims != [d as u64] || t.ggml_type != 0 {
        return Err(Error::ModelFile(format!("tensor `{name}` should be {d} f32 values, it is {:?} of GGML type {}", t.dims, t.ggml_type)));
    }
    let weight = g.tensor_bytes(bytes, name, d * 4)?.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    Ok(RmsNorm { weight, eps })
}

/// Row order that undoes llama.cpp's Q/K permutation: HF row h·d + p·d/2 + i
/// is GGUF row h·d + 2i + p (p ∈ {0, 1}).
fn unpermute_order(n_heads: usize, d_head: usize) -> Vec<usize> {
    let half = d_head / 2;
    let mut order = Vec::with_capacity(n_heads * d_head);
    for h in 0..n_heads {
        for p in 0..2 {
            for i in 0..half {
                order.push(h * d_head + 2 * i + p);
            }
        }
    }
    order
}

impl Block {
    fn load(g: &Gguf, bytes: &[u8], i: usize, c: &Config) -> Result<Block> {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        let (d, kv) = (c.d_model, c.n_kv_heads * c.d_head);
        Ok(Block {
            attn_norm: load_norm(g, bytes, &n("attn_norm"), d, c.rms_eps)?,
            attn_q: load_matrix(g, bytes, &n("attn_q"), d, d)?.permute_rows(&unpermute_order(c.n_heads, c.d_head)),
            attn_k: load_matrix(g, bytes, &n("attn_k"), kv, d)?.permute_rows(&unpermute_order(c.n_kv_heads, c.d_head)),
            attn_v: load_matrix(g, bytes, &n("attn_v"), kv, d)?,
            attn_output: load_matrix(g, bytes, &n("attn_output"), d, d)?,
            ffn_norm: load_norm(g, bytes, &n("ffn_norm"), d, c.rms_eps)?,
            ffn_gate: load_matrix(g, bytes, &n("ffn_gate"), c.d_ff, d)?,
            ffn_up: load_matrix(g, bytes, &n("ffn_up"), c.d_ff, d)?,
            ffn_down: load_matrix(g, bytes, &n("ffn_down"), d, c.d_ff)?,
        })
    }

    /// The block on new rows `h` (positions `start..`), attending to the
    /// cached keys and values of `past` (the first `start` positions) and to
    /// their own. `past` lends its K and V heads, which grow by the new rows.
    /// Returns this block's trace for the new rows only (its K and V hold
    /// all positions, its scores all keys; [`join`] puts them back into
    /// `past`) and the block's output:
    /// for every new row, or with `last_only` for the last row alone (the
    /// trace stops before the feed-forward, so after the last block only
    /// the last position, which predicts the next token, needs it).
    /// With a `helper`, each product's rows are split with it; the helper
    /// has this block's matrices as shard matrices `first .. first + 7`, in
    /// field order.
    #[allow(clippy::too_many_arguments)]
    fn forward(
        &self,
        h: &Matrix,
        start: usize,
        past: Option<&mut LayerTrace>,
        c: &Config,
        rope: &Rope,
        last_only: bool,
        helper: Option<&dyn Helper>,
        first: usize,
    ) -> (LayerTrace, Matrix) {
        let x = self.attn_norm.forward(h);
        let [mut q, mut k, v] = split::products(helper, first, [&self.attn_q, &self.attn_k, &self.attn_v], &x);
        rope.apply(&mut q, c.d_head, start);
        rope.apply(&mut k, c.d_head, start);
        let (mut k, mut v) = (split_heads(&k, c.n_kv_heads), split_heads(&v, c.n_kv_heads));
        if let Some(p) = past {
            // The cached heads take the new rows in place; `join` hands them back.
            let a = &mut p.attention;
            for (cached, new) in a.k.iter_mut().zip(&k).chain(a.v.iter_mut().zip(&v)) {
                cached.push_rows(new);
            }
            (k, v) = (std::mem::take(&mut a.k), std::mem::take(&mut a.v));
        }
        let attention = multi_head_split(&q, c.n_heads, k, v, Mask::Causal, Scale::InvSqrtDk);
        let [delta] = split::products(helper, first + 3, [&self.attn_output], &attention.concat);
        let residual = h.add(&delta);
        let r = if last_only { residual.rows_range(residual.rows - 1, 1) } else { residual.clone() };
        let y = self.ffn_norm.forward(&r);
        let [mut gate, up] = split::products(helper, first + 4, [&self.ffn_gate, &self.ffn_up], &y);
        let e = crate::tensor::loop_constants(crate::tensor::EXP);
        for (g, u) in gate.data.iter_mut().zip(&up.data) {
            *g = *g / (1.0 + e.exp(-*g)) * u; // SiLU(g) ⊙ u
        }
        let [down] = split::products(helper, first + 6, [&self.ffn_down], &gate);
        let out = r.add(&down);
        (LayerTrace { input: x, attention, delta, residual }, out)
    }

    /// The block's weight matrices, in the order `forward` numbers them.
    fn matrices(&self) -> [&QMatrix; MATRICES_PER_BLOCK] {
        [&self.attn_q, &self.attn_k, &self.attn_v, &self.attn_output, &self.ffn_gate, &self.ffn_up, &self.ffn_down]
    }
}

const MATRICES_PER_BLOCK: usize = 7;

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
        let (tokenizer, token_text) = build_tokenizer(&g)?;
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
    /// rows after [`split::rows_kept`], for each block `attn_q, attn_k,
    /// attn_v, attn_output, ffn_gate, ffn_up, ffn_down`, then the (tied)
    /// output matrix. This model keeps all its rows, so that it can still
    /// run alone.
    pub fn shard(&self) -> Shard {
        let rest = |m: &QMatrix| m.rows_copy(split::rows_kept(m.rows)..m.rows);
        let mut matrices: Vec<QMatrix> = self.blocks.iter().flat_map(|b| b.matrices().map(rest)).collect();
        matrices.push(rest(&self.token_embd));
        Shard { matrices }
    }

    /// Shares the products of runs of at least `from_tokens` new tokens with
    /// `helper`, which holds [`SmolLm2::shard`] ([`split::products`]); None
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
        let [logits] = split::products(helper, self.blocks.len() * MATRICES_PER_BLOCK, [&self.token_embd], &last);
        let logits = logits.data;
        Ok((layers, logits))
    }

    /// The `k` most likely next tokens at `temperature`, shown as tokens.
    pub fn top_next(&self, logits: &[f32], temperature: f32, k: usize) -> Vec<(String, f32)> {
        top_k(logits, temperature, k).into_iter().map(|(id, p)| (self.token_text(id).unwrap_or("?").to_string(), p)).collect()
    }

    fn trace(&self, t: Tokens, layers: Vec<LayerTrace>, logits: &[f32], temperature: f32) -> ModelTrace {
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

fn check_temperature(t: f32) -> Result<()> {
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
    // The normaliser's terms in f32 with our exp, which vectorizes: the sum
    // is at least 1 (the largest term), so their rounding moves it by about
    // 1e-7 relative, while 49,152 calls of f64's exp took 0.6 ms of an
    // appended token in wasm. Added up in f64.
    let terms: Vec<f32> = logits.iter().map(|&z| crate::tensor::exp((z - max) / temperature)).collect();
    let sum: f64 = terms.iter().map(|&e| e as f64).sum();
    let max = max as f64;
    // One pass keeping the k largest in order (ties: the lower id first):
    // most logits lose their first comparison. Selecting among 49,152
    // indices, then sorting, took 0.3 ms of an appended token in wasm.
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

/// The layer for all positions, from the layer of the first `p` (`before`)
/// and the part for the new `m` positions (`part`, whose K, V and scores
/// already span all p + m keys). Old rows are kept as they are; only the
/// old queries' raw scores against the new keys are added, as a full
/// recompute would have them (their weights are 0: the mask hides them).
/// `before` grows in place, so a keystroke at the end of a long text costs
/// the new rows, not a copy of every layer.
fn join(mut before: LayerTrace, part: LayerTrace) -> LayerTrace {
    let (b, p) = (&mut before.attention, part.attention);
    for (h, (old, new)) in b.heads.iter_mut().zip(p.heads).enumerate() {
        let seen = old.scores.cols;
        let k_new = p.k[p.kv_head_of[h]].rows_range(seen, new.scores.cols - seen);
        old.scores.push_cols(&b.q[h].matmul_t(&k_new));
        old.scores.push_rows(&new.scores);
        old.weights.push_cols(&Matrix::zeros(old.weights.rows, k_new.rows));
        old.weights.push_rows(&new.weights);
        old.output.push_rows(&new.output);
        (old.scale, old.mask) = (new.scale, new.mask);
    }
    for (old, new) in b.q.iter_mut().zip(&p.q) {
        old.push_rows(new);
    }
    b.concat.push_rows(&p.concat);
    (b.k, b.v, b.kv_head_of) = (p.k, p.v, p.kv_head_of);
    before.input.push_rows(&part.input);
    before.delta.push_rows(&part.delta);
    before.residual.push_rows(&part.residual);
    before
}

/// The layer restricted to its first `n` positions: exactly what running the
/// first `n` tokens alone gives, since no earlier row depends on a later token.
/// In place, as [`join`] is.
fn truncate(mut l: LayerTrace, n: usize) -> LayerTrace {
    each_matrix(
        &mut l,
        |m| m.truncate_rows(n),
        |square| {
            square.truncate_rows(n);
            square.truncate_cols(n);
        },
    );
    l
}

/// Room in every matrix of the layer that [`join`] grows for `extra` more
/// positions, so that the next keystrokes at the end of the text append in
/// place. Without it the first token appended after a full run moved the
/// whole trace (30 layers' Q, Z, residual rows, S and A) to larger storage:
/// 0.65 ms of 19.5 in wasm.
fn make_room(l: &mut LayerTrace, extra: usize) {
    each_matrix(l, |m| m.reserve(extra, 0), |square| square.reserve(extra, extra));
}

/// `rows` on each matrix of the layer with a row per position (Q, K, V, Z,
/// the heads side by side, the residual rows), `squares` on each with a row
/// and a column per position (S and A).
fn each_matrix(l: &mut LayerTrace, mut rows: impl FnMut(&mut Matrix), mut squares: impl FnMut(&mut Matrix)) {
    let a = &mut l.attention;
    for m in a.q.iter_mut().chain(&mut a.k).chain(&mut a.v).chain([&mut a.concat, &mut l.input, &mut l.delta, &mut l.residual]) {
        rows(m);
    }
    for h in &mut a.heads {
        squares(&mut h.scores);
        squares(&mut h.weights);
        rows(&mut h.output);
    }
}

/// GPT-2's byte-level alphabet: each byte is written as a printable
/// character (a space is `Ġ`). Returns character → byte.
fn byte_of_char() -> HashMap<char, u8> {
    let printable = |b: u32| (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
    let mut next = 256;
    (0..=255u32)
        .map(|b| {
            let c = if printable(b) {
                b
            } else {
                next += 1;
                next - 1
            };
            (char::from_u32(c).unwrap_or('?'), b as u8)
        })
        .collect()
}

/// A vocabulary entry as shown: its bytes as text, and any byte that is not
/// part of a whole UTF-8 character within the token (one piece of an emoji
/// split over several tokens) as `<0xF0>`. The reference script writes
/// tokens the same way.
fn display_token(piece: &str, special: bool, bytes_of: &HashMap<char, u8>) -> String {
    if special {
        return piece.to_string();
    }
    let raw: Vec<u8> = piece.chars().map(|c| bytes_of.get(&c).copied().unwrap_or(b'?')).collect();
    let mut out = String::new();
    let mut i = 0;
    'outer: while i < raw.len() {
        for w in 1..=4.min(raw.len() - i) {
            if let Ok(s) = std::str::from_utf8(&raw[i..i + w]) {
                out.push_str(s);
                i += w;
                continue 'outer;
            }
        }
        out.push_str(&format!("<0x{:02X}>", raw[i]));
        i += 1;
    }
    out
}

/// SmolLM2's tokenizer from the GGUF metadata: byte-level BPE over the 49152
/// tokens and their merges; digits split one by one before the GPT-2 split
/// (llama.cpp's "smollm" pre-tokenizer, as in SmolLM2's tokenizer.json);
/// control tokens (`<|im_start|>`, …) matched whole as special tokens.
fn build_tokenizer(g: &Gguf) -> Result<(Tokenizer, Vec<String>)> {
    let model = g.get_str("tokenizer.ggml.model")?;
    if model != "gpt2" {
        return Err(Error::ModelFile(format!("expected a byte-level BPE (\"gpt2\") tokenizer in the GGUF file, found \"{model}\"")));
    }
    let tokens = g.get_strings("tokenizer.ggml.tokens")?;
    let types: Vec<u64> = match g.get("tokenizer.ggml.token_type") {
        Ok(v) => v.as_array().unwrap_or(&[]).iter().map(|t| t.as_u64().unwrap_or(1)).collect(),
        Err(_) => vec![1; tokens.len()],
    };
    let merges = g
        .get_strings("tokenizer.ggml.merges")?
        .into_iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| Error::ModelFile(format!("merge `{m}` is not two tokens")))
        })
        .collect::<Result<Vec<_>>>()?;
    let vocab: Vocab = tokens.iter().enumerate().map(|(i, t)| (t.to_string(), i as u32)).collect();
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .build()
        .map_err(|e| Error::Tokenizer(format!("cannot build the BPE from the GGUF vocabulary: {e}")))?;
    let mut tokenizer = Tokenizer::new(bpe);
    let split = Sequence::new(vec![
        PreTokenizerWrapper::Digits(Digits::new(true)),
        PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, true)),
    ]);
    tokenizer.with_pre_tokenizer(Some(PreTokenizerWrapper::Sequence(split)));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    let control = |i: usize| types.get(i) == Some(&3);
    let special: Vec<AddedToken> = tokens
        .iter()
        .enumerate()
        .filter(|&(i, _)| control(i))
        .map(|(_, t)| AddedToken::from(t.to_string(), true).normalized(false))
        .collect();
    tokenizer.add_special_tokens(&special);
    let bytes_of = byte_of_char();
    let text = tokens.iter().enumerate().map(|(i, t)| display_token(t, control(i), &bytes_of)).collect();
    Ok((tokenizer, text))
}

/// SmolLM2 with a key/value cache: running a text that starts with the same
/// tokens as the previous one reuses their rows (typing at the end computes
/// only the new tokens; an edit in the middle recomputes from there on).
pub struct SmolLm2Session {
    model: SmolLm2,
    last: Option<Last>,
    reused: usize,
}

struct Last {
    trace: ModelTrace,
    logits: Vec<f32>,
}

impl SmolLm2Session {
    pub fn new(model: SmolLm2) -> SmolLm2Session {
        SmolLm2Session { model, last: None, reused: 0 }
    }

    pub fn model(&self) -> &SmolLm2 {
        &self.model
    }

    pub fn into_model(self) -> SmolLm2 {
        self.model
    }

    /// Forgets the cache.
    pub fn clear(&mut self) {
        self.last = None;
        self.reused = 0;
    }

    /// How many tokens of the last run came from the cache.
    pub fn reused_tokens(&self) -> usize {
        self.reused
    }

    /// Threads the last run computed on ([`SmolLm2::threads_for`] its new
    /// tokens; 1 when it computed nothing).
    pub fn threads(&self) -> usize {
        self.last.as_ref().map_or(1, |l| self.model.threads_for(l.trace.tokens.len() - self.reused))
    }

    pub fn run(&mut self, text: &str) -> Result<&ModelTrace> {
        self.run_with_temperature(text, 1.0)
    }

    /// The trace of the latest successful run (None after [`Self::clear`] or
    /// an error).
    pub fn latest(&self) -> Option<&ModelTrace> {
        self.last.as_ref().map(|l| &l.trace)
    }

    /// As [`SmolLm2::run_with_temperature`], reusing the longest common
    /// prefix of token ids with the previous run. After an error the cache
    /// may be empty (the next run then computes everything). The trace is
    /// lent, not copied: it stays here as the next run's cache.
    pub fn run_with_temperature(&mut self, text: &str, temperature: f32) -> Result<&ModelTrace> {
        check_temperature(temperature)?;
        let t = self.model.tokenize(text)?;
        let old: &[u32] = self.last.as_ref().and_then(|l| l.trace.token_ids.as_deref()).unwrap_or(&[]);
        let common = old.iter().zip(&t.ids).take_while(|(a, b)| a == b).count();
        if common == t.ids.len() && common == old.len() {
            // Same tokens (e.g. only the temperature changed): nothing to compute.
            let last = self.last.as_mut().expect("old ids come from `last`");
            last.trace.notice = t.notice;
            last.trace.top_next = Some(self.model.top_next(&last.logits, temperature, TOP_K));
            self.reused = common;
            return Ok(&last.trace);
        }
        // The logits of the last token are only kept for the last position,
        // so at least that token is always recomputed.
        let keep = common.min(t.ids.len() - 1);
        let past: Vec<LayerTrace> = match self.last.take() {
            Some(l) if keep == l.trace.tokens.len() => l.trace.layers,
            Some(l) if keep > 0 => l.trace.layers.into_iter().map(|x| truncate(x, keep)).collect(),
            _ => Vec::new(),
        };
        let (mut layers, logits) = self.model.forward(&t.ids, past)?;
        let room = ROOM.min(MAX_TOKENS - t.ids.len());
        for l in &mut layers {
            make_room(l, room);
        }
        let trace = self.model.trace(t, layers, &logits, temperature);
        self.reused = keep;
        Ok(&self.last.insert(Last { trace, logits }).trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpermute_turns_pairs_into_halves() {
        // GGUF rows (per head of 4): 0 1 2 3 hold x0 x2 x1 x3 in HF terms.
        assert_eq!(unpermute_order(1, 4), vec![0, 2, 1, 3]);
        assert_eq!(unpermute_order(2, 4)[4..], [4, 6, 5, 7]);
    }

    #[test]
    fn rope_rotates_halves_and_keeps_position_zero() {
        let rope = Rope::new(4, 10000.0);
        let mut x = Matrix::from_rows(&[[1.0, 2.0, 3.0, 4.0], [1.0, 0.0, 0.0, 0.0]]);
        rope.apply(&mut x, 4, 0);
        assert_eq!(x.row(0), &[1.0, 2.0, 3.0, 4.0]);
        // Position 1, frequency 1 for the first pair: (1, 0) turns by 1 radian.
        assert!((x[(1, 0)] - 1f32.cos()).abs() < 1e-6 && (x[(1, 2)] - 1f32.sin()).abs() < 1e-6);
    }

    #[test]
    fn byte_level_tokens_display_as_text() {
        let b = byte_of_char();
        assert_eq!(display_token("Ġcapital", false, &b), " capital");
        assert_eq!(display_token("Ċ", false, &b), "\n");
        // "é" is C3 A9, written Ã© in the byte alphabet.
        assert_eq!(display_token("Ã©", false, &b), "é");
        // A lone lead byte of an emoji.
        assert_eq!(display_token("ĠðŁ", false, &b), " <0xF0><0x9F>");
        assert_eq!(display_token("<|im_start|>", true, &b), "<|im_start|>");
    }

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
