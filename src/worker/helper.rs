//! SmolLM2's second thread in the browser: a [`Helper`] that is another copy
//! of this worker, holding a copy of the second part of every weight
//! matrix's rows ([`attnscope::models::smollm2::SmolLm2::shard`]).
//!
//! The two wasm instances share no memory, and a message between workers
//! takes far longer than one layer's products when a single token is
//! appended (30 layers × 4 products a token). So they meet in a
//! `SharedArrayBuffer`: a few control integers and room for one input and
//! its outputs, handed over with `Atomics`. Each side spins before it
//! sleeps, since within a run the next product follows within microseconds
//! and waking a sleeping thread takes about 10 µs; after a run's last
//! product the helper sleeps at once. (Sleeping after 50 µs instead made a
//! token appended in the page 17 → 20–33 ms.)
//!
//! `SharedArrayBuffer` exists only on a cross-origin isolated page (served
//! with `Cross-Origin-Opener-Policy: same-origin` and
//! `Cross-Origin-Embedder-Policy: require-corp`, as `scripts/serve.sh`
//! and the tests' server do). Elsewhere, or if the helper cannot start, the
//! model runs alone on one thread.

use attnscope::error::{Error, Result};
use attnscope::models::quant::{QMatrix, QType};
use attnscope::models::smollm2::MAX_TOKENS;
use attnscope::models::split::{Helper, Shard};
use attnscope::tensor::Matrix;
use super::fetch::js_text;
use js_sys::{Array, Atomics, Float32Array, Int32Array, Object, Reflect, SharedArrayBuffer, Uint8Array};
use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

// The control integers at the start of the buffer.
/// Raised by this side for each request.
const SEQ: u32 = 0;
/// Set by the helper to SEQ's value when that request is answered.
const DONE: u32 = 1;
const FIRST: u32 = 2;
const COUNT: u32 = 3;
const ROWS: u32 = 4;
const COLS: u32 = 5;
/// 0 when the outputs are there, 1 when the helper could not compute them.
const STATUS: u32 = 6;
/// The helper's wasm memory, in KiB.
const MEMORY_KIB: u32 = 7;
/// 1 when the request is a run's last product (the output matrix, the last
/// shard matrix): the helper then sleeps at once instead of spinning, and
/// leaves the CPU to the page, which draws the result meanwhile.
const LAST: u32 = 8;
const CONTROL: u32 = 16;

/// Room for the input (all tokens of the widest matrix, `ffn_down`'s
/// 1536 columns) and for the outputs (the helper's half of `ffn_gate` and
/// `ffn_up` for all tokens, or of the output matrix for the last token).
const INPUT_FLOATS: u32 = (MAX_TOKENS * 1536) as u32;
const OUTPUT_FLOATS: u32 = (MAX_TOKENS * 2048) as u32;

/// How long a side spins on the other before it sleeps.
const HELPER_SPIN_MS: f64 = 5.0;
const MODEL_SPIN_MS: f64 = 50.0;
/// After this long without an answer the helper is taken for dead.
const ANSWER_TIMEOUT_MS: f64 = 30_000.0;

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now_ms() -> f64 {
    scope().performance().map(|p| p.now()).unwrap_or(0.0)
}

fn load(ctrl: &Int32Array, i: u32) -> i32 {
    Atomics::load(ctrl, i).unwrap_or(0)
}

fn store(ctrl: &Int32Array, i: u32, v: i32) {
    let _ = Atomics::store(ctrl, i, v);
}

/// Waits until `ctrl[i]` is no longer `old`, spinning for `spin_ms`, then
/// sleeping; None after `timeout_ms`.
fn wait_change(ctrl: &Int32Array, i: u32, old: i32, spin_ms: f64, timeout_ms: f64) -> Option<i32> {
    let start = now_ms();
    loop {
        for _ in 0..64 {
            let v = load(ctrl, i);
            if v != old {
                return Some(v);
            }
        }
        let waited = now_ms() - start;
        if waited > timeout_ms {
            return None;
        }
        if waited > spin_ms {
            let _ = Atomics::wait_with_timeout(ctrl, i, old, 100.0);
        }
    }
}

fn memory_kib() -> i32 {
    (super::wasm_memory_bytes() / 1024) as i32
}

