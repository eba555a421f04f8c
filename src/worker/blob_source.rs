//! A file the visitor chose (a `File`, posted by the page), read lazily: each
//! read is a `Blob.slice` of just the bytes asked for, read synchronously
//! with `FileReaderSync` (a worker may block), so a file larger than the
//! tab's memory opens and only what a view or the loader asks for is read.
//! The one reader serves both the trace reader (`ByteSource`) and the
//! checkpoint loader (`files::Source`).

use super::fetch::js_text;
use attnscope::formats::source::{range, Source};
use attnscope::session::{FromWorker, ModelId, Session};
use attnscope::tracefile::ByteSource;
use std::borrow::Cow;
use wasm_bindgen::JsCast;
use web_sys::{Blob, FileReaderSync};

pub struct BlobSource {
    name: String,
    blob: Blob,
    len: u64,
}

impl BlobSource {
    pub fn new(name: String, blob: Blob) -> Self {
        let len = blob.size() as u64;
        Self { name, blob, len }
    }

    /// Fills `buf` from byte `start`; a sentence naming the file on failure.
    fn read_into(&self, start: u64, buf: &mut [u8]) -> Result<(), String> {
        range(&self.name, self.len, start, buf.len()).map_err(|e| e.to_string())?;
        let bytes = read_part(&self.name, &self.blob, start, start + buf.len() as u64)?;
        if bytes.length() as usize != buf.len() {
            return Err(format!("{} changed on disk while it was read", self.name));
        }
        bytes.copy_to(buf);
        Ok(())
    }
}

/// Bytes `start .. end` of `blob` (the file `name`), read at once, outside
/// wasm memory; a sentence naming the file on failure.
pub fn read_part(
    name: &str,
    blob: &Blob,
    start: u64,
    end: u64,
) -> Result<js_sys::Uint8Array, String> {
    let cannot =
        |e: wasm_bindgen::JsValue| format!("{name} can no longer be read ({})", js_text(&e));
    let part = blob.slice_with_f64_and_f64(start as f64, end as f64).map_err(cannot)?;
    // Fails when the file changed or went away since it was chosen.
    let bytes =
        FileReaderSync::new().and_then(|r| r.read_as_array_buffer(&part)).map_err(cannot)?;
    Ok(js_sys::Uint8Array::new(&bytes))
}

impl ByteSource for BlobSource {
    fn size(&self) -> u64 {
        self.len
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        if offset.checked_add(buf.len() as u64).is_none_or(|end| end > self.len) {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.read_into(offset, buf).map_err(std::io::Error::other)
    }
}

impl Source for BlobSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read(&self, start: u64, len: usize) -> attnscope::error::Result<Cow<'_, [u8]>> {
        let mut out = vec![0; len];
        self.read_into(start, &mut out).map_err(attnscope::Error::ModelFile)?;
        Ok(Cow::Owned(out))
    }
}

/// Opens `blob` as the session's trace: its header is read and checked now.
pub fn open(session: &mut Session, blob: Blob) -> FromWorker {
    let name = blob
        .dyn_ref::<web_sys::File>()
        .map_or_else(|| "the trace file".to_string(), web_sys::File::name);
    match session.open_trace(Box::new(BlobSource::new(name, blob))) {
        Ok(()) => FromWorker::Loaded { model: ModelId::Trace },
        Err(e) => FromWorker::LoadFailed { model: ModelId::Trace, message: e.to_string() },
    }
}
