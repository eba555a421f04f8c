//! Translating a text: tokenize, encode once, then decode greedily one target
//! token at a time, keeping everything a view needs.
//!
//! The decoding follows the configuration the models ship with
//! (`config.intgemm8bitalpha.yml`): beam size 1, so each step takes the most
//! likely token; the source gets Marian's end-of-sentence token `</s>`; the
//! output ends with `</s>`, or after ⌈2.5 · n⌉ tokens for a source of n
//! tokens (`max-length-factor: 2.5`), which is where a model that keeps
//! repeating itself is stopped. As in Marian, `<unk>` is never chosen. Only
//! the words of the sentence's [`Shortlist`] are scored, as in Bergamot and
//! in the engine the fixtures come from; without one, every word of the
//! vocabulary is, which usually picks the same words but not always (the
//! fixtures' emoji sentence gets an "í" the shortlist rules out).
//!
//! [`Translator::begin`] returns a [`Decoding`] (the source tokens and the
//! encoder's self-attention), [`Translator::step`] adds one target token and
//! returns its [`Step`] (that token's cross-attention in every layer and
//! head), and [`Translator::finish`] assembles the [`Translation`]. The page
//! can show the words appear one by one; [`Translator::translate`] does all
//! three at once.

use super::decoder::RnnTrace;
use super::model::Transformer;
use super::shortlist::Shortlist;
use crate::error::{Error, Result};
use crate::formats::tokenizer::TextTokenizer;
use crate::tensor::{self, Matrix};
use crate::trace::LayerTrace;
use serde::{Deserialize, Serialize};

/// The longest source the model reads at once, in tokens, `</s>` included:
/// Bergamot's runtime, for which these models were made, cuts longer
/// sentences there (`max-length-break: 128`). Longer text is cut with a notice.
pub const MAX_SOURCE_TOKENS: usize = 128;

/// `max-length-factor` of the models' `config.intgemm8bitalpha.yml`.
pub const MAX_LENGTH_FACTOR: f32 = 2.5;

/// How many of the most likely next tokens a [`Step`] lists.
const TOP: usize = 5;

/// The two models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    EnPt,
    PtEn,
}

impl Direction {
    pub const ALL: [Direction; 2] = [Direction::EnPt, Direction::PtEn];

    /// The id in URLs, in models/manifest.json and as the folder under www/models.
    pub fn slug(self) -> &'static str {
        match self {
            Direction::EnPt => "translate-enpt",
            Direction::PtEn => "translate-pten",
        }
    }

    /// ISO 639-1 codes of the source and target languages.
    pub fn languages(self) -> (&'static str, &'static str) {
        match self {
            Direction::EnPt => ("en", "pt"),
            Direction::PtEn => ("pt", "en"),
        }
    }

    pub fn from_languages(from: &str, to: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.languages() == (from, to))
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::EnPt => "Translate: English → Portuguese",
            Direction::PtEn => "Translate: Portuguese → English",
        }
    }

    /// The model file, under its name in the wheel.
    pub fn model_file(self) -> &'static str {
        match self {
            Direction::EnPt => "model.enpt.intgemm.alphas.bin",
            Direction::PtEn => "model.pten.intgemm.alphas.bin",
        }
    }
}

/// Why the decoding ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// The model produced `</s>`.
    EndOfSentence,
    /// ⌈[`MAX_LENGTH_FACTOR`] · source tokens⌉ tokens without `</s>`.
    LengthLimit,
}

/// The sizes a view needs before a translation arrives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TranslatorInfo {
    pub direction: Direction,
    pub name: String,
    pub encoder_layers: usize,
    pub decoder_layers: usize,
    pub heads: usize,
    pub d_model: usize,
    pub d_head: usize,
    pub vocab: usize,
    pub max_source_tokens: usize,
    pub max_length_factor: f32,
}

/// One target token, as [`Translator::step`] produced it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// 0-based position in the target.
    pub position: usize,
    pub token_id: u32,
    /// The vocabulary piece, e.g. "▁criatura" (or "</s>").
    pub token: String,
    /// Its probability under the model (softmax over the whole vocabulary).
    pub probability: f32,
    /// The most likely tokens with their probabilities, best first.
    pub top: Vec<(String, f32)>,
    /// Per decoder layer, the cross-attention of this token (1 query) over
    /// the source: q from the decoder, K and V from the encoder, the
    /// weights, Σ a·v.
    pub context: Vec<LayerTrace>,
    /// Per decoder layer, the SSRU's forget gate and cell state.
    pub rnn: Vec<RnnTrace>,
    /// Set on the last step.
    pub stop: Option<Stop>,
}

