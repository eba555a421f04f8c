//! What every decoder shares: the loop over blocks with the key/value
//! cache, the next-token distribution, the tokens, a helper thread. Each
//! family ([`crate::models::llama`], [`crate::models::gpt2`],
//! [`crate::models::gemma3`]) says only what its embedding, its blocks and
//! its output compute, as a [`Net`].
//!
//! ```text
//!   h = embed(ids)                                  family
//!   for each block:  (LayerTrace, h) = block(h)     family; attention through the cache (parts::attend_cached)
//!   logits = output(h_last)                         family
//!   top_next = softmax(logits / T), k largest       here
//! ```
//!
//! Decoding is incremental: [`DecoderSession`] keeps the trace of the last
//! text and, under the causal mask, reuses every row for the tokens both
//! texts share at the start; only the rest is computed.

pub mod cache;
pub mod generate;
mod layered;
pub mod parts;

pub use crate::models::sampling::{self, Sampling, Written};
pub use cache::DecoderSession;

use crate::attention::Mask;
use crate::error::{Error, Result};
use crate::formats::tokenizer::TextTokenizer;
use crate::kernels::quant::QMatrix;
use crate::models::two_threads::{self, BoxedHelper, Helper, Shard};
use crate::tensor::Matrix;
use crate::trace::{LayerTrace, ModelInfo, ModelTrace, KEEP_WEIGHTS_UP_TO};
use parts::Products;

/// Longest input in tokens of any decoder (shorter where its context is):
/// past [`KEEP_WEIGHTS_UP_TO`] the trace keeps each layer's rows and every
/// head's sums rather than its n × n S and A, so memory grows with n, but
/// a run still takes seconds per thousand tokens.
pub const MAX_TOKENS: usize = 2048;

/// How many next tokens `top_next` lists.
pub const TOP_K: usize = 5;

/// Runs of at least this many new tokens report each block as it is done
/// ([`reporting_blocks`]): they take a second or more.
pub const REPORT_FROM: usize = KEEP_WEIGHTS_UP_TO;

/// Told (blocks done, blocks in all, tokens of the text) after each block of a long run.
type OnBlock = Box<dyn Fn(usize, usize, usize)>;

thread_local! {
    /// The [`OnBlock`] of the [`reporting_blocks`] under way, if any.
    static ON_BLOCK: std::cell::RefCell<Option<OnBlock>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `on_block(done, of, tokens)` called after each block of a
/// decoder run that computes at least [`REPORT_FROM`] tokens (not counting
/// those a key/value cache gives; `tokens` is the whole text's): seconds
/// at 1,000 tokens, in a worker the page cannot see into, so the page shows
/// how far the run is.
pub fn reporting_blocks<T>(
    on_block: impl Fn(usize, usize, usize) + 'static,
    f: impl FnOnce() -> T,
) -> T {
    ON_BLOCK.with(|o| *o.borrow_mut() = Some(Box::new(on_block)));
    let out = f();
    ON_BLOCK.with(|o| *o.borrow_mut() = None);
    out
}

/// Reports block `done` of `of` of a run over `tokens` in all, `new` of them computed now.
fn report_block(done: usize, of: usize, tokens: usize, new: usize) {
    if new >= REPORT_FROM {
        ON_BLOCK.with(|o| o.borrow().as_ref().map(|on_block| on_block(done, of, tokens)));
    }
}

/// The sizes a view needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_model: usize,
    pub d_head: usize,
    pub vocab_size: usize,
}

/// The rows a block runs on: their first position, the cached positions
/// before them, and whether only the last row goes on.
pub struct BlockRows<'p> {
    pub start: usize,
    pub past: Option<&'p mut LayerTrace>,
    pub last_only: bool,
}

/// One family's computation.
pub trait Net: Send + Sync {
    fn shape(&self) -> &Shape;

    /// The embeddings of tokens `ids` at positions `start ..` (n × d_model).
    fn embed(&self, ids: &[u32], start: usize) -> Result<Matrix>;

