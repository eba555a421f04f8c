//! Marian's binary model format (`*.bin`), as marian-dev's `io/binary`
//! writes it. Little-endian throughout:
//!
//! ```text
//!   u64 version                      1
//!   u64 n                            number of tensors
//!   n × { u64 name_len, u64 type, u64 shape_len, u64 data_len }
//!   n × name                         name_len bytes each, the last one NUL
//!   n × shape                        shape_len i32 each
//!   u64 pad, then pad bytes          the data starts on a 256-byte boundary
//!   n × data                         data_len bytes each (padded to 256)
//! ```
//!
//! Types are Marian's `Type` codes: a class in the high byte, the element
//! size in the low one. This reader takes the three that Bergamot's int8
//! models hold: `float32` (0x0404), `int8` (0x0101: the embedded
//! `special:model.yml`) and `intgemm8` (0x4101): a matrix of int8 weights in
//! intgemm's portable (not CPU-specific) layout, followed by one f32, the
//! quantization multiplier m of the whole matrix (w ≈ q / m). The shape of an
//! intgemm8 matrix is Marian's [in, out] (it computes x·W), but its bytes are
//! already transposed: `out` rows of `in` weights, which is the
//! y = x Wᵀ layout the rest of attnscope uses. `Wemb`, read as a table of
//! embeddings, is stored as its shape says: one row per vocabulary entry.
//!
//! Every count and offset is checked against what remains of the file, in
//! u64 and with checked arithmetic (no usize overflow on wasm32), before
//! anything is allocated; a truncated, corrupted or foreign file is an
//! [`Error::ModelFile`] that says what was wrong.

use crate::error::{Error, Result};

/// Marian's `BINARY_FILE_VERSION`.
const VERSION: u64 = 1;

/// The name under which Marian embeds the model's configuration.
pub const CONFIG_ITEM: &str = "special:model.yml";

/// The element types this reader knows (Marian's `Type` codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemType {
    /// 0x0404: f32.
    Float32,
    /// 0x0101: i8 (the embedded `model.yml` is stored as its bytes).
    Int8,
    /// 0x4101: int8 weights for intgemm, then the f32 quantization multiplier.
    Intgemm8,
}

impl ItemType {
    fn from_code(code: u64) -> Option<ItemType> {
        match code {
            0x0404 => Some(ItemType::Float32),
            0x0101 => Some(ItemType::Int8),
            0x4101 => Some(ItemType::Intgemm8),
            _ => None,
        }
    }

    /// Bytes the data of `elements` values needs at least.
    fn bytes_for(self, elements: u64) -> Option<u64> {
        match self {
            ItemType::Float32 => elements.checked_mul(4),
            ItemType::Int8 => Some(elements),
            ItemType::Intgemm8 => elements.checked_add(4),
        }
    }
}

/// Marian's name for a type code, for messages.
fn type_name(code: u64) -> String {
    let kind = match code & 0xff00 {
        0x0100 => "int",
        0x0200 => "uint",
        0x0400 => "float",
        0x0800 => "packed",
        0x1000 => "avx2 (FBGEMM)",
        0x2000 => "avx512 (FBGEMM)",
        0x4000 => "intgemm",
        _ => "unknown",
    };
    format!("{kind}{} (type 0x{code:04x})", (code & 0xff) * 8)
}

/// One named tensor of the file, its data borrowed from the file's bytes.
#[derive(Clone, Debug)]
pub struct Item<'a> {
    pub name: String,
    pub kind: ItemType,
    /// Marian's shape, outermost first.
    pub shape: Vec<usize>,
    /// The tensor's bytes (its declared length, padding included).
    pub data: &'a [u8],
}

impl Item<'_> {
    /// Number of values the shape holds (checked at parse time not to overflow).
    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }
}

/// The tensors of a Marian binary model, in file order.
#[derive(Clone, Debug)]
pub struct ModelFile<'a> {
    pub items: Vec<Item<'a>>,
}

/// Reads forward through the file; every read is checked against what remains.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn remaining(&self) -> u64 {
        (self.bytes.len() - self.at) as u64
    }

    fn take(&mut self, n: u64, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(truncated(&format!(
                "{what} needs {n} bytes at offset {}, {} remain",
                self.at,
                self.remaining()
            )));
        }
        // n ≤ remaining ≤ usize::MAX, so the cast is exact.
        let n = n as usize;
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }
}

fn truncated(what: &str) -> Error {
    Error::ModelFile(format!("the Marian model file is truncated or corrupted: {what}"))
}

