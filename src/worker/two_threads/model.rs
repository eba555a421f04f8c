//! The model's side: it starts the helper, hands it its rows, and puts
//! each request into the shared buffer for the helper to take pieces of.

use super::super::fetch::js_text;
use super::*;
use attnscope::attention::Mask;
use attnscope::models::two_threads::{self, Heads, Helper, Piece, SharedRef, Shares};
use attnscope::tensor::Matrix;
use attnscope::trace::KEEP_WEIGHTS_UP_TO;
use js_sys::{Array, Float32Array, Int32Array, Object, Reflect, SharedArrayBuffer, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

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
