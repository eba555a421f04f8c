//! Where the numbers are computed. The teaching model is tiny (well under a
//! millisecond a sentence), so it runs on the page's own thread and the first
//! heatmap never waits for the worker to download and compile. The real
//! models run in the Web Worker, so typing never waits for them. Both speak
//! the same [`ToWorker`] / [`FromWorker`] messages; follow-up questions
//! (a head's detail, an export) go to whoever computed the latest run.
//! Translation, opened models and trace files run in a second worker, started
//! the first time one of them is asked for, so that a first visit downloads
//! only the worker of the built-in models.

use crate::canvas::now_ms;
use crate::worker_client::{post, WorkerClient};
use attnscope::session::custom::CustomRequest;
use attnscope::session::{FromWorker, ModelId, Pending, Session, ToWorker};
use attnscope::url_params::MAX_TEXT_CHARS;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

type Reply = Rc<dyn Fn(FromWorker)>;

/// A worker that dies is replaced this many times; after that the real
/// models say they need a worker, and the teaching model goes on in the page.
const MAX_RESTARTS: u32 = 3;

/// The worker and what waits for it to be ready.
struct Worker {
    client: WorkerClient,
    ready: Rc<Cell<bool>>,
    queue: Rc<RefCell<Pending>>,
}

/// The worker, replaced when it dies, and what the page asked it to load
/// (lost with it).
#[derive(Clone)]
struct WorkerSlot {
    /// Whether this is the worker with the extras (`WorkerClient::spawn`).
    extra: bool,
    worker: Rc<RefCell<Option<Worker>>>,
    models: Rc<RefCell<Vec<ModelId>>>,
    restarts: Rc<Cell<u32>>,
    reply: Reply,
}

impl WorkerSlot {
    /// Starts a worker into the slot (empty if the browser cannot start one).
    fn spawn(&self) {
        let (ready, queue) = (Rc::new(Cell::new(false)), Rc::new(RefCell::new(Pending::default())));
        // Filled once the worker exists; its Ready reply flushes the queue.
        let handle = Rc::new(RefCell::new(None::<web_sys::Worker>));
        let on_reply = {
            let (slot, ready, queue, handle) =
                (self.clone(), ready.clone(), queue.clone(), handle.clone());
            move |m| match m {
                // Messages posted before the worker listens would be lost: they waited here.
                FromWorker::Ready => {
                    ready.set(true);
                    let waiting = queue.borrow_mut().take_all();
                    if let Some(w) = handle.borrow().as_ref() {
                        waiting.iter().for_each(|msg| post(w, msg));
                    }
                }
                other => {
                    if let FromWorker::LoadFailed { model, .. } = &other {
                        slot.models.borrow_mut().retain(|m| m != model);
                    }
                    (slot.reply)(other)
                }
            }
        };
        let on_death = {
            let slot = self.clone();
            // Later: the failed worker's own handler is running now.
            move |why: String| {
                let slot = slot.clone();
                leptos::task::spawn_local(async move { slot.restart(why) })
            }
        };
        let worker = WorkerClient::spawn(self.extra, on_reply, on_death).ok().map(|client| {
            *handle.borrow_mut() = Some(client.handle());
            Worker { client, ready, queue }
        });
        *self.worker.borrow_mut() = worker;
    }

    /// The worker died: say so, and start another (the models it held are
    /// reported as no longer loaded, so choosing one loads it again).
    fn restart(&self, why: String) {
        if let Some(dead) = self.worker.borrow_mut().take() {
            dead.client.terminate();
        }
        let restarts = self.restarts.get() + 1;
        self.restarts.set(restarts);
        let again = restarts <= MAX_RESTARTS;
        if again {
            self.spawn();
        }
        let why = why.as_str();
        let lost = std::mem::take(&mut *self.models.borrow_mut());
        if lost.is_empty() {
            let message = if again {
                tr!("page-worker-restarted", why = why)
            } else {
                tr!("page-worker-gave-up", why = why)
            };
            (self.reply)(FromWorker::Failed { id: 0, message });
        }
        for model in lost {
            let message = if again {
                tr!("page-worker-restarted-model", why = why)
            } else {
                tr!("page-worker-gave-up-model", why = why)
            };
            (self.reply)(FromWorker::LoadFailed { model, message });
        }
    }
}

