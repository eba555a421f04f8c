//! The model of the visitor's own that the Origin Private File System keeps
//! (written by `open_files.rs`). Both workers read it: the page asks at every
//! visit which model is kept, and the worker of the built-in models answers,
//! so that the worker with the extras starts only when that model is opened.

use attnscope::session::custom::CustomReply;
use attnscope::session::FromWorker;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, File, FileReaderSync, FileSystemDirectoryHandle, FileSystemFileHandle};

/// The folder of the Origin Private File System that keeps the opened model.
pub const STORE: &str = "attnscope-opened-model";
/// Its list of files and the model's name, written last: a store without it is incomplete.
pub const MANIFEST: &str = "attnscope-manifest.json";

/// Tells the page which model is kept, if any (`CustomRequest::Saved`).
pub async fn answer_saved() {
    super::held::post(&FromWorker::Custom(CustomReply::Saved {
        name: saved_name().await,
        note: root().await.err(),
    }));
}

pub fn js(context: &str) -> impl Fn(JsValue) -> String + '_ {
    move |e| format!("{context}: {}", super::fetch::js_text(&e))
}

/// The root of the Origin Private File System, or why there is none.
pub async fn root() -> Result<FileSystemDirectoryHandle, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let storage = scope.navigator().storage();
    if !js_sys::Reflect::has(&storage, &"getDirectory".into()).unwrap_or(false) {
        return Err("this browser has no Origin Private File System: the model is kept for this session only".into());
    }
    let root = JsFuture::from(storage.get_directory())
        .await
        .map_err(js("the browser's storage is unavailable; kept for this session only"))?;
    Ok(root.unchecked_into())
}

pub async fn store_dir(create: bool) -> Result<FileSystemDirectoryHandle, String> {
    let options = web_sys::FileSystemGetDirectoryOptions::new();
    options.set_create(create);
    let dir = JsFuture::from(root().await?.get_directory_handle_with_options(STORE, &options))
        .await
        .map_err(js("no kept model"))?;
    Ok(dir.unchecked_into())
}

pub async fn file_handle(
    dir: &FileSystemDirectoryHandle,
    name: &str,
    create: bool,
) -> Result<FileSystemFileHandle, String> {
    let options = web_sys::FileSystemGetFileOptions::new();
    options.set_create(create);
    let handle =
        JsFuture::from(dir.get_file_handle_with_options(name, &options)).await.map_err(js(name))?;
    Ok(handle.unchecked_into())
}

pub async fn read_file(dir: &FileSystemDirectoryHandle, name: &str) -> Result<File, String> {
    let handle = file_handle(dir, name, false).await?;
    Ok(JsFuture::from(handle.get_file()).await.map_err(js(name))?.unchecked_into())
}

/// The kept model's name and files, if a whole one is kept.
pub async fn saved() -> Result<Option<(String, Vec<(String, Blob)>)>, String> {
    let Ok(dir) = store_dir(false).await else { return Ok(None) };
    let Ok(manifest) = read_file(&dir, MANIFEST).await else { return Ok(None) };
    let text =
        FileReaderSync::new().and_then(|r| r.read_as_text(&manifest)).map_err(js(MANIFEST))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{MANIFEST}: {e}"))?;
    let name = json.get("name").and_then(|n| n.as_str()).unwrap_or("your model").to_string();
    let mut files = Vec::new();
    for f in json
        .get("files")
        .and_then(|f| f.as_array())
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str())
    {
        files.push((f.to_string(), read_file(&dir, f).await?.into()));
    }
    Ok(Some((name, files)))
}

pub async fn saved_name() -> Option<String> {
    saved().await.ok().flatten().map(|(name, _)| name)
}
