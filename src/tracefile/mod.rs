//! Trace files: the attention of any model on one text, computed elsewhere
//! (PyTorch through the `attnscope` Python package, or attnscope's own models
//! with `attnscope trace --out`), in a safetensors file that attnscope reads
//! lazily. The format is specified in docs/trace-format.md.
//!
//! Names: a *trace file* is that record on disk (weights, optionally queries
//! and keys, thumbnails). [`crate::ModelTrace`] and [`crate::HeadTrace`] are
//! different things: everything our own models compute in memory. A trace file
//! holds part of a `ModelTrace`, so reading one yields matrices, never a
//! `ModelTrace` with made-up inputs and outputs.
//!
//! Reading is split so that it works over any byte source, synchronous or not
//! (a file here; `Blob.slice` in the browser, which is asynchronous):
//!
//! 1. [`header_len`] from the first [`PREFIX_LEN`] bytes and the file's length;
//! 2. [`TraceIndex::parse`] the header bytes that follow (everything checked
//!    against the file's length, nothing allocated for tensors);
//! 3. ask the index for the [`TensorSlice`] of a layer or head, read its byte
//!    range, and [`TensorSlice::decode`] it.
//!
//! [`TraceReader`] does the three steps over a synchronous [`ByteSource`].

mod error;
mod export;
mod format;
mod index;
mod reader;
mod remote;
mod source;
mod writer;

pub use error::TraceFileError;
pub use format::{
    MaskSpec, ModelDescription, NextToken, PatchGrid, QueriesKeys, TraceDescription, FORMAT,
    FORMAT_VERSION, MAJOR_VERSION,
};
pub use index::{
    header_len, Element, Image, TensorSlice, TraceIndex, MAX_HEADER_LEN, MAX_IMAGE_SIDE, PREFIX_LEN,
};
pub use reader::TraceReader;
pub use remote::{Pages, RemoteSource, SharedPages, PAGE};
pub use source::{ByteSource, SeekSource};
pub use writer::{describe, write_model_trace, WriteOptions};

/// Safetensors name of layer `layer`'s attention weights, [heads, tokens, tokens].
pub fn attention_name(layer: usize) -> String {
    format!("layers.{layer}.attention")
}

/// Safetensors name of layer `layer`'s queries, [heads, tokens, d_head].
pub fn queries_name(layer: usize) -> String {
    format!("layers.{layer}.queries")
}

/// Safetensors name of layer `layer`'s keys, [kv_heads, tokens, d_head].
pub fn keys_name(layer: usize) -> String {
    format!("layers.{layer}.keys")
}

/// Safetensors name of the overview's thumbnails, [layers, heads, S, S] of u16 levels.
pub const THUMBNAILS_NAME: &str = "thumbnails";

/// Safetensors name of a vision trace's image, [height, width, 3] of u8 (format 1.1).
pub const IMAGE_NAME: &str = "image";
