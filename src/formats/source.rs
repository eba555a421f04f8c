//! A model file's bytes, read by range. The loaders ask for the header
//! first and then for each tensor in turn, so a file on disk (or, in the
//! browser, a file the user picked) is never held whole beside the weights
//! built from it: the memory a model needs is its weights, not twice them.

use crate::error::{Error, Result};
use std::borrow::Cow;

/// Where a model file's bytes come from.
pub trait Source {
    /// The file's name, for messages ("model.safetensors").
    fn name(&self) -> &str;

    /// The file's length in bytes.
    fn len(&self) -> u64;

    /// Whether the file is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes `start .. start + len`; an error naming the file if they run past its end.
    fn read(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>>;
}

/// The range `start .. start + len` of a file of `file_len` bytes, or the
/// error for a file that ends before it (overflow-safe on 32-bit targets).
pub fn range(name: &str, file_len: u64, start: u64, len: usize) -> Result<std::ops::Range<usize>> {
    let end = start.checked_add(len as u64).filter(|&end| end <= file_len);
    let range = end.and_then(|end| Some(usize::try_from(start).ok()?..usize::try_from(end).ok()?));
    range.ok_or_else(|| {
        Error::ModelFile(format!(
            "{name} ends at byte {file_len}, but bytes {start}..{} are needed: a truncated or damaged download?",
            start.saturating_add(len as u64)
        ))
    })
}

/// A file already in memory (downloaded by the page, or a test's bytes).
pub struct Bytes<'a> {
    name: String,
    bytes: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(name: &str, bytes: &'a [u8]) -> Bytes<'a> {
        Bytes { name: name.to_string(), bytes }
    }
}

impl Source for Bytes<'_> {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn read(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        Ok(Cow::Borrowed(&self.bytes[range(&self.name, self.len(), start, len)?]))
    }
}

/// A file on disk, read by range as the loader asks (native only).
#[cfg(not(target_arch = "wasm32"))]
pub struct File {
    name: String,
    file: std::sync::Mutex<std::fs::File>,
    len: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl File {
    pub fn open(path: &std::path::Path) -> Result<File> {
        let cannot =
            |e: std::io::Error| Error::ModelFile(format!("cannot read {}: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(cannot)?;
        let len = file.metadata().map_err(cannot)?.len();
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(File { name, file: std::sync::Mutex::new(file), len })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Source for File {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        use std::io::{Read, Seek, SeekFrom};
        range(&self.name, self.len, start, len)?;
        let mut buf = vec![0; len];
        let mut file = self
            .file
            .lock()
            .map_err(|_| Error::ModelFile(format!("{}: an earlier read failed", self.name)))?;
        file.seek(SeekFrom::Start(start)).and_then(|_| file.read_exact(&mut buf)).map_err(|e| {
            Error::ModelFile(format!("cannot read bytes {start}.. of {}: {e}", self.name))
        })?;
        Ok(Cow::Owned(buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_past_the_end_are_errors_that_name_the_file() {
        let data = [1u8, 2, 3, 4];
        let b = Bytes::new("x.gguf", &data);
        assert_eq!(&*b.read(1, 3).unwrap(), &[2, 3, 4]);
        assert!(b.read(4, 0).is_ok());
        for (start, len) in [(2, 3), (5, 0), (u64::MAX, 2), (1, usize::MAX)] {
            let e = b.read(start, len).unwrap_err().to_string();
            assert!(e.contains("x.gguf"), "{e}");
        }
    }
}
