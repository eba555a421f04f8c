//! CTranslate2's binary model format (`model.bin`), binary version 6, as its
//! Python converters write it (the Whisper tiny.en of `whisper-tiny-en`).
//! Little-endian throughout:
//!
//! ```text
//!   u32 version                       6
//!   string spec                       "WhisperSpec"
//!   u32 revision                      the spec's revision (3 for Whisper)
//!   u32 n
//!   n × { string name, u8 rank, rank × u32 dim, u8 dtype, u32 bytes, bytes }
//!   u32 n_aliases
//!   n_aliases × { string alias, string name }
//! ```
//!
//! A string is a u16 length that counts a closing NUL, then that many bytes.
//! The variables come in alphabetical order with their data inline, so the
//! table cannot be read without walking past every tensor: the reader reads
//! each variable's header by range and skips its data, which is read (and
//! widened to f32) only when asked for. A variable equal to one before it in
//! that order is written once and named again as an alias (Whisper's output
//! projection is its token embedding).
//!
//! Every length and offset is checked, in u64 and with checked arithmetic,
//! against what is left of the file before it is used or allocated: a
//! truncated, corrupted or foreign file is an [`Error::ModelFile`] saying
//! what was wrong, never a panic.

use crate::error::{Error, Result};
use crate::formats::source::{Bytes, Source};
use std::collections::HashMap;

/// The binary version this reader knows; older ones lay a variable out differently.
pub const VERSION: u32 = 6;

/// Dimensions a variable may have: CTranslate2's are at most 3 (a convolution's
/// kernel), and a bound keeps a corrupted rank from being believed.
const MAX_RANK: usize = 8;

/// Bytes the smallest variable header takes (an empty name, rank 0): the
/// bound that keeps a claimed count from allocating more than the file holds.
const MIN_VARIABLE_HEADER: u64 = 2 + 1 + 1 + 1 + 4;

/// An element type, by CTranslate2's `DataType` id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    F32,
    I8,
    I16,
    I32,
    F16,
    BF16,
}

impl DType {
    fn from_id(id: u8) -> Option<DType> {
        Some(match id {
            0 => DType::F32,
            1 => DType::I8,
            2 => DType::I16,
            3 => DType::I32,
            4 => DType::F16,
            5 => DType::BF16,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            DType::I8 => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::F32 | DType::I32 => 4,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16)
    }
}

/// One variable of the file: its shape, type and where its bytes lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// Outermost first; empty for a scalar. A linear layer's weight is
    /// [out, in], the y = x Wᵀ layout the kernels take.
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// Absolute offset of the data in the file.
    pub start: u64,
    /// Length of the data in bytes: the shape's elements times the type's size.
    pub len: usize,
}

impl Variable {
    /// Number of elements: the data's length over the type's size, which
    /// the reader checked to be the shape's product (so no product of
    /// hostile dimensions is taken again in usize).
    pub fn elements(&self) -> usize {
        self.len / self.dtype.size() as usize
    }
}

/// The header and variable table of a `model.bin`; the data stays in the
/// file until a variable is asked for.
#[derive(Clone, Debug)]
pub struct Ct2File {
    pub version: u32,
    /// The model specification's name, e.g. "WhisperSpec".
    pub spec: String,
    pub revision: u32,
    /// In file order (alphabetical).
    pub variables: Vec<Variable>,
    /// Each alias and the variable it names.
    pub aliases: Vec<(String, String)>,
    index: HashMap<String, usize>,
}

/// Reads forward through a [`Source`], checking every read against its length.
struct Cursor<'a> {
    src: &'a dyn Source,
    at: u64,
}