/// A translation under way: the source, encoded once, and the target so far.
#[derive(Clone, Debug)]
pub struct Decoding {
    /// The source pieces as the model reads them, `</s>` last.
    pub source_tokens: Vec<String>,
    pub source_ids: Vec<u32>,
    /// The encoder's self-attention, layer by layer (source × source).
    pub encoder: Vec<LayerTrace>,
    /// Things a reader should know (text cut, unknown pieces, …).
    pub notices: Vec<String>,
    /// The most target tokens this source allows.
    pub max_target_tokens: usize,
    /// The target words scored at each step (None: all of them).
    candidates: Option<Vec<u32>>,
    /// Per decoder layer, K and V of the encoder's output, split into heads.
    keys_values: Vec<(Vec<Matrix>, Vec<Matrix>)>,
    /// Per decoder layer, the SSRU's cell state.
    cells: Vec<Vec<f32>>,
    target_ids: Vec<u32>,
    target_tokens: Vec<String>,
    /// Per decoder layer, the cross-attention of every step so far, one row per step.
    context: Vec<LayerTrace>,
    /// [layer][step].
    rnn: Vec<Vec<RnnTrace>>,
    top: Vec<Vec<(String, f32)>>,
    stop: Option<Stop>,
}

impl Decoding {
    /// The target tokens so far.
    pub fn target_tokens(&self) -> &[String] {
        &self.target_tokens
    }

    /// Set once the last token is out.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }
}

/// A finished translation with every attention that produced it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Translation {
    pub direction: Direction,
    /// The translated text, decoded from the target tokens.
    pub text: String,
    /// Source pieces, `</s>` last.
    pub source_tokens: Vec<String>,
    pub source_ids: Vec<u32>,
    /// Target pieces in the order produced; `</s>` last unless the length limit stopped it.
    pub target_tokens: Vec<String>,
    pub target_ids: Vec<u32>,
    /// The encoder's self-attention per layer (source × source).
    pub encoder: Vec<LayerTrace>,
    /// The decoder's cross-attention per layer: one row per target token, one
    /// column per source token.
    pub context: Vec<LayerTrace>,
    /// [layer][step]: the SSRU's forget gate and cell state.
    pub rnn: Vec<Vec<RnnTrace>>,
    /// [step]: the most likely tokens at each step.
    pub top: Vec<Vec<(String, f32)>>,
    pub stop: Stop,
    pub notices: Vec<String>,
}

impl Translation {
    /// Cross-attention weights of one layer and head (target × source).
    pub fn cross_attention(&self, layer: usize, head: usize) -> Option<&Matrix> {
        Some(&self.context.get(layer)?.attention.heads.get(head)?.weights)
    }

    /// Encoder self-attention weights of one layer and head (source × source).
    pub fn encoder_attention(&self, layer: usize, head: usize) -> Option<&Matrix> {
        Some(&self.encoder.get(layer)?.attention.heads.get(head)?.weights)
    }
}

/// A translation model with its tokenizer, ready for any text.
#[derive(Clone)]
pub struct Translator {
    direction: Direction,
    model: Transformer,
    tokenizer: TextTokenizer,
    shortlist: Option<Shortlist>,
    eos: u32,
    unk: u32,
}

impl std::fmt::Debug for Translator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Translator")
            .field("direction", &self.direction)
            .field("config", &self.model.config)
            .finish_non_exhaustive()
    }
}

impl Translator {
    /// From the bytes of the model file, of `tokenizer.json` and of
    /// `shortlist.bin` (as the browser downloads them). Without a shortlist
    /// every word is scored at every step (see the module's note).
    pub fn from_bytes(
        direction: Direction,
        model: &[u8],
        tokenizer_json: &[u8],
        shortlist: Option<&[u8]>,
    ) -> Result<Translator> {
        let model = Transformer::from_bytes(model)?;
        let shortlist = shortlist.map(Shortlist::from_bytes).transpose()?;
        if let Some(s) = &shortlist {
            if s.n_target > model.config.vocab() {
                return Err(Error::ModelFile(format!(
                    "shortlist.bin lists words up to {}, the model has {}: they do not belong together",
                    s.n_target,
                    model.config.vocab()
                )));
            }
        }
        // `</s>` is added after the tokenizer's pieces, so it may give one fewer.
        let tokenizer = TextTokenizer::from_json(tokenizer_json, Some(MAX_SOURCE_TOKENS - 1))?;
        let id = |piece: &str| {
            tokenizer.inner().token_to_id(piece).ok_or_else(|| {
                Error::ModelFile(format!("tokenizer.json has no `{piece}`: it is not the vocabulary of a Marian SentencePiece model"))
            })
        };
        let (eos, unk) = (id("</s>")?, id("<unk>")?);
        let vocab = tokenizer.vocab_size();
        if vocab != model.config.vocab() {
            return Err(Error::ModelFile(format!(
                "tokenizer.json has {vocab} pieces, the model {}: they do not belong together",
                model.config.vocab()
            )));
        }
        Ok(Translator { direction, model, tokenizer, shortlist, eos, unk })
    }

