//! The page's end of the Web Worker (src/worker/): send a [`ToWorker`],
//! receive [`FromWorker`] replies on a callback. Trunk builds the worker as
//! its own wasm with a loader script named after the binary.

use attnscope::session::{FromWorker, ToWorker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// The worker, and the same worker built with fused multiply-adds
/// (`--features fma`), which needs relaxed SIMD: a browser without it
/// refuses the whole module.
const LOADER: &str = "./attnscope-worker_loader.js";
const LOADER_FMA: &str = "./attnscope-worker-fma_loader.js";
/// The worker with the `extras` feature (translation, opened models and
/// traces), started only when first needed, without and with fma.
const LOADER_EXTRA: &str = "./attnscope-worker-extra_loader.js";
const LOADER_EXTRA_FMA: &str = "./attnscope-worker-extra-fma_loader.js";

/// A module whose one function returns `f32x4.relaxed_madd` of three zero
/// vectors: valid only where the browser has relaxed SIMD.
const RELAXED_SIMD_PROBE: [u8; 82] = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
    0x03, 0x02, 0x01, 0x00, // one function of that type
    0x0a, 0x3d, 0x01, 0x3b, 0x00, // code: one body of 59 bytes, no locals
    0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // v128.const 0
    0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0xfd, 0x85, 0x02, // f32x4.relaxed_madd
    0x0b, // end
];

/// Whether this browser runs relaxed SIMD (Chromium does, Safari
/// does not).
fn has_relaxed_simd() -> bool {
    js_sys::WebAssembly::validate(&js_sys::Uint8Array::from(&RELAXED_SIMD_PROBE[..]))
        .unwrap_or(false)
}

pub struct WorkerClient {
    worker: Worker,
    // Dropping the closures would detach the handlers; they live with the client.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl WorkerClient {
    /// Starts the worker (the one with the extras if `extra`); `on_reply`
    /// gets every decoded reply, `on_death` what is known of why the worker
    /// failed (an uncaught error, a trap in its wasm, running out of memory),
    /// after which it is of no more use.
    pub fn spawn(
        extra: bool,
        on_reply: impl Fn(FromWorker) + 'static,
        on_death: impl Fn(String) + 'static,
    ) -> Result<Self, String> {
        let loader = match (extra, has_relaxed_simd(), crate::hosted::host()) {
            // A notebook or standalone HTML gives the one worker it packs.
            (true, _, Some(host)) => host.worker,
            (true, true, None) => LOADER_EXTRA_FMA.into(),
            (true, false, None) => LOADER_EXTRA.into(),
            (false, true, _) => LOADER_FMA.into(),
            (false, false, _) => LOADER.into(),
        };
        let worker =
            Worker::new(&loader).map_err(|e| format!("could not start the worker: {e:?}"))?;
        let reply = on_reply;
        let back = worker.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if crate::hosted::serve(&back, &e.data()) {
                return; // the worker asked for bytes of the host's trace
            }
            let Some(decoded) = decode(&e.data()) else { return };
            give_back(&back, &e.data());
            match decoded {
                Ok(msg) => reply(msg),
                Err(err) => reply(FromWorker::Failed {
                    id: 0,
                    message: tr!("page-worker-unreadable", error = err.to_string()),
                }),
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let why =
                e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).filter(|m| !m.is_empty());
            on_death(why.unwrap_or_else(|| tr!("page-worker-no-reason")));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Self { worker, _on_message: on_message, _on_error: on_error })
    }

    pub fn send(&self, msg: &ToWorker) {
        post(&self.worker, msg);
    }

    /// The worker itself (a cheap handle), for sending from a reply callback.
    pub fn handle(&self) -> Worker {
        self.worker.clone()
    }

    /// Stops the worker at once (one that failed may be left half-alive).
    pub fn terminate(&self) {
        self.worker.terminate();
    }
}

/// A reply as the worker posts it: its JSON, or `[json, bytes…]` with the
/// buffers beside it (`tensor::wire`); None for anything else.
fn decode(data: &JsValue) -> Option<serde_json::Result<FromWorker>> {
    if let Some(parts) = data.dyn_ref::<js_sys::Array>() {
        let json = parts.get(0).as_string()?;
        let buffers = (1..parts.length()).map(|i| read(parts.get(i).unchecked_into())).collect();
        return Some(attnscope::tensor::wire::from_json_and_read_buffers(&json, buffers));
    }
    Some(serde_json::from_str(&data.as_string()?))
}

/// A buffer of a reply copied into this memory: as words where it is whole
/// words, so that its f32 numbers need no second copy (`tensor::wire::Buffer`).
fn read(bytes: js_sys::Uint8Array) -> attnscope::tensor::wire::Buffer {
    use attnscope::tensor::wire::Buffer;
    let (offset, length) = (bytes.byte_offset(), bytes.byte_length());
    if offset % 4 == 0 && length % 4 == 0 {
        Buffer::Words(
            js_sys::Uint32Array::new_with_byte_offset_and_length(
                &bytes.buffer(),
                offset,
                length / 4,
            )
            .to_vec(),
        )
    } else {
        Buffer::Bytes(bytes.to_vec())
    }
}

/// Gives a reply's buffers back to the worker once read (`decode` copies
/// them), for it to fill with a later reply's numbers (`worker/spare.rs`).
fn give_back(worker: &Worker, data: &JsValue) {
    let Some(parts) = data.dyn_ref::<js_sys::Array>().filter(|p| p.length() > 1) else { return };
    let (back, transfer) = (
        js_sys::Array::of1(&JsValue::from_str(attnscope::tensor::wire::SPARE_BUFFERS)),
        js_sys::Array::new(),
    );
    for part in parts.iter().skip(1) {
        let buffer = part.unchecked_into::<js_sys::Uint8Array>().buffer();
        back.push(&buffer);
        transfer.push(&buffer);
    }
    let _ = worker.post_message_with_transfer(&back, &transfer);
}

pub fn post(worker: &Worker, msg: &ToWorker) {
    if let Ok(text) = serde_json::to_string(msg) {
        let _ = worker.post_message(&JsValue::from_str(&text));
    }
}
