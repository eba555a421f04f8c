//! Text → token ids with the Hugging Face `tokenizers` crate, built from
//! what a checkpoint ships: `tokenizer.json`, GPT-2's `vocab.json` and
//! `merges.txt`, or the vocabulary in a GGUF file's metadata ([`gguf`]).
//!
//! Each token is also shown as text a reader recognises ([`Shown`]): the
//! byte-level alphabet decoded (`Ġcapital` is " capital"), SentencePiece's
//! `▁` as a space, WordPiece's pieces as they are.

pub mod gguf;

use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use tokenizers::models::bpe::BPE;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::processors::template::TemplateProcessing;
use tokenizers::{AddedToken, Tokenizer, TruncationParams};

/// One text, tokenized as the model sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    /// Each token as shown ([`Shown`]).
    pub tokens: Vec<String>,
    /// Each token as the `tokenizers` library names it (`Ġcapital`, `▁the`, `##ing`).
    pub pieces: Vec<String>,
    pub type_ids: Vec<u32>,
    /// True when the text had more tokens than fit and was cut.
    pub truncated: bool,
}

/// How a vocabulary's pieces are written, and so how they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// As they are (WordPiece: `[CLS]`, `##ing`).
    AsIs,
    /// GPT-2's byte-level alphabet: decoded to text, a byte that is only
    /// part of a character written `<0xF0>`.
    ByteLevel,
    /// SentencePiece: `▁` is a space.
    Metaspace,
}

/// A model's tokenizer and how its tokens are shown.
#[derive(Clone)]
pub struct TextTokenizer {
    inner: Tokenizer,
    shown: Shown,
    /// Ids of special tokens (shown as written).
    special: HashSet<u32>,
    /// The token a text starts from when it has none, and the tokens that
    /// end a generation (as the checkpoint names them; [`Self::with_ends`]).
    start: Option<u32>,
    ends: Vec<u32>,
}

impl std::fmt::Debug for TextTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextTokenizer").field("shown", &self.shown).finish_non_exhaustive()
    }
}

impl TextTokenizer {
    /// From `tokenizer.json`, cutting every encoding to `max_tokens` (special
    /// tokens included) if given, and never padding: a single text needs no
    /// padding, and a padded one would change a mean-pooled embedding.
    pub fn from_json(json: &[u8], max_tokens: Option<usize>) -> Result<TextTokenizer> {
        let mut tokenizer = Tokenizer::from_bytes(json).map_err(|e| {
            Error::ModelFile(format!(
                "tokenizer.json could not be read as a Hugging Face tokenizer: {e}"
            ))
        })?;
        tokenizer.with_padding(None);
        let truncation =
            max_tokens.map(|max_length| TruncationParams { max_length, ..Default::default() });
        tokenizer.with_truncation(truncation).map_err(|e| {
            Error::ModelFile(format!("tokenizer.json: cannot cut to {max_tokens:?} tokens: {e}"))
        })?;
        let value: serde_json::Value = serde_json::from_slice(json).unwrap_or_default();
        Ok(TextTokenizer::new(tokenizer, shown_by(&value["decoder"])))
    }

    /// From GPT-2's `vocab.json` and `merges.txt` (what GPT2TokenizerFast
    /// builds from them: byte-level BPE, `<|endoftext|>` special).
    pub fn from_vocab_and_merges(vocab_json: &[u8], merges_txt: &[u8]) -> Result<TextTokenizer> {
        let vocab: HashMap<String, u32> = serde_json::from_slice(vocab_json)
            .map_err(|e| Error::ModelFile(format!("vocab.json is not a vocabulary: {e}")))?;
        let text = std::str::from_utf8(merges_txt)
            .map_err(|_| Error::ModelFile("merges.txt is not UTF-8 text".into()))?;
        let merges = text
            .lines()
            .filter(|l| !l.starts_with("#version") && !l.trim().is_empty())
            .map(|l| l.split_once(' ').map(|(a, b)| (a.to_string(), b.to_string())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                Error::ModelFile("merges.txt has a line that is not two tokens".into())
            })?;
        let bpe = BPE::builder()
            .vocab_and_merges(vocab.into_iter().collect::<tokenizers::models::bpe::Vocab>(), merges)
            .build()
            .map_err(|e| {
                Error::ModelFile(format!("vocab.json and merges.txt do not make a BPE: {e}"))
            })?;
        let mut tokenizer = Tokenizer::new(bpe);
        tokenizer.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
        tokenizer.with_decoder(Some(ByteLevel::default()));
        if tokenizer.token_to_id("<|endoftext|>").is_some() {
            tokenizer.add_special_tokens(&[AddedToken::from("<|endoftext|>", true)]);
        }
        Ok(TextTokenizer::new(tokenizer, Shown::ByteLevel))
    }

    pub(crate) fn new(inner: Tokenizer, shown: Shown) -> TextTokenizer {
        let special = inner
            .get_added_tokens_decoder()
            .into_iter()
            .filter(|(_, t)| t.special)
            .map(|(id, _)| id)
            .collect();
        TextTokenizer { inner, shown, special, start: None, ends: Vec::new() }
    }