/// Whether this worker can share memory with a helper.
pub fn available() -> bool {
    Reflect::get(&js_sys::global(), &"crossOriginIsolated".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

/// The model's side: requests go into the shared buffer, answers come out.
pub struct SharedHelper {
    worker: Worker,
    ctrl: Int32Array,
    data: Float32Array,
    /// The helper's rows of each shard matrix.
    rows: Vec<usize>,
    seq: Cell<i32>,
    /// The request in flight: first matrix, count, tokens; or why it was not sent.
    pending: Cell<std::result::Result<(usize, usize, usize), &'static str>>,
}

impl Helper for SharedHelper {
    fn begin(&self, first: usize, count: usize, x: &Matrix) {
        let out: usize = self.rows.get(first..first + count).map_or(usize::MAX, |r| r.iter().sum::<usize>().saturating_mul(x.rows));
        if x.data.len() > INPUT_FLOATS as usize || out > OUTPUT_FLOATS as usize {
            self.pending.set(Err("a product larger than the shared buffer"));
            return;
        }
        self.data.subarray(0, x.data.len() as u32).copy_from(&x.data);
        let last = first + count == self.rows.len();
        for (i, v) in [(FIRST, first), (COUNT, count), (ROWS, x.rows), (COLS, x.cols), (LAST, last as usize)] {
            store(&self.ctrl, i, v as i32);
        }
        let seq = self.seq.get().wrapping_add(1).max(1);
        self.seq.set(seq);
        store(&self.ctrl, SEQ, seq);
        let _ = Atomics::notify(&self.ctrl, SEQ);
        self.pending.set(Ok((first, count, x.rows)));
    }

    fn end(&self) -> Result<Vec<Matrix>> {
        let (first, count, n) = self.pending.replace(Err("no product begun")).map_err(|why| Error::Invalid(format!("the helper thread was not asked: {why}")))?;
        let seq = self.seq.get();
        let mut done = load(&self.ctrl, DONE);
        let start = now_ms();
        while done != seq {
            let left = ANSWER_TIMEOUT_MS - (now_ms() - start);
            done = wait_change(&self.ctrl, DONE, done, MODEL_SPIN_MS, left).ok_or_else(|| Error::Invalid("the helper thread stopped answering; reload the page".into()))?;
        }
        if load(&self.ctrl, STATUS) != 0 {
            return Err(Error::Invalid("the helper thread could not compute its part (see the console); reload the page".into()));
        }
        let mut at = INPUT_FLOATS;
        let mut outs = Vec::with_capacity(count);
        for &rows in &self.rows[first..first + count] {
            let mut m = Matrix::zeros(n, rows);
            let len = (n * rows) as u32;
            self.data.subarray(at, at + len).copy_to(&mut m.data);
            at += len;
            outs.push(m);
        }
        Ok(outs)
    }
}

impl Drop for SharedHelper {
    fn drop(&mut self) {
        RUNNING.with(|r| *r.borrow_mut() = None);
        self.worker.terminate();
    }
}

thread_local! {
    /// The running helper's control integers, for [`memory_bytes`].
    static RUNNING: std::cell::RefCell<Option<Int32Array>> = const { std::cell::RefCell::new(None) };
}

/// The running helper's wasm memory (0 without one).
pub fn memory_bytes() -> u64 {
    RUNNING.with(|r| r.borrow().as_ref().map_or(0, |ctrl| load(ctrl, MEMORY_KIB).max(0) as u64 * 1024))
}

/// A promise of the worker's next message (or of its failure to run).
fn next_message(worker: &Worker) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, reject| {
        let on_message = Closure::once_into_js(move |e: MessageEvent| resolve.call1(&JsValue::NULL, &e.data()));
        let on_error = Closure::once_into_js(move |e: web_sys::ErrorEvent| reject.call1(&JsValue::NULL, &JsValue::from_str(&e.message())));
        worker.set_onmessage(Some(on_message.unchecked_ref()));
        worker.set_onerror(Some(on_error.unchecked_ref()));
    })
}

/// Starts a copy of this worker and hands it `shard`. On success the
/// helper is ready to compute; otherwise the reason, and the caller keeps
/// the model whole.
pub async fn start(shard: &Shard) -> std::result::Result<SharedHelper, String> {
    if !available() {
        return Err("the page is not cross-origin isolated".into());
    }
    let href = scope().location().href();
    let worker = Worker::new(&href).map_err(|e| format!("cannot start a helper worker: {}", js_text(&e)))?;
    // A Worker is dropped without being stopped: terminate it on any failure.
    let fail = |worker: &Worker, why: String| {
        worker.terminate();
        why
    };
    if let Err(e) = JsFuture::from(next_message(&worker)).await {
        return Err(fail(&worker, format!("the helper worker did not start: {}", js_text(&e))));
    }
    let buffer = SharedArrayBuffer::new((CONTROL + INPUT_FLOATS + OUTPUT_FLOATS) * 4);
    let (matrices, transfer) = (Array::new(), Array::new());
    for m in &shard.matrices {
        let bytes = Uint8Array::from(m.bytes());
        let entry = Object::new();
        for (key, value) in [("rows", JsValue::from(m.rows as u32)), ("cols", JsValue::from(m.cols as u32)), ("qtype", JsValue::from(m.qtype.ggml_id())), ("inputs16", JsValue::from(m.has_16_bit_inputs())), ("bytes", bytes.buffer().into())] {
            let _ = Reflect::set(&entry, &key.into(), &value);
        }
        matrices.push(&entry);
        transfer.push(&bytes.buffer());
    }
    let init = Object::new();
    let _ = Reflect::set(&init, &"helperBuffer".into(), &buffer);
    let _ = Reflect::set(&init, &"matrices".into(), &matrices);
    let answer = next_message(&worker);
    if let Err(e) = worker.post_message_with_transfer(&init, &transfer) {
        return Err(fail(&worker, format!("cannot hand the weights to the helper: {}", js_text(&e))));
    }
    match JsFuture::from(answer).await {
        Ok(reply) if reply.as_string().as_deref() == Some("helper ready") => {}
        Ok(reply) => return Err(fail(&worker, format!("the helper could not take the weights: {}", js_text(&reply)))),
        Err(e) => return Err(fail(&worker, format!("the helper stopped: {}", js_text(&e)))),
    }
    worker.set_onmessage(None);
    worker.set_onerror(None);
    let ctrl = Int32Array::new_with_byte_offset_and_length(&buffer, 0, CONTROL);
    let data = Float32Array::new_with_byte_offset(&buffer, CONTROL * 4);
    let rows = shard.matrices.iter().map(|m| m.rows).collect();
    RUNNING.with(|r| *r.borrow_mut() = Some(ctrl.clone()));
    Ok(SharedHelper { worker, ctrl, data, rows, seq: Cell::new(0), pending: Cell::new(Err("no product begun")) })
}

