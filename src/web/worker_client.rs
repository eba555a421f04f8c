//! The page's end of the Web Worker (src/worker/): send a [`ToWorker`],
//! receive [`FromWorker`] replies on a callback. Trunk builds the worker as
//! its own wasm with a loader script named after the binary.

use attnscope::session::{FromWorker, ToWorker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

const LOADER: &str = "./attnscope-worker_loader.js";

pub struct WorkerClient {
    worker: Worker,
    // Dropping the closures would detach the handlers; they live with the client.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl WorkerClient {
    /// Starts the worker; `on_reply` gets every decoded reply, and a
    /// `Failed` message if the worker itself cannot start or run.
    pub fn spawn(on_reply: impl Fn(FromWorker) + 'static) -> Result<Self, String> {
        let worker = Worker::new(LOADER).map_err(|e| format!("could not start the worker: {e:?}"))?;
        let on_reply = std::rc::Rc::new(on_reply);
        let reply = on_reply.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let Some(text) = e.data().as_string() else { return };
            match serde_json::from_str::<FromWorker>(&text) {
                Ok(msg) => reply(msg),
                Err(err) => reply(FromWorker::Failed { id: 0, message: format!("unreadable reply from the worker: {err}") }),
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_e: web_sys::Event| {
            on_reply(FromWorker::Failed { id: 0, message: "the computation worker stopped unexpectedly; reload the page".into() });
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
}

pub fn post(worker: &Worker, msg: &ToWorker) {
    if let Ok(text) = serde_json::to_string(msg) {
        let _ = worker.post_message(&JsValue::from_str(&text));
    }
}