    /// From a folder holding the model file, `tokenizer.json` and `shortlist.bin`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load_dir(direction: Direction, dir: &std::path::Path) -> Result<Translator> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| {
                Error::ModelFile(format!(
                    "cannot read {} ({e}); run `python3 scripts/fetch_models.py {}` to fetch the translation model",
                    path.display(),
                    direction.slug()
                ))
            })
        };
        Translator::from_bytes(
            direction,
            &read(direction.model_file())?,
            &read("tokenizer.json")?,
            Some(&read("shortlist.bin")?),
        )
    }

    pub fn direction(&self) -> Direction {
        self.direction
    }

    pub fn info(&self) -> TranslatorInfo {
        let c = &self.model.config;
        TranslatorInfo {
            direction: self.direction,
            name: self.direction.name().into(),
            encoder_layers: c.enc_depth,
            decoder_layers: c.dec_depth,
            heads: c.heads,
            d_model: c.dim_emb,
            d_head: c.d_head(),
            vocab: c.vocab(),
            max_source_tokens: MAX_SOURCE_TOKENS,
            max_length_factor: MAX_LENGTH_FACTOR,
        }
    }

    /// The network itself, for views that show its weights.
    pub fn model(&self) -> &Transformer {
        &self.model
    }

    /// The source pieces and ids the model reads for `text` (`</s>` last), and
    /// whether the text had to be cut.
    pub fn tokenize(&self, text: &str) -> Result<(Vec<String>, Vec<u32>, bool)> {
        let encoded = self.tokenizer.encode(text)?;
        let (mut tokens, mut ids) = (encoded.pieces, encoded.ids);
        tokens.push("</s>".into());
        ids.push(self.eos);
        Ok((tokens, ids, encoded.truncated))
    }

    /// Tokenizes and encodes `text`: the start of a step-by-step translation.
    pub fn begin(&self, text: &str) -> Result<Decoding> {
        if text.trim().is_empty() {
            return Err(Error::Invalid("There is nothing to translate: type a sentence.".into()));
        }
        let (source_tokens, source_ids, cut) = self.tokenize(text)?;
        if source_ids.len() < 2 {
            return Err(Error::Invalid(
                "There is nothing to translate: the text has no words the model can read.".into(),
            ));
        }
        let mut notices = Vec::new();
        if cut {
            notices.push(format!(
                "The text was cut to its first {} tokens, the most the model reads at once; the rest is not translated.",
                MAX_SOURCE_TOKENS - 1
            ));
        }
        let unknown = source_ids.iter().filter(|&&id| id == self.unk).count();
        if unknown > 0 {
            notices.push(format!(
                "{unknown} piece{} of the text (emoji, or letters of another script) {} not in the model's vocabulary: the model reads {} as <unk>.",
                if unknown == 1 { "" } else { "s" },
                if unknown == 1 { "is" } else { "are" },
                if unknown == 1 { "it" } else { "each" }
            ));
        }
        let (encoder, memory) = self.model.encode(&source_ids)?;
        let keys_values =
            self.model.decoder.iter().map(|l| l.context.keys_values(&memory)).collect();
        let layers = self.model.decoder.len();
        let max_target_tokens =
            (MAX_LENGTH_FACTOR * source_ids.len() as f32).ceil().max(1.0) as usize;
        let candidates = self.shortlist.as_ref().map(|s| s.select(&source_ids));
        Ok(Decoding {
            candidates,
            source_tokens,
            source_ids,
            encoder,
            notices,
            max_target_tokens,
            keys_values,
            cells: vec![vec![0.0; self.model.config.dim_emb]; layers],
            target_ids: Vec::new(),
            target_tokens: Vec::new(),
            context: Vec::new(),
            rnn: vec![Vec::new(); layers],
            top: Vec::new(),
            stop: None,
        })
    }

    /// Produces the next target token, or `None` once the translation has ended.
    pub fn step(&self, d: &mut Decoding) -> Option<Step> {
        if d.stop.is_some() {
            return None;
        }
        let position = d.target_ids.len();
        let previous = d.target_ids.last().copied();
        // Ids come from this model's own argmax, so the embedding never fails.
        let mut x = self.model.embed(&[previous], position).ok()?;
        let mut context = Vec::with_capacity(self.model.decoder.len());
        let mut rnn = Vec::with_capacity(self.model.decoder.len());
        for ((layer, cell), (k, v)) in
            self.model.decoder.iter().zip(&mut d.cells).zip(&d.keys_values)
        {
            let out = layer.step(&x, cell, k, v);
            context.push(out.context);
            rnn.push(out.rnn);
            x = out.output;
        }
        let mut logits = self.model.logits(&x, d.candidates.as_deref());
        logits[self.unk as usize] = f32::NEG_INFINITY;
        let probabilities = softmax(&logits);
        let token_id = argmax(&logits) as u32;
        let top = self.top(&probabilities);
        let token = self.piece(token_id);
        let stop = if token_id == self.eos {
            Some(Stop::EndOfSentence)
        } else if position + 1 >= d.max_target_tokens {
            Some(Stop::LengthLimit)
        } else {
            None
        };
        if d.context.is_empty() {
            d.context = context.clone();
        } else {
            d.context.iter_mut().zip(&context).for_each(|(all, one)| append_rows(all, one));
        }
        d.rnn.iter_mut().zip(&rnn).for_each(|(all, one)| all.push(one.clone()));
        d.top.push(top.clone());
        d.target_ids.push(token_id);
        d.target_tokens.push(token.clone());
        d.stop = stop;
        Some(Step {
            position,
            token_id,
            token,
            probability: probabilities[token_id as usize],
            top,
            context,
            rnn,
            stop,
        })
    }

    /// The translation once every step has been taken (steps not yet taken are taken here).
    pub fn finish(&self, mut d: Decoding) -> Result<Translation> {
        while self.step(&mut d).is_some() {}
        let stop = d.stop.unwrap_or(Stop::LengthLimit);
        let words: Vec<u32> = d.target_ids.iter().copied().filter(|&id| id != self.eos).collect();
        let text = self.tokenizer.inner().decode(&words, false).map_err(|e| {
            Error::Tokenizer(format!("could not turn the tokens back into text: {e}"))
        })?;
        let mut notices = d.notices;
        if stop == Stop::LengthLimit {
            notices.push(format!(
                "The translation was stopped at {} tokens, {MAX_LENGTH_FACTOR} times the source's {}: the model did not end the sentence (it often repeats itself on such text).",
                d.target_ids.len(),
                d.source_ids.len()
            ));
        }
        Ok(Translation {
            direction: self.direction,
            text,
            source_tokens: d.source_tokens,
            source_ids: d.source_ids,
            target_tokens: d.target_tokens,
            target_ids: d.target_ids,
            encoder: d.encoder,
            context: d.context,
            rnn: d.rnn,
            top: d.top,
            stop,
            notices,
        })
    }

    /// Translates `text` in one go.
    pub fn translate(&self, text: &str) -> Result<Translation> {
        self.finish(self.begin(text)?)
    }

    fn piece(&self, id: u32) -> String {
        self.tokenizer.inner().id_to_token(id).unwrap_or_else(|| format!("#{id}"))
    }

    /// The [`TOP`] most likely pieces (ties: the lower id first).
    fn top(&self, probabilities: &[f32]) -> Vec<(String, f32)> {
        tensor::top_k(probabilities, TOP)
            .into_iter()
            .map(|i| (self.piece(i), probabilities[i as usize]))
            .collect()
    }
}

