//! SmolLM2 on two threads ([`attnscope::models::split`]): a helper thread
//! holding the second part of every matrix's rows gives bit-for-bit the
//! traces and next-token distributions of the model alone, for full runs
//! and for tokens appended to the cache; a helper that fails makes the run
//! fail with a message; runs shorter than the helper's threshold never ask it.

use attnscope::models::smollm2::{SmolLm2, SmolLm2Session};
use attnscope::models::split::{Helper, Shard};
use attnscope::tensor::Matrix;
use attnscope::{Error, ModelTrace};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;

fn load() -> SmolLm2 {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/models/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert!(path.is_file(), "{} is missing: run `python3 scripts/fetch_models.py` first", path.display());
    SmolLm2::load(&path).unwrap()
}

type Request = (usize, usize, Matrix);
type Reply = attnscope::error::Result<Vec<Matrix>>;

/// A helper on a native thread, talking over channels.
struct ThreadHelper {
    requests: Sender<Request>,
    replies: Mutex<Receiver<Reply>>,
}

impl ThreadHelper {
    fn start(shard: Shard) -> ThreadHelper {
        let (requests, inbox) = channel::<Request>();
        let (outbox, replies) = channel::<Reply>();
        std::thread::spawn(move || {
            for (first, count, x) in inbox {
                if outbox.send(shard.products(first, count, &x)).is_err() {
                    break;
                }
            }
        });
        ThreadHelper { requests, replies: Mutex::new(replies) }
    }
}

impl Helper for ThreadHelper {
    fn begin(&self, first: usize, count: usize, x: &Matrix) {
        self.requests.send((first, count, x.clone())).expect("the helper thread is running");
    }

    fn end(&self) -> attnscope::error::Result<Vec<Matrix>> {
        self.replies.lock().unwrap().recv().map_err(|_| Error::Invalid("the helper thread stopped".into()))?
    }
}

/// A helper that has lost its weights.
struct BrokenHelper;

impl Helper for BrokenHelper {
    fn begin(&self, _: usize, _: usize, _: &Matrix) {}
    fn end(&self) -> attnscope::error::Result<Vec<Matrix>> {
        Shard::default().products(0, 1, &Matrix::zeros(1, 576))
    }
}

fn assert_same(a: &ModelTrace, b: &ModelTrace, what: &str) {
    assert_eq!(a.token_ids, b.token_ids, "{what}: tokens");
    for (l, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
        assert!(la.input.data == lb.input.data && la.delta.data == lb.delta.data && la.residual.data == lb.residual.data, "{what}: layer {l} differs");
        for (h, (ha, hb)) in la.attention.heads.iter().zip(&lb.attention.heads).enumerate() {
            assert!(ha.scores.data == hb.scores.data && ha.weights.data == hb.weights.data, "{what}: layer {l} head {h} differs");
        }
    }
    assert_eq!(a.top_next, b.top_next, "{what}: next tokens");
}

const TEXTS: [&str; 3] = ["The capital of France is", "Hi!", "In 2024, 17 robots 🤖 wrote <|im_start|> poems."];

/// The model with a helper thread holding its shard, for runs of at least `from` new tokens.
fn with_helper(from: usize) -> SmolLm2 {
    let mut model = load();
    let shard = model.shard();
    assert_eq!(shard.matrices.len(), 30 * 7 + 1);
    model.set_helper(Some(Box::new(ThreadHelper::start(shard))), from);
    model
}

#[test]
fn two_threads_give_the_one_thread_results_bit_for_bit() {
    let whole = load();
    let halves = with_helper(1);
    assert!(halves.has_helper());
    assert_eq!((halves.threads_for(1), whole.threads_for(16)), (2, 1));
    for text in TEXTS {
        assert_same(&whole.run(text).unwrap(), &halves.run(text).unwrap(), text);
    }

    // Typing at the end: each appended token, through the cache, on both.
    let (mut one, mut two) = (SmolLm2Session::new(whole), SmolLm2Session::new(halves));
    let mut text = String::from("The capital of");
    assert_same(one.run(&text).unwrap(), &two.run(&text).unwrap().clone(), &text);
    for word in [" France", " is", " Paris", "."] {
        text.push_str(word);
        let a = one.run(&text).unwrap().clone();
        let b = two.run(&text).unwrap().clone();
        assert!(two.reused_tokens() > 0 && two.threads() == 2, "the appended token went through the cache, on two threads");
        assert_same(&a, &b, &text);
    }
}

#[test]
fn a_failing_helper_fails_the_run_with_a_message() {
    let mut model = load();
    model.set_helper(Some(Box::new(BrokenHelper)), 1);
    let err = model.run("Hello").unwrap_err().to_string();
    assert!(err.contains("helper"), "{err}");
}

#[test]
fn runs_shorter_than_the_helper_threshold_stay_on_this_thread() {
    // The helper is broken, so any run that used it would fail.
    let mut model = load();
    model.set_helper(Some(Box::new(BrokenHelper)), 4);
    let mut session = SmolLm2Session::new(model);
    assert!(session.run("The capital of France is").is_err(), "five new tokens go to the helper");
    assert!(session.run("Hi").is_ok(), "one token does not");
    assert_eq!(session.threads(), 1);
    assert!(session.run("Hi there").is_ok(), "nor does one appended token");
    assert_eq!((session.reused_tokens(), session.threads()), (1, 1));
}
