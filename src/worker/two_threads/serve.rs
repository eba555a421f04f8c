//! The helper's side: this worker, started as another one's helper, takes
//! the pieces of each request it can and writes their results back.

use super::super::fetch::js_text;
use super::*;
use attnscope::attention::{Mask, Projections};
use attnscope::kernels::packed::PackedLinear;
use attnscope::kernels::quant::{Input, QMatrix, QType};
use attnscope::models::two_threads::{Heads, Shard, ShardMatrix};
use attnscope::tensor::Matrix;
use js_sys::{Array, Float32Array, Int32Array, Reflect, SharedArrayBuffer, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