/// The first index of the largest value, as Marian's greedy search takes it.
fn argmax(xs: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[best] {
            best = i;
        }
    }
    best
}

/// Softmax over the whole vocabulary, with [`tensor::exp`].
fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = tensor::max(logits);
    let e = tensor::loop_constants(tensor::EXP);
    let mut p: Vec<f32> = logits.iter().map(|&l| e.exp(l - max)).collect();
    let sum = tensor::sum(&p);
    p.iter_mut().for_each(|p| *p /= sum);
    p
}

/// Appends the rows of a one-query step to the trace of all steps so far
/// (K and V, the same source for every step, are kept once).
fn append_rows(all: &mut LayerTrace, one: &LayerTrace) {
    all.input.push_rows(&one.input);
    all.delta.push_rows(&one.delta);
    all.residual.push_rows(&one.residual);
    let (a, o) = (&mut all.attention, &one.attention);
    a.concat.push_rows(&o.concat);
    a.q.iter_mut().zip(&o.q).for_each(|(a, o)| a.push_rows(o));
    for (a, o) in a.heads.iter_mut().zip(&o.heads) {
        a.scores.push_rows(&o.scores);
        a.weights.push_rows(&o.weights);
        a.output.push_rows(&o.output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_first_best() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0, f32::NEG_INFINITY]), 1);
        assert_eq!(argmax(&[f32::NEG_INFINITY, -5.0]), 1);
        let p = softmax(&[0.0, 0.0, f32::NEG_INFINITY]);
        assert_eq!(p, vec![0.5, 0.5, 0.0]);
    }

    #[test]
    fn directions_round_trip() {
        for d in Direction::ALL {
            let (from, to) = d.languages();
            assert_eq!(Direction::from_languages(from, to), Some(d));
        }
        assert_eq!(Direction::from_languages("en", "de"), None);
    }
}
