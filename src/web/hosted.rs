//! The page hosted by a notebook (`attnscope.show`, through anywidget) or by
//! the standalone HTML of `attnscope.to_html` (python/src/attnscope/static/
//! frame.html starts it). Before the page's wasm runs, the host sets
//! `globalThis.attnscopeHost = { worker, trace: { name, size }, read, query }`:
//! `worker`, the address of the worker with the extras; `query`, the page's
//! start as its address would give it (`layer=1&head=2&view=…`); `read(start, end)`,
//! a promise of those bytes of the trace as an `ArrayBuffer`. The page then
//! opens that trace and nothing else (no other model, no downloads, no
//! address of its own), and the worker asks for the trace's bytes as views
//! need them (`src/worker/hosted.rs`), which are fetched here from the host.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// What the host gives.
#[derive(Clone)]
pub struct Host {
    /// The extra worker's loader script.
    pub worker: String,
    /// The trace's file name and size in bytes.
    pub name: String,
    pub size: f64,
    /// The start: view, layer, head… as in the page's address.
    pub query: String,
    read: js_sys::Function,
}

thread_local! {
    static HOST: Option<Host> = find();
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn get(of: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(of, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

fn find() -> Option<Host> {
    let host = get(&js_sys::global(), "attnscopeHost");
    if !host.is_object() {
        return None;
    }
    let trace = get(&host, "trace");
    Some(Host {
        worker: get(&host, "worker").as_string()?,
        name: get(&trace, "name").as_string().unwrap_or_else(|| "trace.safetensors".into()),
        size: get(&trace, "size").as_f64()?,
        query: get(&host, "query").as_string().unwrap_or_default(),
        read: get(&host, "read").dyn_into().ok()?,
    })
}

/// The host, if the page is hosted.
pub fn host() -> Option<Host> {
    HOST.with(Clone::clone)
}

/// Whether the page is hosted.
pub fn is_hosted() -> bool {
    HOST.with(Option::is_some)
}

/// Whether a run of model `id` is the hosted trace's first (once true, then false).
pub fn first_trace_run(id: &str) -> bool {
    is_hosted()
        && id == attnscope::session::ModelId::Trace.slug()
        && !STARTED.with(|s| s.replace(true))
}

/// The message that opens the host's trace in the worker.
pub fn open_message(host: &Host) -> JsValue {
    let (msg, about) = (js_sys::Object::new(), js_sys::Object::new());
    let _ = js_sys::Reflect::set(&about, &"name".into(), &host.name.as_str().into());
    let _ = js_sys::Reflect::set(&about, &"size".into(), &host.size.into());
    let _ = js_sys::Reflect::set(&msg, &"attnscopeHosted".into(), &about);
    msg.into()
}

/// Answers the worker's `{ attnscopeWants: [start, end, …] }` from the host,
/// each range as it comes; false for any other message.
pub fn serve(worker: &web_sys::Worker, data: &JsValue) -> bool {
    let wants = if data.is_object() { get(data, "attnscopeWants") } else { JsValue::UNDEFINED };
    let (Some(host), Some(wants)) = (host(), wants.dyn_ref::<js_sys::Array>()) else {
        return false;
    };
    let numbers: Vec<f64> = wants.iter().filter_map(|v| v.as_f64()).collect();
    for pair in numbers.chunks_exact(2) {
        let (start, end, host, worker) = (pair[0], pair[1], host.clone(), worker.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let reply = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&reply, &"attnscopeBytes".into(), &start.into());
            let transfer = js_sys::Array::new();
            match read(&host, start, end).await {
                Ok(bytes) => {
                    let _ = js_sys::Reflect::set(&reply, &"bytes".into(), &bytes);
                    transfer.push(&bytes);
                }
                Err(why) => {
                    let _ = js_sys::Reflect::set(&reply, &"error".into(), &why.into());
                }
            }
            let _ = worker.post_message_with_transfer(&reply, &transfer);
        });
    }
    true
}

/// Bytes `start..end` of the trace from the host, checked for their length.
async fn read(host: &Host, start: f64, end: f64) -> Result<js_sys::ArrayBuffer, String> {
    let text = |e: JsValue| {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| tr!("page-host-no-reason"))
    };
    let promise = host.read.call2(&JsValue::NULL, &start.into(), &end.into()).map_err(text)?;
    let bytes = JsFuture::from(js_sys::Promise::resolve(&promise)).await.map_err(text)?;
    let bytes = bytes.dyn_into::<js_sys::ArrayBuffer>().map_err(|_| tr!("page-host-not-bytes"))?;
    if bytes.byte_length() as f64 != end - start {
        return Err(tr!(
            "page-host-wrong-length",
            sent = bytes.byte_length(),
            asked = (end - start) as u64
        ));
    }
    Ok(bytes)
}
