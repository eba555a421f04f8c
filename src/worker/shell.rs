//! The worker's message loop: each message from the page is handled, or
//! queued behind the one being computed (only the newest of each kind is
//! kept, `session::Pending`), and models are downloaded and installed.

use super::held::{now_ms, post, scope, PENDING, SESSION};
use attnscope::checkpoint::smollm2::SmolLm2;
use attnscope::session::{FromWorker, ModelId, ToWorker};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;

thread_local! {
    /// The number of the latest `Load` of each model ([`load`]).
    static LOADS: RefCell<HashMap<ModelId, u64>> = RefCell::new(HashMap::new());
}

/// A new load of `model`: every load of it still under way is overtaken.
fn take_ticket(model: ModelId) -> u64 {
    LOADS.with(|l| {
        let mut loads = l.borrow_mut();
        let n = loads.entry(model).or_default();
        *n += 1;
        *n
    })
}

/// Whether `ticket` is still the latest load of `model`.
fn is_latest(model: ModelId, ticket: u64) -> bool {
    LOADS.with(|l| l.borrow().get(&model) == Some(&ticket))
}

fn schedule() {
    let cb = Closure::once_into_js(run_next);
    let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
}

/// Computes the next waiting message, one per task, so that messages
/// arriving meanwhile can still replace the ones waiting behind it.
/// Messages first; when none waits, a slice of the importance map under way.
fn run_next() {
    #[cfg(feature = "extras")]
    if super::hosted::blocked() {
        return; // resumed when the bytes come ([`on_message`])
    }
    let reply = match PENDING.with(|p| p.borrow_mut().pop()) {
        Some(msg) => handled(msg),
        None => SESSION.with(|s| s.borrow_mut().continue_analysis(&now_ms)),
    };
    if let Some(mut reply) = reply {
        if let FromWorker::Result(summary) = &mut reply {
            let helper = super::two_threads::memory_bytes();
            summary.memory_bytes = Some(super::wasm_memory_bytes() + helper);
            summary.memory_workers = if helper > 0 { 2 } else { 1 };
        }
        if let FromWorker::Heard { speech, .. } = &mut reply {
            speech.memory_bytes = Some(super::wasm_memory_bytes());
        }
        post(&reply);
        #[cfg(feature = "extras")]
        super::open_files::keep_waiting();
    }
    if !idle() {
        schedule();
    }
}

/// The reply to `msg`; none while it waits for bytes of the host's trace
/// (`hosted.rs`: it is handled again once they come).
fn handled(msg: ToWorker) -> Option<FromWorker> {
    #[cfg(feature = "extras")]
    if super::hosted::active() {
        let kept = msg.clone();
        let reply = reporting(msg);
        return (!super::hosted::waits(&kept)).then_some(reply);
    }
    Some(reporting(msg))
}

/// Handles `msg`; a run tells the page how far it is after each block
/// of a long text.
fn reporting(msg: ToWorker) -> FromWorker {
    let run = match &msg {
        ToWorker::Run { id, .. } => Some(*id),
        _ => None,
    };
    let handle = move || SESSION.with(|s| s.borrow_mut().handle(msg, &now_ms));
    match run {
        Some(id) => attnscope::models::decoder::reporting_blocks(
            move |done, blocks, tokens| post(&FromWorker::Computing { id, done, blocks, tokens }),
            handle,
        ),
        None => handle(),
    }
}

/// A message waits for bytes of the host's trace: the queue is resumed when they come.
fn waiting_for_bytes() -> bool {
    #[cfg(feature = "extras")]
    return super::hosted::blocked();
    #[cfg(not(feature = "extras"))]
    false
}

/// Nothing waits and no importance map is under way (so no timer is due).
fn idle() -> bool {
    PENDING.with(|p| p.borrow().is_empty()) && !SESSION.with(|s| s.borrow().analysis_busy())
}

fn on_message(event: MessageEvent) {
    if super::spare::keep(&event.data()) {
        return;
    }
    if super::two_threads::is_setup(&event.data()) {
        // This worker is another one's helper from now on.
        return super::two_threads::serve(event.data());
    }
    #[cfg(feature = "extras")]
    if super::open_files::is_open(&event.data()) {
        return super::open_files::preflight(event.data());
    }
    #[cfg(feature = "extras")]
    if super::hosted::is_open(&event.data()) {
        return SESSION.with(|s| super::hosted::open(&mut s.borrow_mut(), &event.data()));
    }
    #[cfg(feature = "extras")]
    if super::hosted::is_bytes(&event.data()) {
        let again = SESSION.with(|s| super::hosted::take_bytes(&mut s.borrow_mut(), &event.data()));
        if let Some(msg) = again {
            PENDING.with(|p| p.borrow_mut().retry(msg));
        }
        if !super::hosted::blocked() && !idle() {
            schedule();
        }
        return;
    }
    #[cfg(feature = "extras")]
    if let Some(file) = event.data().dyn_ref::<web_sys::Blob>() {
        let reply = SESSION.with(|s| super::blob_source::open(&mut s.borrow_mut(), file.clone()));
        return post(&reply);
    }
    let Some(text) = event.data().as_string() else { return };
    let msg = match serde_json::from_str::<ToWorker>(&text) {
        Ok(m) => m,
        Err(e) => {
            return post(&FromWorker::Failed {
                id: 0,
                message: format!("the worker got a message it does not understand: {e}"),
            })
        }
    };
    match msg {
        ToWorker::Load { model, exact } => wasm_bindgen_futures::spawn_local(load(model, exact)),
        #[cfg(feature = "extras")]
        ToWorker::Custom(request) => {
            wasm_bindgen_futures::spawn_local(super::open_files::handle(request))
        }
        // Asked at every visit, of the worker without the extras too (`kept.rs`).
        #[cfg(not(feature = "extras"))]
        ToWorker::Custom(attnscope::session::custom::CustomRequest::Saved) => {
            wasm_bindgen_futures::spawn_local(super::kept::answer_saved())
        }
        other => {
            // A timer is due exactly when something waits (and nothing waits for bytes).
            let was_idle = idle();
            PENDING.with(|p| p.borrow_mut().push(other));
            if was_idle && !waiting_for_bytes() {
                schedule();
            }
        }
    }
}

