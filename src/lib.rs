//! attnscope's core: tokenize → embed → attention, with every intermediate
//! kept so that any step can be shown. No web or terminal code lives here;
//! the page (`src/web/`), its worker (`src/worker/`) and the command-line
//! tool (`src/cli/`) are thin shells over this library.
//!
//! Floors, each importing only those below it (docs/architecture.md, checked
//! by `tests/architecture.rs`):
//! 1. [`tensor`], [`attention`] (the formula, A = softmax(QKᵀ/√d_k + M)),
//!    [`draw`], [`error`];
//! 2. [`trace`]: what a run produces ([`ModelTrace`]) and every floor reads;
//! 3. `kernels` (the weight products) and `formats` (model files);
//! 4. [`models`]: the architectures;
//! 5. `checkpoint`: a checkpoint's files opened as the right architecture;
//! 6. [`analysis`], [`export`], `tracefile`, [`url_params`]: readers of traces;
//! 7. [`session`]: what the page's worker does, as plain messages; [`classroom`]: a class
//!    led by a teacher's page, its messages and rules.

pub mod analysis;
pub mod attention;
#[cfg(feature = "pretrained")]
pub mod checkpoint;
pub mod classroom;
pub mod draw;
pub mod error;
pub mod export;
#[cfg(feature = "pretrained")]
pub mod formats;
#[cfg(feature = "pretrained")]
pub mod kernels;
pub mod models;
pub mod session;
pub mod tensor;
#[doc(hidden)]
pub mod testing;
pub mod trace;
#[cfg(any(feature = "pretrained", feature = "tracefile"))]
pub mod tracefile;
pub mod url_params;

pub use attention::{
    attend, multi_head, Attend, AttendHeads, HeadTrace, Mask, MultiHeadTrace, Scale,
};
pub use error::Error;
pub use tensor::Matrix;
pub use trace::{LayerTrace, ModelTrace};