fn corrupted(what: &str) -> Error {
    Error::ModelFile(format!("the Marian model file is corrupted: {what}"))
}

/// The four numbers that describe one tensor before its name, shape and data.
struct Header {
    name_len: u64,
    code: u64,
    shape_len: u64,
    data_len: u64,
}

impl<'a> ModelFile<'a> {
    /// Parses the headers, names and shapes, and slices every tensor's data
    /// out of `bytes` (nothing is copied).
    pub fn parse(bytes: &'a [u8]) -> Result<ModelFile<'a>> {
        let mut c = Cursor { bytes, at: 0 };
        if bytes.len() < 16 {
            return Err(Error::ModelFile(format!(
                "a Marian binary model starts with a 16-byte header; this file has {} bytes",
                bytes.len()
            )));
        }
        let version = c.u64("the version")?;
        if version != VERSION {
            return Err(Error::ModelFile(format!(
                "not a Marian binary model (it would start with version {VERSION}, this file starts with {version:#x}); is it a .npz or another format?"
            )));
        }
        let n = c.u64("the tensor count")?;
        // Each tensor takes at least a 32-byte header, a 1-byte name and 1 byte of data.
        if n == 0 || n > c.remaining() / 34 {
            return Err(corrupted(&format!(
                "it claims {n} tensors, which cannot fit in its {} bytes",
                bytes.len()
            )));
        }
        let mut headers = Vec::with_capacity(n as usize);
        for i in 0..n {
            let what = format!("header {i}");
            headers.push(Header {
                name_len: c.u64(&what)?,
                code: c.u64(&what)?,
                shape_len: c.u64(&what)?,
                data_len: c.u64(&what)?,
            });
        }
        let mut names = Vec::with_capacity(headers.len());
        for (i, h) in headers.iter().enumerate() {
            let raw = c.take(h.name_len, &format!("the name of tensor {i}"))?;
            let name = match raw.split_last() {
                Some((0, name)) if !name.contains(&0) => name,
                _ => {
                    return Err(corrupted(&format!(
                        "the name of tensor {i} is not one NUL-terminated string"
                    )))
                }
            };
            names.push(
                String::from_utf8(name.to_vec())
                    .map_err(|_| corrupted(&format!("the name of tensor {i} is not UTF-8")))?,
            );
        }
        let mut shapes = Vec::with_capacity(headers.len());
        for (h, name) in headers.iter().zip(&names) {
            // Bergamot's tensors have at most 4 dimensions; more is a corrupted count.
            if h.shape_len > 8 {
                return Err(corrupted(&format!(
                    "tensor `{name}` claims {} dimensions",
                    h.shape_len
                )));
            }
            let raw = c.take(h.shape_len * 4, &format!("the shape of `{name}`"))?;
            let mut shape = Vec::with_capacity(h.shape_len as usize);
            let mut elements: u64 = 1;
            for d in raw.chunks_exact(4) {
                let d = i32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                if d < 0 {
                    return Err(corrupted(&format!(
                        "tensor `{name}` has a negative dimension ({d})"
                    )));
                }
                elements = elements
                    .checked_mul(d as u64)
                    .ok_or_else(|| corrupted(&format!("the shape of `{name}` overflows")))?;
                shape.push(d as usize);
            }
            if elements > h.data_len {
                return Err(corrupted(&format!(
                    "tensor `{name}` has {elements} values but only {} bytes of data",
                    h.data_len
                )));
            }
            shapes.push(shape);
        }
        let pad = c.u64("the padding length")?;
        c.take(pad, "the padding before the data")?;
        let mut items = Vec::with_capacity(headers.len());
        for ((h, name), shape) in headers.iter().zip(names).zip(shapes) {
            let kind = ItemType::from_code(h.code).ok_or_else(|| {
                Error::ModelFile(format!(
                    "tensor `{name}` is {}, which this reader does not take (float32, int8 and intgemm8 only: Bergamot's int8 \"alphas\" models)",
                    type_name(h.code)
                ))
            })?;
            let elements: u64 = shape.iter().map(|&d| d as u64).product();
            let need = kind.bytes_for(elements).unwrap_or(u64::MAX);
            if need > h.data_len {
                return Err(corrupted(&format!(
                    "tensor `{name}` ({kind:?}, shape {shape:?}) needs {need} bytes, its header says {}",
                    h.data_len
                )));
            }
            let data = c.take(h.data_len, &format!("the data of `{name}`"))?;
            items.push(Item { name, kind, shape, data });
        }
        Ok(ModelFile { items })
    }

    pub fn get(&self, name: &str) -> Option<&Item<'a>> {
        self.items.iter().find(|i| i.name == name)
    }

