//! A model opened from the visitor's own files. The page posts the chosen
//! `File`s (a structured clone of handles, not of bytes); they are read here
//! by range with `FileReaderSync` as the loader asks, so a file is never held
//! whole beside the weights built from it. After a preflight (what the files
//! hold, `session::custom`) and the visitor's Load, the model is installed
//! and its files are copied into the Origin Private File System, from where
//! a reload opens it again without asking.

use super::blob_source::BlobSource;
use super::kept::{file_handle, js, root, saved, saved_name, store_dir, MANIFEST, STORE};
use attnscope::checkpoint::Model;
use attnscope::formats::source::Source;
use attnscope::session::custom::{self, CustomReply, CustomRequest};
use attnscope::session::{FromWorker, ModelId};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Blob, File, FileSystemDirectoryHandle, FileSystemFileHandle, FileSystemReadWriteOptions,
    FileSystemSyncAccessHandle, FileSystemWritableFileStream,
};

/// The files of the latest preflight, waiting for Load or Cancel.
struct Chosen {
    name: String,
    files: Vec<(String, Blob)>,
}

thread_local! {
    static CHOSEN: RefCell<Option<Chosen>> = const { RefCell::new(None) };
    /// The files of the model just loaded, waiting to be kept ([`keep_waiting`]).
    static TO_KEEP: RefCell<Option<Chosen>> = const { RefCell::new(None) };
}

fn reply(r: CustomReply) {
    super::held::post(&FromWorker::Custom(r));
}

/// Whether a message is the page's chosen files (`{ attnscopeOpen: [File…], paths: [String…] }`).
pub fn is_open(data: &JsValue) -> bool {
    data.is_object() && js_sys::Reflect::has(data, &"attnscopeOpen".into()).unwrap_or(false)
}

/// The chosen files and their paths (relative to a chosen folder, or just names).
fn chosen_files(data: &JsValue) -> Vec<(String, Blob)> {
    let files: js_sys::Array =
        js_sys::Reflect::get(data, &"attnscopeOpen".into()).map(Into::into).unwrap_or_default();
    let paths: js_sys::Array =
        js_sys::Reflect::get(data, &"paths".into()).map(Into::into).unwrap_or_default();
    files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let file: File = f.dyn_into().ok()?;
            let path = paths
                .get(i as u32)
                .as_string()
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| file.name());
            Some((path, file.into()))
        })
        .collect()
}

fn sources(files: &[(String, Blob)]) -> Vec<Box<dyn Source>> {
    files
        .iter()
        .map(|(p, b)| Box::new(BlobSource::new(p.clone(), b.clone())) as Box<dyn Source>)
        .collect()
}

/// Reads what the chosen files are and answers with a summary (or a refusal);
/// the files that make the checkpoint wait for Load.
pub fn preflight(data: JsValue) {
    let files = chosen_files(&data);
    CHOSEN.with(|c| c.borrow_mut().take());
    let summary = custom::checkpoint(sources(&files)).and_then(|(checkpoint, used, name)| {
        let paths = used.iter().map(|&i| files[i].0.clone()).collect();
        let p = custom::preflight(&checkpoint, paths, &name)?;
        Ok((p, used))
    });
    match summary {
        Ok((p, used)) => {
            if p.refusal.is_none() {
                let kept = used.iter().map(|&i| files[i].clone()).collect();
                CHOSEN
                    .with(|c| *c.borrow_mut() = Some(Chosen { name: p.name.clone(), files: kept }));
            }
            reply(CustomReply::Preflight(Box::new(p)));
        }
        Err(e) => reply(CustomReply::Refused { message: e.to_string() }),
    }
}

/// Builds the model from `files` and gives it to the session; it shares
/// its products with a helper thread, as MiniLM and SmolLM2 do.
async fn install(name: &str, files: &[(String, Blob)]) -> Result<(), String> {
    let (checkpoint, _, _) = custom::checkpoint(sources(files)).map_err(|e| e.to_string())?;
    // Started before the weights are read, so that it is up by the time they are.
    let helper = super::two_threads::starting();
    let mut model = checkpoint.load(ModelId::Custom.slug()).map_err(|e| e.to_string())?;
    match &mut model {
        Model::Decoder(decoder) => super::two_threads::share(decoder.as_mut(), helper).await,
        Model::Encoder(encoder) => super::two_threads::share(encoder.as_mut(), helper).await,
    }
    super::held::install_custom(model);
    super::held::post(&FromWorker::Loaded { model: ModelId::Custom });
    reply(CustomReply::Loaded { name: name.to_string() });
    Ok(())
}

pub async fn handle(request: CustomRequest) {
    match request {
        CustomRequest::Load => {
            let Some(chosen) = CHOSEN.with(|c| c.borrow_mut().take()) else {
                return reply(CustomReply::Failed {
                    message: "choose the model's files again: nothing is waiting to load".into(),
                });
            };
            if let Err(message) = install(&chosen.name, &chosen.files).await {
                return super::held::post(&FromWorker::LoadFailed {
                    model: ModelId::Custom,
                    message,
                });
            }
            TO_KEEP.with(|k| *k.borrow_mut() = Some(chosen));
        }
        CustomRequest::Cancel => CHOSEN.with(|c| *c.borrow_mut() = None),
        CustomRequest::Saved => super::kept::answer_saved().await,
        CustomRequest::Forget => {
            super::held::forget_custom();
            TO_KEEP.with(|k| k.borrow_mut().take());
            match root().await {
                Ok(root) => {
                    let options = web_sys::FileSystemRemoveOptions::new();
                    options.set_recursive(true);
                    // Nothing kept is as good as forgotten.
                    let _ = JsFuture::from(root.remove_entry_with_options(STORE, &options)).await;
                    reply(CustomReply::Forgotten);
                }
                Err(note) => reply(CustomReply::Saved { name: None, note: Some(note) }),
            }
        }
    }
}

