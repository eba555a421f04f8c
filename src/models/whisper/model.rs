//! Whisper's weights, by CTranslate2's names, in structs that mirror them.
//!
//! ```text
//!   encoder/conv1, conv2                    Conv1d(80→d, k 3), Conv1d(d→d, k 3, stride 2)
//!   encoder/position_encodings/encodings    1,500 × d sinusoids
//!   encoder/layer_i/self_attention          layer_norm, linear_0 = [W_Q; W_K; W_V], linear_1 = W_O
//!   encoder/layer_i/ffn                     layer_norm, linear_0 = fc1, linear_1 = fc2
//!   encoder/layer_norm
//!   decoder/embeddings/weight               vocabulary × d, also the output projection
//!   decoder/position_encodings/encodings    448 × d, learned
//!   decoder/layer_i/self_attention          as the encoder's (causal)
//!   decoder/layer_i/attention               cross: linear_0 = W_Q, linear_1 = [W_K; W_V], linear_2 = W_O
//!   decoder/layer_i/ffn, decoder/layer_norm
//! ```
//!
//! The decoder's matrices stay in the file's float16 (half the memory of
//! f32) and are multiplied by the quantized-matrix kernels, which widen them
//! to f32 as they read them (exactly: every f16 is an f32). Those that
//! multiply the clip's frames (the encoder's, and the cross-attention's K
//! and V) are widened once at load (34 MB for tiny.en) and multiplied by
//! gemm. Vectors are widened at load. Every shape is checked against the one
//! the layer needs.

use crate::error::{Error, Result};
use crate::formats::ctranslate2::{Ct2File, DType};
use crate::formats::source::Source;
use crate::kernels::quant::{QMatrix, QType};
use crate::tensor::{self, Matrix};

/// LayerNorm's ε in Whisper (PyTorch's default).
const EPS: f32 = 1e-5;

/// y = x Wᵀ + b.
pub struct Linear {
    pub weight: Weight,
    pub bias: Vec<f32>,
}

/// A layer's W: as the file stores it, for products with a token or a few,
/// or widened to f32 for the clip's 1,500 or 3,000 frames, where gemm's
/// blocked product beats the row-by-row kernels (docs/performance.md).
pub enum Weight {
    Kept(QMatrix),
    Widened(Matrix),
}

impl Linear {
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut y = match &self.weight {
            Weight::Kept(w) => w.forward(x),
            Weight::Widened(w) => x.matmul_t(w),
        };
        y.add_row_vector(&self.bias);
        y
    }
}

/// LayerNorm with CTranslate2's gamma and beta.
pub use crate::models::norm::LayerNorm as Norm;

/// The feed-forward block: fc2(GELU(fc1(LayerNorm(x)))).
pub struct Ffn {
    pub norm: Norm,
    pub fc1: Linear,
    pub fc2: Linear,
}

pub struct EncoderLayer {
    pub attn_norm: Norm,
    /// Q, K and V in one product (K's bias is zeros: Whisper's keys have none).
    pub qkv: Linear,
    pub out: Linear,
    pub ffn: Ffn,
}

pub struct DecoderLayer {
    pub self_norm: Norm,
    pub self_qkv: Linear,
    pub self_out: Linear,
    pub cross_norm: Norm,
    pub cross_q: Linear,
    /// K and V of the audio in one product, made once per clip.
    pub cross_kv: Linear,
    pub cross_out: Linear,
    pub ffn: Ffn,
}

/// Whisper's encoder and decoder.
pub struct Whisper {
    pub d: usize,
    pub n_heads: usize,
    pub n_mels: usize,
    /// conv1 as a product over 3 frames of n_mels values: d × 3·n_mels.
    pub conv1: Linear,
    /// conv2 likewise: d × 3·d, applied every second frame.
    pub conv2: Linear,
    pub encoder_positions: Matrix,
    pub encoder: Vec<EncoderLayer>,
    pub encoder_norm: Norm,
    /// vocabulary × d: each token's embedding, and the logits' projection.
    pub embeddings: QMatrix,
    pub decoder_positions: Matrix,
    pub decoder: Vec<DecoderLayer>,
    pub decoder_norm: Norm,
}