/// Loads `model` (`exact`: its weights as published), each `Load` as it
/// comes, so two of one model can be under way at once: the exact switch
/// flipped while MiniLM downloads. Only the latest may install its weights
/// and tell the page about itself. One it overtook still finishes its
/// download, which Cache Storage then keeps for the next switch, and says
/// nothing, neither its progress nor its end nor its failure: the page
/// waits for the latest load's.
async fn load(model: ModelId, exact: bool) {
    // Taken first: a Load answered at once, its weights already in place,
    // overtakes a download of the other ones too.
    let ticket = take_ticket(model);
    let latest = move || is_latest(model, ticket);
    if SESSION.with(|s| s.borrow().is_loaded_as(model, exact)) {
        return post(&FromWorker::Loaded { model });
    }
    #[cfg(feature = "extras")]
    if model == ModelId::Custom {
        return super::open_files::load_saved().await;
    }
    let report = |loaded: u64, total: u64| {
        if latest() {
            post(&FromWorker::Progress { model, loaded, total })
        }
    };
    let installed = match super::fetch::fetch_model(&scope(), model, exact, &report).await {
        Ok(files) => install(model, files, &latest).await.map_err(|e| e.to_string()),
        Err(message) => Err(message),
    };
    let reply = match installed {
        Ok(true) => {
            SESSION.with(|s| {
                s.borrow_mut().warm_up(model, &attnscope::session::warm::BUILT_IN, &now_ms)
            });
            FromWorker::Loaded { model }
        }
        Ok(false) => return,
        Err(_) if !latest() => return,
        Err(message) => FromWorker::LoadFailed { model, message },
    };
    post(&reply);
}

/// Builds `model` from its downloaded `files` and gives it to the session;
/// MiniLM and SmolLM2 on two threads where the page allows it ([`shared`]).
/// False, with nothing built or given, if the load was overtaken
/// (`latest()` is false) before the model could be given: the later
/// load's model must stay.
async fn install(
    model: ModelId,
    files: Vec<Vec<u8>>,
    latest: &dyn Fn() -> bool,
) -> attnscope::error::Result<bool> {
    if !latest() {
        return Ok(false);
    }
    match model {
        ModelId::MiniLm => {
            let minilm = shared(files, |files| match &files[..] {
                [weights, tokenizer, config] => {
                    attnscope::checkpoint::minilm::MiniLm::from_bytes(weights, tokenizer, config)
                }
                _ => Err(attnscope::Error::ModelFile(format!(
                    "MiniLM needs 3 files, got {}",
                    files.len()
                ))),
            })
            .await?;
            // Building took turns with other messages: another Load may have come.
            if !latest() {
                return Ok(false);
            }
            SESSION.with(|s| s.borrow_mut().install_minilm(minilm));
        }
        ModelId::SmolLm2 => {
            let smollm2 = shared(files, |files| {
                SmolLm2::from_gguf_bytes(files.first().ok_or_else(|| {
                    attnscope::Error::ModelFile("SmolLM2 needs its GGUF file".into())
                })?)
            })
            .await?;
            if !latest() {
                return Ok(false);
            }
            SESSION.with(|s| s.borrow_mut().install_smollm2(smollm2));
        }
        _ => SESSION.with(|s| s.borrow_mut().install(model, files))?,
    }
    Ok(true)
}

/// The model `build` makes of `files`, sharing its products with a helper
/// worker (`helper.rs`, which holds a copy of half of every matrix's rows)
/// where the page allows it. The helper is started before the weights are
/// read; `build` takes the files and drops them before the helper is
/// handed its part, so that they are not kept to the memory's peak.
async fn shared<M>(
    files: Vec<Vec<u8>>,
    build: impl FnOnce(Vec<Vec<u8>>) -> attnscope::error::Result<M>,
) -> attnscope::error::Result<M>
where
    M: std::ops::DerefMut,
    M::Target: attnscope::models::two_threads::Shares + Sized,
{
    let helper = super::two_threads::starting();
    let mut model = build(files)?;
    super::two_threads::share(&mut *model, helper).await;
    Ok(model)
}

pub fn start() {
    console_error_panic_hook::set_once();
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(on_message);
    scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget(); // lives as long as the worker
    post(&FromWorker::Ready);
}