/// Who computes a model's runs.
#[derive(Clone, Copy, PartialEq)]
enum Home {
    Page,
    Worker,
    Extra,
}

fn home(model: ModelId) -> Home {
    match model {
        ModelId::Teaching => Home::Page,
        ModelId::MiniLm | ModelId::SmolLm2 => Home::Worker,
        ModelId::Custom
        | ModelId::Trace
        | ModelId::TranslateEnPt
        | ModelId::TranslatePtEn
        | ModelId::Whisper => Home::Extra,
    }
}

pub struct Compute {
    session: Rc<RefCell<Session>>,
    reply: Reply,
    /// Its worker is None in component tests, or if the browser could not start it.
    slot: WorkerSlot,
    /// The worker with the extras, started at its first use (never in component tests).
    extra: WorkerSlot,
    extra_started: Cell<bool>,
    /// Where the latest run went.
    latest: Cell<Home>,
}

impl Compute {
    /// The page's session plus the worker (if the browser can start it).
    pub fn start(reply: impl Fn(FromWorker) + 'static) -> Self {
        let compute = Self::with(Rc::new(reply));
        // A hosted page shows its host's trace only: the built-in models' worker is never needed.
        if !crate::hosted::is_hosted() {
            compute.slot.spawn();
        }
        compute.extra_started.set(false);
        compute
    }

    /// Computes on the page's own thread only (the teaching model; component tests).
    pub fn in_page(reply: impl Fn(FromWorker) + 'static) -> Self {
        Self::with(Rc::new(reply))
    }

    fn with(reply: Reply) -> Self {
        let ready = reply.clone();
        // The page itself can compute at once; reply on a later task, as the
        // worker would, so callers never re-enter themselves.
        leptos::task::spawn_local(async move { ready(FromWorker::Ready) });
        let slot = |extra| WorkerSlot {
            extra,
            worker: Rc::default(),
            models: Rc::default(),
            restarts: Rc::default(),
            reply: reply.clone(),
        };
        let (slot, extra) = (slot(false), slot(true));
        // Marked started, so that a page without workers never starts this one.
        let extra_started = Cell::new(true);
        Self {
            session: Rc::new(RefCell::new(Session::new())),
            reply,
            slot,
            extra,
            extra_started,
            latest: Cell::new(Home::Page),
        }
    }

    /// The worker with the extras, started now if it was not yet.
    fn extra(&self) -> &WorkerSlot {
        if !self.extra_started.replace(true) {
            self.extra.spawn();
        }
        &self.extra
    }

    pub fn send(&self, mut msg: ToWorker) {
        // A huge paste is not copied into the message: one character past
        // the limit is enough for the session to cut it and say so.
        if let ToWorker::Run { text, .. } | ToWorker::Compare { text, .. } = &mut msg {
            if let Some((end, _)) = text.char_indices().nth(MAX_TEXT_CHARS + 1) {
                text.truncate(end);
            }
        }
        let to = match &msg {
            ToWorker::Run { model, .. }
            | ToWorker::Write { model, .. }
            | ToWorker::Show { model, .. } => {
                self.latest.set(home(*model));
                home(*model)
            }
            ToWorker::Load { model, .. } => {
                let to = if home(*model) == Home::Extra { Home::Extra } else { Home::Worker };
                let slot = if to == Home::Extra { self.extra() } else { &self.slot };
                let mut models = slot.models.borrow_mut();
                if !models.contains(model) {
                    models.push(*model);
                }
                to
            }
            ToWorker::Compare { model, .. }
            | ToWorker::Listen { model, .. }
            | ToWorker::SpeechStep { model, .. } => home(*model),
            // Which model the storage keeps is asked at every visit: the
            // default worker answers, so that the other one is not started for it.
            ToWorker::Custom(CustomRequest::Saved) => Home::Worker,
            ToWorker::Custom(_) => Home::Extra,
            _ => self.latest.get(),
        };
        let to_worker = to != Home::Page;
        let worker = if to == Home::Extra { self.extra() } else { &self.slot }.worker.borrow();
        match (worker.as_ref(), to_worker) {
            (Some(w), true) if w.ready.get() => w.client.send(&msg),
            (Some(w), true) => w.queue.borrow_mut().push(msg),
            (None, true) => {
                let reply = self.reply.clone();
                let answer = match msg {
                    ToWorker::Load { model, .. } | ToWorker::Run { model, .. } => {
                        FromWorker::LoadFailed {
                            model,
                            message: tr!("page-needs-worker", model = model_name(model)),
                        }
                    }
                    ToWorker::Compare { id, model, .. }
                    | ToWorker::Listen { id, model, .. }
                    | ToWorker::SpeechStep { id, model, .. } => FromWorker::Failed {
                        id,
                        message: tr!("page-needs-worker", model = model_name(model)),
                    },
                    _ => return,
                };
                leptos::task::spawn_local(async move { reply(answer) });
            }
            (_, false) => {
                let (session, reply) = (self.session.clone(), self.reply.clone());
                leptos::task::spawn_local(async move {
                    let answer = session.borrow_mut().handle(msg, &now_ms);
                    reply(answer);
                    // A job it started (similar heads of the teaching model's five heads) is a
                    // few microseconds: finished here, each answer sent as the worker's would be.
                    loop {
                        let more = session.borrow_mut().continue_similar(&now_ms);
                        let Some(more) = more else { break };
                        reply(more);
                    }
                });
            }
        }
    }
}

