//! Model files, read by range with every size and offset checked before it
//! is used: nothing here knows an architecture.
//!
//! - [`source`]: a file, or a browser's `Blob`, read a range at a time;
//! - [`gguf`]: llama.cpp's GGUF (metadata and tensor directory);
//! - [`safetensors`]: Hugging Face's safetensors;
//! - [`weights`]: a checkpoint's named tensors, from either;
//! - [`hparams`]: hyper-parameters from `config.json` or a GGUF's metadata;
//! - [`tokenizer`]: tokenizers from `tokenizer.json` or a GGUF's vocabulary;
//! - [`marian`]: Marian's binary model format (the translation models);
//! - [`ctranslate2`]: CTranslate2's `model.bin` (Whisper tiny.en).

pub mod ctranslate2;
pub mod gguf;
pub mod hparams;
pub mod marian;
pub mod safetensors;
pub mod source;
pub mod tokenizer;
pub mod weights;
