//! A model's second thread in the browser (MiniLM's, SmolLM2's, or a
//! model's opened from files): a [`Helper`] that is another copy of this
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

use super::fetch::js_text;
use attnscope::attention::{Mask, Projections};
use attnscope::kernels::packed::PackedLinear;
use attnscope::kernels::quant::{Input, QMatrix, QType};
use attnscope::models::two_threads::{
    self, Heads, Helper, Piece, Shard, ShardMatrix, SharedRef, Shares,
};
use attnscope::tensor::Matrix;
use attnscope::trace::KEEP_WEIGHTS_UP_TO;
use js_sys::{Array, Float32Array, Int32Array, Object, Reflect, SharedArrayBuffer, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

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

/// The model's side: requests go into the shared buffer, pieces come out.
pub struct SharedHelper {
    worker: Worker,
    ctrl: Int32Array,
    data: Float32Array,
    /// Rows and columns of each shard matrix (the helper's part).
    shapes: Vec<(usize, usize)>,
    room: Room,
    seq: Cell<i32>,
    /// The request in hand, or None when it was not offered (the model
    /// then claims every piece).
    offered: RefCell<Option<Offer>>,
    /// Why the helper takes no part any more: it could not take its
    /// weights, or it stopped (an error in it). Set from its messages.
    lost: Rc<RefCell<Option<String>>>,
}

/// A request offered to the helper: where each piece's output is in the
/// buffer, and its rows and columns.
struct Offer {
    outputs: Vec<(u32, usize, usize)>,
}

impl SharedHelper {
    /// Offers a request: its pieces' states, its `inputs` one after the
    /// other at the start of the room, its `control` integers, then its
    /// number, which the helper waits on.
    fn offer(&self, offer: Offer, inputs: &[&[f32]], control: &[(u32, i32)]) {
        let seq = self.seq.get().wrapping_add(1) & 0x0fff_ffff;
        self.seq.set(seq);
        // The new states first: a helper still on the last request then
        // cannot claim a piece of this one, whatever it read.
        for i in 0..offer.outputs.len() as u32 {
            store(&self.ctrl, STATES + i, state(seq, FREE));
        }
        let mut at = 0;
        for input in inputs {
            self.data.subarray(at, at + input.len() as u32).copy_from(input);
            at += input.len() as u32;
        }
        for &(i, v) in control {
            store(&self.ctrl, i, v);
        }
        store(&self.ctrl, SEQ, seq);
        atomic_notify(&self.ctrl, SEQ);
        *self.offered.borrow_mut() = Some(offer);
    }

    /// The pieces of shard matrices `first ..` of the shapes `parts`
    /// ([`Helper::begin`]) for `n × cols` inputs, placed in the buffer
    /// ([`place`]), if the helper holds such matrices there and they fit.
    fn layout(
        &self,
        first: usize,
        parts: &[(usize, usize)],
        n: usize,
        cols: usize,
    ) -> Option<Vec<(Piece, u32)>> {
        let shapes = self.shapes.get(first..first.checked_add(parts.len())?)?;
        if shapes != parts || shapes.iter().any(|s| s.1 != cols) {
            return None;
        }
        place(two_threads::pieces(shapes), n, cols, self.room)
    }
}

impl Helper for SharedHelper {
    fn begin(&self, first: usize, parts: &[(usize, usize)], x: &Matrix) {
        let Some(pieces) = self.layout(first, parts, x.rows, x.cols).filter(|_| self.ready())
        else {
            *self.offered.borrow_mut() = None;
            return;
        };
        let (count, last) = (parts.len(), first + parts.len() == self.shapes.len());
        let control = [
            (KIND, PRODUCTS),
            (FIRST, first as i32),
            (COUNT, count as i32),
            (ROWS, x.rows as i32),
            (COLS, x.cols as i32),
            (LAST, last as i32),
        ];
        let outputs = pieces.iter().map(|(p, at)| (*at, x.rows, p.rows.len())).collect();
        self.offer(Offer { outputs }, &[&x.data], &control);
    }

    fn begin_heads(&self, h: &Heads) -> bool {
        let Some(outputs) = place_heads(h, self.room).filter(|_| self.ready()) else {
            *self.offered.borrow_mut() = None;
            return false;
        };
        let (mask, window) = match h.mask {
            Mask::None => (0, 0),
            Mask::Causal => (1, 0),
            Mask::SlidingWindow(w) => (2, w.min(i32::MAX as usize) as i32),
        };
        let control = [
            (KIND, HEADS),
            (ROWS, h.q.rows as i32),
            (COLS, h.q.cols as i32),
            (N_HEADS, h.n_heads as i32),
            (N_KV_HEADS, h.n_kv_heads as i32),
            (MASK, mask),
            (WINDOW, window),
            (SCALE, h.scale.to_bits() as i32),
            (LAST, 0),
        ];
        let outputs = outputs.into_iter().map(|at| (at, 1, h.result_len())).collect();
        self.offer(Offer { outputs }, &[&h.q.data, &h.k.data, &h.v.data], &control);
        true
    }

    fn claim(&self, i: usize) -> bool {
        if self.offered.borrow().is_none() {
            return true;
        }
        let seq = self.seq.get();
        swap_if(&self.ctrl, STATES + i as u32, state(seq, FREE), state(seq, MODEL))
    }

    fn collect(&self, i: usize, patience_ms: f64) -> Option<Matrix> {
        let offered = self.offered.borrow();
        let offer = offered.as_ref()?;
        let &(at, rows, cols) = offer.outputs.get(i)?;
        let (seq, index) = (self.seq.get(), STATES + i as u32);
        let start = now_ms();
        loop {
            if load(&self.ctrl, STOPPED) == 1 {
                return None;
            }
            for _ in 0..32 {
                let s = load(&self.ctrl, index);
                if s == state(seq, DONE) {
                    let mut m = Matrix::zeros(rows, cols);
                    self.data.subarray(at, at + m.data.len() as u32).copy_to(&mut m.data);
                    return Some(m);
                }
                if s != state(seq, HELPER) {
                    return None;
                }
            }
            if now_ms() - start > patience_ms {
                return None;
            }
        }
    }

    fn now_ms(&self) -> f64 {
        now_ms()
    }

    fn ready(&self) -> bool {
        load(&self.ctrl, READY) == 1
            && load(&self.ctrl, STOPPED) == 0
            && self.lost.borrow().is_none()
    }

    fn lost(&self) -> Option<String> {
        // The error's message arrives as an event, after the run under way;
        // the buffer says at once that the helper stopped.
        let stopped = load(&self.ctrl, STOPPED) == 1;
        self.lost
            .borrow()
            .clone()
            .or_else(|| stopped.then(|| "the helper worker stopped".to_string()))
    }
}

impl Drop for SharedHelper {
    fn drop(&mut self) {
        RUNNING.with(|r| r.borrow_mut().retain(|ctrl| !Object::is(ctrl, &self.ctrl)));
        self.worker.terminate();
    }
}

thread_local! {
    /// The running helpers' control integers (SmolLM2's and an opened
    /// decoder's may both run), for [`memory_bytes`].
    static RUNNING: RefCell<Vec<Int32Array>> = const { RefCell::new(Vec::new()) };
}

/// The running helpers' wasm memory (0 without one).
pub fn memory_bytes() -> u64 {
    RUNNING
        .with(|r| r.borrow().iter().map(|ctrl| load(ctrl, MEMORY_KIB).max(0) as u64 * 1024).sum())
}

/// A promise of the worker's next message (or of its failure to run).
fn next_message(worker: &Worker) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, reject| {
        let on_message =
            Closure::once_into_js(move |e: MessageEvent| resolve.call1(&JsValue::NULL, &e.data()));
        let on_error = Closure::once_into_js(move |e: web_sys::ErrorEvent| {
            // Handled here: not passed on to this worker's own scope, where
            // it would end this worker too.
            e.prevent_default();
            reject.call1(&JsValue::NULL, &JsValue::from_str(&e.message()))
        });
        worker.set_onmessage(Some(on_message.unchecked_ref()));
        worker.set_onerror(Some(on_error.unchecked_ref()));
    })
}

