//! What the tests and benchmarks share, in the library so that unit tests,
//! integration tests (`tests/`) and benchmarks reach the same code: one
//! seeded generator of test data, and where the model files are. Not part of
//! attnscope's API.

use crate::tensor::Matrix;
use std::path::PathBuf;

/// A small seeded generator (xorshift32): the same seed gives the same
/// numbers on every machine and target, so a failing check can be rerun.
#[derive(Clone, Debug)]
pub struct Rng(u32);

impl Rng {
    pub fn new(seed: u32) -> Rng {
        // Spread small seeds over the state; xorshift never leaves 0, so avoid it.
        Rng(seed.wrapping_mul(2_654_435_761).wrapping_add(1).max(1))
    }

    pub fn next_u32(&mut self) -> u32 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        self.0 = s;
        s
    }

    /// A value in (−1, 1).
    pub fn value(&mut self) -> f32 {
        (self.next_u32() as f32 / u32::MAX as f32) * 2.0 - 1.0
    }

    /// `n` values in (−1, 1).
    pub fn values(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.value()).collect()
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u32() as u8).collect()
    }

    /// A whole number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n
    }
}

/// A `rows × cols` matrix of values in (−1, 1) from `seed`.
pub fn matrix(rows: usize, cols: usize, seed: u32) -> Matrix {
    Matrix::from_vec(rows, cols, Rng::new(seed).values(rows * cols))
}

/// An f16 block scale from `rng`, as its bits: a magnitude in [2⁻⁷, 2⁻²),
/// of the sign given.
/// The folder the model files are fetched into (`scripts/fetch_models.py`).
pub fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/models")
}

/// MiniLM's folder (`model.safetensors`, `tokenizer.json`, `config.json`).
pub fn minilm_dir() -> PathBuf {
    models_dir().join("minilm")
}

/// SmolLM2's GGUF file.
pub fn smollm2_gguf() -> PathBuf {
    models_dir().join("smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
}

/// A translation direction's folder (model, `tokenizer.json`, `shortlist.bin`).
pub fn translate_dir(slug: &str) -> PathBuf {
    models_dir().join(slug)
}

/// A file of the reference fixtures (`tests/fixtures/…`), made by `scripts/reference/`.
pub fn fixture_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative)
}
