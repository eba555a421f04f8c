//! The safetensors header of a trace file, parsed and checked against the
//! file's length before any tensor is read; byte ranges of layers and heads;
//! their bytes decoded into matrices.
//!
//! Offsets and sizes are u64 and every product is checked, so the same code
//! is safe on wasm32 (32-bit usize), where a file may be larger than the
//! address space: only the bytes of one request must fit in memory. This is
//! also why the header is not parsed with `safetensors::SafeTensors`, which
//! wants the whole file in memory and counts offsets in usize.

use super::format::{MaskSpec, TraceDescription, FORMAT, MAJOR_VERSION};
use super::{attention_name, keys_name, queries_name, TraceFileError, IMAGE_NAME, THUMBNAILS_NAME};
use crate::tensor::Matrix;
use crate::trace::Thumbnail;
use safetensors::Dtype;
use serde::Deserialize;
use std::collections::HashMap;

/// How many bytes [`header_len`] wants from the start of the file (the
/// header's length and the first byte of the header).
pub const PREFIX_LEN: u64 = 9;

/// Longest header accepted, as in the safetensors crate.
pub const MAX_HEADER_LEN: u64 = 100_000_000;

/// Largest weight accepted: a softmax gives at most 1, rounding a little more.
const MAX_WEIGHT: f32 = 1.001;

/// Longest side of a vision trace's image: a picture to see the patches on,
/// not the model's input at full size (writers downscale to 448 at most).
pub const MAX_IMAGE_SIDE: u64 = 4096;

type Result<T> = std::result::Result<T, TraceFileError>;

/// The length N of the JSON header that starts at byte 8, from the file's
/// first [`PREFIX_LEN`] bytes (fewer if the file is shorter).
pub fn header_len(prefix: &[u8], file_len: u64) -> Result<u64> {
    if file_len < PREFIX_LEN || prefix.len() < PREFIX_LEN as usize {
        return Err(TraceFileError::NotSafetensors(format!(
            "{file_len} bytes are too few for a safetensors file"
        )));
    }
    let n = u64::from_le_bytes(prefix[..8].try_into().expect("8 bytes"));
    if n > MAX_HEADER_LEN || prefix[8] != b'{' {
        return Err(TraceFileError::NotSafetensors(
            "it does not start with a safetensors header".into(),
        ));
    }
    if n > file_len - 8 {
        return Err(TraceFileError::Truncated(format!(
            "its header is {n} bytes long, but the file is only {file_len} bytes"
        )));
    }
    Ok(n)
}

/// Element types a trace file's tensors may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    F16,
    F32,
    /// Thumbnail levels.
    U16,
    /// An image's red, green and blue.
    U8,
}

impl Element {
    pub fn size(self) -> u64 {
        match self {
            Self::U8 => 1,
            Self::F16 | Self::U16 => 2,
            Self::F32 => 4,
        }
    }

    pub fn dtype(self) -> Dtype {
        match self {
            Self::F16 => Dtype::F16,
            Self::F32 => Dtype::F32,
            Self::U16 => Dtype::U16,
            Self::U8 => Dtype::U8,
        }
    }
}

/// One tensor as the header describes it; `start` counts from the file's first byte.
#[derive(Clone, Debug)]
struct Entry {
    dtype: String,
    shape: Vec<u64>,
    start: u64,
    len: u64,
}

#[derive(Deserialize)]
struct RawEntry {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: [u64; 2],
}

/// What a view asks for: `matrices` consecutive matrices of `rows × cols`
/// elements, at bytes `start .. start + len` of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSlice {
    pub start: u64,
    pub len: u64,
    pub element: Element,
    pub matrices: usize,
    pub rows: usize,
    pub cols: usize,
    kind: Kind,
    /// For messages: "layer 3 head 2 attention".
    what: String,
}

