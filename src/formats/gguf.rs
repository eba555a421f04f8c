//! A compact reader for GGUF, the container llama.cpp writes: a header,
//! typed key/value metadata, a table of tensors, then the aligned tensor data.
//!
//! ```text
//!   "GGUF"  version: u32  n_tensors: u64  n_kv: u64
//!   n_kv ×      key: string  type: u32  value
//!   n_tensors × name: string  n_dims: u32  dims: [u64; n_dims]  type: u32  offset: u64
//!   padding to `general.alignment` (32), then the data; offsets count from there
//! ```
//!
//! Strings are a u64 length and UTF-8 bytes; everything is little-endian.
//! We keep our own ~200-line reader rather than candle-core's: the container
//! is this simple, and candle-core would pull a tensor library, `rand` and
//! more into the browser bundle only to parse a header (see the report in the
//! commit history). Every read is bounds-checked: a truncated or foreign file
//! is an [`Error::ModelFile`], never a panic.

use crate::error::{Error, Result};
use crate::formats::source::{Bytes, Source};
use std::borrow::Cow;
use std::collections::HashMap;

/// One metadata value. Integers are widened; the model checks ranges itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    UInt(u64),
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    Array(Vec<Value>),
}

impl Value {
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::UInt(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(v) => Some(v),
            Value::UInt(v) => Some(v as f64),
            Value::Int(v) => Some(v as f64),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(v) => Some(v),
            _ => None,
        }
    }
}

/// Where one tensor lies in the file. `dims[0]` varies fastest (ggml order),
/// so a weight `nn.Linear(in, out)` has dims `[in, out]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    pub dims: Vec<u64>,
    /// GGML type id (0 = F32, 3 = Q4_1, 8 = Q8_0, …).
    pub ggml_type: u32,
    /// Absolute byte offset in the file.
    pub start: usize,
}

/// The parsed header of a GGUF file; tensor bytes are sliced from the
/// original buffer on demand.
#[derive(Clone, Debug)]
pub struct Gguf {
    pub version: u32,
    pub metadata: HashMap<String, Value>,
    pub tensors: HashMap<String, TensorInfo>,
}

/// Why a header could not be read from the bytes at hand: the file is bad,
/// or the bytes read so far end inside the header (read more and retry).
enum Stop {
    Bad(Error),
    Short,
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Bad(e)
    }
}

type Parse<T> = std::result::Result<T, Stop>;

/// Reads the header from `bytes`, the first bytes of a file of `file_len`.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    file_len: u64,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Parse<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end {
            Some(end) if end <= self.bytes.len() => {
                let s = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            _ if (self.bytes.len() as u64) < self.file_len => Err(Stop::Short),
            _ => Err(Stop::Bad(Error::ModelFile(format!(
                "the GGUF file ends early (at byte {} of {}, reading {n} more): truncated download?",
                self.pos, self.file_len
            )))),
        }
    }

    fn array<const N: usize>(&mut self) -> Parse<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u32(&mut self) -> Parse<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Parse<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A count that must fit in what is left of the file, `min_each` bytes per
    /// item, so a corrupted length cannot make us allocate gigabytes.
    fn count(&mut self, min_each: usize) -> Parse<usize> {
        let n = self.u64()?;
        let left = self.file_len.saturating_sub(self.pos as u64);
        if n.saturating_mul(min_each.max(1) as u64) > left {
            return Err(Stop::Bad(Error::ModelFile(format!(
                "the GGUF file claims {n} items at byte {} but only {left} bytes follow: corrupted or truncated",
                self.pos
            ))));
        }
        usize::try_from(n).map_err(|_| {
            Stop::Bad(Error::ModelFile(format!(
                "the GGUF file claims {n} items at byte {}",
                self.pos
            )))
        })
    }

    fn string(&mut self) -> Parse<String> {
        let n = self.count(1)?;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| {
            Stop::Bad(Error::ModelFile(format!(
                "a GGUF string at byte {} is not UTF-8",
                self.pos - n
            )))
        })
    }

    fn value(&mut self, ty: u32, depth: usize) -> Parse<Value> {
        Ok(match ty {
            0 => Value::UInt(self.array::<1>()?[0] as u64),
            1 => Value::Int(self.array::<1>()?[0] as i8 as i64),
            2 => Value::UInt(u16::from_le_bytes(self.array()?) as u64),
            3 => Value::Int(i16::from_le_bytes(self.array()?) as i64),
            4 => Value::UInt(self.u32()? as u64),
            5 => Value::Int(i32::from_le_bytes(self.array()?) as i64),
            6 => Value::Float(f32::from_le_bytes(self.array()?) as f64),
            7 => Value::Bool(self.array::<1>()?[0] != 0),
            8 => Value::Str(self.string()?),
            9 if depth == 0 => {
                let inner = self.u32()?;
                let n = self.count(1)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.value(inner, depth + 1)?);
                }
                Value::Array(v)
            }
            10 => Value::UInt(self.u64()?),
            11 => Value::Int(i64::from_le_bytes(self.array()?)),
            12 => Value::Float(f64::from_le_bytes(self.array()?)),
            _ => {
                return Err(Stop::Bad(Error::ModelFile(format!(
                    "unknown GGUF value type {ty} at byte {}",
                    self.pos
                ))))
            }
        })
    }
}

