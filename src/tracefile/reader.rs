use super::format::TraceDescription;
use super::index::{header_len, Image, TensorSlice, TraceIndex, PREFIX_LEN};
use super::source::{ByteSource, SeekSource};
use super::TraceFileError;
use crate::tensor::Matrix;
use crate::trace::{pool, Thumbnail, THUMB_MAX};
use std::path::Path;

type Result<T> = std::result::Result<T, TraceFileError>;

/// A trace file opened over a [`ByteSource`]: the header is read and checked
/// on opening; each call then reads only the bytes of what it returns.
pub struct TraceReader<S> {
    source: S,
    index: TraceIndex,
}

impl TraceReader<SeekSource<std::fs::File>> {
    /// Opens the trace file at `path`.
    pub fn open_path(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path)
            .map_err(|e| TraceFileError::Io(format!("cannot open {}: {e}", path.display())))?;
        let source = SeekSource::new(file)
            .map_err(|e| TraceFileError::Io(format!("cannot read {}: {e}", path.display())))?;
        Self::open(source)
    }
}

impl<S: ByteSource> TraceReader<S> {
    /// Reads and checks the header (two small reads).
    pub fn open(mut source: S) -> Result<Self> {
        let size = source.size();
        let mut prefix = vec![0u8; size.min(PREFIX_LEN) as usize];
        read(&mut source, 0, &mut prefix)?;
        let n = header_len(&prefix, size)?;
        // header_len bounds n by MAX_HEADER_LEN (100 MB), which fits any usize.
        let mut header = vec![0u8; n as usize];
        read(&mut source, 8, &mut header)?;
        let index = TraceIndex::parse(&header, size)?;
        Ok(Self { source, index })
    }

    pub fn index(&self) -> &TraceIndex {
        &self.index
    }

    pub fn description(&self) -> &TraceDescription {
        &self.index.description
    }

    /// A[head] of layer `layer` (T × T), rows are queries.
    pub fn attention(&mut self, layer: usize, head: usize) -> Result<Matrix> {
        let slice = self.index.attention(layer, head)?;
        Ok(self.matrices(&slice)?.remove(0))
    }

    /// Every head's weights in layer `layer`.
    pub fn layer_attention(&mut self, layer: usize) -> Result<Vec<Matrix>> {
        let slice = self.index.layer_attention(layer)?;
        self.matrices(&slice)
    }

    /// Query head `head` of layer `layer` (T × D), None when not stored.
    pub fn queries(&mut self, layer: usize, head: usize) -> Result<Option<Matrix>> {
        match self.index.queries(layer, head)? {
            Some(slice) => Ok(Some(self.matrices(&slice)?.remove(0))),
            None => Ok(None),
        }
    }

    /// Key/value head `kv_head` of layer `layer` (T × D), None when not stored.
    pub fn keys(&mut self, layer: usize, kv_head: usize) -> Result<Option<Matrix>> {
        match self.index.keys(layer, kv_head)? {
            Some(slice) => Ok(Some(self.matrices(&slice)?.remove(0))),
            None => Ok(None),
        }
    }

    /// [layer][head] thumbnails for an overview: the stored ones, or, when
    /// the file has none, pooled here from the weights (a layer at a time).
    pub fn thumbnails(&mut self) -> Result<Vec<Vec<Thumbnail>>> {
        let heads = self.index.n_heads();
        if let Some(slice) = self.index.thumbnails() {
            let bytes = self.bytes(&slice)?;
            let all = slice.decode_levels(&bytes)?;
            return Ok(all.chunks_exact(heads).map(<[Thumbnail]>::to_vec).collect());
        }
        (0..self.index.n_layers())
            .map(|l| {
                Ok(self
                    .layer_attention(l)?
                    .iter()
                    .map(|a| Thumbnail::new(&pool(a, THUMB_MAX)))
                    .collect())
            })
            .collect()
    }

    /// A vision trace's image, None when the file has none.
    pub fn image(&mut self) -> Result<Option<Image>> {
        let Some(slice) = self.index.image() else { return Ok(None) };
        let bytes = self.bytes(&slice)?;
        slice.decode_image(&bytes).map(Some)
    }

    fn matrices(&mut self, slice: &TensorSlice) -> Result<Vec<Matrix>> {
        let bytes = self.bytes(slice)?;
        slice.decode(&bytes)
    }

    fn bytes(&mut self, slice: &TensorSlice) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; slice.byte_len()?];
        read(&mut self.source, slice.start, &mut buf)?;
        Ok(buf)
    }
}

fn read<S: ByteSource>(source: &mut S, offset: u64, buf: &mut [u8]) -> Result<()> {
    source.read_at(offset, buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            TraceFileError::Truncated(format!("it ends before byte {}", offset + buf.len() as u64))
        }
        _ => TraceFileError::Io(format!("cannot read the trace file: {e}")),
    })
}
