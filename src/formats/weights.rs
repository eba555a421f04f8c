//! A checkpoint's tensors, by name, whatever file holds them: safetensors
//! (one file or the shards of a sharded checkpoint) or GGUF. Every tensor
//! is checked against the shape the configuration implies as it is taken.
//!
//! Shapes are given as PyTorch writes them, `[rows, cols]` for a weight of
//! `nn.Linear(cols, rows)`; GGUF lists dimensions the other way round.

use super::safetensors::SafetensorsFile;
use super::source::Source;
use crate::error::{Error, Result};
use crate::formats::gguf::Gguf;
use crate::kernels::quant::{QMatrix, QType};
use crate::tensor::Matrix;

/// GGML type ids of the 16-bit float tensors a GGUF may hold small vectors in.
const GGML_F16: u32 = 1;
const GGML_BF16: u32 = 30;

/// The tensors of one checkpoint.
pub enum Weights<'s> {
    Safetensors(Vec<SafetensorsFile<'s>>),
    Gguf { gguf: &'s Gguf, src: &'s dyn Source },
}

impl Weights<'_> {
    pub fn has(&self, name: &str) -> bool {
        self.shape(name).is_some()
    }

    /// Tensor `name`'s shape, PyTorch's way round.
    pub fn shape(&self, name: &str) -> Option<Vec<usize>> {
        match self {
            Weights::Safetensors(files) => {
                files.iter().find_map(|f| f.tensors.get(name)).map(|t| t.shape.clone())
            }
            Weights::Gguf { gguf, .. } => {
                gguf.tensors.get(name).map(|t| t.dims.iter().rev().map(|&d| d as usize).collect())
            }
        }
    }

    /// Names of the tensors, for the count of parameters.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Weights::Safetensors(files) => {
                files.iter().flat_map(|f| f.tensors.keys().map(String::as_str)).collect()
            }
            Weights::Gguf { gguf, .. } => gguf.tensors.keys().map(String::as_str).collect(),
        }
    }

    /// A vector of `len` values as f32.
    pub fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        match self {
            Weights::Safetensors(files) => file_of(files, name)?.values(name, &[len]),
            Weights::Gguf { gguf, src } => {
                let t = gguf.tensor(name)?;
                if t.dims != [len as u64] {
                    return Err(shape_error(name, &t.dims, &[len]));
                }
                let wide =
                    |n: usize| len.checked_mul(n).ok_or_else(|| shape_error(name, &t.dims, &[len]));
                match t.ggml_type {
                    0 => Ok(f32s(&gguf.tensor_data(*src, name, wide(4)?)?)),
                    GGML_F16 => Ok(gguf
                        .tensor_data(*src, name, wide(2)?)?
                        .chunks_exact(2)
                        .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                        .collect()),
                    GGML_BF16 => Ok(gguf
                        .tensor_data(*src, name, wide(2)?)?
                        .chunks_exact(2)
                        .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                        .collect()),
                    other => Err(Error::ModelFile(format!("tensor `{name}` is a vector of GGML type {other}; F32, F16 or BF16 expected"))),
                }
            }
        }
    }

    /// A `rows × cols` matrix as f32 (for the f32 kernels of the encoders,
    /// and small tables).
    pub fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        match self {
            Weights::Safetensors(files) => {
                Ok(Matrix::from_vec(rows, cols, file_of(files, name)?.values(name, &[rows, cols])?))
            }
            Weights::Gguf { .. } => Ok(self.qmatrix(name, rows, cols)?.dequantize()),
        }
    }

    /// A `rows × cols` weight matrix as the decoders keep it: a GGUF's
    /// blocks as they are in the file, safetensors as f32.
    pub fn qmatrix(&self, name: &str, rows: usize, cols: usize) -> Result<QMatrix> {
        match self {
            Weights::Safetensors(files) => {
                let values = file_of(files, name)?.values(name, &[rows, cols])?;
                QMatrix::new(
                    rows,
                    cols,
                    QType::F32,
                    values.iter().flat_map(|v| v.to_le_bytes()).collect(),
                )
            }
            Weights::Gguf { gguf, src } => {
                let t = gguf.tensor(name)?;
                if t.dims != [cols as u64, rows as u64] {
                    return Err(shape_error(name, &t.dims, &[rows, cols]));
                }
                let qtype = QType::from_ggml(t.ggml_type).ok_or_else(|| {
                    Error::ModelFile(format!(
                        "tensor `{name}` is stored in GGML type {}, which this version cannot read",
                        t.ggml_type
                    ))
                })?;
                let len = rows.checked_mul(cols).and_then(|n| qtype.bytes_for(n)).ok_or_else(|| {
                    Error::ModelFile(format!("tensor `{name}`: {rows} × {cols} values do not fill whole {qtype:?} blocks"))
                })?;
                QMatrix::new(rows, cols, qtype, gguf.tensor_data(*src, name, len)?.into_owned())
                    .map_err(|e| Error::ModelFile(format!("tensor `{name}`: {e}")))
            }
        }
    }

    /// How many values the tensors hold.
    pub fn parameters(&self) -> u64 {
        self.names()
            .iter()
            .filter_map(|n| self.shape(n))
            .map(|s| s.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64)))
            .fold(0u64, u64::saturating_add)
    }
}

fn file_of<'f, 's>(
    files: &'f [SafetensorsFile<'s>],
    name: &str,
) -> Result<&'f SafetensorsFile<'s>> {
    files.iter().find(|f| f.tensors.contains_key(name)).ok_or_else(|| missing(name))
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

fn missing(name: &str) -> Error {
    Error::ModelFile(format!(
        "the weights have no tensor `{name}`: the configuration and the weights disagree"
    ))
}

fn shape_error(name: &str, dims: &[u64], want: &[usize]) -> Error {
    let file: Vec<u64> = dims.iter().rev().copied().collect();
    Error::ModelFile(format!(
        "tensor `{name}` has shape {file:?}, the configuration implies {want:?}"
    ))
}