/// `count` matrices of `rows × cols` elements, from matrix `first` on of a
/// tensor that holds them one after another.
#[derive(Clone, Copy, Debug)]
struct Matrices {
    first: usize,
    count: usize,
    rows: usize,
    cols: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Attention weights: finite, in [0, MAX_WEIGHT].
    Weights,
    /// Queries and keys: finite.
    Vectors,
    /// Thumbnail levels: any u16.
    Levels,
    /// An image's pixels: any u8.
    Pixels,
}

/// A vision trace's image, `height` rows of `width` pixels, 3 bytes each (red, green, blue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl TensorSlice {
    pub fn end(&self) -> u64 {
        self.start + self.len
    }

    /// The byte count as a usize, or an error where it does not fit (wasm32).
    pub fn byte_len(&self) -> Result<usize> {
        usize::try_from(self.len).map_err(|_| {
            TraceFileError::Invalid(format!(
                "the {} is {} bytes, more than this platform can hold at once",
                self.what, self.len
            ))
        })
    }

    /// The slice's bytes as matrices (f16 widened to f32), each value checked.
    pub fn decode(&self, bytes: &[u8]) -> Result<Vec<Matrix>> {
        self.check_len(bytes)?;
        let values: Vec<f32> = match self.element {
            Element::F32 => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Element::F16 => bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Element::U16 | Element::U8 => {
                return Err(TraceFileError::Invalid(format!(
                    "the {} holds levels, not numbers",
                    self.what
                )))
            }
        };
        let bad = match self.kind {
            Kind::Weights => values.iter().position(|w| !(0.0..=MAX_WEIGHT).contains(w)),
            _ => values.iter().position(|x| !x.is_finite()),
        };
        if let Some(at) = bad {
            let per = self.rows * self.cols;
            let (m, r, c) =
                (at / per.max(1), at % per.max(1) / self.cols.max(1), at % self.cols.max(1));
            let expect =
                if self.kind == Kind::Weights { "a weight in [0, 1]" } else { "a finite number" };
            return Err(TraceFileError::Corrupted(format!(
                "the {} holds {} at [{m}][{r}][{c}] where {expect} belongs",
                self.what, values[at]
            )));
        }
        Ok(values
            .chunks_exact((self.rows * self.cols).max(1))
            .map(|c| Matrix::from_vec(self.rows, self.cols, c.to_vec()))
            .collect())
    }

    /// The slice's bytes as thumbnails.
    pub fn decode_levels(&self, bytes: &[u8]) -> Result<Vec<Thumbnail>> {
        self.check_len(bytes)?;
        if self.element != Element::U16 {
            return Err(TraceFileError::Invalid(format!(
                "the {} holds numbers, not levels",
                self.what
            )));
        }
        let levels: Vec<u16> =
            bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
        let per = (self.rows * self.cols).max(1);
        Ok(levels
            .chunks_exact(per)
            .map(|c| Thumbnail { rows: self.rows, cols: self.cols, levels: c.to_vec() })
            .collect())
    }

    /// The slice's bytes as the image (rows × cols pixels).
    pub fn decode_image(&self, bytes: &[u8]) -> Result<Image> {
        self.check_len(bytes)?;
        if self.kind != Kind::Pixels {
            return Err(TraceFileError::Invalid(format!("the {} is not an image", self.what)));
        }
        Ok(Image { width: self.cols, height: self.rows, rgb: bytes.to_vec() })
    }

    fn check_len(&self, bytes: &[u8]) -> Result<()> {
        if bytes.len() as u64 != self.len {
            return Err(TraceFileError::Io(format!(
                "read {} bytes of the {} instead of {}",
                bytes.len(),
                self.what,
                self.len
            )));
        }
        Ok(())
    }
}

/// A trace file's header, checked: the description and where each tensor lies.
#[derive(Clone, Debug)]
pub struct TraceIndex {
    pub description: TraceDescription,
    /// The format version the file declares.
    pub version: String,
    tensors: HashMap<String, Entry>,
    /// Per layer: queries and keys stored, with their width D.
    d_head: Vec<Option<usize>>,
    thumbnail_size: Option<usize>,
    /// A vision trace's image: height and width in pixels.
    image_size: Option<(usize, usize)>,
}

