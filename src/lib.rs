//! attnscope's core: tokenize → embed → attention, with every intermediate
//! kept so that any step can be shown. No web or terminal code lives here;
//! the web app (`src/web/`) and the command-line tool (`src/cli/`) are thin
//! shells over this library.
//!
//! - [`attention`]: the formula, A = softmax(QKᵀ/√d_k + M), and multi-head,
//!   grouped-query and cross-attention built from it.
//! - [`models`]: the built-in teaching model, the seed-003 worked example and
//!   the real pretrained models, each producing a [`models::ModelTrace`].
//! - [`draw`]: heatmaps with plotters, to PNG or SVG.
//! - [`export`]: the JSON the CLI writes and the page downloads.

pub mod analysis;
pub mod attention;
pub mod draw;
pub mod error;
pub mod export;
pub mod models;
pub mod session;
pub mod tensor;
#[doc(hidden)]
pub mod testing;
#[cfg(any(feature = "pretrained", feature = "tracefile"))]
pub mod tracefile;
pub mod url_params;

#[cfg(test)]
mod kernel_checks;

pub use attention::{attend, multi_head, HeadTrace, Mask, MultiHeadTrace, Scale};
pub use error::Error;
pub use models::{LayerTrace, ModelTrace};
pub use tensor::Matrix;
