//! A trace file posted by the page as a `File`, read lazily: each read is a
//! `Blob.slice` of just the bytes asked for, read synchronously with
//! `FileReaderSync` (a worker may block), so a file larger than the tab's
//! memory opens and only the heads a view draws are ever read.

use attnscope::session::{FromWorker, ModelId, Session};
use attnscope::tracefile::ByteSource;
use std::io::{Error, ErrorKind};
use wasm_bindgen::JsValue;
use web_sys::{Blob, FileReaderSync};

pub struct BlobSource {
    blob: Blob,
    reader: FileReaderSync,
}

impl BlobSource {
    pub fn new(blob: Blob) -> Result<Self, String> {
        let reader = FileReaderSync::new().map_err(|e| format!("this browser cannot read files in a worker: {}", js_text(&e)))?;
        Ok(Self { blob, reader })
    }
}

impl ByteSource for BlobSource {
    fn size(&self) -> u64 {
        self.blob.size() as u64
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let end = offset.checked_add(buf.len() as u64).filter(|&end| end <= self.size()).ok_or(Error::from(ErrorKind::UnexpectedEof))?;
        let part = self.blob.slice_with_f64_and_f64(offset as f64, end as f64).map_err(|e| Error::other(js_text(&e)))?;
        // Fails when the file changed or went away since it was chosen.
        let bytes = self
            .reader
            .read_as_array_buffer(&part)
            .map_err(|e| Error::other(format!("the file can no longer be read ({})", js_text(&e))))?;
        let bytes = js_sys::Uint8Array::new(&bytes);
        if bytes.length() as usize != buf.len() {
            return Err(Error::from(ErrorKind::UnexpectedEof));
        }
        bytes.copy_to(buf);
        Ok(())
    }
}

fn js_text(e: &JsValue) -> String {
    js_sys::Error::from(e.clone()).message().as_string().or_else(|| e.as_string()).unwrap_or_else(|| format!("{e:?}"))
}

/// Opens `blob` as the session's trace: its header is read and checked now.
pub fn open(session: &mut Session, blob: Blob) -> FromWorker {
    let opened = BlobSource::new(blob).and_then(|source| session.open_trace(Box::new(source)).map_err(|e| e.to_string()));
    match opened {
        Ok(()) => FromWorker::Loaded { model: ModelId::Trace },
        Err(message) => FromWorker::LoadFailed { model: ModelId::Trace, message },
    }
}