/// Whether `message` is a helper's setup (from [`start`]) rather than the page's JSON.
pub fn is_setup(message: &JsValue) -> bool {
    Reflect::has(message, &"helperBuffer".into()).unwrap_or(false)
}

fn shard_from(init: &JsValue) -> std::result::Result<Shard, String> {
    let field = |o: &JsValue, key: &str| Reflect::get(o, &key.into()).map_err(|e| js_text(&e));
    let number = |o: &JsValue, key: &str| field(o, key)?.as_f64().map(|v| v as usize).ok_or(format!("`{key}` is not a number"));
    let entries: Array = field(init, "matrices")?.dyn_into().map_err(|_| "`matrices` is not an array".to_string())?;
    let mut matrices = Vec::with_capacity(entries.length() as usize);
    for entry in entries.iter() {
        let qtype = QType::from_ggml(number(&entry, "qtype")? as u32).ok_or("unknown weight type")?;
        let bytes = Uint8Array::new(&field(&entry, "bytes")?).to_vec();
        let m = QMatrix::new(number(&entry, "rows")?, number(&entry, "cols")?, qtype, bytes).map_err(|e| e.to_string())?;
        let inputs16 = field(&entry, "inputs16")?.as_bool() == Some(true);
        matrices.push(if inputs16 { m.with_16_bit_inputs() } else { m });
    }
    Ok(Shard { matrices })
}

/// The helper's side: takes the weights from `init`, says it is ready,
/// then answers requests for as long as the worker lives (this never
/// returns: the helper has no other work).
pub fn serve(init: JsValue) {
    let shard = match shard_from(&init) {
        Ok(s) => s,
        Err(e) => {
            let _ = scope().post_message(&JsValue::from_str(&e));
            return;
        }
    };
    let Some(buffer) = Reflect::get(&init, &"helperBuffer".into()).ok().and_then(|b| b.dyn_into::<SharedArrayBuffer>().ok()) else {
        let _ = scope().post_message(&JsValue::from_str("no shared buffer"));
        return;
    };
    drop(init);
    let ctrl = Int32Array::new_with_byte_offset_and_length(&buffer, 0, CONTROL);
    let data = Float32Array::new_with_byte_offset(&buffer, CONTROL * 4);
    store(&ctrl, MEMORY_KIB, memory_kib());
    let _ = scope().post_message(&JsValue::from_str("helper ready"));
    let (mut seq, mut spin_ms) = (load(&ctrl, SEQ), 0.0);
    loop {
        seq = wait_change(&ctrl, SEQ, seq, spin_ms, f64::INFINITY).unwrap_or(seq);
        spin_ms = if load(&ctrl, LAST) == 1 { 0.0 } else { HELPER_SPIN_MS };
        let [first, count, n, cols] = [FIRST, COUNT, ROWS, COLS].map(|i| load(&ctrl, i).max(0) as usize);
        let ok = answer(&shard, &data, first, count, n, cols).map_err(|e| web_sys::console::error_1(&format!("attnscope helper: {e}").into())).is_ok();
        store(&ctrl, STATUS, if ok { 0 } else { 1 });
        store(&ctrl, MEMORY_KIB, memory_kib());
        store(&ctrl, DONE, seq);
        let _ = Atomics::notify(&ctrl, DONE);
    }
}

fn answer(shard: &Shard, data: &Float32Array, first: usize, count: usize, n: usize, cols: usize) -> Result<()> {
    if n.saturating_mul(cols) > INPUT_FLOATS as usize {
        return Err(Error::Invalid(format!("{n} × {cols} inputs do not fit the shared buffer")));
    }
    let mut x = Matrix::zeros(n, cols);
    data.subarray(0, (n * cols) as u32).copy_to(&mut x.data);
    let outs = shard.products(first, count, &x)?;
    if outs.iter().map(|m| m.data.len()).sum::<usize>() > OUTPUT_FLOATS as usize {
        return Err(Error::Invalid("the outputs do not fit the shared buffer".into()));
    }
    let mut at = INPUT_FLOATS;
    for m in outs {
        data.subarray(at, at + m.data.len() as u32).copy_from(&m.data);
        at += m.data.len() as u32;
    }
    Ok(())
}