impl Cursor<'_> {
    fn left(&self) -> u64 {
        self.src.len().saturating_sub(self.at)
    }

    fn take(&mut self, n: u64, what: &str) -> Result<Vec<u8>> {
        if n > self.left() {
            return Err(bad(format!(
                "{} ends inside {what} (at byte {}, {n} bytes needed, {} left): truncated download?",
                self.src.name(),
                self.at,
                self.left()
            )));
        }
        // n ≤ left ≤ the file's length, which a Source holds, so it fits in usize.
        let bytes = self.src.read(self.at, n as usize)?.into_owned();
        self.at += n;
        Ok(bytes)
    }

    fn skip(&mut self, n: u64, what: &str) -> Result<()> {
        if n > self.left() {
            return Err(bad(format!(
                "{} ends inside {what} (at byte {}, {n} bytes claimed, {} left): truncated download?",
                self.src.name(),
                self.at,
                self.left()
            )));
        }
        self.at += n;
        Ok(())
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A count of items of at least `min_each` bytes, believed only if that
    /// many could follow, so that it can size an allocation.
    fn count(&mut self, min_each: u64, what: &str) -> Result<usize> {
        let n = self.u32(what)?;
        if u64::from(n).saturating_mul(min_each) > self.left() {
            return Err(bad(format!(
                "{} claims {n} {what} at byte {}, but only {} bytes follow: corrupted or truncated",
                self.src.name(),
                self.at,
                self.left()
            )));
        }
        Ok(n as usize)
    }

    /// A u16 length counting the closing NUL, the UTF-8 bytes, the NUL.
    fn string(&mut self, what: &str) -> Result<String> {
        let at = self.at;
        let n = self.u16(what)?;
        if n == 0 {
            return Err(bad(format!(
                "{what} at byte {at} has length 0 (not even its closing NUL)"
            )));
        }
        let mut bytes = self.take(u64::from(n), what)?;
        if bytes.pop() != Some(0) || bytes.contains(&0) {
            return Err(bad(format!("{what} at byte {at} is not a NUL-terminated string")));
        }
        String::from_utf8(bytes).map_err(|_| bad(format!("{what} at byte {at} is not UTF-8")))
    }
}

fn bad(message: String) -> Error {
    Error::ModelFile(message)
}

impl Ct2File {
    /// Reads a whole file held in memory (a test's bytes, a download).
    pub fn parse(bytes: &[u8]) -> Result<Ct2File> {
        Ct2File::read(&Bytes::new("model.bin", bytes))
    }

    /// Reads the header, every variable's header and the aliases of `src`,
    /// skipping the variables' data.
    pub fn read(src: &dyn Source) -> Result<Ct2File> {
        let mut c = Cursor { src, at: 0 };
        let version = c.u32("the binary version")?;
        if version != VERSION {
            return Err(bad(format!(
                "{} is CTranslate2 binary version {version}; this reader knows version {VERSION} \
                 (or it is not a CTranslate2 model.bin)",
                src.name()
            )));
        }
        let spec = c.string("the model specification's name")?;
        let revision = c.u32("the specification's revision")?;
        let n = c.count(MIN_VARIABLE_HEADER, "variables")?;
        let mut variables: Vec<Variable> = Vec::with_capacity(n);
        let mut index = HashMap::with_capacity(n);
        for _ in 0..n {
            let v = variable(&mut c)?;
            if index.insert(v.name.clone(), variables.len()).is_some() {
                return Err(bad(format!("{} holds variable `{}` twice", src.name(), v.name)));
            }
            variables.push(v);
        }
        let n_aliases = c.count(6, "aliases")?;
        let mut aliases: Vec<(String, String)> = Vec::with_capacity(n_aliases);
        for _ in 0..n_aliases {
            let alias = c.string("an alias")?;
            let target = c.string("an alias's variable")?;
            if !index.contains_key(&target) {
                return Err(bad(format!(
                    "alias `{alias}` names `{target}`, which {} does not hold",
                    src.name()
                )));
            }
            if index.contains_key(&alias) || aliases.iter().any(|(a, _)| *a == alias) {
                return Err(bad(format!("{} names `{alias}` twice", src.name())));
            }
            aliases.push((alias, target));
        }
        if c.left() > 0 {
            return Err(bad(format!(
                "{} goes on for {} bytes after its aliases: not a CTranslate2 model.bin, or damaged",
                src.name(),
                c.left()
            )));
        }
        Ok(Ct2File { version, spec, revision, variables, aliases, index })
    }

