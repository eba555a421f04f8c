//! The header of a safetensors file, read from its [`Source`]: an 8-byte
//! little-endian length, then that many bytes of JSON naming each tensor's
//! type, shape and byte range (from the end of the header). The tensors
//! are read one at a time, when a model takes them.
//!
//! The `safetensors` crate parses the same header, but only from the whole
//! file in memory; this reader needs only the header's bytes.

use super::source::Source;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// Longest header accepted: the crate's limit, far above any model's.
const MAX_HEADER: u64 = 100_000_000;

/// The element types a model's weights come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    F32,
    F16,
    BF16,
}

impl Dtype {
    fn parse(s: &str) -> Option<Dtype> {
        match s {
            "F32" => Some(Dtype::F32),
            "F16" => Some(Dtype::F16),
            "BF16" => Some(Dtype::BF16),
            _ => None,
        }
    }

    pub fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::BF16 => 2,
        }
    }
}

/// One tensor's entry in the header.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// None for a type no model here stores weights in (I64 position ids, …).
    pub dtype: Option<Dtype>,
    /// The type as the file names it.
    pub dtype_name: String,
    pub shape: Vec<usize>,
    /// Absolute byte range in the file.
    pub start: u64,
    pub end: u64,
}

/// A safetensors file's header, and the file to read its tensors from.
pub struct SafetensorsFile<'s> {
    pub src: &'s dyn Source,
    pub tensors: HashMap<String, Info>,
}

impl<'s> SafetensorsFile<'s> {
    pub fn read(src: &'s dyn Source) -> Result<SafetensorsFile<'s>> {
        let name = src.name().to_string();
        let bad =
            |why: String| Error::ModelFile(format!("{name} is not a safetensors file: {why}"));
        if src.len() < 8 {
            return Err(bad(format!(
                "it has {} bytes, fewer than the 8 of the header's length",
                src.len()
            )));
        }
        let n = u64::from_le_bytes(
            src.read(0, 8)?.as_ref().try_into().map_err(|_| bad("no header length".into()))?,
        );
        if n > MAX_HEADER || n > src.len() - 8 {
            return Err(bad(format!(
                "its header claims {n} bytes in a file of {}: truncated or not safetensors",
                src.len()
            )));
        }
        let header = src.read(8, n as usize)?;
        let json: serde_json::Value = serde_json::from_slice(&header)
            .map_err(|e| bad(format!("its header is not JSON ({e})")))?;
        let entries =
            json.as_object().ok_or_else(|| bad("its header is not a JSON object".into()))?;
        let data_start = 8 + n;
        let data_len = src.len() - data_start;
        let mut tensors = HashMap::with_capacity(entries.len());
        for (tensor, entry) in entries {
            if tensor == "__metadata__" {
                continue;
            }
            let field = |key: &str| {
                entry.get(key).ok_or_else(|| bad(format!("tensor `{tensor}` has no {key}")))
            };
            let dtype_name = field("dtype")?
                .as_str()
                .ok_or_else(|| bad(format!("tensor `{tensor}`: dtype is not a string")))?
                .to_string();
            let numbers = |key: &str| -> Result<Vec<u64>> {
                let list = field(key)?
                    .as_array()
                    .ok_or_else(|| bad(format!("tensor `{tensor}`: {key} is not a list")))?;
                list.iter()
                    .map(|v| {
                        v.as_u64().ok_or_else(|| bad(format!("tensor `{tensor}`: {key} holds {v}")))
                    })
                    .collect()
            };
            let shape = numbers("shape")?
                .into_iter()
                .map(|d| {
                    usize::try_from(d)
                        .map_err(|_| bad(format!("tensor `{tensor}` has a dimension of {d}")))
                })
                .collect::<Result<Vec<usize>>>()?;
            let offsets = numbers("data_offsets")?;
            let [begin, end] = offsets[..] else {
                return Err(bad(format!("tensor `{tensor}`: data_offsets is not two numbers")));
            };
            if begin > end || end > data_len {
                return Err(Error::ModelFile(format!(
                    "{name}: tensor `{tensor}` lies at bytes {begin}..{end} of {data_len}: a truncated or damaged download?"
                )));
            }
            let dtype = Dtype::parse(&dtype_name);
            if let Some(dtype) = dtype {
                let values = shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d as u64));
                if values.and_then(|v| v.checked_mul(dtype.size() as u64)) != Some(end - begin) {
                    return Err(bad(format!(
                        "tensor `{tensor}` of shape {shape:?} does not fill its {} bytes",
                        end - begin
                    )));
                }
            }
            tensors.insert(
                tensor.clone(),
                Info { dtype, dtype_name, shape, start: data_start + begin, end: data_start + end },
            );
        }
        Ok(SafetensorsFile { src, tensors })
    }

    /// Tensor `name` as f32 (f16 and bf16 widened), checked against `shape`.
    pub fn values(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let file = self.src.name();
        let info = self
            .tensors
            .get(name)
            .ok_or_else(|| Error::ModelFile(format!("{file} has no tensor `{name}`")))?;
        if info.shape != shape {
            return Err(Error::ModelFile(format!(
                "tensor `{name}` in {file} has shape {:?}, the configuration implies {shape:?}",
                info.shape
            )));
        }
        let dtype = info.dtype.ok_or_else(|| {
            Error::ModelFile(format!(
                "tensor `{name}` in {file} is {}; only F32, F16 and BF16 weights are read",
                info.dtype_name
            ))
        })?;
        let bytes = self.src.read(info.start, (info.end - info.start) as usize)?;
        Ok(match dtype {
            Dtype::F32 => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Dtype::F16 => bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Dtype::BF16 => bytes
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::source::Bytes;
    use super::*;
    use safetensors::tensor::{Dtype as D, TensorView};

    fn file() -> Vec<u8> {
        let a: Vec<u8> =
            [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        let b: Vec<u8> =
            [0.5f32, -1.0].iter().flat_map(|x| half::f16::from_f32(*x).to_le_bytes()).collect();
        let views = [
            ("a", TensorView::new(D::F32, vec![2, 3], &a).unwrap()),
            ("b", TensorView::new(D::F16, vec![2], &b).unwrap()),
        ];
        safetensors::serialize(views, None).unwrap()
    }

    #[test]
    fn reads_tensors_as_the_crate_writes_them() {
        let bytes = file();
        let src = Bytes::new("model.safetensors", &bytes);
        let f = SafetensorsFile::read(&src).unwrap();
        assert_eq!(f.values("a", &[2, 3]).unwrap(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(f.values("b", &[2]).unwrap(), [0.5, -1.0]);
        let e = f.values("a", &[3, 2]).unwrap_err().to_string();
        assert!(e.contains("`a`") && e.contains("[2, 3]"), "{e}");
        assert!(f.values("c", &[1]).is_err());
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = file();
        for cut in 0..bytes.len() {
            let src = Bytes::new("model.safetensors", &bytes[..cut]);
            let r = SafetensorsFile::read(&src)
                .and_then(|f| f.values("a", &[2, 3]).and(f.values("b", &[2])));
            assert!(matches!(r, Err(Error::ModelFile(_))), "cut at {cut}");
        }
    }
}
