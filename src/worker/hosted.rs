//! A trace held by the page's host — a notebook's kernel (`attnscope.show`)
//! or the standalone HTML of `attnscope.to_html` — instead of a file the
//! visitor chose: its bytes come by message as reads need them
//! (`tracefile::RemoteSource`). The page opens it with
//! `{ attnscopeHosted: { name, size } }`. A message whose answer needs
//! bytes not yet here is put aside and its reply dropped; the pages it
//! needs are asked of the page (`{ attnscopeWants: [start, end, …] }`),
//! and once every one has come (`{ attnscopeBytes: start, bytes }`, or
//! `error` with why the host could not read them) it is handled again
//! from the start.

use super::held::post;
use attnscope::session::{FromWorker, ModelId, Session, ToWorker};
use attnscope::tracefile::{Pages, RemoteSource, SharedPages};
use std::cell::RefCell;
use std::collections::BTreeSet;
use wasm_bindgen::{JsCast, JsValue};

/// What waits for bytes.
enum Blocked {
    Open { name: String },
    Message(ToWorker),
}

thread_local! {
    static PAGES: RefCell<Option<SharedPages>> = const { RefCell::new(None) };
    static BLOCKED: RefCell<Option<Blocked>> = const { RefCell::new(None) };
    /// The starts of the ranges asked for and not yet arrived.
    static AWAITING: RefCell<BTreeSet<u64>> = const { RefCell::new(BTreeSet::new()) };
}

fn field(data: &JsValue, name: &str) -> Option<JsValue> {
    if !data.is_object() {
        return None;
    }
    js_sys::Reflect::get(data, &name.into()).ok().filter(|v| !v.is_undefined())
}

/// Whether a message is the page opening its host's trace.
pub fn is_open(data: &JsValue) -> bool {
    field(data, "attnscopeHosted").is_some()
}

/// Whether a message is bytes of the host's trace.
pub fn is_bytes(data: &JsValue) -> bool {
    field(data, "attnscopeBytes").is_some()
}

/// Whether a hosted trace is open (messages are then kept until answered, [`waits`]).
pub fn active() -> bool {
    PAGES.with(|p| p.borrow().is_some())
}

/// Whether a message waits for bytes: nothing else is computed meanwhile.
pub fn blocked() -> bool {
    BLOCKED.with(|b| b.borrow().is_some())
}

/// Opens the host's trace, `{ attnscopeHosted: { name, size } }`: its header now, in rounds.
pub fn open(session: &mut Session, data: &JsValue) {
    let about = field(data, "attnscopeHosted").unwrap_or(JsValue::NULL);
    let name =
        field(&about, "name").and_then(|n| n.as_string()).unwrap_or_else(|| "the trace".into());
    let size = field(&about, "size").and_then(|s| s.as_f64());
    let Some(size) =
        size.filter(|s| s.is_finite() && *s >= 0.0 && s.fract() == 0.0 && *s < 2f64.powi(53))
    else {
        return post(&FromWorker::LoadFailed {
            model: ModelId::Trace,
            message: format!("the host gave no size for {name}"),
        });
    };
    PAGES.with(|p| *p.borrow_mut() = Some(Pages::new(size as u64)));
    AWAITING.with(|a| a.borrow_mut().clear());
    BLOCKED.with(|b| *b.borrow_mut() = None);
    try_open(session, name);
}

fn try_open(session: &mut Session, name: String) {
    let Some(pages) = PAGES.with(|p| p.borrow().clone()) else { return };
    let opened = session.open_trace(Box::new(RemoteSource::new(pages)));
    if let Some(reply) = unless_waiting(Blocked::Open { name }, || match opened {
        Ok(()) => FromWorker::Loaded { model: ModelId::Trace },
        Err(e) => FromWorker::LoadFailed { model: ModelId::Trace, message: e.to_string() },
    }) {
        post(&reply);
    }
}