impl TraceIndex {
    /// Parses and checks the header: `header` is the file's bytes
    /// `8 .. 8 + N` (N from [`header_len`]) and `file_len` the file's length.
    pub fn parse(header: &[u8], file_len: u64) -> Result<Self> {
        let not_st = |why: String| TraceFileError::NotSafetensors(why);
        let data_start = 8 + header.len() as u64;
        if data_start > file_len {
            return Err(TraceFileError::Truncated(format!(
                "the header runs past the file's {file_len} bytes"
            )));
        }
        let json: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(header)
            .map_err(|e| not_st(format!("its header is not valid JSON ({e})")))?;
        let mut metadata: Option<HashMap<String, String>> = None;
        let mut tensors = HashMap::with_capacity(json.len());
        for (name, value) in json {
            if name == "__metadata__" {
                metadata = Some(serde_json::from_value(value).map_err(|e| {
                    not_st(format!("its __metadata__ is not a map of strings ({e})"))
                })?);
                continue;
            }
            let raw: RawEntry = serde_json::from_value(value)
                .map_err(|e| not_st(format!("tensor {name:?} is described wrongly ({e})")))?;
            let [begin, end] = raw.data_offsets;
            let len = end
                .checked_sub(begin)
                .ok_or_else(|| not_st(format!("tensor {name:?} ends before it begins")))?;
            tensors.insert(name, Entry { dtype: raw.dtype, shape: raw.shape, start: begin, len });
        }
        check_layout(&mut tensors, data_start, file_len)?;

        let metadata = metadata.unwrap_or_default();
        match metadata.get("format") {
            Some(f) if f == FORMAT => {}
            Some(f) => return Err(TraceFileError::NotATrace(format!("its format is {f:?}, not {FORMAT:?}"))),
            None => {
                return Err(TraceFileError::NotATrace(format!(
                    "a safetensors file with {} tensors but no \"format\": \"{FORMAT}\" in its metadata (model weights?)",
                    tensors.len()
                )))
            }
        }
        let version = metadata.get("format_version").cloned().unwrap_or_default();
        let major = version.split('.').next().and_then(|m| m.parse::<u32>().ok());
        match major {
            Some(MAJOR_VERSION) => {}
            Some(m) if m > MAJOR_VERSION => {
                return Err(TraceFileError::NewerVersion { found: version })
            }
            _ => {
                return Err(TraceFileError::Corrupted(format!(
                    "its format version {version:?} is not one attnscope knows"
                )))
            }
        }
        let text = metadata
            .get("trace")
            .ok_or_else(|| TraceFileError::Corrupted("it has no \"trace\" description".into()))?;
        let description: TraceDescription = serde_json::from_str(text).map_err(|e| {
            TraceFileError::Corrupted(format!("its description does not read ({e})"))
        })?;
        description.check().map_err(|why| {
            TraceFileError::Corrupted(format!("its description is inconsistent: {why}"))
        })?;

        let mut index = Self {
            description,
            version,
            tensors,
            d_head: Vec::new(),
            thumbnail_size: None,
            image_size: None,
        };
        index.check_tensors()?;
        Ok(index)
    }

