//! Buffers the page gives back once it has read a reply's numbers
//! (`tensor::wire::SPARE_BUFFERS`). A reply is posted in buffers of its
//! own, transferred to the page; a new buffer of megabytes costs far more
//! than filling one the page gave back, since the browser maps and zeroes
//! its memory first (docs/performance.md: another head of a long text).

use js_sys::{Array, ArrayBuffer, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// At most this many are kept: a reply has a buffer per large matrix, about ten.
const KEEP: usize = 24;

thread_local! {
    static SPARE: RefCell<Vec<ArrayBuffer>> = const { RefCell::new(Vec::new()) };
}

/// Keeps the buffers of a `[SPARE_BUFFERS, buffer…]` message; false for any other message.
pub fn keep(data: &JsValue) -> bool {
    let Some(parts) = data.dyn_ref::<Array>() else { return false };
    if parts.get(0).as_string().as_deref() != Some(attnscope::tensor::wire::SPARE_BUFFERS) {
        return false;
    }
    SPARE.with(|spare| {
        let mut spare = spare.borrow_mut();
        spare.extend(parts.iter().skip(1).filter_map(|b| b.dyn_into::<ArrayBuffer>().ok()));
        // The largest are the ones worth keeping.
        spare.sort_by_key(|b| std::cmp::Reverse(b.byte_length()));
        spare.truncate(KEEP);
    });
    true
}

/// `bytes` in a buffer to transfer: a spare one that fits (not more than
/// twice their size), else a new one.
pub fn filled(bytes: &[u8]) -> Uint8Array {
    let n = bytes.len();
    let fits = |b: &ArrayBuffer| (n..=2 * n).contains(&(b.byte_length() as usize));
    let spare = SPARE.with(|spare| {
        let mut spare = spare.borrow_mut();
        let best = spare.iter().enumerate().filter(|(_, b)| fits(b)).min_by_key(|(_, b)| b.byte_length()).map(|(i, _)| i);
        best.map(|i| spare.swap_remove(i))
    });
    match spare {
        Some(buffer) => {
            let array = Uint8Array::new_with_byte_offset_and_length(&buffer, 0, n as u32);
            array.copy_from(bytes);
            array
        }
        None => Uint8Array::from(bytes),
    }
}
