use std::io::{Read, Seek, SeekFrom};

/// Bytes that can be read at any offset: a file natively, a buffer in tests.
/// (The browser's `Blob.slice` is asynchronous: the page drives
/// [`super::TraceIndex`] itself rather than through this trait.)
pub trait ByteSource {
    /// The length of the whole source, in bytes.
    fn size(&self) -> u64;
    /// Fills `buf` with the bytes from `offset` on.
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()>;
}

/// A reader with seeking, such as a `std::fs::File`.
pub struct SeekSource<R> {
    inner: R,
    size: u64,
}

impl<R: Read + Seek> SeekSource<R> {
    pub fn new(mut inner: R) -> std::io::Result<Self> {
        let size = inner.seek(SeekFrom::End(0))?;
        Ok(Self { inner, size })
    }
}

impl<R: Read + Seek> ByteSource for SeekSource<R> {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.inner.seek(SeekFrom::Start(offset))?;
        self.inner.read_exact(buf)
    }
}

impl ByteSource for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|start| self.get(start..start.checked_add(buf.len())?))
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}