/// Gives `model` a helper thread where the page allows it (every run: the
/// model never waits long for the helper, `models/helper.rs`, so even with
/// two cores, one of them also the page's, sharing costs at worst about
/// what it saves). Where it cannot, the model runs on one thread, and the
/// console says why.
pub async fn share(model: &mut dyn Shares, starting: Option<Result<Starting, String>>) {
    let starting = match starting {
        None => return,
        Some(Ok(starting)) => starting,
        Some(Err(why)) => return alone(model, why),
    };
    // The helper's part of each matrix, straight from the model's blocks: a
    // copy in this instance's memory first would stay as its peak. A
    // decoder's output matrix is shared too: with one token typed, a large
    // vocabulary's (Gemma 3's 262k rows) is most of the weights read.
    let (_, max_tokens, layers) = model.limits();
    let parts = model.shared();
    let started = start(starting, &parts, max_tokens, layers).await;
    drop(parts);
    match started {
        Ok(helper) => model.share_with(Box::new(helper)),
        Err(why) => alone(model, why),
    }
}

/// The model on one thread, the console and its runs' status saying why.
fn alone(model: &mut dyn Shares, why: String) {
    web_sys::console::warn_1(
        &format!("attnscope: {} runs on one thread: {why}", model.limits().0).into(),
    );
    model.run_alone(why);
}