/// After `msg` was handled: true if it needs bytes not yet here (it is then
/// kept, the bytes asked for, and its reply must be dropped).
pub fn waits(msg: &ToWorker) -> bool {
    unless_waiting(Blocked::Message(msg.clone()), || FromWorker::Ready).is_none()
}

/// The reply, or None with `what` kept and the missing pages asked of the page.
fn unless_waiting(what: Blocked, reply: impl FnOnce() -> FromWorker) -> Option<FromWorker> {
    let ranges =
        PAGES.with(|p| p.borrow().as_ref().map(|p| p.borrow_mut().wanted())).unwrap_or_default();
    if ranges.is_empty() {
        PAGES.with(|p| p.borrow().as_ref().map(|p| p.borrow_mut().trim()));
        return Some(reply());
    }
    AWAITING.with(|a| a.borrow_mut().extend(ranges.iter().map(|r| r.0)));
    BLOCKED.with(|b| *b.borrow_mut() = Some(what));
    let flat = js_sys::Array::new();
    for (start, end) in ranges {
        flat.push(&JsValue::from_f64(start as f64));
        flat.push(&JsValue::from_f64(end as f64));
    }
    let wants = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&wants, &"attnscopeWants".into(), &flat);
    let _ = super::held::scope().post_message(&wants);
    None
}

/// Takes bytes from the page. Returns the message to handle again once
/// every range asked for has come (an open is retried here).
pub fn take_bytes(session: &mut Session, data: &JsValue) -> Option<ToWorker> {
    let start = field(data, "attnscopeBytes").and_then(|s| s.as_f64()).unwrap_or(-1.0);
    let given = if let Some(why) = field(data, "error").and_then(|e| e.as_string()) {
        Err(why)
    } else if start < 0.0 || !AWAITING.with(|a| a.borrow().contains(&(start as u64))) {
        // Not asked for (a reply to a request overtaken by a newer trace): ignored.
        return None;
    } else {
        let bytes = field(data, "bytes")
            .and_then(|b| b.dyn_into::<js_sys::ArrayBuffer>().ok())
            .map(|b| js_sys::Uint8Array::new(&b).to_vec());
        match (bytes, PAGES.with(|p| p.borrow().clone())) {
            (Some(bytes), Some(pages)) => pages.borrow_mut().give(start as u64, &bytes),
            _ => Err("the host's reply held no bytes".into()),
        }
    };
    if let Err(why) = given {
        AWAITING.with(|a| a.borrow_mut().clear());
        fail(BLOCKED.with(|b| b.borrow_mut().take()), why);
        return None;
    }
    let done = AWAITING.with(|a| {
        let mut a = a.borrow_mut();
        a.remove(&(start as u64));
        a.is_empty()
    });
    if !done {
        return None;
    }
    match BLOCKED.with(|b| b.borrow_mut().take())? {
        Blocked::Open { name } => {
            try_open(session, name);
            None
        }
        Blocked::Message(msg) => Some(msg),
    }
}

/// The host could not give the bytes: whatever waited for them fails with `why`.
fn fail(what: Option<Blocked>, why: String) {
    let message = format!("the trace could not be read from its host: {why}");
    match what {
        Some(Blocked::Open { .. }) => {
            post(&FromWorker::LoadFailed { model: ModelId::Trace, message })
        }
        Some(Blocked::Message(msg)) => post(&FromWorker::Failed { id: id_of(&msg), message }),
        None => {}
    }
}

fn id_of(msg: &ToWorker) -> u64 {
    match msg {
        ToWorker::Run { id, .. }
        | ToWorker::Head { id, .. }
        | ToWorker::Export { id }
        | ToWorker::FindHeads { id, .. }
        | ToWorker::QueryRows { id, .. }
        | ToWorker::Compare { id, .. }
        | ToWorker::Write { id, .. }
        | ToWorker::Show { id, .. }
        | ToWorker::Analyze { id, .. }
        | ToWorker::Listen { id, .. }
        | ToWorker::SpeechStep { id, .. } => *id,
        ToWorker::Load { .. } | ToWorker::Custom(_) => 0,
    }
}
