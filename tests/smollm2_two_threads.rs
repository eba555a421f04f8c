//! SmolLM2 on two threads ([`attnscope::models::helper`]): a helper thread
//! holding the second part of every matrix's rows, sharing its pieces with
//! the model's thread, gives bit-for-bit the traces and next-token
//! distributions of the model alone, for full runs and for tokens appended
//! to the cache; a helper that never delivers changes nothing either; runs
//! shorter than the helper's threshold never ask it.

mod common;

use attnscope::models::helper::{Helper, Shard};
use attnscope::models::quant::Input;
use attnscope::models::smollm2::{SmolLm2, SmolLm2Session};
use attnscope::tensor::Matrix;
use attnscope::ModelTrace;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::smollm2_owned as load;

#[derive(Clone, Copy, PartialEq)]
enum State {
    Free,
    Model,
    Helper,
    Done,
}

/// The request in hand: its number, each piece's state and the helper's outputs.
#[derive(Default)]
struct Board {
    seq: u64,
    states: Vec<State>,
    outputs: Vec<Option<Matrix>>,
}

/// A helper on a native thread, taking pieces from the last one down as
/// the browser's does, through a board under a lock.
struct ThreadHelper {
    shard: Arc<Shard>,
    board: Arc<(Mutex<Board>, Condvar)>,
    requests: Sender<(u64, usize, usize, Matrix)>,
    clock: Instant,
    /// Pieces the helper delivered, over all requests.
    delivered: Arc<AtomicUsize>,
}

impl ThreadHelper {
    fn start(shard: Shard) -> ThreadHelper {
        let (shard, board) = (Arc::new(shard), Arc::new((Mutex::new(Board::default()), Condvar::new())));
        let delivered = Arc::new(AtomicUsize::new(0));
        let (requests, inbox) = channel::<(u64, usize, usize, Matrix)>();
        let (s, b, d) = (shard.clone(), board.clone(), delivered.clone());
        std::thread::spawn(move || {
            for (seq, first, count, x) in inbox {
                let pieces = s.pieces(first, count, x.cols).expect("a request the shard can answer");
                let input = Input::new(&x);
                for (i, piece) in pieces.iter().enumerate().rev() {
                    {
                        let mut board = b.0.lock().unwrap();
                        if board.seq != seq || board.states[i] != State::Free {
                            break;
                        }
                        board.states[i] = State::Helper;
                    }
                    let out = s.product(first, piece, &input);
                    let mut board = b.0.lock().unwrap();
                    if board.seq == seq {
                        (board.states[i], board.outputs[i]) = (State::Done, Some(out));
                        d.fetch_add(1, Ordering::Relaxed);
                        b.1.notify_all();
                    }
                }
            }
        });
        ThreadHelper { shard, board, requests, clock: Instant::now(), delivered }
    }
}

impl Helper for ThreadHelper {
    fn begin(&self, first: usize, count: usize, x: &Matrix) {
        let n = self.shard.pieces(first, count, x.cols).expect("a request the shard can answer").len();
        let seq = {
            let mut board = self.board.0.lock().unwrap();
            board.seq += 1;
            (board.states, board.outputs) = (vec![State::Free; n], vec![None; n]);
            board.seq
        };
        self.requests.send((seq, first, count, x.clone())).expect("the helper thread is running");
    }

    fn claim(&self, i: usize) -> bool {
        let mut board = self.board.0.lock().unwrap();
        let free = board.states[i] == State::Free;
        if free {
            board.states[i] = State::Model;
        }
        free
    }

    fn collect(&self, i: usize, patience_ms: f64) -> Option<Matrix> {
        let board = self.board.0.lock().unwrap();
        // Patient beyond the model's own pacing, so that the test sees pieces delivered.
        let wait = Duration::from_secs_f64((patience_ms / 1e3).max(0.05));
        let (mut board, _) = self.board.1.wait_timeout_while(board, wait, |b| b.states[i] == State::Helper).unwrap();
        board.outputs[i].take()
    }

    fn now_ms(&self) -> f64 {
        self.clock.elapsed().as_secs_f64() * 1e3
    }
}

/// A helper that claims every piece and never delivers one; it counts the
/// requests it is given.
struct Stuck(Arc<AtomicUsize>);

impl Helper for Stuck {
    fn begin(&self, _: usize, _: usize, _: &Matrix) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
    fn claim(&self, _: usize) -> bool {
        false
    }
    fn collect(&self, _: usize, _: f64) -> Option<Matrix> {
        None
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

fn assert_same(a: &ModelTrace, b: &ModelTrace, what: &str) {
    assert_eq!(a.token_ids, b.token_ids, "{what}: tokens");
    for (l, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
        assert!(
            la.input.data == lb.input.data && la.delta.data == lb.delta.data && la.residual.data == lb.residual.data,
            "{what}: layer {l} differs"
        );
        for (h, (ha, hb)) in la.attention.heads.iter().zip(&lb.attention.heads).enumerate() {
            assert!(ha.scores.data == hb.scores.data && ha.weights.data == hb.weights.data, "{what}: layer {l} head {h} differs");
        }
    }
    assert_eq!(a.top_next, b.top_next, "{what}: next tokens");
}

const TEXTS: [&str; 3] = ["The capital of France is", "Hi!", "In 2024, 17 robots 🤖 wrote <|im_start|> poems."];

/// The model with a helper thread holding its shard, for runs of at least
/// `from` new tokens; and the count of pieces the helper delivers.
fn with_helper(from: usize) -> (SmolLm2, Arc<AtomicUsize>) {
    let mut model = load();
    let shard = model.shard();
    assert_eq!(shard.matrices.len(), 30 * 7 + 1);
    let helper = ThreadHelper::start(shard);
    let delivered = helper.delivered.clone();
    model.set_helper(Some(Box::new(helper)), from);
    (model, delivered)
}

#[test]
fn two_threads_give_the_one_thread_results_bit_for_bit() {
    let whole = load();
    let (halves, delivered) = with_helper(1);
    assert!(halves.has_helper());
    assert_eq!((halves.threads_for(1), whole.threads_for(16)), (2, 1));
    for text in TEXTS {
        assert_same(&whole.run(text).unwrap(), &halves.run(text).unwrap(), text);
    }
    assert!(delivered.load(Ordering::Relaxed) > 0, "the helper delivered pieces");

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
fn a_helper_that_never_delivers_changes_nothing() {
    let whole = load();
    let mut model = load();
    model.set_helper(Some(Box::new(Stuck(Arc::new(AtomicUsize::new(0))))), 1);
    for text in TEXTS {
        assert_same(&whole.run(text).unwrap(), &model.run(text).unwrap(), text);
    }
}

#[test]
fn runs_shorter_than_the_helper_threshold_stay_on_this_thread() {
    let asked = Arc::new(AtomicUsize::new(0));
    let mut model = load();
    model.set_helper(Some(Box::new(Stuck(asked.clone()))), 4);
    let mut session = SmolLm2Session::new(model);
    session.run("Hi").unwrap();
    assert_eq!((asked.load(Ordering::Relaxed), session.threads()), (0, 1), "one token is not shared");
    session.run("Hi there").unwrap();
    assert_eq!((asked.load(Ordering::Relaxed), session.reused_tokens(), session.threads()), (0, 1, 1), "nor is one appended token");
    session.run("The capital of France is").unwrap();
    assert!(asked.load(Ordering::Relaxed) > 0, "five new tokens are");
    assert_eq!(session.threads(), 2);
}