/// A helper worker on its way up: created before the model's weights are
/// read, so that its script loads and its wasm compiles on the other core
/// meanwhile. Dropped unused, it is stopped.
pub struct Starting {
    worker: Option<Worker>,
    started: js_sys::Promise,
}

impl Drop for Starting {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.terminate();
        }
    }
}

/// The helper worker's name, as the browser's developer tools list it.
const HELPER_NAME: &str = "attnscope helper";

/// Creates a copy of this worker to become a model's helper ([`share`]);
/// None where the page cannot share memory (not cross-origin isolated), or
/// why the worker cannot be created.
pub fn starting() -> Option<Result<Starting, String>> {
    if !available() {
        return None;
    }
    let options = web_sys::WorkerOptions::new();
    options.set_name(HELPER_NAME);
    Some(match Worker::new_with_options(&scope().location().href(), &options) {
        Ok(worker) => {
            let started = next_message(&worker);
            Ok(Starting { worker: Some(worker), started })
        }
        Err(e) => Err(format!("no helper worker could be started: {}", js_text(&e))),
    })
}

/// Hands the helper worker of `starting` its part ([`helper::own_rows`] on)
/// of `matrices`, of a model of `layers` layers that takes at most
/// `max_tokens` (a decoder's output matrix last). On success the helper is
/// ready to compute; otherwise the reason, and the caller keeps the model whole.
async fn start(
    mut starting: Starting,
    matrices: &[SharedRef<'_>],
    max_tokens: usize,
    layers: usize,
) -> std::result::Result<SharedHelper, String> {
    let worker = starting.worker.take().ok_or("the helper worker is gone")?;
    // A Worker is dropped without being stopped: terminate it on any failure.
    let fail = |worker: &Worker, why: String| {
        worker.terminate();
        why
    };
    if let Err(e) = JsFuture::from(starting.started.clone()).await {
        return Err(fail(&worker, format!("the helper worker did not start: {}", js_text(&e))));
    }
    let part = |m: &SharedRef| two_threads::own_rows(m.shape().0)..m.shape().0;
    let shapes: Vec<(usize, usize)> =
        matrices.iter().map(|m| (part(m).len(), m.shape().1)).collect();
    let room =
        Room::for_shard(&shapes, max_tokens.max(2 * max_tokens.min(KEEP_WEIGHTS_UP_TO)), layers);
    let bytes = u32::try_from(room.floats() * 4)
        .map_err(|_| fail(&worker, "the model is too wide to share with a helper".into()))?;
    let buffer = SharedArrayBuffer::new(bytes);
    let ctrl = Int32Array::new_with_byte_offset_and_length(&buffer, 0, CONTROL);
    store(&ctrl, INPUT_ROOM, room.input as i32);
    store(&ctrl, OUTPUT_ROOM, room.output as i32);
    let (entries, transfer) = (Array::new(), Array::new());
    for m in matrices {
        let (rows, cols) = (part(m), m.shape().1);
        let entry = Object::new();
        let mut fields =
            vec![("rows", JsValue::from(rows.len() as u32)), ("cols", JsValue::from(cols as u32))];
        match m {
            SharedRef::Quant(q) => {
                let bytes = Uint8Array::from(q.rows_bytes(rows.clone()));
                fields.extend([
                    ("qtype", JsValue::from(q.qtype.ggml_id())),
                    ("inputs16", JsValue::from(q.has_16_bit_inputs())),
                    ("bytes", bytes.buffer().into()),
                ]);
                transfer.push(&bytes.buffer());
            }
            SharedRef::Packed(p) => {
                let (panels, bias) = p.panels(rows.clone());
                let (bytes, bias) = (Uint8Array::from(panels), Float32Array::from(bias));
                fields.extend([("panels", bytes.buffer().into()), ("bias", bias.buffer().into())]);
                transfer.push(&bytes.buffer());
                transfer.push(&bias.buffer());
            }
        }
        for (key, value) in fields {
            let _ = Reflect::set(&entry, &key.into(), &value);
        }
        entries.push(&entry);
    }
    let init = Object::new();
    let _ = Reflect::set(&init, &"helperBuffer".into(), &buffer);
    let _ = Reflect::set(&init, &"matrices".into(), &entries);
    // Not awaited: the model is used at once and offers the helper work
    // once it says READY (it copies and checks its weights meanwhile, a few
    // hundred ms for Qwen2.5 0.5B's). One that fails runs nothing.
    let answer = next_message(&worker);
    if let Err(e) = worker.post_message_with_transfer(&init, &transfer) {
        return Err(fail(
            &worker,
            format!("cannot hand the weights to the helper: {}", js_text(&e)),
        ));
    }
    let lost = Rc::new(RefCell::new(None));
    let (lost_here, helper) = (lost.clone(), worker.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let why = match JsFuture::from(answer).await {
            Ok(reply) if reply.as_string().as_deref() == Some("helper ready") => {
                // From now on its only message would be an error: it stopped.
                let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(
                    move |e: web_sys::ErrorEvent| {
                        e.prevent_default();
                        web_sys::console::warn_1(
                            &format!("attnscope: the helper worker stopped: {}", e.message())
                                .into(),
                        );
                        *lost_here.borrow_mut() =
                            Some(format!("the helper worker stopped: {}", e.message()));
                    },
                );
                helper.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                on_error.forget(); // lives as long as the helper
                return;
            }
            Ok(reply) => {
                format!("the helper worker could not take the weights: {}", js_text(&reply))
            }
            Err(e) => format!("the helper worker stopped: {}", js_text(&e)),
        };
        web_sys::console::warn_1(&format!("attnscope: the model runs on one thread: {why}").into());
        *lost_here.borrow_mut() = Some(why);
    });
    let data = Float32Array::new_with_byte_offset(&buffer, CONTROL * 4);
    RUNNING.with(|r| r.borrow_mut().push(ctrl.clone()));
    Ok(SharedHelper {
        worker,
        ctrl,
        data,
        shapes,
        room,
        seq: Cell::new(0),
        offered: RefCell::new(None),
        lost,
    })
}

