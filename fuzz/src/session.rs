//! Any bytes as the worker's messages: a JSON array of `ToWorker` (or one),
//! handled in order by one `Session` (the teaching model: the real ones are
//! not installed, so asking for them must be a clean refusal). Never a
//! panic; every result the page would draw is valid attention.

use attnscope::session::{FromWorker, Session, ToWorker};

fn clock() -> f64 {
    0.0
}

/// One input of the fuzz target `session` (fuzz/fuzz_targets/session.rs).
pub fn run(data: &[u8]) {
    let messages: Vec<ToWorker> = match serde_json::from_slice::<Vec<ToWorker>>(data) {
        Ok(m) => m,
        Err(_) => match serde_json::from_slice::<ToWorker>(data) {
            Ok(m) => vec![m],
            Err(_) => return,
        },
    };
    let mut session = Session::new();
    for msg in messages.into_iter().take(16) {
        let reply = session.handle(msg, &clock);
        match &reply {
            FromWorker::Result(r) => {
                for (l, heads) in r.overview.iter().enumerate() {
                    for h in 0..heads.len() {
                        let d = session.head(l, h).expect("every head of a result has its detail");
                        assert!(
                            d.scores.data.iter().all(|x| x.is_finite()),
                            "scores of a result are finite"
                        );
                        super::assert_attention(&d.weights, d.mask, "result");
                        super::assert_attention(&d.what_if_weights, d.what_if_mask, "what-if");
                    }
                }
            }
            FromWorker::Head(d) => super::assert_attention(&d.weights, d.mask, "head"),
            FromWorker::Compared { detail, .. } => {
                super::assert_attention(&detail.weights, detail.mask, "compared")
            }
            FromWorker::Export { json, .. } => {
                serde_json::from_str::<serde_json::Value>(json).expect("an export is JSON");
            }
            _ => {}
        }
        // The reply crosses to the page as JSON, which must read back.
        let text = serde_json::to_string(&reply).expect("a reply serialises");
        serde_json::from_str::<FromWorker>(&text).expect("a reply reads back");
    }
}