    /// Every required tensor there with its dtype and shape; optional ones
    /// checked when present.
    fn check_tensors(&mut self) -> Result<()> {
        let d = &self.description;
        let (l, h, kv, t) =
            (d.n_layers as u64, d.n_heads as u64, d.n_kv_heads as u64, d.tokens.len() as u64);
        // A layer needs a tensor at least: this bounds the loops below by the header's size.
        if l > self.tensors.len() as u64 {
            return Err(TraceFileError::Corrupted(format!(
                "it claims {l} layers but holds only {} tensors",
                self.tensors.len()
            )));
        }
        let mut d_head = Vec::with_capacity(d.n_layers);
        for layer in 0..d.n_layers {
            let name = attention_name(layer);
            let e = self.tensors.get(&name).ok_or_else(|| {
                TraceFileError::Corrupted(format!("the attention of layer {layer} is missing"))
            })?;
            float_element(&name, e)?;
            expect_shape(&name, e, &[h, t, t])?;
            let (q, k) =
                (self.tensors.get(&queries_name(layer)), self.tensors.get(&keys_name(layer)));
            d_head.push(match (q, k) {
                (None, None) => None,
                (Some(q), Some(k)) => {
                    if d.queries_keys.is_none() {
                        return Err(TraceFileError::Corrupted(
                            "it holds queries and keys but not their scale (\"queries_keys\")"
                                .into(),
                        ));
                    }
                    float_element(&queries_name(layer), q)?;
                    float_element(&keys_name(layer), k)?;
                    let width = q.shape.get(2).copied().unwrap_or(0);
                    if width == 0 {
                        return Err(TraceFileError::Corrupted(format!(
                            "layer {layer}'s queries have no width"
                        )));
                    }
                    expect_shape(&queries_name(layer), q, &[h, t, width])?;
                    expect_shape(&keys_name(layer), k, &[kv, t, width])?;
                    Some(usize::try_from(width).map_err(|_| {
                        TraceFileError::Corrupted(format!("layer {layer}'s heads are {width} wide"))
                    })?)
                }
                _ => {
                    return Err(TraceFileError::Corrupted(format!(
                        "layer {layer} has queries without keys or keys without queries"
                    )))
                }
            });
        }
        self.d_head = d_head;
        if let Some(e) = self.tensors.get(THUMBNAILS_NAME) {
            if Element::U16.dtype() != dtype_of(THUMBNAILS_NAME, e)? {
                return Err(TraceFileError::Corrupted(format!(
                    "its thumbnails are {}, not U16 levels",
                    e.dtype
                )));
            }
            let s = e.shape.get(2).copied().unwrap_or(0);
            expect_shape(THUMBNAILS_NAME, e, &[l, h, s, s])?;
            if s == 0 || s > t {
                return Err(TraceFileError::Corrupted(format!(
                    "its thumbnails are {s} × {s} cells for {t} tokens"
                )));
            }
            self.thumbnail_size = Some(s as usize);
        }
        // A vision trace's image: without a patch grid it means nothing and is ignored.
        if self.description.patches.is_some() {
            let e = self.tensors.get(IMAGE_NAME).ok_or_else(|| {
                TraceFileError::Corrupted(
                    "it has a patch grid but no image (the \"image\" tensor)".into(),
                )
            })?;
            if Element::U8.dtype() != dtype_of(IMAGE_NAME, e)? {
                return Err(TraceFileError::Corrupted(format!(
                    "its image is {}, not U8 red, green and blue",
                    e.dtype
                )));
            }
            let (height, width) =
                (e.shape.first().copied().unwrap_or(0), e.shape.get(1).copied().unwrap_or(0));
            expect_shape(IMAGE_NAME, e, &[height, width, 3])?;
            if !(1..=MAX_IMAGE_SIDE).contains(&height) || !(1..=MAX_IMAGE_SIDE).contains(&width) {
                return Err(TraceFileError::Corrupted(format!(
                    "its image is {width} × {height} pixels; each side must be 1 to {MAX_IMAGE_SIDE}"
                )));
            }
            self.image_size = Some((height as usize, width as usize));
        }
        Ok(())
    }

    pub fn n_layers(&self) -> usize {
        self.description.n_layers
    }

    pub fn n_heads(&self) -> usize {
        self.description.n_heads
    }

    pub fn n_kv_heads(&self) -> usize {
        self.description.n_kv_heads
    }

    pub fn n_tokens(&self) -> usize {
        self.description.tokens.len()
    }

