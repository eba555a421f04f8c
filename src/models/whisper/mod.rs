//! Whisper (OpenAI's speech recogniser), tiny.en as converted for
//! CTranslate2 (`crate::formats::ctranslate2`): speech in, a transcript
//! out, and the decoder's cross-attention from each token to the sound.
//!
//! - [`wav`]: WAV files → 16 kHz mono samples (the command line's audio);
//! - [`mel`]: the front end, samples → the 80 × 3,000 log-mel spectrogram
//!   the encoder reads.

pub mod mel;
pub mod wav;