    /// The variable called `name`, or the one an alias `name` names.
    pub fn variable(&self, name: &str) -> Result<&Variable> {
        let target = self.aliases.iter().find(|(a, _)| a == name).map_or(name, |(_, t)| t);
        self.index.get(target).map(|&i| &self.variables[i]).ok_or_else(|| {
            bad(format!("the CTranslate2 model has no variable `{name}`: not the expected model?"))
        })
    }

    /// The raw bytes of variable `name`, read from `src` (the file this was read from).
    pub fn bytes<'s>(&self, src: &'s dyn Source, name: &str) -> Result<std::borrow::Cow<'s, [u8]>> {
        let v = self.variable(name)?;
        src.read(v.start, v.len)
    }

    /// The values of a floating-point variable, widened to f32 (float16 and
    /// bfloat16 hold every value exactly in f32, so nothing is rounded).
    pub fn f32s(&self, src: &dyn Source, name: &str) -> Result<Vec<f32>> {
        let v = self.variable(name)?;
        let bytes = src.read(v.start, v.len)?;
        Ok(match v.dtype {
            DType::F32 => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            DType::F16 => bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            DType::BF16 => bytes
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            other => {
                return Err(bad(format!(
                    "variable `{name}` holds {other:?} integers where numbers were expected"
                )))
            }
        })
    }

    /// A one-element integer variable (a count, a flag), widened to i64.
    pub fn int(&self, src: &dyn Source, name: &str) -> Result<i64> {
        let v = self.variable(name)?;
        if v.elements() != 1 || v.dtype.is_float() {
            return Err(bad(format!(
                "variable `{name}` is {:?} of shape {:?}, not one integer",
                v.dtype, v.shape
            )));
        }
        let b = src.read(v.start, v.len)?;
        Ok(match v.dtype {
            DType::I8 => i64::from(b[0] as i8),
            DType::I16 => i64::from(i16::from_le_bytes([b[0], b[1]])),
            _ => i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        })
    }
}

/// One variable's header, its data checked to lie in the file and skipped.
fn variable(c: &mut Cursor) -> Result<Variable> {
    let name = c.string("a variable's name")?;
    let rank = usize::from(c.u8("a variable's rank")?);
    if rank > MAX_RANK {
        return Err(bad(format!(
            "variable `{name}` claims {rank} dimensions (at most {MAX_RANK})"
        )));
    }
    let mut shape = Vec::with_capacity(rank);
    let mut elements: u64 = 1;
    for _ in 0..rank {
        let d = c.u32("a variable's shape")?;
        elements = elements
            .checked_mul(u64::from(d))
            .ok_or_else(|| bad(format!("variable `{name}`'s shape overflows")))?;
        shape.push(d as usize);
    }
    let id = c.u8("a variable's type")?;
    let dtype = DType::from_id(id).ok_or_else(|| {
        bad(format!("variable `{name}` has type {id}, which CTranslate2 does not define (0 to 5)"))
    })?;
    let len = u64::from(c.u32("a variable's size")?);
    let expected = elements.checked_mul(dtype.size());
    if expected != Some(len) {
        return Err(bad(format!(
            "variable `{name}` claims {len} bytes, but {shape:?} of {dtype:?} takes {}",
            expected.map_or("more than 2⁶⁴".to_string(), |e| e.to_string())
        )));
    }
    let start = c.at;
    c.skip(len, &format!("variable `{name}`'s data"))?;
    // len fits in the file, which a Source holds, so in usize.
    Ok(Variable { name, shape, dtype, start, len: len as usize })
}

#[cfg(test)]
mod tests;