/// Whether `message` is a helper's setup (from [`start`]) rather than the page's JSON.
pub fn is_setup(message: &JsValue) -> bool {
    Reflect::has(message, &"helperBuffer".into()).unwrap_or(false)
}

fn shard_from(init: &JsValue) -> std::result::Result<Shard, String> {
    let field = |o: &JsValue, key: &str| Reflect::get(o, &key.into()).map_err(|e| js_text(&e));
    let number = |o: &JsValue, key: &str| {
        field(o, key)?.as_f64().map(|v| v as usize).ok_or(format!("`{key}` is not a number"))
    };
    let entries: Array = field(init, "matrices")?
        .dyn_into()
        .map_err(|_| "`matrices` is not an array".to_string())?;
    let mut matrices = Vec::with_capacity(entries.length() as usize);
    for entry in entries.iter() {
        let (rows, cols) = (number(&entry, "rows")?, number(&entry, "cols")?);
        if Reflect::has(&entry, &"panels".into()).unwrap_or(false) {
            let panels = Uint8Array::new(&field(&entry, "panels")?).to_vec();
            let bias = Float32Array::new(&field(&entry, "bias")?).to_vec();
            matrices
                .push(ShardMatrix::Packed(PackedLinear::from_panels(cols, rows, &panels, &bias)?));
            continue;
        }
        let qtype =
            QType::from_ggml(number(&entry, "qtype")? as u32).ok_or("unknown weight type")?;
        let bytes = Uint8Array::new(&field(&entry, "bytes")?).to_vec();
        let m = QMatrix::new(rows, cols, qtype, bytes).map_err(|e| e.to_string())?;
        let inputs16 = field(&entry, "inputs16")?.as_bool() == Some(true);
        matrices.push(ShardMatrix::Quant(if inputs16 { m.with_16_bit_inputs() } else { m }));
    }
    Ok(Shard { matrices })
}