/// Reads named variables of one file, checking shapes.
struct Loader<'a> {
    file: &'a Ct2File,
    src: &'a dyn Source,
}

impl Loader<'_> {
    fn check(&self, name: &str, shape: &[usize]) -> Result<DType> {
        let v = self.file.variable(name)?;
        if v.shape != shape {
            return Err(Error::ModelFile(format!(
                "`{name}` is {:?}, Whisper needs {shape:?}: not the expected model?",
                v.shape
            )));
        }
        Ok(v.dtype)
    }

    fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        self.check(name, &[len])?;
        self.file.f32s(self.src, name)
    }

    /// A matrix of `shape` (its first dimension the rows, the others one row
    /// each), kept in the file's float type.
    fn matrix(&self, name: &str, shape: &[usize]) -> Result<QMatrix> {
        let qtype = match self.check(name, shape)? {
            DType::F32 => QType::F32,
            DType::F16 => QType::F16,
            DType::BF16 => QType::BF16,
            other => {
                return Err(Error::ModelFile(format!("`{name}` holds {other:?}, not numbers")))
            }
        };
        let bytes = self.file.bytes(self.src, name)?.into_owned();
        QMatrix::new(shape[0], shape[1..].iter().product(), qtype, bytes)
    }

    fn table(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        self.check(name, &[rows, cols])?;
        let values = self.file.f32s(self.src, name)?;
        if !tensor::all_finite(&values) {
            return Err(Error::ModelFile(format!("`{name}` holds infinite or NaN values")));
        }
        Ok(Matrix::from_vec(rows, cols, values))
    }

    fn linear(&self, prefix: &str, rows: usize, cols: usize) -> Result<Linear> {
        let weight = Weight::Kept(self.matrix(&format!("{prefix}/weight"), &[rows, cols])?);
        Ok(Linear { weight, bias: self.vector(&format!("{prefix}/bias"), rows)? })
    }

    /// A layer that multiplies the clip's frames: W widened to f32 (`shape`: [rows, …]).
    fn wide(&self, prefix: &str, shape: &[usize]) -> Result<Linear> {
        let weight = Weight::Widened(self.matrix(&format!("{prefix}/weight"), shape)?.dequantize());
        Ok(Linear { weight, bias: self.vector(&format!("{prefix}/bias"), shape[0])? })
    }

    fn norm(&self, prefix: &str, d: usize) -> Result<Norm> {
        let gamma = self.vector(&format!("{prefix}/gamma"), d)?;
        Ok(Norm::new(gamma, self.vector(&format!("{prefix}/beta"), d)?, EPS))
    }

    fn wide_or_kept(&self, wide: bool, prefix: &str, rows: usize, cols: usize) -> Result<Linear> {
        if wide {
            self.wide(prefix, &[rows, cols])
        } else {
            self.linear(prefix, rows, cols)
        }
    }

    /// The feed-forward block; `wide` for the encoder's, which runs on every frame.
    fn ffn(&self, prefix: &str, d: usize, wide: bool) -> Result<Ffn> {
        let hidden = self.file.variable(&format!("{prefix}/linear_0/bias"))?.elements();
        Ok(Ffn {
            norm: self.norm(&format!("{prefix}/layer_norm"), d)?,
            fc1: self.wide_or_kept(wide, &format!("{prefix}/linear_0"), hidden, d)?,
            fc2: self.wide_or_kept(wide, &format!("{prefix}/linear_1"), d, hidden)?,
        })
    }

    fn count_layers(&self, side: &str) -> usize {
        (0..)
            .take_while(|i| {
                self.file.variable(&format!("{side}/layer_{i}/ffn/layer_norm/gamma")).is_ok()
            })
            .count()
    }
}

