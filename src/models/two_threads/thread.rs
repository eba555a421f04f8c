//! A helper on a native thread (the CLI's and the benchmarks' second core;
//! the browser's is another Web Worker, `src/worker/helper.rs`). It takes
//! pieces from the last one down, as the browser's does, through a board
//! under a lock: each piece's state and the helper's outputs.

use super::{Heads, Helper, Shard, Shares};
use crate::attention::{Mask, Projections};
use crate::kernels::quant::Input;
use crate::tensor::Matrix;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
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

/// One request, with its number.
enum Request {
    /// The shard's matrices `first .. first + count`, the input.
    Products(u64, usize, usize, Matrix),
    /// A layer's heads ([`Heads`], owned): Q, K, V, heads, key/value heads, mask, scale.
    Heads(u64, [Matrix; 3], usize, usize, Mask, f32),
}

/// The model's side of a helper thread; the thread ends when this is dropped.
pub struct ThreadHelper {
    shard: Arc<Shard>,
    board: Arc<(Mutex<Board>, Condvar)>,
    requests: Sender<Request>,
    clock: Instant,
    delivered: Arc<AtomicUsize>,
    heads_delivered: Arc<AtomicUsize>,
}

/// The lock, whatever a panic elsewhere left in it (the board holds only
/// states and finished outputs, each consistent on its own).
fn lock(board: &Mutex<Board>) -> MutexGuard<'_, Board> {
    board.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ThreadHelper {
    /// A thread holding `shard` (the helper's part of a model's matrices, [`Shard::of`]).
    pub fn start(shard: Shard) -> ThreadHelper {
        let (shard, board) =
            (Arc::new(shard), Arc::new((Mutex::new(Board::default()), Condvar::new())));
        let (delivered, heads_delivered) =
            (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (requests, inbox) = channel::<Request>();
        let (s, b, d, dh) =
            (shard.clone(), board.clone(), delivered.clone(), heads_delivered.clone());
        std::thread::spawn(move || {
            // Takes the pieces of request `seq` from the last one down, while they are free.
            let take =
                |seq: u64, count: usize, compute: &dyn Fn(usize) -> Matrix, d: &AtomicUsize| {
                    for i in (0..count).rev() {
                        {
                            let mut board = lock(&b.0);
                            if board.seq != seq || board.states.get(i) != Some(&State::Free) {
                                break;
                            }
                            board.states[i] = State::Helper;
                        }
                        let out = compute(i);
                        let mut board = lock(&b.0);
                        if board.seq == seq {
                            (board.states[i], board.outputs[i]) = (State::Done, Some(out));
                            d.fetch_add(1, Ordering::Relaxed);
                            b.1.notify_all();
                        }
                    }
                };
            for request in inbox {
                match request {
                    Request::Products(seq, first, count, x) => {
                        let Some(pieces) = s.pieces(first, count, x.cols) else { continue };
                        let input = Input::new(&x);
                        take(seq, pieces.len(), &|i| s.product(first, &pieces[i], &input), &d);
                    }
                    Request::Heads(seq, [q, k, v], n_heads, n_kv_heads, mask, scale) => {
                        let heads = Heads {
                            p: Projections { q: &q, k: &k, v: &v, n_heads, n_kv_heads },
                            mask,
                            scale,
                        };
                        if heads.is_whole() {
                            take(
                                seq,
                                n_heads,
                                &|h| {
                                    let out = heads.to_floats(&heads.head(h));
                                    Matrix::from_vec(1, out.len(), out)
                                },
                                &dh,
                            );
                        }
                    }
                }
            }
        });
        ThreadHelper { shard, board, requests, clock: Instant::now(), delivered, heads_delivered }
    }

    /// A new request of `pieces` pieces, all free: its number.
    fn next_request(&self, pieces: usize) -> u64 {
        let mut board = lock(&self.board.0);
        board.seq += 1;
        (board.states, board.outputs) = (vec![State::Free; pieces], vec![None; pieces]);
        board.seq
    }

    /// Pieces the helper delivered, over all requests.
    pub fn delivered(&self) -> Arc<AtomicUsize> {
        self.delivered.clone()
    }

    /// Heads the helper delivered ([`Helper::begin_heads`]), over all requests.
    pub fn heads_delivered(&self) -> Arc<AtomicUsize> {
        self.heads_delivered.clone()
    }
}

/// Gives `model` a helper thread holding its [`Shard`]: its runs then use two cores.
pub fn share(model: &mut dyn Shares) {
    let helper = ThreadHelper::start(Shard::of(model));
    model.share_with(Box::new(helper));
}

impl Helper for ThreadHelper {
    fn begin(&self, first: usize, parts: &[(usize, usize)], x: &Matrix) {
        // Pieces of other matrices than the model's are not offered: every piece is left free.
        let pieces = self
            .shard
            .holds(first, parts)
            .then(|| self.shard.pieces(first, parts.len(), x.cols))
            .flatten();
        let seq = self.next_request(pieces.as_ref().map_or(0, Vec::len));
        if pieces.is_some() {
            // A helper thread that is gone leaves every piece free: the model computes them.
            let _ = self.requests.send(Request::Products(seq, first, parts.len(), x.clone()));
        }
    }

    fn begin_heads(&self, h: &Heads) -> bool {
        let seq = self.next_request(h.n_heads);
        let request = Request::Heads(
            seq,
            [h.q.clone(), h.k.clone(), h.v.clone()],
            h.n_heads,
            h.n_kv_heads,
            h.mask,
            h.scale,
        );
        self.requests.send(request).is_ok()
    }

    fn claim(&self, i: usize) -> bool {
        let mut board = lock(&self.board.0);
        let free = board.states.get(i).is_none_or(|s| *s == State::Free);
        if let Some(s) = board.states.get_mut(i) {
            *s = State::Model;
        }
        free
    }

    fn collect(&self, i: usize, patience_ms: f64) -> Option<Matrix> {
        let board = lock(&self.board.0);
        // At least a millisecond: waking a sleeping thread takes tens of
        // microseconds, and a piece it is computing is better awaited than
        // computed twice.
        let wait = Duration::from_secs_f64(patience_ms.max(1.0) / 1e3);
        let (mut board, _) = self
            .board
            .1
            .wait_timeout_while(board, wait, |b| b.states.get(i) == Some(&State::Helper))
            .unwrap_or_else(|p| p.into_inner());
        board.outputs.get_mut(i).and_then(Option::take)
    }

    fn now_ms(&self) -> f64 {
        self.clock.elapsed().as_secs_f64() * 1e3
    }
}
