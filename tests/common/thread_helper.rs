//! A helper thread for the models' two-thread runs ([`attnscope::models::helper`]),
//! natively: it takes pieces from the last one down, as the browser's helper
//! worker does, through a board under a lock; and one that never delivers.

use attnscope::models::helper::{Helper, Shard};
use attnscope::models::quant::Input;
use attnscope::tensor::Matrix;
use attnscope::ModelTrace;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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
pub struct ThreadHelper {
    shard: Arc<Shard>,
    board: Arc<(Mutex<Board>, Condvar)>,
    requests: Sender<(u64, usize, usize, Matrix)>,
    clock: Instant,
    /// Pieces the helper delivered, over all requests.
    pub delivered: Arc<AtomicUsize>,
}

impl ThreadHelper {
    pub fn start(shard: Shard) -> ThreadHelper {
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
pub struct Stuck(pub Arc<AtomicUsize>);

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

pub fn assert_same(a: &ModelTrace, b: &ModelTrace, what: &str) {
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
    assert_eq!(a.sentence_embedding, b.sentence_embedding, "{what}: sentence embedding");
}