/// Bytes read for the header at first: the metadata of a large vocabulary
/// (Gemma 3's 262,144 tokens with their scores) takes several megabytes, and
/// each retry reads four times as much.
const HEADER_GUESS: usize = 1 << 20;

impl Gguf {
    /// Parses the header and tensor table of a whole GGUF file held in memory.
    pub fn parse(bytes: &[u8]) -> Result<Gguf> {
        Gguf::read(&Bytes::new("the GGUF file", bytes))
    }

    /// Reads the header and tensor table from the start of `src`, reading
    /// more of it only while the header goes on.
    pub fn read(src: &dyn Source) -> Result<Gguf> {
        let mut want = HEADER_GUESS;
        loop {
            let n = usize::try_from(src.len()).unwrap_or(usize::MAX).min(want);
            let prefix = src.read(0, n)?;
            match Gguf::parse_header(&prefix, src.len()) {
                Err(Stop::Short) if (n as u64) < src.len() => want = want.saturating_mul(4),
                Err(Stop::Short) => {
                    return Err(Error::ModelFile(format!(
                        "{}: the GGUF header runs past the end of the file",
                        src.name()
                    )))
                }
                Err(Stop::Bad(e)) => return Err(e),
                Ok(g) => return Ok(g),
            }
        }
    }

    fn parse_header(bytes: &[u8], file_len: u64) -> Parse<Gguf> {
        let mut r = Reader { bytes, pos: 0, file_len };
        if file_len < 4 || bytes.len() < 4 || &bytes[..4] != b"GGUF" {
            return Err(Stop::Bad(Error::ModelFile(
                "not a GGUF file (it does not start with \"GGUF\")".into(),
            )));
        }
        r.pos = 4;
        let version = r.u32()?;
        if !(2..=3).contains(&version) {
            return Err(Stop::Bad(Error::ModelFile(format!(
                "GGUF version {version} is not supported (2 or 3 are)"
            ))));
        }
        let n_tensors = r.count(24)?;
        let n_kv = r.count(12)?;
        let mut metadata = HashMap::with_capacity(n_kv);
        for _ in 0..n_kv {
            let key = r.string()?;
            let ty = r.u32()?;
            let value = r.value(ty, 0)?;
            metadata.insert(key, value);
        }
        let mut table = Vec::with_capacity(n_tensors);
        for _ in 0..n_tensors {
            let name = r.string()?;
            let n_dims = r.u32()? as usize;
            if n_dims > 4 {
                return Err(Stop::Bad(Error::ModelFile(format!(
                    "tensor {name} has {n_dims} dimensions (at most 4 expected)"
                ))));
            }
            let dims = (0..n_dims).map(|_| r.u64()).collect::<Parse<Vec<u64>>>()?;
            let ggml_type = r.u32()?;
            let offset = r.u64()?;
            table.push((name, dims, ggml_type, offset));
        }
        let alignment =
            match metadata.get("general.alignment") {
                None => 32,
                Some(v) => v.as_u64().filter(|a| a.is_power_of_two() && *a <= 1 << 20).ok_or_else(
                    || Error::ModelFile("general.alignment is not a power of two".into()),
                )? as usize,
            };
        let data_start = r.pos.div_ceil(alignment) * alignment;
        let mut tensors = HashMap::with_capacity(n_tensors);
        for (name, dims, ggml_type, offset) in table {
            let start = usize::try_from(offset)
                .ok()
                .and_then(|o| o.checked_add(data_start))
                .filter(|&s| s as u64 <= file_len);
            let start = start.ok_or_else(|| {
                Error::ModelFile(format!(
                    "tensor {name} starts past the end of the file: truncated download?"
                ))
            })?;
            tensors.insert(name, TensorInfo { dims, ggml_type, start });
        }
        Ok(Gguf { version, metadata, tensors })
    }

    pub fn get(&self, key: &str) -> Result<&Value> {
        self.metadata.get(key).ok_or_else(|| {
            Error::ModelFile(format!("the GGUF file has no `{key}`: not the expected model?"))
        })
    }

    pub fn get_u64(&self, key: &str) -> Result<u64> {
        self.get(key)?
            .as_u64()
            .ok_or_else(|| Error::ModelFile(format!("`{key}` is not an integer")))
    }

    pub fn get_f64(&self, key: &str) -> Result<f64> {
        self.get(key)?.as_f64().ok_or_else(|| Error::ModelFile(format!("`{key}` is not a number")))
    }