/// The helper's side: takes the weights from `init`, says it is ready,
/// then takes pieces of requests for as long as the worker lives (this
/// never returns: the helper has no other work).
pub fn serve(init: JsValue) {
    let shard = match shard_from(&init) {
        Ok(s) => s,
        Err(e) => {
            let _ = scope().post_message(&JsValue::from_str(&e));
            return;
        }
    };
    let Some(buffer) = Reflect::get(&init, &"helperBuffer".into())
        .ok()
        .and_then(|b| b.dyn_into::<SharedArrayBuffer>().ok())
    else {
        let _ = scope().post_message(&JsValue::from_str("no shared buffer"));
        return;
    };
    drop(init);
    let ctrl = Int32Array::new_with_byte_offset_and_length(&buffer, 0, CONTROL);
    let data = Float32Array::new_with_byte_offset(&buffer, CONTROL * 4);
    let room = Room {
        input: load(&ctrl, INPUT_ROOM).max(0) as usize,
        output: load(&ctrl, OUTPUT_ROOM).max(0) as usize,
    };
    if room.floats() * 4 > buffer.byte_length() as usize {
        let _ =
            scope().post_message(&JsValue::from_str("the shared buffer is smaller than its room"));
        return;
    }
    store(&ctrl, MEMORY_KIB, memory_kib());
    say_when_stopped(&ctrl);
    store(&ctrl, READY, 1);
    let _ = scope().post_message(&JsValue::from_str("helper ready"));
    let (mut seq, mut spin_ms) = (load(&ctrl, SEQ), 0.0);
    loop {
        seq = wait_change(&ctrl, SEQ, seq, spin_ms);
        spin_ms = if load(&ctrl, LAST) == 1 { 0.0 } else { HELPER_SPIN_MS };
        let [first, count, n, cols] =
            [FIRST, COUNT, ROWS, COLS].map(|i| load(&ctrl, i).max(0) as usize);
        match load(&ctrl, KIND) {
            HEADS => take_heads(&ctrl, &data, room, seq, n, cols),
            _ => take_pieces(&shard, &ctrl, &data, room, seq, Asked { first, count, n, cols }),
        }
        store(&ctrl, MEMORY_KIB, memory_kib());
    }
}

/// An error that ends [`serve`]'s loop (a trap in the wasm, an exception
/// from the browser) stops the helper for good, perhaps holding a piece of
/// a run under way: its handler here says so in the buffer at once, before
/// the event reaches the model's worker, which is busy with that run.
fn say_when_stopped(ctrl: &Int32Array) {
    let ctrl = ctrl.clone();
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
        store(&ctrl, STOPPED, 1);
        atomic_notify(&ctrl, STOPPED);
    });
    let _ = scope().add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    on_error.forget(); // lives as long as the helper
}

