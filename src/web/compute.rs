//! Where the numbers are computed: in the Web Worker (the normal case, so
//! typing never waits for a model), or in the page itself (component tests,
//! and a fallback if the worker cannot start). Both speak the same
//! [`ToWorker`] / [`FromWorker`] messages.

use crate::worker_client::WorkerClient;
use attnscope::session::{FromWorker, ModelId, Session, ToWorker};
use std::cell::RefCell;
use std::rc::Rc;

type Reply = Rc<dyn Fn(FromWorker)>;

pub enum Compute {
    Worker(WorkerClient),
    InPage { session: Rc<RefCell<Session>>, reply: Reply },
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

impl Compute {
    /// The worker, or the page itself if the worker cannot be started.
    pub fn start(reply: impl Fn(FromWorker) + 'static) -> Self {
        let reply: Reply = Rc::new(reply);
        let r = reply.clone();
        match WorkerClient::spawn(move |m| r(m)) {
            Ok(w) => Compute::Worker(w),
            Err(_) => Self::in_page_with(reply),
        }
    }

    /// Computes on the page's own thread (the teaching model only).
    pub fn in_page(reply: impl Fn(FromWorker) + 'static) -> Self {
        Self::in_page_with(Rc::new(reply))
    }

    fn in_page_with(reply: Reply) -> Self {
        let reply2 = reply.clone();
        // Reply on a later task, as the worker would, so callers never re-enter themselves.
        leptos::task::spawn_local(async move { reply2(FromWorker::Ready) });
        Compute::InPage { session: Rc::new(RefCell::new(Session::new())), reply }
    }

    pub fn send(&self, msg: ToWorker) {
        match self {
            Compute::Worker(w) => w.send(&msg),
            Compute::InPage { session, reply } => {
                let (session, reply) = (session.clone(), reply.clone());
                leptos::task::spawn_local(async move {
                    let answer = match msg {
                        ToWorker::Load { model } => FromWorker::LoadFailed {
                            model,
                            message: format!("{} needs the background worker, which could not start in this browser", model_name(model)),
                        },
                        other => session.borrow_mut().handle(other, &now_ms),
                    };
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