/// Copies the model loaded last into the storage, once its first run has
/// been answered (the shell calls this after each reply): copying hundreds
/// of MB competes for the two cores with the run the visitor waits for.
pub fn keep_waiting() {
    if let Some(chosen) = TO_KEEP.with(|k| k.borrow_mut().take()) {
        wasm_bindgen_futures::spawn_local(async move {
            let note = store(&chosen).await.err();
            let name = if note.is_none() { Some(chosen.name.clone()) } else { saved_name().await };
            reply(CustomReply::Saved { name, note });
        });
    }
}

/// Opens the model the storage keeps (the page asks with `Load { model: Custom }` after a reload).
pub async fn load_saved() {
    let failed = |message: String| {
        super::held::post(&FromWorker::LoadFailed { model: ModelId::Custom, message })
    };
    let (name, files) = match saved().await {
        Ok(Some(saved)) => saved,
        Ok(None) => {
            return failed(
                "no model of your own is kept in this browser: open one with \"Open a model…\""
                    .into(),
            )
        }
        Err(e) => {
            return failed(format!(
                "the model kept in this browser cannot be read ({e}); open it again"
            ))
        }
    };
    if let Err(message) = install(&name, &files).await {
        failed(message);
    }
}

async fn write(
    dir: &FileSystemDirectoryHandle,
    name: &str,
    content: Result<&Blob, &str>,
) -> Result<(), String> {
    let handle = file_handle(dir, name, true).await?;
    if !js_sys::Reflect::has(&handle, &"createWritable".into()).unwrap_or(false) {
        return write_through_sync_handle(&handle, name, content).await;
    }
    let stream: FileSystemWritableFileStream = JsFuture::from(handle.create_writable())
        .await
        .map_err(js(
            "this browser cannot write to its storage; the model is kept for this session only",
        ))?
        .unchecked_into();
    let written = match content {
        Ok(blob) => stream.write_with_blob(blob),
        Err(text) => stream.write_with_str(text),
    };
    JsFuture::from(written.map_err(js(name))?)
        .await
        .map_err(js(&format!("could not keep {name} (is the disk full?)")))?;
    JsFuture::from(stream.close()).await.map_err(js(name))?;
    Ok(())
}

/// Bytes read from a chosen file and written at a time by
/// [`write_through_sync_handle`].
const CHUNK: u64 = 8 << 20;

/// [`write`] where a file handle has no `createWritable` (Safari before it
/// had one): through the synchronous access handle that workers have, a
/// chunk at a time, yielding between chunks so that a run asked for
/// meanwhile is not held up by the whole copy.
async fn write_through_sync_handle(
    handle: &FileSystemFileHandle,
    name: &str,
    content: Result<&Blob, &str>,
) -> Result<(), String> {
    let access: FileSystemSyncAccessHandle = JsFuture::from(handle.create_sync_access_handle())
        .await
        .map_err(js(
            "this browser cannot write to its storage; the model is kept for this session only",
        ))?
        .unchecked_into();
    let written = copy_in_chunks(&access, name, content)
        .await
        .and_then(|()| access.flush().map_err(js(name)));
    // The handle locks the file until it is closed, whatever happened.
    access.close();
    written
}

async fn copy_in_chunks(
    access: &FileSystemSyncAccessHandle,
    name: &str,
    content: Result<&Blob, &str>,
) -> Result<(), String> {
    access.truncate_with_f64(0.0).map_err(js(name))?;
    let put = |bytes: &js_sys::Uint8Array, at: u64| -> Result<(), String> {
        let options = FileSystemReadWriteOptions::new();
        options.set_at(at as f64);
        let n = access
            .write_with_js_u8_array_and_options(bytes, &options)
            .map_err(js(&format!("could not keep {name} (is the disk full?)")))?;
        if n as u32 == bytes.length() {
            Ok(())
        } else {
            Err(format!(
                "could not keep {name}: the storage took {n} of {} bytes (is the disk full?)",
                bytes.length()
            ))
        }
    };
    let blob = match content {
        Err(text) => return put(&js_sys::Uint8Array::from(text.as_bytes()), 0),
        Ok(blob) => blob,
    };
    let size = blob.size() as u64;
    let mut at = 0;
    while at < size {
        let end = (at + CHUNK).min(size);
        put(&super::blob_source::read_part(name, blob, at, end)?, at)?;
        at = end;
        next_task().await;
    }
    Ok(())
}

/// Resolves in a task of its own, after the messages already waiting.
async fn next_task() {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = JsFuture::from(wait).await;
}

/// Copies the loaded model's files into the storage, replacing what it kept
/// before; the manifest is written last.
async fn store(chosen: &Chosen) -> Result<(), String> {
    let root = root().await?;
    let options = web_sys::FileSystemRemoveOptions::new();
    options.set_recursive(true);
    let _ = JsFuture::from(root.remove_entry_with_options(STORE, &options)).await;
    let dir = store_dir(true).await?;
    let mut names = Vec::new();
    for (path, blob) in &chosen.files {
        let name = custom::base_name(path).to_string();
        if let Err(e) = write(&dir, &name, Ok(blob)).await {
            // A half-kept model is no model: remove what was written.
            let _ = JsFuture::from(root.remove_entry_with_options(STORE, &options)).await;
            return Err(e);
        }
        names.push(name);
    }
    let manifest = serde_json::json!({ "name": chosen.name, "files": names }).to_string();
    write(&dir, MANIFEST, Err(&manifest)).await
}
