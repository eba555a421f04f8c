//! What the worker holds between messages — its session and the messages
//! waiting — and how it answers the page. The message loop (`shell.rs`) and
//! the handlers of the visitor's files (`open_files.rs`, `kept.rs`) share it.

use attnscope::session::{FromWorker, Pending, Session};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

thread_local! {
    pub static SESSION: RefCell<Session> = RefCell::new(Session::new());
    pub static PENDING: RefCell<Pending> = RefCell::new(Pending::default());
}

pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub fn now_ms() -> f64 {
    scope().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// Posts `msg`: its JSON alone, or with the buffers beside it
/// (`tensor::wire`) as `[json, bytes…]`, the buffers transferred rather than copied.
pub fn post(msg: &FromWorker) {
    let (parts, transfer) = (js_sys::Array::new(), js_sys::Array::new());
    let (into, moved) = (parts.clone(), transfer.clone());
    // Each buffer copied once, from this memory into the one transferred (`spare.rs`).
    let encoded = attnscope::tensor::wire::to_json_sending_buffers(msg, move |bytes| {
        let array = super::spare::filled(bytes);
        moved.push(&array.buffer());
        into.push(&array);
    });
    match encoded {
        Ok(json) if parts.length() == 0 => {
            let _ = scope().post_message(&JsValue::from_str(&json));
        }
        Ok(json) => {
            parts.unshift(&JsValue::from_str(&json));
            let _ = scope().post_message_with_transfer(&parts, &transfer);
        }
        Err(e) => web_sys::console::error_1(&format!("worker: cannot encode a reply: {e}").into()),
    }
}

/// Keeps a model opened from the visitor's files (`open_files.rs`),
/// warmed up as the built-in ones are.
#[cfg(feature = "extras")]
pub fn install_custom(model: attnscope::checkpoint::Model) {
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        s.install_custom(model);
        s.warm_up(attnscope::session::ModelId::Custom, &attnscope::session::warm::OPENED, &now_ms);
    });
}

#[cfg(feature = "extras")]
pub fn forget_custom() {
    SESSION.with(|s| s.borrow_mut().forget_custom());
}
