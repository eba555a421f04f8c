//! Architectures: each turns text into a [`ModelTrace`](crate::trace::ModelTrace).
//! One file (or folder) per family, whose structs mirror the weight names.
//!
//! Built in: [`teaching`] (hand-designed heads) and [`seed`] (the 3×4
//! worked example of seed 003).
//!
//! Real families, their weights read by `crate::formats` and multiplied by
//! `crate::kernels`:
//! - [`encoder`]: the BERT family (BERT, RoBERTa, DistilBERT, MPNet);
//! - [`decoder`]: what the decoders share (the key/value cache, the
//!   next-token distribution), and the families [`llama`] (Llama, Mistral,
//!   SmolLM, Qwen2), [`gpt2`] and [`gemma3`];
//! - [`marian`]: Bergamot's tiny en↔pt translation models, an
//!   encoder–decoder with cross-attention (a `Translation`, not a trace);
//! - [`whisper`]: OpenAI's Whisper (tiny.en), speech to text, whose
//!   decoder's cross-attention goes from each word to the sound;
//! - [`norm`]: LayerNorm and RMSNorm;
//! - [`sampling`]: how a decoder picks the next token, and what a step of
//!   writing reports (built everywhere: the page's messages carry it);
//! - [`two_threads`]: a model's products and heads shared with a second
//!   thread, which holds half of every matrix's rows.
//!
//! Which family a checkpoint's files hold is decided a floor above, in
//! `crate::checkpoint`.

#[cfg(feature = "pretrained")]
pub mod decoder;
#[cfg(feature = "pretrained")]
pub mod encoder;
#[cfg(feature = "pretrained")]
pub mod gemma3;
#[cfg(feature = "pretrained")]
pub mod gpt2;
#[cfg(feature = "pretrained")]
pub mod llama;
#[cfg(feature = "pretrained")]
pub mod marian;
#[cfg(feature = "pretrained")]
pub mod norm;
pub mod sampling;
pub mod seed;
pub mod teaching;
#[cfg(feature = "pretrained")]
pub mod two_threads;
// In the CLI and the extra worker (the Speech tab): the default workers,
// whose size the first visit pays for, leave it out.
#[cfg(all(feature = "pretrained", any(feature = "extras", not(target_arch = "wasm32"))))]
pub mod whisper;