    fn require(&self, name: &str) -> Result<&Item<'a>> {
        self.get(name).ok_or_else(|| {
            Error::ModelFile(format!(
                "the Marian model has no tensor `{name}`: is it a Bergamot tiny int8 model?"
            ))
        })
    }

    /// The embedded configuration (`special:model.yml`) as text.
    pub fn config_yaml(&self) -> Result<&'a str> {
        let item = self.require(CONFIG_ITEM)?;
        if item.kind != ItemType::Int8 {
            return Err(corrupted(&format!(
                "`{CONFIG_ITEM}` should be int8 text, it is {:?}",
                item.kind
            )));
        }
        let text = &item.data[..item.elements()];
        // Marian writes the text with a closing NUL.
        let text = text.strip_suffix(&[0]).unwrap_or(text);
        std::str::from_utf8(text)
            .map_err(|_| corrupted(&format!("`{CONFIG_ITEM}` is not UTF-8 text")))
    }

    /// An f32 tensor of exactly `shape`, e.g. a bias [1, d].
    pub fn f32_values(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let item = self.require(name)?;
        if item.kind != ItemType::Float32 {
            return Err(Error::ModelFile(format!(
                "tensor `{name}` is {:?}, expected float32",
                item.kind
            )));
        }
        check_shape(item, shape)?;
        let values: Vec<f32> = item.data[..item.elements() * 4]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        // A flipped bit can make NaN or ∞, which would reach the page as NaN weights.
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(corrupted(&format!(
                "value {i} of `{name}` is {}, not a finite number",
                values[i]
            )));
        }
        Ok(values)
    }

    /// One f32 value stored as a [1, 1] tensor (the `_QuantMultA` alphas).
    pub fn f32_scalar(&self, name: &str) -> Result<f32> {
        let v = self.f32_values(name, &[1, 1])?[0];
        if !(v.is_finite() && v > 0.0) {
            return Err(corrupted(&format!("`{name}` should be a positive number, it is {v}")));
        }
        Ok(v)
    }

    /// An intgemm8 matrix of Marian shape `shape`: its int8 bytes, as stored,
    /// and its quantization multiplier.
    pub fn intgemm8(&self, name: &str, shape: &[usize]) -> Result<(&'a [i8], f32)> {
        let item = self.require(name)?;
        if item.kind != ItemType::Intgemm8 {
            return Err(Error::ModelFile(format!(
                "tensor `{name}` is {:?}, expected intgemm8 (int8 weights with a scale)",
                item.kind
            )));
        }
        check_shape(item, shape)?;
        let n = item.elements();
        let m = &item.data[n..n + 4];
        let quant_mult = f32::from_le_bytes([m[0], m[1], m[2], m[3]]);
        if !(quant_mult.is_finite() && quant_mult > 0.0) {
            return Err(corrupted(&format!(
                "the quantization multiplier of `{name}` is {quant_mult}"
            )));
        }
        let bytes = &item.data[..n];
        // SAFETY: i8 and u8 have the same size and alignment, and every bit pattern is a valid i8.
        let weights = unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), n) };
        Ok((weights, quant_mult))
    }
}

