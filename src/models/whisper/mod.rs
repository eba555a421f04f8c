//! Whisper (OpenAI's speech recogniser), tiny.en as converted for
//! CTranslate2 (`crate::formats::ctranslate2`): speech in, a transcript
//! out, and the decoder's cross-attention from each token to the sound.
//!
//! - [`wav`]: WAV files → mono samples (the command line's audio), and
//!   [`resample`] to the 16 kHz Whisper reads;
//! - [`mel`]: the front end, samples → the 80 × 3,000 log-mel spectrogram
//!   the encoder reads;
//! - [`model`]: the weights, by CTranslate2's names;
//! - [`encoder`]: the spectrogram → 1,500 vectors of 20 ms;
//! - [`decoder`]: tokens and the audio → the next token's logits, with
//!   causal self-attention and cross-attention to the audio;
//! - [`transcribe`]: greedy decoding and the transcript's attention;
//! - [`words`]: the words' times, by dynamic time warping over the
//!   alignment heads' cross-attention.

pub mod decoder;
pub mod encoder;
pub mod mel;
pub mod model;
pub mod resample;
pub mod transcribe;
pub mod wav;
pub mod words;
