//! Whisper tiny.en end to end, in one test binary (each binary links the whole crate): the
//! CTranslate2 reader on the real `model.bin` ([`ctranslate2`]), the log-mel front end ([`mel`]),
//! the transcript and its cross-attention against transformers ([`reference`]), and `attnscope
//! transcribe` ([`cli`]). The model's files come from `scripts/fetch_models.py --extra`; without
//! them each test says it is skipped.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod ctranslate2;
mod mel;
mod reference;
