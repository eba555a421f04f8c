//! Speech to text with Whisper, greedily, and the attention of the transcript.
//!
//! The decoder starts from `<|startoftranscript|><|notimestamps|>` (tiny.en
//! knows one language and one task, so no language or task token follows)
//! and appends its most likely token until `<|endoftext|>` or
//! [`MAX_NEW_TOKENS`]. Before each choice the tokens of the checkpoint's
//! `suppress_ids` (config.json) are taken out, and at the first choice also
//! those of `suppress_ids_begin` (a blank and `<|endoftext|>`: a transcript
//! does not start empty), as OpenAI's whisper and CTranslate2 do.
//!
//! The transcript's attention is then that of one run of the decoder over
//! the whole sequence, every token's query against the audio, which is the
//! reference's view too (transformers run once over the tokens chosen).

use super::decoder::Step;
use super::encoder::Encoded;
use super::mel;
use super::model::Whisper;
use crate::attention::MultiHeadTrace;
use crate::error::{Error, Result};
use crate::formats::ctranslate2::Ct2File;
use crate::formats::source::Source;
use crate::formats::tokenizer::TextTokenizer;
use serde::Deserialize;

/// At most this many tokens are written after the prompt: half the
/// decoder's 448 positions, as OpenAI's whisper allows.
pub const MAX_NEW_TOKENS: usize = 224;

/// What CTranslate2's config.json says about decoding.
#[derive(Deserialize)]
struct Config {
    suppress_ids: Vec<u32>,
    suppress_ids_begin: Vec<u32>,
    /// (layer, head) pairs whose cross-attention follows the words' timing.
    #[serde(default)]
    alignment_heads: Vec<(usize, usize)>,
}

/// Whisper with its tokenizer and decoding settings.
pub struct Speech {
    pub model: Whisper,
    pub tokenizer: TextTokenizer,
    pub alignment_heads: Vec<(usize, usize)>,
    suppress: Vec<u32>,
    suppress_begin: Vec<u32>,
    start: u32,
    no_timestamps: u32,
    pub(super) end: u32,
}

/// A clip transcribed, with its attention.
pub struct Transcript {
    /// The decoder's tokens: the prompt, the tokens written, and `<|endoftext|>` when reached.
    pub ids: Vec<u32>,
    /// How each token is shown.
    pub tokens: Vec<String>,
    /// The text written, special tokens left out.
    pub text: String,
    /// The spectrogram the encoder read (n_mels × 3,000).
    pub mel: crate::tensor::Matrix,
    /// Audio frames (20 ms each) that hold the clip; the rest of the 1,500 are its padding.
    pub speech_frames: usize,
    /// Samples of the clip read (16 kHz; at most 30 s of them).
    pub samples: usize,
    /// Per layer, the encoder's self-attention (heads let go of: see `encoder`).
    pub encoder: Vec<MultiHeadTrace>,
    /// Per layer, the decoder's causal self-attention over `ids`.
    pub self_attention: Vec<MultiHeadTrace>,
    /// Per layer, the cross-attention of every token of `ids` over the audio frames.
    pub cross_attention: Vec<MultiHeadTrace>,
}

impl Speech {
    /// From CTranslate2's `model.bin`, `config.json` and `tokenizer.json`.
    pub fn load(model: &dyn Source, config_json: &[u8], tokenizer_json: &[u8]) -> Result<Speech> {
        let file = Ct2File::read(model)?;
        let model = Whisper::load(&file, model)?;
        let config: Config = serde_json::from_slice(config_json)
            .map_err(|e| Error::ModelFile(format!("Whisper's config.json: {e}")))?;
        let tokenizer = TextTokenizer::from_json(tokenizer_json, None)?;
        let id = |piece: &str| {
            tokenizer
                .inner()
                .token_to_id(piece)
                .filter(|&i| (i as usize) < model.vocabulary())
                .ok_or_else(|| {
                    Error::ModelFile(format!(
                        "Whisper's tokenizer.json has no {piece} the model knows"
                    ))
                })
        };
        let (start, no_timestamps, end) =
            (id("<|startoftranscript|>")?, id("<|notimestamps|>")?, id("<|endoftext|>")?);
        let known = |ids: Vec<u32>| {
            ids.into_iter().filter(|&i| (i as usize) < model.vocabulary()).collect()
        };
        let heads_ok = config
            .alignment_heads
            .iter()
            .all(|&(l, h)| l < model.decoder.len() && h < model.n_heads);
        Ok(Speech {
            alignment_heads: if heads_ok { config.alignment_heads } else { Vec::new() },
            suppress: known(config.suppress_ids),
            suppress_begin: known(config.suppress_ids_begin),
            model,
            tokenizer,
            start,
            no_timestamps,
            end,
        })
    }

    /// The most likely token after the suppressed ones are taken out.
    fn choose(&self, logits: &mut [f32], first: bool) -> u32 {
        for &i in self.suppress.iter().chain(if first { &self.suppress_begin[..] } else { &[] }) {
            logits[i as usize] = f32::NEG_INFINITY;
        }
        // The first of equal maxima, as torch's argmax picks.
        let mut best = 0;
        for (i, &l) in logits.iter().enumerate() {
            if l > logits[best] {
                best = i;
            }
        }
        best as u32
    }

    /// Transcribes `audio` (16 kHz mono, −1 … 1; only its first 30 s are read).
    pub fn transcribe(&self, audio: &[f32]) -> Result<Transcript> {
        let mel = mel::log_mel(audio);
        let Encoded { audio: encoded, layers: encoder } = self.model.encode(&mel);
        let mut keys = self.model.audio_keys(&encoded);
        let mut ids = vec![self.start, self.no_timestamps];
        let mut cache = self.model.empty_cache();
        let mut logits = self.model.step(&ids, &mut cache, &mut keys)?;
        for n in 0..MAX_NEW_TOKENS.min(self.model.max_tokens() - ids.len()) {
            let next = self.choose(&mut logits, n == 0);
            ids.push(next);
            if next == self.end || ids.len() == self.model.max_tokens() {
                break;
            }
            logits = self.model.step(&[next], &mut cache, &mut keys)?;
        }
        // One run over the whole transcript for its attention.
        let Step { self_attention, cross_attention, .. } =
            self.model.decode(&ids, &mut self.model.empty_cache(), &keys)?;
        let tokens =
            ids.iter().map(|&i| self.tokenizer.token_text(i).unwrap_or_default()).collect();
        let text = self.tokenizer.decode(&ids)?;
        let samples = audio.len().min(mel::N_SAMPLES);
        // Two spectrogram frames (10 ms each) per encoder frame.
        let speech_frames = samples.div_ceil(2 * mel::HOP).min(self.model.audio_frames());
        Ok(Transcript {
            ids,
            tokens,
            text,
            mel,
            speech_frames,
            samples,
            encoder,
            self_attention,
            cross_attention,
        })
    }
}