    /// E = block `l`'s norm before its attention, of its incoming rows `h`:
    /// what [`Net::block`] computes first (a long text's trace keeps h and
    /// computes E again from it when a view asks).
    fn attention_input(&self, l: usize, h: &Matrix) -> Matrix;

    /// Block `l` on new rows `h` (positions `rows.start ..`), attending to
    /// the cached keys and values of `rows.past` (the first `start`
    /// positions) and to their own ([`parts::attend_cached`]), with `edit`,
    /// if any, applied to the heads' outputs [Z_1 | … | Z_H] before W_O (head
    /// knockout and activation patching, `crate::analysis`). Returns the
    /// block's trace for the new rows and its output: for every new row, or
    /// with `rows.last_only` for the last one alone (the trace stops before
    /// the feed-forward, so after the last block only the last position,
    /// which predicts the next token, needs it).
    fn block_rows(
        &self,
        l: usize,
        h: &Matrix,
        rows: BlockRows<'_>,
        mm: &mut Products,
        edit: Option<&dyn Fn(&mut Matrix)>,
    ) -> (LayerTrace, Matrix);

    /// [`Net::block_rows`] unedited.
    fn block(
        &self,
        l: usize,
        h: &Matrix,
        start: usize,
        past: Option<&mut LayerTrace>,
        last_only: bool,
        mm: &mut Products,
    ) -> (LayerTrace, Matrix) {
        self.block_rows(l, h, BlockRows { start, past, last_only }, mm, None)
    }

    /// The next token's logits from the last position's output.
    fn logits(&self, h_last: &Matrix, mm: &mut Products) -> Vec<f32>;

    /// Every weight matrix, block by block in the order a block multiplies
    /// by them ([`Net::matrices_per_block`] each), then the output matrix.
    fn matrices(&self) -> Vec<&QMatrix>;

    fn matrices_per_block(&self) -> usize;

    /// Of a block's [`Net::matrices_per_block`], how many its attention
    /// multiplies by: the feed-forward's follow, and a helper numbers them so.
    fn attention_matrices(&self) -> usize;

    /// Block `l` on every row of `h` from position 0 without a cache, with
    /// `edit` applied to the heads' outputs before W_O.
    fn block_edited(
        &self,
        l: usize,
        h: &Matrix,
        edit: &dyn Fn(&mut Matrix),
        mm: &mut Products,
    ) -> (LayerTrace, Matrix) {
        let rows = BlockRows { start: 0, past: None, last_only: false };
        self.block_rows(l, h, rows, mm, Some(edit))
    }

    /// Block `l` on runs of `n` rows of `h`, each run its own text from
    /// position 0 (attention within the run). With `edits`, `h` is one run
    /// and the output has a run per edit, that edit applied to the heads'
    /// outputs before W_O; with `last_only`, each run's last row alone.
    /// None where the family has no such hook.
    fn block_runs(
        &self,
        _l: usize,
        _h: &Matrix,
        _n: usize,
        _edits: &[&dyn Fn(&mut Matrix)],
        _last_only: bool,
        _mm: &mut Products,
    ) -> Option<Matrix> {
        None
    }

    /// Block `l`'s output from its residual E + ΔE (rows of the trace's
    /// `residual`): what follows the attention, its products numbered from
    /// the block's first after [`Net::attention_matrices`]. None where the
    /// family has no such hook.
    fn after_attention(&self, _l: usize, _residual: &Matrix, _mm: &mut Products) -> Option<Matrix> {
        None
    }

    /// Block `l`'s W_O, where the family exposes it.
    fn attention_output(&self, _l: usize) -> Option<&QMatrix> {
        None
    }
}

/// Which checkpoint a decoder is: its id and name on the page, its length limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub id: String,
    pub name: String,
    pub max_tokens: usize,
}

/// The text as tokens, cut to the model's limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Tokens {
    pub ids: Vec<u32>,
    /// How each token is shown: its text, special tokens as written
    /// (`<|im_start|>`), bytes that are only part of a character as `<0xF0>`.
    pub tokens: Vec<String>,
    /// Each token as the `tokenizers` library names it (`Ġcapital`).
    pub pieces: Vec<String>,
    /// Set when the text was cut.
    pub notice: Option<String>,
}

