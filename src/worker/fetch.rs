//! Downloading model files inside the worker: a progress report as bytes
//! arrive, a sha256 check against models/manifest.json, and the Cache API so
//! a second visit reads the files from disk instead of the network.

use attnscope::session::{ModelFile, ModelId};
use js_sys::{Reflect, Uint8Array};
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, DedicatedWorkerGlobalScope, ReadableStreamDefaultReader, Response};

/// Bump when the cached files' meaning changes, so old entries are ignored.
const CACHE_NAME: &str = "attnscope-models-v1";

fn js_err(context: &str, e: JsValue) -> String {
    format!("{context}: {}", js_text(&e))
}

/// What a thrown JavaScript value says: its text, or an Error's message.
pub(crate) fn js_text(e: &JsValue) -> String {
    e.as_string().or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message()))).unwrap_or_else(|| format!("{e:?}"))
}

async fn open_cache(scope: &DedicatedWorkerGlobalScope) -> Option<Cache> {
    // Caches are unavailable on some origins (e.g. opaque ones): then we just download.
    let caches = scope.caches().ok()?;
    JsFuture::from(caches.open(CACHE_NAME)).await.ok()?.dyn_into().ok()
}

/// Reads a response body chunk by chunk, calling `progress(bytes_so_far)`.
async fn read_body(response: &Response, expected: u64, progress: &mut dyn FnMut(u64)) -> Result<Vec<u8>, String> {
    let body = response.body().ok_or("the server sent no body")?;
    let reader: ReadableStreamDefaultReader =
        body.get_reader().dyn_into().map_err(|e: js_sys::Object| js_err("cannot read the download", e.into()))?;
    let mut bytes = Vec::with_capacity(expected as usize);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| js_err("the download broke off", e))?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value: Uint8Array =
            Reflect::get(&chunk, &"value".into()).map_err(|e| js_err("bad chunk", e))?.dyn_into().map_err(|e| js_err("bad chunk", e))?;
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        progress(bytes.len() as u64);
    }
    Ok(bytes)
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
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
                if let Ok(bytes) = read_body(&response, file.bytes, progress).await {
                    if bytes.len() as u64 == file.bytes {
                        return Ok(bytes);
                    }
                }
                // A damaged cache entry: forget it and download again.
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
        return Err(format!("could not download {url}: the server answered {} {}", response.status(), response.status_text()));
    }
    let mut bytes = read_body(&response, file.bytes, progress).await?;
    if bytes.len() as u64 != file.bytes {
        return Err(format!("{url} is {} bytes, expected {}: the download was cut short or the file is wrong", bytes.len(), file.bytes));
    }
    let digest = sha256_hex(&bytes);
    if digest != file.sha256 {
        return Err(format!("{url} is corrupted: its sha256 is {digest}, expected {}", file.sha256));
    }
    if let Some(cache) = &cache {
        if let Ok(copy) = Response::new_with_opt_u8_array(Some(&mut bytes)) {
            let _ = JsFuture::from(cache.put_with_str(&url, &copy)).await;
        }
    }
    Ok(bytes)
}

/// All files of a model, reporting the running total over all of them.
pub async fn fetch_model(scope: &DedicatedWorkerGlobalScope, model: ModelId, report: &dyn Fn(u64, u64)) -> Result<Vec<Vec<u8>>, String> {
    let total = model.download_bytes();
    let mut done = 0u64;
    let mut out = Vec::new();
    for file in model.files() {
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