    pub fn mask(&self, layer: usize) -> MaskSpec {
        self.description.mask(layer)
    }

    /// The width of layer `layer`'s query and key heads, when they are stored.
    pub fn d_head(&self, layer: usize) -> Option<usize> {
        self.d_head.get(layer).copied().flatten()
    }

    /// Are queries and keys stored for layer `layer`?
    pub fn has_queries_keys(&self, layer: usize) -> bool {
        self.d_head(layer).is_some()
    }

    /// Are queries and keys stored for every layer?
    pub fn has_all_queries_keys(&self) -> bool {
        self.d_head.iter().all(Option::is_some)
    }

    /// The cells per side of the stored thumbnails, when there are some.
    pub fn thumbnail_size(&self) -> Option<usize> {
        self.thumbnail_size
    }

    /// Head `head` of layer `layer`: a T × T matrix of weights.
    pub fn attention(&self, layer: usize, head: usize) -> Result<TensorSlice> {
        self.check_layer_head(layer, head, self.n_heads(), "head")?;
        let t = self.n_tokens();
        let m = Matrices { first: head, count: 1, rows: t, cols: t };
        self.slice(
            &attention_name(layer),
            m,
            Kind::Weights,
            format!("layer {layer} head {head} attention"),
        )
    }

    /// Every head of layer `layer`: H matrices of T × T weights.
    pub fn layer_attention(&self, layer: usize) -> Result<TensorSlice> {
        self.check_layer_head(layer, 0, 1, "head")?;
        let t = self.n_tokens();
        let m = Matrices { first: 0, count: self.n_heads(), rows: t, cols: t };
        self.slice(&attention_name(layer), m, Kind::Weights, format!("layer {layer} attention"))
    }

    /// Query head `head` of layer `layer` (T × D), or None when not stored.
    pub fn queries(&self, layer: usize, head: usize) -> Result<Option<TensorSlice>> {
        self.check_layer_head(layer, head, self.n_heads(), "head")?;
        let Some(d) = self.d_head(layer) else { return Ok(None) };
        let what = format!("layer {layer} head {head} queries");
        let m = Matrices { first: head, count: 1, rows: self.n_tokens(), cols: d };
        self.slice(&queries_name(layer), m, Kind::Vectors, what).map(Some)
    }

    /// Key/value head `kv_head` of layer `layer` (T × D), or None when not stored.
    pub fn keys(&self, layer: usize, kv_head: usize) -> Result<Option<TensorSlice>> {
        self.check_layer_head(layer, kv_head, self.n_kv_heads(), "key/value head")?;
        let Some(d) = self.d_head(layer) else { return Ok(None) };
        let what = format!("layer {layer} key/value head {kv_head} keys");
        let m = Matrices { first: kv_head, count: 1, rows: self.n_tokens(), cols: d };
        self.slice(&keys_name(layer), m, Kind::Vectors, what).map(Some)
    }

    /// All thumbnails, layer after layer and head after head, or None when
    /// the file has none.
    pub fn thumbnails(&self) -> Option<TensorSlice> {
        let s = self.thumbnail_size?;
        let e = self.tensors.get(THUMBNAILS_NAME)?;
        // The shape was checked against the file; saturating keeps a 32-bit reader from wrapping.
        let count = self.n_layers().saturating_mul(self.n_heads());
        Some(TensorSlice {
            start: e.start,
            len: e.len,
            element: Element::U16,
            matrices: count,
            rows: s,
            cols: s,
            kind: Kind::Levels,
            what: "thumbnails".into(),
        })
    }

    /// A vision trace's image, or None when the file has none.
    pub fn image(&self) -> Option<TensorSlice> {
        let (height, width) = self.image_size?;
        let e = self.tensors.get(IMAGE_NAME)?;
        Some(TensorSlice {
            start: e.start,
            len: e.len,
            element: Element::U8,
            matrices: 1,
            rows: height,
            cols: width,
            kind: Kind::Pixels,
            what: "image".into(),
        })
    }