/// A decoder with its tokenizer, weights kept as the file stores them.
pub struct Decoder {
    identity: Identity,
    tokenizer: TextTokenizer,
    net: Box<dyn Net>,
    /// Another thread holding a copy of the second part of every matrix's
    /// rows ([`Decoder::shard`]), and the fewest new tokens a run gives it.
    helper: Option<(BoxedHelper, usize)>,
    /// Why the model runs on one thread where a second one was asked for.
    alone: Option<String>,
    /// Longer texts let go of their heads' S, A and Z ([`KEEP_WEIGHTS_UP_TO`])
    /// and of their layers' E and E + ΔE (kept: h and ΔE).
    keep_weights_up_to: usize,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder")
            .field("identity", &self.identity)
            .field("shape", self.net.shape())
            .finish_non_exhaustive()
    }
}

impl Decoder {
    pub fn new(identity: Identity, tokenizer: TextTokenizer, net: Box<dyn Net>) -> Decoder {
        Decoder {
            identity,
            tokenizer,
            net,
            helper: None,
            alone: None,
            keep_weights_up_to: KEEP_WEIGHTS_UP_TO,
        }
    }

    /// Texts longer than `n` tokens let go of their heads' S, A and Z
    /// ([`LayerTrace::let_go_of_weights`]); [`KEEP_WEIGHTS_UP_TO`] unless set.
    pub fn set_keep_weights_up_to(&mut self, n: usize) {
        self.keep_weights_up_to = n;
    }

    /// The same model under another id, name and length limit.
    pub fn with_identity(mut self, identity: Identity) -> Decoder {
        self.identity = identity;
        self
    }

    pub fn shape(&self) -> &Shape {
        self.net.shape()
    }

    pub fn info(&self) -> ModelInfo {
        let s = self.net.shape();
        ModelInfo {
            id: self.identity.id.clone(),
            name: self.identity.name.clone(),
            n_layers: s.n_layers,
            n_heads: s.n_heads,
            n_kv_heads: s.n_kv_heads,
            d_model: s.d_model,
            d_head: s.d_head,
            mask: Mask::Causal,
            max_tokens: self.identity.max_tokens,
        }
    }

    /// For a [`Helper`] on another thread: a copy of every weight matrix's
    /// rows after [`helper::own_rows`], in [`Net::matrices`] order. This
    /// model keeps all its rows, so that it can still run alone.
    pub fn shard(&self) -> Shard {
        Shard::of(self)
    }

    /// Every weight matrix whose products a helper can share, in the
    /// numbering of [`Decoder::shard`]: each block's, then the output matrix.
    pub fn shared_matrices(&self) -> Vec<&QMatrix> {
        self.net.matrices()
    }

    /// Shares the products of runs of at least `from_tokens` new tokens with
    /// `helper`, which holds [`Decoder::shard`] ([`helper::products`]); None
    /// runs alone. The results are the same bit for bit.
    pub fn set_helper(&mut self, helper: Option<BoxedHelper>, from_tokens: usize) {
        self.helper = helper.map(|h| (h, from_tokens.max(1)));
        self.alone = None;
    }

    /// Runs on one thread, because a helper could not be had (`why`, which
    /// [`Decoder::alone`] then says).
    pub fn set_alone(&mut self, why: String) {
        self.helper = None;
        self.alone = Some(why);
    }

    /// Why the model runs on one thread although a second was asked for: a
    /// helper that could not start, or one that stopped; None otherwise.
    pub fn alone(&self) -> Option<String> {
        self.alone.clone().or_else(|| self.helper.as_ref().and_then(|(h, _)| h.lost()))
    }

    /// Threads a run of `new_tokens` tokens computes on.
    pub fn threads_for(&self, new_tokens: usize) -> usize {
        match &self.helper {
            Some((helper, from)) if new_tokens >= *from && helper.ready() => 2,
            _ => 1,
        }
    }

    /// Whether another thread can compute part of the products.
    pub fn has_helper(&self) -> bool {
        self.helper.is_some()
    }