fn check_shape(item: &Item<'_>, shape: &[usize]) -> Result<()> {
    if item.shape != shape {
        return Err(Error::ModelFile(format!(
            "tensor `{}` has shape {:?}, the model's configuration implies {shape:?}",
            item.name, item.shape
        )));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tensor to write into a synthetic file.
    pub(crate) struct Spec<'s> {
        pub name: &'s str,
        pub code: u64,
        pub shape: Vec<i32>,
        pub data: Vec<u8>,
    }

    /// Writes a file the way Marian's `saveItems` does.
    pub(crate) fn write(items: &[Spec<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(VERSION.to_le_bytes());
        out.extend((items.len() as u64).to_le_bytes());
        for i in items {
            for v in [i.name.len() as u64 + 1, i.code, i.shape.len() as u64, i.data.len() as u64] {
                out.extend(v.to_le_bytes());
            }
        }
        for i in items {
            out.extend(i.name.as_bytes());
            out.push(0);
        }
        for i in items {
            i.shape.iter().for_each(|d| out.extend(d.to_le_bytes()));
        }
        let next = (out.len() + 8) / 256 * 256 + 256;
        let pad = (next - out.len() - 8) as u64;
        out.extend(pad.to_le_bytes());
        out.resize(next, 0);
        for i in items {
            out.extend(&i.data);
        }
        out
    }

    fn small() -> Vec<u8> {
        let mut int8 = vec![1u8, 255, 3, 4, 5, 6];
        int8.extend(2.0f32.to_le_bytes());
        let yml = b"type: transformer\n\0".to_vec();
        write(&[
            Spec {
                name: "b",
                code: 0x0404,
                shape: vec![1, 2],
                data: [1.5f32, -2.0].iter().flat_map(|v| v.to_le_bytes()).collect(),
            },
            Spec { name: "W", code: 0x4101, shape: vec![3, 2], data: int8 },
            Spec { name: CONFIG_ITEM, code: 0x0101, shape: vec![yml.len() as i32], data: yml },
        ])
    }

    #[test]
    fn reads_what_marian_writes() {
        let bytes = small();
        let f = ModelFile::parse(&bytes).unwrap();
        assert_eq!(f.items.len(), 3);
        assert_eq!(f.f32_values("b", &[1, 2]).unwrap(), vec![1.5, -2.0]);
        let (w, m) = f.intgemm8("W", &[3, 2]).unwrap();
        assert_eq!((w, m), (&[1i8, -1, 3, 4, 5, 6][..], 2.0));
        assert_eq!(f.config_yaml().unwrap(), "type: transformer\n");
    }

    #[test]
    fn wrong_names_types_and_shapes_are_errors() {
        let bytes = small();
        let f = ModelFile::parse(&bytes).unwrap();
        assert!(f
            .f32_values("missing", &[1])
            .unwrap_err()
            .to_string()
            .contains("no tensor `missing`"));
        assert!(f.f32_values("W", &[3, 2]).unwrap_err().to_string().contains("expected float32"));
        assert!(f.intgemm8("W", &[2, 3]).unwrap_err().to_string().contains("shape [3, 2]"));
    }

    #[test]
    fn every_truncation_is_an_error_never_a_panic() {
        let bytes = small();
        for n in 0..bytes.len() {
            // Cutting the trailing padding of the last tensor's data only is still a cut.
            let err = ModelFile::parse(&bytes[..n]).expect_err(&format!("{n} bytes parsed"));
            assert!(matches!(err, Error::ModelFile(_)), "{err}");
        }
    }

    #[test]
    fn corrupted_counts_are_errors_before_any_allocation() {
        let good = small();
        // Every u64 of the headers set to a huge value, one at a time.
        for at in (8..16 + 3 * 32).step_by(8) {
            for v in [u64::MAX, u64::MAX / 2, 1 << 40, 0] {
                let mut bytes = good.clone();
                bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
                if let Ok(f) = ModelFile::parse(&bytes) {
                    // A changed type code or length can still describe a valid file; then reading
                    // must not panic either.
                    let _ = (f.f32_values("b", &[1, 2]), f.intgemm8("W", &[3, 2]), f.config_yaml());
                }
            }
        }
        let mut bytes = good.clone();
        bytes[0] = 2;
        assert!(ModelFile::parse(&bytes)
            .unwrap_err()
            .to_string()
            .contains("not a Marian binary model"));
        assert!(ModelFile::parse(b"PK\x03\x04 a zip file, not a model").is_err());
    }

    #[test]
    fn unknown_types_and_bad_shapes_are_named() {
        let f16 = write(&[Spec { name: "h", code: 0x0402, shape: vec![2], data: vec![0; 4] }]);
        assert!(ModelFile::parse(&f16).unwrap_err().to_string().contains("float16 (type 0x0402)"));
        let negative =
            write(&[Spec { name: "n", code: 0x0404, shape: vec![-1], data: vec![0; 4] }]);
        assert!(ModelFile::parse(&negative)
            .unwrap_err()
            .to_string()
            .contains("negative dimension"));
        let short = write(&[Spec { name: "s", code: 0x0404, shape: vec![2], data: vec![0; 4] }]);
        assert!(ModelFile::parse(&short).unwrap_err().to_string().contains("needs 8 bytes"));
        let overflow = write(&[Spec {
            name: "o",
            code: 0x0404,
            shape: vec![i32::MAX, i32::MAX, i32::MAX],
            data: vec![0; 4],
        }]);
        assert!(ModelFile::parse(&overflow).is_err());
    }
}