    fn check_layer_head(&self, layer: usize, head: usize, heads: usize, word: &str) -> Result<()> {
        if layer >= self.n_layers() || head >= heads {
            return Err(TraceFileError::Invalid(format!(
                "the trace of {} has layers 0–{} and {word}s 0–{}; asked for layer {layer} {word} {head}",
                self.description.model.name,
                self.n_layers() - 1,
                heads - 1
            )));
        }
        Ok(())
    }

    /// Matrices `m` of tensor `name` (whose shape was checked, so the range
    /// lies inside it).
    fn slice(&self, name: &str, m: Matrices, kind: Kind, what: String) -> Result<TensorSlice> {
        let Matrices { first, count, rows, cols } = m;
        let e = self
            .tensors
            .get(name)
            .ok_or_else(|| TraceFileError::Corrupted(format!("{name} is missing")))?;
        let element = float_element(name, e)?;
        let per = (rows as u64) * (cols as u64) * element.size();
        Ok(TensorSlice {
            start: e.start + first as u64 * per,
            len: count as u64 * per,
            element,
            matrices: count,
            rows,
            cols,
            kind,
            what,
        })
    }
}

/// The tensors, sorted by offset, must tile the data exactly: from byte 0,
/// each where the one before ends, each as long as its shape and dtype say,
/// the last ending at the end of the file. Offsets become absolute.
fn check_layout(
    tensors: &mut HashMap<String, Entry>,
    data_start: u64,
    file_len: u64,
) -> Result<()> {
    let not_st = |why: String| TraceFileError::NotSafetensors(why);
    let mut order: Vec<(&String, &Entry)> = tensors.iter().collect();
    order.sort_by_key(|(_, e)| (e.start, e.len));
    let mut at = 0u64;
    for (name, e) in &order {
        if e.start != at {
            return Err(not_st(format!(
                "its tensors do not follow each other (tensor {name:?} starts at {}, not {at})",
                e.start
            )));
        }
        if let Ok(dtype) =
            serde_json::from_value::<Dtype>(serde_json::Value::String(e.dtype.clone()))
        {
            let bits = e.shape.iter().try_fold(dtype.bitsize() as u64, |n, &d| n.checked_mul(d));
            if bits.map(|b| b.div_ceil(8)) != Some(e.len) {
                return Err(not_st(format!(
                    "tensor {name:?} has {} bytes for shape {:?} of {}",
                    e.len, e.shape, e.dtype
                )));
            }
        }
        at = e.start + e.len;
    }
    let available = file_len - data_start;
    if at > available {
        return Err(TraceFileError::Truncated(format!(
            "its tensors take {at} bytes, but only {available} follow the header"
        )));
    }
    if at < available {
        return Err(TraceFileError::Corrupted(format!(
            "{} bytes follow its last tensor",
            available - at
        )));
    }
    for e in tensors.values_mut() {
        e.start += data_start;
    }
    Ok(())
}

fn dtype_of(name: &str, e: &Entry) -> Result<Dtype> {
    serde_json::from_value(serde_json::Value::String(e.dtype.clone())).map_err(|_| {
        TraceFileError::Corrupted(format!(
            "{name} has dtype {:?}, which safetensors does not know",
            e.dtype
        ))
    })
}

fn float_element(name: &str, e: &Entry) -> Result<Element> {
    match dtype_of(name, e)? {
        Dtype::F16 => Ok(Element::F16),
        Dtype::F32 => Ok(Element::F32),
        other => Err(TraceFileError::Corrupted(format!(
            "{name} is {other}; trace files hold F16 or F32"
        ))),
    }
}

fn expect_shape(name: &str, e: &Entry, want: &[u64]) -> Result<()> {
    if e.shape != want {
        return Err(TraceFileError::Corrupted(format!(
            "{name} has shape {:?}, not {want:?}",
            e.shape
        )));
    }
    Ok(())
}