    /// How token `id` is shown (see [`Tokens::tokens`]).
    pub fn token_text(&self, id: u32) -> Option<String> {
        self.tokenizer.token_text(id)
    }

    /// Tokenizes raw text as the model's tokenizer does by default (a start
    /// token where the checkpoint adds one; no chat template); special-token
    /// strings the user types (`<|im_start|>`) become those tokens. No token
    /// at all is an error: a decoder with no token has nothing to attend to
    /// and nothing to predict from.
    pub fn tokenize(&self, text: &str) -> Result<Tokens> {
        let enc = self.tokenizer.encode(text)?;
        let (mut ids, mut tokens, mut pieces) = (enc.ids, enc.tokens, enc.pieces);
        if ids.is_empty() {
            return Err(Error::Invalid(format!(
                "Type some text: {} predicts the next token from the ones before it, and with no token there is nothing to attend to.",
                self.identity.name
            )));
        }
        let max = self.identity.max_tokens;
        let mut notice = None;
        if ids.len() > max {
            notice =
                Some(format!("The text has {} tokens; only the first {max} are used.", ids.len()));
            ids.truncate(max);
            tokens.truncate(max);
            pieces.truncate(max);
        }
        Ok(Tokens { ids, tokens, pieces, notice })
    }

    /// All layers and heads for `text`, and the next-token distribution at temperature 1.
    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        self.run_with_temperature(text, 1.0)
    }

    /// As [`Decoder::run`], with `top_next` = softmax(logits / temperature).
    pub fn run_with_temperature(&self, text: &str, temperature: f32) -> Result<ModelTrace> {
        check_temperature(temperature)?;
        let t = self.tokenize(text)?;
        let (layers, logits) = self.forward(&t.ids, Vec::new(), 0)?;
        Ok(self.trace(t, layers, &logits, temperature))
    }

    /// Runs `ids[past_len..]` on top of `past`, the layers of `ids[..past_len]`
    /// (their rows never change under the causal mask; empty for none).
    /// Returns the layers of all of `ids` and the logits after the last one,
    /// each layer with storage for `room` more positions ([`cache::make_room`]).
    /// `past` is consumed layer by layer, so an extension holds little more
    /// than one trace at a time.
    pub fn forward(
        &self,
        ids: &[u32],
        past: Vec<LayerTrace>,
        room: usize,
    ) -> Result<(Vec<LayerTrace>, Vec<f32>)> {
        let s = self.net.shape();
        let max = self.identity.max_tokens;
        let start = past.first().map_or(0, |l| l.delta.rows);
        if ids.len() <= start || ids.len() > max {
            return Err(Error::Invalid(format!(
                "{} tokens after {start} cached ones: need 1 to {max} tokens in all",
                ids.len().saturating_sub(start)
            )));
        }
        if !past.is_empty() && past.len() != s.n_layers {
            return Err(Error::Invalid("cached layers do not match the model".into()));
        }
        let new = &ids[start..];
        if let Some(&id) = new.iter().find(|&&id| id as usize >= s.vocab_size) {
            return Err(Error::Invalid(format!(
                "token id {id} is outside the vocabulary of {}",
                s.vocab_size
            )));
        }
        let mut h = self.net.embed(new, start)?;
        let mut layers = Vec::with_capacity(s.n_layers);
        let mut past = past.into_iter();
        let helper = match &self.helper {
            Some((helper, from)) if new.len() >= *from => Some(helper.as_ref() as &dyn Helper),
            _ => None,
        };
        let per_block = self.net.matrices_per_block();
        let long = ids.len() > self.keep_weights_up_to;
        for l in 0..s.n_layers {
            let mut before = past.next();
            let mut sums_so_far = Vec::new();
            if let Some(b) = before.as_mut() {
                if long {
                    // The past lets go of its S, A, Z, E and E + ΔE before
                    // the block adds rows: a short one would otherwise grow
                    // every head's S and A to the whole text first.
                    b.let_go_of_weights();
                    b.let_go_of_input();
                }
                // Storage for the new rows now, exactly: a Vec would double.
                cache::make_room_for(b, new.len(), room);
                if long {
                    sums_so_far = b.summaries.take().unwrap_or_default();
                }
            }
            let mut mm = Products::new(helper, l * per_block);
            let mut block =
                || self.net.block(l, &h, start, before.as_mut(), l + 1 == s.n_layers, &mut mm);
            // A long text sums up each head as it goes (parts::summing_heads).
            let ((mut part, out), sums) =
                if long { parts::summing_heads(sums_so_far, block) } else { (block(), Vec::new()) };
            // The block's incoming rows are kept (moved, not copied): they give E and E + ΔE again.
            part.stream = Some(std::mem::replace(&mut h, out));
            if sums.len() == part.attention.heads.len() {
                match before.as_mut() {
                    Some(b) => b.summaries = Some(sums),
                    None => part.summaries = Some(sums),
                }
            }
            let mut layer = match before {
                Some(b) => cache::join(b, part),
                None => part,
            };
            if long {
                layer.let_go_of_weights();
                layer.let_go_of_input();
            }
            // Made now, while the storage the block just let go of can take it.
            cache::make_room(&mut layer, room);
            layers.push(layer);
            report_block(l + 1, s.n_layers, ids.len(), new.len());
        }
        let last = h.rows_range(h.rows - 1, 1);
        let logits = self.net.logits(&last, &mut Products::new(helper, s.n_layers * per_block));
        Ok((layers, logits))
    }

    /// E of layer `l` of a trace this model made: held, or computed again
    /// from the layer's h.
    pub fn layer_input<'a>(
        &self,
        l: usize,
        layer: &'a LayerTrace,
    ) -> Option<std::borrow::Cow<'a, Matrix>> {
        layer.input_or(|h| self.net.attention_input(l, h))
    }

    /// The `k` most likely next tokens at `temperature`, shown as tokens.
    pub fn top_next(&self, logits: &[f32], temperature: f32, k: usize) -> Vec<(String, f32)> {
        top_k(logits, temperature, k)
            .into_iter()
            .map(|(id, p)| (self.token_text(id).unwrap_or_else(|| "?".into()), p))
            .collect()
    }

    pub(crate) fn trace(
        &self,
        t: Tokens,
        layers: Vec<LayerTrace>,
        logits: &[f32],
        temperature: f32,
    ) -> ModelTrace {
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

impl two_threads::Shares for Decoder {
    fn shared(&self) -> Vec<two_threads::SharedRef<'_>> {
        self.shared_matrices().into_iter().map(two_threads::SharedRef::Quant).collect()
    }
    fn limits(&self) -> (String, usize, usize) {
        (self.identity.name.clone(), self.identity.max_tokens, self.net.shape().n_layers)
    }
    fn share_with(&mut self, helper: BoxedHelper) {
        self.set_helper(Some(helper), 1);
    }
    fn run_alone(&mut self, why: String) {
        self.set_alone(why);
    }
}

pub(crate) fn check_temperature(t: f32) -> Result<()> {
    if t.is_finite() && t > 0.0 {
        Ok(())
    } else {
        Err(Error::Invalid(format!("the temperature must be a positive number, not {t}")))
    }
}

/// Token ids ([`crate::tensor::top_k`]) and probabilities of the `k` largest
/// entries of softmax(logits / T), computed in f64 so that small
/// probabilities keep their digits.
pub fn top_k(logits: &[f32], temperature: f32, k: usize) -> Vec<(u32, f32)> {
    let t = temperature as f64;
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    // The normaliser's terms in f32 with our exp, which vectorizes, where
    // f64's exp is a call per logit: the sum is at least 1 (the largest
    // term), so their rounding moves it by about 1e-7 relative. Added up in f64.
    let terms: Vec<f32> =
        logits.iter().map(|&z| crate::tensor::exp((z - max) / temperature)).collect();
    let sum: f64 = terms.iter().map(|&e| e as f64).sum();
    let max = max as f64;
    crate::tensor::top_k(logits, k)
        .into_iter()
        .map(|i| (i, (((logits[i as usize] as f64 - max) / t).exp() / sum) as f32))
        .collect()
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