impl WorkerSlot {
    /// Posts `msg` as it is (a structured clone: chosen `File`s, a trace
    /// `File`) once the worker listens, polling for up to 30 s while it
    /// starts; false if there is no worker, or it never became ready.
    fn post_when_ready(&self, msg: wasm_bindgen::JsValue, tries: u32, on_fail: Box<dyn FnOnce()>) {
        let state = self.worker.borrow().as_ref().map(|w| (w.ready.get(), w.client.handle()));
        match state {
            Some((true, handle)) if handle.post_message(&msg).is_ok() => {}
            Some((false, _)) if tries > 0 => {
                let slot = self.clone();
                set_timeout(
                    move || slot.post_when_ready(msg, tries - 1, on_fail),
                    std::time::Duration::from_millis(100),
                );
            }
            _ => on_fail(),
        }
    }
}

impl Compute {
    /// Posts the visitor's chosen files to the worker, as soon as it listens;
    /// false if the browser could not start one.
    pub fn post_files(&self, msg: &wasm_bindgen::JsValue) -> bool {
        if self.extra().worker.borrow().is_none() {
            return false;
        }
        let reply = self.reply.clone();
        let on_fail = Box::new(move || {
            let message = tr!("page-worker-not-started");
            reply(FromWorker::Custom(attnscope::session::custom::CustomReply::Failed { message }))
        });
        self.extra().post_when_ready(msg.clone(), 300, on_fail);
        true
    }

    /// Posts a trace file (a `File`, which the worker reads lazily) to the
    /// worker; it answers `Loaded` or `LoadFailed` for [`ModelId::Trace`].
    pub fn open_trace(&self, file: &web_sys::Blob) {
        self.open_in_extra(file.into(), tr!("page-trace-worker-not-started"));
    }

    /// Opens the trace of the page's host (`hosted.rs`) in the worker, which
    /// answers as for a file.
    pub fn open_hosted(&self, host: &crate::hosted::Host) {
        self.open_in_extra(
            crate::hosted::open_message(host),
            tr!("page-hosted-worker-not-started"),
        );
    }

    /// Posts `msg`, which opens a trace, to the worker with the extras once it
    /// listens; `LoadFailed` with `failure` if it never does.
    fn open_in_extra(&self, msg: wasm_bindgen::JsValue, failure: String) {
        {
            let mut models = self.extra().models.borrow_mut();
            if !models.contains(&ModelId::Trace) {
                models.push(ModelId::Trace);
            }
        }
        let reply = self.reply.clone();
        let on_fail = Box::new(move || {
            let message = failure;
            leptos::task::spawn_local(async move {
                reply(FromWorker::LoadFailed { model: ModelId::Trace, message })
            });
        });
        self.extra().post_when_ready(msg, 300, on_fail);
    }
}

