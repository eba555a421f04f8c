//! Where the numbers are computed. The teaching model is tiny (well under a
//! millisecond a sentence), so it runs on the page's own thread and the first
//! heatmap never waits for the worker to download and compile. The real
//! models run in the Web Worker, so typing never waits for them. Both speak
//! the same [`ToWorker`] / [`FromWorker`] messages; follow-up questions
//! (a head's detail, an export) go to whoever computed the latest run.

use crate::canvas::now_ms;
use crate::worker_client::{post, WorkerClient};
use attnscope::session::{FromWorker, ModelId, Session, ToWorker};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

type Reply = Rc<dyn Fn(FromWorker)>;

/// The worker and what waits for it to be ready.
struct Worker {
    client: WorkerClient,
    ready: Rc<Cell<bool>>,
    queue: Rc<RefCell<Vec<ToWorker>>>,
}

pub struct Compute {
    session: Rc<RefCell<Session>>,
    reply: Reply,
    /// None in component tests, or if the browser could not start it.
    worker: Option<Worker>,
    /// Whether the latest run went to the worker.
    latest_on_worker: Cell<bool>,
}

impl Compute {
    /// The page's session plus the worker (if the browser can start it).
    pub fn start(reply: impl Fn(FromWorker) + 'static) -> Self {
        let reply: Reply = Rc::new(reply);
        let (ready, queue) = (Rc::new(Cell::new(false)), Rc::new(RefCell::new(Vec::<ToWorker>::new())));
        // Filled once the worker exists; its Ready reply flushes the queue.
        let handle = Rc::new(RefCell::new(None::<web_sys::Worker>));
        let spawned = {
            let (reply, ready, queue, handle) = (reply.clone(), ready.clone(), queue.clone(), handle.clone());
            WorkerClient::spawn(move |m| match m {
                // Messages posted before the worker listens would be lost: they waited here.
                FromWorker::Ready => {
                    ready.set(true);
                    let waiting = std::mem::take(&mut *queue.borrow_mut());
                    if let Some(w) = handle.borrow().as_ref() {
                        waiting.iter().for_each(|msg| post(w, msg));
                    }
                }
                other => reply(other),
            })
        };
        let worker = spawned.ok().map(|client| {
            *handle.borrow_mut() = Some(client.handle());
            Worker { client, ready, queue }
        });
        Self::with(reply, worker)
    }

    /// Computes on the page's own thread only (the teaching model; component tests).
    pub fn in_page(reply: impl Fn(FromWorker) + 'static) -> Self {
        Self::with(Rc::new(reply), None)
    }

    fn with(reply: Reply, worker: Option<Worker>) -> Self {
        let ready = reply.clone();
        // The page itself can compute at once; reply on a later task, as the
        // worker would, so callers never re-enter themselves.
        leptos::task::spawn_local(async move { ready(FromWorker::Ready) });
        Self { session: Rc::new(RefCell::new(Session::new())), reply, worker, latest_on_worker: Cell::new(false) }
    }

    pub fn send(&self, msg: ToWorker) {
        let to_worker = match &msg {
            ToWorker::Run { model, .. } => {
                let on_worker = *model != ModelId::Teaching;
                self.latest_on_worker.set(on_worker);
                on_worker
            }
            ToWorker::Load { .. } => true,
            ToWorker::Compare { model, .. } => *model != ModelId::Teaching,
            _ => self.latest_on_worker.get(),
        };
        match (&self.worker, to_worker) {
            (Some(w), true) if w.ready.get() => w.client.send(&msg),
            (Some(w), true) => w.queue.borrow_mut().push(msg),
            (None, true) => {
                let reply = self.reply.clone();
                let answer = match msg {
                    ToWorker::Load { model } | ToWorker::Run { model, .. } => FromWorker::LoadFailed {
                        model,
                        message: format!("{} needs the background worker, which could not start in this browser", model_name(model)),
                    },
                    ToWorker::Compare { id, model, .. } => FromWorker::Failed {
                        id,
                        message: format!("{} needs the background worker, which could not start in this browser", model_name(model)),
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
                });
            }
        }
    }
}

pub fn model_name(m: ModelId) -> &'static str {
    match m {
        ModelId::Teaching => "Teaching model",
        ModelId::MiniLm => "MiniLM (all-MiniLM-L6-v2)",
        ModelId::SmolLm2 => "SmolLM2-135M",
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