/// Computes heads of request `seq` ([`Heads`]) from the last one down, for
/// as long as the model has not claimed them. A request whose numbers do
/// not hold together (read while the model was writing the next one) is
/// left alone, as in [`take_pieces`].
fn take_heads(ctrl: &Int32Array, data: &Float32Array, room: Room, seq: i32, n: usize, cols: usize) {
    let [n_heads, n_kv_heads, mask, window] =
        [N_HEADS, N_KV_HEADS, MASK, WINDOW].map(|i| load(ctrl, i).max(0) as usize);
    let mask = match mask {
        0 => Mask::None,
        1 => Mask::Causal,
        _ => Mask::SlidingWindow(window),
    };
    let scale = f32::from_bits(load(ctrl, SCALE) as u32);
    let kv_cols = match (cols.checked_div(n_heads), n_kv_heads) {
        (Some(d), kv) => d.saturating_mul(kv),
        _ => return,
    };
    let lens = [n.saturating_mul(cols), n.saturating_mul(kv_cols), n.saturating_mul(kv_cols)];
    if lens
        .iter()
        .try_fold(0usize, |sum, len| sum.checked_add(*len))
        .is_none_or(|all| all > room.input)
    {
        return;
    }
    let mut at = 0;
    let [q, k, v] =
        [(lens[0], cols), (lens[1], kv_cols), (lens[2], kv_cols)].map(|(len, width)| {
            let mut m = Matrix::zeros(n, width);
            data.subarray(at, at + len as u32).copy_to(&mut m.data);
            at += len as u32;
            m
        });
    let heads = Heads { p: Projections { q: &q, k: &k, v: &v, n_heads, n_kv_heads }, mask, scale };
    let Some(outputs) = place_heads(&heads, room) else { return };
    take_from_last(ctrl, data, seq, &outputs, |h| heads.to_floats(&heads.head(h)));
}

/// Claims the pieces of request `seq` from the last one down, each while
/// it is still free, and writes `compute(i)` at `outputs[i]` in the buffer.
fn take_from_last(
    ctrl: &Int32Array,
    data: &Float32Array,
    seq: i32,
    outputs: &[u32],
    compute: impl Fn(usize) -> Vec<f32>,
) {
    for (i, &at) in outputs.iter().enumerate().rev() {
        let index = STATES + i as u32;
        if !swap_if(ctrl, index, state(seq, FREE), state(seq, HELPER)) {
            return;
        }
        let out = compute(i);
        data.subarray(at, at + out.len() as u32).copy_from(&out);
        swap_if(ctrl, index, state(seq, HELPER), state(seq, DONE));
    }
}

/// What a request of pieces asks for, as the control integers say it: the
/// pieces of `count` matrices of the shard from matrix `first` on, for an
/// input of `n` rows of `cols`.
#[derive(Clone, Copy)]
struct Asked {
    first: usize,
    count: usize,
    n: usize,
    cols: usize,
}

/// Computes the pieces `asked` by request `seq` from the last one down, for
/// as long as the model has not claimed them. A request that does not fit
/// (read while the model was already writing the next one) is left alone:
/// none of its pieces can then be claimed anyway.
fn take_pieces(
    shard: &Shard,
    ctrl: &Int32Array,
    data: &Float32Array,
    room: Room,
    seq: i32,
    asked: Asked,
) {
    let Asked { first, count, n, cols } = asked;
    let Some(pieces) = shard.pieces(first, count, cols).and_then(|p| place(p, n, cols, room))
    else {
        return;
    };
    let mut x = Matrix::zeros(n, cols);
    data.subarray(0, x.data.len() as u32).copy_to(&mut x.data);
    let x = Input::new(&x);
    let outputs: Vec<u32> = pieces.iter().map(|(_, at)| *at).collect();
    take_from_last(ctrl, data, seq, &outputs, |i| shard.product(first, &pieces[i].0, &x).data);
}