    pub fn get_str(&self, key: &str) -> Result<&str> {
        self.get(key)?.as_str().ok_or_else(|| Error::ModelFile(format!("`{key}` is not a string")))
    }

    /// A metadata array of strings (vocabulary, merges).
    pub fn get_strings(&self, key: &str) -> Result<Vec<&str>> {
        let arr = self
            .get(key)?
            .as_array()
            .ok_or_else(|| Error::ModelFile(format!("`{key}` is not an array")))?;
        arr.iter()
            .map(|v| {
                v.as_str().ok_or_else(|| Error::ModelFile(format!("`{key}` holds a non-string")))
            })
            .collect()
    }

    pub fn tensor(&self, name: &str) -> Result<&TensorInfo> {
        self.tensors.get(name).ok_or_else(|| {
            Error::ModelFile(format!(
                "the GGUF file has no tensor `{name}`: not the expected model?"
            ))
        })
    }

    /// The `len` bytes of tensor `name`, read from `src` (the file [`Gguf::read`] read).
    pub fn tensor_data<'s>(
        &self,
        src: &'s dyn Source,
        name: &str,
        len: usize,
    ) -> Result<Cow<'s, [u8]>> {
        let t = self.tensor(name)?;
        src.read(t.start as u64, len).map_err(|_| {
            Error::ModelFile(format!(
                "tensor `{name}` runs past the end of {}: truncated download?",
                src.name()
            ))
        })
    }

    /// The `len` bytes of tensor `name` in `bytes` (the buffer given to [`Gguf::parse`]).
    pub fn tensor_bytes<'b>(&self, bytes: &'b [u8], name: &str, len: usize) -> Result<&'b [u8]> {
        let t = self.tensor(name)?;
        t.start
            .checked_add(len)
            .filter(|&end| end <= bytes.len())
            .map(|end| &bytes[t.start..end])
            .ok_or_else(|| {
                Error::ModelFile(format!(
                    "tensor `{name}` runs past the end of the file: truncated download?"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(s: &str) -> Vec<u8> {
        let mut b = (s.len() as u64).to_le_bytes().to_vec();
        b.extend_from_slice(s.as_bytes());
        b
    }

    /// A minimal file: one u32, one string array, one 2×2 f32 tensor.
    fn tiny() -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(1u64.to_le_bytes());
        b.extend(2u64.to_le_bytes());
        b.extend(string("a.count"));
        b.extend(4u32.to_le_bytes());
        b.extend(7u32.to_le_bytes());
        b.extend(string("a.words"));
        b.extend(9u32.to_le_bytes());
        b.extend(8u32.to_le_bytes());
        b.extend(2u64.to_le_bytes());
        b.extend(string("x"));
        b.extend(string("yz"));
        b.extend(string("w"));
        b.extend(2u32.to_le_bytes());
        b.extend(2u64.to_le_bytes());
        b.extend(2u64.to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        while !b.len().is_multiple_of(32) {
            b.push(0);
        }
        for v in [1.0f32, 2.0, 3.0, 4.0] {
            b.extend(v.to_le_bytes());
        }
        b
    }

    #[test]
    fn reads_metadata_and_tensor_table() {
        let bytes = tiny();
        let g = Gguf::parse(&bytes).unwrap();
        assert_eq!(g.get_u64("a.count").unwrap(), 7);
        assert_eq!(g.get_strings("a.words").unwrap(), vec!["x", "yz"]);
        let t = g.tensor("w").unwrap();
        assert_eq!((t.dims.clone(), t.ggml_type), (vec![2, 2], 0));
        assert_eq!(g.tensor_bytes(&bytes, "w", 16).unwrap()[4..8], 2.0f32.to_le_bytes());
    }

    #[test]
    fn a_header_longer_than_the_first_read_is_read_in_full() {
        // One string of 3 MB: three reads (1, 4 MB).
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        b.extend(1u64.to_le_bytes());
        b.extend(string("long"));
        b.extend(8u32.to_le_bytes());
        b.extend(string(&"x".repeat(3 << 20)));
        let g = Gguf::read(&Bytes::new("long.gguf", &b)).unwrap();
        assert_eq!(g.get_str("long").unwrap().len(), 3 << 20);
        assert!(matches!(
            Gguf::read(&Bytes::new("long.gguf", &b[..b.len() - 1])),
            Err(Error::ModelFile(_))
        ));
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = tiny();
        for cut in 0..bytes.len() {
            let r = Gguf::parse(&bytes[..cut])
                .and_then(|g| g.tensor_bytes(&bytes[..cut], "w", 16).map(|_| ()));
            assert!(matches!(r, Err(Error::ModelFile(_))), "cut at {cut}");
        }
        assert!(Gguf::parse(b"PK\x03\x04 a zip file").is_err());
    }
}
