//! SmolLM2 on two threads ([`attnscope::models::split`]): a helper thread
//! holding the second part of every matrix's rows gives bit-for-bit the
//! traces and next-token distributions of the whole model, for full runs and
//! for tokens appended to the cache; a helper that fails makes the run fail
//! with a message; and a split model taken back whole is the model again.

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

#[test]
fn two_threads_give_the_one_thread_results_bit_for_bit() {
    let whole = load();
    let split = load().split();
    assert!(split.shard().matrices.len() == 30 * 7 + 1);
    let shard = split.shard().clone();
    let halves = split.with_helper(Box::new(ThreadHelper::start(shard)));
    assert!(halves.has_helper());
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
        assert!(two.reused_tokens() > 0, "the appended run reused the cache");
        assert_same(&a, &b, &text);
    }
}

#[test]
fn a_failing_helper_fails_the_run_with_a_message() {
    let model = load().split().with_helper(Box::new(BrokenHelper));
    let err = model.run("Hello").unwrap_err().to_string();
    assert!(err.contains("helper"), "{err}");
}

#[test]
fn a_split_model_taken_back_is_the_whole_model() {
    let whole = load();
    let back = load().split().rejoin();
    assert!(!back.has_helper());
    assert_same(&whole.run(TEXTS[0]).unwrap(), &back.run(TEXTS[0]).unwrap(), "rejoined");
}