/// A model's name as the page writes it (a real model's own name stays as published).
pub fn model_name(m: ModelId) -> String {
    match m {
        ModelId::Teaching => tr!("page-model-teaching"),
        ModelId::MiniLm => "MiniLM (all-MiniLM-L6-v2)".to_string(),
        ModelId::SmolLm2 => "SmolLM2-135M".to_string(),
        ModelId::Custom => tr!("page-model-custom"),
        ModelId::Trace => tr!("page-model-trace"),
        ModelId::TranslateEnPt => tr!("page-model-en-pt"),
        ModelId::TranslatePtEn => tr!("page-model-pt-en"),
        ModelId::Whisper => tr!("page-model-whisper"),
    }
}

/// A run's model as the page names it: the teaching model in the page's language, any other
/// by its own name (the name its files give).
pub fn run_name(info: &attnscope::trace::ModelInfo) -> String {
    if info.id == ModelId::Teaching.slug() {
        tr!("page-model-teaching-run")
    } else {
        info.name.clone()
    }
}

/// A head's note ("name: what it does") in the page's language: the teaching model's five,
/// whose English is the core's; any other note as it came.
pub fn head_note(note: &str) -> String {
    match note.split_once(':').map_or(note, |(name, _)| name) {
        "describes" => tr!("page-teaching-describes"),
        "previous word" => tr!("page-teaching-previous-word"),
        "self" => tr!("page-teaching-self"),
        "who did what" => tr!("page-teaching-who-did-what"),
        "introduces" => tr!("page-teaching-introduces"),
        _ => note.to_string(),
    }
}

/// A note's name and what it says, parted at its first colon (a full-width one in Chinese);
/// a note without one has no name.
pub fn note_parts(note: &str) -> (String, String) {
    match note.split_once([':', '：']) {
        Some((name, what)) => (name.trim().to_string(), what.trim().to_string()),
        None => (String::new(), note.to_string()),
    }
}

/// The page's handle on whoever computes, provided by context: views send
/// their questions through it, tagged with the latest run's id.
#[derive(Clone, Copy)]
pub struct Engine {
    compute: StoredValue<Option<Compute>, LocalStorage>,
    latest: StoredValue<u64>,
}

impl Engine {
    /// An engine that answers nothing until `set` starts it.
    pub fn empty() -> Self {
        Self { compute: StoredValue::new_local(None), latest: StoredValue::new(0) }
    }

    /// Starts computing, in a worker or (`in_page`) on the page's own
    /// thread; every reply goes to `on_reply`.
    pub fn set(&self, in_page: bool, on_reply: impl Fn(FromWorker) + 'static) {
        let compute = if in_page { Compute::in_page(on_reply) } else { Compute::start(on_reply) };
        self.compute.set_value(Some(compute));
    }

    pub fn send(&self, msg: ToWorker) {
        self.compute.with_value(|c| {
            if let Some(c) = c {
                c.send(msg)
            }
        })
    }

    /// Posts the visitor's chosen files to the worker (`Compute::post_files`).
    pub fn post_files(&self, msg: &wasm_bindgen::JsValue) -> bool {
        self.compute.with_value(|c| c.as_ref().is_some_and(|c| c.post_files(msg)))
    }

    /// Opens a trace file in the worker ([`Compute::open_trace`]).
    pub fn open_trace(&self, file: &web_sys::Blob) {
        self.compute.with_value(|c| {
            if let Some(c) = c {
                c.open_trace(file)
            }
        })
    }

    /// Opens the host's trace in the worker ([`Compute::open_hosted`]).
    pub fn open_hosted(&self, host: &crate::hosted::Host) {
        self.compute.with_value(|c| {
            if let Some(c) = c {
                c.open_hosted(host)
            }
        })
    }

    /// The id of the latest run asked for; replies about older runs are dropped.
    pub fn latest(&self) -> u64 {
        self.latest.get_value()
    }

    /// A new run's id.
    pub fn next_run(&self) -> u64 {
        let id = self.latest.get_value() + 1;
        self.latest.set_value(id);
        id
    }
}