    /// Sets the start token and the end-of-text tokens, keeping those inside
    /// the vocabulary; without a stated end, `<|endoftext|>` where the
    /// vocabulary has it (GPT-2's convention).
    pub fn with_ends(mut self, start: Option<u32>, ends: &[u32]) -> TextTokenizer {
        let n = self.vocab_size() as u32;
        self.start = start.filter(|&s| s < n);
        self.ends = ends.iter().copied().filter(|&e| e < n).collect();
        if self.ends.is_empty() {
            self.ends.extend(self.inner.token_to_id("<|endoftext|>"));
        }
        self
    }

    /// The token a generation from an empty text starts from.
    pub fn start_token(&self) -> Option<u32> {
        self.start.or_else(|| self.ends.first().copied())
    }

    /// Whether `id` ends a generation.
    pub fn is_end(&self, id: u32) -> bool {
        self.ends.contains(&id)
    }

    /// The text of `ids`, special tokens left out: the pieces' bytes joined
    /// (byte-level BPE), `▁` as a space and `<0xNN>` as its byte
    /// (SentencePiece, whose first space is the one it adds), WordPiece's
    /// `##` joined to the word before. Written here rather than through the
    /// `tokenizers` decoders, whose code would weigh on the worker's wasm.
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        let mut bytes = Vec::new();
        for &id in ids.iter().filter(|id| !self.special.contains(id)) {
            let piece = self.inner.id_to_token(id).ok_or_else(|| {
                Error::Tokenizer(format!("token id {id} is outside the vocabulary"))
            })?;
            match self.shown {
                Shown::ByteLevel => bytes.extend(gguf::byte_level_bytes(&piece)),
                Shown::Metaspace => match byte_fallback(&piece) {
                    Some(b) => bytes.push(b),
                    None => bytes.extend(piece.replace('\u{2581}', " ").bytes()),
                },
                Shown::AsIs => match piece.strip_prefix("##") {
                    Some(rest) => bytes.extend(rest.bytes()),
                    None => {
                        if !bytes.is_empty() {
                            bytes.push(b' ');
                        }
                        bytes.extend(piece.bytes());
                    }
                },
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        Ok(match self.shown {
            Shown::Metaspace => text.strip_prefix(' ').unwrap_or(&text).to_string(),
            _ => text.into_owned(),
        })
    }

    /// Adds `bos` (an id in the vocabulary) before every text.
    pub(crate) fn with_bos(mut self, bos: u32) -> Result<TextTokenizer> {
        let piece = self.inner.id_to_token(bos).ok_or_else(|| {
            Error::ModelFile(format!("the start token id {bos} is outside the vocabulary"))
        })?;
        let template = TemplateProcessing::builder()
            .try_single(format!("{piece}:0 $A:0"))
            .and_then(|b| {
                b.special_tokens(vec![(piece.clone(), bos)]).build().map_err(|e| e.to_string())
            })
            .map_err(|e| Error::ModelFile(format!("cannot add the start token {piece:?}: {e}")))?;
        self.inner.with_post_processor(Some(template));
        Ok(self)
    }

    /// Tokenizes `text` with the model's special tokens ([CLS] … [SEP], a BOS).
    pub fn encode(&self, text: &str) -> Result<Encoded> {
        let encoding = self
            .inner
            .encode(text, true)
            .map_err(|e| Error::Tokenizer(format!("could not tokenize the text: {e}")))?;
        let ids = encoding.get_ids().to_vec();
        let pieces = encoding.get_tokens().to_vec();
        let tokens = ids.iter().zip(&pieces).map(|(&id, p)| self.show(id, p)).collect();
        Ok(Encoded {
            ids,
            tokens,
            pieces,
            type_ids: encoding.get_type_ids().to_vec(),
            truncated: !encoding.get_overflowing().is_empty(),
        })
    }

    /// Entries in the vocabulary, added tokens included.
    /// The `tokenizers` tokenizer itself, for what this wrapper does not
    /// offer (a piece's id, decoding ids back into text).
    pub fn inner(&self) -> &Tokenizer {
        &self.inner
    }

    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }

    /// How token `id` is shown.
    pub fn token_text(&self, id: u32) -> Option<String> {
        self.inner.id_to_token(id).map(|p| self.show(id, &p))
    }

    fn show(&self, id: u32, piece: &str) -> String {
        match self.shown {
            _ if self.special.contains(&id) => piece.to_string(),
            Shown::AsIs => piece.to_string(),
            Shown::ByteLevel => gguf::display_byte_level(piece),
            Shown::Metaspace => piece.replace('\u{2581}', " "),
        }
    }
}

/// The byte a SentencePiece byte-fallback piece (`<0xE2>`) stands for.
fn byte_fallback(piece: &str) -> Option<u8> {
    let hex = piece.strip_prefix("<0x")?.strip_suffix('>')?;
    (hex.len() == 2).then(|| u8::from_str_radix(hex, 16).ok()).flatten()
}

/// How `tokenizer.json`'s decoder says its pieces are written.
fn shown_by(decoder: &serde_json::Value) -> Shown {
    match decoder["type"].as_str() {
        Some("ByteLevel") => Shown::ByteLevel,
        Some("Metaspace") => Shown::Metaspace,
        Some("Replace") if decoder["pattern"]["String"].as_str() == Some("\u{2581}") => {
            Shown::Metaspace
        }
        Some("Sequence") => decoder["decoders"]
            .as_array()
            .into_iter()
            .flatten()
            .map(shown_by)
            .find(|s| *s != Shown::AsIs)
            .unwrap_or(Shown::AsIs),
        _ => Shown::AsIs,
    }
}
