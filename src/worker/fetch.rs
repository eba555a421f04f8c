//! Downloading model files inside the worker: a progress report as bytes
//! arrive, a size cap and a stall timeout, a sha256 check against
//! models/manifest.json, and the Cache API so a second visit reads the files
//! from disk instead of the network (checked the same way: a damaged entry
//! is deleted and downloaded again).

use attnscope::session::{ModelFile, ModelId};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, DedicatedWorkerGlobalScope, ReadableStreamDefaultReader, Response};

/// Bump when the cached files' meaning changes, so old entries are ignored.
const CACHE_NAME: &str = "attnscope-models-v1";

/// A download (or cache read) that delivers nothing for this long has stalled.
const STALL_MS: i32 = 30_000;

fn js_err(context: &str, e: JsValue) -> String {
    format!("{context}: {}", js_text(&e))
}

/// What a thrown JavaScript value says: its text, or an Error's message.
pub(crate) fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| format!("{e:?}"))
}

async fn open_cache(scope: &DedicatedWorkerGlobalScope) -> Option<Cache> {
    // Caches are unavailable on some origins (e.g. opaque ones): then we just download.
    let caches = scope.caches().ok()?;
    JsFuture::from(caches.open(CACHE_NAME)).await.ok()?.dyn_into().ok()
}

/// The next chunk of `reader`, or an error once nothing came for [`STALL_MS`].
async fn next_chunk(
    scope: &DedicatedWorkerGlobalScope,
    reader: &ReadableStreamDefaultReader,
    name: &str,
) -> Result<JsValue, String> {
    let mut timer = None;
    let stall = js_sys::Promise::new(&mut |resolve, _| {
        timer =
            scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, STALL_MS).ok();
    });
    let first =
        JsFuture::from(js_sys::Promise::race(&js_sys::Array::of2(&reader.read(), &stall))).await;
    if let Some(t) = timer {
        scope.clear_timeout_with_handle(t);
    }
    let chunk = first.map_err(|e| js_err(&format!("the download of {name} broke off"), e))?;
    if chunk.is_undefined() {
        let _ = reader.cancel();
        return Err(format!(
            "the download of {name} stalled: nothing arrived for {} s; check the connection and choose the model again",
            STALL_MS / 1000
        ));
    }
    Ok(chunk)
}

/// Reads a response body chunk by chunk, calling `progress(bytes_so_far)`;
/// never more than the file's pinned size.
async fn read_body(
    scope: &DedicatedWorkerGlobalScope,
    response: &Response,
    file: &ModelFile,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<u8>, String> {
    let body = response.body().ok_or("the server sent no body")?;
    let reader: ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|e: js_sys::Object| js_err("cannot read the download", e.into()))?;
    let mut bytes = Vec::with_capacity(usize::try_from(file.bytes).unwrap_or(0));
    loop {
        let chunk = next_chunk(scope, &reader, &file.name).await?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .map_err(|e| js_err("bad chunk", e))?
            .dyn_into()
            .map_err(|e| js_err("bad chunk", e))?;
        let start = bytes.len();
        if let Err(e) = file.check_progress(start as u64 + value.length() as u64) {
            let _ = reader.cancel();
            return Err(e);
        }
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        progress(bytes.len() as u64);
    }
    Ok(bytes)
}

/// One file, from the cache if it is there, else from the server (then cached).
/// `progress(bytes)` reports this file's bytes so far.
pub async fn fetch_file(
    scope: &DedicatedWorkerGlobalScope,
    model: ModelId,
    file: &ModelFile,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<u8>, String> {
    let url = model.url(file);
    let cache = open_cache(scope).await;
    if let Some(cache) = &cache {
        if let Ok(hit) = JsFuture::from(cache.match_with_str(&url)).await {
            if let Ok(response) = hit.dyn_into::<Response>() {
                if let Ok(bytes) = read_body(scope, &response, file, progress).await {
                    if file.verify(&bytes).is_ok() {
                        return Ok(bytes);
                    }
                }
                // A damaged or stale cache entry: forget it and download again.
                let _ = JsFuture::from(cache.delete_with_str(&url)).await;
            }
        }
    }
    let response: Response = JsFuture::from(scope.fetch_with_str(&url))
        .await
        .map_err(|e| js_err(&format!("could not download {url}"), e))?
        .dyn_into()
        .map_err(|e| js_err("not a response", e))?;
    if !response.ok() {
        return Err(format!(
            "could not download {url}: the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let mut bytes = read_body(scope, &response, file, progress).await?;
    file.verify(&bytes)?;
    if let Some(cache) = &cache {
        if let Ok(copy) = Response::new_with_opt_u8_array(Some(&mut bytes)) {
            let _ = JsFuture::from(cache.put_with_str(&url, &copy)).await;
        }
    }
    Ok(bytes)
}

/// All files of a model (the exact weights or the default copy,
/// `ModelId::files_for`), reporting the running total over all of them.
pub async fn fetch_model(
    scope: &DedicatedWorkerGlobalScope,
    model: ModelId,
    exact: bool,
    report: &dyn Fn(u64, u64),
) -> Result<Vec<Vec<u8>>, String> {
    let total = model.download_bytes_for(exact);
    let mut done = 0u64;
    let mut out = Vec::new();
    for file in model.files_for(exact) {
        let mut last_report = 0u64;
        let mut progress = |so_far: u64| {
            // About a hundred reports per model: enough for a smooth bar.
            if so_far - last_report >= total / 100 || so_far == file.bytes {
                last_report = so_far;
                report(done + so_far, total);
            }
        };
        out.push(fetch_file(scope, model, &file, &mut progress).await?);
        done += file.bytes;
    }
    report(total, total);
    Ok(out)
}
