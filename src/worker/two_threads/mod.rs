//! A model's second thread in the browser (MiniLM's, SmolLM2's, or a
//! model's opened from files): a
//! [`Helper`](attnscope::models::two_threads::Helper) that is another copy of this
//! worker, holding a copy of the second part of every weight matrix's rows
//! ([`attnscope::models::two_threads::Shard::of`]), which it shares with the
//! model piece by piece ([`attnscope::models::two_threads`]); a long text's
//! heads are shared the same way, each head a piece.
//!
//! The two wasm instances share no memory, and a message between workers
//! takes far longer than one layer's products when a single token is
//! appended (30 layers × 4 products a token). So they meet in a
//! `SharedArrayBuffer`: a few control integers, one state per piece, and
//! room for one input and the helper's outputs. Pieces are claimed with
//! `Atomics.compareExchange` on their state, which carries the request's
//! number, so that a helper still busy with an earlier request can claim
//! nothing of the current one. The helper spins before it sleeps, since
//! within a run the next product follows within microseconds and waking a
//! sleeping thread takes about 10 µs; after a run's last product it sleeps
//! at once. The model never sleeps on the helper: what the helper has not
//! finished in time, the model computes too.
//!
//! `SharedArrayBuffer` exists only on a cross-origin isolated page (served
//! with `Cross-Origin-Opener-Policy: same-origin` and
//! `Cross-Origin-Embedder-Policy: require-corp`, as `scripts/serve.sh`
//! and the tests' server do). Elsewhere, or if the helper cannot start, the
//! model runs alone on one thread.

mod model;
mod serve;

pub use model::{memory_bytes, share, starting};
pub use serve::{is_setup, serve};