impl Whisper {
    /// Loads Whisper from CTranslate2's `model.bin` (read as `file` from `src`).
    pub fn load(file: &Ct2File, src: &dyn Source) -> Result<Whisper> {
        if file.spec != "WhisperSpec" || file.revision != 3 {
            return Err(Error::ModelFile(format!(
                "{} holds {} revision {}, not Whisper (WhisperSpec revision 3)",
                src.name(),
                file.spec,
                file.revision
            )));
        }
        let l = Loader { file, src };
        let conv1 = file.variable("encoder/conv1/weight")?.shape.clone();
        let [d, n_mels, 3] = conv1[..] else {
            return Err(Error::ModelFile(format!(
                "encoder/conv1/weight is {conv1:?}, not [d, mels, 3]"
            )));
        };
        let n_heads = usize::try_from(file.int(src, "encoder/num_heads")?).unwrap_or(0);
        if n_heads == 0
            || !d.is_multiple_of(n_heads)
            || file.int(src, "decoder/num_heads")? != n_heads as i64
        {
            return Err(Error::ModelFile(format!("{n_heads} heads do not split a width of {d}")));
        }
        let encoder = (0..l.count_layers("encoder"))
            .map(|i| {
                let p = format!("encoder/layer_{i}");
                Ok(EncoderLayer {
                    attn_norm: l.norm(&format!("{p}/self_attention/layer_norm"), d)?,
                    qkv: l.wide(&format!("{p}/self_attention/linear_0"), &[3 * d, d])?,
                    out: l.wide(&format!("{p}/self_attention/linear_1"), &[d, d])?,
                    ffn: l.ffn(&format!("{p}/ffn"), d, true)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let decoder = (0..l.count_layers("decoder"))
            .map(|i| {
                let p = format!("decoder/layer_{i}");
                Ok(DecoderLayer {
                    self_norm: l.norm(&format!("{p}/self_attention/layer_norm"), d)?,
                    self_qkv: l.linear(&format!("{p}/self_attention/linear_0"), 3 * d, d)?,
                    self_out: l.linear(&format!("{p}/self_attention/linear_1"), d, d)?,
                    cross_norm: l.norm(&format!("{p}/attention/layer_norm"), d)?,
                    cross_q: l.linear(&format!("{p}/attention/linear_0"), d, d)?,
                    cross_kv: l.wide(&format!("{p}/attention/linear_1"), &[2 * d, d])?,
                    cross_out: l.linear(&format!("{p}/attention/linear_2"), d, d)?,
                    ffn: l.ffn(&format!("{p}/ffn"), d, false)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        if encoder.is_empty() || decoder.is_empty() {
            return Err(Error::ModelFile(format!(
                "{} has no encoder or no decoder layers",
                src.name()
            )));
        }
        let frames = file.variable("encoder/position_encodings/encodings")?.shape.first().copied();
        let positions =
            file.variable("decoder/position_encodings/encodings")?.shape.first().copied();
        let vocabulary = file.variable("decoder/embeddings/weight")?.shape.first().copied();
        Ok(Whisper {
            d,
            n_heads,
            n_mels,
            conv1: l.wide("encoder/conv1", &[d, n_mels, 3])?,
            conv2: l.wide("encoder/conv2", &[d, d, 3])?,
            encoder_positions: l.table(
                "encoder/position_encodings/encodings",
                frames.unwrap_or(0),
                d,
            )?,
            encoder,
            encoder_norm: l.norm("encoder/layer_norm", d)?,
            embeddings: l.matrix("decoder/embeddings/weight", &[vocabulary.unwrap_or(0), d])?,
            decoder_positions: l.table(
                "decoder/position_encodings/encodings",
                positions.unwrap_or(0),
                d,
            )?,
            decoder,
            decoder_norm: l.norm("decoder/layer_norm", d)?,
        })
    }

    /// Audio frames the encoder outputs (20 ms each): 1,500 for 30 s.
    pub fn audio_frames(&self) -> usize {
        self.encoder_positions.rows
    }

    /// Tokens the decoder can place: 448.
    pub fn max_tokens(&self) -> usize {
        self.decoder_positions.rows
    }

    pub fn vocabulary(&self) -> usize {
        self.embeddings.rows
    }
}