use attnscope::models::two_threads::{Heads, Piece};
use js_sys::{Int32Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

// The control integers at the start of the buffer.
/// Raised by this side for each request.
const SEQ: u32 = 0;
const FIRST: u32 = 2;
const COUNT: u32 = 3;
const ROWS: u32 = 4;
const COLS: u32 = 5;
/// The helper's wasm memory, in KiB.
const MEMORY_KIB: u32 = 7;
/// 1 when the request is a run's last product (the output matrix, the last
/// shard matrix): the helper then sleeps at once instead of spinning, and
/// leaves the CPU to the page, which draws the result meanwhile.
const LAST: u32 = 8;
/// Floats of the input's room and of the outputs' ([`Room`]), set once.
const INPUT_ROOM: u32 = 9;
const OUTPUT_ROOM: u32 = 10;
/// 1 once the helper holds its weights: until then the model offers it nothing.
const READY: u32 = 11;
/// 1 once an error has stopped the helper (set by the helper's own error
/// handler): the model then stops waiting for the pieces it holds, in the
/// run under way, and offers it nothing more.
const STOPPED: u32 = 12;
/// What the request is: [`PRODUCTS`] (of the shard's matrices FIRST ..
/// FIRST + COUNT, from an input of ROWS × COLS) or [`HEADS`] (a layer's
/// heads, [`Heads`]: Q, K and V of ROWS tokens one after the other in the
/// input's room, Q COLS wide, the heads' count, the key/value heads', the
/// mask and the scale's bits).
const KIND: u32 = 13;
const N_HEADS: u32 = 14;
const N_KV_HEADS: u32 = 15;
const MASK: u32 = 16;
const WINDOW: u32 = 17;
const SCALE: u32 = 18;
const PRODUCTS: i32 = 0;
const HEADS: i32 = 1;
/// Then one state per piece: the request's number times 4 plus one of
/// FREE, MODEL (claimed by the model), HELPER (claimed by the helper),
/// DONE (the helper's output is in the buffer).
const STATES: u32 = 24;
const MAX_PIECES: u32 = 64;
const CONTROL: u32 = STATES + MAX_PIECES;
const FREE: i32 = 0;
const MODEL: i32 = 1;
const HELPER: i32 = 2;
const DONE: i32 = 3;

/// Room in the shared buffer, after the control integers, in floats: the
/// input, then the helper's outputs.
#[derive(Clone, Copy)]
struct Room {
    input: usize,
    output: usize,
}

impl Room {
    /// Enough for `tokens` rows (the model's limit, or twice the analyses'
    /// limit where that is more: the importance map stacks two variants of
    /// a text) through any block's products (the widest input; the three
    /// largest parts, as the gate and up products or q, k and v come
    /// together), and for the output matrix's part (the last) after each of
    /// `layers` + 1 layers (the logit lens). A larger request is not
    /// offered: the model computes it alone.
    fn for_shard(shapes: &[(usize, usize)], tokens: usize, layers: usize) -> Room {
        let (blocks, output) = shapes.split_at(shapes.len().saturating_sub(1));
        let widest = shapes.iter().map(|s| s.1).max().unwrap_or(0);
        let mut rows: Vec<usize> = blocks.iter().map(|s| s.0).collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let three: usize = rows.iter().take(3).sum();
        let lens = output.first().map_or(0, |s| s.0 * (layers + 1));
        Room { input: tokens * widest, output: (tokens * three).max(lens) }
    }

    fn floats(self) -> usize {
        CONTROL as usize + self.input + self.output
    }
}

/// How long the helper spins on the next request before it sleeps.
const HELPER_SPIN_MS: f64 = 5.0;

/// `pieces` for `n × cols` inputs, each with the place of its output in the
/// shared buffer (after the input), if the input and all outputs fit.
fn place(pieces: Vec<Piece>, n: usize, cols: usize, room: Room) -> Option<Vec<(Piece, u32)>> {
    if pieces.len() > MAX_PIECES as usize || n.checked_mul(cols)? > room.input {
        return None;
    }
    let mut at = room.input;
    let mut placed = Vec::with_capacity(pieces.len());
    for p in pieces {
        let len = n.checked_mul(p.rows.len())?;
        placed.push((p, at as u32));
        at = at.checked_add(len)?;
    }
    (at <= room.input + room.output).then_some(placed)
}

/// Where each head's result goes in the buffer (after Q, K and V), if
/// they and the results fit.
fn place_heads(h: &Heads, room: Room) -> Option<Vec<u32>> {
    let inputs = h.q.data.len().checked_add(h.k.data.len())?.checked_add(h.v.data.len())?;
    let len = h.result_len();
    let fits = h.is_whole()
        && h.n_heads <= MAX_PIECES as usize
        && inputs <= room.input
        && h.n_heads.checked_mul(len)? <= room.output;
    fits.then(|| (0..h.n_heads).map(|i| (room.input + i * len) as u32).collect())
}

/// A piece's state for request `seq`.
fn state(seq: i32, s: i32) -> i32 {
    ((seq & 0x0fff_ffff) << 2) | s
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now_ms() -> f64 {
    scope().performance().map(|p| p.now()).unwrap_or(0.0)
}

// `Atomics` as plain imports. js_sys's versions catch exceptions, and the
// catching wrapper allocates at every call: spinning on a load then kept the
// helper's garbage collector busy. These never throw on our integer array
// with indices below `CONTROL`.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Atomics, js_name = load)]
    fn atomic_load(array: &Int32Array, index: u32) -> i32;
    #[wasm_bindgen(js_namespace = Atomics, js_name = store)]
    fn atomic_store(array: &Int32Array, index: u32, value: i32) -> i32;
    #[wasm_bindgen(js_namespace = Atomics, js_name = compareExchange)]
    fn atomic_compare_exchange(
        array: &Int32Array,
        index: u32,
        expected: i32,
        replacement: i32,
    ) -> i32;
    #[wasm_bindgen(js_namespace = Atomics, js_name = notify)]
    fn atomic_notify(array: &Int32Array, index: u32) -> i32;
    #[wasm_bindgen(js_namespace = Atomics, js_name = wait)]
    fn atomic_wait(array: &Int32Array, index: u32, value: i32, timeout_ms: f64) -> JsValue;
}

fn load(ctrl: &Int32Array, i: u32) -> i32 {
    atomic_load(ctrl, i)
}

fn store(ctrl: &Int32Array, i: u32, v: i32) {
    atomic_store(ctrl, i, v);
}

/// Sets `ctrl[i]` to `new` if it is `old`; whether it was.
fn swap_if(ctrl: &Int32Array, i: u32, old: i32, new: i32) -> bool {
    atomic_compare_exchange(ctrl, i, old, new) == old
}

/// Waits until `ctrl[i]` is no longer `old`, spinning for `spin_ms`, then
/// sleeping.
fn wait_change(ctrl: &Int32Array, i: u32, old: i32, spin_ms: f64) -> i32 {
    let start = now_ms();
    loop {
        for _ in 0..64 {
            let v = load(ctrl, i);
            if v != old {
                return v;
            }
        }
        if now_ms() - start > spin_ms {
            atomic_wait(ctrl, i, old, 100.0);
        }
    }
}

fn memory_kib() -> i32 {
    (super::wasm_memory_bytes() / 1024) as i32
}

/// Whether this worker can share memory with a helper.
pub fn available() -> bool {
    Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
